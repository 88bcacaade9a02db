"""Contract: the memory switch (``UserTier.switches``) on every store — default on, a logged
change per move (none for a repeat), tenants and users apart, concurrent sets logging a
chain, and the switch outliving ``delete_user``."""

from __future__ import annotations

import itertools
import threading
from datetime import UTC, datetime, timedelta

from jiyi.core.models import Scope
from jiyi.core.ports import MemoryStore, SwitchStore, UserTier
from jiyi.core.users import MemorySwitch

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
OFF, ON, PAUSED = MemorySwitch.OFF, MemorySwitch.ON, MemorySwitch.PAUSED


def switches_of(store: MemoryStore) -> SwitchStore:
    assert isinstance(store, UserTier)
    return store.switches


def test_a_user_never_switched_is_on(store: MemoryStore) -> None:
    state = switches_of(store).get("acme", "alice")
    assert (state.memory, state.changed_at, state.changed_by) == (ON, None, None)
    assert switches_of(store).changes("acme", "alice", limit=10) == []


def test_each_move_is_stored_and_logged_and_a_repeat_is_not(store: MemoryStore) -> None:
    sw = switches_of(store)
    first = sw.set("acme", "alice", OFF, at=T0, actor="user", via="said")
    assert first is not None and (first.before, first.after) == (ON, OFF)
    assert sw.set("acme", "alice", OFF, at=T0 + timedelta(minutes=1), actor="x", via="api") is None
    later = T0 + timedelta(minutes=2)
    sw.set("acme", "alice", PAUSED, at=later, actor="key:abc", via="api")
    state = sw.get("acme", "alice")
    assert (state.memory, state.changed_at, state.changed_by) == (PAUSED, later, "key:abc")
    log = sw.changes("acme", "alice", limit=10)
    assert [(c.before, c.after, c.actor, c.via, c.at) for c in log] == [
        (OFF, PAUSED, "key:abc", "api", later),
        (ON, OFF, "user", "said", T0),
    ]
    assert len(sw.changes("acme", "alice", limit=1)) == 1


def test_switches_never_cross_users_or_tenants(store: MemoryStore) -> None:
    sw = switches_of(store)
    sw.set("acme", "alice", OFF, at=T0, actor="user", via="said")
    assert sw.get("acme", "bob").memory == ON
    assert sw.get("globex", "alice").memory == ON
    assert sw.changes("globex", "alice", limit=10) == []


def test_concurrent_sets_log_a_chain(store: MemoryStore) -> None:
    sw = switches_of(store)
    barrier = threading.Barrier(6)

    def one(i: int) -> None:
        barrier.wait()
        sw.set("acme", "alice", [OFF, PAUSED, ON][i % 3], at=T0, actor=f"w{i}", via="api")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    log = sw.changes("acme", "alice", limit=100)[::-1]  # oldest first
    assert log and log[0].before == ON
    for a, b in itertools.pairwise(log):
        assert a.after == b.before  # no two changes start from the same position
    assert sw.get("acme", "alice").memory == log[-1].after


def test_the_switch_and_its_log_outlive_delete_user(store: MemoryStore) -> None:
    sw = switches_of(store)
    sw.set("acme", "alice", OFF, at=T0, actor="user", via="said")
    store.delete_user(Scope(tenant="acme", user_id="alice"))
    assert sw.get("acme", "alice").memory == OFF
    assert len(sw.changes("acme", "alice", limit=10)) == 1
