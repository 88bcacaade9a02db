"""Bearer-key authentication and the agent rules that go with a key.

The tenant always comes from the key, never from the request; the services turn it into a
``Memory`` whose every storage query filters by that tenant.
"""

from __future__ import annotations

import hashlib
import time

from fastapi import Request

from jiyi.core.models import MemoryItem
from jiyi.errors import AuthenticationError, PermissionDeniedError
from jiyi.keys import KeyStore, Principal
from jiyi.server.services import Services

CACHE_SECONDS = 30.0  # how long a revoked key may keep working in a running server


class KeyCache:
    """Verified keys for a short while, so a request does not cost a SQLite lookup."""

    def __init__(self, keys: KeyStore) -> None:
        self._keys = keys
        self._hits: dict[str, tuple[Principal, float]] = {}

    async def principal(self, key: str, services: Services) -> Principal | None:
        digest = hashlib.sha256(key.encode()).hexdigest()
        hit = self._hits.get(digest)
        now = time.monotonic()
        if hit is not None and hit[1] > now:
            return hit[0]
        found = await services.run(self._keys.verify, key)
        if found is not None:
            if len(self._hits) > 10_000:  # bounded: forged keys are never cached anyway
                self._hits.clear()
            self._hits[digest] = (found, now + CACHE_SECONDS)
        return found


async def authenticate(request: Request) -> Principal:
    """FastAPI dependency: the caller's principal, or 401."""
    services: Services = request.app.state.services
    header = request.headers.get("authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise AuthenticationError(
            "missing API key; send 'Authorization: Bearer <key>' (create one with "
            "'jiyi keys create --tenant NAME')"
        )
    principal = await services.key_cache.principal(key.strip(), services)
    if principal is None:
        raise AuthenticationError("unknown or revoked API key")
    return principal


def agent_for(principal: Principal, requested: str | None) -> str | None:
    """The agent an operation runs as. A key bound to an agent acts as that agent (and may
    name it explicitly); naming another agent is refused."""
    if principal.agent_id is None:
        return requested
    if requested is not None and requested != principal.agent_id:
        raise PermissionDeniedError("this API key is bound to another agent", field="agent_id")
    return principal.agent_id


def visible(principal: Principal, memory: MemoryItem) -> bool:
    """Whether the key may see this memory: shared memories (agent_id None) and its own
    agent's are visible to an agent-bound key; everything in the tenant to a tenant key."""
    return (
        principal.agent_id is None
        or memory.agent_id is None
        or memory.agent_id == principal.agent_id
    )


def require_tenant_key(principal: Principal, what: str) -> None:
    if principal.agent_id is not None:
        raise PermissionDeniedError(f"{what} needs a tenant-wide API key (not bound to an agent)")
