"""``/v1/memories`` and ``/v1/users``: the Memory facade over HTTP.

Every handler gets the tenant from the API key (``authenticate``) and the agent from
``agent_for``; the body can narrow a request, never widen it. A memory another key may not
see answers 404, exactly like one that does not exist, so ids cannot be probed. No handler
invalidates the context cache: the store does it on every committed write
(``jiyi.cache.NotifyingStore``).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from pydantic import AfterValidator

from jiyi.core.inputs import MAX_ID_CHARS
from jiyi.core.models import AddResult, DeletionReceipt, HistoryEntry, MemoryItem
from jiyi.errors import InvalidInputError, NotFoundError
from jiyi.keys import Principal
from jiyi.server.auth import agent_for, authenticate, require_tenant_key, visible
from jiyi.server.errors import error_responses
from jiyi.server.idempotency import IdempotencyLedger, derived_prefix, fingerprint, with_ids
from jiyi.server.services import Services
from jiyi.wire import (
    FILTERS_DOC,
    IDEMPOTENCY_HEADER,
    AddRequest,
    HistoryResponse,
    MemoryList,
    SearchRequest,
    SearchResponse,
    UpdateRequest,
    UserInfo,
    UserList,
)
from jiyi.wire_fields import ID_SCHEMA, valid_id

router = APIRouter(prefix="/v1", tags=["memories"], responses=error_responses(401, 422, 503))
Auth = Annotated[Principal, Depends(authenticate)]
MemoryId = Annotated[
    str,
    Path(min_length=1, max_length=MAX_ID_CHARS, json_schema_extra=ID_SCHEMA),
    AfterValidator(valid_id),
]
QueryId = Annotated[
    str,
    Query(min_length=1, max_length=MAX_ID_CHARS, json_schema_extra=ID_SCHEMA),
    AfterValidator(valid_id),
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias=IDEMPOTENCY_HEADER,
        min_length=1,
        max_length=255,
        pattern=r"^[\x21-\x7e]+$",
        description="Makes a retry safe: the same key with the same body stores nothing "
        "new (200, same shape); with a different body it is refused (409).",
    ),
]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


async def _visible(s: Services, who: Principal, memory_id: str) -> MemoryItem:
    """The memory if the key may see it, else 404. Not audited: a check before an update
    or delete is not a read (``get_memory`` audits its own)."""
    mem = s.memory_of(who)
    found = await s.run(mem.engine.get, who.tenant, memory_id)
    if found is None or not visible(who, found):
        raise NotFoundError(f"no memory with id {memory_id}", field="memory_id")
    return found


@router.post("/memories", response_model=AddResult, responses=error_responses(403, 409, 413, 502))
async def add_memories(
    body: AddRequest,
    request: Request,
    who: Auth,
    idempotency_key: IdempotencyKey = None,
) -> AddResult:
    """Remember messages: episodes always; facts, preferences … when ``infer``."""
    s = _services(request)
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    agent = agent_for(who, body.agent_id)
    if idempotency_key is None:
        return await write_add(s, who, body, messages, agent, None)
    ledger: IdempotencyLedger = request.app.state.idempotency
    fp = fingerprint(body.model_dump(mode="json"), body.user_id, agent)
    prefix = derived_prefix(idempotency_key, fp)
    async with ledger.serialised(who.tenant, idempotency_key):
        await s.run(ledger.check, who.tenant, idempotency_key, fp, s.clock())
        result = await write_add(s, who, body, with_ids(messages, prefix), agent, prefix)
        await s.run(ledger.record, who.tenant, idempotency_key, fp, s.clock())
    return result


async def write_add(
    s: Services,
    who: Principal,
    body: AddRequest,
    messages: list[dict[str, Any]],
    agent: str | None,
    batch: str | None,
) -> AddResult:
    """One validated add: enqueued with a work queue (when it extracts), else inline.
    ``batch``: the idempotent batch id of a keyed request (see ``idempotency``)."""
    mem = s.memory_of(who)
    ttl = timedelta(seconds=body.ttl) if body.ttl is not None else None
    if s.queue is not None and body.infer:
        # Durable before the 200: the job is enqueued and the episodes are stored; a
        # worker extracts (``queued: true``, no events yet).
        result = await s.run(
            mem.accept,
            messages,
            queue=s.queue,
            user_id=body.user_id,
            agent_id=agent,
            session_id=body.session_id,
            timestamp=body.timestamp,
            batch_id=batch,
            grace=s.queue_grace,
            metadata=body.metadata,
            ttl=ttl,
        )
    else:
        result = await s.run(
            mem.add,
            messages,
            user_id=body.user_id,
            agent_id=agent,
            session_id=body.session_id,
            timestamp=body.timestamp,
            infer=body.infer,
            metadata=body.metadata,
            ttl=ttl,
        )
    s.metrics.record_add(result)
    return result


@router.post("/memories/search", response_model=SearchResponse, responses=error_responses(403, 413))
async def search_memories(body: SearchRequest, request: Request, who: Auth) -> SearchResponse:
    """Hybrid search over the user's memories, best first."""
    s = _services(request)
    found = await s.run(
        s.memory_of(who).search_result,
        body.query,
        user_id=body.user_id,
        agent_id=agent_for(who, body.agent_id),
        top_k=body.top_k,
        kinds=[k.value for k in body.kinds] if body.kinds is not None else None,
        since=body.since,
        until=body.until,
        now=body.now,
        filters=body.filters,
    )
    if found.degraded:
        s.metrics.inc("jiyi_search_degraded_total")
    return SearchResponse(results=found.hits, degraded=found.degraded)


