"""Bearer-key authentication and the agent rules that go with a key.

The tenant always comes from the key, never from the request; the services turn it into a
``Memory`` whose every storage query filters by that tenant.
"""

from __future__ import annotations

from dataclasses import replace

from fastapi import Request

from jiyi.core.filters import agent_sees
from jiyi.core.inputs import id_problem
from jiyi.core.models import MemoryItem
from jiyi.errors import AuthenticationError, InvalidInputError, PermissionDeniedError
from jiyi.keys import Principal
from jiyi.server.services import Services
from jiyi.wire import TENANT_HEADER


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
        raise AuthenticationError("unknown, expired or revoked API key")
    tenant = request.headers.get(TENANT_HEADER)
    if tenant is None or tenant == principal.tenant:
        request.state.tenant = principal.tenant  # for the access log
        return principal
    if not principal.admin:
        raise PermissionDeniedError(
            f"only an admin key may name another tenant in {TENANT_HEADER}", field=TENANT_HEADER
        )
    why = id_problem(tenant)
    if why is not None:
        raise InvalidInputError(f"{TENANT_HEADER}: {why}", field=TENANT_HEADER)
    request.state.tenant = tenant
    return replace(principal, tenant=tenant)


def require_admin(principal: Principal) -> None:
    """Refuse (403) a key that is not an admin key."""
    if not principal.admin:
        raise PermissionDeniedError(
            "this needs an admin key (jiyi keys create --admin --tenant NAME)"
        )


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
    return agent_sees(principal.agent_id, memory)


def require_tenant_key(principal: Principal, what: str) -> None:
    """Refuse (403) an agent-bound key for an operation on the whole tenant."""
    if principal.agent_id is not None:
        raise PermissionDeniedError(f"{what} needs a tenant-wide API key (not bound to an agent)")
