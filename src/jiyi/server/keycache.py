"""Verified API keys, kept for a few seconds so a request does not cost a key-store lookup.

Admission control looks the key up first (for the tenant), the route right after; both hit
this cache. Only keys that verified are kept, so forged keys cannot fill it.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Awaitable, Callable

from jiyi.keys import Principal

# How long a revoked (or expired) key may keep working in a running server. Every node
# looks a key up again after this, and with PostgreSQL every node reads the same table, so
# a revocation is refused everywhere within one second. The price is one indexed lookup per
# key and node every half second.
CACHE_SECONDS = 0.5
MAX_ENTRIES = 10_000

#: Looks a key up in the key store (off the event loop): the principal, or None.
Verify = Callable[[str], Awaitable[Principal | None]]


class KeyCache:
    """Principals of recently verified keys, by a digest of the key (never the key)."""

    def __init__(self, verify: Verify, *, seconds: float = CACHE_SECONDS) -> None:
        self._verify = verify
        self._seconds = seconds
        self._hits: dict[str, tuple[Principal, float]] = {}

    async def principal(self, key: str) -> Principal | None:
        """The key's principal: cached for ``seconds`` after it verified, else looked up."""
        digest = hashlib.sha256(key.encode()).hexdigest()
        hit = self._hits.get(digest)
        now = time.monotonic()
        if hit is not None and hit[1] > now:
            return hit[0]
        found = await self._verify(key)
        if found is not None:
            if len(self._hits) > MAX_ENTRIES:
                self._hits.clear()
            self._hits[digest] = (found, now + self._seconds)
        return found
