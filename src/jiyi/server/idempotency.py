"""``Idempotency-Key`` on ``POST /v1/memories``: a retried request stores nothing new.

How, in two layers:

1. **Message ids.** The store already skips a message whose id it consumed for that user
   (``MemoryStore.seen_messages``). Messages sent without an id get one derived from the
   key, the request's fingerprint and their position (``idem-<hash>-<i>``), so a retry
   carries the very ids the first attempt consumed and every message is skipped as a
   ``duplicate_message``; the answer is a 200 of the same shape (no new events, no new
   episodes). With a work queue the batch id is derived the same way, so the job is not
   enqueued twice. Caller-given ids are kept: they already are idempotent.
2. **The ledger.** ``idempotency_keys`` (same database as the memories) remembers each
   key's fingerprint — a hash of the validated body, the user and the agent — once the
   write succeeded. The same key with a different body is refused with **409**
   (``field: Idempotency-Key``): it is a client bug, and silently skipping the new
   messages would lose them. A failed write leaves no ledger row, so the key can be
   retried with a corrected body. Keys are per tenant and kept for ``RETENTION``; after
   that a reused key with another body is simply new (its derived ids differ too).

Concurrent requests with one key are serialised within a process; across processes the
store's message-id check makes a simultaneous duplicate unlikely but not impossible.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

from jiyi.errors import ConflictError
from jiyi.sessions._db import SqlDatabase
from jiyi.wire import IDEMPOTENCY_HEADER as HEADER

RETENTION = timedelta(days=7)
PRUNE_EVERY = 1000  # successful writes between sweeps of expired keys
SQLITE_DDL = """
CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant TEXT NOT NULL, key_hash TEXT NOT NULL, fingerprint TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tenant, key_hash)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ix_idempotency_keys_created ON idempotency_keys (created_at);
"""


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def fingerprint(body: dict[str, Any], user_id: str, agent_id: str | None) -> str:
    """A stable hash of what a request asks for (JSON with sorted keys)."""
    canonical = json.dumps(
        {"body": body, "user_id": user_id, "agent_id": agent_id},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return _digest(canonical)


def derived_prefix(key: str, fp: str) -> str:
    """The id prefix of a keyed request's messages (and its queue batch)."""
    return "idem-" + _digest(key, fp)[:32]


def with_ids(messages: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    """Messages with ``prefix-<index>`` as the id of those that have none."""
    return [m if m.get("id") else {**m, "id": f"{prefix}-{i}"} for i, m in enumerate(messages)]


class IdempotencyLedger:
    """Which key was used for which request, per tenant (see the module docstring)."""

    def __init__(self, db: SqlDatabase, *, retention: timedelta = RETENTION) -> None:
        self.db = db
        self.retention = retention
        db.ensure(SQLITE_DDL)
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._writes = 0

    @asynccontextmanager
    async def serialised(self, tenant: str, key: str) -> AsyncIterator[None]:
        """Hold this key exclusively in this process for the duration of a request."""
        name = (tenant, _digest(key))
        lock = self._locks.setdefault(name, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._locks.get(name) is lock:
                del self._locks[name]

    def check(self, tenant: str, key: str, fp: str, now: datetime) -> None:
        """Raise ConflictError if ``key`` was used with another request in the retention."""
        with self.db.transaction(write=False) as q:
            rows = q(
                "SELECT fingerprint, created_at FROM {s}idempotency_keys "
                "WHERE tenant = ? AND key_hash = ?",
                (tenant, _digest(key)),
            )
        if rows and rows[0][0] != fp and self.db.read_time(rows[0][1]) > now - self.retention:
            raise ConflictError(
                f"this {HEADER} was already used for a different request; use a new key "
                "for new content (retries must repeat the request exactly)",
                field=HEADER,
            )

    def record(self, tenant: str, key: str, fp: str, now: datetime) -> None:
        """Remember ``key`` → ``fp`` after a successful write (the latest one wins)."""
        with self.db.transaction(write=True) as q:
            q(
                "INSERT INTO {s}idempotency_keys (tenant, key_hash, fingerprint, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (tenant, key_hash) DO UPDATE SET "
                "fingerprint = excluded.fingerprint, created_at = excluded.created_at",
                (tenant, _digest(key), fp, self.db.time(now)),
            )
            self._writes += 1
            if self._writes % PRUNE_EVERY == 0:
                q(
                    "DELETE FROM {s}idempotency_keys WHERE created_at < ?",
                    (self.db.time(now - self.retention),),
                )
