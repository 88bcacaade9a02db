"""What else must go when a memory is hard-deleted — shared by delete and forget."""

from __future__ import annotations

from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter

_EPISODES_AND_SUMMARIES = SearchFilter(
    statuses=tuple(Status), kinds=(MemoryKind.EPISODE, MemoryKind.SUMMARY)
)


def dependents(store: MemoryStore, scope: Scope, m: MemoryItem) -> list[MemoryItem]:
    """Stored memories that would keep ``m`` alive: the episodes an extracted memory came
    from (the user's own words — leaving them would undo the deletion) and derived
    reflections (kind summary) citing ``m`` or those episodes; the next consolidation
    recomputes reflections from what remains."""
    rows = store.list(scope, _EPISODES_AND_SUMMARIES)
    src = set(m.source_message_ids) if m.kind != MemoryKind.EPISODE else set()
    found = {
        r.id: r
        for r in rows
        if r.kind == MemoryKind.EPISODE and r.id != m.id and src & set(r.source_message_ids)
    }
    gone = {m.id, *found}
    for r in rows:
        cites = set(r.metadata.get("sources") or [])
        if (
            r.kind == MemoryKind.SUMMARY
            and r.id != m.id
            and r.metadata.get("derived")
            and gone & cites
        ):
            found[r.id] = r
    return list(found.values())
