"""BM25 scores kept as a sparse matrix: built with ``bm25s``, queried with numpy alone.

``bm25s`` computes every (token, section) BM25 score when it indexes a corpus and keeps them as a
compressed-column matrix; a query's score per document is the sum of its tokens' columns. Importing
``bm25s`` (with tqdm, asyncio and scipy behind it) costs more CPU than a whole warm question, so the
pickled index keeps only that matrix and its vocabulary, and :meth:`Bm25Scores.get_scores` sums the
columns the way ``bm25s.BM25.get_scores`` does (same order, same float32), giving the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Scores = npt.NDArray[np.float32]


@dataclass
class Bm25Scores:
    """The per-token BM25 columns of a corpus (CSC arrays) and the token -> column map."""

    vocabulary: dict[str, int]
    data: npt.NDArray[Any]
    indices: npt.NDArray[Any]
    indptr: npt.NDArray[Any]
    documents: int

    @classmethod
    def build(cls, corpus: list[list[str]], k1: float = 1.2, b: float = 0.75) -> Bm25Scores:
        """Index ``corpus`` (one token list per document) with bm25s (Lucene BM25) and keep its matrix."""
        import bm25s

        retriever: Any = bm25s.BM25(k1=k1, b=b)
        retriever.index(corpus, show_progress=False)
        if retriever.nonoccurrence_array is not None:  # BM25L/BM25+ only; Lucene BM25 has none
            raise ValueError("Bm25Scores supports BM25 variants without a non-occurrence term")
        scores = retriever.scores
        return cls(
            vocabulary=dict(retriever.vocab_dict),
            data=np.asarray(scores["data"], dtype=np.dtype(retriever.dtype)),
            indices=np.asarray(scores["indices"]),
            indptr=np.asarray(scores["indptr"]),
            documents=int(scores["num_docs"]),
        )

    def get_scores(self, tokens: list[str]) -> Scores:
        """BM25 score of every document for the tokens (unknown tokens add nothing; repeats add again)."""
        scores: Scores = np.zeros(self.documents, dtype=self.data.dtype)
        for token in tokens:
            column = self.vocabulary.get(token)
            if column is None:
                continue
            start, end = self.indptr[column], self.indptr[column + 1]
            np.add.at(scores, self.indices[start:end], self.data[start:end])
        return scores
