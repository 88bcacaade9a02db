"""English statements read again past what leads into them, in a relative's message said
with the user as its subject (:mod:`.kin_swap`): a statement after talk that only leads in
("after 30 years at the post office I finally retired", "big news, I got hired at Peet's",
"the bank closed my branch and honestly I'm working at the credit union now") and a grade,
job or employer said before "and …" ("I started first grade this week and cried at dropoff").

Only there: on chat at large these readings changed what LoCoMo retrieves (R@1 -0.9) and
gained no held-out correction (bench/README.md, 2026-12-03 II).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.models import MemoryKind

__all__ = ["read_again"]

I_ = re.IGNORECASE

# A time that only says when ("last friday, ", "this fall ")
_WHEN = (
    r"(?:last|this) (?:week|month|year|spring|summer|fall|autumn|winter|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|weekend),?\s+"
)
# Talk that only leads into a statement about the user: discourse words, "can't believe",
# "after 30 years at the post office", "last friday"; the statement starts with I.
_TALK_LEAD = re.compile(
    r"^(?:(?:so|and|but|well|ok|okay|anyway|anyways|honestly|also|oh|lol|"
    r"(?:quick |small |an? )?update(?: for you| on me)?|big news|"
    r"good news|guess what|fun fact|can'?t believe|cannot believe|after all that|turns out)"
    rf"[,:!.]*\s+|(?:after|following) [^,]{{2,60}}?,?\s+(?=(?:i|i'm|im|i've)\b)|{_WHEN})+"
    r"(?P<rest>(?:i|i'm|im|i've)\b.+)$",
    re.IGNORECASE,
)
# A lead that is only times: after an event it says when that happened, no more
_ONLY_WHEN = re.compile(rf"(?:{_WHEN})+", re.IGNORECASE)
# The slots a head clause may fill before "and …": a stage of school, a job, an employer
_STAGE_OR_JOB = re.compile(r"^(?:education\.stage|work\.role|work\.employer)$")
# "the bank closed my branch and honestly I'm working at the credit union now": the user's
# statement after what led to it
_THEN_I = re.compile(
    r"\b(?:and|but|so|now)\s+(?:(?:honestly|now|then|basically|actually|finally)\s+)*"
    r"(?P<rest>(?:i|i'm|im|i've)\b.+)$",
    re.IGNORECASE,
)


def read_again(
    clause: str,
    ctx: Context,
    hits: list[Hit],
    rules: Sequence[Callable[[str, Context], list[Hit]]],
) -> tuple[list[Hit], str]:
    """``hits`` with what ``rules`` read past a lead or in the head of ``clause``, when
    ``hits`` hold events at most; and the clause the hits were read from."""
    dated = all(h.kind is MemoryKind.EVENT for h in hits)  # "…retired last friday": and now?
    said_after = _TALK_LEAD.match(clause) or _THEN_I.search(clause) if dated else None
    if said_after and hits and _ONLY_WHEN.fullmatch(clause[: said_after.start("rest")]):
        said_after = None  # "Last month I got promoted to senior engineer": the event it was
    if said_after and not re.search(r"\b(?:will|going to|gonna|plan|next|if)\b", clause, I_):
        # "after 30 years at the post office I finally retired", "big news, I got hired at
        # Peet's": the statement after what only leads into it
        for rule in rules:
            if (facts := rule(said_after["rest"], ctx)) and not all(
                h.kind is MemoryKind.EVENT for h in facts
            ):
                hits, clause = [*hits, *facts], said_after["rest"]
                break
    head = re.split(r"\s+(?:and|but|so)\s+", clause, maxsplit=1, flags=I_)[0]
    dated = all(h.kind is MemoryKind.EVENT for h in hits)
    if dated and head != clause and len(head.split()) >= 3:
        # "I started first grade this week and cried at dropoff lol": the statement, then
        # what else happened
        for rule in rules:
            if (facts := rule(head, ctx)) and all(_STAGE_OR_JOB.match(h.topic) for h in facts):
                hits, clause = [*hits, *facts], head
                break
    return hits, clause
