"""Contract: the audit log (``AuditTier.audit``) on every store — append keeps order, newest
first with a cursor and ``since``, purge by age, users and tenants apart, and
``delete_user`` taking the user's rows with it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jiyi import Memory
from jiyi.core.audit import AuditEntry
from jiyi.core.models import Scope
from jiyi.core.ports import AuditStore, AuditTier, MemoryStore
from jiyi.embedders import HashingEmbedder

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def audit_of(store: MemoryStore) -> AuditStore:
    assert isinstance(store, AuditTier)
    return store.audit


def entry(user: str, minutes: int, action: str = "search", count: int = 1) -> AuditEntry:
    return AuditEntry.model_validate(
        {
            "user_id": user,
            "at": T0 + timedelta(minutes=minutes),
            "actor": "key:k1",
            "action": action,
            "count": count,
        }
    )


def test_an_unknown_user_has_an_empty_log(store: MemoryStore) -> None:
    assert audit_of(store).list("acme", "nobody") == []


def test_rows_come_back_newest_first_with_every_field(store: MemoryStore) -> None:
    log = audit_of(store)
    log.append("acme", [entry("alice", 0, "add", 3), entry("alice", 1, "search", 5)])
    log.append("acme", [entry("alice", 1, "delete", 1)])  # same time: id breaks the tie
    rows = log.list("acme", "alice")
    assert [(r.action, r.count, r.actor, r.at, r.user_id) for r in rows] == [
        ("delete", 1, "key:k1", T0 + timedelta(minutes=1), "alice"),
        ("search", 5, "key:k1", T0 + timedelta(minutes=1), "alice"),
        ("add", 3, "key:k1", T0, "alice"),
    ]
    ids = [r.id for r in rows]
    assert all(i is not None for i in ids) and ids == sorted(ids, reverse=True)  # type: ignore[type-var]


def test_a_cursor_pages_through_the_whole_log_once(store: MemoryStore) -> None:
    log = audit_of(store)
    log.append("acme", [entry("alice", i, count=i) for i in range(7)])
    seen: list[int] = []
    cursor: int | None = None
    while True:
        page = log.list("acme", "alice", limit=3, cursor=cursor)
        if not page:
            break
        seen += [r.count for r in page]
        cursor = page[-1].id
    assert seen == [6, 5, 4, 3, 2, 1, 0]


def test_since_keeps_only_rows_at_or_after_it(store: MemoryStore) -> None:
    log = audit_of(store)
    log.append("acme", [entry("alice", i, count=i) for i in range(5)])
    rows = log.list("acme", "alice", since=T0 + timedelta(minutes=3))
    assert [r.count for r in rows] == [4, 3]


def test_purge_drops_only_older_rows_of_the_tenant(store: MemoryStore) -> None:
    log = audit_of(store)
    log.append("acme", [entry("alice", 0), entry("bob", 1), entry("alice", 10)])
    log.append("globex", [entry("alice", 0)])
    assert log.purge("acme", T0 + timedelta(minutes=5)) == 2
    assert [r.at for r in log.list("acme", "alice")] == [T0 + timedelta(minutes=10)]
    assert log.list("acme", "bob") == []
    assert len(log.list("globex", "alice")) == 1  # another tenant's rows are never touched


def test_logs_never_cross_users_or_tenants(store: MemoryStore) -> None:
    log = audit_of(store)
    log.append("acme", [entry("alice", 0)])
    assert log.list("acme", "bob") == []
    assert log.list("globex", "alice") == []


def test_delete_user_takes_the_users_audit_rows(store: MemoryStore) -> None:
    log = audit_of(store)
    log.append("acme", [entry("alice", 0), entry("bob", 0)])
    removed = store.delete_user(Scope(tenant="acme", user_id="alice"))
    assert removed["audit"] == 1
    assert log.list("acme", "alice") == []
    assert len(log.list("acme", "bob")) == 1


def test_each_library_call_leaves_one_row_on_every_store(store: MemoryStore) -> None:
    mem = Memory(store=store, embedder=HashingEmbedder(), clock=lambda: T0)
    try:
        mem.add("我对花生过敏，我住在杭州", user_id="alice")
        hits = mem.search("花生", user_id="alice")
        block = mem.context("推荐个菜", user_id="alice")
        mem.profile("alice")
        mem.delete(hits[0].memory.id)
        rows = mem.audit("alice").entries
        assert [r.action for r in rows] == ["delete", "profile", "context", "search", "add"]
        assert (rows[1].count > 0, rows[2].count, rows[3].count) == (
            True,
            len(block.memories),
            len(hits),
        )
        assert mem.audit("alice", limit=2).next_cursor == str(rows[1].id)
        assert mem.audit("bob").entries == [] and audit_of(store).list("globex", "alice") == []
    finally:
        mem.engine.reads.close()
