"""Helpers shared by the write-path behaviour tests (corrections, named subjects): what the
rules extract from one message, what a user holds, and saying messages a day apart."""

from __future__ import annotations

from datetime import UTC, datetime

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import MemoryKind, Message, Status

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def extract_slots(text: str) -> dict[str, str | None]:
    """slot → value for what the rules take from ``text``."""
    out = RuleExtractor().extract([Message(role="user", content=text, timestamp=NOW)], now=NOW)
    return {c.topic or "": c.value for c in out.candidates}


def active_contents(mem: Memory, user: str) -> dict[str, str]:
    """slot → content of the user's active non-episode memories."""
    return {
        m.topic or "": m.content
        for m in mem.list(user_id=user)
        if m.kind != MemoryKind.EPISODE and m.status == Status.ACTIVE
    }


def say(mem: Memory, clock, user: str, *texts: str) -> None:  # type: ignore[no-untyped-def]
    """Each text a day after the one before (the clock is the test's fake clock)."""
    for text in texts:
        clock.advance(days=1)
        mem.add(text, user_id=user)
