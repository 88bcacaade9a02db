"""Behaviour every MemoryStore keeps (see the docstrings in jiyi/core/ports.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from jiyi.core.ids import content_hash, new_id
from jiyi.core.models import Action, HistoryEntry, MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed, MemoryStore, SearchFilter
from jiyi.core.text import keyword_text
from jiyi.embedders import HashingEmbedder
from jiyi.errors import InvalidInputError

T0 = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
EMB = HashingEmbedder(dim=64)
ALICE = Scope(tenant="t1", user_id="alice")
BOB = Scope(tenant="t1", user_id="bob")
OTHER_TENANT = Scope(tenant="t2", user_id="alice")


def item(
    scope: Scope,
    content: str,
    *,
    kind: MemoryKind = MemoryKind.FACT,
    agent: str | None = None,
    topic: str | None = None,
    at: datetime = T0,
) -> MemoryItem:
    return MemoryItem(
        id=new_id(),
        tenant=scope.tenant,
        user_id=scope.user_id,
        agent_id=agent,
        kind=kind,
        topic=topic,
        content=content,
        created_at=at,
        observed_at=at,
    )


def put(store: MemoryStore, scope: Scope, *items: MemoryItem) -> None:
    vecs = EMB.embed_documents([m.content for m in items])
    store.apply(
        scope,
        ChangeSet(
            upserts=[
                Indexed(m, keyword_text(m.content), v) for m, v in zip(items, vecs, strict=True)
            ],
            history=[
                HistoryEntry(
                    memory_id=m.id,
                    action=Action.ADD,
                    at=T0,
                    content=m.content,
                    content_hash=content_hash(m.content),
                )
                for m in items
            ],
        ),
    )


ALL = SearchFilter(statuses=tuple(Status))


def test_upsert_then_get_returns_the_same_memory(store: MemoryStore) -> None:
    m = item(ALICE, "用户对花生过敏", topic="health.allergy.花生")
    put(store, ALICE, m)
    got = store.get("t1", m.id)
    assert got is not None
    assert got.content == m.content and got.topic == m.topic and got.kind == MemoryKind.FACT
    assert got.created_at == m.created_at


def test_get_of_another_tenant_or_unknown_id_is_none(store: MemoryStore) -> None:
    m = item(ALICE, "住在北京")
    put(store, ALICE, m)
    assert store.get("t2", m.id) is None
    assert store.get("t1", "no-such-id") is None


def test_get_many_keeps_order_and_skips_missing_and_foreign(store: MemoryStore) -> None:
    a, b = item(ALICE, "a 一"), item(ALICE, "b 二")
    c = item(BOB, "c 三")
    put(store, ALICE, a, b)
    put(store, BOB, c)
    got = store.get_many(ALICE, [b.id, "missing", c.id, a.id])
    assert [m.id for m in got] == [b.id, a.id]


def test_list_is_oldest_first_and_filters_by_topic_kind_and_status(store: MemoryStore) -> None:
    first = item(ALICE, "喜欢咖啡", kind=MemoryKind.PREFERENCE, topic="pref.咖啡")
    second = item(ALICE, "住在上海", topic="location.home")
    put(store, ALICE, first, second)
    assert [m.id for m in store.list(ALICE, SearchFilter())] == [first.id, second.id]
    assert [m.id for m in store.list(ALICE, SearchFilter(), topic="location.home")] == [second.id]
    prefs = store.list(ALICE, SearchFilter(kinds=(MemoryKind.PREFERENCE,)))
    assert [m.id for m in prefs] == [first.id]
    store.apply(ALICE, ChangeSet(updates=[first.model_copy(update={"status": Status.SUPERSEDED})]))
    assert [m.id for m in store.list(ALICE, SearchFilter())] == [second.id]
    assert len(store.list(ALICE, ALL)) == 2


def test_writes_outside_the_scope_are_refused_and_nothing_is_written(store: MemoryStore) -> None:
    mine, theirs = item(ALICE, "我的"), item(BOB, "别人的")
    with pytest.raises(InvalidInputError):
        put(store, ALICE, mine, theirs)
    assert store.get("t1", mine.id) is None


def test_a_failing_write_rolls_back_row_index_and_vector(store: MemoryStore) -> None:
    good = item(ALICE, "冷萃咖啡")
    bad = item(ALICE, "坏向量")
    broken = np.array(["not", "a", "vector"])  # fails float32 conversion mid-transaction
    with pytest.raises(Exception):  # noqa: B017 - any error must roll everything back
        store.apply(
            ALICE,
            ChangeSet(
                upserts=[
                    Indexed(good, keyword_text(good.content), EMB.embed_query(good.content)),
                    Indexed(bad, keyword_text(bad.content), broken),
                ]
            ),
        )  # type: ignore[arg-type]
    assert store.get("t1", good.id) is None
    assert store.keyword_search(ALICE, ["冷萃"], SearchFilter(), 5) == []
    assert store.vector_search(ALICE, EMB.embed_query("冷萃咖啡"), SearchFilter(), 5) == []


def test_keyword_search_finds_two_character_chinese_words(store: MemoryStore) -> None:
    target = item(ALICE, "用户对花生过敏")
    put(store, ALICE, target, item(ALICE, "用户喜欢喝冷萃咖啡"))
    hits = store.keyword_search(ALICE, ["花生"], SearchFilter(), 5)
    assert [h[0] for h in hits] == [target.id]
    assert hits[0][1] > 0


def test_keyword_search_ranks_and_stems_english(store: MemoryStore) -> None:
    a = item(ALICE, "Caroline went painting with her kids")
    b = item(ALICE, "Melanie likes to paint sunsets and paints every weekend")
    put(store, ALICE, a, b, item(ALICE, "nothing relevant here"))
    ids = [h[0] for h in store.keyword_search(ALICE, ["paint"], SearchFilter(), 5)]
    assert set(ids) == {a.id, b.id}
    assert ids[0] == b.id  # more occurrences rank higher


def test_searches_never_cross_users_tenants_or_private_agents(store: MemoryStore) -> None:
    shared = item(ALICE, "共享 花生 过敏")
    private_a = item(ALICE, "私有 花生 甲", agent="agent-a")
    private_b = item(ALICE, "私有 花生 乙", agent="agent-b")
    put(store, ALICE, shared, private_a, private_b)
    put(store, BOB, item(BOB, "鲍勃 花生"))
    put(store, OTHER_TENANT, item(OTHER_TENANT, "另一个租户 花生"))
    qv = EMB.embed_query("花生")
    as_a = Scope(tenant="t1", user_id="alice", agent_id="agent-a")
    for ids in (
        [h[0] for h in store.keyword_search(as_a, ["花生"], SearchFilter(), 10)],
        [h[0] for h in store.vector_search(as_a, qv, SearchFilter(), 10)],
        [m.id for m in store.list(as_a, SearchFilter())],
    ):
        assert set(ids) == {shared.id, private_a.id}
    all_alice = {h[0] for h in store.keyword_search(ALICE, ["花生"], SearchFilter(), 10)}
    assert all_alice == {shared.id, private_a.id, private_b.id}


def test_vector_search_is_exact_for_a_small_user_among_many(store: MemoryStore) -> None:
    crowd = Scope(tenant="t1", user_id="crowd")
    put(store, crowd, *[item(crowd, f"噪声 记录 {i} 咖啡") for i in range(300)])
    mine = [item(ALICE, "咖啡 冷萃"), item(ALICE, "喜欢 猫")]
    put(store, ALICE, *mine)
    hits = store.vector_search(ALICE, EMB.embed_query("咖啡"), SearchFilter(), 10)
    assert {h[0] for h in hits} == {m.id for m in mine}
    assert hits[0][0] == mine[0].id
    assert hits[0][1] >= hits[1][1]


def test_time_and_kind_filters_apply_to_both_channels(store: MemoryStore) -> None:
    old = item(ALICE, "去年 去 杭州 旅行", kind=MemoryKind.EVENT, at=T0 - timedelta(days=300))
    new = item(ALICE, "上周 去 杭州 出差", kind=MemoryKind.EVENT, at=T0)
    put(store, ALICE, old, new)
    flt = SearchFilter(since=T0 - timedelta(days=7))
    assert [h[0] for h in store.keyword_search(ALICE, ["杭州"], flt, 5)] == [new.id]
    assert [h[0] for h in store.vector_search(ALICE, EMB.embed_query("杭州"), flt, 5)] == [new.id]
    facts = SearchFilter(kinds=(MemoryKind.FACT,))
    assert store.keyword_search(ALICE, ["杭州"], facts, 5) == []


def test_hard_delete_removes_row_index_vector_and_history_content(store: MemoryStore) -> None:
    m = item(ALICE, "用户的银行是招商银行")
    put(store, ALICE, m)
    store.apply(
        ALICE,
        ChangeSet(
            deletes=[m.id],
            history=[
                HistoryEntry(
                    memory_id=m.id,
                    action=Action.DELETE,
                    at=T0,
                    content_hash=content_hash(m.content),
                )
            ],
        ),
    )
    assert store.get("t1", m.id) is None
    assert store.keyword_search(ALICE, ["招商银行"], ALL, 5) == []
    assert store.vector_search(ALICE, EMB.embed_query(m.content), ALL, 5) == []
    hist = store.history("t1", m.id)
    assert [h.action for h in hist] == [Action.ADD, Action.DELETE]
    assert all(h.content is None for h in hist)
    assert all(h.content_hash == content_hash(m.content) for h in hist)


def test_deleting_a_missing_id_is_a_noop(store: MemoryStore) -> None:
    store.apply(ALICE, ChangeSet(deletes=["never-existed"]))
    assert store.list(ALICE, ALL) == []


def test_upserting_an_existing_id_replaces_text_index_and_vector(store: MemoryStore) -> None:
    m = item(ALICE, "喜欢 红茶")
    put(store, ALICE, m)
    put(store, ALICE, m.model_copy(update={"content": "喜欢 绿茶", "version": 2}))
    assert store.keyword_search(ALICE, ["红茶"], SearchFilter(), 5) == []
    assert [h[0] for h in store.keyword_search(ALICE, ["绿茶"], SearchFilter(), 5)] == [m.id]
    got = store.get("t1", m.id)
    assert got is not None and got.version == 2 and len(store.list(ALICE, ALL)) == 1


def test_touch_records_several_reads_in_one_call(store: MemoryStore) -> None:
    often, once, unread = item(ALICE, "读过三次"), item(ALICE, "读过一次"), item(ALICE, "没读过")
    put(store, ALICE, often, once, unread)
    store.touch(ALICE, {often.id: 3, once.id: 1}, T0 + timedelta(hours=1))
    store.touch(ALICE, {often.id: 2}, T0 + timedelta(hours=2))
    got = {m.id: m for m in store.list(ALICE, ALL)}
    assert got[often.id].access_count == 5
    assert got[often.id].last_accessed_at == T0 + timedelta(hours=2)
    assert got[once.id].access_count == 1
    assert got[once.id].last_accessed_at == T0 + timedelta(hours=1)
    assert got[unread.id].access_count == 0 and got[unread.id].last_accessed_at is None
    # What searches read afterwards (a store may serve them from a cache) agrees.
    (read,) = store.get_many(ALICE, [often.id])
    assert read.access_count == 5


def test_touch_never_raises_and_counts_only_the_scopes_own_rows(store: MemoryStore) -> None:
    mine, theirs = item(ALICE, "我的"), item(BOB, "鲍勃的")
    put(store, ALICE, mine)
    put(store, BOB, theirs)
    at = T0 + timedelta(hours=1)
    store.touch(ALICE, {}, at)
    store.touch(ALICE, {"missing": 1, "also-missing": 4}, at)
    store.touch(ALICE, {theirs.id: 2, mine.id: 1}, at)  # another user's id: ignored
    store.touch(OTHER_TENANT, {mine.id: 7}, at)  # another tenant's view of the id: ignored
    store.touch(Scope(tenant="t1", user_id="nobody"), {mine.id: 1}, at)
    store.touch(ALICE, {mine.id: 0}, at)  # no read: nothing to record
    got_mine, got_theirs = store.get("t1", mine.id), store.get("t1", theirs.id)
    assert got_mine is not None and got_mine.access_count == 1
    assert got_theirs is not None and got_theirs.access_count == 0
    assert got_theirs.last_accessed_at is None


def test_delete_user_removes_everything_of_that_user_only(store: MemoryStore) -> None:
    put(store, ALICE, item(ALICE, "甲"), item(ALICE, "乙", agent="a1"))
    keep = item(BOB, "丙")
    put(store, BOB, keep)
    removed = store.delete_user(ALICE)
    assert removed["memories"] == 2 and removed["history"] == 2
    assert store.list(ALICE, ALL) == []
    assert store.vector_search(ALICE, EMB.embed_query("甲"), ALL, 5) == []
    assert [m.id for m in store.list(BOB, ALL)] == [keep.id]
    assert store.delete_user(ALICE)["memories"] == 0  # idempotent


def test_history_is_oldest_first_and_scoped_by_tenant(store: MemoryStore) -> None:
    m = item(ALICE, "版本一")
    put(store, ALICE, m)
    store.apply(
        ALICE,
        ChangeSet(
            history=[
                HistoryEntry(
                    memory_id=m.id,
                    action=Action.UPDATE,
                    at=T0 + timedelta(1),
                    content="版本二",
                    content_hash=content_hash("版本二"),
                    version=2,
                )
            ]
        ),
    )
    assert [h.action for h in store.history("t1", m.id)] == [Action.ADD, Action.UPDATE]
    assert store.history("t2", m.id) == []
    assert store.history("t1", "unknown") == []


def test_min_importance_filters_list_and_both_channels(store: MemoryStore) -> None:
    vital = item(ALICE, "对 花生 过敏").model_copy(update={"importance": 0.95})
    minor = item(ALICE, "喜欢 花生 酱").model_copy(update={"importance": 0.4})
    put(store, ALICE, vital, minor)
    flt = SearchFilter(min_importance=0.9)
    assert [m.id for m in store.list(ALICE, flt)] == [vital.id]
    assert [h[0] for h in store.keyword_search(ALICE, ["花生"], flt, 5)] == [vital.id]
    assert [h[0] for h in store.vector_search(ALICE, EMB.embed_query("花生"), flt, 5)] == [vital.id]
