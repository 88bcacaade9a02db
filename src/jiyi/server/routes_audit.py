"""``GET /v1/users/{user_id}/audit``: the user's audit log (``jiyi.core.audit``) — who read or
changed the user's data (the API key id), what (search, context, profile, export, list, get,
add, update, delete, delete_user, import), when and how many items; never the content.

Reading it needs a tenant-wide key (403 for an agent-bound one): the log covers every agent.
The tenant comes from the key, so tenant B never sees tenant A's log; an alias names the user
through the ``X-Jiyi-Alias`` header as everywhere. Mounted before
``DELETE /v1/users/{user_id}``, whose path parameter would swallow the suffix.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from jiyi.core.audit import AuditPage
from jiyi.server.auth import require_tenant_key
from jiyi.server.errors import error_responses
from jiyi.server.routes_users import Auth, UserId, _services

router = APIRouter(prefix="/v1", tags=["audit"], responses=error_responses(401, 422, 503))


@router.get(
    "/users/{user_id:path}/audit", response_model=AuditPage, responses=error_responses(403, 404)
)
async def get_audit(
    user_id: UserId,
    request: Request,
    who: Auth,
    since: Annotated[
        str | None,
        Query(max_length=64, description="ISO 8601 time: only rows at or after it"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[
        str | None,
        Query(pattern=r"^[0-9]{1,18}$", description="`next_cursor` of the previous page"),
    ] = None,
) -> AuditPage:
    """The user's audit log, newest first; page with ``cursor``. Rows older than the
    retention (``audit_retention_days``, 180) are purged by maintenance. A user with no
    rows gets an empty page; after ``DELETE /v1/users/{id}`` only the ``delete_user`` row
    is left."""
    require_tenant_key(who, "reading the audit log")
    s = _services(request)
    return await s.run(s.memory_of(who).audit, user_id, since=since, limit=limit, cursor=cursor)
