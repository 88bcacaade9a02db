"""Consolidation merges what says the same thing — decided like reconciliation, on the real
embedder, where different numbers and places sit at cosine ≥ 0.95."""

from __future__ import annotations

from datetime import UTC, datetime

from jiyi.core.calibration import calibration_for
from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed, SearchFilter
from jiyi.core.text import keyword_text
from jiyi.pipeline.consolidate import consolidate
from jiyi.storage.sqlite import SqliteMemoryStore

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
SCOPE = Scope(user_id="u1")


def put(
    store: SqliteMemoryStore, e5, content: str, topic: str | None = None, value: str | None = None
) -> MemoryItem:  # type: ignore[no-untyped-def]
    m = MemoryItem(
        id=new_id(),
        user_id="u1",
        kind=MemoryKind.FACT,
        topic=topic,
        value=value,
        content=content,
        created_at=NOW,
        observed_at=NOW,
    )
    vec = e5.embed_documents([content])[0]
    store.apply(SCOPE, ChangeSet(upserts=[Indexed(m, keyword_text(content), vec)]))
    return m


def active(store: SqliteMemoryStore) -> set[str]:
    return {m.content for m in store.list(SCOPE, SearchFilter(kinds=(MemoryKind.FACT,)))}


def test_different_values_are_never_merged_however_similar(tmp_path, e5) -> None:  # type: ignore[no-untyped-def]
    store = SqliteMemoryStore(tmp_path / "c.db")
    a = put(store, e5, "用户是1988年出生的")
    b = put(store, e5, "用户是1989年出生的")
    c = put(store, e5, "用户住在北京", "location.home", "北京")
    d = put(store, e5, "用户住在北京市", "location.home", "北京市")  # the same value, said again
    e = put(store, e5, "用户的老家在北京", "location.hometown", "北京")  # another slot
    cos = float(e5.embed_documents([a.content])[0] @ e5.embed_documents([b.content])[0])
    assert cos >= calibration_for(e5.name).duplicate  # the trap: E5 calls them duplicates
    result = consolidate(store, e5, calibration_for(e5.name), SCOPE, now=NOW)
    merged = {k: set(v) for k, v in result.merged.items()}
    assert merged in ({c.id: {d.id}}, {d.id: {c.id}})
    assert {a.content, b.content, e.content} <= active(store)
    gone = store.get_many(SCOPE, [c.id, d.id])
    assert sorted(m.status for m in gone) == [Status.ACTIVE, Status.SUPERSEDED]
    store.close()
