"""The lifecycle on every store (SQLite and PostgreSQL), under a fake clock: the lifecycle
columns, the ``reinforce`` port, archived rows out of search, and a Memory's maintenance —
TTL, decay, archive, restore, purge (no bytes left, as for delete) and the per-user cap."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from tests.conftest import FakeClock
from tests.contract.test_store_contract import ALICE, ALL, BOB, EMB, OTHER_TENANT, T0, item, put

from jiyi import Memory, MemoryConfig
from jiyi.core.ids import new_id
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.models import Action, MemoryItem, MemoryKind, Origin, Scope, Status
from jiyi.core.ports import ChangeSet, MemoryStore, SearchFilter
from jiyi.embedders import HashingEmbedder

DAY = timedelta(days=1)
EVERY = dict(step=0.1, cap=0.95, every=DAY)


def test_lifecycle_columns_round_trip(store: MemoryStore) -> None:
    m = item(ALICE, "用户可能喜欢爵士乐").model_copy(
        update={
            "reinforced_at": T0 + DAY,
            "archived_at": T0 + 2 * DAY,
            "confidence_at": T0 + 3 * DAY,
            "status": Status.ARCHIVED,
        }
    )
    put(store, ALICE, m)
    got = store.get("t1", m.id)
    assert got is not None
    assert (got.reinforced_at, got.archived_at, got.confidence_at) == (
        T0 + DAY,
        T0 + 2 * DAY,
        T0 + 3 * DAY,
    )
    assert got.status == Status.ARCHIVED


def test_reinforce_adds_the_step_once_per_period_up_to_the_cap(store: MemoryStore) -> None:
    m = item(ALICE, "用户喜欢冷萃").model_copy(update={"importance": 0.8})
    high = item(ALICE, "用户对花生过敏").model_copy(update={"importance": 0.97})
    put(store, ALICE, m, high)
    assert store.reinforce(ALICE, [m.id], T0 + timedelta(hours=5), **EVERY) == []  # said today
    assert store.reinforce(ALICE, [m.id, high.id], T0 + DAY, **EVERY) == sorted([m.id, high.id])
    assert store.reinforce(ALICE, [m.id], T0 + DAY + timedelta(hours=23), **EVERY) == []
    assert store.reinforce(ALICE, [m.id], T0 + 2 * DAY, **EVERY) == [m.id]
    store.reinforce(ALICE, [m.id], T0 + 3 * DAY, **EVERY)
    got = {x.id: x for x in store.get_many(ALICE, [m.id, high.id])}  # what searches read
    assert got[m.id].importance == pytest.approx(0.95)
    assert got[m.id].reinforced_at == T0 + 3 * DAY
    assert got[high.id].importance == pytest.approx(0.97)  # never lowered to the cap


def test_reinforce_touches_only_the_scopes_active_rows_and_never_raises(
    store: MemoryStore,
) -> None:
    mine = item(ALICE, "我的")
    archived = item(ALICE, "归档的").model_copy(update={"status": Status.ARCHIVED})
    theirs = item(BOB, "别人的")
    put(store, ALICE, mine, archived)
    put(store, BOB, theirs)
    ids = [mine.id, archived.id, theirs.id, "no-such-id"]
    assert store.reinforce(OTHER_TENANT, ids, T0 + DAY, **EVERY) == []
    assert store.reinforce(ALICE, ids, T0 + DAY, **EVERY) == [mine.id]
    assert store.reinforce(ALICE, [], T0 + DAY, **EVERY) == []
    bob = store.get("t1", theirs.id)
    assert bob is not None and bob.importance == 0.5 and bob.reinforced_at is None


def test_archived_rows_are_out_of_search_and_list_unless_asked_for(store: MemoryStore) -> None:
    m = item(ALICE, "用户在准备搬家")
    put(store, ALICE, m)
    store.apply(ALICE, ChangeSet(updates=[m.model_copy(update={"status": Status.ARCHIVED})]))
    assert store.keyword_search(ALICE, ["搬家"], SearchFilter(), 5) == []
    assert store.vector_search(ALICE, EMB.embed_query(m.content), SearchFilter(), 5) == []
    assert store.list(ALICE, SearchFilter()) == []
    with_archived = SearchFilter(statuses=(Status.ACTIVE, Status.ARCHIVED))
    assert [x.id for x in store.list(ALICE, with_archived)] == [m.id]
    assert [i for i, _ in store.keyword_search(ALICE, ["搬家"], with_archived, 5)] == [m.id]


# -- a Memory's maintenance on each store ---------------------------------------------------


@pytest.fixture
def life_clock() -> FakeClock:
    return FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


def open_memory(store: MemoryStore, clock: FakeClock, **life: object) -> Memory:
    cfg = MemoryConfig(lifecycle=LifecycleConfig(**life), tenant="t1")  # type: ignore[arg-type]
    return Memory(store=store, embedder=HashingEmbedder(dim=64), clock=clock, config=cfg)


@pytest.fixture
def lmem(store: MemoryStore, life_clock: FakeClock) -> Iterator[Memory]:
    m = open_memory(store, life_clock)
    yield m
    m.engine.reads.close()  # the store fixture closes (and drops) the store itself


def test_ttl_archives_the_memory_and_its_episode_then_restore_brings_both_back(
    lmem: Memory, life_clock: FakeClock
) -> None:
    res = lmem.add("我喜欢喝冷萃咖啡", user_id="alice", ttl=timedelta(days=2))
    (pref,) = [e.memory for e in res.events]
    assert pref.expires_at == life_clock.now + 2 * DAY
    assert all(ep.expires_at == life_clock.now + 2 * DAY for ep in res.episodes)
    life_clock.advance(days=1)
    assert lmem.maintain("alice").archived == {}
    life_clock.advance(days=1, minutes=1)
    assert lmem.search("冷萃", user_id="alice") == []  # expired: hidden before any sweep
    report = lmem.maintain("alice")
    assert report.archived == {"expired": 2}  # the preference and its episode (own expiry)
    assert lmem.list(user_id="alice", include_episodes=True) == []
    archived = lmem.list(user_id="alice", include_episodes=True, include_archived=True)
    assert {m.status for m in archived} == {Status.ARCHIVED}
    assert [h.action for h in lmem.history(pref.id)][-1] == Action.ARCHIVE
    back = lmem.restore(pref.id)
    assert back.status == Status.ACTIVE and back.expires_at is None
    assert len(lmem.list(user_id="alice", include_episodes=True)) == 2  # the episode followed
    assert [h.action for h in lmem.history(pref.id)][-1] == Action.RESTORE
    found = lmem.search("冷萃咖啡", user_id="alice", kinds=["preference"])
    assert [h.memory.id for h in found] == [pref.id]
    assert lmem.maintain("alice").archived == {}  # a restored memory starts a fresh TTL


def test_kind_ttl_archives_a_state_and_episodes_follow_it(
    lmem: Memory, life_clock: FakeClock
) -> None:
    state = item(Scope(tenant="t1", user_id="alice"), "用户今天很累", kind=MemoryKind.STATE)
    state = state.model_copy(
        update={"observed_at": life_clock.now, "source_message_ids": ["m1"], "topic": "state.累"}
    )
    ep = item(Scope(tenant="t1", user_id="alice"), "我今天好累", kind=MemoryKind.EPISODE)
    ep = ep.model_copy(update={"observed_at": life_clock.now, "source_message_ids": ["m1"]})
    put(lmem.store, Scope(tenant="t1", user_id="alice"), state, ep)
    life_clock.advance(days=1, hours=1)
    report = lmem.maintain("alice", dry_run=True)
    assert report.archived == {"expired": 1, "episode": 1} and report.dry_run
    assert len(lmem.list(user_id="alice", include_episodes=True)) == 2  # nothing written
    report = lmem.maintain("alice")
    assert report.archived == {"expired": 1, "episode": 1}
    assert lmem.list(user_id="alice", include_episodes=True) == []
    again = lmem.maintain("alice")  # idempotent
    assert again.archived == {} and again.purged == 0


def test_purge_after_retention_leaves_no_row_index_vector_or_history_content(
    lmem: Memory, life_clock: FakeClock
) -> None:
    res = lmem.add("我住在杭州西湖边", user_id="alice", ttl=60)
    assert res.events and res.episodes
    ids = [e.memory.id for e in res.events] + [ep.id for ep in res.episodes]
    life_clock.advance(minutes=2)
    lmem.maintain("alice")
    life_clock.advance(days=29)
    assert lmem.maintain("alice").purged == 0  # still within the 30-day retention
    life_clock.advance(days=2)
    report = lmem.maintain("alice")
    assert sorted(report.purged_ids) == sorted(ids)
    store = lmem.store
    scope = Scope(tenant="t1", user_id="alice")
    for i in ids:
        assert store.get("t1", i) is None
        trail = store.history("t1", i)
        assert trail[-1].action == Action.DELETE and all(h.content is None for h in trail)
    assert store.keyword_search(scope, ["杭州"], ALL, 5) == []
    assert store.vector_search(scope, EMB.embed_query("杭州"), ALL, 5) == []
    assert store.list(scope, ALL) == []


def test_inferred_memories_decay_and_are_archived_below_0_3(
    lmem: Memory, life_clock: FakeClock
) -> None:
    scope = Scope(tenant="t1", user_id="alice")
    guess = item(scope, "用户可能喜欢爵士乐", kind=MemoryKind.SUMMARY).model_copy(
        update={"origin": Origin.INFERRED, "confidence": 0.6, "observed_at": life_clock.now}
    )
    put(lmem.store, scope, guess)
    life_clock.advance(days=95)
    assert lmem.maintain("alice").decayed == 1
    got = lmem.get(guess.id)
    assert got is not None and got.confidence == pytest.approx(0.6 * 0.95**3)
    life_clock.advance(days=420 - 95)
    assert lmem.maintain("alice").archived == {"decayed": 1}


def test_the_per_user_cap_archives_the_least_valuable_first(
    store: MemoryStore, life_clock: FakeClock
) -> None:
    mem = open_memory(store, life_clock, max_active=2)
    try:
        scope = Scope(tenant="t1", user_id="alice")
        now = life_clock.now

        def fact(content: str, importance: float, topic: str) -> MemoryItem:
            return MemoryItem(
                id=new_id(),
                tenant="t1",
                user_id="alice",
                kind=MemoryKind.FACT,
                topic=topic,
                content=content,
                importance=importance,
                created_at=now,
                observed_at=now,
            )

        low, allergy, job = (
            fact("用户喜欢看球", 0.4, "hobby.ball"),
            fact("用户对花生过敏", 0.3, "health.allergy.花生"),
            fact("用户在银行工作", 0.6, "work.employer"),
        )
        put(store, scope, low, allergy, job)
        report = mem.maintain("alice")
        assert report.archived == {"cap": 1} and report.archived_ids == [low.id]
        assert {m.id for m in mem.list(user_id="alice")} == {allergy.id, job.id}
    finally:
        mem.engine.reads.close()


def test_search_reinforces_what_reached_the_caller(lmem: Memory, life_clock: FakeClock) -> None:
    res = lmem.add("我喜欢喝冷萃咖啡", user_id="alice")
    (pref,) = [e.memory for e in res.events]
    life_clock.advance(days=2)
    hits = lmem.search("冷萃咖啡", user_id="alice", top_k=1, kinds=["preference"])
    assert [h.memory.id for h in hits] == [pref.id]
    got = lmem.get(pref.id)
    assert got is not None and got.reinforced_at == life_clock.now
    assert got.importance == pytest.approx(min(0.95, pref.importance + 0.1))
    lmem.search("冷萃咖啡", user_id="alice", kinds=["preference"])  # the same day: once
    again = lmem.get(pref.id)
    assert again is not None and again.importance == got.importance


def test_a_run_that_dies_midway_loses_nothing_and_a_rerun_finishes_it(
    lmem: Memory, life_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = lmem.add("我住在杭州西湖边", user_id="alice", ttl=60)
    life_clock.advance(minutes=2)
    lmem.maintain("alice")  # archived
    life_clock.advance(days=31)
    lmem.add("我喜欢喝冷萃咖啡", user_id="alice", ttl=60)
    life_clock.advance(minutes=2)
    store = lmem.engine.store
    real_apply = store.apply

    def dies_at_the_purge(scope: Scope, changes: ChangeSet) -> None:
        if changes.deletes:
            raise RuntimeError("killed")
        real_apply(scope, changes)

    monkeypatch.setattr(store, "apply", dies_at_the_purge)
    with pytest.raises(RuntimeError):
        lmem.maintain("alice")
    monkeypatch.setattr(store, "apply", real_apply)
    archived = lmem.list(user_id="alice", include_episodes=True, include_archived=True)
    assert len(archived) == 4 and {m.status for m in archived} == {Status.ARCHIVED}
    again = lmem.maintain("alice")  # the sweep's work is done; the purge happens now
    assert again.archived == {} and again.purged == 2
    assert all(lmem.get(e.memory.id) is None for e in old.events)
    assert len(lmem.list(user_id="alice", include_episodes=True, include_archived=True)) == 2
