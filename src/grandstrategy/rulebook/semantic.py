"""The semantic ranker's model: WordLlama's static token embeddings, read offline from its wheel.

The ``wordllama`` package on PyPI ships its weights (``weights/l2_supercat_256.safetensors``, 32,000 x 256)
and its tokenizer (``tokenizers/l2_supercat_tokenizer_config.json``) inside the wheel, so nothing is ever
downloaded. We read those two files directly instead of calling ``WordLlama.load()``: that loader looks for
the tokenizer in the wrong folder and then tries the network, and importing ``wordllama`` configures the
root logger. A text's vector is the mean of its tokens' embeddings, normalised, so cosine similarity is a
dot product.

Cold start matters (a ``grandstrategy rules ask`` embeds one question), so neither file is parsed in full:
the weights are memory-mapped straight from the safetensors file (only the question's rows are read), and
the tokenizer is ``tokenizer.py``'s compact copy of the BPE tables, cached per user under the JSON's
checksum. ``tokenizers`` and ``safetensors`` remain the fallback for files this cannot read.

The model is loaded at most once per process (``shared_model``) and only when a question is asked.
"""

from __future__ import annotations

import importlib.util
import json
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

MODEL_PACKAGE = "wordllama"
WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")
TENSOR = "embedding.weight"
MAX_TOKENS = 256  # a question or a rule paragraph; longer inputs are cut

Vectors = npt.NDArray[np.float32]
# safetensors dtype names that numpy reads as they are (little-endian).
NUMPY_DTYPES = {"F16": "<f2", "F32": "<f4", "F64": "<f8"}
MAX_HEADER = 100_000_000  # bytes; safetensors' own limit


class Encoder(Protocol):
    """What the model needs of a tokenizer: a text's token ids, no special tokens added."""

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``."""
        ...


class LibraryEncoder:
    """The ``tokenizers`` library's tokenizer (the fallback when the compact one does not apply)."""

    def __init__(self, path: Path) -> None:
        from tokenizers import Tokenizer

        self.tokenizer: Any = Tokenizer.from_file(str(path))
        self.tokenizer.no_padding()

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``."""
        return list(self.tokenizer.encode(text, add_special_tokens=False).ids)


class ModelUnavailable(Exception):
    """The embedding model's package or files are missing or unreadable."""


class UnmappableTensor(Exception):
    """The tensor's dtype has no numpy equivalent (bfloat16, say): it must be read and converted."""


def map_tensor(path: Path, name: str) -> npt.NDArray[Any]:
    """A read-only memory map of one tensor of a safetensors file (8-byte header length, JSON, data)."""
    with path.open("rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        if length > MAX_HEADER:
            raise ValueError("safetensors header too large")
        header = json.loads(handle.read(length))
    entry = header[name]
    start, end = (int(value) for value in entry["data_offsets"])
    shape = tuple(int(value) for value in entry["shape"])
    if entry["dtype"] not in NUMPY_DTYPES:
        raise UnmappableTensor(str(entry["dtype"]))
    dtype = np.dtype(NUMPY_DTYPES[entry["dtype"]])
    if end - start != dtype.itemsize * int(np.prod(shape)) or 8 + length + end > path.stat().st_size:
        raise ValueError(f"tensor {name} does not fit the file")
    return np.memmap(path, dtype=dtype, mode="r", offset=8 + length + start, shape=shape)


def _load_encoder(path: Path) -> Encoder:
    """The compact tokenizer, or the ``tokenizers`` library's for a tokenizer it cannot reproduce."""
    from grandstrategy.rulebook.tokenizer import UnsupportedTokenizer, load_tokenizer

    try:
        return load_tokenizer(path)
    except UnsupportedTokenizer:
        return LibraryEncoder(path)


def _load_matrix(path: Path) -> npt.NDArray[Any]:
    """The embedding matrix: memory-mapped, or read with ``safetensors`` for a dtype numpy lacks."""
    try:
        return map_tensor(path, TENSOR)
    except UnmappableTensor:
        from safetensors import safe_open

        with safe_open(str(path), framework="np") as handle:
            return np.ascontiguousarray(handle.get_tensor(TENSOR), dtype=np.float32)


def model_files() -> tuple[Path, Path]:
    """The weights and tokenizer files inside the installed ``wordllama`` package (not imported)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise ModelUnavailable(f"the {MODEL_PACKAGE} package is not installed")
    root = Path(locations[0])
    weights, tokenizer = root.joinpath(*WEIGHTS), root.joinpath(*TOKENIZER)
    for path in (weights, tokenizer):
        if not path.is_file():
            raise ModelUnavailable(f"{MODEL_PACKAGE} does not carry {path.name}")
    return weights, tokenizer


@dataclass
class EmbeddingModel:
    """Mean-pooled static token embeddings: ``embed(texts)`` returns unit vectors, one row per text."""

    matrix: npt.NDArray[Any]  # one row per token (memory-mapped float16 for the shipped model)
    tokenizer: Encoder

    @classmethod
    def load(cls) -> EmbeddingModel:
        """Read the model from the installed package; never touches the network."""
        weights, tokenizer_file = model_files()
        try:
            tokenizer = _load_encoder(tokenizer_file)
            matrix = _load_matrix(weights)
        except Exception as error:  # a damaged install: say so, the lexical ranker still works
            raise ModelUnavailable(f"cannot read the {MODEL_PACKAGE} model: {error}") from error
        return cls(matrix=matrix, tokenizer=tokenizer)

    @property
    def dimensions(self) -> int:
        """Length of one vector."""
        return int(self.matrix.shape[1])

    def embed(self, texts: list[str]) -> Vectors:
        """Unit vectors for the texts (a zero vector for a text with no tokens)."""
        result = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return result
        for row, text in enumerate(texts):
            encoded = self.tokenizer.encode(text)[:MAX_TOKENS]  # longer inputs are cut, as before
            ids = [token for token in encoded if 0 <= token < self.matrix.shape[0]]
            if not ids:
                continue
            vector = np.asarray(self.matrix[ids], dtype=np.float32).mean(axis=0)
            norm = float(np.linalg.norm(vector))
            if norm > 0:
                result[row] = vector / norm
        return result


@lru_cache(maxsize=1)
def shared_model() -> EmbeddingModel | None:
    """The model, loaded once per process; None when it cannot be loaded (lexical ranking only)."""
    try:
        return EmbeddingModel.load()
    except ModelUnavailable:
        return None
