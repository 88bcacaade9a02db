"""In-process :class:`SessionStore`: dicts behind one lock.

A ``threading.Lock`` rather than an ``asyncio.Lock``: every operation is a few dict and list
steps with no await inside, so holding it never blocks the event loop for long, and the store
stays correct when called from worker threads or several event loops (tests, the CLI).
Sessions live only as long as the process; ``close`` hands back what would be lost.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from jiyi.errors import ConflictError, PayloadTooLargeError
from jiyi.sessions.base import (
    PendingFlush,
    SessionKey,
    SessionMessage,
    SessionOwner,
    SessionView,
)

MAX_LEASE = timedelta(hours=1)


@dataclass
class _Live:
    owner: SessionOwner
    started_at: datetime
    last_active_at: datetime
    expires_at: datetime
    messages: list[SessionMessage] = field(default_factory=list)

    def view(self, session_id: str, window: int, *, ended: bool = False) -> SessionView:
        return SessionView(
            session_id=session_id,
            user_id=self.owner.user_id,
            agent_id=self.owner.agent_id,
            messages=list(self.messages[-window:]),
            total=len(self.messages),
            started_at=self.started_at,
            last_active_at=self.last_active_at,
            expires_at=self.expires_at,
            ended=ended,
        )


@dataclass
class _Pending:
    flush: PendingFlush
    due_at: datetime


class InMemorySessionStore:
    """Sessions in this process's memory (the default until Redis is configured)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[SessionKey, _Live] = {}
        self._pending: dict[str, _Pending] = {}
        self._closed = False

    # -- helpers (call with the lock held) ----------------------------------------------

    def _hand_over(
        self,
        key: SessionKey,
        live: _Live,
        now: datetime,
        reason: Literal["ended", "expired", "shutdown"],
    ) -> None:
        del self._live[key]
        if not live.messages:
            return
        flush = PendingFlush(
            flush_id=uuid.uuid4().hex,
            tenant=key.tenant,
            session_id=key.session_id,
            user_id=live.owner.user_id,
            agent_id=live.owner.agent_id,
            messages=live.messages,
            reason=reason,
        )
        self._pending[flush.flush_id] = _Pending(flush, now)

    def _current(self, key: SessionKey, now: datetime) -> _Live | None:
        live = self._live.get(key)
        if live is not None and live.expires_at <= now:
            self._hand_over(key, live, now, "expired")
            return None
        return live

    # -- SessionStore -------------------------------------------------------------------

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
        with self._lock:
            if self._closed:
                raise ConflictError("the session store is shutting down; retry shortly")
            live = self._current(key, now)
            if live is None:
                live = _Live(owner=owner, started_at=now, last_active_at=now, expires_at=now + ttl)
                self._live[key] = live
            elif live.owner != owner:
                raise ConflictError(
                    "session belongs to another user or agent; use a new session_id",
                    field="session_id",
                )
            if len(live.messages) >= max_messages:
                raise PayloadTooLargeError(
                    f"session already holds {max_messages} messages; end it and start a new one",
                    field="session_id",
                )
            live.messages.append(message.model_copy(update={"seq": len(live.messages) + 1}))
            live.last_active_at = now
            live.expires_at = now + ttl
            return live.view(key.session_id, window)

    async def get(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        with self._lock:
            live = self._current(key, now)
            return None if live is None else live.view(key.session_id, window)

    async def end(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        with self._lock:
            live = self._current(key, now)
            if live is None:
                return None
            view = live.view(key.session_id, window, ended=True)
            self._hand_over(key, live, now, "ended")
            return view

    async def expire(self, now: datetime) -> int:
        with self._lock:
            stale = [k for k, s in self._live.items() if s.expires_at <= now]
            for k in stale:
                self._hand_over(k, self._live[k], now, "expired")
            return len(stale)

    async def claim_due(self, now: datetime, *, limit: int, lease: timedelta) -> list[PendingFlush]:
        with self._lock:
            due = sorted(
                (p for p in self._pending.values() if p.due_at <= now), key=lambda p: p.due_at
            )[:limit]
            out: list[PendingFlush] = []
            for p in due:
                p.flush = p.flush.model_copy(update={"attempts": p.flush.attempts + 1})
                p.due_at = now + min(lease * 2 ** (p.flush.attempts - 1), MAX_LEASE)
                out.append(p.flush)
            return out

    async def ack(self, flush_id: str) -> None:
        with self._lock:
            self._pending.pop(flush_id, None)

    async def delete_user(self, tenant: str, user_id: str) -> int:
        with self._lock:
            removed = 0
            for k in [
                k
                for k, s in self._live.items()
                if k.tenant == tenant and s.owner.user_id == user_id
            ]:
                removed += len(self._live.pop(k).messages)
            for fid in [
                f
                for f, p in self._pending.items()
                if p.flush.tenant == tenant and p.flush.user_id == user_id
            ]:
                removed += len(self._pending.pop(fid).flush.messages)
            return removed

    async def close(self, now: datetime) -> list[PendingFlush]:
        with self._lock:
            self._closed = True
            for k in list(self._live):
                self._hand_over(k, self._live[k], now, "shutdown")
            out = [p.flush for p in self._pending.values()]
            self._pending.clear()
            return out

    # -- introspection for tests and metrics --------------------------------------------

    def stats(self) -> dict[str, int]:
        """Live sessions and pending flushes."""
        with self._lock:
            return {"live": len(self._live), "pending": len(self._pending)}
