"""English changes of work and of a named pet or child said the way people chat (issue 8,
dev set y studied):

- a job said by the trade's own verb ("I wait tables at X", "I'm tending bar at Y now"), a
  bar "called X" being X;
- where the work runs from ("I drive a bus out of X", "they transferred me to the Y depot");
- back at the office ("I've gone back to the office full time") after working from home;
- what is done where ("I'm doing pediatrics at X now") after leaving the old employer;
- a pet's or child's age or school year said of its name alone ("Mochi is 4 years old",
  "Theo started fourth grade"), kept only for a pet or child stored under that name;
- a breed denied before the right one is said, by whoever found out ("Rocky isn't a boxer
  at all, the vet says he's a bulldog").

The wording is not the benchmark's. Each change retires the old value and keeps every other
fact; its twin (someone else's news, a day at the office, a name nobody stored) changes
nothing. Real default embedder.
"""

from __future__ import annotations

import pytest
from _writes import EN_BACKGROUND, active, active_contents, extract_slots, facts_naming, say

from jiyi import Memory

# (user, facts, the message, a word of the new value, the old value)
CHANGES = [
    (
        "trade-verb",
        ["I wait tables at Denny's"],
        "I'm tending bar at the Broken Spoke now, way better tips",
        "Broken Spoke",
        "Denny's",
    ),
    (
        "trade-called",
        ["I bartend at a pub called The Crown"],
        "The Crown shut down, so I'm pouring pints at The Red Lion now",
        "Red Lion",
        "Crown",
    ),
    (
        "depot",
        ["I drive a bus out of Tacoma"],
        "they transferred me to the Olympia depot last month",
        "Olympia",
        "Tacoma",
    ),
    (
        "back-to-office",
        ["I work from home"],
        "I've gone back to the office full time, no more pajama meetings",
        "office",
        "from home",
    ),
    (
        "doing-field",
        ["I'm a nurse at Kaiser"],
        "Left Kaiser in June, I'm doing pediatrics at Mercy General now",
        "Mercy General",
        "nurse at Kaiser",
    ),
    (
        "pet-age-by-name",
        ["I have a cat named Mochi", "Mochi is 4 years old"],
        "Mochi turned five last week, still acts like a kitten",
        "five",
        "4 years",
    ),
    (
        "child-grade-by-name",
        ["My son Theo is in 3rd grade"],
        "can't believe Theo started fourth grade this week",
        "fourth",
        "3rd grade",
    ),
    (
        "breed-denied-first",
        ["My dog Rocky is a boxer"],
        "Rocky isn't a boxer at all, the DNA test says he's a bulldog mix",
        "bulldog",
        "boxer",
    ),
]


@pytest.mark.parametrize(
    ("user", "facts", "message", "new", "old"), CHANGES, ids=[c[0] for c in CHANGES]
)
def test_the_change_of_work_or_of_a_named_one_lands(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory,
    module_clock,
    user: str,
    facts: list[str],
    message: str,
    new: str,
    old: str,
) -> None:
    user = "trades-" + user
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, *facts)
    before = active_contents(shared_real_mem, user)
    held = set(facts_naming(shared_real_mem, user, old))
    assert held, before
    say(shared_real_mem, module_clock, user, message, days=7)
    now = active_contents(shared_real_mem, user)
    assert facts_naming(shared_real_mem, user, new), now
    assert not held & set(active(shared_real_mem, user)), now  # the old value is retired
    for topic, said in before.items():  # every other fact stays
        if old.lower() not in said.lower() and topic.split(".")[0] not in ("work", "location"):
            assert now.get(topic) == said, (topic, now)


# Twins: someone else's news, one day somewhere, a name nobody stored, a pastime begun.
KEEPS = [
    (["I wait tables at Denny's"], "my roommate is bartending at the Broken Spoke now"),
    (["I wait tables at Denny's"], "I cook at home most nights, too tired to go out"),
    (["I drive a bus out of Tacoma"], "my brother got transferred to the Olympia depot"),
    (["I work from home"], "I'm back in the office tomorrow for a team lunch"),
    (["I work from home"], "my wife is back in the office full time now"),
    (["I have a cat named Mochi", "Mochi is 4 years old"], "My niece Emma is 12 years old"),
    (["My son Theo is in 3rd grade"], "Theo started piano lessons this week"),
    (["My dog Rocky is a boxer"], "my neighbour's dog isn't a boxer, it's a mastiff"),
    (["My dog Rocky is a boxer"], "the vet says he's a very good boy"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS, ids=[r for _, r in KEEPS])
def test_a_remark_like_the_change_changes_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, facts: list[str], remark: str
) -> None:
    user = "trades-keep-" + remark
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, *facts)
    before = active_contents(shared_real_mem, user)
    assert len(before) >= len(EN_BACKGROUND) + 1, before
    say(shared_real_mem, module_clock, user, remark, days=7)
    now = active_contents(shared_real_mem, user)
    assert {t: c for t, c in now.items() if t in before} == before


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I bartend at a dive bar called The Rusty Nail", "work.employer", "The Rusty Nail"),
        ("I'm bagging groceries at Kroger now", "work.employer", "Kroger"),
        ("I fly out of Denver", "location.work", "Denver"),
        ("I got transferred to the Tulsa yard", "location.work", "Tulsa"),
        ("we're back in the office three days a week now", "work.mode", "hybrid"),
    ],
)
def test_a_trade_a_base_or_the_office_fills_its_slot(text: str, slot: str, value: str) -> None:
    assert extract_slots(text).get(slot) == value, extract_slots(text)


@pytest.mark.parametrize(
    "text", ["I cook at home most nights", "I'm in the office today", "I run errands out of my car"]
)
def test_a_pastime_or_one_day_is_no_work_fact(text: str) -> None:
    assert not any(s.startswith(("work.", "location.work")) for s in extract_slots(text))


def test_an_age_said_of_a_name_nobody_stored_is_kept_nowhere(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    user = "trades-unknown-name"
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, "Tom is 40 years old")
    assert not [t for t in active_contents(shared_real_mem, user) if ".age" in t]
