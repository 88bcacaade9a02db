"""A no to the assistant's question, with the new value (core/answers.py: pure functions)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi.core.answers import asked_value, denied_with, is_question
from jiyi.core.models import MemoryItem, MemoryKind

T = datetime(2026, 3, 1, tzinfo=UTC)


def _fact(content: str, topic: str, value: str) -> MemoryItem:
    return MemoryItem(
        id=content, tenant="t", user_id="u", kind=MemoryKind.FACT, content=content, topic=topic,
        value=value, created_at=T, observed_at=T,
    )  # fmt: skip


FACTS = [
    _fact("User lives in Denver", "location.home", "Denver"),
    _fact("User works at Google", "work.employer", "Google"),
    _fact("User drinks oat lattes", "diet.coffee.type", "oat latte"),
    _fact("用户在华为上班", "work.employer", "华为"),
]


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("nope, Austin now", "Austin"),
        ("nah, Meta since March", "Meta"),
        ("nah mate, Brisbane these days", "Brisbane"),
        ("No, I moved to Austin last year", "Austin"),
        ("nah, cold brew now", "cold brew"),
        ("早走了，现在在字节", "字节"),
        ("不是了，现在喝拿铁", "拿铁"),
        ("没，改名叫花花了", "花花"),
    ],
)
def test_a_no_with_a_short_value_gives_the_value(answer: str, value: str) -> None:
    assert denied_with(answer) == value


@pytest.mark.parametrize(
    "answer",
    ["yep", "nope", "no way", "no, still there", "no, I hate it", "没有，还在华为",
     "不是了，还在那", "没有，还叫咪咪", "sounds good",
     "No, but my brother moved to Austin and loves it there"],
)  # fmt: skip
def test_a_yes_a_bare_no_or_a_long_answer_gives_nothing(answer: str) -> None:
    assert denied_with(answer) is None


def test_the_question_names_one_stored_value() -> None:
    assert asked_value("Do you still live in Denver?", FACTS) is FACTS[0]
    assert asked_value("Still drinking oat lattes?", FACTS) is FACTS[2]
    assert asked_value("你还在华为吗？", FACTS) is FACTS[3]
    assert asked_value("Do you still live in Denver and work at Google?", FACTS) is None
    assert asked_value("Any plans this weekend?", FACTS) is None
    assert asked_value("Is Denverton nice?", FACTS) is None


def test_questions_are_told_from_statements() -> None:
    assert is_question("Do you still live in Denver?")
    assert is_question("你还在华为上班吗")
    assert not is_question("Great, enjoy the move!")
