"""An in-process LRU in front of any embedder, keyed by a hash of the text.

Kept in memory only (never on disk) so a hard delete can evict a text's vector and leave
nothing behind; :meth:`CachedEmbedder.evict` is called by the delete path.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from jiyi.core.calibration import Calibration
from jiyi.core.ports import Embedder


def _key(kind: str, text: str) -> bytes:
    return hashlib.blake2b(f"{kind}\x1f{text}".encode(), digest_size=16).digest()


class CachedEmbedder:
    """Wraps an :class:`Embedder`; documents and queries are cached separately (E5 embeds
    them with different prefixes)."""

    def __init__(self, inner: Embedder, max_entries: int = 20_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        # How to read this model's cosines, when the model brings its own (jiyi calibrate).
        self.calibration: Calibration | None = getattr(inner, "calibration", None)
        self._max = max_entries
        self._cache: OrderedDict[bytes, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def _get(self, key: bytes) -> npt.NDArray[np.float32] | None:
        with self._lock:
            v = self._cache.get(key)
            if v is not None:
                self._cache.move_to_end(key)
                self.hits += 1
            return v

    def _put(self, key: bytes, vec: npt.NDArray[np.float32]) -> None:
        with self._lock:
            self._cache[key] = vec
            self._cache.move_to_end(key)
            while len(self._cache) > self._max:
                self._cache.popitem(last=False)

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            v = self._get(_key("d", t))
            if v is None:
                todo.setdefault(t, []).append(i)
            else:
                out[i] = v
        if todo:
            uniq = list(todo)
            with self._lock:
                self.misses += len(uniq)
            vecs = self.inner.embed_documents(uniq)
            for t, v in zip(uniq, vecs, strict=True):
                self._put(_key("d", t), v)
                for i in todo[t]:
                    out[i] = v
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        key = _key("q", text)
        v = self._get(key)
        if v is None:
            with self._lock:
                self.misses += 1
            v = self.inner.embed_query(text)
            self._put(key, v)
        return v

    def evict(self, texts: Sequence[str]) -> None:
        """Forget any cached vector of these texts (as documents or as queries)."""
        with self._lock:
            for t in texts:
                self._cache.pop(_key("d", t), None)
                self._cache.pop(_key("q", t), None)

    def __len__(self) -> int:
        return len(self._cache)

    def __bool__(self) -> bool:
        # An embedder is always truthy: ``embedder or default`` must not drop one whose
        # cache is still empty (``__len__`` alone would make it falsy).
        return True
