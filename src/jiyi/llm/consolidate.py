"""Consolidation with an LLM: the reflection step of :mod:`jiyi.pipeline.consolidate`.

``consolidate(memory, user_id, client=...)`` runs the pipeline step for one user of a
:class:`jiyi.Memory` (its store, embedder, calibration and clock); with a client the
reflections come from the reflection prompt (reflections citing no valid source are dropped),
without one from the rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from jiyi.core.models import MemoryItem, Scope
from jiyi.llm.client import ChatClient
from jiyi.llm.prompts import reflect
from jiyi.llm.reflect import reflect_with
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
