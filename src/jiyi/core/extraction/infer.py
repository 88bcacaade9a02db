"""Corrections that give only the value: "说错了，是1990年", "不是成都，是绵阳", "I meant Lisbon".

Said right after a correction marker or a "不是 X / not X", a bare value still names its
slot by what kind of value it is: a year is the birth year, a city is where the user lives, a
coffee or tea is the drink order. Anything else is left alone — a guessed slot could retire
an unrelated fact.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_drinks import drink_type
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.lexicon_places import COMPANIES_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_tastes import drink_type_word
from jiyi.core.models import MemoryKind

__all__ = ["bare_replacement", "bare_value"]

F, P = MemoryKind.FACT, MemoryKind.PREFERENCE
_LEAD_ZH = r"^(?:应该|其实|而)?(?:是|在|住在|住|搬到|搬去|喝|叫)?"
_LEAD_EN = (
    r"^(?:it's|it is|it was|i meant|i mean|meant|make that|in|actually|rather|that's|that is)?\s*"
)


def bare_value(clause: str, lang: str) -> list[Hit]:
    """The hit a bare corrected value stands for, or [] when its kind does not name a slot."""
    text = clean_value(clause)
    if lang == "zh":
        text = re.sub(r"(?:才对|就对了|没错|哈|啦|了)+$", "", re.sub(_LEAD_ZH, "", text))
        if m := re.fullmatch(
            r"(?P<x>(?:19|20)?\d{2}|[一二三四五六七八九零〇]{2,4})年(?:出生|生)?(?:的)?", text
        ):
            year = m.group("x")
            return [
                Hit(
                    F,
                    "identity.birth_year",
                    "bare.year",
                    value=year,
                    content=f"用户是{year}年出生的",
                )
            ]
        if is_place_zh(text) and text not in COMPANIES_ZH and len(text) <= 8:
            return [Hit(F, "location.home", "bare.city", value=text, content=f"用户住在{text}")]
        if found := drink_type_word(text):
            category, word = found
            return [
                Hit(P, f"diet.{category}.type", "bare.drink", value=word, content=f"用户喝{word}")
            ]
        return []
    text = re.sub(_LEAD_EN, "", text, flags=re.IGNORECASE).strip()
    if re.fullmatch(r"(?:19|20)\d{2}", text):
        return [
            Hit(
                F,
                "identity.birth_year",
                "bare.year",
                value=text,
                content=f"User was born in {text}",
            )
        ]
    if re.fullmatch(r"[A-Z][\w.' -]{1,30}", text) and is_place_en(text):
        return [Hit(F, "location.home", "bare.city", value=text, content=f"User lives in {text}")]
    if hit := drink_type(text.lower(), clause):
        return [hit]
    return []


def bare_replacement(clause: str, lang: str) -> Hit | None:
    """A bare value of no recognisable kind that replaces a value the user named as wrong
    ("I meant cashews, not peanuts" / "不是芒果，是菠萝"): a slot-less hit whose slot is the
    one that holds the wrong value, resolved against what is stored (the write path does it,
    by value, never by similarity). None when the clause is more than a value."""
    text = clean_value(clause)
    if lang == "zh":
        text = re.sub(r"(?:才对|就对了|没错|哈|啦|了)+$", "", re.sub(_LEAD_ZH, "", text))
        ok = 1 <= len(text) <= 8 and not re.search(r"[我你他她它们的是不吗呢吧？?]", text)
    else:
        text = re.sub(_LEAD_EN, "", text, flags=re.IGNORECASE).strip()
        text = re.sub(r"^(?:a|an|the|my)\s+", "", text, flags=re.IGNORECASE)
        ok = 1 <= len(text.split()) <= 3 and not re.search(
            r"\b(?:i|i'm|you|he|she|it|they|we|is|are|was|not|no)\b", text, re.IGNORECASE
        )
    if not ok:
        return None
    return Hit(F, "", "bare.replaces", value=text)
