"""Access bookkeeping: which memories were read, and when; which uses reinforce them.

Recording a read (``last_accessed_at``, ``access_count``) is a write, and so is a
reinforcement (a read that reached the caller: importance up, at most once a day — see
:mod:`jiyi.core.lifecycle`). Both are counted in memory and written at most once per
``flush_seconds`` on one ordered background thread, after the answer went out;
:meth:`ReadLedger.settle` writes what is pending, so a caller that reads stored rows right
after a search sees its own reads.

Several engines may write back to one store (a :class:`~jiyi.Memory` built on another's
``store`` with its own config, as the benchmarks do): :func:`close_ledgers` writes all of
their pending reads before that store closes, so a read is never lost and no write-back
runs against a closed store.

The audit log (:mod:`jiyi.core.audit`: one row per read or write of a user's data) rides
on the same write-back: a search costs no extra transaction on the read path, and a failed
audit append never fails the call that caused it — it is logged and counted
(``audit_failures``) and the rows are dropped.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from jiyi.core.audit import AuditEntry
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.models import Scope
from jiyi.core.ports import AuditTier, Clock, MemoryStore

log = logging.getLogger(__name__)

__all__ = ["ReadLedger", "close_ledgers"]

# The open ledgers of each store, by id(store): a ledger holds its store, so the id is not
# reused while one is alive. Weak, so a Memory dropped without close() frees its ledger.
_OPEN: dict[int, weakref.WeakSet[ReadLedger]] = {}
_OPEN_LOCK = threading.Lock()


def close_ledgers(store: MemoryStore) -> None:
    """Write back and close every open ledger of ``store`` (call it before closing it)."""
    with _OPEN_LOCK:
        ledgers = list(_OPEN.pop(id(store), ()))
    for ledger in ledgers:
        ledger.close()


class ReadLedger:
    """Counts reads per scope and writes them back in the background."""

    def __init__(
        self,
        store: MemoryStore,
        clock: Clock,
        flush_seconds: float = 1.0,
        life: LifecycleConfig | None = None,
    ) -> None:
        self._store = store
        self._life = life
        self._uses: dict[Scope, set[str]] = {}
        self._clock = clock
        self._every = flush_seconds
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="jiyi-touch")
        self._running: Future[None] | None = None
        self._reads: dict[Scope, Counter[str]] = {}
        self._at: datetime | None = None
        self._lock = threading.Lock()
        self._flushed = time.monotonic()
        self._audit: dict[str, list[AuditEntry]] = {}
        self._closed = False
        #: Audit appends that failed (their rows are lost; the calls went through).
        self.audit_failures = 0
        with _OPEN_LOCK:
            _OPEN.setdefault(id(store), weakref.WeakSet()).add(self)

    def audit(self, tenant: str, entry: AuditEntry) -> None:
        """Queue one audit row of ``tenant``; written with the next write-back."""
        if not isinstance(self._store, AuditTier):
            return
        with self._lock:
            if self._closed:
                return
            self._audit.setdefault(tenant, []).append(entry)
        self._due()

    def _write_audit(self, pending: dict[str, list[AuditEntry]]) -> None:
        if not pending:
            return
        assert isinstance(self._store, AuditTier)
        for tenant, entries in pending.items():
            try:
                self._store.audit.append(tenant, entries)
            except Exception:  # an audit row never fails the call that caused it
                with self._lock:
                    self.audit_failures += 1
                log.warning("could not append %d audit rows", len(entries), exc_info=True)

    def record(self, scope: Scope, memory_ids: Iterable[str]) -> None:
        """Count one read of each id; schedule a write-back when one is due."""
        ids = list(memory_ids)
        if not ids or (self._life is not None and not self._life.track_reads):
            return
        with self._lock:
            if self._closed:
                return
            self._reads.setdefault(scope, Counter()).update(ids)
            self._at = self._clock()
        self._due()

    def reinforce(self, scope: Scope, memory_ids: Iterable[str]) -> None:
        """Count a use that reached the caller (reinforcement, if the lifecycle has it)."""
        ids = list(memory_ids)
        if not ids or self._life is None or not self._life.reinforce:
            return
        with self._lock:
            if self._closed:
                return
            self._uses.setdefault(scope, set()).update(ids)
            self._at = self._clock()
        self._due()

    def _due(self) -> None:
        # Submitted under the lock that close() sets _closed under: a write-back is either
        # submitted before close (which then waits for it) or not at all.
        with self._lock:
            idle = self._running is None or self._running.done()
            if not self._closed and idle and time.monotonic() - self._flushed >= self._every:
                self._running = self._pool.submit(self.flush)

    def flush(self) -> None:
        """Write every pending count now (one ``touch`` per scope)."""
        with self._lock:
            pending, self._reads = self._reads, {}
            uses, self._uses = self._uses, {}
            audit, self._audit = self._audit, {}
            at = self._at or self._clock()
            self._flushed = time.monotonic()
        self._write_audit(audit)
        for scope, counts in pending.items():
            self._store.touch(scope, counts, at)
        life = self._life
        if life is None:
            return
        for scope, ids in uses.items():
            self._store.reinforce(
                scope,
                sorted(ids),
                at,
                step=life.reinforce_step,
                cap=life.reinforce_cap,
                every=life.reinforce_every,
            )

    def settle(self) -> None:
        """Wait for a running write-back and write what is still pending."""
        running = self._running
        if running is not None:
            running.result()
            self._running = None
        if self._reads or self._uses or self._audit:
            self.flush()

    def close(self) -> None:
        """Wait for the running write-back, write what is pending, then take no more reads.

        Idempotent. Reads counted after close are dropped (their store is closing)."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True)
        self._running = None
        self.flush()
        with _OPEN_LOCK:
            mine = _OPEN.get(id(self._store))
            if mine is not None:
                mine.discard(self)
                if not mine:
                    del _OPEN[id(self._store)]
