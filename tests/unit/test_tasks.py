"""``Memory.tasks`` and the pure task rules: input checks naming the field, versions, expiry
by the injected clock, which tasks a query is about, and the context block showing them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jiyi import Memory
from jiyi.core.tasks import check_task_key, check_task_state, match_tasks, task_line, task_text
from jiyi.core.users import TaskState, TaskStatus
from jiyi.embedders import HashingEmbedder
from jiyi.errors import InvalidInputError, StorageUnavailableError, VersionConflictError

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def task(key: str, state: dict[str, Any], minutes: int = 0) -> TaskState:
    at = T0 + timedelta(minutes=minutes)
    return TaskState(user_id="u", key=key, state=state, created_at=at, updated_at=at)


# -- input rules ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "field"),
    [("", "key"), ("  ", "key"), ("a/b", "key"), ("k" * 201, "key"), (3, "key"), ("a\nb", "key")],
)
def test_bad_keys_name_the_key(key: object, field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        check_task_key(key)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("state", "field"),
    [
        ([1], "state"),
        ("x", "state"),
        (None, "state"),
        ({1: "a"}, "state"),
        ({"a": float("nan")}, "state.a"),
        ({"a": [1, float("inf")]}, "state.a[1]"),
        ({"a": {"b": "x\x00"}}, "state.a.b"),
        ({"a\ud800": 1}, "state"),
        ({"when": datetime(2026, 1, 1)}, "state.when"),
        ({"big": "字" * 30_000}, "state"),
    ],
)
def test_bad_states_name_the_field(state: object, field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        check_task_state(state)
    assert err.value.field == field


def test_deep_nesting_is_refused() -> None:
    state: dict[str, Any] = {}
    node = state
    for _ in range(40):
        node["n"] = {}
        node = node["n"]
    with pytest.raises(InvalidInputError):
        check_task_state(state)


def test_a_good_state_is_stored_as_compact_json() -> None:
    assert check_task_state({"表": "报销", "n": [1, 2.5, None, True]}) == (
        '{"表":"报销","n":[1,2.5,null,true]}'
    )


# -- matching -------------------------------------------------------------------------------

TASKS = [  # most recently updated first
    task("trip-plan", {"city": "成都", "days": 3}, 3),
    task("reimbursement", {"form": "三月差旅报销单", "step": 2}, 2),
    task("expense_report", {"title": "March travel expenses"}, 1),
]


@pytest.mark.parametrize(
    ("query", "keys"),
    [
        ("继续上次的报销单", ["reimbursement"]),
        ("帮我继续填报销", ["reimbursement"]),  # jieba cuts 填报|销; the 报销 pair still counts
        ("接着规划成都的行程", ["trip-plan"]),
        ("let's continue the expense report", ["expense_report"]),
        ("where were we with the travel claim", ["expense_report"]),
        ("继续", ["trip-plan"]),  # a bare resume request: the latest task
        ("where were we?", ["trip-plan"]),
        ("继续上次的简历", []),  # names a task that is not there: none of the others
        ("推荐个菜", []),
        ("how is my running plan going", []),  # "plan" is any task's word
    ],
)
def test_which_tasks_a_query_is_about(query: str, keys: list[str]) -> None:
    assert [t.key for t in match_tasks(query, TASKS)] == keys


def test_meaning_matches_what_shares_no_word_and_words_rank_first() -> None:
    semantic = {"trip-plan": 0.9, "reimbursement": 0.2, "expense_report": 0.75}
    found = match_tasks("我的报销进度", TASKS, semantic=semantic, min_semantic=0.7)
    assert [t.key for t in found] == ["reimbursement", "trip-plan", "expense_report"]


def test_task_text_and_line() -> None:
    t = task("expense_report", {"title": "March", "items": [{"what": "taxi"}], "n": 3})
    assert task_text(t) == "expense report title March items what taxi n"
    assert task_line(t, "en").startswith("- expense_report (version 1, updated 2026-11-29): {")
    long = task("k", {"text": "字" * 500})
    assert task_line(long, "zh").endswith("…") and len(task_line(long, "zh")) < 340


# -- the library ----------------------------------------------------------------------------


def test_put_get_list_delete(mem: Memory, clock: Any) -> None:
    made = mem.tasks.put("u1", "reimbursement", {"form": "三月差旅报销单", "step": 2})
    assert (made.version, made.created_at) == (1, clock.now)
    clock.advance(minutes=1)
    again = mem.tasks.put("u1", "reimbursement", {"step": 3}, expected_version=1)
    assert (again.version, again.created_at, again.updated_at) == (2, made.created_at, clock.now)
    with pytest.raises(VersionConflictError) as err:
        mem.tasks.put("u1", "reimbursement", {"step": 9}, expected_version=1)
    assert (err.value.field, err.value.current) == ("expected_version", 2)
    mem.tasks.put("u1", "done-one", {"ok": True}, status="done")
    assert [t.key for t in mem.tasks.list("u1")] == ["done-one", "reimbursement"]
    assert [t.key for t in mem.tasks.list("u1", active_only=True)] == ["reimbursement"]
    assert mem.tasks.delete("u1", "reimbursement") is True
    assert mem.tasks.get("u1", "reimbursement") is None
    assert mem.tasks.delete("u1", "reimbursement") is False


def test_expiry_follows_the_clock(mem: Memory, clock: Any) -> None:
    mem.tasks.put("u1", "k", {"a": 1}, expires_at=clock.now + timedelta(hours=1))
    mem.tasks.put("u1", "iso", {"a": 1}, expires_at="2026-11-29T10:30:00+00:00")
    clock.advance(minutes=59)
    assert mem.tasks.get("u1", "k") is not None
    clock.advance(minutes=1)
    assert mem.tasks.get("u1", "k") is None
    assert [t.key for t in mem.tasks.list("u1")] == ["iso"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"user_id": ""}, "user_id"),
        ({"key": "a/b"}, "key"),
        ({"state": ["x"]}, "state"),
        ({"expected_version": -1}, "expected_version"),
        ({"expected_version": True}, "expected_version"),
        ({"expected_version": "1"}, "expected_version"),
        ({"status": "paused"}, "status"),
        ({"expires_at": "not a time"}, "expires_at"),
        ({"expires_at": datetime(2020, 1, 1, tzinfo=UTC)}, "expires_at"),
    ],
)
def test_bad_puts_write_nothing(mem: Memory, kwargs: dict[str, Any], field: str) -> None:
    args: dict[str, Any] = {"user_id": "u1", "key": "k", "state": {"a": 1}, **kwargs}
    with pytest.raises(InvalidInputError) as err:
        mem.tasks.put(args.pop("user_id"), args.pop("key"), args.pop("state"), **args)
    assert err.value.field == field
    assert mem.tasks.list("u1") == []


def test_list_refuses_a_non_boolean_filter(mem: Memory) -> None:
    with pytest.raises(InvalidInputError) as err:
        mem.tasks.list("u1", active_only="yes")  # type: ignore[arg-type]
    assert err.value.field == "active_only"


def test_the_context_opens_with_the_task_the_turn_resumes(mem: Memory) -> None:
    mem.add("我在杭州工作，是一名会计", user_id="u1")
    mem.tasks.put("u1", "reimbursement", {"form": "三月差旅报销单", "step": 2})
    mem.tasks.put("u1", "trip-plan", {"city": "成都", "days": 3})
    block = mem.context("继续上次的报销单", user_id="u1")
    assert [t.key for t in block.tasks] == ["reimbursement"]
    lines = block.text.splitlines()
    # The profile lines open the block (core/context.py rule 6), the task comes next.
    assert lines[1] == "[用户档案]" and "会计" in lines[2]
    assert lines[3] == "[进行中的任务]" and "三月差旅报销单" in lines[4]
    assert "成都" not in block.text
    assert mem.context("继续上次的报销单", user_id="u2").tasks == []  # another user's
    mem.tasks.put("u1", "reimbursement", {"form": "三月差旅报销单"}, status="done")
    assert mem.context("继续上次的报销单", user_id="u1").tasks == []


def test_a_small_budget_still_fits_the_task_before_memories(mem: Memory) -> None:
    mem.add("我喜欢喝美式咖啡，不加糖", user_id="u1")
    mem.tasks.put("u1", "coffee-order", {"drink": "美式咖啡", "size": "大杯"})
    block = mem.context("继续点咖啡", user_id="u1", token_budget=130)
    assert [t.key for t in block.tasks] == ["coffee-order"]
    assert block.tokens <= 130 and "美式咖啡" in block.text
    assert block.memories == []  # the memories did not fit; the task went first


def test_delete_user_takes_the_tasks(mem: Memory) -> None:
    mem.tasks.put("u1", "k", {"secret": "TASKMARK"})
    mem.tasks.put("u2", "k", {"other": 1})
    assert mem.delete_user("u1").removed["tasks"] == 1
    assert mem.tasks.list("u1") == [] and mem.tasks.get("u2", "k") is not None


def test_a_store_without_a_task_table_says_so(tmp_path: Path, clock: Any) -> None:
    from jiyi.storage.sqlite import SqliteMemoryStore

    class Plain:  # a MemoryStore that keeps no user tier
        def __init__(self) -> None:
            self._inner = SqliteMemoryStore(tmp_path / "plain.db")

        def __getattr__(self, name: str) -> Any:
            if name == "tasks":
                raise AttributeError(name)
            return getattr(self._inner, name)

    m = Memory(store=Plain(), embedder=HashingEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        with pytest.raises(StorageUnavailableError):
            m.tasks.put("u1", "k", {})
        m.add("我住在上海", user_id="u1")
        assert m.context("我住哪", user_id="u1").tasks == []  # context works without
        assert m.delete_user("u1").removed["memories"] >= 1
    finally:
        m.close()


def test_task_status_values() -> None:
    assert [s.value for s in TaskStatus] == ["active", "done"]
