"""English changes said another way (issue 8, held-out set i studied): a move said by the new
home alone, a relative's move said by a job there, a child's birthday, a wedding, a new
school year, a renamed pet, a changed drink order, a plan called off.

The wording is not the benchmark's. Each change must retire the old value, keep every other
fact, and answer the slot's question first; someone else's change, a worry or a condition
changes nothing. Real default embedder (the outcome of search depends on similarity).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from _writes import active_contents as _active
from _writes import say as _say

from jiyi import Memory
from jiyi.core.models import MemoryKind, Status

BACKGROUND = ("I'm allergic to shellfish", "I work as a paralegal", "My brother lives in Omaha")


def _holding(mem: Memory, user: str, old: str) -> set[str]:
    """Ids of the active memories that state ``old``."""
    return {
        m.id
        for m in mem.list(user_id=user)
        if m.kind != MemoryKind.EPISODE and m.status == Status.ACTIVE and old in m.content.split()
    }


# (user, the old value, the fact, the change, slot, new content, question)
CHANGES = [
    (
        "home-is",
        "Tucson",
        "I live in Tucson",
        "we sold the old place, and since this month home is Flagstaff!",
        "location.home",
        "User lives in Flagstaff",
        "Where do I live?",
    ),
    (
        "moved-in",
        "Tucson",
        "I live in Tucson",
        "just moved in with my fiancé in Mesa, the commute was killing me",
        "location.home",
        "User lives in Mesa",
        "Where do I live?",
    ),
    (
        "relative-job",
        "Chicago",
        "My sister lives in Chicago",
        "my sister accepted a job in Atlanta, she's packing already",
        "family.sister.city",
        "User's sister moved to Atlanta for a job",
        "Where does my sister live?",
    ),
    (
        "birthday",
        "7",
        "My daughter is 7",
        "my girl turned eight on Sunday, time flies",
        "family.daughter.age",
        "User's daughter is eight",
        "How old is my daughter?",
    ),
    (
        "wedding",
        "engaged",
        "I'm engaged",
        "we finally got hitched last Saturday!!",
        "family.marital",
        "User is married",
        "Am I married?",
    ),
    (
        "school-year",
        "sophomore",
        "I'm a sophomore in college",
        "Heads up: junior year now, two more to go",
        "education.stage",
        "User is a junior in college",
        "What year of college am I in?",
    ),
    (
        "renamed-pet",
        "Rex",
        "My dog is called Rex",
        "the kids renamed the dog, he's Waffles now. Rex never suited him",
        "pet.dog.name",
        "User's dog is called Waffles",
        "What's my dog's name?",
    ),
    (
        "freelance",
        "Gensler",
        "I'm an architect at Gensler",
        "quit Gensler last month - doing freelance drafting from home now",
        "work.role",
        "User works freelance now, doing drafting",
        "What do I do for work?",
    ),
    (
        "breed",
        "beagle",
        "I have a beagle named Ollie",
        "we got the DNA results and Ollie's actually a terrier mix, not a beagle",
        "pet.dog.breed",
        "User's dog Ollie is a terrier mix",
        "What breed is Ollie?",
    ),
    (
        "drink-order",
        "macchiato",
        "My usual Dunkin order is a caramel macchiato",
        "changed my usual to a cold brew, the macchiato was too sweet",
        "diet.coffee.type",
        "User drinks cold brew",
        "What's my usual coffee order?",
    ),
]


@pytest.mark.parametrize(
    ("user", "old", "fact", "change", "slot", "content", "question"),
    CHANGES,
    ids=[c[0] for c in CHANGES],
)
def test_a_change_said_another_way_replaces_the_old_value(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory,
    module_clock,
    user: str,
    old: str,
    fact: str,
    change: str,
    slot: str,
    content: str,
    question: str,
) -> None:
    _say(shared_real_mem, module_clock, user, *BACKGROUND, fact)
    before = _active(shared_real_mem, user)
    held = _holding(shared_real_mem, user, old)
    assert held, before
    module_clock.advance(days=7)
    shared_real_mem.add(change, user_id=user)
    now = _active(shared_real_mem, user)
    assert now.get(slot, "").startswith(content), now
    assert not held & _holding(shared_real_mem, user, old), now  # the old value is retired
    for topic, said in before.items():  # every other fact stays
        if old not in said.split():
            assert now.get(topic) == said, (topic, now)
    top = shared_real_mem.search(
        question, user_id=user, top_k=3, now=module_clock.now + timedelta(days=1)
    )[0]
    # the new memory, or the message that said the change (both state the new value)
    assert top.memory.content in {now[slot], change}, top.memory.content


def test_a_plan_called_off_retires_the_training(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    _say(shared_real_mem, module_clock, "plan", *BACKGROUND, "I'm training for a marathon")
    assert any("marathon" in c for c in _active(shared_real_mem, "plan").values())
    module_clock.advance(days=7)
    shared_real_mem.add("ditched the marathon plan, my hip hates it", user_id="plan")
    now = _active(shared_real_mem, "plan")
    assert not any("marathon" in c for c in now.values()), now
    assert now["family.brother.home"] == "User's brother lives in Omaha"


# Someone else's change, a worry or a condition: nothing of the user's changes.
NOT_CHANGES = [
    ("I live in Tucson", "my coworker moved in with his girlfriend in Mesa"),
    ("I live in Tucson", "if home is Flagstaff next year I'll need a new job"),
    ("My sister lives in Chicago", "if my sister took a job in Atlanta I'd miss her"),
    ("My daughter is 7", "my neighbor's girl turned eight on Sunday"),
    ("I'm engaged", "my best friend got married last weekend"),
    ("My dog is called Rex", "my cousin renamed her dog, he's Waffles now"),
    ("I'm training for a marathon", "if I ditched the marathon plan I'd regret it"),
    ("I'm an architect at Gensler", "my brother is doing freelance drafting now"),
    ("I'm training for a marathon", "I'm worried I'll have to scrap the marathon plan"),
]


@pytest.mark.parametrize(("fact", "remark"), NOT_CHANGES, ids=[r for _, r in NOT_CHANGES])
def test_someone_elses_change_or_a_worry_changes_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, fact: str, remark: str
) -> None:
    user = "not-" + remark
    _say(shared_real_mem, module_clock, user, *BACKGROUND, fact)
    before = _active(shared_real_mem, user)
    module_clock.advance(days=7)
    shared_real_mem.add(remark, user_id=user)
    now = _active(shared_real_mem, user)
    assert {t: c for t, c in now.items() if t in before} == before
