"""jiyi as a Model Context Protocol server, on the official ``mcp`` SDK (``pip install
'jiyi[mcp]'``).

Tools ``remember``, ``recall``, ``context`` and ``forget`` (described in Chinese and
English, for the model that picks them) and the resource ``jiyi://users/{user_id}/memories``
(a user's memories as JSON). Who is calling is decided outside this module by a
:data:`Resolve` function, so one server definition serves both ways of running it:

- stdio (``jiyi mcp``): one local agent; the memory of one tenant opened from the settings
  (``cli/mcp.py``), an optional default user so the model need not name one;
- streamable HTTP (``jiyi mcp --http``): mounted on the REST app at ``/mcp``
  (``server/routes_mcp.py``); the API key of each request decides tenant and agent, as for
  REST.

Blocking engine calls run through the :data:`Run` given (a worker thread), never on the
event loop. A :class:`~jiyi.errors.JiyiError` becomes a tool error the model can read
(``is_error``), naming the field; anything else is the SDK's generic failure.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field

from jiyi.core.filters import agent_sees
from jiyi.core.inputs import require_id
from jiyi.core.models import AddResult, MemoryItem, SearchHit
from jiyi.errors import JiyiError, MissingDependencyError, NotFoundError
from jiyi.integrations.descriptions import CONTEXT, FORGET, INSTRUCTIONS, MEMORIES, RECALL, REMEMBER
from jiyi.memory import Memory

try:
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingDependencyError(exc.name or "mcp", "mcp") from exc

T = TypeVar("T")
NAME = "jiyi"
MEMORIES_URI = "jiyi://users/{user_id}/memories"


@dataclass(frozen=True)
class Caller:
    """Whose memory a call works on: a tenant's ``memory``, the ``agent_id`` it acts as
    (None: tenant-wide) and the user assumed when a call names none."""

    memory: Memory
    agent_id: str | None = None
    default_user: str | None = None


#: The caller of one MCP request (raise a JiyiError to refuse it).
Resolve = Callable[[Context], Awaitable[Caller]]
#: Runs a blocking call off the event loop.
Run = Callable[[Callable[[], T]], Awaitable[T]]


# -- what the tools answer: small, for a model to read --------------------------------------


class Remembered(BaseModel):
    """One memory a ``remember`` call wrote or touched."""

    event: str = Field(description="ADD, UPDATE, SUPERSEDE, NOOP or DELETE")
    id: str
    kind: str
    content: str


class RememberResult(BaseModel):
    memories: list[Remembered] = Field(description="what was stored, corrected or forgotten")
    skipped: list[str] = Field(description="why parts of the message were not stored")
    redacted: list[str] = Field(description="kinds of personal data replaced by placeholders")
    queued: bool = Field(description="extraction runs in the background; memories follow soon")


class Recollection(BaseModel):
    """A stored memory as ``recall`` and the resource show it."""

    id: str
    content: str
    kind: str
    score: float | None = None
    observed_at: datetime
    agent_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class RecallResult(BaseModel):
    memories: list[Recollection]


class ForgetResult(BaseModel):
    deleted: str


def _recollection(m: MemoryItem, score: float | None = None) -> Recollection:
    return Recollection(
        id=m.id,
        content=m.content,
        kind=m.kind.value,
        score=round(score, 4) if score is not None else None,
        observed_at=m.observed_at,
        agent_id=m.agent_id,
        metadata=m.metadata,
    )


def _remember_result(r: AddResult) -> RememberResult:
    return RememberResult(
        memories=[
            Remembered(
                event=e.event.value,
                id=e.memory.id,
                kind=e.memory.kind.value,
                content=e.memory.content,
            )
            for e in r.events
        ],
        skipped=[f"{s.reason}: {s.text}" for s in r.skipped],
        redacted=sorted({x.kind for x in r.redactions}),
        queued=r.queued,
    )


def _recall_result(hits: Sequence[SearchHit]) -> RecallResult:
    return RecallResult(memories=[_recollection(h.memory, h.score) for h in hits])


UserId = Annotated[
    str | None,
    Field(description="用户 id / the user's id (default: the server's configured user)"),
]


def _user(caller: Caller, user_id: str | None) -> str:
    user = user_id if user_id is not None else caller.default_user
    if user is None:
        raise ToolError("user_id is required: this server has no default user (jiyi mcp --user)")
    return user


def _visible(c: Caller, m: MemoryItem) -> bool:
    return agent_sees(c.agent_id, m)  # the REST rule


def _tool_error(exc: JiyiError) -> ToolError:
    field = f" (field: {exc.field})" if exc.field else ""
    return ToolError(f"{exc.code}: {exc.message}{field}")


def build_server(resolve: Resolve, run: Run[Any]) -> MCPServer:
    """The MCP server: tools and the memories resource over whatever ``resolve`` returns.

    Args:
        resolve: the caller of a request (its tenant's Memory, agent, default user).
        run: runs a blocking call off the event loop (e.g. ``anyio.to_thread.run_sync``).
    """
    import jiyi

    server: MCPServer = MCPServer(NAME, version=jiyi.__version__, instructions=INSTRUCTIONS)

    async def call(ctx: Context, work: Callable[[Caller], T]) -> T:
        try:
            caller = await resolve(ctx)
            return await run(lambda: work(caller))  # type: ignore[no-any-return]
        except JiyiError as exc:
            raise _tool_error(exc) from exc

    @server.tool(name="remember", description=REMEMBER)
    async def remember(
        content: Annotated[str, Field(description="用户的原话 / what the user said")],
        ctx: Context,
        user_id: UserId = None,
        session_id: Annotated[
            str | None, Field(description="当前会话 id / the conversation it belongs to")
        ] = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(description="自定义标签，可用于过滤 / your labels, filterable in recall"),
        ] = None,
    ) -> RememberResult:
        def work(c: Caller) -> RememberResult:
            return _remember_result(
                c.memory.add(
                    content,
                    user_id=_user(c, user_id),
                    agent_id=c.agent_id,
                    session_id=session_id,
                    metadata=metadata,
                )
            )

        return await call(ctx, work)

    @server.tool(name="recall", description=RECALL)
    async def recall(
        query: Annotated[str, Field(description="要找什么 / what to look for")],
        ctx: Context,
        user_id: UserId = None,
        top_k: Annotated[int, Field(ge=1, le=50, description="最多几条 / how many")] = 5,
        filters: Annotated[
            dict[str, Any] | None,
            Field(
                description='条件，如 {"metadata.project": "alpha"} / conditions on '
                "metadata and columns"
            ),
        ] = None,
    ) -> RecallResult:
        def work(c: Caller) -> RecallResult:
            return _recall_result(
                c.memory.search(
                    query,
                    user_id=_user(c, user_id),
                    agent_id=c.agent_id,
                    top_k=top_k,
                    filters=filters,
                )
            )

        return await call(ctx, work)

    @server.tool(name="context", description=CONTEXT)
    async def context(
        query: Annotated[str, Field(description="当前这一轮的话题 / the current turn")],
        ctx: Context,
        user_id: UserId = None,
        token_budget: Annotated[
            int, Field(ge=50, le=8000, description="token 预算 / token budget")
        ] = 800,
    ) -> str:
        def work(c: Caller) -> str:
            block = c.memory.context(
                query, user_id=_user(c, user_id), agent_id=c.agent_id, token_budget=token_budget
            )
            return block.text

        return await call(ctx, work)

    @server.tool(name="forget", description=FORGET)
    async def forget(
        memory_id: Annotated[str, Field(description="要删除的记忆 id / the memory's id")],
        ctx: Context,
    ) -> ForgetResult:
        def work(c: Caller) -> ForgetResult:
            # The visibility check reads through the engine: not an audited read (the
            # delete is the one audit row of this call).
            mid = require_id(memory_id, "memory_id")
            found = c.memory.engine.get(c.memory.config.tenant, mid)
            if found is None or not _visible(c, found):
                raise NotFoundError(f"no memory with id {memory_id}", field="memory_id")
            c.memory.delete(memory_id)
            return ForgetResult(deleted=memory_id)

        return await call(ctx, work)

    @server.resource(
        MEMORIES_URI, name="memories", description=MEMORIES, mime_type="application/json"
    )
    async def memories(user_id: str, ctx: Context) -> str:
        def work(c: Caller) -> str:
            items = c.memory.list(user_id=user_id, agent_id=c.agent_id)
            rows = [_recollection(m).model_dump(mode="json") for m in items]
            return json.dumps({"user_id": user_id, "memories": rows}, ensure_ascii=False)

        try:
            return await call(ctx, work)
        except ToolError as exc:
            raise ResourceError(str(exc)) from exc

    return server
