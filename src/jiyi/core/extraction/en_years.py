"""A birth year or age set right in a clause of its own (en).

"wait did i say 1986 earlier?? its 1988 lol", "that birth year I gave ye is wrang … mines is
2005", "had my birthday dinner last night so make that seventy two now": the clause with the
value names no slot; the clause before (a question about what the user said, a birth year
called wrong) or a word of the message (birthday) does. Only then is a bare year a birth year
and a bare number an age.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import number
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.models import MemoryKind

__all__ = ["WRONG_BEFORE", "said_again"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

# "did i say 1986 earlier", "the birth year I gave you is wrong", "my age was off"
WRONG_BEFORE = re.compile(
    r"^(?:wait,? |hang on,? |oops,? )?(?:did i (?:say|tell you|write|put|type)"
    r"(?: (?:i was born in|my birth ?year (?:is|was)|it was))? (?:19|20)\d{2}\b|"
    r"(?:that|the|my) (?:birth ?year|year i was born|age|year) "
    r"(?:i (?:gave|told|said)(?: (?:you|ye|u))? )?(?:is|was) (?:wrong|wrang|off|a typo|a mistake|"
    r"not right))",
    I_,
)
_YEAR = re.compile(
    r"^(?:no,? |nah,? )?(?:it'?s|its|it is|it was|mine(?:'s| is)|mines is|i was born in|make that)"
    r" (?P<y>(?:19|20)\d{2})\b",
    I_,
)
_AGE = re.compile(
    r"\bmake (?:that|it) (?P<n>\d{1,3}|[a-z]+(?:[- ][a-z]+)?)(?: now)?(?:[,.!]|$)",
    I_,
)


def said_again(clause: str, ctx: Context) -> list[Hit]:
    """The birth year or age a clause sets right after the message said which was wrong."""
    if WRONG_BEFORE.search(clause):
        ctx.extra["year_wrong"] = "1"
        return []
    if ctx.extra.get("year_wrong") and (m := _YEAR.match(clause)):
        y = m["y"]
        return [Hit(F, "identity.birth_year", "birth_year.again", value=y, correction=True,
                    content=f"User was born in {y}")]  # fmt: skip
    if re.search(r"\bbirthday\b", clause, I_):
        ctx.extra["birthday"] = "1"
    # "(had my birthday dinner last night) so make that seventy two now"
    if ctx.extra.get("birthday") and (m := _AGE.search(clause)):
        n = number(m["n"])
        if n and n.isdigit() and 1 <= int(n) <= 120:
            return [Hit(F, "identity.age", "age.again", value=n, correction=True,
                        content=f"User is {n}")]  # fmt: skip
    return []
