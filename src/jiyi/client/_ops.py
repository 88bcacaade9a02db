"""Every endpoint of the jiyi API as a function that builds its :class:`~jiyi.client._call.Call`
(sans-I/O: nothing is sent here). The sync and the async client call these and send the
result; how a Call is sent, read and retried is in ``_call``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import httpx
from pydantic_core import to_jsonable_python

from jiyi.client._call import Call, body, parse_as, parse_none, problem_error, segment
from jiyi.core.models import (
    AddResult,
    DeletionReceipt,
    HealthReport,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    SearchHit,
)
from jiyi.core.ports import UserSummary
from jiyi.core.profile import ProfileOverride, UserProfile
from jiyi.errors import JiyiError
from jiyi.sessions.base import SessionView
from jiyi.wire import (
    IDEMPOTENCY_HEADER,
    BatchAddResponse,
    ContextResponse,
    Health,
    HistoryResponse,
    MemoryList,
    ProfileHistory,
    SearchResponse,
    UserList,
)


def add(
    messages: str | Sequence[dict[str, Any]],
    *,
    user_id: str,
    agent_id: str | None,
    session_id: str | None,
    timestamp: datetime | str | None,
    infer: bool,
    idempotency_key: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    ttl: float | None = None,
) -> Call[AddResult]:
    return Call(
        "POST",
        "/v1/memories",
        parse_as(AddResult),
        headers={IDEMPOTENCY_HEADER: idempotency_key} if idempotency_key is not None else {},
        idempotent=idempotency_key is not None,  # a repeat with the key stores nothing new
        json=body(
            messages=messages if isinstance(messages, str) else list(messages),
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            timestamp=timestamp,
            infer=infer,
            metadata=dict(metadata) if metadata is not None else None,
            ttl=ttl,
        ),
    )


def add_batch(
    items: Sequence[Mapping[str, Any]], *, idempotency_key: str | None = None
) -> Call[list[AddResult | JiyiError]]:
    parse = parse_as(BatchAddResponse)

    def outcomes(resp: httpx.Response) -> list[AddResult | JiyiError]:
        out: list[AddResult | JiyiError] = []
        for r in parse(resp).results:
            if r.result is not None:
                out.append(r.result)
            else:
                out.append(problem_error(r.error.model_dump() if r.error else {}, r.status))
        return out

    return Call(
        "POST",
        "/v1/memories/batch",
        outcomes,
        headers={IDEMPOTENCY_HEADER: idempotency_key} if idempotency_key is not None else {},
        idempotent=idempotency_key is not None,
        json={"items": to_jsonable_python([dict(item) for item in items])},
    )


def search(
    query: str,
    *,
    user_id: str,
    agent_id: str | None,
    top_k: int,
    kinds: Sequence[str] | None,
    since: datetime | str | None,
    until: datetime | str | None,
    now: datetime | str | None,
    filters: Mapping[str, Any] | None = None,
) -> Call[list[SearchHit]]:
    parse = parse_as(SearchResponse)
    return Call(
        "POST",
        "/v1/memories/search",
        lambda r: parse(r).results,
        idempotent=True,
        json=body(
            query=query,
            user_id=user_id,
            agent_id=agent_id,
            top_k=top_k,
            kinds=list(kinds) if kinds is not None else None,
            since=since,
            until=until,
            now=now,
            filters=dict(filters) if filters is not None else None,
        ),
    )


def context(
    query: str,
    *,
    user_id: str,
    agent_id: str | None,
    session_id: str | None,
    token_budget: int,
    now: datetime | str | None,
) -> Call[ContextResponse]:
    return Call(
        "POST",
        "/v1/context",
        parse_as(ContextResponse),
        idempotent=True,
        json=body(
            query=query,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            token_budget=token_budget,
            now=now,
        ),
    )


def get(memory_id: str) -> Call[MemoryItem | None]:
    return Call(
        "GET",
        f"/v1/memories/{segment(memory_id)}",
        parse_as(MemoryItem),
        none_on_404=True,
        idempotent=True,
    )


def list_(
    *,
    user_id: str,
    agent_id: str | None,
    include_superseded: bool,
    include_episodes: bool,
    filters: Mapping[str, Any] | None = None,
    limit: int | None = None,
    after: str | None = None,
    include_archived: bool = False,
) -> Call[list[MemoryItem]]:
    params: dict[str, Any] = {
        "user_id": user_id,
        "include_superseded": str(include_superseded).lower(),
        "include_episodes": str(include_episodes).lower(),
    }
    optional = {
        "agent_id": agent_id,
        "filters": json.dumps(to_jsonable_python(filters)) if filters is not None else None,
        "limit": limit,
        "cursor": after,  # the server's cursor is the last id of the previous page
    }
    params.update({k: v for k, v in optional.items() if v is not None})
    if include_archived:
        params["include_archived"] = "true"
    parse = parse_as(MemoryList)
    return Call("GET", "/v1/memories", lambda r: parse(r).memories, params=params, idempotent=True)


def users(*, after: str | None, limit: int) -> Call[list[UserSummary]]:
    parse = parse_as(UserList)
    params: dict[str, Any] = {"limit": limit}
    if after is not None:
        params["cursor"] = after
    return Call(
        "GET",
        "/v1/users",
        lambda r: [UserSummary(**u.model_dump()) for u in parse(r).users],
        params=params,
        idempotent=True,
    )


def update(memory_id: str, content: str) -> Call[MemoryItem]:
    return Call(
        "PATCH",
        f"/v1/memories/{segment(memory_id)}",
        parse_as(MemoryItem),
        json={"content": content},
    )


def delete(memory_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/memories/{segment(memory_id)}", parse_none, idempotent=True)


def history(memory_id: str) -> Call[list[HistoryEntry]]:
    parse = parse_as(HistoryResponse)
    return Call(
        "GET",
        f"/v1/memories/{segment(memory_id)}/history",
        lambda r: parse(r).history,
        idempotent=True,
    )


def restore(memory_id: str) -> Call[MemoryItem]:
    # Restoring twice leaves the memory as the first call did: safe to repeat.
    return Call(
        "POST", f"/v1/memories/{segment(memory_id)}/restore", parse_as(MemoryItem), idempotent=True
    )


def maintain(
    user_id: str, *, dry_run: bool, steps: Sequence[str] | None = None
) -> Call[MaintenanceReport]:
    body: dict[str, Any] = {"dry_run": dry_run}
    if steps is not None:
        body["steps"] = list(steps)
    return Call(
        "POST",
        f"/v1/users/{segment(user_id)}/maintain",
        parse_as(MaintenanceReport),
        idempotent=True,  # a second run finds the work done
        json=body,
    )


def user_health(user_id: str) -> Call[HealthReport]:
    return Call(
        "GET", f"/v1/users/{segment(user_id)}/health", parse_as(HealthReport), idempotent=True
    )


def profile(user_id: str) -> Call[UserProfile]:
    return Call(
        "GET", f"/v1/users/{segment(user_id)}/profile", parse_as(UserProfile), idempotent=True
    )


def update_profile(user_id: str, changes: Mapping[str, str | None]) -> Call[UserProfile]:
    # Not retried: a repeat leaves the same profile but logs the change twice.
    return Call(
        "PATCH",
        f"/v1/users/{segment(user_id)}/profile",
        parse_as(UserProfile),
        json=dict(changes),  # None stays: it clears the field
    )


def profile_history(user_id: str, *, limit: int) -> Call[list[ProfileOverride]]:
    parse = parse_as(ProfileHistory)
    return Call(
        "GET",
        f"/v1/users/{segment(user_id)}/profile/history",
        lambda r: parse(r).changes,
        params={"limit": limit},
        idempotent=True,
    )


def delete_user(user_id: str) -> Call[DeletionReceipt]:
    return Call(
        "DELETE", f"/v1/users/{segment(user_id)}", parse_as(DeletionReceipt), idempotent=True
    )


def add_message(
    session_id: str,
    content: str,
    *,
    user_id: str,
    role: str,
    agent_id: str | None,
    name: str | None,
) -> Call[SessionView]:
    return Call(
        "POST",
        f"/v1/sessions/{segment(session_id)}/messages",
        parse_as(SessionView),
        json=body(user_id=user_id, agent_id=agent_id, role=role, content=content, name=name),
    )


def get_session(session_id: str) -> Call[SessionView | None]:
    return Call(
        "GET",
        f"/v1/sessions/{segment(session_id)}",
        parse_as(SessionView),
        none_on_404=True,
        idempotent=True,
    )


def end_session(session_id: str) -> Call[SessionView | None]:
    return Call(
        "POST", f"/v1/sessions/{segment(session_id)}/end", parse_as(SessionView), none_on_404=True
    )


def health() -> Call[Health]:
    return Call("GET", "/healthz", parse_as(Health), idempotent=True)
