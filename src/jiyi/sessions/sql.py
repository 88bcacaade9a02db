"""Durable :class:`SessionStore` in the memory store's own database (SQLite or PostgreSQL).

Without Redis, sessions used to live in process memory and a ``kill -9`` lost every
acknowledged message and every ended session not yet written. Here an append or an end is
acknowledged only after its transaction committed, so it survives the process.

Three tables (``session_live``, ``session_messages``, ``session_flushes``). A transcript has
a random id and its messages are keyed by (transcript, seq); ending a session moves one row
from ``session_live`` to ``session_flushes`` (the flush id *is* the transcript id), so the
hand-over is O(1), atomic, and a transcript is always in exactly one place. An ``ack``
deletes the flush and its messages.

On open, flushes claimed by a previous process (``attempts > 0``; that process may have
died mid-write) are made due again at once: ended-but-unwritten sessions are re-queued
instead of waiting out the claim's lease. Writing a flush twice is harmless — its messages
carry ids, which the memory store consumes once (``MemoryStore.seen_messages``).

Every method runs its SQL in a worker thread; the event loop never waits on the database.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Literal

from jiyi.errors import ConflictError, PayloadTooLargeError
from jiyi.sessions._db import PostgresDatabase, Run, SqlDatabase, SqliteDatabase
from jiyi.sessions.base import (
    PendingFlush,
    SessionKey,
    SessionMessage,
    SessionOwner,
    SessionStore,
    SessionView,
)
from jiyi.settings import Settings
from jiyi.storage._rows import decode_rows

MAX_LEASE = timedelta(hours=1)
Reason = Literal["ended", "expired", "shutdown"]
SQLITE_DDL = """
CREATE TABLE IF NOT EXISTS session_live (
    tenant TEXT NOT NULL, session_id TEXT NOT NULL, transcript TEXT NOT NULL,
    user_id TEXT NOT NULL, agent_id TEXT, started_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL, expires_at TEXT NOT NULL, total INTEGER NOT NULL,
    PRIMARY KEY (tenant, session_id)
);
CREATE INDEX IF NOT EXISTS ix_session_live_expiry ON session_live (expires_at);
CREATE INDEX IF NOT EXISTS ix_session_live_user ON session_live (tenant, user_id);
CREATE TABLE IF NOT EXISTS session_messages (
    transcript TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT NOT NULL, name TEXT, at TEXT NOT NULL,
    PRIMARY KEY (transcript, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS session_flushes (
    flush_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, session_id TEXT NOT NULL,
    user_id TEXT NOT NULL, agent_id TEXT, reason TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, ended_at TEXT NOT NULL, due_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_session_flushes_due ON session_flushes (due_at);
CREATE INDEX IF NOT EXISTS ix_session_flushes_user ON session_flushes (tenant, user_id);
"""
_LIVE = (
    "SELECT transcript, user_id, agent_id, started_at, last_active_at, expires_at, total "
    "FROM {s}session_live WHERE tenant = ? AND session_id = ?"
)
_MESSAGES = "SELECT id, seq, role, content, name, at FROM {s}session_messages "


class SqlSessionStore:
    """Sessions in ``db`` (see the module docstring). ``close`` returns [] — what is live or
    pending stays in the database for the next process, as with Redis."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.ensure(SQLITE_DDL)
        with db.transaction(write=True) as q:
            q("UPDATE {s}session_flushes SET due_at = ended_at WHERE attempts > 0", ())

    # -- helpers (inside a transaction) ---------------------------------------------------

    def _message(self, row: tuple[Any, ...]) -> SessionMessage:
        mid, seq, role, content, name, at = row
        return SessionMessage(
            id=mid, seq=seq, role=role, content=content, name=name, timestamp=self.db.read_time(at)
        )

    def _window(self, q: Run, transcript: str, total: int, window: int) -> list[SessionMessage]:
        rows = q(
            _MESSAGES + "WHERE transcript = ? AND seq > ? ORDER BY seq",
            (transcript, total - window),
        )
        return decode_rows(rows, self._message, "session_messages")

    def _view(
        self, q: Run, key: SessionKey, live: tuple[Any, ...], window: int, *, ended: bool = False
    ) -> SessionView:
        transcript, user_id, agent_id, started, last, expires, total = live
        rt = self.db.read_time
        return SessionView(
            session_id=key.session_id,
            user_id=user_id,
            agent_id=agent_id,
            messages=self._window(q, transcript, total, window),
            total=total,
            started_at=rt(started),
            last_active_at=rt(last),
            expires_at=rt(expires),
            ended=ended,
        )

    def _hand_over(
        self, q: Run, key: SessionKey, live: tuple[Any, ...], now: datetime, reason: Reason
    ) -> None:
        transcript, user_id, agent_id = live[0], live[1], live[2]
        q("DELETE FROM {s}session_live WHERE tenant = ? AND session_id = ?", key_args(key))
        t = self.db.time(now)
        q(
            "INSERT INTO {s}session_flushes (flush_id, tenant, session_id, user_id, agent_id, "
            "reason, attempts, ended_at, due_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
            (transcript, key.tenant, key.session_id, user_id, agent_id, reason, t, t),
        )

    def _current(self, q: Run, key: SessionKey, now: datetime) -> tuple[Any, ...] | None:
        """The live row (locked for this transaction), handing an expired one over."""
        rows = q(_LIVE + self.db.for_update, key_args(key))
        if not rows:
            return None
        if self.db.read_time(rows[0][5]) <= now:
            self._hand_over(q, key, rows[0], now, "expired")
            return None
        return rows[0]

    # -- sync operations --------------------------------------------------------------------

    def _append(
        self,
        key: SessionKey,
        message: SessionMessage,
        owner: SessionOwner,
        window: int,
        ttl: timedelta,
        max_messages: int,
        now: datetime,
    ) -> SessionView:
        t, until = self.db.time(now), self.db.time(now + ttl)
        with self.db.transaction(write=True, lock=lock_name(key)) as q:
            live = self._current(q, key, now)
            if live is None:
                transcript = uuid.uuid4().hex
                q(
                    "INSERT INTO {s}session_live (tenant, session_id, transcript, user_id, "
                    "agent_id, started_at, last_active_at, expires_at, total) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
                    (*key_args(key), transcript, owner.user_id, owner.agent_id, t, t, until),
                )
                total = 0
            else:
                transcript, total = live[0], live[6]
                if SessionOwner(live[1], live[2]) != owner:
                    raise ConflictError(
                        "session belongs to another user or agent; use a new session_id",
                        field="session_id",
                    )
            if total >= max_messages:
                raise PayloadTooLargeError(
                    f"session already holds {max_messages} messages; end it and start a new one",
                    field="session_id",
                )
            q(
                "INSERT INTO {s}session_messages (transcript, seq, id, role, content, name, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    transcript,
                    total + 1,
                    message.id,
                    message.role,
                    message.content,
                    message.name,
                    self.db.time(message.timestamp),
                ),
            )
            q(
                "UPDATE {s}session_live SET last_active_at = ?, expires_at = ?, total = ? "
                "WHERE tenant = ? AND session_id = ?",
                (t, until, total + 1, *key_args(key)),
            )
            live = q(_LIVE, key_args(key))[0]
            return self._view(q, key, live, window)

    def _get(self, key: SessionKey, window: int, now: datetime) -> SessionView | None:
        with self.db.transaction(write=False) as q:
            rows = q(_LIVE, key_args(key))
            if not rows or self.db.read_time(rows[0][5]) <= now:
                return None  # an expired session is handed over by the next write or sweep
            return self._view(q, key, rows[0], window)

    def _end(self, key: SessionKey, window: int, now: datetime) -> SessionView | None:
        with self.db.transaction(write=True, lock=lock_name(key)) as q:
            live = self._current(q, key, now)
            if live is None:
                return None
            view = self._view(q, key, live, window, ended=True)
            self._hand_over(q, key, live, now, "ended")
            return view

    def _expire(self, now: datetime) -> int:
        with self.db.transaction(write=True) as q:
            rows = q(
                "SELECT tenant, session_id, transcript, user_id, agent_id FROM {s}session_live "
                "WHERE expires_at <= ?" + self.db.skip_locked,
                (self.db.time(now),),
            )
            for tenant, session_id, transcript, user_id, agent_id in rows:
                live = (transcript, user_id, agent_id)
                self._hand_over(q, SessionKey(tenant, session_id), live, now, "expired")
            return len(rows)

    def _claim_due(self, now: datetime, limit: int, lease: timedelta) -> list[PendingFlush]:
        with self.db.transaction(write=True) as q:
            rows = q(
                "SELECT flush_id, tenant, session_id, user_id, agent_id, reason, attempts "
                "FROM {s}session_flushes WHERE due_at <= ? ORDER BY due_at, flush_id LIMIT ?"
                + self.db.skip_locked,
                (self.db.time(now), limit),
            )
            out: list[PendingFlush] = []
            for flush_id, tenant, session_id, user_id, agent_id, reason, attempts in rows:
                attempts += 1
                due = now + min(lease * 2 ** (attempts - 1), MAX_LEASE)
                q(
                    "UPDATE {s}session_flushes SET attempts = ?, due_at = ? WHERE flush_id = ?",
                    (attempts, self.db.time(due), flush_id),
                )
                messages = q(_MESSAGES + "WHERE transcript = ? ORDER BY seq", (flush_id,))
                out.append(
                    PendingFlush(
                        flush_id=flush_id,
                        tenant=tenant,
                        session_id=session_id,
                        user_id=user_id,
                        agent_id=agent_id,
                        messages=decode_rows(messages, self._message, "session_messages"),
                        reason=reason,
                        attempts=attempts,
                    )
                )
            return out

    def _ack(self, flush_id: str) -> None:
        with self.db.transaction(write=True) as q:
            gone = q(
                "DELETE FROM {s}session_flushes WHERE flush_id = ? RETURNING flush_id", (flush_id,)
            )
            if gone:  # never touch a transcript that is not this flush's
                q("DELETE FROM {s}session_messages WHERE transcript = ?", (flush_id,))

    def _delete_user(self, tenant: str, user_id: str) -> int:
        with self.db.transaction(write=True) as q:
            transcripts = [
                r[0]
                for r in q(
                    "SELECT transcript FROM {s}session_live WHERE tenant = ? AND user_id = ? "
                    "UNION ALL SELECT flush_id FROM {s}session_flushes "
                    "WHERE tenant = ? AND user_id = ?",
                    (tenant, user_id, tenant, user_id),
                )
            ]
            removed = 0
            for transcript in transcripts:
                removed += len(
                    q(
                        "DELETE FROM {s}session_messages WHERE transcript = ? RETURNING seq",
                        (transcript,),
                    )
                )
            args = (tenant, user_id)
            q("DELETE FROM {s}session_live WHERE tenant = ? AND user_id = ?", args)
            q("DELETE FROM {s}session_flushes WHERE tenant = ? AND user_id = ?", args)
            return removed

    def stats(self) -> dict[str, int]:
        """Live sessions and pending flushes (tests and operators)."""
        with self.db.transaction(write=False) as q:
            live = q("SELECT count(*) FROM {s}session_live", ())[0][0]
            pending = q("SELECT count(*) FROM {s}session_flushes", ())[0][0]
        return {"live": int(live), "pending": int(pending)}

    # -- SessionStore -------------------------------------------------------------------------

    async def append(
        self,
        key: SessionKey,
        message: SessionMessage,
        *,
        owner: SessionOwner,
        window: int,
        ttl: timedelta,
        max_messages: int,
        now: datetime,
    ) -> SessionView:
        return await asyncio.to_thread(
            self._append, key, message, owner, window, ttl, max_messages, now
        )

    async def get(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        return await asyncio.to_thread(self._get, key, window, now)

    async def end(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        return await asyncio.to_thread(self._end, key, window, now)

    async def expire(self, now: datetime) -> int:
        return await asyncio.to_thread(self._expire, now)

    async def claim_due(self, now: datetime, *, limit: int, lease: timedelta) -> list[PendingFlush]:
        return await asyncio.to_thread(self._claim_due, now, limit, lease)

    async def ack(self, flush_id: str) -> None:
        await asyncio.to_thread(self._ack, flush_id)

    async def delete_user(self, tenant: str, user_id: str) -> int:
        return await asyncio.to_thread(self._delete_user, tenant, user_id)

    async def close(self, now: datetime) -> list[PendingFlush]:
        del now  # nothing is lost with this process: live and pending sessions stay stored
        return []


def key_args(key: SessionKey) -> tuple[str, str]:
    return key.tenant, key.session_id


def lock_name(key: SessionKey) -> str:
    return f"jiyi.session\x1f{key.tenant}\x1f{key.session_id}"


def open_database(settings: Settings) -> SqlDatabase:
    """The memory store's database (SQLite file or PostgreSQL DSN) for sessions and the
    idempotency ledger."""
    dsn = settings.store_dsn
    return SqliteDatabase(settings.store_path) if dsn is None else PostgresDatabase(dsn)


def open_durable_sessions(
    db: SqlDatabase, settings: Settings, on_unavailable: Callable[[], None]
) -> SessionStore:
    """Sessions in ``db``; with ``JIYI_REDIS``, Redis first and ``db`` as the fallback that
    keeps chat calls (durably) working while Redis is down."""
    durable = SqlSessionStore(db)
    if not settings.redis:
        return durable
    from jiyi.sessions.fallback import FallbackSessionStore
    from jiyi.sessions.redis import RedisSessionStore

    return FallbackSessionStore(
        RedisSessionStore(settings.redis), durable, on_unavailable=on_unavailable
    )
