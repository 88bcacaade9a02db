"""English clauses beside a change (issue 8, dev sets u and w studied): an incidental or
negated clause never becomes a fact of its own, and the change said around it lands.

- "…, not a terrier at all", "…, no more rush hour traffic", "got tired of it in about two
  weeks", "I quit after a month": no work role, no dislike, no routine;
- "I finally quit X" of "a case manager at X": a leaving, not a new value of the role;
- a new workplace "on the floor at X", "doing intake work at X now", "got on with X", a
  carrier driven for; "she" after a relative's name; "he's at X now" / "we moved her to X"
  of the one relative whose fact the message names; a breed said in scare quotes;
- "X is dead to me, Y is my go-to now"; "I'm back to Y"; "swimming at 7 now"; "we open at
  eight now"; a routine said with where it is ("every Friday night at Starlite Lanes"); a new
  home said by a lease or a place got there.

The wording is not the benchmark's. Each change retires the old value and keeps every other
fact; its twin (someone else's news, a remark that names the value, what has lasted)
changes nothing. Real default embedder.
"""

from __future__ import annotations

import pytest
from _writes import EN_BACKGROUND, active, active_contents, facts_naming, say

from jiyi import Memory

# (user, fact, the message, a word of the new value, the old value)
CHANGES = [
    (
        "breed-at-all",
        "My dog Rosie is a terrier",
        "Got her DNA results back, she's actually a beagle mix, not a terrier at all",
        "beagle",
        "terrier",
    ),
    (
        "breed-quoted",
        "Our cat Mochi is a ragdoll",
        "the vet laughed at us, our 'ragdoll' is a Persian",
        "Persian",
        "ragdoll",
    ),
    (
        "left-then-doing",
        "I'm a case manager at Catholic Charities",
        "I quit Catholic Charities. I'm doing intake work at Mercy Housing now, way less stress",
        "Mercy Housing",
        "Catholic Charities",
    ),
    (
        "on-the-floor",
        "I'm a cashier at Target",
        "Last month I started on the floor at Costco, way better hours",
        "Costco",
        "Target",
    ),
    (
        "got-on-with",
        "I drive a forklift for Sysco",
        "i quit sysco after 6 years got on with Gordon Foods, closer to home",
        "Gordon Foods",
        "Sysco",
    ),
    (
        "she-after-name",
        "My wife Dana is a nurse",
        "Dana retired last spring and hated it, so she teaches math now",
        "math",
        "nurse",
    ),
    (
        "she-is-at",
        "My daughter goes to Westfield High",
        "We pulled Ava out of Westfield in March, she's at Carver Academy now",
        "Carver",
        "Westfield",
    ),
    (
        "moved-her-to",
        "My daughter goes to Westfield High",
        "We moved her to Carver Academy, Westfield was too far",
        "Carver",
        "Westfield",
    ),
    (
        "dead-to-me",
        "My favorite game is Fortnite",
        "tbh Fortnite is dead to me, Apex Legends is my go-to",
        "Apex Legends",
        "Fortnite",
    ),
    (
        "back-to",
        "I drink oat lattes",
        "gave up on oat lattes, I'm back to black coffee",
        "black coffee",
        "oat latte",
    ),
    (
        "ing-at-clock",
        "I swim every morning at 6",
        "new plan, swimming at 7 now since the pool changed hours",
        "at 7",
        "at 6",
    ),
    (
        "we-open-at",
        "I open my coffee shop at 7 am every day",
        "We open at eight now, mornings are dead",
        "eight",
        "7 am",
    ),
    (
        "routine-at-a-place",
        "I bowl every Friday night at Starlite Lanes",
        "Starlite Lanes closed for good so our Friday league moved over to Pinz Bowl",
        "Pinz",
        "Starlite",
    ),
    (
        "role-tech",
        "I'm a vet tech at Banfield",
        "Got promoted to practice manager at Banfield!!",
        "practice manager",
        "vet tech",
    ),
    (
        "lease-in",
        "I live in Tacoma",
        "Signed a lease in Olympia last week, the commute is way shorter",
        "lives in Olympia",
        "Tacoma",
    ),
]


@pytest.mark.parametrize(
    ("user", "fact", "message", "new", "old"), CHANGES, ids=[c[0] for c in CHANGES]
)
def test_the_change_beside_the_clause_lands(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, user: str, fact: str, message: str, new: str, old: str
) -> None:
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, fact)
    before = active_contents(shared_real_mem, user)
    held = set(facts_naming(shared_real_mem, user, old))
    assert held, before
    say(shared_real_mem, module_clock, user, message, days=7)
    now = active_contents(shared_real_mem, user)
    assert facts_naming(shared_real_mem, user, new), now
    assert not held & set(active(shared_real_mem, user)), now  # the old value is retired
    for topic, said in before.items():  # every other fact stays
        if old.lower() not in said.lower():
            assert now.get(topic) == said, (topic, now)


