"""English do-not-recommend rules: "don't recommend X", "no more X recommendations", "I'd
rather not get X", "keep X off my list" — a ``pref.<object>`` dislike, the slot a like of the
same thing keys (:mod:`.en_tastes`), so a change of taste replaces it.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import object_key
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["avoid"]

P = MemoryKind.PREFERENCE
I_ = re.IGNORECASE

# "no more X" after another clause, asking nothing (no "please", no "recommendations"): what
# the change just told ended, not a wish about what to suggest
_CONSEQUENCE = re.compile(
    r"^(?:so |and |which means |means )?no more (?!.*\b(?:recommend\w*|suggest\w*|recs|please|"
    r"pls|thanks|ever again)\b)",
    I_,
)


def avoid(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"\b(?:don't|do not|never|stop|please don't|no need to|avoid|please avoid|"
        r"i'd rather you didn't)\s+"
        r"(?:ever\s+)?(?:recommend|recommending|suggest|suggesting|show|showing|offer|offering|"
        r"give|send|book|booking|order|ordering|pick|picking|"
        r"choose)\s+(?:me\s+)?(?:any\s+)?(?P<x>.+?)"
        r"(?:\s+to me)?(?:\s+(?:again|anymore|any more|ever again|please))?$",
        c,
        I_,
    ) or re.search(
        r"\bno more (?P<x>.+?)(?: recommendations| suggestions)?$|"
        r"^(?:please )?no (?P<y>[a-z ]+?),? please$|"
        r"^i'd rather not (?:get|have|see|be (?:shown|sent|offered)) (?:any )?(?P<z>.+?)"
        r"(?: recommendations| suggestions| recs| options| places)?$|"
        r"^(?:please )?keep (?P<w>.+?) off (?:my|the) (?:list|recommendations)$",
        c,
        I_,
    )
    said = (
        (m.group("x") or m.groupdict().get("y") or m.groupdict().get("z") or m.groupdict().get("w"))
        if m
        else None
    )
    if said and _CONSEQUENCE.match(c) and ctx.follows:
        return []  # "they put me on Route 17, no more downtown traffic": what the change ended
    if said and re.search(r"\bno more .+ for (?:her|him|them|my \w+)\b", c, I_):
        return []  # "so no more starbucks for her": what ended for someone else
    if said and re.fullmatch(
        r"(?:any|them|those|it|that|one|ones|any of (?:them|those)|that stuff)", said, I_
    ):
        said = ctx.extra.get("last_word")  # "I hate horror movies, please don't recommend any"
    if said and (
        o := object_key(re.sub(r"^(?:places|restaurants) (?:with|serving) ", "", said, flags=I_))
    ):
        return [
            Hit(
                P,
                f"pref.{o}",
                "avoid",
                polarity="dislike",
                content=f"User does not want {clean_value(said)} recommended",
            )
        ]
    return []
