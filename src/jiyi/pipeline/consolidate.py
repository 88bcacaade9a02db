"""Consolidation of one user's memories: merge duplicates, recompute reflections.

Run off the chat path (a scheduled job, or after a session ends); two steps:

1. **Merge**: active memories that say the same thing collapse into the most important
   (then newest) one; the others become ``superseded`` by it (history kept) and their source
   message ids move to the keeper. "The same thing" is decided like reconciliation decides
   it (``core/reconcile.py``): the same slot and value, or the same normalised text — never
   a cosine alone (E5 puts 1988 and 1989 at 0.98). Two slotless memories may merge on a
   cosine at or above the calibrated ``duplicate`` only when their content words are equal.
2. **Reflect**: ``summary`` memories (``derived``, with the ``sources`` they rest on and
   ``metadata={"aspect": ...}``) from a ``reflect`` function (an LLM: ``jiyi.llm.consolidate``),
   or the rule-based "what matters most" when there is none or it fails. Reflections are
   recomputed on every run (old ones are replaced). Deleting a source deletes what was derived
   from it (``pipeline/dependents.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

import numpy as np
import numpy.typing as npt

from jiyi.core.calibration import Calibration
from jiyi.core.ids import new_id
from jiyi.core.lifecycle import DEFAULT as LIFE
from jiyi.core.models import Action, HistoryEntry, MemoryItem, MemoryKind, Origin, Scope, Status
from jiyi.core.ports import ChangeSet, Embedder, Indexed, MemoryStore, SearchFilter
from jiyi.core.slots import same_value
from jiyi.core.text import has_cjk, keyword_text, normalize, query_terms
from jiyi.errors import ExtractionError

__all__ = [
    "Consolidation",
    "Reflect",
    "consolidate",
    "derived_from",
    "find_duplicates",
    "merge_duplicates",
    "reflect_profile",
]

log = logging.getLogger(__name__)

Lang = Literal["zh", "en"]
# (aspect, content, the memories it rests on)
Reflection = tuple[str, str, list[MemoryItem]]
Reflect = Callable[[list[MemoryItem], Lang], list[Reflection]]

MAX_REFLECTION_INPUTS = 30  # the most important memories go into a reflection
_MERGEABLE = tuple(k for k in MemoryKind if k not in (MemoryKind.EPISODE, MemoryKind.SUMMARY))


@dataclass
class Consolidation:
    """What one run changed."""

    merged: dict[str, list[str]] = field(default_factory=dict)  # keeper id → absorbed ids
    reflections: list[MemoryItem] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # earlier reflections deleted
    unchanged: int = 0  # reflections (among ``reflections``) kept exactly as they were
    llm_used: bool = False


def derived_from(memories: Iterable[MemoryItem], source_ids: Iterable[str]) -> list[MemoryItem]:
    """The derived memories (reflections) resting on any of ``source_ids``."""
    gone = set(source_ids)
    return [m for m in memories if m.derived and gone & set(m.sources)]


def _same(a: MemoryItem, b: MemoryItem, cosine: float, duplicate: float) -> bool:
    if a.kind != b.kind:
        return False
    if normalize(a.content) == normalize(b.content):
        return True
    if a.topic or b.topic:
        return a.topic == b.topic and same_value(a.value, b.value)
    return cosine >= duplicate and set(query_terms(a.content)) == set(query_terms(b.content))


def find_duplicates(
    memories: Sequence[MemoryItem], vectors: npt.NDArray[np.float32], duplicate: float
) -> dict[str, list[str]]:
    """Groups of duplicates: keeper id → the ids it absorbs. The keeper is the most
    important, then the newest (largest id)."""
    newest_first = sorted(range(len(memories)), key=lambda i: memories[i].id, reverse=True)
    order = sorted(newest_first, key=lambda i: -memories[i].importance)  # stable sort
    taken: set[int] = set()
    groups: dict[str, list[str]] = {}
    for a in order:
        if a in taken:
            continue
        for b in order:
            if b == a or b in taken:
                continue
            if _same(memories[a], memories[b], float(vectors[a] @ vectors[b]), duplicate):
                taken.add(b)
                groups.setdefault(memories[a].id, []).append(memories[b].id)
        taken.add(a)
    return groups


def _rule_reflection(items: list[MemoryItem], lang: Lang) -> list[Reflection]:
    top = [m for m in items if m.kind in (MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.GOAL)]
    top = top[:3]
    if not top:
        return []
    if lang == "zh":
        content = "用户最在意：" + "；".join(m.content.removeprefix("用户") for m in top)
    else:
        content = "What matters most to the user: " + "; ".join(m.content for m in top)
    return [("cares_most", content, top)]


def _history(m: MemoryItem, action: Action, at: datetime, related: str | None) -> HistoryEntry:
    return HistoryEntry.of(m, action, at, related=related, reason="consolidate")


def _merge(
    active: list[MemoryItem], embedder: Embedder, cal: Calibration, at: datetime, out: ChangeSet
) -> dict[str, list[str]]:
    vectors = embedder.embed_documents([m.content for m in active])
    groups = find_duplicates(active, vectors, cal.duplicate)
    by_id = {m.id: m for m in active}
    for keeper_id, absorbed in groups.items():
        keeper = by_id[keeper_id]
        ids = list(keeper.source_message_ids)
        for dup_id in absorbed:
            dup = by_id[dup_id].model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": keeper_id, "valid_to": at}
            )
            ids += dup.source_message_ids
            out.updates.append(dup)
            out.history.append(_history(dup, Action.SUPERSEDE, at, keeper_id))
        keeper = keeper.model_copy(update={"source_message_ids": list(dict.fromkeys(ids))})
        out.updates.append(keeper)
        out.history.append(_history(keeper, Action.UPDATE, at, None))
    return groups


def merge_duplicates(
    store: MemoryStore,
    embedder: Embedder,
    cal: Calibration,
    scope: Scope,
    *,
    now: datetime,
    dry_run: bool = False,
) -> dict[str, list[str]]:
    """Step 1 of :func:`consolidate` alone (the lifecycle's maintenance runs it): merge the
    scope's active duplicates in one transaction; keeper id → absorbed ids. ``dry_run``
    finds them and writes nothing."""
    active = store.list(scope, SearchFilter(kinds=_MERGEABLE))
    if len(active) < 2:
        return {}
    changes = ChangeSet()
    groups = _merge(active, embedder, cal, now, changes)
    if changes and not dry_run:
        store.apply(scope, changes)
    return groups


def consolidate(
    store: MemoryStore,
    embedder: Embedder,
    cal: Calibration,
    scope: Scope,
    *,
    now: datetime,
    reflect: Reflect | None = None,
) -> Consolidation:
    """Merge duplicates and recompute reflections for one scope, in one transaction.

    ``reflect`` failing with ExtractionError falls back to the rule reflection (logged); the
    merge is never lost."""
    active = store.list(scope, SearchFilter(kinds=_MERGEABLE))
    result = Consolidation()
    changes = ChangeSet(embedder=embedder.name)
    if active:
        result.merged = _merge(active, embedder, cal, now, changes)
    absorbed = {i for ids in result.merged.values() for i in ids}
    _reflect_into(
        store,
        embedder,
        scope,
        [m for m in active if m.id not in absorbed],
        now=now,
        reflect=reflect,
        changes=changes,
        result=result,
    )
    if changes:
        store.apply(scope, changes)
    return result


def reflect_profile(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    *,
    now: datetime,
    reflect: Reflect | None = None,
    dry_run: bool = False,
) -> Consolidation:
    """Step 2 of :func:`consolidate` alone (the scheduled ``reflect`` job): recompute the
    scope's reflections in one transaction. Idempotent: a reflection whose aspect, text and
    sources are unchanged is left as it is, a changed one is rewritten in place (same id),
    so a re-run never duplicates. ``dry_run`` computes them and writes nothing."""
    result = Consolidation()
    changes = ChangeSet(embedder=embedder.name)
    active = store.list(scope, SearchFilter(kinds=_MERGEABLE))
    _reflect_into(
        store, embedder, scope, active, now=now, reflect=reflect, changes=changes, result=result
    )
    if changes and not dry_run:
        store.apply(scope, changes)
    return result


def _reflect_into(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    active: list[MemoryItem],
    *,
    now: datetime,
    reflect: Reflect | None,
    changes: ChangeSet,
    result: Consolidation,
) -> None:
    """Add to ``changes`` what makes the scope's reflections those of ``active``: earlier
    reflections of an aspect no longer found are deleted, unchanged ones kept, changed ones
    rewritten under their id. Roll-ups (``rollup.*``) are not reflections and stay."""
    items = sorted(active, key=lambda m: (-m.importance, m.id))[:MAX_REFLECTION_INPUTS]
    lang: Lang = "zh" if sum(has_cjk(m.content) for m in items) * 2 >= len(items) else "en"
    found: list[Reflection] = []
    if items and reflect is not None:
        try:
            found = reflect(items, lang)
            result.llm_used = True
        except ExtractionError as exc:
            log.warning("reflection failed (%s); using the rule summary", exc.message)
    if items and not found:
        found = _rule_reflection(items, lang)
    held: dict[str, MemoryItem] = {}
    for m in store.list(scope, SearchFilter(kinds=(MemoryKind.SUMMARY,))):
        if m.derived and (m.topic or "").startswith("reflection."):
            if m.topic in held or m.topic not in {f"reflection.{a}" for a, _, _ in found}:
                changes.deletes.append(m.id)
                changes.history.append(_history(m, Action.DELETE, now, None))
                result.replaced.append(m.id)
            else:
                held[str(m.topic)] = m
    fresh: list[MemoryItem] = []
    for aspect, content, sources in found:
        item = _reflection(scope, aspect, content, sources, now)
        old = held.get(str(item.topic))
        if old is not None and old.content == item.content and old.sources == item.sources:
            result.reflections.append(old)
            result.unchanged += 1
            continue
        if old is not None:
            item = item.model_copy(update={"id": old.id, "version": old.version + 1})
        fresh.append(item)
    if fresh:
        vecs = embedder.embed_documents([m.content for m in fresh])
        for item, vec in zip(fresh, vecs, strict=True):
            changes.upserts.append(Indexed(item, keyword_text(item.content), vec))
            action = Action.UPDATE if item.version > 1 else Action.ADD
            changes.history.append(_history(item, action, now, None))
            result.reflections.append(item)


def _reflection(
    scope: Scope, aspect: str, content: str, sources: list[MemoryItem], now: datetime
) -> MemoryItem:
    """A derived summary resting on ``sources``: inferred, so it starts at the lifecycle's
    confidence (0.6) and decays unconfirmed."""
    return MemoryItem(
        id=new_id(),
        tenant=scope.tenant,
        user_id=scope.user_id,
        agent_id=scope.agent_id,
        kind=MemoryKind.SUMMARY,
        topic=f"reflection.{aspect}",
        content=content,
        importance=round(max(s.importance for s in sources), 2),
        confidence=LIFE.inferred_confidence,
        confidence_at=now,
        origin=Origin.INFERRED,
        source_message_ids=list(dict.fromkeys(i for s in sources for i in s.source_message_ids)),
        created_at=now,
        observed_at=now,
        metadata={"aspect": aspect},
        derived=True,
        sources=[s.id for s in sources],
    )
