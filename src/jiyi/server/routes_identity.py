"""``/v1/users/{user_id}/…`` for who the user is (issue 13, item 3): login aliases, merging
two users, confirming a session the drift guard flagged, the identity audit log, and
export / import of one user.

An alias is PII: it travels in JSON bodies (``POST``/``DELETE …/aliases``) and in the
``X-Jiyi-Alias`` header (``server/aliases.py``), never in a URL. Every handler goes through
the facade, whose one resolver turns an alias into its user; the tenant comes from the key,
so tenant B's key cannot resolve — or even detect — tenant A's aliases. Linking, unlinking,
merging, export and import act on all of a user's agents: they need a tenant-wide key (403
for an agent-bound one). Mounted before
``DELETE /v1/users/{user_id}``, whose path parameter would swallow the suffixes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse

from jiyi.core.identity import Alias, SuspectSession
from jiyi.errors import NotFoundError
from jiyi.keys import Principal
from jiyi.server.auth import authenticate, require_tenant_key
from jiyi.server.errors import error_responses
from jiyi.server.routes_users import UserId
from jiyi.server.services import Services
from jiyi.transfer import ExportDocument
from jiyi.transfer_lines import MEDIA_TYPE, dump_lines
from jiyi.wire import AliasBody, AliasList, ConfirmIdentity, IdentityEvents, MergeBody, MergeResult

router = APIRouter(prefix="/v1", tags=["identity"], responses=error_responses(401, 422, 503))
Auth = Annotated[Principal, Depends(authenticate)]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


@router.post(
    "/users/{user_id:path}/aliases",
    response_model=Alias,
    status_code=201,
    responses=error_responses(403, 404, 409),
)
async def link_alias(user_id: UserId, body: AliasBody, request: Request, who: Auth) -> Alias:
    """Link a login alias to the user (stored as a keyed hash with a masked hint). Linking
    it again is a no-op; an alias of another user is refused (409, code ``alias_taken``)."""
    require_tenant_key(who, "linking an alias")
    s = _services(request)
    return await s.run(
        s.memory_of(who).link,
        user_id,
        body.alias,
        kind=body.kind.value,
        actor=f"key:{who.key_id}",
    )


@router.delete(
    "/users/{user_id:path}/aliases",
    status_code=204,
    response_class=Response,
    responses=error_responses(403, 404),
)
async def unlink_alias(user_id: UserId, body: AliasBody, request: Request, who: Auth) -> Response:
    """Remove an alias from the user (the alias is in the body, never in the URL); 404 when
    the user has no such alias."""
    require_tenant_key(who, "unlinking an alias")
    s = _services(request)
    found = await s.run(
        s.memory_of(who).unlink,
        user_id,
        body.alias,
        kind=body.kind.value,
        actor=f"key:{who.key_id}",
    )
    if not found:
        raise NotFoundError("the user has no such alias", field="alias")
    return Response(status_code=204)


@router.get(
    "/users/{user_id:path}/aliases", response_model=AliasList, responses=error_responses(404)
)
async def list_aliases(user_id: UserId, request: Request, who: Auth) -> AliasList:
    """The user's aliases: kind, masked hint, digest and when linked."""
    s = _services(request)
    return AliasList(aliases=await s.run(s.memory_of(who).aliases, user_id))


@router.post(
    "/users/{user_id:path}/merge",
    response_model=MergeResult,
    responses=error_responses(403, 404, 409),
)
async def merge_user(user_id: UserId, body: MergeBody, request: Request, who: Auth) -> MergeResult:
    """Merge this user INTO ``into``: memories, history, tasks and aliases move in one
    transaction; both users' identity logs record it with the key id. A task key both hold
    is a conflict (409, field ``tasks``) and nothing moves."""
    require_tenant_key(who, "merging users")
    s = _services(request)
    mem = s.memory_of(who)
    target = await s.run(mem.resolve_user, body.into)
    counts = await s.run(mem.merge_users, user_id, target, actor=f"key:{who.key_id}")
    return MergeResult(user_id=target, moved=counts)


@router.post(
    "/users/{user_id:path}/identity/confirm",
    response_model=SuspectSession,
    responses=error_responses(404),
)
async def confirm_identity(
    user_id: UserId, body: ConfirmIdentity, request: Request, who: Auth
) -> SuspectSession:
    """Confirm that a session the drift guard flagged is this user: its context gets the
    user's memories again. 404 when the session was never flagged."""
    s = _services(request)
    return await s.run(
        s.memory_of(who).confirm_identity, user_id, body.session_id, actor=f"key:{who.key_id}"
    )


@router.get(
    "/users/{user_id:path}/identity/events",
    response_model=IdentityEvents,
    responses=error_responses(404),
)
async def identity_events(
    user_id: UserId,
    request: Request,
    who: Auth,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> IdentityEvents:
    """The user's identity audit log, newest first (never an alias or any content)."""
    s = _services(request)
    found = await s.run(s.memory_of(who).identity_events, user_id, limit=limit)
    return IdentityEvents(events=found)


_EXPORT_200: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The export: one JSON document, or with ``format=jsonl`` its JSON "
        "Lines layout (a header line with version, tenant, user and counts, then one record "
        "a line), streamed.",
        "content": {MEDIA_TYPE: {"schema": {"type": "string"}}},
    }
}
_IMPORT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "an export from GET …/export: the JSON document, or its JSON Lines "
        "layout (told by its header line)",
        "content": {
            "application/json": {"schema": {"type": "object"}},
            MEDIA_TYPE: {"schema": {"type": "string"}},
        },
    }
}


@router.get(
    "/users/{user_id:path}/export",
    response_model=ExportDocument,
    tags=["export"],
    responses={**_EXPORT_200, **error_responses(403, 404)},
)
async def export_user(
    user_id: UserId,
    request: Request,
    who: Auth,
    format: Annotated[
        Literal["json", "jsonl"],
        Query(description="json: one document; jsonl: one record a line (application/x-ndjson)"),
    ] = "json",
) -> ExportDocument | Response:
    """Everything stored about the user as one versioned JSON document (memories with
    history and vectors, tasks, the switch and its log, hashed aliases, identity log), or
    with ``format=jsonl`` the same as JSON Lines, streamed."""
    require_tenant_key(who, "exporting a user")
    s = _services(request)
    doc = await s.run(s.memory_of(who).export, user_id)
    if format == "jsonl":
        # The document is read in one go (one consistent view); only its encoding streams.
        return StreamingResponse(dump_lines(doc), media_type=MEDIA_TYPE)
    return doc


@router.post(
    "/users/{user_id:path}/import",
    tags=["export"],
    responses=error_responses(403, 404, 409, 413),
    openapi_extra=_IMPORT_BODY,
)
async def import_user(
    user_id: UserId,
    request: Request,
    who: Auth,
    remap: Annotated[
        bool, Query(description="take another user's document as this user's")
    ] = False,
) -> dict[str, dict[str, int]]:
    """Import an export as this user, in one transaction (all or nothing): the JSON
    document or its JSON Lines layout. A malformed one is refused (422 naming the field —
    for JSON Lines ``lines.<n>…``, the line); another tenant's or user's document too,
    unless ``remap=true``."""
    require_tenant_key(who, "importing a user")
    # Read raw, whatever the content type: the facade tells the two layouts apart and
    # names a bad field (or line) itself.
    document = await request.body()
    s = _services(request)
    counts = await s.run(s.memory_of(who).import_, document, user_id, remap=remap)
    return {"imported": counts}
