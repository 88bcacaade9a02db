"""A cache of hot ``/v1/context`` memory blocks, invalidated per user with one INCR.

An agent asks for context every turn, usually with a query that differs little between
turns and a memory that has not changed. Entries are keyed by (tenant, user, a digest of
agent/query/budget/now) *and the user's version*; every write or delete of the user bumps
the version, so invalidation is one INCR and stale entries are simply never read again
(they expire after ``ttl``). A block computed while a write lands is stored under the
version read before computing, so it can never be served after that write.

Two backends: in-process (one server) and Redis (shared by every server and ``jiyi
worker``, which bumps after it extracts). A Redis error is a miss, never a failed request;
``on_unavailable`` counts it.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol


def cache_key(*parts: object) -> str:
    """A short digest of whatever identifies one context request."""
    raw = json.dumps(parts, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


class ContextCache(Protocol):
    """Per-user versioned cache of JSON-ready values."""

    def get(self, tenant: str, user_id: str, key: str) -> tuple[dict[str, Any] | None, str]:
        """(the value or None, the user's current version — pass it to :meth:`put`)."""
        ...

    def put(
        self, tenant: str, user_id: str, key: str, version: str, value: dict[str, Any], ttl: float
    ) -> None:
        """Store ``value`` under ``version`` for ``ttl`` seconds (best effort)."""
        ...

    def bump(self, tenant: str, user_id: str) -> None:
        """Invalidate everything cached for this user (best effort)."""
        ...


class InProcessContextCache:
    """A bounded LRU in this process's memory."""

    def __init__(self, max_entries: int = 10_000) -> None:
        self._lock = threading.Lock()
        self._versions: dict[tuple[str, str], int] = {}
        self._entries: OrderedDict[tuple[str, str, str, str], tuple[float, dict[str, Any]]] = (
            OrderedDict()
        )
        self.max_entries = max_entries

    def get(self, tenant: str, user_id: str, key: str) -> tuple[dict[str, Any] | None, str]:
        with self._lock:
            version = str(self._versions.get((tenant, user_id), 0))
            hit = self._entries.get((tenant, user_id, version, key))
            if hit is None or hit[0] < time.monotonic():
                return None, version
            self._entries.move_to_end((tenant, user_id, version, key))
            return hit[1], version

    def put(
        self, tenant: str, user_id: str, key: str, version: str, value: dict[str, Any], ttl: float
    ) -> None:
        with self._lock:
            if str(self._versions.get((tenant, user_id), 0)) != version:
                return  # the user changed while this was computed
            self._entries[(tenant, user_id, version, key)] = (time.monotonic() + ttl, value)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def bump(self, tenant: str, user_id: str) -> None:
        with self._lock:
            k = (tenant, user_id)
            self._versions[k] = self._versions.get(k, 0) + 1
            for e in [e for e in self._entries if e[:2] == k]:
                del self._entries[e]


_GET = """
local v = redis.call('GET', KEYS[1]) or '0'
return {v, redis.call('GET', KEYS[1] .. ':' .. v .. ':' .. ARGV[1])}
"""


class RedisContextCache:
    """The cache in Redis, shared by all processes.

    Args:
        url: ``redis://`` URL (``JIYI_REDIS``).
        prefix: key prefix.
        timeout: seconds per command; a slow Redis is a cache miss.
        on_unavailable: called on every Redis error.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "jiyi:",
        timeout: float = 0.5,
        on_unavailable: Callable[[], None] | None = None,
    ) -> None:
        import redis

        self._redis = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout
        )
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._get = self._redis.register_script(_GET)
        self.prefix = prefix
        self._on_unavailable = on_unavailable or (lambda: None)

    def _vkey(self, tenant: str, user_id: str) -> str:
        return self.prefix + "ctx:" + json.dumps([tenant, user_id], ensure_ascii=False)

    def get(self, tenant: str, user_id: str, key: str) -> tuple[dict[str, Any] | None, str]:
        try:
            version, raw = self._get(keys=[self._vkey(tenant, user_id)], args=[key])
        except self._errors:
            self._on_unavailable()
            return None, ""
        v = version.decode() if isinstance(version, bytes) else str(version)
        return (json.loads(raw) if raw else None), v

    def put(
        self, tenant: str, user_id: str, key: str, version: str, value: dict[str, Any], ttl: float
    ) -> None:
        if not version:  # the version could not be read: do not cache
            return
        try:
            self._redis.set(
                f"{self._vkey(tenant, user_id)}:{version}:{key}",
                json.dumps(value, ensure_ascii=False, default=str),
                px=max(1, int(ttl * 1000)),
            )
        except self._errors:
            self._on_unavailable()

    def bump(self, tenant: str, user_id: str) -> None:
        try:
            self._redis.incr(self._vkey(tenant, user_id))
        except self._errors:
            self._on_unavailable()

    def close(self) -> None:
        self._redis.close()
