"""Bearer-key authentication and the agent rules that go with a key.

The tenant always comes from the key, never from the request; the services turn it into a
``Memory`` whose every storage query filters by that tenant.
"""

from __future__ import annotations

from fastapi import Request

from jiyi.core.models import MemoryItem
from jiyi.errors import AuthenticationError, PermissionDeniedError
from jiyi.keys import Principal
from jiyi.server.services import Services


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
    principal = await services.key_cache.principal(key.strip())
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
    """Refuse (403) an agent-bound key for an operation on the whole tenant."""
    if principal.agent_id is not None:
        raise PermissionDeniedError(f"{what} needs a tenant-wide API key (not bound to an agent)")
