"""The wire format of the REST API: request bodies and the response envelopes.

Pure pydantic and no FastAPI import, so the SDK (``jiyi.client``) parses responses with the
very models the server validates them with. Result objects themselves (MemoryItem,
AddResult, SearchHit …) are the domain models from ``jiyi.core.models``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from jiyi.core.models import HistoryEntry, MemoryItem, MemoryKind, SearchHit
from jiyi.sessions.base import SessionMessage

Id = Annotated[str, Field(min_length=1, max_length=256)]
Text = Annotated[str, Field(min_length=1)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MessageIn(_Body):
    role: Literal["user", "assistant", "system"] = "user"
    content: str
    name: str | None = None
    id: str | None = None
    timestamp: datetime | None = None


def _one_message(value: object) -> object:
    # A bare string is one user message; converting it up front keeps validation errors
    # pointing at messages[i].field instead of at union branches.
    return [{"role": "user", "content": value}] if isinstance(value, str) else value


class AddRequest(_Body):
    messages: Annotated[list[MessageIn], BeforeValidator(_one_message)] = Field(
        description="one user message as a string, or a list of {role, content} messages",
        examples=["我对花生过敏", [{"role": "user", "content": "我下周去成都出差"}]],
    )
    user_id: Id
    agent_id: Id | None = None
    session_id: Id | None = None
    timestamp: datetime | None = None
    infer: bool = True


class SearchRequest(_Body):
    query: Text
    user_id: Id
    agent_id: Id | None = None
    top_k: int = Field(10, ge=1, le=200)
    kinds: list[MemoryKind] | None = None
    since: datetime | None = None
    until: datetime | None = None
    now: datetime | None = None


class UpdateRequest(_Body):
    content: Text


class ContextRequest(_Body):
    query: Text
    user_id: Id
    agent_id: Id | None = None
    session_id: Id | None = None
    token_budget: int = Field(800, ge=50, le=100_000)
    now: datetime | None = None


class SessionMessageIn(_Body):
    user_id: Id
    agent_id: Id | None = None
    role: Literal["user", "assistant", "system"] = "user"
    content: Text
    name: str | None = None


class SearchResponse(BaseModel):
    results: list[SearchHit]
    # True when semantic search missed its time budget: keyword matches only.
    degraded: bool = False


class MemoryList(BaseModel):
    memories: list[MemoryItem]


class HistoryResponse(BaseModel):
    memory_id: str
    history: list[HistoryEntry]


class ContextResponse(BaseModel):
    """A system-prompt block: relevant long-term memories, then the live session window."""

    text: str
    memories: list[MemoryItem] = Field(default_factory=list)
    tokens: int
    session: list[SessionMessage] = Field(default_factory=list)
    degraded: bool = False  # the memories come from keyword matches only (see search)


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str
    embedder: str


class Problem(BaseModel):
    """Every error response (``application/problem+json``)."""

    status: int
    code: str
    message: str
    field: str | None = None
