"""Plain facts no rule read before (2026-12-05 XVIII): a pastime by its verb with an open
object or a time after it, a trade said by what the user does, common drinks, pets and breeds
the lexicon lacked. On the session-start code (5b57172) every text in STORED gave no
candidate at all; every text in NOT_STORED still gives none of the slot named."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import Message

STORED = [
    ("I do yoga", "pref.yoga"),
    ("I do Pilates on my days off", "pref."),
    ("I go fishing on my days off", "pref.fishing"),
    ("I collect vinyl records", "pref."),
    ("I run half marathons", "pref.half_marathon"),
    ("I hunt deer in the fall", "pref."),
    ("I cross-country ski in winter", "pref.cross-country_skiing"),
    ("I drink Diet Coke", "diet.soda.type"),
    ("I drink kombucha", "diet.tea.type"),
    ("我喝豆浆不加糖", "diet.soy_milk.type"),
    ("我喝啤酒", "diet.alcohol.type"),
    ("My dog is a springer spaniel called Rosie", "pet.dog.name"),
    ("I have a Boston terrier", "pet.dog.breed"),
    ("家里养了只大公鸡叫将军", "pet.chicken.name"),
    ("我在菜市场卖猪肉", "work.role"),
    ("我在昆明开出租车", "work.role"),
    ("我在補習班教英文", "work.role"),
    ("我是跑外卖的", "work.role"),
    ("我退休前是会计", "work.former_role"),
]
NOT_STORED = [
    ("I run a beauty parlour in Thane", "pref."),
    ("I do the dishes", "pref."),
    ("I would go fishing if I had time", "pref."),
    ("今天在菜市场卖了点菜", "work.role"),
    ("我想开出租车", "work.role"),
    ("我在家教孩子数学", "work.role"),
    ("我喝拿铁要换豆奶，少糖", "diet.soy_milk"),
    ("I do think so", "pref."),
    ("I do love it", "pref."),
    ("I fish for compliments", "pref."),
    ("I box up the orders at work", "pref."),
]


def _topics(text: str) -> list[str]:
    out = RuleExtractor().extract([Message(role="user", content=text)], now=datetime.now(UTC))
    return [c.topic or "" for c in out.candidates]


@pytest.mark.parametrize(("text", "slot"), STORED)
def test_a_plain_fact_is_stored_in_its_slot(text: str, slot: str) -> None:
    assert any(t.startswith(slot) for t in _topics(text)), _topics(text)


@pytest.mark.parametrize(("text", "slot"), NOT_STORED)
def test_a_chore_a_wish_or_one_days_doing_is_no_such_fact(text: str, slot: str) -> None:
    assert not any(t.startswith(slot) for t in _topics(text)), _topics(text)
