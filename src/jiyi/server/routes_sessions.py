"""``/v1/sessions`` (short-term memory) and ``/v1/context`` (what an agent reads each turn).

Sessions are keyed by (tenant from the key, session_id), so another tenant's session id
names a different, empty session. Within a tenant a session belongs to the user (and
agent) of its first message; an agent-bound key cannot see another agent's session.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from pydantic import AfterValidator

from jiyi.cache import cache_key
from jiyi.core.inputs import MAX_ID_CHARS
from jiyi.core.models import ContextBlock
from jiyi.errors import NotFoundError, PayloadTooLargeError
from jiyi.keys import Principal
from jiyi.server.auth import agent_for, authenticate
from jiyi.server.context import combine, session_budget
from jiyi.server.errors import error_responses
from jiyi.server.services import Services
from jiyi.sessions.base import SessionKey, SessionMessage, SessionOwner, SessionView
from jiyi.wire import ContextRequest, ContextResponse, SessionMessageIn
from jiyi.wire_fields import ID_SCHEMA, valid_id

router = APIRouter(prefix="/v1", tags=["sessions"], responses=error_responses(401, 422, 503))
Auth = Annotated[Principal, Depends(authenticate)]
SessionId = Annotated[
    str,
    Path(min_length=1, max_length=MAX_ID_CHARS, json_schema_extra=ID_SCHEMA),
    AfterValidator(valid_id),
]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def _hidden(who: Principal, view: SessionView | None) -> bool:
    return view is None or (who.agent_id is not None and view.agent_id != who.agent_id)


@router.post(
    "/sessions/{session_id}/messages",
    response_model=SessionView,
    responses=error_responses(403, 404, 409, 413),
)
async def append_message(
    session_id: SessionId, body: SessionMessageIn, request: Request, who: Auth
) -> SessionView:
    """Append one message atomically; returns the current window (newest N, oldest first)."""
    s = _services(request)
    if len(body.content) > s.memory_of(who).config.max_message_chars:
        raise PayloadTooLargeError("content is too long", field="content")
    now = s.clock()
    msg = SessionMessage(
        id=f"msg-{uuid.uuid4().hex}",
        seq=0,
        role=body.role,
        content=body.content,
        name=body.name,
        timestamp=now,
    )
    st = s.settings
    user_id = await s.run(s.memory_of(who).resolve_user, body.user_id)  # an alias too
    return await s.sessions.append(
        SessionKey(who.tenant, session_id),
        msg,
        owner=SessionOwner(user_id, agent_for(who, body.agent_id)),
        window=st.session_window,
        ttl=timedelta(seconds=st.session_ttl_seconds),
        max_messages=st.session_max_messages,
        now=now,
    )


@router.get("/sessions/{session_id}", response_model=SessionView, responses=error_responses(404))
async def get_session(session_id: SessionId, request: Request, who: Auth) -> SessionView:
    """The live session's window; 404 when none is live (ended, expired or never begun)."""
    s = _services(request)
    view = await s.sessions.get(
        SessionKey(who.tenant, session_id), window=s.settings.session_window, now=s.clock()
    )
    if view is None or _hidden(who, view):
        raise NotFoundError(f"no live session {session_id}", field="session_id")
    return view


@router.post(
    "/sessions/{session_id}/end", response_model=SessionView, responses=error_responses(404, 409)
)
async def end_session(session_id: SessionId, request: Request, who: Auth) -> SessionView:
    """End the session; its messages are written to long-term memory in the background
    (the response does not wait for extraction)."""
    s = _services(request)
    key = SessionKey(who.tenant, session_id)
    if who.agent_id is not None:
        current = await s.sessions.get(key, window=1, now=s.clock())
        if _hidden(who, current):
            raise NotFoundError(f"no live session {session_id}", field="session_id")
    view = await s.sessions.end(key, window=s.settings.session_window, now=s.clock())
    if view is None:
        raise NotFoundError(f"no live session {session_id}", field="session_id")
    request.app.state.flusher.kick()
    return view


@router.post(
    "/context",
    response_model=ContextResponse,
    tags=["context"],
    responses=error_responses(403, 413),
)
async def context(body: ContextRequest, request: Request, who: Auth) -> ContextResponse:
    """What an agent puts in its system prompt at session start and every turn: the
    long-term memories relevant to ``query`` plus the live session window, within
    ``token_budget`` tokens."""
    s = _services(request)
    agent = agent_for(who, body.agent_id)
    user_id = await s.run(s.memory_of(who).resolve_user, body.user_id)  # an alias too
    body = body.model_copy(update={"user_id": user_id})
    window: list[SessionMessage] = []
    if body.session_id is not None:
        view = await s.sessions.get(
            SessionKey(who.tenant, body.session_id), window=s.settings.session_window, now=s.clock()
        )
        if view is not None and view.user_id == body.user_id and not _hidden(who, view):
            window = view.messages
    lines, lang, used = session_budget(window, body.query, body.token_budget)
    block = await _memory_block(s, who, body, agent, max(50, body.token_budget - used))
    text, tokens = combine(block, lines, lang)
    kept = window[len(window) - len(lines) :] if lines else []
    return ContextResponse(
        text=text,
        memories=block.memories,
        tasks=block.tasks,
        tokens=tokens,
        session=kept,
        degraded=block.degraded,
    )


async def _memory_block(
    s: Services, who: Principal, body: ContextRequest, agent: str | None, budget: int
) -> ContextBlock:
    """The long-term part of a context, from the hot cache when the user is unchanged.
    (A cached block skips the access-count update its search would have made.)"""
    ttl, tenant = s.settings.context_cache_seconds, who.tenant
    # The session is part of the key: the identity guard may withhold one session's block.
    key = cache_key(agent, body.query, budget, body.now, body.session_id)
    version = ""
    if ttl > 0:
        cached, version = await s.run(s.cache.get, tenant, body.user_id, key)
        s.metrics.inc("jiyi_context_cache_total", result="hit" if cached else "miss")
        if cached is not None:
            hit = ContextBlock.model_validate(cached)
            # Served without the engine's search: audited here (the same row as a miss).
            s.audited(who, "context", body.user_id, len(hit.memories))
            return hit
    block = await s.run(
        s.memory_of(who).context,
        body.query,
        user_id=body.user_id,
        agent_id=agent,
        token_budget=budget,
        now=body.now,
        session_id=body.session_id,
    )
    if block.degraded:
        s.metrics.inc("jiyi_search_degraded_total")
    elif ttl > 0:  # a degraded block is not worth keeping
        await s.run(
            s.cache.put, tenant, body.user_id, key, version, block.model_dump(mode="json"), ttl
        )
    return block
