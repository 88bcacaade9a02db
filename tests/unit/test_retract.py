"""Retraction cues bound to a value, and which stored slots they may touch (pure core)."""

from __future__ import annotations

import pytest

from jiyi.core.retract import find_retractions
from jiyi.core.retract_holds import holds
from jiyi.core.slots import alias_slots, carry_over


def phrases(text: str) -> list[tuple[str, ...]]:
    return [r.phrases for r in find_retractions(text)]


@pytest.mark.parametrize(
    ("text", "phrase", "kind"),
    [
        ("我搞错了，我是对螃蟹过敏，虾没事", "虾", "fine"),
        ("我现在不吃素了，医生说我缺蛋白质", "吃素", "stopped"),
        ("我妈现在不在信阳了，搬去三亚养老了", "信阳", "stopped"),
        ("膝盖受伤以后跑不了步了，现在改成游泳了", "跑步", "stopped"),
        ("我已經不在銀行做了", "银行", "work"),  # traditional, read as simplified
        ("烟我已经戒了", "烟", "stopped"),
        ("我从美式换成拿铁了", "美式", "stopped"),
        ("不是围棋而是象棋", "围棋", "wrong"),
        (
            "Sorry, I got that wrong — it's walnuts I'm allergic to, almonds are fine",
            "almonds",
            "fine",
        ),
        ("These days I take my coffee black, I gave up sugar", "sugar", "stopped"),
        ("I switched from green tea to rooibos because of the caffeine", "green tea", "stopped"),
        ("I don't drink coffee anymore", "coffee", "stopped"),
        ("I no longer live in Boston", "boston", "stopped"),
        ("Bear is actually a golden retriever, not a lab", "lab", "wrong"),
        ("咖啡我已经不喝了", "咖啡", "stopped"),
        ("更正一下，我画的是油画，不是水彩", "水彩", "wrong"),
        ("我女儿不叫甜甜了，改名叫朵朵", "甜甜", "stopped"),
        ("我不在腾讯上班了，现在在字节", "腾讯", "work"),
        ("I don't work at Target anymore", "target", "work"),
        ("She's not called Luna anymore", "luna", "stopped"),
        ("Bear isn't a lab", "lab", "wrong"),
        ("以前住北京，现在住上海", "北京", "stopped"),
        ("刚才说的虾是错的", "虾", "wrong"),
        ("我不再养猫了", "养猫", "stopped"),
        ("I'm no longer allergic to walnuts", "walnuts", "fine"),
        ("I can eat shrimp now", "shrimp", "fine"),
        ("No more coffee for me", "coffee", "stopped"),
        ("we packed up and left Phoenix in June", "phoenix", "stopped"),
        ("I stopped drinking coffee", "coffee", "stopped"),
    ],
)
def test_cue_binds_its_value(text: str, phrase: str, kind: str) -> None:
    found = [r for r in find_retractions(text) if phrase in r.phrases]
    assert found and found[0].kind == kind


@pytest.mark.parametrize(
    "text",
    [
        "我昨天吃了虾，没事",
        "我不去上海了",
        "其实我更喜欢喝绿茶",
        "Actually I prefer green tea",
        # a worry or a condition ends nothing
        "我怕以后跑不了步了",
        "如果不吃素了会不会胖",
        "I'm worried I'll have to give up coffee",
        "If I quit smoking I'd feel better",
        "I'm fine",
    ],
)
def test_no_value_bound_no_retraction(text: str) -> None:
    assert phrases(text) == []


def test_relative_named_in_the_clause_is_the_subject() -> None:
    (r,) = find_retractions("我妈现在不在信阳了")
    assert r.subject == "mother"
    (r,) = find_retractions("My brother quit cooking")
    assert r.subject == "brother"
    (r,) = find_retractions("我不在信阳了")
    assert r.subject is None


