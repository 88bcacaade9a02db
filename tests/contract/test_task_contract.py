"""Contract: keyed task state (``UserTier.tasks``) on every store — versions, optimistic
concurrency, expiry, scoping by tenant and user, and ``delete_user`` taking the tasks."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from jiyi.core.models import Scope
from jiyi.core.ports import MemoryStore, TaskStore, UserTier
from jiyi.core.users import TaskState, TaskStatus
from jiyi.errors import VersionConflictError

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
ACME, OTHER = "acme", "globex"
STATE: dict[str, Any] = {
    "form": "三月差旅报销单",
    "step": 3,
    "amount": 1280.5,
    "receipts": [{"no": "发票-001", "ok": True}, {"no": "INV-2", "ok": None}],
    "big": 2**53 + 1,
    "note": 'emoji 🧾 and \\ backslash "quoted"',
}


def tasks_of(store: MemoryStore) -> TaskStore:
    assert isinstance(store, UserTier)
    return store.tasks


def put(
    tasks: TaskStore,
    key: str = "reimbursement",
    state: dict[str, Any] | None = None,
    *,
    tenant: str = ACME,
    user: str = "alice",
    expected: int | None = None,
    expires_at: datetime | None = None,
    status: TaskStatus = TaskStatus.ACTIVE,
    now: datetime = T0,
) -> TaskState:
    return tasks.put(
        tenant,
        user,
        key,
        STATE if state is None else state,
        status=status,
        expires_at=expires_at,
        expected_version=expected,
        now=now,
    )


def test_a_put_creates_version_1_and_reads_back_equal(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    made = put(tasks)
    assert (made.user_id, made.key, made.version, made.status) == (
        "alice",
        "reimbursement",
        1,
        TaskStatus.ACTIVE,
    )
    assert made.state == STATE and made.created_at == made.updated_at == T0
    assert tasks.get(ACME, "alice", "reimbursement", T0) == made


def test_each_put_adds_one_to_the_version_and_keeps_created_at(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    put(tasks)
    later = T0 + timedelta(minutes=5)
    second = put(tasks, state={"step": 4}, expected=1, now=later)
    third = put(tasks, state={"step": 5}, now=later + timedelta(minutes=1))  # unconditional
    assert (second.version, third.version) == (2, 3)
    assert third.created_at == T0 and third.updated_at == later + timedelta(minutes=1)
    assert tasks.get(ACME, "alice", "reimbursement", later) == third


def test_a_stale_expected_version_conflicts_and_writes_nothing(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    put(tasks)
    put(tasks, state={"step": 4}, expected=1)
    with pytest.raises(VersionConflictError) as err:
        put(tasks, state={"step": 99}, expected=1)
    assert (err.value.field, err.value.current, err.value.code, err.value.status) == (
        "expected_version",
        2,
        "version_conflict",
        409,
    )
    got = tasks.get(ACME, "alice", "reimbursement", T0)
    assert got is not None and (got.version, got.state) == (2, {"step": 4})


def test_expected_version_of_a_missing_task_conflicts_with_current_0(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    with pytest.raises(VersionConflictError) as err:
        put(tasks, expected=3)
    assert err.value.current == 0
    assert tasks.get(ACME, "alice", "reimbursement", T0) is None


def test_expected_version_0_creates_only(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    assert put(tasks, expected=0).version == 1
    with pytest.raises(VersionConflictError) as err:
        put(tasks, state={"other": 1}, expected=0)
    assert err.value.current == 1
    got = tasks.get(ACME, "alice", "reimbursement", T0)
    assert got is not None and got.state == STATE


def put_together(tasks: TaskStore, expected: int, n: int = 8) -> tuple[list[int], int]:
    """``n`` threads put at once, all naming ``expected``: (versions won, conflicts)."""
    barrier = threading.Barrier(n)
    won: list[int] = []
    conflicts: list[int] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        barrier.wait()
        try:
            task = put(tasks, state={"writer": i}, expected=expected)
        except VersionConflictError:
            with lock:
                conflicts.append(i)
            return
        with lock:
            won.append(task.version)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return won, len(conflicts)


def test_of_concurrent_puts_naming_one_version_exactly_one_wins(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    put(tasks)
    won, conflicts = put_together(tasks, expected=1)
    assert (won, conflicts) == ([2], 7)
    got = tasks.get(ACME, "alice", "reimbursement", T0)
    assert got is not None and got.version == 2


def test_of_concurrent_creates_exactly_one_wins(store: MemoryStore) -> None:
    won, conflicts = put_together(tasks_of(store), expected=0)
    assert (won, conflicts) == ([1], 7)


def test_concurrent_unconditional_puts_all_land_one_version_each(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    barrier = threading.Barrier(6)
    versions: list[int] = []

    def one(i: int) -> None:
        barrier.wait()
        versions.append(put(tasks, state={"writer": i}).version)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(versions) == [1, 2, 3, 4, 5, 6]


def test_an_expired_task_does_not_exist(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    until = T0 + timedelta(hours=1)
    put(tasks, expires_at=until)
    put(tasks, "trip", {"city": "成都"})
    assert tasks.get(ACME, "alice", "reimbursement", until - timedelta(seconds=1)) is not None
    assert tasks.get(ACME, "alice", "reimbursement", until) is None  # at expires_at: gone
    assert [t.key for t in tasks.list(ACME, "alice", until, active_only=False)] == ["trip"]
    assert tasks.delete(ACME, "alice", "reimbursement", until) is False


def test_a_put_after_expiry_starts_afresh(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    until = T0 + timedelta(hours=1)
    put(tasks, expires_at=until)
    put(tasks, expected=1, expires_at=until)  # version 2, still expiring
    later = until + timedelta(minutes=1)
    with pytest.raises(VersionConflictError) as err:
        put(tasks, expected=2, now=later)  # the expired version is not the current one
    assert err.value.current == 0
    fresh = put(tasks, state={"new": True}, expected=0, now=later)
    assert (fresh.version, fresh.created_at, fresh.expires_at) == (1, later, None)


def test_list_is_newest_first_and_active_only_leaves_done_out(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    put(tasks, "a", {"n": 1}, now=T0)
    put(tasks, "b", {"n": 2}, now=T0 + timedelta(minutes=1), status=TaskStatus.DONE)
    put(tasks, "c", {"n": 3}, now=T0 + timedelta(minutes=2))
    now = T0 + timedelta(minutes=3)
    assert [t.key for t in tasks.list(ACME, "alice", now, active_only=False)] == ["c", "b", "a"]
    assert [t.key for t in tasks.list(ACME, "alice", now, active_only=True)] == ["c", "a"]
    assert tasks.list(ACME, "nobody", now, active_only=False) == []


def test_delete_says_whether_the_task_existed(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    put(tasks)
    assert tasks.delete(ACME, "alice", "reimbursement", T0) is True
    assert tasks.get(ACME, "alice", "reimbursement", T0) is None
    assert tasks.delete(ACME, "alice", "reimbursement", T0) is False
    assert put(tasks, expected=0).version == 1  # a deleted task can be created again


@pytest.mark.parametrize(
    ("tenant", "user"),
    [
        pytest.param(ACME, "bob", id="another-user"),
        pytest.param(OTHER, "alice", id="another-tenant"),
    ],
)
def test_tasks_never_cross_users_or_tenants(store: MemoryStore, tenant: str, user: str) -> None:
    tasks = tasks_of(store)
    mine = put(tasks)
    assert tasks.get(tenant, user, "reimbursement", T0) is None
    assert tasks.list(tenant, user, T0, active_only=False) == []
    assert tasks.delete(tenant, user, "reimbursement", T0) is False
    with pytest.raises(VersionConflictError):
        put(tasks, tenant=tenant, user=user, expected=1)  # alice's version is not theirs
    theirs = put(tasks, state={"theirs": True}, tenant=tenant, user=user)
    assert theirs.version == 1
    assert tasks.get(ACME, "alice", "reimbursement", T0) == mine


def test_delete_user_takes_the_users_tasks_and_nobody_elses(store: MemoryStore) -> None:
    tasks = tasks_of(store)
    put(tasks)
    put(tasks, "trip", {"city": "成都"})
    put(tasks, user="bob")
    put(tasks, tenant=OTHER)
    removed = store.delete_user(Scope(tenant=ACME, user_id="alice"))
    assert removed["tasks"] == 2
    assert tasks.list(ACME, "alice", T0, active_only=False) == []
    assert tasks.get(ACME, "bob", "reimbursement", T0) is not None
    assert tasks.get(OTHER, "alice", "reimbursement", T0) is not None
    assert store.delete_user(Scope(tenant=ACME, user_id="alice"))["tasks"] == 0
