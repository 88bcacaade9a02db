"""English corrections and admission: the general rules of issue 8's English pass.

The sentences are written for the language properties each rule reads (a trailing
"actually", a weekday in the plural, a first name or "she" as the subject of a change, a tea
made as a latte, a whim with an indefinite article, a diet that lets food back in), not taken
from the benchmark sets. Behaviour on stored memories runs on the real default embedder.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _writes import active_contents as _active
from _writes import say as _say

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import Message

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)  # a Tuesday


def extract(text: str) -> dict[str, tuple[str | None, bool, str]]:
    """slot → (value, is_correction, content) for what the rules take from ``text``."""
    out = RuleExtractor().extract([Message(role="user", content=text, timestamp=NOW)], now=NOW)
    return {c.topic or "": (c.value, c.is_correction, c.content) for c in out.candidates}


# (what is said, slot, value, is a correction)
CASES = [
    ("I'm 41 actually", "identity.age", "41", True),
    ("It's 1979, actually", "identity.birth_year", "1979", True),
    ("I play squash on Thursday evenings", "habit.squash", "thursday evenings", False),
    ("The hamster is Biscuit now", "pet.hamster.name", "Biscuit", False),
    ("my rabbit is Clover", "pet.rabbit.name", "Clover", False),
    ("Noah's actually twelve now", "family.unknown.age", "12", True),
    ("Sorry, Ava is in 4th grade", "family.unknown.grade", "4", True),
    ("Correction, he's a senior now", "family.child.grade", "12", True),
    ("I've switched to chai lattes", "diet.tea.type", "chai latte", False),
    ("I'm ordering a flat white these days", "diet.coffee.type", "flat white", False),
    ("I'm 19 and from Leeds", "identity.age", "19", False),
    ("I booked a dentist appointment for March 20th", "plan.dentist", "2026-03-20", False),
    ("my wife's favourite band is Blur", "family.wife.favorite.band", "Blur", False),
    ("I've gone back to eating fish", "diet.style", "eats fish", True),
    ("these days I'm avoiding gluten", "diet.style", "no gluten", True),
    ("I don't really knit anymore", "habit.knit", "no", True),
    ("it's mostly rock climbing now", "pref.rock_climbing", "like", True),
    ("I was born in nineteen eighty-four", "identity.birth_year", "1984", False),
    ("born in two thousand and two", "identity.birth_year", "2002", False),
    ("We moved to Spokane over the winter", "location.home", "Spokane", False),
    ("My niece's name is actually Juno", "family.niece.name", "Juno", False),
    ("My uncle's in Denver now", "family.uncle.home", "Denver", False),
    ("I'm thirty-three as of last Friday", "identity.age", "33", False),
    ("I drink rooibos tea after dinner", "diet.tea.type", "rooibos", False),
    ("Swimming's on Fridays now", "habit.swim", "fridays", True),
    ("Dad moved to Tucson", "family.father.home", "Tucson", False),
    ("I eat fish again, so not vegan anymore", "diet.style", "not vegan", True),
]


@pytest.mark.parametrize(("text", "slot", "value", "corrects"), CASES, ids=[c[0] for c in CASES])
def test_english_statements_land_in_their_slot(
    text: str, slot: str, value: str, corrects: bool
) -> None:
    got = extract(text)
    assert slot in got, got
    assert got[slot][0] == value
    assert got[slot][1] is corrects


@pytest.mark.parametrize(
    "text",
    [
        "I want a hot chocolate",  # a whim, not an order
        "I could really go for an iced latte",
        "I'm having a latte right now",
        "I don't care anymore",  # not an activity stopped
        "I like salsa, the spicier the better",  # one like, not two
        "Maybe she's a junior",  # no change, nobody named
        "Max is 3",  # no change said: who Max is stays unknown
    ],
)
def test_look_alikes_store_nothing_more(text: str) -> None:
    got = extract(text)
    assert not any(t.startswith(("diet.", "habit.", "family.")) for t in got), got
    assert "pref.the_spicier_the_better" not in got


def test_age_then_a_second_predicate_is_two_facts() -> None:
    got = extract("I'm 15 and in 10th grade")
    assert got["identity.age"][0] == "15"
    assert any(t.startswith("education.") for t in got), got


def test_a_generic_correction_takes_the_one_slot_it_fits(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    """ "Noah's twelve now" names nobody's slot; the one family age on record is the son's,
    so the son's age is replaced, the new memory says "son", and search finds it first.
    (The son is not named here: a son stored as Noah is found by name, before reconciliation;
    tests/unit/test_named_subjects_more.py.)"""
    _say(real_mem, clock, "u", "I'm allergic to kiwi", "My son is eleven", "I live in Leeds")
    _say(real_mem, clock, "u", "Noah's actually twelve now")
    now = _active(real_mem, "u")
    assert "family.unknown.age" not in now
    assert now["family.son.age"] == "Noah (user's son) is twelve now"
    assert now["location.home"] == "User lives in Leeds"
    top = real_mem.search("How old is my son?", user_id="u", top_k=3)[0].memory
    assert top.content == "Noah (user's son) is twelve now"


def test_she_with_a_school_year_fits_only_an_unambiguous_child(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    _say(real_mem, clock, "one", "My daughter is a freshman at Duke")
    _say(real_mem, clock, "one", "Correction, she's a sophomore now")
    assert _active(real_mem, "one")["family.daughter.grade"] == "User's daughter is a sophomore now"
    # two children with a school year: which one is meant cannot be known, nothing is replaced
    _say(real_mem, clock, "two", "My daughter is in 3rd grade", "My son is in 6th grade")
    _say(real_mem, clock, "two", "Correction, she's in 4th grade now")
    now = _active(real_mem, "two")
    assert now["family.daughter.grade"] == "User's daughter is in 3rd grade"
    assert now["family.son.grade"] == "User's son is in 6th grade"


def test_a_new_drink_replaces_the_whole_order_said_with_it(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    _say(real_mem, clock, "u", "My usual is a mocha with soy milk", "I take oat milk in my tea")
    _say(real_mem, clock, "u", "I've switched to a cortado these days")
    now = _active(real_mem, "u")
    assert now["diet.coffee.type"] == "User drinks cortado"
    assert "diet.coffee.milk" not in now  # soy milk went with the mocha
    assert "diet.tea.milk" in now  # said on its own, about tea: kept


def test_stopping_an_activity_retires_its_like(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    _say(real_mem, clock, "u", "My hobby is knitting", "I love jazz", "I'm allergic to dust")
    res = real_mem.add("I don't really knit anymore", user_id="u")
    now = _active(real_mem, "u")
    assert "pref.knitting" not in now
    assert "pref.jazz" in now and "health.allergy.dust" in now
    retired = {e.previous.topic for e in res.events if e.previous is not None}
    assert retired == {"pref.knitting"}  # what the store retired, the events say


def test_giving_up_a_drink_takes_its_order_but_a_dislike_does_not(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    _say(real_mem, clock, "quit", "I drink a latte every morning", "I drink green tea")
    _say(real_mem, clock, "quit", "I quit coffee")
    now = _active(real_mem, "quit")
    assert "diet.coffee.type" not in now and "diet.tea.type" in now
    _say(real_mem, clock, "taste", "I drink a latte every morning")
    _say(real_mem, clock, "taste", "Actually, I don't like coffee that much")
    assert "diet.coffee.type" in _active(real_mem, "taste")


@pytest.mark.parametrize(
    ("text", "short_lived"),
    [
        ("I'm watching the game tonight", True),
        ("I'm thinking of ordering Thai food tonight", True),
        ("I just finished a great book", False),
        ("I'm so done with this week", False),
    ],
)
def test_what_is_bound_to_today_stays_out_of_long_term_memory(
    mem: Memory, text: str, short_lived: bool
) -> None:
    """A fresh user, so nothing is reconciled: the hashing embedder cannot change the outcome.
    A plan for tonight is read and let pass as a transient remark (its episode expires)."""
    res = mem.add(text, user_id="u")
    assert [m.content for m in mem.list(user_id="u")] == []
    (ep,) = res.episodes
    assert (ep.expires_at is not None) is short_lived


def test_appointments_and_travel_today_are_kept() -> None:
    assert any(t.startswith("plan.") for t in extract("I'm flying to Denver tonight"))
    assert any(t.startswith("plan.") for t in extract("I have a dentist appointment today"))
    assert any(t.startswith("event.") for t in extract("I just finished my PhD"))


def test_a_relative_away_for_work_is_not_living_there() -> None:
    got = extract("My sister is in Paris for work this week")
    assert "family.sister.home" not in got, got
