"""The semantic ranker's model: WordLlama's static token embeddings, read offline from its wheel.

The ``wordllama`` package on PyPI ships its weights (``weights/l2_supercat_256.safetensors``, 32,000 x 256)
and its tokenizer (``tokenizers/l2_supercat_tokenizer_config.json``) inside the wheel, so nothing is ever
downloaded. We read those two files directly with ``safetensors`` and ``tokenizers`` instead of calling
``WordLlama.load()``: that loader looks for the tokenizer in the wrong folder and then tries the network,
and importing ``wordllama`` configures the root logger. A text's vector is the mean of its tokens'
embeddings, normalised, so cosine similarity is a dot product.

The model is loaded at most once per process (``shared_model``) and only when a question is asked.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

MODEL_PACKAGE = "wordllama"
WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")
TENSOR = "embedding.weight"
MAX_TOKENS = 256  # a question or a rule paragraph; longer inputs are cut

Vectors = npt.NDArray[np.float32]


class ModelUnavailable(Exception):
    """The embedding model's package or files are missing or unreadable."""


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

    matrix: Vectors
    tokenizer: Any

    @classmethod
    def load(cls) -> EmbeddingModel:
        """Read the model from the installed package; never touches the network."""
        from safetensors import safe_open
        from tokenizers import Tokenizer

        weights, tokenizer_file = model_files()
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_file))
            with safe_open(str(weights), framework="np") as handle:
                matrix = np.ascontiguousarray(handle.get_tensor(TENSOR), dtype=np.float32)
        except Exception as error:  # a damaged install: say so, the lexical ranker still works
            raise ModelUnavailable(f"cannot read the {MODEL_PACKAGE} model: {error}") from error
        tokenizer.no_padding()
        tokenizer.enable_truncation(MAX_TOKENS)
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
        encodings = self.tokenizer.encode_batch(texts, add_special_tokens=False)
        for row, encoding in enumerate(encodings):
            ids = [token for token in encoding.ids if 0 <= token < self.matrix.shape[0]]
            if not ids:
                continue
            vector = self.matrix[ids].mean(axis=0)
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
