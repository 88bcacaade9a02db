"""A :class:`SessionStore` that keeps chat calls working while its primary (Redis) is down.

Every call goes to the primary until it raises StorageUnavailableError; then the call is
served by an in-process fallback store, ``on_unavailable`` is called (the server counts
``jiyi_redis_unavailable_total``) and the primary is left alone for ``retry_after`` so a
dead Redis costs one connect timeout per interval, not one per request.

What a caller sees while degraded:
- A session that lives in Redis is invisible; appending to it starts a new in-process
  session with that id (only messages since the outage). Once a session lives in the
  fallback it stays there until it ends, also after Redis is back, so its transcript is
  never split mid-session. Both parts are written to long-term memory when they end.
- Pending flushes of both stores are claimed and acknowledged; a flush whose ack could not
  reach Redis is claimed again later and re-written (the writer is idempotent per flush).
- Deleting a user needs both stores: with Redis down it raises StorageUnavailableError
  (503) rather than leave sessions behind that a later flush would write back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TypeVar

from jiyi.errors import StorageUnavailableError
from jiyi.sessions.base import (
    PendingFlush,
    SessionKey,
    SessionMessage,
    SessionOwner,
    SessionStore,
    SessionView,
)
from jiyi.sessions.memory import InMemorySessionStore

log = logging.getLogger(__name__)
T = TypeVar("T")


class FallbackSessionStore:
    """``primary`` while it answers, else an in-process store.

    Args:
        primary: the shared store (Redis).
        fallback: default a new InMemorySessionStore; the server passes the durable
            :class:`~jiyi.sessions.sql.SqlSessionStore`, so what is said during an outage
            also survives a crash.
        on_unavailable: called once per call served by the fallback because the primary
            is unreachable (a metric counter).
        retry_after: seconds to skip the primary after it failed.
    """

    def __init__(
        self,
        primary: SessionStore,
        fallback: SessionStore | None = None,
        *,
        on_unavailable: Callable[[], None] | None = None,
        retry_after: float = 5.0,
    ) -> None:
        self.primary = primary
        self.fallback: SessionStore = fallback or InMemorySessionStore()
        self._on_unavailable = on_unavailable or (lambda: None)
        self.retry_after = retry_after
        self._down_until = 0.0

    @property
    def degraded(self) -> bool:
        """True while the primary is being skipped."""
        return time.monotonic() < self._down_until

    async def _try(self, call: Callable[[], Awaitable[T]]) -> tuple[bool, T | None]:
        """(True, result) from the primary, or (False, None) when it is unreachable."""
        if self.degraded:
            self._on_unavailable()
            return False, None
        try:
            return True, await call()
        except StorageUnavailableError as exc:
            self._down_until = time.monotonic() + self.retry_after
            self._on_unavailable()
            log.warning(
                "session store unavailable, using the in-process fallback for %.0f s: %s",
                self.retry_after,
                exc.message,
            )
            return False, None

    async def _in_fallback(self, key: SessionKey, now: datetime) -> bool:
        return await self.fallback.get(key, window=1, now=now) is not None

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
        if not await self._in_fallback(key, now):
            ok, view = await self._try(
                lambda: self.primary.append(
                    key,
                    message,
                    owner=owner,
                    window=window,
                    ttl=ttl,
                    max_messages=max_messages,
                    now=now,
                )
            )
            if ok:
                assert view is not None
                return view
        return await self.fallback.append(
            key, message, owner=owner, window=window, ttl=ttl, max_messages=max_messages, now=now
        )

    async def get(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        view = await self.fallback.get(key, window=window, now=now)
        if view is not None:
            return view
        _, view = await self._try(lambda: self.primary.get(key, window=window, now=now))
        return view

    async def end(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        view = await self.fallback.end(key, window=window, now=now)
        if view is not None:
            return view
        _, view = await self._try(lambda: self.primary.end(key, window=window, now=now))
        return view

    async def expire(self, now: datetime) -> int:
        n = await self.fallback.expire(now)
        _, m = await self._try(lambda: self.primary.expire(now))
        return n + (m or 0)

    async def claim_due(self, now: datetime, *, limit: int, lease: timedelta) -> list[PendingFlush]:
        out = await self.fallback.claim_due(now, limit=limit, lease=lease)
        if len(out) < limit:
            _, more = await self._try(
                lambda: self.primary.claim_due(now, limit=limit - len(out), lease=lease)
            )
            out += more or []
        return out

    async def ack(self, flush_id: str) -> None:
        # Flush ids are unique per store and acking an unknown id is a no-op: ack both.
        await self.fallback.ack(flush_id)
        await self._try(lambda: self.primary.ack(flush_id))

    async def delete_user(self, tenant: str, user_id: str) -> int:
        n = await self.fallback.delete_user(tenant, user_id)
        return n + await self.primary.delete_user(tenant, user_id)  # raises while Redis is down

    async def close(self, now: datetime) -> list[PendingFlush]:
        out = await self.fallback.close(now)
        try:
            out += await self.primary.close(now)
        except StorageUnavailableError:
            log.warning("could not close the session store cleanly")
        return out
