"""The forget step of a write: "别记这个 / forget my address".

A request names its target by words ("我的生日", "my job"): the memories it takes are those
whose slot the words ask about (``core.intents``: 生日 → ``birthday``) or whose text holds
every content word of the target — never merely the most similar ones, which on E5 can be
anything. A request without a target takes what the user said in the message before it.
Everything taken goes with its older versions, its source episodes and derived reflections,
and the episodes that carried a deleted turn as context are re-indexed without it.
"""

from __future__ import annotations

from collections.abc import Callable

from jiyi.core.intents import query_slots, slot_matches
from jiyi.core.models import (
    Action,
    ForgetRequest,
    MemoryEvent,
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
    Skipped,
    Status,
)
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter
from jiyi.core.text import keyword_text, query_terms
from jiyi.pipeline.decide import ACTIVE_MEMORIES, batch_episodes
from jiyi.pipeline.dependents import dependents
from jiyi.pipeline.edit import reindex_neighbours
from jiyi.pipeline.pending import Pending
from jiyi.pipeline.prepare import episode_text

# "Forget my birthday" also reaches a memory the lifecycle archived (archived is not gone).
_NAMED = SearchFilter(kinds=ACTIVE_MEMORIES.kinds, statuses=(Status.ACTIVE, Status.ARCHIVED))

__all__ = ["forget"]


def forget(
    requests: list[ForgetRequest],
    messages: list[Message],
    *,
    scope: Scope,
    store: MemoryStore,
    embedder: Embedder,
    pending: Pending,
    context_turns: int,
) -> tuple[list[MemoryEvent], list[Skipped]]:
    """Hard-delete what each request names (into ``pending``); return the DELETE events and
    the requests that matched nothing."""
    events: list[MemoryEvent] = []
    skipped: list[Skipped] = []
    for req in requests:
        targets = _targets(req, scope, store, pending, messages)
        if not targets:
            skipped.append(Skipped(text=req.text, reason="forget_no_match"))
        for t in targets:
            pending.remove(t, reason="forget")
            events.append(MemoryEvent(event=Action.DELETE, memory=t))
            for dep in batch_episodes(t, pending) + dependents(store, scope, t):
                pending.remove(dep, reason="forget")
    gone = [m for m in pending.removed if m.kind == MemoryKind.EPISODE]
    if gone and context_turns > 0:
        removed_ids = {i for m in gone for i in m.source_message_ids}
        _rebuild_batch(messages, removed_ids, pending, embedder, context_turns)
        stored = [m for m in gone if m.id in pending.deletes]
        fix = reindex_neighbours(store, embedder, scope, stored, context_turns)
        for up in fix.changes.upserts:
            if up.memory.id not in pending.deletes and up.memory.id not in pending.rows:
                pending.replace_index(up)
        pending.evict += fix.evict
    return events, skipped


def _rebuild_batch(
    messages: list[Message],
    gone_ids: set[str],
    pending: Pending,
    embedder: Embedder,
    context_turns: int,
) -> None:
    """Episodes of this batch whose context window held a removed turn, embedded again
    without it."""
    kept = [m for m in messages if m.id not in gone_ids]
    pos = {m.id: i for i, m in enumerate(kept)}
    for mid, row in list(pending.rows.items()):
        ep = row.memory
        if ep.kind != MemoryKind.EPISODE or not ep.source_message_ids:
            continue
        i = pos.get(ep.source_message_ids[0])
        if i is None:
            continue
        text = episode_text(kept, i, context_turns)
        if text != pending.embedded.get(mid):
            pending.reindex(ep, text, embedder.embed_documents([text])[0])


def _names(target: str) -> tuple[list[str], Callable[[MemoryItem], bool]]:
    """The target's content words, and whether a memory is what the target names."""
    terms = query_terms(target)
    slots = query_slots(target)

    def named(m: MemoryItem) -> bool:
        if slots and slot_matches(m.topic, slots):
            return True
        toks = set(keyword_text(m.content).split())
        return bool(terms) and all(t in toks for t in terms)

    return terms, named


def _targets(
    req: ForgetRequest,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
    messages: list[Message],
) -> list[MemoryItem]:
    new = [i.memory for i in pending.rows.values() if i.memory.kind != MemoryKind.EPISODE]
    if req.target:
        terms, named = _names(req.target)
        found = {m.id: m for m in new if named(m)}
        slots = query_slots(req.target)
        stored = store.list(scope, _NAMED) if slots else []
        kw = store.keyword_search(scope, terms, _NAMED, 20) if terms else []
        for m in stored + store.get_many(scope, [i for i, _ in kw]):
            if named(m):
                found.setdefault(m.id, m)
        return list(found.values())
    ids = [m.id for m in messages]
    pos = ids.index(req.source_message_id) if req.source_message_id in ids else len(ids)
    earlier = [m for m in messages[:pos] if m.role == "user"]
    if earlier:
        said = [m for m in new if earlier[-1].id in m.source_message_ids]
        if said:
            return said
    stored = store.list(scope, ACTIVE_MEMORIES)
    if not stored:
        return []
    latest_batch = max(stored, key=lambda m: m.id).batch
    return [m for m in stored if m.batch == latest_batch]
