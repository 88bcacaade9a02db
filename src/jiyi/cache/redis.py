"""The context cache in Redis, shared by every server process and ``jiyi worker``.

Versions are ``INCR`` counters per user; an entry lives under its version for ``ttl``. A
Redis error is a miss (or a dropped put/bump), never a failed request; ``on_unavailable``
counts it. See ``jiyi.cache.context`` for the scheme.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

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
