"""How an English clause is told of the user (core/extraction/en_common.third_person_en)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi.core.extraction.en_common import third_person_en
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import Message

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("clause", "told"),
    [
        ("I'm allergic to peanuts", "User is allergic to peanuts"),
        ("my dog is called Max", "User's dog is called Max"),
        ("I never eat pork", "User never eats pork"),
        # a clause that goes on from "I" without saying it (before: "User: work at Google")
        ("work at Google as a nurse", "User works at Google as a nurse"),
        ("also play tennis on Sundays", "User also plays tennis on Sundays"),
        ("drink oat lattes", "User drinks oat lattes"),
        ("Started a new job at Kaiser", "User started a new job at Kaiser"),
    ],
)
def test_a_clause_is_told_of_the_user(clause: str, told: str) -> None:
    assert third_person_en(clause) == told


def test_a_second_clause_without_i_reads_as_a_sentence() -> None:
    said = "I'm Sam, I live in Denver and work at Google as a nurse"
    msg = Message(id="1", role="user", content=said, timestamp=NOW)
    found = RuleExtractor().extract([msg], now=NOW).candidates
    assert not [c.content for c in found if c.content.startswith("User: ")]
    assert "User works at Google as a nurse" in [c.content for c in found]
