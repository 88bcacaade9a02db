"""Values of a typed kind in English text: a school grade, a town.

"I'm actually a junior now", "Now I work from Portland": the new value is said, the slot is
left to the listener, and the rules find none. The kind of the value (a grade word, a known
town) says which stored fact it may change; :mod:`jiyi.pipeline.typed_swap_en` finds the one
fact and swaps the value. This module only reads the words.

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.core.extraction.lexicon_places import is_town_en

__all__ = ["EnValue", "change_said_en", "content_words_en", "en_values", "grade_en"]

_GRADE = re.compile(
    r"\b(?P<g>freshman|sophomore|junior|senior|(?:\d{1,2}|first|second|third|fourth|fifth|sixth|"
    r"seventh|eighth|ninth|tenth|eleventh|twelfth)(?:st|nd|rd|th)?[- ]grade(?:r)?)\b"
    # "a junior developer", "the senior partner": a rank at work, not a school year
    r"(?!\s+(?!year\b|in\b|at\b|now\b|this\b|again\b|already\b)[a-z])",
    re.IGNORECASE,
)
# A town where a place goes: after in / to / from / out of / it's, one to three capitalised
# words.
_TOWN = re.compile(r"\b(?:in|to|from|out of|it's|it is)\s+(?P<t>[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2})")
_CUE = re.compile(
    r"\b(?:actually|now|these days|anymore|any more|switched|moved|relocated|changed|i meant|"
    r"not \w+ any ?more|no longer)\b",
    re.IGNORECASE,
)
# A worry, a wish, a condition, a question or a past visit states nothing that changed.
_UNREAL = re.compile(
    r"\b(?:if|might|maybe|may|could|would|should|want|wants|hope|plan|planning|thinking|"
    r"considering|visit|visited|visiting|trip|vacation|last week|next|will|gonna)\b|\?",
    re.IGNORECASE,
)
# Someone else as the subject: "my friend moved to Denver", "she's a junior now".
_OTHER = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?!own\b)(?:[a-z]+\s)?(?:friend|sister|brother|mom|mother|dad|"
    r"father|son|daughter|wife|husband|partner|boyfriend|girlfriend|kid|kids|cousin|colleague|"
    r"coworker|co-worker|roommate|neighbor|neighbour|boss|aunt|uncle|niece|nephew|grandma|"
    r"grandpa|dog|cat|child|children|family|parents|team)\b|^\s*(?:actually,?\s+|now,?\s+)?"
    r"(?:he|she|they|he's|she's|they're|we|we're)\b",
    re.IGNORECASE,
)
_STOP = frozenset(
    "i i'm im am is are was were a an the my in to from at of and but so now actually it it's "
    "anymore more no longer not just really also still these days this that there here me "
    "moved switched changed meant year be been being do does did".split()
)


@dataclass(frozen=True)
class EnValue:
    """One value of a kind (``grade`` or ``town``) as said (``surface``)."""

    kind: str
    surface: str


def grade_en(text: str) -> str:
    """The school grade ``text`` names ("junior", "8th grade"), lower-case; "" if none."""
    m = _GRADE.search(text)
    return m.group("g").lower() if m else ""


def en_values(text: str) -> list[EnValue]:
    """The grade and town values said in ``text``, in order."""
    out = [EnValue("grade", g.group("g").lower()) for g in _GRADE.finditer(text)]
    out += [EnValue("town", t.group("t")) for t in _TOWN.finditer(text) if is_town_en(t.group("t"))]
    return out


def change_said_en(text: str) -> bool:
    """Does ``text`` say that something of the user's changed (a change cue; no worry, wish,
    condition, question, visit, and no one else as the subject)?"""
    return bool(_CUE.search(text)) and not _UNREAL.search(text) and not _OTHER.search(text)


def content_words_en(text: str) -> set[str]:
    """The lower-case content words of ``text`` (no fillers), a crude stem (work of working)."""
    words = re.findall(r"[a-z']+", text.lower())
    return {re.sub(r"(?:ing|ed|s)$", "", w) or w for w in words if w not in _STOP and len(w) > 2}