# (user, fact, the message, slot areas it must not create a memory in)
INCIDENTAL = [
    (
        "no-more-traffic",
        "I'm a bus driver",
        "Finally got my transfer to the Eastside depot, no more night traffic",
        ("pref.",),
    ),
    (
        "span-not-routine",
        "I swim twice a week",
        "Signed up for pottery and got sick of it within a week",
        ("habit.", "pref."),
    ),
    ("quit-after", "I'm a paralegal", "I quit after a month, the commute was brutal", ("pref.",)),
    (
        "left-only",
        "I'm a case manager at Catholic Charities",
        "I finally quit Catholic Charities.",
        ("pref.",),
    ),
    (
        "complaint",
        "I drive for Lyft",
        "I hate how much Lyft takes per ride but whatever",
        ("pref.",),
    ),
    (
        "talked-me-into",
        "I'm a paralegal",
        "My daughter talked me into it, so I bought a Honda Civic",
        ("family.",),
    ),
    (
        "someone-elses-allergy",
        "I'm a paralegal",
        "Sophie's roommate is allergic to dairy so the party is dairy-free",
        ("health.",),
    ),
    (
        "allergy-is-why",
        "I'm a paralegal",
        "my shellfish allergy is why I skip the seafood buffet",
        ("health.",),
    ),
    (
        "gerund-subject",
        "I'm a paralegal",
        "Honestly learning Spanish wasn't as hard as I thought",
        ("state.",),
    ),
    (
        "still-havent",
        "I'm a paralegal",
        "tbh I still haven't seen half of the museums in Chicago",
        ("habit.",),
    ),
    (
        "like-an-amount",
        "I'm a paralegal",
        "honestly I drink way too much iced tea, like four a day",
        ("pref.",),
    ),
    (
        "only-the",
        "I'm a paralegal",
        "I don't like chocolate cake at all, only the frosting",
        ("pref.only",),
    ),
    (
        "the-one-who-got-me-into",
        "I'm a paralegal",
        "To be fair, my brother is the one who got me into cycling",
        ("family.",),
    ),
    (
        "where-no-job",
        "My grandma uses a cane",
        "grandma's in a wheelchair now after her fall in october",
        ("family.grandmother.job",),
    ),
    (
        "name-then-drink",
        "My wife Dana is a nurse",
        "Dana retired last spring, so she drinks only black coffee now",
        ("diet.",),
    ),
]


@pytest.mark.parametrize(
    ("user", "fact", "message", "areas"), INCIDENTAL, ids=[c[0] for c in INCIDENTAL]
)
def test_an_incidental_clause_becomes_no_fact(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory,
    module_clock,
    user: str,
    fact: str,
    message: str,
    areas: tuple[str, ...],
) -> None:
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, fact)
    before = set(active(shared_real_mem, user))
    assert len(before) >= len(EN_BACKGROUND) + 1
    say(shared_real_mem, module_clock, user, message, days=7)
    made = [m for i, m in active(shared_real_mem, user).items() if i not in before]
    assert not [(m.topic, m.content) for m in made if (m.topic or "").startswith(areas)]
    assert not [m.content for m in made if m.content.startswith("User said:")]


# Twins: someone else's news, the value named as still so, or what has lasted.
KEEPS = [
    (
        "My daughter goes to Westfield High",
        "My neighbor's girl hated Westfield, she's at Carver Academy now",
    ),
    (
        "My daughter goes to Westfield High",
        "she's been at Westfield for two years now and loves it",
    ),
    ("My wife Dana is a nurse", "My coworker Dana retired, so she teaches math now"),
    ("I'm a cashier at Target", "ugh I'm at the Costco now picking up snacks for the party"),
    ("Our cat Mochi is a ragdoll", "Mochi is such a 'ragdoll', she flops over when you hold her"),
    ("I drive a forklift for Sysco", "I drive my kids to soccer for Coach Miller on Saturdays"),
    ("My favorite game is Fortnite", "my brother says Fortnite is dead to him, I still love it"),
    ("My favorite game is Fortnite", "Fortnite is my fave, I could play it all day"),
    ("I drink oat lattes", "my wife is back on decaf, her doctor said so"),
    ("I swim every morning at 6", "my sister is swimming at 7 now since the pool changed hours"),
    ("I open my coffee shop at 7 am every day", "the bank across the street opens at nine now"),
    ("I live in Tacoma", "my cousin got a place in Olympia, it's so cute"),
    ("I live in Tacoma", "I got a place in Omaha for the weekend to visit my brother"),
]


@pytest.mark.parametrize(("fact", "remark"), KEEPS, ids=[r for _, r in KEEPS])
def test_a_remark_beside_the_value_changes_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, fact: str, remark: str
) -> None:
    user = "keep-" + remark
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND, fact)
    before = active_contents(shared_real_mem, user)
    assert len(before) >= len(EN_BACKGROUND) + 1, before
    say(shared_real_mem, module_clock, user, remark, days=7)
    now = active_contents(shared_real_mem, user)
    assert {t: c for t, c in now.items() if t in before} == before


def test_no_more_still_asks_when_it_asks(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    """The twin of "…, no more rush hour traffic": asked for, it is kept."""
    say(shared_real_mem, module_clock, "no-more-asked", "No more horror movie suggestions please")
    assert any(
        t.startswith("pref.horror") for t in active_contents(shared_real_mem, "no-more-asked")
    )


def test_an_allergy_outgrown_is_none_now(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    """ "I used to be allergic to X as a kid, grew out of it": no allergy held now, and "grew
    out of it" names no allergen."""
    user = "outgrown"
    say(shared_real_mem, module_clock, user, *EN_BACKGROUND)
    say(
        shared_real_mem,
        module_clock,
        user,
        "Honestly I used to be allergic to strawberries as a kid, grew out of it",
        days=7,
    )
    held = {
        m.topic: m.value
        for m in active(shared_real_mem, user).values()
        if (m.topic or "").startswith("health.allergy.")
    }
    assert held == {"health.allergy.shellfish": "yes", "health.allergy.strawberry": "no"}, held
