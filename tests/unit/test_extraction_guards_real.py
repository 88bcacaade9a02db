"""Remarks that must not touch a fact of another meaning (issue 8: zero collateral), on the
real default embedder: a clause about who gave a name is not a new name, and a workplace that
moved is not the user's home."""

from __future__ import annotations

import pytest
from _writes import active_values, say

from jiyi import Memory
from jiyi.core.extraction.topics import is_name


@pytest.mark.parametrize(
    ("facts", "remark", "slot", "value"),
    [
        (
            ["我女儿叫朵朵", "我住在深圳"],
            "其实我女儿的名字是她爷爷取的",
            "family.daughter.name",
            "朵朵",
        ),
        (
            ["My son is called Leo"],
            "Actually his name was picked by his grandma",
            "family.son.name",
            "Leo",
        ),
    ],
)
def test_a_remark_about_a_name_keeps_the_name(  # type: ignore[no-untyped-def]
    real_mem: Memory, clock, facts: list[str], remark: str, slot: str, value: str
) -> None:
    say(real_mem, clock, "u", *facts, days=0, hours=1)
    assert active_values(real_mem, "u").get(slot) == value
    say(real_mem, clock, "u", remark, days=0, hours=1)
    assert active_values(real_mem, "u").get(slot) == value


@pytest.mark.parametrize(
    ("home", "work", "moved", "home_value", "work_value"),
    [
        (
            "I live in Manhattan",
            "I work in Midtown",
            "My office relocated to Brooklyn, so that's where I commute now",
            "Manhattan",
            "Brooklyn",
        ),
        ("我住在上海", "我在浦东上班", "我们公司今年搬到杭州了", "上海", "杭州"),
    ],
)
def test_a_workplace_move_is_not_a_home_move(  # type: ignore[no-untyped-def]
    real_mem: Memory, clock, home: str, work: str, moved: str, home_value: str, work_value: str
) -> None:
    say(real_mem, clock, "u", home, work, moved, days=0, hours=1)
    facts = active_values(real_mem, "u")
    assert facts.get("location.home") == home_value, facts
    assert facts.get("location.work") == work_value, facts


def test_is_name() -> None:
    assert is_name("朵朵") and is_name("阿橘") and is_name("Lila Rose")
    assert not is_name("她爷爷取的") and not is_name("her") and not is_name("什么")
    assert not is_name("") and not is_name("一个很长很长的名字吧")
    assert not is_name("at [PHONE]") and not is_name("later")


@pytest.mark.parametrize(
    "text",
    [
        "Call me at 555-201-3344",  # a phone number is not a name (nor worth keeping alone)
        "I'm thinking about maybe getting a tattoo, not sure yet",  # a hedged wish
        "I'm considering whether to learn the drums",
    ],
)
def test_nothing_long_term_from(mem: Memory, text: str) -> None:  # fresh user: no similarity
    mem.add([{"role": "user", "content": text}], user_id="u")
    assert active_values(mem, "u") == {}
