"""The wire format of the REST API, shared by the server and the SDK: request bodies, the
response envelopes, the problem document every error is, and the header names.

Pure pydantic, no FastAPI and nothing from ``jiyi.server``, so the SDK (``jiyi.client``)
parses responses with the very models the server validates and answers with, without the
server installed. Result objects themselves (MemoryItem, AddResult, SearchHit …) are the
domain models from ``jiyi.core.models``; the session window is ``jiyi.sessions.base``'s.
The validated field types the bodies are made of (``Id``, ``Text``, ``When`` …) are in
``jiyi.wire_fields``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.json_schema import SkipJsonSchema

from jiyi.core.identity import Alias, AliasKind, IdentityEvent
from jiyi.core.models import AddResult, HistoryEntry, MemoryItem, MemoryKind, SearchHit
from jiyi.core.profile import ProfileOverride
from jiyi.core.users import MemorySwitch, SwitchChange, TaskState, TaskStatus
from jiyi.sessions.base import SessionMessage
from jiyi.wire_fields import Content, Id, Name, ProfileText, RequestBody, Text, When

#: The media type of every error response (RFC 9457 problem details).
PROBLEM_TYPE = "application/problem+json"
#: Makes a retried ``POST /v1/memories`` safe (see docs/server.md, Idempotent writes).
IDEMPOTENCY_HEADER = "Idempotency-Key"
#: Sent with 429 and 503 refusals: whole seconds to wait before retrying.
RETRY_AFTER_HEADER = "Retry-After"
#: An admin key names the tenant it acts on (the console's tenant picker).
TENANT_HEADER = "X-Jiyi-Tenant"
#: Every response carries one; a client may send its own (see docs/server.md, Request ids).
REQUEST_ID_HEADER = "X-Request-Id"


class MessageIn(RequestBody):
    role: Literal["user", "assistant", "system"] = "user"
    content: Content
    name: Name | None = None
    id: Id | None = None
    timestamp: When | None = None


def _one_message(value: object) -> object:
    # A bare string is one user message; converting it up front keeps validation errors
    # pointing at messages[i].field instead of at union branches.
    return [{"role": "user", "content": value}] if isinstance(value, str) else value


class AddRequest(RequestBody):
    messages: Annotated[list[MessageIn], BeforeValidator(_one_message)] = Field(
        min_length=1,
        description="one user message as a string, or a list of {role, content} messages",
        examples=["我对花生过敏", [{"role": "user", "content": "我下周去成都出差"}]],
    )
    user_id: Id
    agent_id: Id | None = None
    session_id: Id | None = None
    timestamp: When | None = None
    infer: bool = True
    ttl: StrictFloat | None = Field(
        None,
        gt=0,
        le=100 * 365.25 * 86400,
        description="seconds what this call creates lives (its episodes, new memories and "
        "new versions); unset: the lifecycle's default per kind",
        examples=[86400],
    )
    metadata: dict[str, Any] | None = Field(
        None,
        description="yours: stored on every memory this request creates; keys are letters, "
        "digits, '_' or '-'; filter on it with filters.metadata.<key>",
        examples=[{"project": "alpha", "priority": 2}],
    )


class InvalidItem:
    """An item of a batch that is not a valid add: what was sent and why it is refused
    (answered as that item's 422; the other items are still written)."""

    def __init__(self, sent: object, error: ValidationError) -> None:
        self.sent = sent
        self.error = error


def _each_item(value: object, _: ValidatorFunctionWrapHandler) -> AddRequest | InvalidItem:
    # Validated one by one, so a bad item becomes that item's error instead of failing the
    # whole request.
    try:
        return AddRequest.model_validate(value)
    except ValidationError as exc:
        return InvalidItem(value, exc)


BatchItem = Annotated[
    AddRequest | SkipJsonSchema[InvalidItem],  # the schema shows AddRequest only
    WrapValidator(_each_item),
]


class BatchAddRequest(RequestBody):
    """``POST /v1/memories/batch``: several adds, each item what ``POST /v1/memories``
    takes."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    items: list[BatchItem] = Field(
        min_length=1,
        description="each the body of POST /v1/memories; at most JIYI_MAX_BATCH_ITEMS",
        examples=[[{"user_id": "u1", "messages": "我对花生过敏"}]],
    )


class BatchItemResult(BaseModel):
    """One item's outcome: ``result`` when ``status`` is 200, else ``error``."""

    index: int
    status: int
    result: AddResult | None = None
    error: Problem | None = None


class BatchAddResponse(BaseModel):
    results: list[BatchItemResult]  # in the order of the items
    succeeded: int
    failed: int


FILTERS_DOC = (
    "conditions that must all hold: a field (metadata.<key>[.<key>], kind, agent_id, topic, "
    "session_id, importance, confidence, access_count, created_at, observed_at, valid_from, "
    "valid_to, expires_at, last_accessed_at) mapped to a value (equality) or to operators "
    "{eq, ne, in, gt, gte, lt, lte}"
)


class SearchRequest(RequestBody):
    query: Text
    user_id: Id
    agent_id: Id | None = None
    top_k: int = Field(10, ge=1, le=200)
    kinds: list[MemoryKind] | None = None
    since: When | None = None
    until: When | None = None
    now: When | None = None
    filters: dict[str, Any] | None = Field(
        None,
        description=FILTERS_DOC,
        examples=[{"metadata.project": "alpha", "importance": {"gte": 0.6}}],
    )


class UpdateRequest(RequestBody):
    content: Text


class TaskPut(RequestBody):
    """``PUT /v1/users/{user_id}/tasks/{key}``: the task's new state."""

    state: dict[str, Any] = Field(
        description="a JSON object of at most 64 KiB (no NaN, no NUL characters)",
        examples=[{"form": "三月差旅报销单", "step": 3, "missing": ["酒店发票"]}],
    )
    expected_version: int | None = Field(
        None,
        ge=0,
        le=2**31 - 1,
        description="the version you read: a stale one is refused with 409 version_conflict; "
        "0: create only; absent: replace whatever is stored",
    )
    expires_at: When | None = Field(
        None, description="when the task stops existing (in the future); absent: never"
    )
    status: TaskStatus = Field(
        TaskStatus.ACTIVE,
        description="active, or done (kept, but no longer in context blocks)",
    )


class TaskList(BaseModel):
    tasks: list[TaskState]


class SwitchPut(RequestBody):
    """``PUT /v1/users/{user_id}/memory-switch``."""

    memory: MemorySwitch = Field(
        description="on; paused: keeps what is stored, adds nothing; off: adds nothing and "
        "serves nothing"
    )


class SwitchHistory(BaseModel):
    changes: list[SwitchChange]  # newest first


class ProfilePatch(RequestBody):
    """``PATCH /v1/users/{user_id}/profile``: the fields to set (a string) or clear (null);
    fields left out stay as they are. A list field's value replaces its whole list."""

    name: ProfileText | None = None
    language: ProfileText | None = None
    timezone: ProfileText | None = Field(None, examples=["Asia/Shanghai"])
    city: ProfileText | None = Field(None, examples=["杭州"])
    hometown: ProfileText | None = None
    occupation: ProfileText | None = None
    employer: ProfileText | None = None
    school: ProfileText | None = None
    family: ProfileText | None = None
    pets: ProfileText | None = None
    diet: ProfileText | None = None
    allergies: ProfileText | None = Field(None, examples=["花生、青霉素"])
    health: ProfileText | None = None

    def changes(self) -> dict[str, str | None]:
        """The fields the request named, with their values (None: clear)."""
        return {f: getattr(self, f) for f in self.model_fields_set}


class ProfileHistory(BaseModel):
    changes: list[ProfileOverride]  # newest first


class AliasBody(RequestBody):
    """``POST`` / ``DELETE /v1/users/{user_id}/aliases``: the alias (PII: in the body,
    never in a URL)."""

    kind: AliasKind = Field(description="phone, wechat_openid, email, device or login")
    alias: str = Field(
        min_length=1,
        max_length=256,
        description="the login id itself; stored only as a keyed hash and a masked hint",
        examples=["+86 138 0013 8000"],
    )


class AliasList(BaseModel):
    aliases: list[Alias]


class MergeBody(RequestBody):
    """``POST /v1/users/{user_id}/merge``: merge the path's user into ``into``."""

    into: Id = Field(description="the user that keeps everything (an alias reference works)")


class MergeResult(BaseModel):
    user_id: str  # the user everything now belongs to
    moved: dict[str, int]  # rows moved per table


class ConfirmIdentity(RequestBody):
    """``POST /v1/users/{user_id}/identity/confirm``."""

    session_id: Id


class IdentityEvents(BaseModel):
    events: list[IdentityEvent]  # newest first


class ContextRequest(RequestBody):
    query: Text
    user_id: Id
    agent_id: Id | None = None
    session_id: Id | None = None
    token_budget: int = Field(800, ge=50, le=100_000)
    now: When | None = None


class SessionMessageIn(RequestBody):
    user_id: Id
    agent_id: Id | None = None
    role: Literal["user", "assistant", "system"] = "user"
    content: Text
    name: Name | None = None


class MaintainRequest(RequestBody):
    dry_run: bool = False  # report what would happen, write nothing
    # Which steps (jiyi.pipeline.maintain.STEPS, or "all"); None: sweep, purge, merge.
    steps: list[str] | None = Field(default=None, max_length=8)


class SearchResponse(BaseModel):
    results: list[SearchHit]
    # True when semantic search missed its time budget: keyword matches only.
    degraded: bool = False


class MemoryList(BaseModel):
    memories: list[MemoryItem]
    # Pass as ``cursor`` for the next page; None when this page is the last.
    next_cursor: str | None = None


class UserInfo(BaseModel):
    user_id: str
    memories: int
    last_observed_at: datetime | None = None


class UserList(BaseModel):
    users: list[UserInfo]
    next_cursor: str | None = None


class KeyInfo(BaseModel):
    """A stored API key as an operator sees it (never the key, never its hash)."""

    key_id: str
    tenant: str
    agent_id: str | None = None
    admin: bool = False
    created_at: datetime
    expires_at: datetime | None = None
    revoked_at: datetime | None = None


class KeyList(BaseModel):
    keys: list[KeyInfo]


class NewKey(BaseModel):
    """A key just made: ``key`` is shown this once and never stored."""

    key: str
    info: KeyInfo


class KeyRequest(RequestBody):
    tenant: Id | None = None  # default: the caller's tenant
    agent_id: Id | None = None
    admin: bool = False
    expires_at: When | None = None


class TenantList(BaseModel):
    tenants: list[str]


class HistoryResponse(BaseModel):
    memory_id: str
    history: list[HistoryEntry]


class ContextResponse(BaseModel):
    """A system-prompt block: relevant long-term memories, then the live session window."""

    text: str
    memories: list[MemoryItem] = Field(default_factory=list)
    tasks: list[TaskState] = Field(default_factory=list)  # active tasks the query is about
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
    request_id: str | None = None  # the response's X-Request-Id (quote it in a bug report)
    current: int | None = None  # version_conflict only: the stored version (0: none)