@pytest.mark.parametrize(
    ("text", "topic", "value", "content", "ok"),
    [
        # keyed slots by their object, plural and simplified/traditional normalised
        ("虾没事", "health.allergy.虾", "yes", "用户对虾过敏", True),
        ("almonds are fine", "health.allergy.almond", "yes", "User is allergic to almonds", True),
        ("膝盖受伤以后跑不了步了", "pref.跑步", "like", "用户喜欢跑步", True),
        ("我不吃素了", "habit.素", "yes", "用户平时吃素", True),
        # the head of a value: sugar of "two sugars", tea of "green tea", an abbreviation
        ("I gave up sugar", "diet.coffee.sugar", "two sugars", "User drinks …", True),
        ("I gave up tea", "diet.tea.type", "green tea", "User drinks green tea", True),
        ("not a lab", "pet.dog.breed", "labrador", "User's dog is a labrador", True),
        # a memory without a value by its content, only for the relative the clause names
        ("我妈不在信阳了", "family.mother.about", None, "用户的妈住在老家信阳", True),
        ("我妈不在信阳了", "family.sister.about", None, "用户的姐住在信阳", False),
        ("我不在信阳了", "family.mother.about", None, "用户的妈住在老家信阳", False),
        # a "fine" cue withdraws a risk, never a like; a "stopped" cue never an allergy
        ("虾没事", "pref.虾", "like", "用户喜欢吃虾", False),
        ("我不吃虾了", "health.allergy.虾", "yes", "用户对虾过敏", False),
        # work said as its activity; a lone character is no value
        ("My brother quit cooking", "family.brother.job", "chef", "User's brother is a chef", True),
        ("我爸不教书了", "family.father.job", "老师", "用户的爸是老师", True),
        ("我不教书了", "pref.书", "like", "用户喜欢看书", False),
        # a stop said of a place of work touches the job, not where the user lives
        ("我已经不在北京上班了", "location.home", "北京", "用户住在北京", False),
        ("我已经不在北京上班了", "location.work", "北京", "用户在北京上班", True),
        (
            "I don't work in Boston anymore",
            "location.home",
            "Boston",
            "User lives in Boston",
            False,
        ),
        ("I no longer work at Target", "work.employer", "Target", "User works at Target", True),
        ("I don't live in Boston anymore", "location.home", "Boston", "User lives in Boston", True),
        # another value of the slot, or a value that only contains the phrase
        ("虾没事", "health.allergy.螃蟹", "yes", "用户对螃蟹过敏", False),
        ("I gave up sugar", "diet.coffee.milk", "oat milk", "User takes oat milk", False),
    ],
)
def test_holds_only_the_literal_value_in_an_allowed_slot(
    text: str, topic: str, value: str | None, content: str, ok: bool
) -> None:
    found = find_retractions(text)
    assert found
    assert any(holds(r, topic, value, content) for r in found) is ok


@pytest.mark.parametrize(
    ("old", "old_value", "new", "new_value", "out"),
    [
        # the new sentence says less around its value: the old one with the value swapped
        (
            "User is a sophomore in college",
            "sophomore",
            "User is a junior now",
            "junior",
            "User is a junior in college",
        ),
        ("用户的女儿在读初二", "初二", "用户的女儿现在初三了", "初三", "用户的女儿在读初三"),
        # the new sentence says something else or no less: kept as said
        ("用户住在北京", "北京", "用户搬到上海了", "上海", "用户搬到上海了"),
        (
            "User lives in Boston",
            "Boston",
            "User lives in Denver now",
            "Denver",
            "User lives in Denver now",
        ),
        # one value inside the other: the old sentence would say both
        (
            "用户每天早上七点起床跑步",
            "每天早上",
            "用户每天早上六点起床跑步",
            "每天早上六点",
            "用户每天早上六点起床跑步",
        ),
        # keyed slots hold a polarity, not a value said in the text
        ("用户喜欢跑步", "like", "用户不喜欢跑步了", "dislike", "用户不喜欢跑步了"),
    ],
)
def test_carry_over_keeps_the_old_sentence_only_when_the_new_one_says_less(
    old: str, old_value: str, new: str, new_value: str, out: str
) -> None:
    assert carry_over(old, old_value, new, new_value) == out


def test_a_relatives_home_and_city_are_one_attribute() -> None:
    assert alias_slots("family.sister.city") == ("family.sister.home",)
    assert alias_slots("family.sister.home") == ("family.sister.city",)
    assert alias_slots("location.home") == ()
    assert alias_slots("family.sister.name") == ()


def test_a_denial_after_a_statement_names_the_replacement_and_its_subject() -> None:
    (r,) = find_retractions("更正一下，我画的是油画，不是水彩")
    assert (r.phrases, r.replacement, r.subject) == (("水彩",), "油画", None)
    (r,) = find_retractions("我女儿叫朵朵，不是甜甜")
    assert (r.phrases, r.replacement, r.subject) == (("甜甜",), "朵朵", "daughter")
