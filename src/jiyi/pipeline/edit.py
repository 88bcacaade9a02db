"""Edits after the fact: update a memory, hard-delete one, delete a user.

A hard delete must leave nothing readable behind. Besides the row and what depends on it
(:mod:`jiyi.pipeline.dependents`), that includes the *neighbours* of a deleted episode: each
episode is embedded and indexed together with the turn(s) before it (``episode_text``), so
the next episode of the batch carries the deleted words in its keyword entry and its vector.
Those neighbours are re-indexed from what remains, in the same transaction, and the texts
they were embedded as are evicted from the embedding cache.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from jiyi.core.models import Action, HistoryEntry, MemoryItem, MemoryKind, Scope, Status
from jiyi.core.pii import PiiPolicy, redact_pii
from jiyi.core.ports import ChangeSet, Embedder, Indexed, MemoryStore, SearchFilter
from jiyi.core.text import keyword_text
from jiyi.pipeline.dependents import dependents

__all__ = [
    "Edit",
    "delete_memory",
    "delete_rows",
    "embedded_texts",
    "reindex_neighbours",
    "update_memory",
    "window_text",
]

_EPISODES = SearchFilter(statuses=tuple(Status), kinds=(MemoryKind.EPISODE,))


@dataclass
class Edit:
    """A change set plus the exact texts whose cached embeddings must be evicted."""

    changes: ChangeSet = field(default_factory=ChangeSet)
    evict: list[str] = field(default_factory=list)


def _said(m: MemoryItem) -> str:
    who = m.speaker or m.role or "user"
    return f"{who}: {m.content}"


def window_text(batch: Sequence[MemoryItem], episode: MemoryItem, context_turns: int) -> str:
    """The text ``episode`` is embedded as: its turn preceded by up to ``context_turns``
    stored turns of its batch (the write path's ``episode_text``, rebuilt from rows)."""
    pos = episode.position
    if not isinstance(pos, int):
        return _said(episode)
    by_pos = {m.position: m for m in batch}
    window = [by_pos[p] for p in range(max(0, pos - context_turns), pos) if p in by_pos]
    return "\n".join(_said(m) for m in [*window, episode])


def _batches(
    store: MemoryStore, scope: Scope, gone: Iterable[MemoryItem]
) -> dict[str, list[MemoryItem]]:
    wanted = {m.batch for m in gone if m.kind == MemoryKind.EPISODE}
    wanted.discard(None)
    if not wanted:
        return {}
    found: dict[str, list[MemoryItem]] = {}
    for m in store.list(scope, _EPISODES):
        b = m.batch
        if b in wanted and isinstance(b, str):
            found.setdefault(b, []).append(m)
    return found


def reindex_neighbours(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    gone: Sequence[MemoryItem],
    context_turns: int,
    changed: Sequence[MemoryItem] = (),
) -> Edit:
    """Re-index the stored episodes whose context window held a deleted (``gone``) or
    rewritten (``changed``, with their new content) episode. Returns upserts for them and
    the old texts to evict."""
    edit = Edit()
    if context_turns <= 0:
        return edit
    touched = [*gone, *changed]
    gone_ids = {m.id for m in gone}
    new_rows = {m.id: m for m in changed}
    for batch in _batches(store, scope, touched).values():
        before = batch
        after = [new_rows.get(m.id, m) for m in batch if m.id not in gone_ids]
        for m in touched:
            p = m.position
            if m.batch != batch[0].batch or p is None:
                continue
            for n in after:
                q = n.position
                if q is None or not p < q <= p + context_turns or n.id in new_rows:
                    continue
                old_text = window_text(before, n, context_turns)
                new_text = window_text(after, n, context_turns)
                if old_text == new_text or any(u.memory.id == n.id for u in edit.changes.upserts):
                    continue
                vec = embedder.embed_documents([new_text])[0]
                edit.changes.upserts.append(Indexed(n, keyword_text(new_text), vec))
                edit.evict.append(old_text)
    return edit


def delete_memory(
    store: MemoryStore,
    embedder: Embedder,
    m: MemoryItem,
    *,
    now: datetime,
    context_turns: int,
    reason: str = "delete",
) -> Edit:
    """Hard-delete ``m`` with its older versions, the episodes they came from, reflections
    derived from them, and the traces of those episodes in their neighbours' index entries."""
    return delete_rows(
        store,
        embedder,
        m.scope,
        [m, *dependents(store, m.scope, m)],
        now=now,
        context_turns=context_turns,
        reason=reason,
    )


def delete_rows(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    gone: Sequence[MemoryItem],
    *,
    now: datetime,
    context_turns: int,
    reason: str,
) -> Edit:
    """Hard-delete exactly ``gone`` (rows of ``scope``), leaving nothing readable: their
    rows, index entries and vectors, the content of their history, their cached embeddings,
    and their words in the index entries of neighbouring episodes (re-indexed from what
    remains). The one delete path of :func:`delete_memory` and the lifecycle's purge."""
    gone = list({g.id: g for g in gone}.values())
    edit = reindex_neighbours(store, embedder, scope, gone, context_turns)
    batches = _batches(store, scope, gone)
    for g in gone:
        batch = batches.get(str(g.batch), [])
        embedded = window_text(batch, g, context_turns) if g.kind == MemoryKind.EPISODE else None
        edit.evict += [g.content] + ([embedded] if embedded else [])
    edit.changes.deletes = [g.id for g in gone]
    edit.changes.history = [HistoryEntry.of(g, Action.DELETE, now, reason=reason) for g in gone]
    return edit


def update_memory(
    store: MemoryStore,
    embedder: Embedder,
    old: MemoryItem,
    content: str,
    *,
    now: datetime,
    pii_policy: PiiPolicy,
    context_turns: int,
) -> tuple[MemoryItem, Edit]:
    """Replace ``old``'s content (redacted, re-embedded, version + 1, the old content kept in
    history); an episode's neighbours are re-indexed with the new words."""
    if pii_policy is not PiiPolicy.ALLOW:
        content, _ = redact_pii(content)
    new = old.model_copy(
        update={"content": content, "version": old.version + 1, "observed_at": now}
    )
    edit = reindex_neighbours(store, embedder, old.scope, [], context_turns, changed=[new])
    batch = _batches(store, old.scope, [old]).get(str(old.batch), [])
    if new.kind == MemoryKind.EPISODE:
        text = window_text([new if m.id == new.id else m for m in batch], new, context_turns)
        edit.evict += [old.content, window_text(batch, old, context_turns)]
    else:
        text = content
        edit.evict.append(old.content)
    vec = embedder.embed_documents([text])[0]
    edit.changes.upserts.insert(0, Indexed(new, keyword_text(text), vec))
    edit.changes.history.append(HistoryEntry.of(new, Action.UPDATE, now, reason="manual_update"))
    return new, edit


def embedded_texts(store: MemoryStore, scope: Scope, context_turns: int) -> list[str]:
    """Every text the scope's memories were embedded as (for a whole-user eviction)."""
    rows = store.list(scope, SearchFilter(statuses=tuple(Status)))
    batches: dict[str, list[MemoryItem]] = {}
    for m in rows:
        if m.kind == MemoryKind.EPISODE:
            batches.setdefault(str(m.batch), []).append(m)
    texts = [m.content for m in rows]
    for batch in batches.values():
        texts += [window_text(batch, m, context_turns) for m in batch]
    return texts
