"""A word that opens a request ("book a table") can also open a statement as a noun ("book
club moved to Wednesdays"): the statement is read as one, the request still is not stored.
Extraction alone; no similarity is involved."""

from __future__ import annotations

import pytest
from _writes import extract_slots


@pytest.mark.parametrize("text", ["book club moved to Wednesdays", "book club is on Fridays now"])
def test_a_request_verb_used_as_a_noun_opens_a_statement(text: str) -> None:
    slots = extract_slots(text)
    assert any(s.startswith("habit.book") for s in slots), slots


@pytest.mark.parametrize("text", ["book a table for two tonight", "book me a flight to Denver"])
def test_a_request_is_still_not_stored(text: str) -> None:
    assert extract_slots(text) == {}
