"""Helpers shared by the write-path behaviour tests (corrections, retractions, named
subjects): what the rules extract from one message, what a user holds, and saying messages
some time apart. ``Memory.list`` returns active non-episode memories by default; the helpers
filter again so a change of that default cannot widen what the tests compare."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import AddResult, MemoryItem, MemoryKind, Message, Status

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def extract_slots(text: str) -> dict[str, str | None]:
    """slot → value for what the rules take from ``text``."""
    out = RuleExtractor().extract([Message(role="user", content=text, timestamp=NOW)], now=NOW)
    return {c.topic or "": c.value for c in out.candidates}


def active(mem: Memory, user: str) -> dict[str, MemoryItem]:
    """id → item of the user's active non-episode memories, oldest first."""
    return {
        m.id: m
        for m in mem.list(user_id=user)
        if m.kind != MemoryKind.EPISODE and m.status == Status.ACTIVE
    }


def active_contents(mem: Memory, user: str) -> dict[str, str]:
    """slot → content of the user's active non-episode memories."""
    return {m.topic or "": m.content for m in active(mem, user).values()}


def active_values(mem: Memory, user: str) -> dict[str, str]:
    """slot → value ("" when none) of the user's active non-episode memories."""
    return {m.topic or "": m.value or "" for m in active(mem, user).values()}


def active_texts(mem: Memory, user: str) -> list[str]:
    """The contents of the user's active non-episode memories, oldest first."""
    return [m.content for m in active(mem, user).values()]


def say(  # type: ignore[no-untyped-def]
    mem: Memory, clock, user: str, text: str, *more: str, days: float = 1, hours: float = 0
) -> AddResult:
    """The user says each text ``days`` (+ ``hours``) after the one before (the clock is the
    test's fake clock); returns what the last one did."""
    for said in (text, *more):
        clock.advance(days=days, hours=hours)
        result = mem.add(said, user_id=user)
    return result


def told(mem: Memory, clock, user: str, facts: list[str], change: str):  # type: ignore[no-untyped-def]
    """The user's active memories after ``facts`` (a day apart) and after ``change`` a week
    later: (before, after), each id → memory."""
    say(mem, clock, user, *facts)
    before = active(mem, user)
    say(mem, clock, user, change, days=7)
    return before, active(mem, user)


def assert_changed(before, after, old: str, new: str | None) -> None:  # type: ignore[no-untyped-def]
    """Every memory of ``before`` that stated ``old`` (any case) is gone from ``after``, an
    active memory states ``new`` (unless None), and every other memory is still active."""
    stating = {i for i, m in before.items() if old.lower() in m.content.lower()}
    assert stating and not stating & set(after), [after[i].content for i in stating & set(after)]
    if new is not None:
        assert any(new.lower() in m.content.lower() for m in after.values()), after
    kept = set(before) - stating
    assert kept <= set(after), [before[i].content for i in kept - set(after)]


def assert_keeps_all(  # type: ignore[no-untyped-def]
    mem: Memory,
    clock,
    user: str,
    facts: list[str],
    remark: str,
    *,
    days: float = 1,
    stored: int | None = None,
) -> None:
    """The user says ``facts`` a day apart, then ``remark`` ``days`` later: every memory
    active before the remark is still active after it. At least ``stored`` memories
    (default: one per fact) must have been stored first, or the check would be empty."""
    say(mem, clock, user, *facts)
    before = active(mem, user)
    assert len(before) >= (len(facts) if stored is None else stored), before
    say(mem, clock, user, remark, days=days)
    after = active(mem, user)
    assert set(before) <= set(after), [before[i].content for i in set(before) - set(after)]


def assert_replaces(  # type: ignore[no-untyped-def]
    mem: Memory,
    clock,
    user: str,
    facts: list[str],
    change: str,
    new: str,
    *,
    same_slot: bool = False,
) -> None:
    """The user says ``facts`` a day apart, then ``change`` five days later: the memory of the
    first fact is no longer active, the memory of the second still is, and an active memory
    says ``new`` (in the first fact's slot, with ``same_slot``)."""
    say(mem, clock, user, *facts)
    before = active(mem, user)
    old, other = list(before)[:2]
    say(mem, clock, user, change, days=5)
    held = active(mem, user)
    said = [f"{m.topic}: {m.content}" for m in held.values()]
    assert old not in held and other in held, said
    where = [m for m in held.values() if not same_slot or m.topic == before[old].topic]
    assert any(new in m.content for m in where), said


# Background of the English change tests: an allergy, a drink and a relative's city.
EN_BACKGROUND = ("I'm allergic to shellfish", "I drink green tea", "My brother lives in Omaha")


def facts_naming(mem: Memory, user: str, word: str) -> dict[str, str]:
    """id → content of the user's active memories naming ``word``, events aside (an event of
    the message, "pulled Ava out of Westfield in March", is what happened, not what holds)."""
    return {
        i: m.content
        for i, m in active(mem, user).items()
        if word.lower() in m.content.lower() and m.kind != MemoryKind.EVENT
    }


def changes_test(prefix: str, cases: list) -> Callable[..., None]:  # type: ignore[type-arg]
    """A test over ``cases`` (facts, change, old, new), each told to a fresh user on the real
    embedder: the change replaces the old value and every other memory stays
    (:func:`assert_changed`). Assign it to a ``test_…`` name of a test module."""

    @pytest.mark.parametrize(("facts", "change", "old", "new"), cases)
    def test(  # type: ignore[no-untyped-def]
        shared_real_mem, module_clock, facts: list[str], change: str, old: str, new: str
    ) -> None:
        user = f"{prefix}-{change[:24]}"
        before, after = told(shared_real_mem, module_clock, user, facts, change)
        assert_changed(before, after, old, new)

    return test


def remarks_test(prefix: str, cases: list) -> Callable[..., None]:  # type: ignore[type-arg]
    """A test over ``cases`` (facts, remark), each told to a fresh user on the real embedder:
    the remark retires no memory (:func:`assert_keeps_all`)."""

    @pytest.mark.parametrize(("facts", "remark"), cases)
    def test(  # type: ignore[no-untyped-def]
        shared_real_mem, module_clock, facts: list[str], remark: str
    ) -> None:
        assert_keeps_all(shared_real_mem, module_clock, f"{prefix}-{remark[:24]}", facts, remark)

    return test
