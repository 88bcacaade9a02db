"""Consolidation with an LLM: the reflection step of :mod:`jiyi.pipeline.consolidate`.

``consolidate(memory, user_id, client=...)`` runs the pipeline step for one user of a
:class:`jiyi.Memory` (its store, embedder, calibration and clock); with a client the
reflections come from the reflection prompt (reflections citing no valid source are dropped),
without one from the rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import ValidationError

from jiyi.core.models import MemoryItem, Scope
from jiyi.errors import ExtractionError
from jiyi.llm.client import ChatClient
from jiyi.llm.prompts import reflect
from jiyi.pipeline.consolidate import (
    Consolidation,
    Reflection,
    derived_from,
    find_duplicates,
)
from jiyi.pipeline.consolidate import consolidate as run_consolidation

if TYPE_CHECKING:
    from jiyi.memory import Memory

__all__ = ["Consolidation", "consolidate", "derived_from", "find_duplicates", "reflect_with"]


def reflect_with(
    client: ChatClient, items: list[MemoryItem], lang: reflect.Lang
) -> list[Reflection]:
    """Reflections on ``items`` by the LLM; each must cite at least one of them.

    Raises:
        ExtractionError: the reply is not the JSON the prompt asks for.
    """
    text, _ = client.chat(
        reflect.build_messages([m.content for m in items], lang),
        reflect.response_format(),
        max_tokens=250,
    )
    try:
        reply = reflect.ReflectionResponse.model_validate_json(text)
    except ValidationError as exc:
        raise ExtractionError("reflection reply is not valid JSON") from exc
    out: list[Reflection] = []
    seen: set[str] = set()
    for r in reply.reflections:
        sources = [items[i - 1] for i in dict.fromkeys(r.sources) if 1 <= i <= len(items)]
        content = " ".join(r.content.split())
        if not sources or not content or r.aspect in seen:
            continue  # a reflection that cites nothing cannot be traced or deleted
        seen.add(r.aspect)
        out.append((r.aspect, content, sources))
    return out


def consolidate(
    memory: Memory,
    user_id: str,
    *,
    client: ChatClient | None = None,
    agent_id: str | None = None,
    now: datetime | None = None,
) -> Consolidation:
    """Merge duplicates and recompute reflections for one user, in one transaction.

    Args:
        memory: a :class:`jiyi.Memory` (its store, embedder, calibration and clock are used).
        user_id / agent_id: whose memories.
        client: an LLM for reflections; None writes the rule-based "cares most" only. An LLM
            failure falls back to that too (logged), never losing the merge.
        now: the time recorded (default: the memory's clock).
    """
    scope = Scope(tenant=memory.config.tenant, user_id=user_id, agent_id=agent_id)

    def by_llm(items: list[MemoryItem], lang: reflect.Lang) -> list[Reflection]:
        assert client is not None
        return reflect_with(client, items, lang)

    return run_consolidation(
        memory.store,
        memory.embedder,
        memory.calibration,
        scope,
        now=now or memory.now(),
        reflect=by_llm if client is not None else None,
    )
