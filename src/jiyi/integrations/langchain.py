"""jiyi for LangChain: a retriever and ``remember`` / ``recall`` tools (``pip install
'jiyi[langgraph]'``, which brings ``langchain-core``).

- :class:`JiyiRetriever`: a ``BaseRetriever`` over one user's memories (jiyi's hybrid
  search); each ``Document`` carries the memory's id, kind, score and time in its metadata.
- :func:`memory_tools`: ``remember`` and ``recall`` as LangChain tools bound to one user
  (and agent), described in Chinese and English like the MCP tools. A bad argument comes
  back to the model as the tool's answer (``ToolException``), naming the field.
"""

from __future__ import annotations

import functools
from typing import Any

from jiyi.core.models import SearchHit
from jiyi.errors import JiyiError, MissingDependencyError
from jiyi.integrations.descriptions import RECALL, REMEMBER
from jiyi.memory import Memory

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
    from pydantic import ConfigDict
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingDependencyError(exc.name or "langchain-core", "langgraph") from exc

__all__ = ["JiyiRetriever", "memory_tools"]


def _document(hit: SearchHit) -> Document:
    m = hit.memory
    return Document(
        page_content=m.content,
        id=m.id,
        metadata={
            "id": m.id,
            "kind": m.kind.value,
            "score": hit.score,
            "observed_at": m.observed_at.isoformat(),
            "agent_id": m.agent_id,
            "metadata": m.metadata,
        },
    )


class JiyiRetriever(BaseRetriever):
    """One user's jiyi memories as a LangChain retriever, best first.

    Example:
        >>> retriever = JiyiRetriever(memory=Memory(), user_id="xiaoming", top_k=3)
        >>> retriever.invoke("能吃花生吗？")[0].page_content
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Memory
    user_id: str
    agent_id: str | None = None
    top_k: int = 5
    filters: dict[str, Any] | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.memory.search(
            query,
            user_id=self.user_id,
            agent_id=self.agent_id,
            top_k=self.top_k,
            filters=self.filters,
        )
        return [_document(h) for h in hits]


def memory_tools(memory: Memory, *, user_id: str, agent_id: str | None = None) -> list[BaseTool]:
    """``remember`` and ``recall`` bound to one user (and agent) of ``memory``."""

    def guarded(fn: Any) -> Any:
        @functools.wraps(fn)  # the tool's argument schema comes from fn's signature
        def call(*args: Any, **kwargs: Any) -> str:
            try:
                return str(fn(*args, **kwargs))
            except JiyiError as exc:
                field = f" (field: {exc.field})" if exc.field else ""
                raise ToolException(f"{exc.code}: {exc.message}{field}") from exc

        return call

    def remember(content: str) -> str:
        result = memory.add(content, user_id=user_id, agent_id=agent_id)
        lines = [
            f"{e.event.value} {e.memory.kind.value}: {e.memory.content}" for e in result.events
        ]
        return "\n".join(lines) or "nothing new to remember (原话已保存 / the words were kept)"

    def recall(query: str, top_k: int = 5) -> str:
        hits = memory.search(query, user_id=user_id, agent_id=agent_id, top_k=top_k)
        lines = [f"- {h.memory.content} ({h.memory.kind.value}, id {h.memory.id})" for h in hits]
        return "\n".join(lines) or "没有相关记忆 / nothing relevant is remembered"

    return [
        StructuredTool.from_function(
            guarded(remember), name="remember", description=REMEMBER, handle_tool_error=True
        ),
        StructuredTool.from_function(
            guarded(recall), name="recall", description=RECALL, handle_tool_error=True
        ),
    ]
