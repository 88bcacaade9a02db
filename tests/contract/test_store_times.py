"""Contract: times anywhere in the supported range (1900-01-01 … 9998-12-31 UTC) are
stored, read back exactly (as UTC) and filtered in time order by every backend, in both
search channels. (SQLite keeps times as fixed-width text, so this also pins the padding.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from test_store_contract import ALICE, ALL, EMB, item, put

from jiyi.core.ports import MemoryStore, SearchFilter

EDGES = [
    datetime(1900, 1, 1, tzinfo=UTC),
    datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    datetime(2026, 11, 29, 6, 0, tzinfo=UTC),
    datetime(9998, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
]


def test_edge_times_round_trip_exactly(store: MemoryStore) -> None:
    items = [item(ALICE, f"第{i}个 时间 边界", at=at) for i, at in enumerate(EDGES)]
    put(store, ALICE, *items)
    for m in items:
        got = store.get(ALICE.tenant, m.id)
        assert got is not None
        assert got.observed_at == m.observed_at and got.created_at == m.created_at
        assert got.observed_at.utcoffset() == timedelta(0)
    listed = {m.id: m.observed_at for m in store.list(ALICE, ALL)}
    assert listed == {m.id: m.observed_at for m in items}


def test_since_and_until_order_edge_times_like_time(store: MemoryStore) -> None:
    items = [item(ALICE, f"第{i}个 时间 边界", at=at) for i, at in enumerate(EDGES)]
    put(store, ALICE, *items)
    # A non-UTC offset must compare by the instant it names.
    since = datetime(1970, 1, 1, 8, 0, tzinfo=timezone(timedelta(hours=8)))  # 1970-01-01Z
    flt = SearchFilter(since=since, until=EDGES[-1])
    expected = {items[2].id}
    assert {m.id for m in store.list(ALICE, flt)} == expected
    assert {h[0] for h in store.keyword_search(ALICE, ["时间"], flt, 10)} == expected
    vec = EMB.embed_query("时间 边界")
    assert {h[0] for h in store.vector_search(ALICE, vec, flt, 10)} == expected
    before_1970 = SearchFilter(until=datetime(1970, 1, 1, tzinfo=UTC))
    assert {m.id for m in store.list(ALICE, before_1970)} == {items[0].id, items[1].id}
