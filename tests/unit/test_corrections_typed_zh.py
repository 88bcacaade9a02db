"""Chinese changes that name only the new value of a kind (issue 8, dev set l studied).

A weekday, a clock time or a count said with a change word (挪到 / 提前到 / 现在…) takes the
place of the same kind in the one stored fact the message repeats a word of; a count said
alone, of the one fact with that measure word. The sentences are written for the mechanism,
not taken from the benchmark set. Someone else's change, a condition, another drink, and a
colleague's move (which once retired the user's own city) change nothing. Behaviour runs on
the real default embedder.
"""

from __future__ import annotations

from _writes import active_contents as _active
from _writes import say as _say

from jiyi import Memory
from jiyi.core.typed_values import change_clauses, typed_values


def test_typed_values_are_read_by_kind() -> None:
    kinds = [(v.kind, v.surface, v.unit) for v in typed_values("每周二晚上七点半游两趟，每周三次")]
    assert kinds == [("weekday", "周二晚上", ""), ("clock", "七点半", ""), ("count", "两趟", "趟")]
    assert change_clauses("网球改到周四了，要是下雨就算了") == ["网球改到周四了"]
    assert change_clauses("要不要改到周四？") == []


def test_a_new_weekday_replaces_the_routines_day(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "typed-weekday"
    _say(mem, module_clock, user, "我住在青岛", "我每周二下午去打网球", "我每天早上七点起床")
    _say(mem, module_clock, user, "我同事把网球课挪到周五了")  # not the user's
    _say(mem, module_clock, user, "要是周二下雨，网球就改到周四")  # a condition
    _say(mem, module_clock, user, "网球场现在周三闭馆")  # the place's hours
    assert "周二" in _active(mem, user)["habit.网球"]
    _say(mem, module_clock, user, "教练周二没空，网球课以后改到周四下午")
    now = _active(mem, user)
    assert "周四" in now["habit.网球"]
    assert "周二" not in " ".join(now.values())
    assert "七点" in " ".join(now.values())  # the other timed routine is untouched
    assert now["location.home"] == "用户住在青岛"
    top = mem.search("我哪天打网球", user_id=user, top_k=3)[0].memory
    assert "周四" in top.content


def test_a_new_clock_time_and_a_count_said_alone(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "typed-clock"
    _say(mem, module_clock, user, "我每天晚上十一点睡觉", "我每天跑五公里", "我每天喝三杯咖啡")
    _say(mem, module_clock, user, "为了早起，睡觉时间提前到十点半了")
    _say(mem, module_clock, user, "其实我现在一天喝一杯奶茶")  # another drink: not the coffee
    now = _active(mem, user)
    assert "十点半" in " ".join(now.values())
    assert "十一点" not in " ".join(now.values())
    assert "三杯咖啡" in " ".join(now.values())
    _say(mem, module_clock, user, "膝盖不太舒服，现在三公里就够了")
    now = _active(mem, user)
    assert "三公里" in " ".join(now.values())
    assert "五公里" not in " ".join(now.values())
    assert "三杯咖啡" in " ".join(now.values())


def test_a_colleagues_move_keeps_the_users_city(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "typed-colleague"
    _say(mem, module_clock, user, "我住在武汉", "我在银行上班")
    _say(mem, module_clock, user, "其实我室友前阵子从武汉搬到长沙了，他不住武汉了")
    assert _active(mem, user)["location.home"] == "用户住在武汉"
    _say(mem, module_clock, user, "我也从武汉搬到长沙了")
    assert "长沙" in _active(mem, user)["location.home"]


def test_a_wake_up_time_by_its_verb_and_a_day_keeps_its_evening(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "typed-verb"
    _say(mem, module_clock, user, "我每天早上七点半起床", "我每周三晚上去练拳", "我住在太原")
    _say(mem, module_clock, user, "现在晚上十点就睡了，早上老是起不来")  # no new time to get up
    assert "七点半" in " ".join(_active(mem, user).values())
    _say(mem, module_clock, user, "天亮得早，现在早上六点就起了")
    _say(mem, module_clock, user, "练拳挪到周五了，周三要值班")
    joined = " ".join(_active(mem, user).values())
    assert "早上六点" in joined and "七点半" not in joined
    assert "周五晚上" in joined and "周三晚上" not in joined
    assert "太原" in joined
