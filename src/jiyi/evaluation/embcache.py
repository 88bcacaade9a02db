"""A persistent cache of *document* embeddings for benchmark runs (never for the product).

A LifeBench ingest embeds ~15,000 records (~1.2M tokens, 20–40 minutes of one busy core); an
ablation re-ingests the same texts many times. This wrapper keeps document vectors in a
SQLite file keyed by the embedder's name and a hash of the exact text, so a re-run embeds
only texts it has not seen. Queries are never cached here: every search still pays for its
own query embedding, so search latencies stay honest. The product's own cache
(:class:`jiyi.embedders.CachedEmbedder`) stays in memory on purpose (hard deletes).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from jiyi.core.ports import Embedder


class DiskCachedEmbedder:
    """Wraps an :class:`Embedder`; document vectors persist in ``path``."""

    def __init__(self, inner: Embedder, path: Path, *, keep_queries: bool = False) -> None:
        """Args:
        keep_queries: also keep query vectors (in memory) and ignore evictions — for
            ablations that re-rank the same questions many times and time nothing.
        """
        self.inner = inner
        self._queries: dict[str, npt.NDArray[np.float32]] | None = {} if keep_queries else None
        self.name = inner.name
        self.dim = inner.dim
        self.calibration = getattr(inner, "calibration", None)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (k BLOB PRIMARY KEY, v BLOB)")
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def _key(self, text: str) -> bytes:
        return hashlib.blake2b(f"{self.name}\x1f{text}".encode(), digest_size=16).digest()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        keys = [self._key(t) for t in texts]
        with self._lock:
            found = {
                k: v
                for k in set(keys)
                for (v,) in self._db.execute("SELECT v FROM vec WHERE k = ?", (k,))
            }
        todo = [i for i, k in enumerate(keys) if k not in found]
        for i, k in enumerate(keys):
            if k in found:
                out[i] = np.frombuffer(found[k], dtype=np.float32)
        self.hits += len(texts) - len(todo)
        self.misses += len(todo)
        if todo:
            vecs = self.inner.embed_documents([texts[i] for i in todo])
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO vec VALUES (?, ?)",
                    [(keys[i], vecs[n].astype(np.float32).tobytes()) for n, i in enumerate(todo)],
                )
                self._db.commit()
            for n, i in enumerate(todo):
                out[i] = vecs[n]
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        if self._queries is not None and text in self._queries:
            return self._queries[text]
        vec = np.asarray(self.inner.embed_query(text), dtype=np.float32)
        if self._queries is not None:
            self._queries[text] = vec
        return vec

    def evict(self, texts: Sequence[str]) -> None:
        if self._queries is not None:
            return
        evict = getattr(self.inner, "evict", None)
        if callable(evict):
            evict(texts)
