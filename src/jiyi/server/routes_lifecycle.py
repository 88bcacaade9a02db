"""The lifecycle over HTTP: restore an archived memory, run maintenance for one user, read
a user's memory health.

``POST /v1/memories/{id}/restore`` follows the visibility rule of every memory route (a
memory another key may not see is a 404). ``POST /v1/users/{id}/maintain`` works on the
whole user (all agents), so, like deleting a user, it needs a tenant-wide key; so does
``GET /v1/users/{id}/health``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from pydantic import AfterValidator

from jiyi.core.inputs import MAX_ID_CHARS
from jiyi.core.models import HealthReport, MaintenanceReport, MemoryItem
from jiyi.errors import NotFoundError
from jiyi.keys import Principal
from jiyi.server.auth import authenticate, require_tenant_key, visible
from jiyi.server.errors import error_responses
from jiyi.server.services import Services
from jiyi.wire import MaintainRequest
from jiyi.wire_fields import ID_SCHEMA, valid_id

router = APIRouter(prefix="/v1", tags=["lifecycle"], responses=error_responses(401, 422, 503))
Auth = Annotated[Principal, Depends(authenticate)]
PathId = Annotated[
    str,
    Path(min_length=1, max_length=MAX_ID_CHARS, json_schema_extra=ID_SCHEMA),
    AfterValidator(valid_id),
]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


@router.post(
    "/memories/{memory_id}/restore",
    response_model=MemoryItem,
    responses=error_responses(404),
)
async def restore_memory(memory_id: PathId, request: Request, who: Auth) -> MemoryItem:
    """Make an archived memory active again (with the episodes archived with it); its TTL
    starts over. An active memory is returned unchanged; a superseded one is a 422."""
    s = _services(request)
    mem = s.memory_of(who)
    found = await s.run(mem.get, memory_id)
    if found is None or not visible(who, found):
        raise NotFoundError(f"no memory with id {memory_id}", field="memory_id")
    return await s.run(mem.restore, memory_id)


# ``:path``: a user id may contain "/" (sent as %2F), as for DELETE /v1/users/{id}.
@router.post(
    "/users/{user_id:path}/maintain",
    response_model=MaintenanceReport,
    tags=["users"],
    # 404: a user id the path cannot carry (a newline) matches no route, as for DELETE.
    responses=error_responses(403, 404),
)
async def maintain_user(
    user_id: PathId,
    request: Request,
    who: Auth,
    body: MaintainRequest | None = None,
) -> MaintenanceReport:
    """Run the lifecycle on one user now: by default decay, archive what expired (or
    decayed, or falls over the per-user cap), purge what was archived longer than the
    retention period (a hard delete), merge duplicates. ``steps`` picks others: ``rollup``
    (weekly summaries of events), ``reflect`` (profile reflections), ``backfill``
    (re-embed vectors another embedder made), or ``all``; an unknown step is a 422 naming
    ``steps``. ``dry_run`` reports and writes nothing."""
    require_tenant_key(who, "maintaining a user")
    s = _services(request)
    dry = body.dry_run if body is not None else False
    steps = body.steps if body is not None else None
    report = await s.run(s.memory_of(who).maintain, user_id, dry_run=dry, steps=steps)
    s.metrics.record_maintenance(report)
    return report


@router.get(
    "/users/{user_id:path}/health",
    response_model=HealthReport,
    tags=["users"],
    responses=error_responses(403, 404),
)
async def user_health(user_id: PathId, request: Request, who: Auth) -> HealthReport:
    """Counts by kind and status; stale, never-used and soon-expiring memories; what the
    next maintenance would archive or purge. Tenant-wide key only (it covers all agents)."""
    require_tenant_key(who, "reading a user's memory health")
    s = _services(request)
    return await s.run(s.memory_of(who).health, user_id)
