"""What the caller asked of a write, stamped on the rows it creates: its ``metadata`` and
its TTL (``expires_at``). Applied to a write's :class:`~jiyi.core.ports.ChangeSet` before
it is committed (``Engine.add``, ``Engine.accept``, ``Engine.process``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from jiyi.core.models import Action, AddResult, MemoryItem
from jiyi.core.ports import ChangeSet, Indexed

__all__ = ["with_metadata", "with_ttl"]


def with_ttl(changes: ChangeSet, result: AddResult, expires_at: datetime | None) -> AddResult:
    """Give every row this write creates (episodes, new memories, new versions) the
    caller's expiry — in ``changes`` in place — and return ``result`` showing it. Rows the
    write only touches (a refreshed duplicate, a re-indexed neighbour) keep theirs."""
    if expires_at is None:
        return result
    new_ids = {m.id for m in result.episodes} | {
        e.memory.id for e in result.events if e.event in (Action.ADD, Action.SUPERSEDE)
    }
    stamped: dict[str, MemoryItem] = {}
    for i, item in enumerate(changes.upserts):
        m = item.memory
        if m.id in new_ids:
            new = m.model_copy(update={"expires_at": expires_at})
            changes.upserts[i] = Indexed(new, item.keywords, item.vector)
            stamped[m.id] = new

    def swap(m: MemoryItem) -> MemoryItem:
        return stamped.get(m.id, m)

    events = [e.model_copy(update={"memory": swap(e.memory)}) for e in result.events]
    return result.model_copy(
        update={"events": events, "episodes": [swap(m) for m in result.episodes]}
    )


def with_metadata(
    changes: ChangeSet,
    result: AddResult,
    metadata: Mapping[str, Any] | None,
    *,
    only_new: bool = False,
) -> AddResult:
    """Give the caller's ``metadata`` to every row this write creates (episodes, new
    memories, new versions) — in ``changes`` in place — and return ``result`` showing it.
    Rows the write only touches (a refreshed duplicate, a superseded old version) keep
    theirs. Keys already on a row win when ``only_new`` (a worker's extraction inherits
    its episodes' metadata without overriding its own)."""
    if not metadata:
        return result
    stamped: dict[str, MemoryItem] = {}
    for i, item in enumerate(changes.upserts):
        m = item.memory
        merged = {**metadata, **m.metadata} if only_new else {**m.metadata, **metadata}
        new = m.model_copy(update={"metadata": merged})
        changes.upserts[i] = Indexed(new, item.keywords, item.vector)
        stamped[m.id] = new

    def swap(m: MemoryItem) -> MemoryItem:
        return stamped.get(m.id, m)

    events = [e.model_copy(update={"memory": swap(e.memory)}) for e in result.events]
    return result.model_copy(
        update={"events": events, "episodes": [swap(m) for m in result.episodes]}
    )
