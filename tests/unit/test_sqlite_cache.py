"""The embedded store's in-memory scope cache never serves stale rows or vectors."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed, SearchFilter
from jiyi.core.text import keyword_text
from jiyi.embedders import HashingEmbedder
from jiyi.storage.sqlite import SqliteMemoryStore

T = datetime(2026, 11, 1, tzinfo=UTC)
U = Scope(tenant="t", user_id="u")
EMB = HashingEmbedder(dim=64)


def item(text: str) -> MemoryItem:
    return MemoryItem(
        id=new_id(),
        tenant="t",
        user_id="u",
        kind=MemoryKind.FACT,
        content=text,
        created_at=T,
        observed_at=T,
    )


def put(store: SqliteMemoryStore, *items: MemoryItem) -> None:
    store.apply(
        U,
        ChangeSet(
            upserts=[Indexed(m, keyword_text(m.content), EMB.embed_query(m.content)) for m in items]
        ),
    )


def test_writes_through_this_process_are_patched_into_the_cache(tmp_path: Path) -> None:
    store = SqliteMemoryStore(tmp_path / "a.db")
    first = item("喜欢 红茶")
    put(store, first)
    assert store.get_many(U, [first.id])[0].content == "喜欢 红茶"  # cache built
    second = item("喜欢 绿茶")
    put(store, second)
    hits = store.vector_search(U, EMB.embed_query("绿茶"), SearchFilter(), 5)
    assert hits[0][0] == second.id
    store.apply(U, ChangeSet(updates=[first.model_copy(update={"status": Status.SUPERSEDED})]))
    assert [h[0] for h in store.vector_search(U, EMB.embed_query("红茶"), SearchFilter(), 5)] == [
        second.id
    ]
    assert store.get_many(U, [first.id])[0].status == Status.SUPERSEDED


def test_a_write_by_another_process_invalidates_the_cache(tmp_path: Path) -> None:
    reader = SqliteMemoryStore(tmp_path / "shared.db")
    writer = SqliteMemoryStore(tmp_path / "shared.db")
    old = item("住在 北京")
    put(writer, old)
    assert reader.get_many(U, [old.id])  # reader caches the scope
    new = item("住在 上海")
    put(writer, new)
    writer.apply(U, ChangeSet(updates=[old.model_copy(update={"status": Status.SUPERSEDED})]))
    assert reader.get_many(U, [old.id])[0].status == Status.SUPERSEDED
    ids = [h[0] for h in reader.vector_search(U, EMB.embed_query("上海"), SearchFilter(), 5)]
    assert ids == [new.id]
    writer.apply(U, ChangeSet(deletes=[new.id]))
    assert reader.get_many(U, [new.id]) == []
    assert reader.vector_search(U, EMB.embed_query("上海"), SearchFilter(), 5) == []


def test_a_repeated_filter_follows_importance_changes_and_new_rows(tmp_path: Path) -> None:
    store = SqliteMemoryStore(tmp_path / "a.db")
    tea, coffee = item("喜欢 红茶"), item("喜欢 咖啡").model_copy(update={"importance": 0.9})
    put(store, tea, coffee)
    important = SearchFilter(min_importance=0.8)
    q = EMB.embed_query("红茶")
    assert [h[0] for h in store.vector_search(U, q, important, 5)] == [coffee.id]
    store.apply(U, ChangeSet(updates=[tea.model_copy(update={"importance": 0.95})]))
    assert {h[0] for h in store.vector_search(U, q, important, 5)} == {tea.id, coffee.id}
    later = item("喜欢 乌龙茶").model_copy(
        update={"importance": 0.9, "observed_at": T.replace(day=9)}
    )
    put(store, later)
    assert later.id in {h[0] for h in store.vector_search(U, q, important, 5)}
    # The same repeated part with a window on top: the window is applied on every search.
    window = SearchFilter(min_importance=0.8, since=T.replace(day=5))
    assert [h[0] for h in store.vector_search(U, q, window, 5)] == [later.id]
    assert len(store.vector_search(U, q, important, 5)) == 3
