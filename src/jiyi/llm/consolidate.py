"""Opt-in consolidation of one user's memories: merge near-duplicates, write reflections.

Run it off the chat path (a nightly job, or after a session ends) for tenants that opted in;
:meth:`jiyi.Memory` never calls it by itself. Two steps, each a plain function:

1. **Merge**: active memories of the same kind whose texts are equal after normalisation, or
   whose cosine is at or above the embedder's ``duplicate`` threshold, collapse into the most
   important (then newest) one; the others are marked SUPERSEDED by it (kept in history, not
   deleted) and their source message ids move to the keeper.
2. **Reflect**: up to three ``summary`` memories — what the user cares about most, what
   advice worked, what was refused — each with ``metadata={"derived": True, "sources": [...],
   "aspect": ...}``. With an LLM client they come from the reflection prompt (reflections
   citing no valid source are dropped); without one, only "cares most" is written, from the
   most important memories. Reflections are recomputed on every run (old ones are replaced).

Deleting a source must delete what was derived from it: :func:`derived_from` finds those
reflections; ``Memory.delete`` and the forget path call it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import numpy as np
from pydantic import ValidationError

from jiyi.core.calibration import calibration_for
from jiyi.core.ids import new_id
from jiyi.core.models import (
    Action,
    HistoryEntry,
    MemoryItem,
    MemoryKind,
    Origin,
    Scope,
    Status,
)
from jiyi.core.ports import ChangeSet, Indexed, SearchFilter
from jiyi.core.text import has_cjk, keyword_text, normalize
from jiyi.errors import ExtractionError
from jiyi.llm.client import ChatClient
from jiyi.llm.prompts import reflect

if TYPE_CHECKING:
    from jiyi.memory import Memory

__all__ = ["Consolidation", "consolidate", "derived_from", "find_duplicates"]

log = logging.getLogger(__name__)

MAX_REFLECTION_INPUTS = 30  # the most important memories go into the prompt
_MERGEABLE = tuple(k for k in MemoryKind if k not in (MemoryKind.EPISODE, MemoryKind.SUMMARY))


@dataclass
class Consolidation:
    """What one run changed."""

    merged: dict[str, list[str]] = field(default_factory=dict)  # keeper id → absorbed ids
    reflections: list[MemoryItem] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # earlier reflections deleted
    llm_used: bool = False


def derived_from(memories: Iterable[MemoryItem], source_ids: Iterable[str]) -> list[MemoryItem]:
    """The derived memories (reflections) resting on any of ``source_ids``."""
    gone = set(source_ids)
    return [
        m
        for m in memories
        if m.metadata.get("derived") and gone & set(m.metadata.get("sources") or [])
    ]


def find_duplicates(
    memories: Sequence[MemoryItem], vectors: np.ndarray, duplicate: float
) -> dict[str, list[str]]:
    """Groups of near-duplicates: keeper id → the ids it absorbs.

    Two memories are duplicates when they have the same kind and equal normalised text or a
    cosine ≥ ``duplicate``. The keeper is the most important, then the newest (largest id).
    """
    newest_first = sorted(range(len(memories)), key=lambda i: memories[i].id, reverse=True)
    order = sorted(newest_first, key=lambda i: -memories[i].importance)  # stable sort
    taken: set[int] = set()
    groups: dict[str, list[str]] = {}
    for a in order:
        if a in taken:
            continue
        for b in order:
            if b == a or b in taken or memories[a].kind != memories[b].kind:
                continue
            same = normalize(memories[a].content) == normalize(memories[b].content)
            if same or float(vectors[a] @ vectors[b]) >= duplicate:
                taken.add(b)
                groups.setdefault(memories[a].id, []).append(memories[b].id)
        taken.add(a)
    return groups


def _history(m: MemoryItem, action: Action, at: datetime, related: str | None) -> HistoryEntry:
    return HistoryEntry.of(m, action, at, related=related, reason="consolidate")


def _reflect_llm(
    client: ChatClient, items: list[MemoryItem], lang: reflect.Lang
) -> list[tuple[str, str, list[MemoryItem]]]:
    text, _ = client.chat(
        reflect.build_messages([m.content for m in items], lang),
        reflect.response_format(),
        max_tokens=250,
    )
    try:
        reply = reflect.ReflectionResponse.model_validate_json(text)
    except ValidationError as exc:
        raise ExtractionError("reflection reply is not valid JSON") from exc
    out: list[tuple[str, str, list[MemoryItem]]] = []
    seen: set[str] = set()
    for r in reply.reflections:
        sources = [items[i - 1] for i in dict.fromkeys(r.sources) if 1 <= i <= len(items)]
        content = " ".join(r.content.split())
        if not sources or not content or r.aspect in seen:
            continue  # a reflection that cites nothing cannot be traced or deleted
        seen.add(r.aspect)
        out.append((r.aspect, content, sources))
    return out


def _reflect_rules(
    items: list[MemoryItem], lang: reflect.Lang
) -> list[tuple[str, str, list[MemoryItem]]]:
    top = [m for m in items if m.kind in (MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.GOAL)]
    top = top[:3]
    if not top:
        return []
    if lang == "zh":
        content = "用户最在意：" + "；".join(m.content.removeprefix("用户") for m in top)
    else:
        content = "What matters most to the user: " + "; ".join(m.content for m in top)
    return [("cares_most", content, top)]


def consolidate(
    memory: Memory,
    user_id: str,
    *,
    client: ChatClient | None = None,
    agent_id: str | None = None,
    now: datetime | None = None,
) -> Consolidation:
    """Merge near-duplicates and recompute reflections for one user, in one transaction.

    Args:
        memory: a :class:`jiyi.Memory` (its store, embedder and clock are used).
        user_id / agent_id: whose memories.
        client: an LLM for reflections; None writes the rule-based "cares most" only. An LLM
            failure falls back to that too (logged), never losing the merge.
        now: the time recorded (default: the current UTC time).

    Returns:
        What was merged, written and replaced.
    """
    scope = Scope(tenant=memory.config.tenant, user_id=user_id, agent_id=agent_id)
    at = now or datetime.now(UTC)
    store, embedder = memory.store, memory.embedder
    active = store.list(scope, SearchFilter(kinds=_MERGEABLE))
    result = Consolidation()
    changes = ChangeSet()

    if active:
        vectors = embedder.embed_documents([m.content for m in active])
        groups = find_duplicates(active, vectors, calibration_for(embedder.name).duplicate)
        by_id = {m.id: m for m in active}
        for keeper_id, absorbed in groups.items():
            keeper = by_id[keeper_id]
            ids = list(keeper.source_message_ids)
            for dup_id in absorbed:
                dup = by_id[dup_id].model_copy(
                    update={"status": Status.SUPERSEDED, "superseded_by": keeper_id, "valid_to": at}
                )
                ids += dup.source_message_ids
                changes.updates.append(dup)
                changes.history.append(_history(dup, Action.SUPERSEDE, at, keeper_id))
            keeper = keeper.model_copy(
                update={"source_message_ids": list(dict.fromkeys(ids)), "version": keeper.version}
            )
            changes.updates.append(keeper)
            changes.history.append(_history(keeper, Action.UPDATE, at, None))
        result.merged = groups

    absorbed_ids = {i for ids in result.merged.values() for i in ids}
    items = sorted(
        (m for m in active if m.id not in absorbed_ids), key=lambda m: (-m.importance, m.id)
    )[:MAX_REFLECTION_INPUTS]
    lang: reflect.Lang = "zh" if sum(has_cjk(m.content) for m in items) * 2 >= len(items) else "en"
    found: list[tuple[str, str, list[MemoryItem]]] = []
    if items and client is not None:
        try:
            found = _reflect_llm(client, items, lang)
            result.llm_used = True
        except ExtractionError as exc:
            log.warning("reflection by LLM failed (%s); using the rule summary", exc.message)
    if items and not found:
        found = _reflect_rules(items, lang)

    old = store.list(scope, SearchFilter(kinds=(MemoryKind.SUMMARY,)))
    for m in old:
        if m.metadata.get("derived"):
            changes.deletes.append(m.id)
            changes.history.append(_history(m, Action.DELETE, at, None))
            result.replaced.append(m.id)
    if found:
        vecs = embedder.embed_documents([content for _, content, _ in found])
        for (aspect, content, sources), vec in zip(found, vecs, strict=True):
            item = MemoryItem(
                id=new_id(),
                tenant=scope.tenant,
                user_id=scope.user_id,
                agent_id=scope.agent_id,
                kind=MemoryKind.SUMMARY,
                topic=f"reflection.{aspect}",
                content=content,
                importance=round(max(s.importance for s in sources), 2),
                confidence=0.7,
                origin=Origin.INFERRED,
                source_message_ids=list(
                    dict.fromkeys(i for s in sources for i in s.source_message_ids)
                ),
                created_at=at,
                observed_at=at,
                metadata={"derived": True, "sources": [s.id for s in sources], "aspect": aspect},
            )
            changes.upserts.append(Indexed(item, keyword_text(content), vec))
            changes.history.append(_history(item, Action.ADD, at, None))
            result.reflections.append(item)
    if changes:
        store.apply(scope, changes)
    return result