@router.get("/memories", response_model=MemoryList, responses=error_responses(403))
async def list_memories(
    request: Request,
    who: Auth,
    user_id: QueryId,
    agent_id: QueryId | None = None,
    include_superseded: bool = False,
    include_episodes: bool = False,
    # 1,024 characters: a URL stays under the HTTP server's 16 KiB line limit even when
    # every character is percent-encoded UTF-8 (a longer line is dropped unanswered).
    filters: Annotated[
        str | None, Query(description="a JSON object: " + FILTERS_DOC, max_length=1024)
    ] = None,
    limit: Annotated[int | None, Query(ge=1, le=1000)] = None,
    cursor: Annotated[
        str | None, Query(description="next_cursor of the previous page", max_length=256)
    ] = None,
    include_archived: bool = False,
) -> MemoryList:
    """The user's memories, oldest first (by id). With ``limit``, one page at a time:
    pass the answer's ``next_cursor`` as ``cursor`` until it is null. Archived memories
    (forgotten by the lifecycle, restorable) only with ``include_archived``."""
    s = _services(request)
    items = await s.run(
        s.memory_of(who).list,
        user_id=user_id,
        agent_id=agent_for(who, agent_id),
        include_superseded=include_superseded,
        include_episodes=include_episodes,
        filters=json_object(filters, "filters"),
        limit=limit,
        after=cursor,
        include_archived=include_archived,
    )
    more = limit is not None and len(items) == limit
    return MemoryList(memories=items, next_cursor=items[-1].id if more else None)


@router.get("/users", response_model=UserList, tags=["users"], responses=error_responses(403))
async def list_users(
    request: Request,
    who: Auth,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=256)] = None,
) -> UserList:
    """The users of the key's tenant that have stored memories, by user id; page with
    ``cursor`` = the previous answer's ``next_cursor``. Needs a tenant-wide key."""
    require_tenant_key(who, "listing users")
    s = _services(request)
    found = await s.run(s.memory_of(who).users, after=cursor, limit=limit)
    users = [UserInfo(**asdict(u)) for u in found]
    return UserList(users=users, next_cursor=users[-1].user_id if len(users) == limit else None)


def json_object(raw: str | None, field: str) -> dict[str, Any] | None:
    """A JSON object sent in a query parameter (422 naming ``field`` if it is not one)."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
        raise InvalidInputError(f"{field} must be a JSON object", field=field) from exc
    if not isinstance(value, dict):
        raise InvalidInputError(f"{field} must be a JSON object", field=field)
    return value


@router.get("/memories/{memory_id}", response_model=MemoryItem, responses=error_responses(404))
async def get_memory(memory_id: MemoryId, request: Request, who: Auth) -> MemoryItem:
    s = _services(request)
    found = await _visible(s, who, memory_id)
    s.audited(who, "get", found.user_id, 1)
    return found


@router.patch(
    "/memories/{memory_id}", response_model=MemoryItem, responses=error_responses(404, 413)
)
async def update_memory(
    memory_id: MemoryId, body: UpdateRequest, request: Request, who: Auth
) -> MemoryItem:
    """Replace a memory's content; the old version stays in its history."""
    s = _services(request)
    await _visible(s, who, memory_id)
    return await s.run(s.memory_of(who).update, memory_id, body.content)


@router.delete(
    "/memories/{memory_id}",
    status_code=204,
    response_class=Response,
    responses=error_responses(404),
)
async def delete_memory(memory_id: MemoryId, request: Request, who: Auth) -> Response:
    """Hard-delete one memory (and, for an extracted one, the episodes it came from)."""
    s = _services(request)
    await _visible(s, who, memory_id)
    await s.run(s.memory_of(who).delete, memory_id)
    return Response(status_code=204)


@router.get(
    "/memories/{memory_id}/history", response_model=HistoryResponse, responses=error_responses(404)
)
async def memory_history(memory_id: MemoryId, request: Request, who: Auth) -> HistoryResponse:
    """The audit trail, oldest first; it outlives a hard delete (without content) — for a
    tenant-wide key. An agent-bound key sees the trail only while the memory exists and is
    visible to it, since a deleted memory's owner can no longer be checked."""
    s = _services(request)
    mem = s.memory_of(who)
    current = await s.run(mem.get, memory_id)
    trail: list[HistoryEntry]
    if current is not None and not visible(who, current):
        current = None
        trail = []
    elif current is None and who.agent_id is not None:
        trail = []
    else:
        trail = await s.run(mem.history, memory_id)
    if not trail:
        raise NotFoundError(f"no memory with id {memory_id}", field="memory_id")
    return HistoryResponse(memory_id=memory_id, history=trail)


# ``:path``: a user id may contain "/" (sent as %2F); the route must name exactly that user,
# never redirect to a shorter id.
@router.delete(
    "/users/{user_id:path}",
    response_model=DeletionReceipt,
    tags=["users"],
    responses=error_responses(403, 404),
)
async def delete_user(
    user_id: Annotated[
        str,
        Path(min_length=1, max_length=MAX_ID_CHARS, json_schema_extra=ID_SCHEMA),
        AfterValidator(valid_id),
    ],
    request: Request,
    who: Auth,
) -> DeletionReceipt:
    """Hard-delete everything stored about a user in this tenant; returns a receipt of what
    was removed from each store, and when. A user id containing "/" is sent as %2F."""
    require_tenant_key(who, "deleting a user")
    return await _services(request).delete_user(who.tenant, user_id, f"key:{who.key_id}")
