"""Sans-I/O core of the SDK: every API call as a :class:`Call` (what to send, how to read
the answer, whether it may be repeated), shared by the sync and the async client so
neither re-implements it. Models and header names come from ``jiyi.wire`` and errors from
``jiyi.errors``: the SDK never imports the server.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

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
from jiyi.errors import JiyiError, StorageUnavailableError, error_class
from jiyi.sessions.base import SessionView
from jiyi.wire import (
    IDEMPOTENCY_HEADER,
    RETRY_AFTER_HEADER,
    ContextResponse,
    Health,
    HistoryResponse,
    MemoryList,
    SearchResponse,
    UserList,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class ServerError(JiyiError):
    """The server failed in a way it did not explain (HTTP 5xx without a known code)."""

    code = "internal_error"

    def __init__(self, message: str, *, status: int, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.status = status


def retry_after(resp: httpx.Response) -> float | None:
    """The ``Retry-After`` of a response in seconds (the server sends whole seconds; an
    HTTP date is not used by jiyi and reads as None)."""
    raw = resp.headers.get(RETRY_AFTER_HEADER)
    try:
        seconds = float(raw) if raw is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and math.isfinite(seconds) and seconds >= 0 else None


def error_for(resp: httpx.Response) -> JiyiError:
    """The JiyiError a problem response stands for: the class its ``code`` names (else the
    one its status stands for, ``jiyi.errors.error_class``), with ``status`` set to the HTTP
    status and ``retry_after`` to the ``Retry-After`` header."""
    try:
        body = resp.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code", ""))
    message = str(body.get("message") or f"HTTP {resp.status_code}")
    field_ = body.get("field")
    field_ = field_ if isinstance(field_, str) else None
    cls = error_class(code, resp.status_code)
    err: JiyiError = (
        cls(message, field=field_)
        if cls is not None
        else ServerError(message, status=resp.status_code, field=field_)
    )
    err.status = resp.status_code
    err.retry_after = retry_after(resp)
    return err


def transport_error(exc: httpx.HTTPError, base_url: str) -> JiyiError:
    return StorageUnavailableError(
        f"cannot reach the jiyi server at {base_url} ({type(exc).__name__}); is it running?"
    )


@dataclass(frozen=True)
class RetryPolicy:
    """How a client waits out a refusal that says when to come back: a 429 (tenant over
    its rate) or 503 (server at capacity) with ``Retry-After``. Only calls that are safe to
    repeat are retried (see :attr:`Call.idempotent`); any other call raises the
    RateLimitedError / OverloadedError at once, ``retry_after`` set, for the caller to
    decide.

    Args:
        attempts: tries in all, the first included (1: never retry).
        max_wait: the longest ``Retry-After`` waited out, in seconds; a longer one is
            raised at once rather than blocking the caller.
    """

    attempts: int = 3
    max_wait: float = 10.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("RetryPolicy.attempts must be at least 1")
        if not math.isfinite(self.max_wait) or self.max_wait < 0:
            raise ValueError("RetryPolicy.max_wait must be a finite number of seconds >= 0")

    def delay(self, call: Call[Any], resp: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before trying ``call`` again after ``resp`` on try ``attempt``
        (1-based); None: do not retry, read ``resp`` as it is."""
        if not call.idempotent or attempt >= self.attempts or resp.status_code not in (429, 503):
            return None
        wait = retry_after(resp)
        return wait if wait is not None and wait <= self.max_wait else None


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and the parser for its answer."""

    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    json: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    none_on_404: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    #: Safe to send again after a refusal: reads, deletes and keyed adds.
    idempotent: bool = False

    def result(self, resp: httpx.Response) -> T:
        if resp.status_code == 404 and self.none_on_404:
            return None  # type: ignore[return-value]  # T is Optional for these calls
        if resp.status_code >= 400:
            raise error_for(resp)
        return self.parse(resp)


def _model(cls: type[M]) -> Callable[[httpx.Response], M]:
    def parse(resp: httpx.Response) -> M:
        try:
            return cls.model_validate_json(resp.content)
        except ValidationError as exc:
            raise ServerError(
                f"unexpected response from server: {exc.error_count()} field(s) did not match",
                status=resp.status_code,
            ) from exc

    return parse


def _none(_: httpx.Response) -> None:
    return None


def _body(**fields: Any) -> dict[str, Any]:
    out = {k: v for k, v in fields.items() if v is not None}
    jsonable: dict[str, Any] = to_jsonable_python(out)
    return jsonable


def _seg(value: str) -> str:
    return quote(value, safe="")


# -- the API, one function per endpoint ------------------------------------------------


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
        _model(AddResult),
        headers={IDEMPOTENCY_HEADER: idempotency_key} if idempotency_key is not None else {},
        idempotent=idempotency_key is not None,  # a repeat with the key stores nothing new
        json=_body(
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
    parse = _model(SearchResponse)
    return Call(
        "POST",
        "/v1/memories/search",
        lambda r: parse(r).results,
        idempotent=True,
        json=_body(
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
        _model(ContextResponse),
        idempotent=True,
        json=_body(
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
        f"/v1/memories/{_seg(memory_id)}",
        _model(MemoryItem),
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
    parse = _model(MemoryList)
    return Call("GET", "/v1/memories", lambda r: parse(r).memories, params=params, idempotent=True)


def users(*, after: str | None, limit: int) -> Call[list[UserSummary]]:
    parse = _model(UserList)
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
        "PATCH", f"/v1/memories/{_seg(memory_id)}", _model(MemoryItem), json={"content": content}
    )


def delete(memory_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/memories/{_seg(memory_id)}", _none, idempotent=True)


def history(memory_id: str) -> Call[list[HistoryEntry]]:
    parse = _model(HistoryResponse)
    return Call(
        "GET",
        f"/v1/memories/{_seg(memory_id)}/history",
        lambda r: parse(r).history,
        idempotent=True,
    )


def restore(memory_id: str) -> Call[MemoryItem]:
    # Restoring twice leaves the memory as the first call did: safe to repeat.
    return Call(
        "POST", f"/v1/memories/{_seg(memory_id)}/restore", _model(MemoryItem), idempotent=True
    )


def maintain(user_id: str, *, dry_run: bool) -> Call[MaintenanceReport]:
    return Call(
        "POST",
        f"/v1/users/{_seg(user_id)}/maintain",
        _model(MaintenanceReport),
        idempotent=True,  # a second run finds the work done
        json={"dry_run": dry_run},
    )


def user_health(user_id: str) -> Call[HealthReport]:
    return Call("GET", f"/v1/users/{_seg(user_id)}/health", _model(HealthReport), idempotent=True)


def delete_user(user_id: str) -> Call[DeletionReceipt]:
    return Call("DELETE", f"/v1/users/{_seg(user_id)}", _model(DeletionReceipt), idempotent=True)


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
        f"/v1/sessions/{_seg(session_id)}/messages",
        _model(SessionView),
        json=_body(user_id=user_id, agent_id=agent_id, role=role, content=content, name=name),
    )


def get_session(session_id: str) -> Call[SessionView | None]:
    return Call(
        "GET",
        f"/v1/sessions/{_seg(session_id)}",
        _model(SessionView),
        none_on_404=True,
        idempotent=True,
    )


def end_session(session_id: str) -> Call[SessionView | None]:
    return Call(
        "POST", f"/v1/sessions/{_seg(session_id)}/end", _model(SessionView), none_on_404=True
    )


def health() -> Call[Health]:
    return Call("GET", "/healthz", _model(Health), idempotent=True)


def headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}", "User-Agent": f"jiyi-python/{_version()}"}


def _version() -> str:
    # From the installed distribution, not ``jiyi.__version__``: importing the package root
    # from here made ``jiyi`` and ``jiyi.client`` import each other.
    try:
        return version("jiyi")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"
