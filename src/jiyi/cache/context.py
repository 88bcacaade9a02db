"""A cache of hot ``/v1/context`` memory blocks, invalidated per user with one INCR.

An agent asks for context every turn, usually with a query that differs little between
turns and a memory that has not changed. Entries are keyed by (tenant, user, a digest of
agent/query/budget/now) *and the user's version*; every write or delete of the user bumps
the version, so invalidation is one INCR and stale entries are simply never read again
(they expire after ``ttl``). A block computed while a write lands is stored under the
version read before computing, so it can never be served after that write.

Two backends: in-process (one server, below) and Redis (``jiyi.cache.redis``).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from typing import Any, Protocol


def cache_key(*parts: object) -> str:
    """A short digest of whatever identifies one context request."""
    raw = json.dumps(parts, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


class ContextCache(Protocol):
    """Per-user versioned cache of JSON-ready values. Every method is best effort: a
    backend that cannot answer treats it as a miss and never raises."""

    def get(self, tenant: str, user_id: str, key: str) -> tuple[dict[str, Any] | None, str]:
        """(the value or None, the user's current version — pass it to :meth:`put`)."""
        ...

    def put(
        self, tenant: str, user_id: str, key: str, version: str, value: dict[str, Any], ttl: float
    ) -> None:
        """Store ``value`` under ``version`` for ``ttl`` seconds; a no-op when the user's
        version is no longer ``version`` (a write landed while it was computed)."""
        ...

    def bump(self, tenant: str, user_id: str) -> None:
        """Invalidate everything cached for this user; safe to call from any thread."""
        ...

    def close(self) -> None:
        """Release connections (nothing to release in process)."""
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

    def close(self) -> None:
        pass
