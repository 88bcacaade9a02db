"""Redis :class:`SessionStore`: one Lua script per operation, so every step is atomic.

Key layout (``p`` is the prefix, default ``jiyi:``; ``k`` is the JSON array
``[tenant, session_id]``, so no separator inside an id can collide):

- ``p s:{k}:m``  LIST  the live transcript, one JSON message per entry; entry i has seq i+1
- ``p s:{k}:h``  HASH  owner (``user``, ``agent``), ``started``, ``last``, ``expires`` (ms)
- ``p deadlines`` ZSET ``k`` → expires (ms): what :meth:`expire` sweeps
- ``p f:{id}:m`` / ``p f:{id}:h``  a pending flush: the transcript (RENAMEd from the
  session's list — O(1), so the hand-over never copies) and its metadata and ``attempts``
- ``p due``      ZSET flush id → when it may next be claimed (ms)
- ``p u:{[tenant, user]}:s`` / ``:f``  SETs of the user's live sessions and pending flushes,
  so :meth:`delete_user` never scans the keyspace

Why the scripts look the way they do:
- Append = hand over an expired session + owner check + size check + RPUSH + PEXPIRE + the
  window (LRANGE) in ONE script: concurrent appends from many processes are serialised by
  Redis, each gets a distinct seq, and none can interleave with an end or an expiry.
- The transcript is bounded by ``max_messages`` (refused beyond it, never silently trimmed):
  it is the long-term write's input, so dropping its head would lose what was said.
- Keys carry a PEXPIRE of ttl + ``grace`` only as a leak guard. What ends a session is the
  ``deadlines`` sweep, which hands the transcript over first; the grace (default one day)
  keeps Redis from deleting a transcript no sweeper has seen yet.
- Times come from the caller (``now``), so tests inject a clock and servers with slightly
  different clocks still agree on one ordering per call.

Scripts compute key names from their arguments, so this store needs one Redis (or a
primary with replicas), not Redis Cluster.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, TypeVar, cast

from jiyi.errors import (
    ConflictError,
    MissingDependencyError,
    PayloadTooLargeError,
    StorageUnavailableError,
)
from jiyi.sessions._redis_lua import (
    _ACK,
    _APPEND,
    _CLAIM,
    _DELETE_USER,
    _EXPIRE,
    _GET_OR_END,
)
from jiyi.sessions.base import (
    PendingFlush,
    SessionKey,
    SessionMessage,
    SessionOwner,
    SessionView,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
DEFAULT_GRACE = timedelta(days=1)


def _ms(t: datetime) -> int:
    return int(t.timestamp() * 1000)


def _dt(ms: bytes | str | int) -> datetime:
    return datetime.fromtimestamp(int(ms) / 1000, UTC)


def _str(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


def _messages(raw: list[bytes], first_seq: int) -> list[SessionMessage]:
    out = []
    for i, b in enumerate(raw):
        d = json.loads(b)
        d["seq"] = first_seq + i
        out.append(SessionMessage.model_validate(d))
    return out


class RedisSessionStore:
    """Sessions in Redis: shared by every server process, durable across restarts.

    Args:
        url: ``redis://host:port/db`` (``JIYI_REDIS``).
        prefix: key prefix; two deployments can share one Redis with different prefixes.
        timeout: seconds for connect and each command; an unreachable Redis fails fast
            with StorageUnavailableError (which FallbackSessionStore turns into a fallback).
        grace: how long keys outlive the session ttl as a leak guard (see module doc).
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "jiyi:",
        timeout: float = 1.0,
        grace: timedelta = DEFAULT_GRACE,
    ) -> None:
        try:
            import redis
        except ImportError as exc:
            raise MissingDependencyError("redis", "redis") from exc
        # The sync client in worker threads rather than redis.asyncio: the store is called
        # from several event loops (server, tests, CLI) and a sync pool is safe across them.
        self._redis = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout
        )
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self.prefix = prefix
        self._grace_ms = int(grace.total_seconds() * 1000)
        self._scripts = {
            name: self._redis.register_script(src)
            for name, src in {
                "append": _APPEND,
                "get": _GET_OR_END,
                "expire": _EXPIRE,
                "claim": _CLAIM,
                "ack": _ACK,
                "delete_user": _DELETE_USER,
            }.items()
        }

    async def _call(self, name: str, *args: Any) -> Any:
        return await self._run(lambda: self._scripts[name](args=[self.prefix, *args]))

    async def _run(self, fn: Callable[[], T]) -> T:
        try:
            return await asyncio.to_thread(fn)
        except self._errors as exc:
            raise StorageUnavailableError(
                f"Redis session store unreachable ({type(exc).__name__}); check JIYI_REDIS"
            ) from exc

    @staticmethod
    def _k(key: SessionKey) -> str:
        return json.dumps([key.tenant, key.session_id], ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def _view(session_id: str, raw: list[Any], *, ended: bool = False) -> SessionView:
        user, agent, started, last, expires, total, msgs = raw
        total = int(total)
        return SessionView(
            session_id=session_id,
            user_id=_str(user),
            agent_id=_str(agent) or None,
            messages=_messages(msgs, total - len(msgs) + 1),
            total=total,
            started_at=_dt(started),
            last_active_at=_dt(last),
            expires_at=_dt(expires),
            ended=ended,
        )

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
        body = message.model_dump_json(exclude={"seq"})
        res = await self._call(
            "append",
            self._k(key),
            key.tenant,
            key.session_id,
            _ms(now),
            owner.user_id,
            owner.agent_id or "",
            int(ttl.total_seconds() * 1000),
            max_messages,
            window,
            self._grace_ms,
            body,
        )
        status = _str(res[0])
        if status == "conflict":
            raise ConflictError(
                "session belongs to another user or agent; use a new session_id", field="session_id"
            )
        if status == "full":
            raise PayloadTooLargeError(
                f"session already holds {max_messages} messages; end it and start a new one",
                field="session_id",
            )
        return self._view(key.session_id, res[1])

    async def get(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        res = await self._call("get", self._k(key), key.tenant, key.session_id, _ms(now), window, 0)
        return None if not res else self._view(key.session_id, res)

    async def end(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        res = await self._call("get", self._k(key), key.tenant, key.session_id, _ms(now), window, 1)
        return None if not res else self._view(key.session_id, res, ended=True)

    async def expire(self, now: datetime) -> int:
        total = 0
        while True:  # in slices, so one script never blocks Redis for long
            n = int(await self._call("expire", _ms(now), 200))
            total += n
            if n < 200:
                return total

    async def claim_due(self, now: datetime, *, limit: int, lease: timedelta) -> list[PendingFlush]:
        rows = await self._call("claim", _ms(now), limit, int(lease.total_seconds() * 1000))
        out = []
        for fid, tenant, sid, user, agent, reason, attempts, msgs in rows:
            out.append(
                PendingFlush(
                    flush_id=_str(fid),
                    tenant=_str(tenant),
                    session_id=_str(sid),
                    user_id=_str(user),
                    agent_id=_str(agent) or None,
                    messages=_messages(msgs, 1),
                    reason=cast(Literal["ended", "expired", "shutdown"], _str(reason)),
                    attempts=int(attempts),
                )
            )
        return out

    async def ack(self, flush_id: str) -> None:
        await self._call("ack", flush_id)

    async def delete_user(self, tenant: str, user_id: str) -> int:
        return int(await self._call("delete_user", tenant, user_id))

    async def close(self, now: datetime) -> list[PendingFlush]:
        """Durable: live sessions and pending flushes stay in Redis for the next process."""
        await asyncio.to_thread(self._redis.close)
        return []

    # -- introspection for tests and metrics --------------------------------------------

    async def stats(self) -> dict[str, int]:
        """Live sessions and pending flushes."""
        live, pending = await self._run(
            lambda: (
                self._redis.zcard(self.prefix + "deadlines"),
                self._redis.zcard(self.prefix + "due"),
            )
        )
        return {"live": int(live), "pending": int(pending)}

    async def clear(self) -> None:
        """Delete every key under this store's prefix (tests and ``jiyi`` maintenance)."""

        def go() -> None:
            for k in self._redis.scan_iter(match=self.prefix + "*", count=500):
                self._redis.delete(k)

        await self._run(go)
