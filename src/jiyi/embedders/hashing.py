"""A deterministic bag-of-tokens embedder for fast unit tests (no model, no semantics)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from jiyi.core.text import tokenize


class HashingEmbedder:
    """Hashes tokens into ``dim`` buckets and L2-normalises; identical text → identical vector,
    shared words → positive cosine. Only for tests: it knows nothing about meaning."""

    name = "hashing"

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim

    def _one(self, text: str) -> npt.NDArray[np.float32]:
        v = np.zeros(self.dim, dtype=np.float32)
        for tok in tokenize(text):
            h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "big")
            v[h % self.dim] += 1.0 if (h >> 63) == 0 else -1.0
        n = float(np.linalg.norm(v))
        if n == 0.0:
            v[0] = 1.0
            return v
        return v / n

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._one(t) for t in texts])

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self._one(text)
