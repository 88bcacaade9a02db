"""Contract: the identity tier (``IdentityTier``) on every store — aliases linked once per
tenant (another user's alias refused, nothing written), resolved only in their tenant,
removed by ``delete_user``; drift flags and confirmations; the audit log outliving the user;
``merge_users`` moving memories (searchable as the target's), history, tasks and aliases in
one transaction, refusing a task both users hold; and ``indexed`` reading rows back with
their keywords and vectors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from test_store_contract import EMB, item, put

from jiyi.core.identity import AliasKind, IdentityEvent, SuspectSession
from jiyi.core.models import MemoryKind, Scope, Status
from jiyi.core.ports import IdentityStore, IdentityTier, MemoryStore, SearchFilter, UserTier
from jiyi.core.profile import ProfileOverride
from jiyi.core.text import keyword_text
from jiyi.core.users import TaskStatus
from jiyi.errors import AliasTakenError, ConflictError

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
ACME, OTHER = "acme", "globex"
PHONE = AliasKind.PHONE
D1, D2 = "a" * 64, "b" * 64  # digests (the store never sees an alias)


def tier(store: MemoryStore) -> IdentityTier:
    assert isinstance(store, IdentityTier)
    return store


def ids(store: MemoryStore) -> IdentityStore:
    return tier(store).identity


def test_a_linked_alias_resolves_and_lists_with_its_hint(store: MemoryStore) -> None:
    idt = ids(store)
    made = idt.link(ACME, "alice", PHONE, D1, "*******8000", T0)
    assert (made.kind, made.digest, made.hint, made.created_at) == (PHONE, D1, "*******8000", T0)
    assert idt.resolve(ACME, PHONE, D1) == "alice"
    assert idt.resolve(ACME, AliasKind.DEVICE, D1) is None  # the kind is part of the alias
    idt.link(ACME, "alice", AliasKind.EMAIL, D2, "a***@***.com", T0 + timedelta(minutes=1))
    assert [a.kind for a in idt.aliases(ACME, "alice")] == [PHONE, AliasKind.EMAIL]


def test_linking_twice_is_idempotent(store: MemoryStore) -> None:
    idt = ids(store)
    first = idt.link(ACME, "alice", PHONE, D1, "h", T0)
    again = idt.link(ACME, "alice", PHONE, D1, "h", T0 + timedelta(hours=1))
    assert again == first
    assert len(idt.aliases(ACME, "alice")) == 1


def test_another_users_alias_is_refused_and_nothing_moves(store: MemoryStore) -> None:
    idt = ids(store)
    idt.link(ACME, "alice", PHONE, D1, "h", T0)
    with pytest.raises(AliasTakenError) as err:
        idt.link(ACME, "bob", PHONE, D1, "h", T0)
    assert (err.value.code, err.value.status, err.value.field) == ("alias_taken", 409, "alias")
    assert "alice" not in str(err.value)  # the owner is never named
    assert idt.resolve(ACME, PHONE, D1) == "alice"
    assert idt.aliases(ACME, "bob") == []
    assert idt.unlink(ACME, "bob", PHONE, D1) is False  # bob cannot unlink alice's alias
    assert idt.resolve(ACME, PHONE, D1) == "alice"


def test_aliases_never_cross_tenants(store: MemoryStore) -> None:
    idt = ids(store)
    idt.link(ACME, "alice", PHONE, D1, "h", T0)
    assert idt.resolve(OTHER, PHONE, D1) is None
    assert idt.aliases(OTHER, "alice") == []
    # The same digest in another tenant is another alias (digests are keyed per tenant).
    idt.link(OTHER, "carol", PHONE, D1, "h", T0)
    assert (idt.resolve(ACME, PHONE, D1), idt.resolve(OTHER, PHONE, D1)) == ("alice", "carol")


def test_unlink_and_delete_user_remove_aliases(store: MemoryStore) -> None:
    idt = ids(store)
    idt.link(ACME, "alice", PHONE, D1, "h", T0)
    idt.link(ACME, "alice", AliasKind.DEVICE, D2, "h", T0)
    idt.link(ACME, "bob", AliasKind.LOGIN, D1, "h", T0)
    assert idt.unlink(ACME, "alice", PHONE, D1) is True
    assert idt.unlink(ACME, "alice", PHONE, D1) is False
    idt.record(ACME, IdentityEvent(user_id="alice", at=T0, action="alias_linked", actor="t"))
    idt.flag(ACME, SuspectSession(user_id="alice", session_id="s1", flagged_at=T0, slots=["x"]))
    removed = store.delete_user(Scope(tenant=ACME, user_id="alice"))
    assert (removed["aliases"], removed["suspect_sessions"]) == (1, 1)
    assert idt.aliases(ACME, "alice") == [] and idt.resolve(ACME, AliasKind.DEVICE, D2) is None
    assert idt.suspect(ACME, "alice", "s1") is None
    assert idt.resolve(ACME, AliasKind.LOGIN, D1) == "bob"
    # The audit log outlives the user (it holds no content).
    assert [e.action for e in idt.events(ACME, "alice", limit=10)] == ["alias_linked"]


def test_a_flag_is_confirmed_once_and_a_new_flag_clears_it(store: MemoryStore) -> None:
    idt = ids(store)
    assert idt.suspect(ACME, "alice", "s1") is None
    assert idt.confirm(ACME, "alice", "s1", at=T0, actor="x") is None
    slots = ["name", "age", "city"]
    idt.flag(ACME, SuspectSession(user_id="alice", session_id="s1", flagged_at=T0, slots=slots))
    flag = idt.suspect(ACME, "alice", "s1")
    assert flag is not None and (flag.slots, flag.confirmed_at) == (slots, None)
    assert idt.suspect(ACME, "bob", "s1") is None and idt.suspect(OTHER, "alice", "s1") is None
    t1 = T0 + timedelta(minutes=5)
    done = idt.confirm(ACME, "alice", "s1", at=t1, actor="key:k1")
    assert done is not None and (done.confirmed_at, done.confirmed_by) == (t1, "key:k1")
    later = idt.confirm(ACME, "alice", "s1", at=t1 + timedelta(hours=1), actor="other")
    assert later is not None and later.confirmed_at == t1  # the first confirmation stands
    idt.flag(ACME, SuspectSession(user_id="alice", session_id="s1", flagged_at=t1, slots=slots))
    again = idt.suspect(ACME, "alice", "s1")
    assert again is not None and again.confirmed_at is None


def test_events_are_newest_first_and_scoped(store: MemoryStore) -> None:
    idt = ids(store)
    for n, action in enumerate(("alias_linked", "suspect", "confirmed")):
        event = IdentityEvent(
            user_id="alice",
            at=T0 + timedelta(minutes=n),
            action=action,  # type: ignore[arg-type]
            actor="user",
            session_id="s1",
            detail={"slots": ["name", "age", "city"]} if action == "suspect" else {},
        )
        idt.record(ACME, event)
    got = idt.events(ACME, "alice", limit=10)
    assert [e.action for e in got] == ["confirmed", "suspect", "alias_linked"]
    assert got[1].detail == {"slots": ["name", "age", "city"]}
    assert len(idt.events(ACME, "alice", limit=1)) == 1
    assert idt.events(OTHER, "alice", limit=10) == [] and idt.events(ACME, "bob", limit=10) == []


def test_merge_moves_memories_history_tasks_and_aliases(store: MemoryStore) -> None:
    src, dst = Scope(tenant=ACME, user_id="phone-login"), Scope(tenant=ACME, user_id="alice")
    a = item(src, "用户住在上海", topic="location.home")
    b = item(dst, "用户喜欢喝冷萃咖啡")
    put(store, src, a)
    put(store, dst, b)
    put(
        store,
        Scope(tenant=OTHER, user_id="phone-login"),
        item(Scope(tenant=OTHER, user_id="phone-login"), "别人的"),
    )
    assert isinstance(store, UserTier)
    store.tasks.put(
        ACME,
        "phone-login",
        "报销",
        {"step": 2},
        status=TaskStatus.ACTIVE,
        expires_at=None,
        expected_version=None,
        now=T0,
    )
    ids(store).link(ACME, "phone-login", PHONE, D1, "h", T0)
    override = ProfileOverride(field="city", value="杭州", set_at=T0, set_by="library")
    store.profiles.set(ACME, "phone-login", override)
    counts = tier(store).merge_users(ACME, "phone-login", "alice")
    assert (counts["memories"], counts["tasks"], counts["aliases"]) == (1, 1, 1)
    assert counts["profile_overrides"] == 1
    assert store.profiles.current(ACME, "alice") == {"city": override}
    assert counts["history"] == 1
    all_rows = SearchFilter(statuses=tuple(Status))
    assert {m.id for m in store.list(dst, all_rows)} == {a.id, b.id}
    assert store.list(src, all_rows) == []
    # Searchable as the target's, in both channels, and no longer as the source's.
    assert a.id in [i for i, _ in store.keyword_search(dst, ["上海"], SearchFilter(), 10)]
    assert store.keyword_search(src, ["上海"], SearchFilter(), 10) == []
    q = EMB.embed_query("用户住在上海")
    assert a.id in [i for i, _ in store.vector_search(dst, q, SearchFilter(), 10)]
    assert store.vector_search(src, q, SearchFilter(), 10) == []
    assert [h.memory_id for h in store.history(ACME, a.id)] == [a.id]
    assert store.tasks.get(ACME, "alice", "报销", T0) is not None
    assert ids(store).resolve(ACME, PHONE, D1) == "alice"
    # The other tenant's user of the same name is untouched.
    assert len(store.list(Scope(tenant=OTHER, user_id="phone-login"), all_rows)) == 1


def test_a_task_both_users_hold_refuses_the_merge(store: MemoryStore) -> None:
    assert isinstance(store, UserTier)
    src = Scope(tenant=ACME, user_id="u2")
    put(store, src, item(src, "用户养了一只猫"))
    for user in ("u1", "u2"):
        store.tasks.put(
            ACME,
            user,
            "报销",
            {"who": user},
            status=TaskStatus.ACTIVE,
            expires_at=None,
            expected_version=None,
            now=T0,
        )
    with pytest.raises(ConflictError) as err:
        tier(store).merge_users(ACME, "u2", "u1")
    assert err.value.field == "tasks" and "报销" in str(err.value)
    assert len(store.list(src, SearchFilter())) == 1  # nothing moved
    assert store.tasks.get(ACME, "u2", "报销", T0).state == {"who": "u2"}  # type: ignore[union-attr]


def test_indexed_reads_rows_with_their_keywords_and_vectors(store: MemoryStore) -> None:
    scope = Scope(tenant=ACME, user_id="alice")
    ep = item(scope, "我今天去了西湖", kind=MemoryKind.EPISODE)
    fact = item(scope, "用户住在杭州", topic="location.home")
    put(store, scope, ep, fact)
    got = tier(store).indexed(ACME, "alice")
    assert [i.memory.id for i in got] == sorted([ep.id, fact.id])
    by_id = {i.memory.id: i for i in got}
    assert by_id[fact.id].keywords == keyword_text(fact.content)
    vec = by_id[fact.id].vector
    assert vec is not None and np.allclose(vec, EMB.embed_documents([fact.content])[0], atol=1e-6)
    assert by_id[fact.id].memory == fact
    assert tier(store).indexed(OTHER, "alice") == []
