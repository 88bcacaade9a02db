"""What else must go when a memory is hard-deleted — shared by delete and forget."""

from __future__ import annotations

from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter

_ANY_STATUS = tuple(Status)
_EPISODES = SearchFilter(statuses=_ANY_STATUS, kinds=(MemoryKind.EPISODE,))
_EPISODES_AND_SUMMARIES = SearchFilter(
    statuses=_ANY_STATUS, kinds=(MemoryKind.EPISODE, MemoryKind.SUMMARY)
)


def source_episodes(store: MemoryStore, scope: Scope, m: MemoryItem) -> list[MemoryItem]:
    """The stored episodes ``m`` was extracted from (those carrying one of its message ids)."""
    if m.kind == MemoryKind.EPISODE or not m.source_message_ids:
        return []
    src = set(m.source_message_ids)
    return [r for r in store.list(scope, _EPISODES) if src & set(r.source_message_ids)]


def older_versions(store: MemoryStore, scope: Scope, m: MemoryItem) -> list[MemoryItem]:
    """The versions ``m`` superseded, newest first (following ``metadata['supersedes']``)."""
    chain: list[MemoryItem] = []
    seen = {m.id}
    prev = m.supersedes
    while isinstance(prev, str) and prev not in seen:
        found = store.get_many(scope, [prev])
        if not found:
            break
        seen.add(prev)
        chain.append(found[0])
        prev = found[0].supersedes
    return chain


def dependents(store: MemoryStore, scope: Scope, m: MemoryItem) -> list[MemoryItem]:
    """Stored memories that would keep ``m`` alive: its older versions (a deleted home city
    must not come back as "以前住北京"), the episodes it and they came from (the user's own
    words — leaving them would undo the deletion) and derived reflections (kind summary)
    citing any of these; the next consolidation recomputes reflections from what remains."""
    versions = [m, *older_versions(store, scope, m)]
    rows = store.list(scope, _EPISODES_AND_SUMMARIES)
    src = {i for v in versions if v.kind != MemoryKind.EPISODE for i in v.source_message_ids}
    found = {v.id: v for v in versions[1:]}
    for r in rows:
        if r.kind == MemoryKind.EPISODE and r.id != m.id and src & set(r.source_message_ids):
            found[r.id] = r
    gone = {m.id, *found}
    for r in rows:
        cites = set(r.sources)
        if r.kind == MemoryKind.SUMMARY and r.id != m.id and r.derived and gone & cites:
            found[r.id] = r
    return list(found.values())
