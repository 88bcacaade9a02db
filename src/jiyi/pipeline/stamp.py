"""What the caller asked of a write, stamped on the rows it creates: its ``metadata`` and
its TTL (``expires_at``). Applied to a write's :class:`~jiyi.core.ports.ChangeSet` before
it is committed (``Engine.add``, ``Engine.accept``, ``Engine.process``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    return _restamp(
        changes,
        result,
        lambda m: m.model_copy(update={"expires_at": expires_at}) if m.id in new_ids else None,
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

    def merged(m: MemoryItem) -> MemoryItem:
        meta = {**metadata, **m.metadata} if only_new else {**m.metadata, **metadata}
        return m.model_copy(update={"metadata": meta})

    return _restamp(changes, result, merged)


def _restamp(
    changes: ChangeSet, result: AddResult, stamp: Callable[[MemoryItem], MemoryItem | None]
) -> AddResult:
    """Replace each upsert by ``stamp(memory)`` (None: left as it is), in place, and return
    ``result`` with its events and episodes showing the stamped rows."""
    stamped: dict[str, MemoryItem] = {}
    for i, item in enumerate(changes.upserts):
        new = stamp(item.memory)
        if new is not None:
            changes.upserts[i] = Indexed(new, item.keywords, item.vector)
            stamped[new.id] = new

    def swap(m: MemoryItem) -> MemoryItem:
        return stamped.get(m.id, m)

    events = [e.model_copy(update={"memory": swap(e.memory)}) for e in result.events]
    return result.model_copy(
        update={"events": events, "episodes": [swap(m) for m in result.episodes]}
    )
