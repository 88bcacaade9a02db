"""A pet's age, as its memory says it and as a vet, papers or the user set it right.

"我家的泰迪叫团团，今年五岁" and "My cat Smudge is twelve" are stored as the pet's name memory
with the age in its words. "带团团去打疫苗，兽医…说它至少八岁了", "不是哈 它才三岁", "the vet
figures she's actually closer to fifteen" and "Snowy already five years old leh" change only
the age: the same memory told with the new one (:mod:`jiyi.pipeline.pet_age`). This module only
reads the words. Chinese is read in simplified characters (callers convert).
"""

from __future__ import annotations

import re

__all__ = ["held_age", "new_age"]

_ZH_N = r"[\d一二两三四五六七八九十半]{1,3}"
_EN_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
_EN_N = rf"(?:\d{{1,2}}|{'|'.join(sorted(_EN_WORDS, key=len, reverse=True))})"
_ZH_AGE = re.compile(rf"(?P<n>{_ZH_N})(?:周)?岁")
_EN_HELD = re.compile(
    rf"\b(?:is|turned|aged?|about|around)\s+(?P<n>{_EN_N})(?:\s+(?:years?|yrs?)(?:\s+old)?)?"
    rf"(?=\s*(?:$|[,.;!?)]|and\b|now\b))|\b(?P<m>{_EN_N})\s+(?:years?|yrs?)\s+old\b",
    re.IGNORECASE,
)
# What someone found or the user set right: "closer to fifteen", "more like 7", "already five
# years old", "she's 9"; 至少八岁 / 才三岁 / 起码三岁.
_EN_NEW = re.compile(
    r"\b(?:closer to|more like|nearer|at least|actually|really|already|probably|is|'s|turned)"
    rf"\s+(?:about |around |like )?(?P<n>{_EN_N})(?:\s+(?:years?|yrs?)(?:\s+old)?)?\b"
    r"(?!\s*(?:months?|weeks?|days?|minutes?|kg|kilos?|pounds?|lbs?|%))",
    re.IGNORECASE,
)


def _en_number(said: str) -> int:
    said = said.lower()
    return int(said) if said.isdigit() else _EN_WORDS.index(said) + 1


def held_age(content: str) -> str | None:
    """The age a pet's memory states (五岁, twelve), as said; None for none or several."""
    zh = _ZH_AGE.findall(content)
    if zh:
        return zh[0] + "岁" if len(set(zh)) == 1 else None
    en = [m.group("n") or m.group("m") for m in _EN_HELD.finditer(content)]
    return en[0] if len(set(en)) == 1 else None


def new_age(text: str, held: str) -> str | None:
    """The one age ``text`` gives other than ``held`` (as said); None for none or several."""
    if held.endswith("岁"):
        said = {m.group(0) for m in _ZH_AGE.finditer(text)} - {held}
        said = {s for s in said if s.removesuffix("岁").removesuffix("周") != held[:-1]}
        return said.pop() if len(said) == 1 else None
    ages = {m.group("n") for m in _EN_NEW.finditer(text)}
    ages = {a for a in ages if _en_number(a) != _en_number(held)}
    return ages.pop() if len(ages) == 1 else None
