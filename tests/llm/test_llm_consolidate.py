"""Opt-in consolidation: near-duplicates merge, reflections are derived and traceable."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed
from jiyi.core.text import keyword_text
from jiyi.llm import consolidate, derived_from

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def put(mem: Any, content: str, kind: MemoryKind, importance: float, src: str) -> MemoryItem:
    m = MemoryItem(
        id=new_id(),
        user_id="u1",
        kind=kind,
        content=content,
        importance=importance,
        source_message_ids=[src],
        created_at=NOW,
        observed_at=NOW,
    )
    vec = mem.embedder.embed_documents([content])[0]
    mem.store.apply(
        Scope(user_id="u1"), ChangeSet(upserts=[Indexed(m, keyword_text(content), vec)])
    )
    return m


def test_near_duplicates_merge_into_the_most_important(llm_mem: Any) -> None:
    mem = llm_mem(None)
    low = put(mem, "用户对花生过敏", MemoryKind.FACT, 0.6, "m1")
    high = put(mem, "用户对花生过敏。", MemoryKind.FACT, 0.9, "m2")
    other = put(mem, "用户喜欢爬山", MemoryKind.PREFERENCE, 0.5, "m3")
    result = consolidate(mem, "u1", now=NOW)
    assert result.merged == {high.id: [low.id]}
    merged = mem.get(high.id)
    assert merged.source_message_ids == ["m2", "m1"] and merged.status is Status.ACTIVE
    gone = mem.get(low.id)
    assert (gone.status, gone.superseded_by) == (Status.SUPERSEDED, high.id)
    assert mem.get(other.id).status is Status.ACTIVE


def test_reflections_are_derived_linked_and_recomputed(llm_mem: Any) -> None:
    mem = llm_mem(None)
    allergy = put(mem, "用户对花生过敏", MemoryKind.FACT, 0.9, "m1")
    put(mem, "用户明天去上海", MemoryKind.EVENT, 0.3, "m2")
    (refl,) = consolidate(mem, "u1", now=NOW).reflections
    assert refl.kind is MemoryKind.SUMMARY and refl.origin.value == "inferred"
    assert refl.derived is True and refl.sources == [allergy.id]
    assert "花生" in refl.content and refl.source_message_ids == ["m1"]
    stored = mem.list(user_id="u1")
    assert derived_from(stored, [allergy.id]) == [mem.get(refl.id)]
    # A second run over the same memories keeps the reflection as it is (same id, no
    # copy); a changed one is rewritten in place.
    again = consolidate(mem, "u1", now=NOW)
    assert again.replaced == [] and [r.id for r in again.reflections] == [refl.id]
    assert mem.get(refl.id) == refl
    put(mem, "用户喜欢爬山", MemoryKind.PREFERENCE, 0.8, "m3")
    (changed,) = consolidate(mem, "u1", now=NOW).reflections
    assert changed.id == refl.id and changed.version == 2 and "爬山" in changed.content
    assert len([m for m in mem.list(user_id="u1") if m.kind is MemoryKind.SUMMARY]) == 1


def test_nothing_to_consolidate_writes_nothing(llm_mem: Any) -> None:
    mem = llm_mem(None)
    result = consolidate(mem, "u1", now=NOW)
    assert (result.merged, result.reflections, result.replaced) == ({}, [], [])
