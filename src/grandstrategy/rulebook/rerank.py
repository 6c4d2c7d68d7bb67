"""A learned re-ranker over the fused ranking's best few sections (issue 16 follow-up).

The fused ranking (BM25 and the semantic ranker, ``assistant.RulesAssistant.rank``) often has the right
section second or third behind a neighbour that shares the question's words. This module re-orders the
first ``CANDIDATES`` sections with a linear model over evidence the rankers already computed: BM25 and
cosine scores and ranks, how much of the question the section's title, terms and best fact cover, the
section's depth and its parent or children among the candidates, and the fused score itself.

The model is a conditional logit (softmax over one question's candidates) trained on the development
sets only (``players-dev``, ``players-hard-dev`` and the Q&A-pattern ``dev``) by
``benchmarks/train_reranker.py``, which also reports cross-validated accuracy. Its weights ship as
``data/reranker.json`` with their provenance; training is deterministic (full-batch gradient descent from
zero), so the same data gives the same file. If the file is missing or malformed, the fused order stands.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from grandstrategy.rulebook.index import Hit, Query, RulesIndex

RERANKER_RESOURCE = "reranker.json"
CANDIDATES = 10  # how many of the fused ranking's best sections the model re-orders
# The section the fused order put first keeps its place unless the model scores another at least this much
# higher (in logits). Cross-validated top-1 is flat (within two questions) for margins 0 to 0.75 and falls
# beyond; the middle of that range changes the first answer least where the model is unsure.
MARGIN = 0.5

FEATURES = (
    "fused",  # the fused score (1.0 for the best possible)
    "fused_rank",  # 1 / position in the fused ranking
    "bm25_share",  # BM25 / the best BM25 of any section
    "bm25_rank",  # 1 / BM25 rank among all sections
    "bm25_log",  # log(1 + BM25)
    "cosine",  # the semantic ranker's score (mean of the two best cosines)
    "cosine_gap",  # cosine - the best cosine of any section
    "cosine_rank",  # 1 / cosine rank among all sections
    "cosine_max",  # the section's single best vector
    "cosine_title",  # the title-and-summary vector
    "coverage",  # share of the question's specific words the section's document holds
    "priority",  # exact glossary / title / term match (0-1)
    "chapter",  # a chapter heading (5.0)
    "deep",  # three or more levels (5.5.2)
    "title_share",  # share of the title's words the question uses
    "title_groups",  # share of the question's words found in the title
    "term_groups",  # share of the question's words found in the terms, players' words, glossary
    "fact_groups",  # share of the question's words found in the section's best fact
    "parent_above",  # the section's parent ranks above it among the candidates
    "child_below",  # one of its sub-sections is among the candidates
    "length_log",  # log of the section's document length (broad sections attract stray words)
    "passage_share",  # best BM25 of one of its passages (title+terms, summary, paraphrase, a fact) / best
    "passage_rank",  # 1 / rank of that among all sections
    "index_defines",  # the LR index names it as where a term of the question is defined
    "index_context",  # the LR index names it for a term of the question in a context the question names
    "topic_coverage",  # share of the question's words other than unit words (tank, fleet) it holds
    "briefed_share",  # BM25 with the rules brief's words added to each section / the best of any section
    "briefed_rank",  # 1 / rank of that among all sections
)


@dataclass(frozen=True)
class Reranker:
    """A linear scorer over standardised features: score = sum(w * (x - mean) / scale)."""

    weights: npt.NDArray[np.float64]
    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]

    def scores(self, matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """One score per row of the feature matrix (higher is better)."""
        result: npt.NDArray[np.float64] = ((matrix - self.mean) / self.scale) @ self.weights
        return result

    def to_json(self, provenance: dict[str, Any]) -> dict[str, Any]:
        """The shipped file's shape: feature names with their weight, mean and scale, plus provenance."""
        return {
            "version": 1,
            "candidates": CANDIDATES,
            "provenance": provenance,
            "features": [
                {
                    "name": name,
                    "weight": round(float(w), 6),
                    "mean": round(float(m), 6),
                    "scale": round(float(s), 6),
                }
                for name, w, m, s in zip(FEATURES, self.weights, self.mean, self.scale, strict=True)
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> Reranker | None:
        """The model of a parsed file, or None when it does not fit this code's features."""
        if not isinstance(data, dict) or not isinstance(data.get("features"), list):
            return None
        rows = data["features"]
        try:
            names = tuple(str(row["name"]) for row in rows)
            values = [(float(row["weight"]), float(row["mean"]), float(row["scale"])) for row in rows]
        except (KeyError, TypeError, ValueError):
            return None
        if names != FEATURES or any(not math.isfinite(v) for row in values for v in row):
            return None
        weights, mean, scale = (np.array(column, dtype=np.float64) for column in zip(*values, strict=True))
        if np.any(scale <= 0):
            return None
        return cls(weights=weights, mean=mean, scale=scale)


@lru_cache(maxsize=1)
def shipped_reranker() -> Reranker | None:
    """The model shipped in ``data/reranker.json`` (None if absent or unreadable: fused order stands)."""
    try:
        raw = (resources.files("grandstrategy.rulebook") / "data" / RERANKER_RESOURCE).read_bytes()
        return Reranker.from_json(json.loads(raw))
    except (OSError, ValueError):
        return None


def _inverse_rank(values: npt.NDArray[np.float64], value: float) -> float:
    """1 / rank (1-based, best first, ties sharing the better rank) of ``value`` among ``values``; 0 for
    a value that is not above zero (no evidence)."""
    if value <= 0:
        return 0.0
    return 1.0 / (1 + int(np.count_nonzero(values > value)))


def _passages_by_section(index: RulesIndex, query: Query) -> npt.NDArray[np.float64]:
    """Per section (index order): the best BM25 of one of its passages (passages are stored by section)."""
    scores = np.asarray(index.passages.get_scores(query.stems), dtype=np.float64)
    best: npt.NDArray[np.float64] = np.maximum.reduceat(scores, index.passage_starts)
    return best


def _concordance(index: RulesIndex, query: Query) -> tuple[dict[int, float], dict[int, float]]:
    """Per section position: how well the question names a term the LR index defines there, and a term
    in a context (term share x context share) the index points there for."""
    asked = {token for group in query.specific_groups() for token in group}
    defines: dict[int, float] = {}
    context: dict[int, float] = {}
    entries = sorted({e for token in asked for e in index.concordance_by_stem.get(token, [])})
    for entry in entries:
        term = index.concordance_terms[entry]
        share = len(term & asked) / len(term)
        if share < 0.5:
            continue
        where = index.concordance_contexts[entry]
        if where:
            share *= len(where & asked) / len(where)
            target = context
        else:
            target = defines
        for position in index.concordance_owners[entry]:
            target[position] = max(share, target.get(position, 0.0))
    return defines, context


def features(
    index: RulesIndex,
    query: Query,
    hits: list[Hit],
    candidates: list[tuple[Hit, float]],
) -> npt.NDArray[np.float64]:
    """The feature matrix (one row per candidate, FEATURES order) for the fused ranking's best sections.

    ``hits`` is every section's evidence (for the best BM25 and cosine and the ranks); ``candidates`` the
    sections to re-order, best first, each with its fused score.
    """
    passage = _passages_by_section(index, query)
    briefed = np.asarray(index.briefed.get_scores(query.stems), dtype=np.float64)
    best_briefed = float(briefed.max(initial=0.0)) or 1.0
    defines, context = _concordance(index, query)
    best_passage = float(passage.max()) or 1.0
    bm25_all = np.array([hit.bm25 for hit in hits], dtype=np.float64)
    cosine_all = np.array([hit.cosine for hit in hits], dtype=np.float64)
    best_bm25 = float(bm25_all.max(initial=0.0)) or 1.0
    best_cosine = float(cosine_all.max(initial=0.0))
    groups = query.specific_groups()
    asked = max(1, len(groups) + len(set(query.unknown)))
    stems = {token for group in groups for token in group}
    numbers = [hit.number for hit, _ in candidates]
    topics = [group for group in groups if not group <= index.unit_stems | {"__none__"}]
    similarities = query.similarities
    matrix = np.zeros((len(candidates), len(FEATURES)), dtype=np.float64)
    for row, (hit, fused) in enumerate(candidates):
        position = index.position[hit.number]
        cosine_max = cosine_title = 0.0
        if similarities is not None and index.section_rows is not None:
            owned = index.section_rows[position]
            owned = owned[owned >= 0]
            if len(owned):
                cosine_title = float(similarities[owned[0]])
                cosine_max = float(similarities[owned].max())
        title = index.title_stems[position]
        terms = index.term_stems[position]
        fact_best = max(
            (
                sum(1 for group in groups if group & index.fact_stems[i])
                for i in index.fact_rows.get(hit.number, [])
            ),
            default=0,
        )
        parts = hit.number.split(".")
        parent = parent_of(hit.number)
        matrix[row] = (
            fused,
            1.0 / (row + 1),
            hit.bm25 / best_bm25,
            _inverse_rank(bm25_all, hit.bm25),
            math.log1p(hit.bm25),
            hit.cosine,
            hit.cosine - best_cosine,
            _inverse_rank(cosine_all, hit.cosine),
            cosine_max,
            cosine_title,
            hit.coverage,
            hit.priority / 4.0,
            1.0 if len(parts) == 2 and parts[1] == "0" else 0.0,
            1.0 if len(parts) >= 3 else 0.0,
            len(title & stems) / len(title) if title else 0.0,
            sum(1 for group in groups if group & title) / asked,
            sum(1 for group in groups if group & terms) / asked,
            fact_best / asked,
            1.0 if parent and parent in numbers[:row] else 0.0,
            1.0 if any(is_inside(other, hit.number) for other in numbers) else 0.0,
            math.log(index.document_lengths[position]),
            passage[position] / best_passage,
            _inverse_rank(passage, float(passage[position])),
            defines.get(position, 0.0),
            context.get(position, 0.0),
            sum(1 for group in topics if group & index.documents[position]) / len(topics) if topics else 0.0,
            float(briefed[position]) / best_briefed,
            _inverse_rank(briefed, float(briefed[position])),
        )
    return matrix


def new_order(scores: npt.NDArray[np.float64], incumbent: int, margin: float = MARGIN) -> list[int]:
    """Candidate positions best first by score, except that ``incumbent`` (the old first) stays first
    unless the best beats it by ``margin``."""
    order = sorted(range(len(scores)), key=lambda i: (-float(scores[i]), i))
    if order and order[0] != incumbent and float(scores[order[0]] - scores[incumbent]) < margin:
        order.remove(incumbent)
        order.insert(0, incumbent)
    return order


def parent_of(number: str) -> str:
    """The section a number belongs to: 5.5.2 -> 5.5, 5.5 -> 5.0, 5.0 -> '' (none)."""
    parts = number.split(".")
    if len(parts) >= 3:
        return ".".join(parts[:-1])
    if len(parts) == 2 and parts[1] != "0":
        return f"{parts[0]}.0"
    return ""


def is_inside(number: str, parent: str) -> bool:
    """Whether ``number`` is a sub-section (at any depth) of ``parent`` (5.0 holds 5.5 and 5.5.2)."""
    if parent.endswith(".0") and parent.count(".") == 1:
        return number != parent and number.split(".")[0] == parent.split(".")[0]
    return number.startswith(parent + ".")
