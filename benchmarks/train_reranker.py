"""Train the rules assistant's re-ranker (src/grandstrategy/rulebook/rerank.py) on the development sets.

    .venv/bin/python benchmarks/train_reranker.py            # cross-validate, then print the model
    .venv/bin/python benchmarks/train_reranker.py --write    # ... and write data/reranker.json

Training data: every question of ``players-dev``, ``players-hard-dev`` and the Q&A-pattern ``dev`` set
(never a held-out set). For each question the fused ranking's best ``CANDIDATES`` sections are the
choices; a choice is right when the scoring rule of ``rules eval`` accepts it for one of the labels. The
model is a conditional logit: softmax over one question's candidates, loss = -log of the probability of
the right ones, L2 penalty, full-batch gradient descent from zero weights (deterministic).

Cross-validation: the questions are split into ``FOLDS`` folds by a hash of their text; each fold is
scored by a model trained on the others, and top-1/top-3 over the candidates is compared with the fused
order as the assistant used it before (sub-section first). Refusals are not part of this measure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from grandstrategy.rulebook.assistant import RulesAssistant
from grandstrategy.rulebook.evaluate import builtin_set, label_accepts, normalise_question
from grandstrategy.rulebook.rerank import (
    CANDIDATES,
    FEATURES,
    MARGIN,
    RERANKER_RESOURCE,
    Reranker,
    features,
    new_order,
)

TRAIN_SETS = ("players-dev", "players-hard-dev", "dev")
FOLDS = 5
L2 = 0.01
STEPS = 3000
RATE = 0.5
OUTPUT = (
    Path(__file__).resolve().parents[1] / "src" / "grandstrategy" / "rulebook" / "data" / RERANKER_RESOURCE
)

Matrix = npt.NDArray[np.float64]


@dataclass
class Example:
    """One question's candidates: features, which are right, and the old order's choices."""

    set_name: str
    question: str
    matrix: Matrix
    right: npt.NDArray[np.bool_]
    old: list[int]  # candidate positions in the order the assistant used before (sub-section first)
    fold: int


def fold_of(question: str) -> int:
    """A fixed fold for a question, from its normalised text."""
    return hashlib.sha256(normalise_question(question).encode()).digest()[1] % FOLDS


def collect(assistant: RulesAssistant) -> list[Example]:
    """The candidates of every training question (questions with no right candidate are kept: misses)."""
    examples: list[Example] = []
    for name in TRAIN_SETS:
        for item in builtin_set(name):
            query = assistant.index.parse(item.question)
            if query.numbers:
                continue
            ranked = assistant.rank(query)
            if not ranked:
                continue
            candidates = ranked[:CANDIDATES]
            specific = assistant._specific_first(ranked)[:CANDIDATES]
            old = [candidates.index(r) if r in candidates else 0 for r in specific]
            pairs = [(r.hit, r.fused) for r in candidates]
            matrix = features(assistant.index, query, [r.hit for r in ranked], pairs)
            right = np.array(
                [any(label_accepts(label, r.hit.number) for label in item.sections) for r in candidates]
            )
            examples.append(Example(name, item.question, matrix, right, old, fold_of(item.question)))
    return examples


def standardise(examples: list[Example]) -> tuple[Matrix, Matrix]:
    """Mean and scale of every feature over all candidate rows (scale 1 for a constant feature)."""
    rows = np.vstack([e.matrix for e in examples])
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return mean, scale


def train(examples: list[Example], l2: float = L2, steps: int = STEPS) -> Reranker:
    """Fit the conditional logit on the examples that have a right candidate (vectorised over all rows)."""
    usable = [e for e in examples if e.right.any()]
    mean, scale = standardise(usable)
    rows = (np.vstack([e.matrix for e in usable]) - mean) / scale
    right = np.concatenate([e.right for e in usable])
    sizes = np.array([len(e.right) for e in usable])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(usable)), sizes)
    weights = np.zeros(len(FEATURES))
    for _ in range(steps):
        scores = rows @ weights
        scores -= np.maximum.reduceat(scores, starts)[owner]
        p = np.exp(scores)
        p /= np.add.reduceat(p, starts)[owner]
        q = np.where(right, p, 0.0)
        q /= np.add.reduceat(q, starts)[owner]
        gradient = rows.T @ (p - q) / len(usable) + l2 * weights
        weights -= RATE * gradient
    return Reranker(weights=weights, mean=mean, scale=scale)


def score(examples: list[Example], order_of: dict[int, list[int]]) -> dict[str, tuple[float, float, int]]:
    """Top-1 and top-3 per set given each example's order of candidate positions."""
    result: dict[str, tuple[float, float, int]] = {}
    for name in TRAIN_SETS:
        chosen = [(i, e) for i, e in enumerate(examples) if e.set_name == name]
        top1 = sum(1 for i, e in chosen if e.right[order_of[i][0]])
        top3 = sum(1 for i, e in chosen if e.right[order_of[i][:3]].any())
        result[name] = (top1 / len(chosen), top3 / len(chosen), len(chosen))
    return result


def cross_validate(
    examples: list[Example], l2: float, steps: int, margin: float = MARGIN
) -> dict[str, tuple[float, float, int]]:
    """Each fold scored by a model trained on the other folds (the old first kept unless beaten by
    ``margin``)."""
    order: dict[int, list[int]] = {}
    for fold in range(FOLDS):
        model = train([e for e in examples if e.fold != fold], l2, steps)
        for i, e in enumerate(examples):
            if e.fold == fold:
                order[i] = new_order(model.scores(e.matrix), e.old[0], margin)
    return score(examples, order)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write data/reranker.json")
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--margins", action="store_true", help="cross-validate several margins")
    args = parser.parse_args()
    assistant = RulesAssistant.load()
    examples = collect(assistant)
    old = score(examples, {i: e.old for i, e in enumerate(examples)})
    if args.margins:
        for margin in (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0):
            result = cross_validate(examples, args.l2, args.steps, margin)
            shown = "  ".join(f"{n} {t1:.1%}/{t3:.1%}" for n, (t1, t3, _) in result.items())
            print(f"margin {margin}: {shown}")
    cv = cross_validate(examples, args.l2, args.steps)
    print(f"{'set':18} {'n':>4}  fused top-1/top-3   cross-validated re-ranker top-1/top-3")
    for name in TRAIN_SETS:
        (o1, o3, n), (c1, c3, _) = old[name], cv[name]
        print(f"{name:18} {n:4}  {o1:6.1%} / {o3:6.1%}     {c1:6.1%} / {c3:6.1%}")
    model = train(examples, args.l2, args.steps)
    for name, weight in zip(FEATURES, model.weights, strict=True):
        print(f"  {name:14} {weight:+.3f}")
    if args.write:
        provenance = {
            "trained_by": "benchmarks/train_reranker.py",
            "training_sets": list(TRAIN_SETS),
            "questions": len(examples),
            "l2": args.l2,
            "steps": args.steps,
            "cross_validated": {
                name: {"top1": round(cv[name][0], 4), "top3": round(cv[name][1], 4)} for name in TRAIN_SETS
            },
        }
        OUTPUT.write_text(json.dumps(model.to_json(provenance), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
