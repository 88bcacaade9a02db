"""Filters, cursor pagination and user listing: the same answers from every store, and the
same as ``jiyi.core.filters.matches`` says (see SearchFilter and UserDirectory in
jiyi/core/ports.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from tests.contract.test_store_contract import ALICE, BOB, EMB, OTHER_TENANT, T0, item, put

from jiyi.core.filters import matches, parse_filters
from jiyi.core.models import MemoryItem, MemoryKind, Scope
from jiyi.core.ports import MemoryStore, SearchFilter, UserDirectory
from jiyi.core.text import keyword_text
from jiyi.errors import InvalidInputError

ROWS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # content, metadata, other fields
    ("咖啡 alpha one", {"project": "alpha", "n": 1, "due": "2026-11-05", "ok": True}, {}),
    ("咖啡 alpha two", {"project": "alpha", "n": 2.5, "due": "2026-12-01", "ok": False}, {}),
    ("咖啡 beta", {"project": "beta", "n": "2", "nested": {"lvl": 3}}, {"agent": "planner"}),
    ("咖啡 plain", {}, {"kind": MemoryKind.PREFERENCE}),
    ("咖啡 null", {"project": None, "n": 10}, {"kind": MemoryKind.GOAL}),
]


@pytest.fixture
def seeded(store: MemoryStore) -> list[MemoryItem]:
    items = []
    for i, (content, meta, extra) in enumerate(ROWS):
        m = item(ALICE, content, at=T0 + timedelta(days=i), **extra)
        items.append(m.model_copy(update={"metadata": meta, "importance": 0.2 * (i + 1)}))
    put(store, ALICE, *items)
    put(
        store,
        BOB,
        item(BOB, "咖啡 bob", at=T0).model_copy(update={"metadata": {"project": "alpha"}}),
    )
    return items


FILTERS: list[dict[str, Any]] = [
    {"metadata.project": "alpha"},
    {"metadata": {"project": "alpha", "ok": True}},
    {"metadata.ok": False},
    {"metadata.project": {"in": ["alpha", "beta"]}},
    {"metadata.project": {"ne": "alpha"}},
    {"metadata.project": None},
    {"metadata.n": 2},  # the number 2 only: "2" is text
    {"metadata.n": "2"},
    {"metadata.n": {"gte": 2}},
    {"metadata.n": {"gt": 1, "lt": 10}},
    {"metadata.due": {"gte": "2026-11-10"}},
    {"metadata.due": {"lt": "2026-12-01"}},
    {"metadata.nested.lvl": 3},
    {"metadata.nested.lvl": {"lte": 3}},
    {"metadata.missing": {"ne": 1}},
    {"importance": {"gte": 0.5}},
    {"created_at": {"gte": (T0 + timedelta(days=2)).isoformat()}},
    {"observed_at": {"lt": (T0 + timedelta(days=1)).isoformat()}},
    {"kind": {"in": ["preference", "goal"]}},
    {"agent_id": "planner"},
    {"agent_id": None},
    {"agent_id": {"ne": "planner"}},
    {"metadata.project": "alpha", "importance": {"lt": 0.3}},
]


def _ids(items: list[MemoryItem]) -> set[str]:
    return {m.id for m in items}


@pytest.mark.parametrize("raw", FILTERS, ids=[str(f) for f in FILTERS])
def test_list_admits_exactly_what_matches_says(
    store: MemoryStore, seeded: list[MemoryItem], raw: dict[str, Any]
) -> None:
    where = parse_filters(raw)
    expected = {m.id for m in seeded if matches(where, m)}
    got = store.list(ALICE, SearchFilter(kinds=None, where=where))
    assert _ids(got) == expected
    assert all(m.user_id == "alice" for m in got)


def test_metadata_comparisons_are_typed(seeded: list[MemoryItem], store: MemoryStore) -> None:
    def found(raw: dict[str, Any]) -> list[str]:
        got = store.list(ALICE, SearchFilter(where=parse_filters(raw)))
        return sorted(m.content for m in got)

    assert found({"metadata.n": 2}) == []
    assert found({"metadata.n": "2"}) == ["咖啡 beta"]
    assert found({"metadata.n": {"gte": 2}}) == ["咖啡 alpha two", "咖啡 null"]
    assert found({"metadata.ok": True}) == ["咖啡 alpha one"]
    assert found({"metadata.n": 1}) == ["咖啡 alpha one"]  # not the boolean true


def test_filters_apply_to_keyword_and_vector_search(
    store: MemoryStore, seeded: list[MemoryItem]
) -> None:
    flt = SearchFilter(where=parse_filters({"metadata.project": "alpha"}))
    alpha = {seeded[0].id, seeded[1].id}
    kw = store.keyword_search(ALICE, keyword_text("咖啡").split(), flt, 10)
    assert {i for i, _ in kw} == alpha
    vec = store.vector_search(ALICE, EMB.embed_query("咖啡"), flt, 10)
    assert {i for i, _ in vec} == alpha
    ranged = SearchFilter(where=parse_filters({"metadata.n": {"gt": 2}}))
    assert {i for i, _ in store.vector_search(ALICE, EMB.embed_query("x"), ranged, 10)} == {
        seeded[1].id,
        seeded[4].id,
    }


def test_cursor_pages_cover_every_row_once_in_id_order(store: MemoryStore) -> None:
    items = [item(ALICE, f"第{i}条 note {i}", at=T0 + timedelta(minutes=i)) for i in range(23)]
    put(store, ALICE, *items)
    seen: list[str] = []
    after: str | None = None
    while True:
        page = store.list(ALICE, SearchFilter(after_id=after), limit=5)
        seen += [m.id for m in page]
        if len(page) < 5:
            break
        after = page[-1].id
    assert seen == sorted(m.id for m in items)
    # A cursor combines with a filter and never leaks another user's rows.
    put(store, BOB, item(BOB, "bob's"))
    rest = store.list(ALICE, SearchFilter(after_id=items[20].id), limit=100)
    assert [m.id for m in rest] == sorted(m.id for m in items)[21:]


def test_users_are_listed_by_id_per_tenant_with_a_cursor(store: MemoryStore) -> None:
    assert isinstance(store, UserDirectory)
    for uid in ["u3", "u1", "u2", "用户"]:
        s = Scope(tenant="t1", user_id=uid)
        put(store, s, item(s, "x"), item(s, "y", at=T0 + timedelta(days=1)))
    put(store, OTHER_TENANT, item(OTHER_TENANT, "z"))
    users = store.users("t1")
    assert [u.user_id for u in users] == sorted(["u1", "u2", "u3", "用户"], key=str.encode)
    assert users[0].memories == 2 and users[0].last_observed_at == T0 + timedelta(days=1)
    assert [u.user_id for u in store.users("t1", after="u1", limit=2)] == ["u2", "u3"]
    assert [u.user_id for u in store.users("t2")] == ["alice"]
    store.delete_user(Scope(tenant="t1", user_id="u2"))
    assert "u2" not in [u.user_id for u in store.users("t1")]


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"colour": "red"}, "filters.colour"),
        ({"metadata.a b": 1}, "filters.metadata.a b"),
        ({"importance": {"gte": "high"}}, "filters.importance"),
        ({"metadata.x": {"near": 1}}, "filters.metadata.x"),
        ({"metadata.x": {"in": []}}, "filters.metadata.x"),
        ({"metadata.x": {"gt": True}}, "filters.metadata.x"),
        ({"created_at": {"gte": "yesterday"}}, "filters.created_at"),
        ({"kind": "thought"}, "filters.kind"),
    ],
)
def test_bad_filters_are_refused_naming_the_field(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        parse_filters(raw)
    assert info.value.field == field
