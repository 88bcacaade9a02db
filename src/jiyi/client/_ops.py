"""Sans-I/O core of the SDK: every API call as a :class:`Call` (what to send, how to read
the answer), shared by the sync and the async client so neither re-implements it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from jiyi.core.models import AddResult, DeletionReceipt, HistoryEntry, MemoryItem, SearchHit
from jiyi.errors import (
    AuthenticationError,
    ConflictError,
    ExtractionError,
    InvalidInputError,
    JiyiError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    StorageUnavailableError,
)
from jiyi.server.schemas import (
    ContextResponse,
    Health,
    HistoryResponse,
    MemoryList,
    SearchResponse,
)
from jiyi.sessions.base import SessionView

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

_BY_CODE: dict[str, type[JiyiError]] = {
    cls.code: cls
    for cls in (
        InvalidInputError,
        PayloadTooLargeError,
        NotFoundError,
        PermissionDeniedError,
        AuthenticationError,
        ConflictError,
        StorageUnavailableError,
        ExtractionError,
    )
}
_BY_STATUS: dict[int, type[JiyiError]] = {
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    422: InvalidInputError,
    502: ExtractionError,
    503: StorageUnavailableError,
}


class ServerError(JiyiError):
    """The server failed in a way it did not explain (HTTP 5xx without a known code)."""

    code = "internal_error"

    def __init__(self, message: str, *, status: int, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.status = status


def error_for(resp: httpx.Response) -> JiyiError:
    """The JiyiError a problem response stands for (its ``status`` attribute is set)."""
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
    cls = _BY_CODE.get(code) or _BY_STATUS.get(resp.status_code)
    err: JiyiError = (
        cls(message, field=field_)
        if cls is not None
        else ServerError(message, status=resp.status_code, field=field_)
    )
    err.status = resp.status_code  # type: ignore[attr-defined]
    return err


def transport_error(exc: httpx.HTTPError, base_url: str) -> JiyiError:
    return StorageUnavailableError(
        f"cannot reach the jiyi server at {base_url} ({type(exc).__name__}); is it running?"
    )


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
) -> Call[AddResult]:
    return Call(
        "POST",
        "/v1/memories",
        _model(AddResult),
        headers={"Idempotency-Key": idempotency_key} if idempotency_key is not None else {},
        json=_body(
            messages=messages if isinstance(messages, str) else list(messages),
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            timestamp=timestamp,
            infer=infer,
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
) -> Call[list[SearchHit]]:
    parse = _model(SearchResponse)
    return Call(
        "POST",
        "/v1/memories/search",
        lambda r: parse(r).results,
        json=_body(
            query=query,
            user_id=user_id,
            agent_id=agent_id,
            top_k=top_k,
            kinds=list(kinds) if kinds is not None else None,
            since=since,
            until=until,
            now=now,
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
    return Call("GET", f"/v1/memories/{_seg(memory_id)}", _model(MemoryItem), none_on_404=True)


def list_(
    *, user_id: str, agent_id: str | None, include_superseded: bool, include_episodes: bool
) -> Call[list[MemoryItem]]:
    params: dict[str, Any] = {
        "user_id": user_id,
        "include_superseded": str(include_superseded).lower(),
        "include_episodes": str(include_episodes).lower(),
    }
    if agent_id is not None:
        params["agent_id"] = agent_id
    parse = _model(MemoryList)
    return Call("GET", "/v1/memories", lambda r: parse(r).memories, params=params)


def update(memory_id: str, content: str) -> Call[MemoryItem]:
    return Call(
        "PATCH", f"/v1/memories/{_seg(memory_id)}", _model(MemoryItem), json={"content": content}
    )


def delete(memory_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/memories/{_seg(memory_id)}", _none)


def history(memory_id: str) -> Call[list[HistoryEntry]]:
    parse = _model(HistoryResponse)
    return Call("GET", f"/v1/memories/{_seg(memory_id)}/history", lambda r: parse(r).history)


def delete_user(user_id: str) -> Call[DeletionReceipt]:
    return Call("DELETE", f"/v1/users/{_seg(user_id)}", _model(DeletionReceipt))


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
    return Call("GET", f"/v1/sessions/{_seg(session_id)}", _model(SessionView), none_on_404=True)


def end_session(session_id: str) -> Call[SessionView | None]:
    return Call(
        "POST", f"/v1/sessions/{_seg(session_id)}/end", _model(SessionView), none_on_404=True
    )


def health() -> Call[Health]:
    return Call("GET", "/healthz", _model(Health))


def headers(api_key: str) -> dict[str, str]:
    from jiyi import __version__

    return {"Authorization": f"Bearer {api_key}", "User-Agent": f"jiyi-python/{__version__}"}
