"""Fast start (issue 16): ``grandstrategy rules ask`` imports only what answering needs.

No timings here (see benchmarks/rules_latency.py): the tests check which modules a cold process imports,
and that the shortcuts taken for speed (a compact tokenizer, a memory-mapped embedding matrix, BM25 columns
summed with numpy) give exactly what the libraries they replace give.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grandstrategy.rulebook.assistant import RulesAssistant
from grandstrategy.rulebook.bm25 import Bm25Scores
from grandstrategy.rulebook.digest import digest_bytes
from grandstrategy.rulebook.evaluate import ALL_SETS, builtin_set
from grandstrategy.rulebook.semantic import TENSOR, map_tensor, model_files
from grandstrategy.rulebook.tokenizer import CompactTokenizer, UnsupportedTokenizer, load_tokenizer

# Never needed to answer a question from a built index.
HEAVY = (
    "grandstrategy.cataclysm",
    "grandstrategy.axis_allies",
    "grandstrategy.play",
    "grandstrategy.research",
    "pydantic",
    "rich",
    "yaml",
    "bm25s",
    "scipy",
    "tokenizers",
    "safetensors",
    "rapidfuzz",
)
PROBE = """
import json, sys
from grandstrategy.cli import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    code = done.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def run_probe(*args: str) -> tuple[int, list[str], str]:
    """Run the CLI in a fresh interpreter: exit code, the modules it imported, what it printed before."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True, env=dict(os.environ)
    )
    *printed, last = result.stdout.strip().splitlines()
    data = json.loads(last)
    return int(data["code"] or 0), data["modules"], "\n".join(printed)


def loaded(modules: list[str], name: str) -> bool:
    return any(module == name or module.startswith(name + ".") for module in modules)


def test_rules_ask_imports_nothing_it_does_not_use(assistant: RulesAssistant) -> None:
    run_probe("rules", "ask", "what is a flag")  # the first run may build the caches
    code, modules, printed = run_probe("rules", "ask", "what is a flag")
    assert code == 0
    assert "LR 5.2 Flags" in printed
    assert [name for name in HEAVY if loaded(modules, name)] == []
    assert "grandstrategy.rulebook.semantic" in modules  # the semantic ranker did run


def test_a_misspelt_word_still_gets_corrected_with_rapidfuzz_loaded_on_demand(
    assistant: RulesAssistant,
) -> None:
    code, modules, printed = run_probe("rules", "ask", "what is a flagg")
    assert code == 0
    assert "LR 5.2" in printed
    assert loaded(modules, "rapidfuzz")
    assert not loaded(modules, "grandstrategy.cataclysm")


def test_top_level_help_lists_every_command_without_importing_them() -> None:
    from grandstrategy.cli import COMMANDS

    code, modules, printed = run_probe("--help")
    assert code == 0
    listed = {line.split()[0] for line in printed.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(COMMANDS)
    assert not any(loaded(modules, module) for module, _, _ in COMMANDS.values())
    assert [name for name in HEAVY if loaded(modules, name)] == []


# The compact tokenizer against the tokenizers library.


def tricky_texts() -> list[str]:
    texts = [item.question for name in ALL_SETS for item in builtin_set(name)]
    texts += digest_bytes().decode("utf-8").splitlines()[:2000]
    texts += [
        "",
        " ",
        "  two  spaces ",
        "<s>start</s> and <unk> tokens<s>",
        "héllo wörld ☃ 日本語 🎲 naïve café",
        "tab\tnew\nline",
        "▁▁already marked",
        "x" * 400,
        "\udcff lone surrogate",
    ]
    return texts


def test_the_compact_tokenizer_matches_the_tokenizers_library(tmp_path: Path) -> None:
    from tokenizers import Tokenizer

    _, tokenizer_file = model_files()
    compact = load_tokenizer(tokenizer_file, use_cache=False)
    assert compact.chunked
    reference = Tokenizer.from_file(str(tokenizer_file))
    for text in tricky_texts():
        if "\udcff" in text:  # a Rust string cannot hold it; the compact one encodes it as bytes
            assert compact.encode(text)
            continue
        assert compact.encode(text) == reference.encode(text, add_special_tokens=False).ids, text


def test_the_tokenizer_cache_is_keyed_by_the_files_checksum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRANDSTRATEGY_CACHE_DIR", str(tmp_path / "cache"))
    _, tokenizer_file = model_files()
    first = load_tokenizer(tokenizer_file)
    assert len(list((tmp_path / "cache").glob("tokenizer-*.pickle"))) == 1
    assert load_tokenizer(tokenizer_file).merges == first.merges  # read back from the cache
    data = json.loads(tokenizer_file.read_bytes())
    data["model"]["merges"] = data["model"]["merges"][:100]  # a different model: rebuilt, not reused
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    smaller = load_tokenizer(changed)
    assert len(smaller.merged) == 100
    assert len(list((tmp_path / "cache").glob("tokenizer-*.pickle"))) == 2
    assert smaller.encode("declaration of war") != first.encode("declaration of war")


def test_a_tokenizer_it_cannot_reproduce_is_refused() -> None:
    _, tokenizer_file = model_files()
    data = json.loads(tokenizer_file.read_bytes())
    data["pre_tokenizer"] = {"type": "Whitespace"}
    with pytest.raises(UnsupportedTokenizer):
        CompactTokenizer.from_json(data)


def test_the_memory_mapped_matrix_is_the_safetensors_tensor() -> None:
    from safetensors import safe_open

    weights, _ = model_files()
    mapped = map_tensor(weights, TENSOR)
    with safe_open(str(weights), framework="np") as handle:
        tensor = handle.get_tensor(TENSOR)
    assert mapped.shape == tensor.shape and mapped.dtype == tensor.dtype
    rows = [0, 1, 17, 4000, 31999]
    assert np.array_equal(mapped[rows], tensor[rows])


def test_bm25_columns_give_the_scores_bm25s_gives() -> None:
    import bm25s

    corpus = [["flag", "polit", "action"], ["naval", "fleet", "sea", "fleet"], ["flag", "sea"], ["war"]]
    ours = Bm25Scores.build(corpus)
    theirs = bm25s.BM25(k1=1.2, b=0.75)
    theirs.index(corpus, show_progress=False)
    for query in (["flag"], ["fleet", "sea", "fleet"], ["war", "flag", "naval"], ["unknown", "sea"]):
        expected = theirs.get_scores(query)
        got = ours.get_scores(query)
        assert got.dtype == expected.dtype
        assert np.array_equal(got, expected), query
    assert not ours.get_scores(["unknown"]).any()


def test_a_tokenizer_it_cannot_reproduce_falls_back_to_the_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grandstrategy.rulebook.semantic import LibraryEncoder, _load_encoder

    monkeypatch.setenv("GRANDSTRATEGY_CACHE_DIR", str(tmp_path / "cache"))
    _, tokenizer_file = model_files()
    data = json.loads(tokenizer_file.read_bytes())
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first"}
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data), encoding="utf-8")
    encoder = _load_encoder(other)
    assert isinstance(encoder, LibraryEncoder)
    assert encoder.encode("flag")


def test_a_small_or_damaged_safetensors_file(tmp_path: Path) -> None:
    from safetensors.numpy import save_file

    from grandstrategy.rulebook.semantic import UnmappableTensor

    values = np.arange(12, dtype=np.float32).reshape(4, 3)
    path = tmp_path / "tiny.safetensors"
    save_file({"embedding.weight": values}, str(path))
    assert np.array_equal(map_tensor(path, "embedding.weight"), values)
    cut = tmp_path / "cut.safetensors"
    cut.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(ValueError, match="does not fit"):
        map_tensor(cut, "embedding.weight")
    header = json.loads(path.read_bytes()[8 : 8 + int.from_bytes(path.read_bytes()[:8], "little")])
    header["embedding.weight"]["dtype"] = "BF16"
    text = json.dumps(header).encode()
    odd = tmp_path / "odd.safetensors"
    odd.write_bytes(len(text).to_bytes(8, "little") + text + values.tobytes())
    with pytest.raises(UnmappableTensor):
        map_tensor(odd, "embedding.weight")
