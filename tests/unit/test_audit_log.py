"""The audit log through the library: one row per call that reads or changes a user's
data, with the right action, actor and count, never any content; erasure, retention and
a failing append that never fails the call."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from jiyi import Memory
from jiyi.core.audit import AuditEntry

QUERY = "花生酱三明治配方"
SAID = "我对花生过敏，我住在杭州西湖区"


def log_of(mem: Memory, user: str = "u1") -> list[AuditEntry]:
    return mem.audit(user, limit=1000).entries


def audit_table(mem: Memory) -> str:
    """Every value of every audit row, as one string."""
    path = Path(str(mem.store.path))  # type: ignore[attr-defined]
    mem.engine.reads.settle()
    with sqlite3.connect(path) as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(audit_log)")]
        rows = db.execute("SELECT * FROM audit_log").fetchall()
    assert columns == ["id", "tenant", "user_id", "at", "actor", "action", "n"]
    return repr(rows)


def test_each_call_leaves_one_row_with_its_count(mem: Memory) -> None:
    added = mem.add(SAID, user_id="u1")
    written = len(added.events) + len(added.episodes)
    assert [(e.action, e.count) for e in log_of(mem)] == [("add", written)]
    hits = mem.search("花生", user_id="u1")
    block = mem.context(QUERY, user_id="u1")
    profile_rows = len(log_of(mem))
    mem.profile("u1")
    listed = mem.list(user_id="u1")
    mem.get(listed[0].id)
    mem.update(listed[0].id, "我对花生和芝麻过敏")
    mem.delete(listed[0].id)
    actions = [(e.action, e.count) for e in reversed(log_of(mem))]
    assert actions[:3] == [
        ("add", written),
        ("search", len(hits)),
        ("context", len(block.memories)),
    ]
    assert profile_rows == 3 and actions[3][0] == "profile" and actions[3][1] >= 1
    assert actions[4:] == [("list", len(listed)), ("get", 1), ("update", 1), ("delete", 1)]
    assert {e.actor for e in log_of(mem)} == {"library"}


def test_no_content_reaches_the_audit_table(mem: Memory) -> None:
    mem.add(SAID, user_id="u1")
    mem.search(QUERY, user_id="u1")
    mem.context(QUERY, user_id="u1")
    mem.profile("u1")
    mem.export("u1")
    table = audit_table(mem)
    assert "search" in table and "export" in table  # the rows are there …
    for text in (QUERY, "花生", "杭州", "西湖", "过敏"):  # … and none of the words
        assert text not in table


def test_the_agent_is_the_actor_and_users_are_apart(mem: Memory) -> None:
    mem.add("I like green tea", user_id="u1", agent_id="helper")
    mem.search("tea", user_id="u2")
    assert [(e.actor, e.action) for e in log_of(mem)] == [("agent:helper", "add")]
    assert [(e.actor, e.action) for e in log_of(mem, "u2")] == [("library", "search")]


def test_a_view_names_its_actor(mem: Memory) -> None:
    view = Memory.on(mem.engine, mem.config.tenant, actor="key:k42")
    view.search("tea", user_id="u1")
    assert [(e.actor, e.action) for e in log_of(mem)] == [("key:k42", "search")]
    other = Memory.on(mem.engine, "globex")
    assert other.audit("u1").entries == []  # another tenant's log is another log


def test_pages_follow_the_cursor(mem: Memory) -> None:
    for _ in range(5):
        mem.search("tea", user_id="u1")
    first = mem.audit("u1", limit=2)
    second = mem.audit("u1", limit=2, cursor=first.next_cursor)
    third = mem.audit("u1", limit=2, cursor=second.next_cursor)
    ids = [e.id for p in (first, second, third) for e in p.entries]
    assert len(ids) == 5 == len(set(ids)) and third.next_cursor is None


def test_delete_user_keeps_only_the_erasure_row(mem: Memory) -> None:
    mem.add(SAID, user_id="u1")
    mem.search(QUERY, user_id="u1")
    mem.add("I like green tea", user_id="u2")
    receipt = mem.delete_user("u1")
    rows = log_of(mem)
    assert [(e.action, e.count) for e in rows] == [("delete_user", receipt.removed["memories"])]
    assert receipt.removed["audit"] == 2
    assert [e.action for e in log_of(mem, "u2")] == ["add"]


def test_maintenance_purges_rows_past_the_retention(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.search("tea", user_id="u1")
    clock.advance(days=100)
    mem.search("tea", user_id="u1")
    clock.advance(days=81)  # the first row is 181 days old, the second 81
    report = mem.maintain("u1")
    assert report.audit_purged == 1
    assert [e.action for e in log_of(mem)] == ["search"]
    assert log_of(mem)[0].at == clock.now - timedelta(days=81)


def test_a_failed_append_never_fails_the_call(mem: Memory) -> None:
    path = Path(str(mem.store.path))  # type: ignore[attr-defined]
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE audit_log")
    result = mem.add(SAID, user_id="u1")
    mem.engine.reads.settle()
    assert result.events and mem.engine.reads.audit_failures == 1
    assert mem.search("花生", user_id="u1")  # reads go on too
