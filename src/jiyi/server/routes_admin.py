"""``/v1/keys`` and ``/v1/admin``: what an operator (and the console) manages with an admin key.

Keys are listed, made, revoked and rotated here as with ``jiyi keys``; a revoked key is
refused within a second on every node (``keycache.CACHE_SECONDS``). Every route needs an
admin key (``jiyi keys create --admin``); any other key is a 403.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import AfterValidator

from jiyi.core.inputs import MAX_ID_CHARS
from jiyi.core.models import TenantHealth
from jiyi.errors import NotFoundError
from jiyi.keys import KeyRecord, Principal
from jiyi.server.auth import authenticate, require_admin
from jiyi.server.errors import error_responses
from jiyi.server.services import Services
from jiyi.wire import KeyInfo, KeyList, KeyRequest, NewKey, TenantList
from jiyi.wire_fields import ID_SCHEMA, valid_id

router = APIRouter(prefix="/v1", tags=["admin"], responses=error_responses(401, 403, 422, 503))


async def admin(request: Request) -> Principal:
    """FastAPI dependency: the caller, who must hold an admin key."""
    who = await authenticate(request)
    require_admin(who)
    return who


Admin = Annotated[Principal, Depends(admin)]
TenantName = Annotated[
    str,
    Path(min_length=1, max_length=MAX_ID_CHARS, json_schema_extra=ID_SCHEMA),
    AfterValidator(valid_id),
]
KeyId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[0-9a-f]+$")]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def _info(r: KeyRecord) -> KeyInfo:
    return KeyInfo(
        key_id=r.key_id,
        tenant=r.tenant,
        agent_id=r.agent_id,
        admin=r.admin,
        created_at=r.created_at,
        expires_at=r.expires_at,
        revoked_at=r.revoked_at,
    )


async def _made(s: Services, key: str, made: Principal) -> NewKey:
    # The stored record (created_at, expiry) of a key just made, found in its tenant's keys.
    for r in await s.run(s.keys.records, made.tenant):
        if r.key_id == made.key_id:
            return NewKey(key=key, info=_info(r))
    raise NotFoundError(f"no key {made.key_id}", field="key_id")  # never: records keep every key


@router.get("/keys", response_model=KeyList)
async def list_keys(
    request: Request,
    who: Admin,
    tenant: Annotated[str | None, Query(max_length=256, json_schema_extra=ID_SCHEMA)] = None,
) -> KeyList:
    """Every stored key (revoked ones too) of ``tenant``, or of all tenants; never a key
    or its hash, only its id."""
    s = _services(request)
    return KeyList(keys=[_info(r) for r in await s.run(s.keys.records, tenant)])


@router.post("/keys", response_model=NewKey, status_code=201)
async def create_key(body: KeyRequest, request: Request, who: Admin) -> NewKey:
    """A new key (shown in this answer only). ``tenant`` defaults to the caller's."""
    s = _services(request)
    key, made = await s.run(
        s.keys.create,
        body.tenant or who.tenant,
        body.agent_id,
        admin=body.admin,
        expires_at=body.expires_at,
    )
    return await _made(s, key, made)


@router.delete(
    "/keys/{key_id}", status_code=204, response_class=Response, responses=error_responses(404)
)
async def revoke_key(key_id: KeyId, request: Request, who: Admin) -> Response:
    """Revoke a key: refused within one second on every node. 404 for an unknown or
    already revoked key."""
    s = _services(request)
    if not await s.run(s.keys.revoke, key_id):
        raise NotFoundError(f"no active key {key_id}", field="key_id")
    return Response(status_code=204)


@router.post("/keys/{key_id}/rotate", response_model=NewKey, responses=error_responses(404))
async def rotate_key(key_id: KeyId, request: Request, who: Admin) -> NewKey:
    """Replace a key with a new one of the same tenant, agent, admin flag and expiry; the
    old one is revoked in the same transaction."""
    s = _services(request)
    rotated = await s.run(s.keys.rotate, key_id)
    if rotated is None:
        raise NotFoundError(f"no active key {key_id}", field="key_id")
    key, made = rotated
    return await _made(s, key, made)


@router.get("/admin/tenants", response_model=TenantList)
async def list_tenants(request: Request, who: Admin) -> TenantList:
    """The tenants that hold keys (a tenant exists for jiyi once it has a key)."""
    s = _services(request)
    records = await s.run(s.keys.records)
    return TenantList(tenants=sorted({r.tenant for r in records} | {who.tenant}))


@router.get("/admin/tenants/{tenant}/health", response_model=TenantHealth)
async def tenant_health(tenant: TenantName, request: Request, who: Admin) -> TenantHealth:
    """The memory health of a whole tenant: every user's health report added up (counts by
    kind and status, stale, never used, expiring, due for archive or purge, vectors left to
    backfill, last roll-up and reflection) and the users holding the most memories. Reads
    every user's rows: an operator's call, not a hot path."""
    s = _services(request)
    return await s.run(s.memory(tenant).tenant_health)
