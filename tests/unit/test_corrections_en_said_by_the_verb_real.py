"""English changes said by the verb alone or after what was wrong (issue 8, dev set y
studied):

- a routine's new time said with its verb and no routine ("been starting at six in the
  morning lately", "I've been getting up at 5 lately") takes the one timed routine with that
  verb, the time in words kept as said;
- a relative's new employer said by the verb of the work ("she's delivering for DoorDash
  now") replaces the old one;
- "it's not X at all, it's Y" after a test: Y is the allergy now, and the remark after it
  ("good to know") is no value of anything;
- the thing a routine is done with or where, swapped ("dropped Premiere for DaVinci
  Resolve", "I do my Saturday volunteering at the soup kitchen now rather than the
  shelter"): the routine whose slot names the old thing takes the new one;
- a routine said by its days ("my shifts are Thursday and Friday now"), and a second day
  kept in the schedule ("on Mondays and Fridays now" is not "on Mondays and Wednesdays").

The wording is not the benchmark's. Each change retires the old value and keeps every other
fact; its twin (someone else's, one occasion, a plain statement) changes nothing. Real
default embedder.
"""

from __future__ import annotations

import pytest
from _writes import EN_BACKGROUND, active, active_contents, extract_slots, facts_naming, say

from jiyi import Memory

# (user, fact, the message, a word of the new value, the old value)
CHANGES = [
    (
        "time-by-verb",
        "I get up at 6 every day",
        "I've been getting up at 5 lately, the dog wakes me",
        "at 5",
        "at 6",
    ),
    (
        "time-in-words",
        "I start work at 7 every day",
        "been starting at six in the morning lately to beat the traffic",
        "six in the morning",
        "at 7",
    ),
    (
        "relative-delivering-for",
        "My sister works at Walmart",
        "my sister got let go from the store in May, she's delivering for DoorDash now",
        "DoorDash",
        "Walmart",
    ),
    (
        "allergy-not-at-all",
        "I'm allergic to penicillin",
        "the skin test came back, it's not penicillin at all, it's amoxicillin. good to know",
        "allergic to amoxicillin",
        "penicillin",
    ),
    (
        "dropped-for",
        "I edit my videos in Premiere every weekend",
        "dropped Premiere for DaVinci Resolve, it's free and honestly better",
        "DaVinci Resolve",
        "Premiere",
    ),
    (
        "rather-than-place",
        "I volunteer at the animal shelter on Saturdays",
        "just so you know, I do my Saturday volunteering at the soup kitchen now rather than the "
        "shelter",
        "soup kitchen",
        "animal shelter",
    ),
    (
        "shifts-are",
        "I work night shifts on Tuesdays and Wednesdays",
        "new rota is out, my nights are Thursday and Friday now",
        "Thursday and Friday",
        "Tuesdays and Wednesdays",
    ),
    (
        "second-day",
        "I swim on Mondays and Wednesdays",
        "I swim on Mondays and Fridays now, the pool is quieter",
        "Fridays",
        "Wednesdays",
    ),
]


@pytest.mark.parametrize(
    ("user", "fact", "message", "new", "old"), CHANGES, ids=[c[0] for c in CHANGES]
)
def test_the_change_said_by_the_verb_lands(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, user: str, fact: str, message: str, new: str, old: str
) -> None:
    user = "verb-" + user
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, fact)
    before = active_contents(shared_real_mem, user)
    held = set(facts_naming(shared_real_mem, user, old))
    assert held, before
    say(shared_real_mem, module_clock, user, message, days=7)
    now = active_contents(shared_real_mem, user)
    assert facts_naming(shared_real_mem, user, new), now
    assert not held & set(active(shared_real_mem, user)), now  # the old value is retired
    assert not [c for c in now.values() if c.startswith("User: ")], now  # no bare remark kept
    for topic, said in before.items():  # every other fact stays
        if old.lower() not in said.lower():
            assert now.get(topic) == said, (topic, now)


# Twins: someone else's routine or job, one early morning, a relative's partner.
KEEPS = [
    ("I get up at 6 every day", "my husband has been getting up at 5 lately"),
    ("I get up at 6 every day", "I'm getting up at 4 tomorrow for the airport"),
    ("My sister works at Walmart", "my sister's boyfriend is driving for Uber now"),
    ("I'm allergic to penicillin", "my son is allergic to tree nuts, not peanuts"),
    ("I edit my videos in Premiere every weekend", "my brother ditched Premiere for Final Cut"),
    ("I edit my videos in Premiere every weekend", "I dropped my phone for the third time"),
    ("I edit my videos in Premiere every weekend", "ditched Netflix for Hulu last month"),
    (
        "I volunteer at the animal shelter on Saturdays",
        "my wife does her Saturday volunteering at the soup kitchen now",
    ),
    ("I work night shifts on Tuesdays and Wednesdays", "my nights are busy now with the baby"),
    (
        "I work night shifts on Tuesdays and Wednesdays",
        "my husband's shifts are Thursday and Friday now",
    ),
]


@pytest.mark.parametrize(("fact", "remark"), KEEPS, ids=[r for _, r in KEEPS])
def test_a_remark_said_by_the_same_verb_changes_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, fact: str, remark: str
) -> None:
    user = "verb-keep-" + remark
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, fact)
    before = active_contents(shared_real_mem, user)
    assert len(before) >= len(EN_BACKGROUND) + 1, before
    say(shared_real_mem, module_clock, user, remark, days=7)
    now = active_contents(shared_real_mem, user)
    assert {t: c for t, c in now.items() if t in before} == before


@pytest.mark.parametrize("text", ["I start at 6", "I'm starting at 4 tomorrow"])
def test_a_plain_time_or_one_occasion_is_no_new_time(text: str) -> None:
    assert not any(v and v.startswith(("4", "6")) for v in extract_slots(text).values())
