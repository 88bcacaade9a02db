"""English changes that name only the new grade or town (issue 8 generalisation).

"I'm actually a junior now" / "Now I work from Portland" say the new value and no slot; the
grade replaces the one school stage holding a grade, the town the one place fact that shares
a word with the message. A friend's move, a trip, a wish and a sister's grade change nothing.
The sentences are written for the mechanism, not taken from a benchmark set. Behaviour runs
on the real default embedder.
"""

from __future__ import annotations

from _writes import active_contents as _active
from _writes import say as _say

from jiyi import Memory
from jiyi.core.typed_values_en import change_said_en, en_values


def test_en_values_and_change_cues_are_read() -> None:
    assert [(v.kind, v.surface) for v in en_values("I'm a senior now and I work in Tacoma")] == [
        ("grade", "senior"),
        ("town", "Tacoma"),
    ]
    assert en_values("Actually I'm a junior developer now") == []  # a rank at work
    assert [v.surface for v in en_values("Actually I work out of Dallas now")] == ["Dallas"]
    assert change_said_en("Now I work from Portland")
    assert not change_said_en("Actually my friend moved to Denver")
    assert not change_said_en("I visited Boston last week")
    assert not change_said_en("I might move to Austin now")


def test_a_new_grade_replaces_the_school_stage(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "typed-en-grade"
    _say(mem, module_clock, user, "I'm a sophomore in college", "I live in Denver")
    _say(mem, module_clock, user, "Actually my sister is a senior now")  # not the user's
    _say(mem, module_clock, user, "I hope to be a junior next fall")  # a wish
    assert "sophomore" in _active(mem, user)["education.stage"]
    _say(mem, module_clock, user, "Time flies, I'm actually a junior now")
    now = _active(mem, user)
    assert "junior" in now["education.stage"]
    assert "sophomore" not in " ".join(now.values())
    assert "Denver" in now["location.home"]


def test_a_new_town_replaces_the_place_it_shares_a_word_with(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "typed-en-town"
    _say(mem, module_clock, user, "I work in Seattle", "I live in Tacoma")
    _say(mem, module_clock, user, "My coworker works in Denver now")  # someone else
    _say(mem, module_clock, user, "I might work from Boston now and then")  # a maybe
    _say(mem, module_clock, user, "Actually I worked in Boston last week, a visit")  # a trip
    _say(mem, module_clock, user, "Honestly it's Boulder now")  # no word of either fact
    now = _active(mem, user)
    assert "Seattle" in now["location.work"] and "Tacoma" in now["location.home"]
    _say(mem, module_clock, user, "These days I work from Portland")
    now = _active(mem, user)
    assert "Portland" in now["location.work"]
    assert "Seattle" not in " ".join(now.values())
    assert "Tacoma" in now["location.home"]  # the other town is untouched
