"""English routines given a new time by their verb alone: "Been starting at four in the
morning lately", "I'm getting up at 5:30 now to beat traffic", "clocking in at 7 these days".

The clause names the verb but not the routine, so it is a ``bare.time`` hit: the write path
binds it to the user's one routine said with a clock time and that verb
(pipeline/subjects.resolve_time), or stores nothing. Only what has changed and lasts: a
marker of now (now, lately, these days, instead, been …ing) is needed, and a day named
("tomorrow", "on Monday") makes it one occasion, not the routine.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.models import MemoryKind

__all__ = ["new_time"]

I_ = re.IGNORECASE

_WORD = r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_CLOCK = (
    r"\d{1,2}(?::\d\d)?(?:\s?(?:am|pm|a\.m\.|p\.m\.))?|"
    rf"(?:{_WORD})(?: thirty| fifteen| forty-five)?(?: am| pm| o'clock| in the (?:morning|"
    r"afternoon|evening)| at night)?|noon|midnight"
)
# The routine's verb as said, and the form the stored routine was said with.
_VERBS = {
    "start": r"start(?:ing|ed)?",
    "get up": r"get(?:ting)? up",
    "wake up": r"wak(?:e|ing) up",
    "clock in": r"clock(?:ing)? in",
    "finish": r"finish(?:ing|ed)?",
}
_VERB = "|".join(f"(?P<v{i}>{v})" for i, v in enumerate(_VERBS.values()))
_NEW_TIME = re.compile(
    r"^(?:i(?:'ve| have)? been |been |i'm (?:now )?|i am (?:now )?|i (?:now )?)?"
    rf"(?:{_VERB})(?: (?:my shift|work|my day|my rounds))? at (?P<t>{_CLOCK})"
    r"(?P<now>(?: (?:now|lately|these days|instead|most days|every day|each day))*)"
    r"(?:,? (?:to|so|because|cause|since|for|which) .+)?$",
    I_,
)
_ONCE = re.compile(
    r"\b(?:today|tonight|tomorrow|this (?:week|morning)|next \w+|on (?:mon|tues|wednes|thurs|"
    r"fri|satur|sun)day)\b",
    I_,
)


def new_time(c: str, ctx: Context) -> list[Hit]:
    """A routine's new time said with its verb alone; [] for anything else."""
    m = _NEW_TIME.match(c)
    if not m or _ONCE.search(c):
        return []
    if not (m.group("now").strip() or re.match(r"^(?:i(?:'ve| have)? )?been ", c, I_)):
        return []  # "I start at 6": a plain fact, no change said
    verb = next(v for i, v in enumerate(_VERBS) if m.group(f"v{i}"))
    return [Hit(MemoryKind.FACT, "", "bare.time", value=m.group("t"), obj=verb, correction=True)]
