"""A stage of life that ended takes what belonged to it (pure; the write path looks them up).

Retiring ends a job: 我妈今年五月退休了 (``family.mother.job`` = 退休) leaves 我妈在超市上班
(``family.mother.employer``) behind, as "I retired" leaves the user's employer. Graduating ends
a course of study: 我今年毕业了 leaves 我在读研一 (``education.stage``), 女儿大学毕业了 her
``family.daughter.grade``, as "finished her masters" does. A shop of one's own sold or closed
("sold her salon and she's a realtor now", 小卖部关了) leaves the employer that shop was, when
the message gives the new job. The person is the candidate's own (the user, or the relative of
its slot), the slots are fixed by the stage, never found by similarity; a plan ("明年退休"),
someone else, or a stage said of the past ("毕业那年") is no candidate of this kind, since the
rules store those as plans, nothing or events without the word of now.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH, SHOPS_ZH
from jiyi.core.models import Candidate

__all__ = ["ended_slots"]

_RETIRED = re.compile(r"^(?:退休|retired)$", re.IGNORECASE)
# "my husband retired from Boeing in June" / 我妈今年退休了, stored as a description or an event
_RETIRED_SAID = re.compile(
    r"\b(?:i|he|she|we|they|\w+) (?:just |finally )?retired\b|(?<![没未])退休了"
)
_GRADUATED = re.compile(
    r"(?<![没未])毕业了|毕业啦|读完研|读完博|\b(?:i|we|she|he|they) (?:just |finally )?graduated\b|"
    r"\bgraduated (?:last|this|in)\b|"
    r"\b(?:finished|completed|wrapped up) (?:my|his|her|their) (?:masters|master's|phd|degree|"
    r"bachelor's|studies|program)\b",
    re.IGNORECASE,
)
# A business of one's own closed or sold ("sold her salon", 店关了): its employer ends with it.
_CLOSED_SAID = re.compile(
    r"\b(?:sold|closed|shut down|gave up) (?:my|his|her|their|our|the) (?:[\w-]+ )?(?:salon|shop|"
    r"store|bakery|restaurant|business|cafe|café|bar|studio|practice|food truck|gym|diner)\b|"
    rf"(?:{SHOPS_ZH})(?:也|早就|已经)?(?:关了|关门了|倒闭了|"
    r"盘出去了|转让了|卖了)|把(?:店|铺子|小卖部|餐馆|饭店|餐厅|超市|工作室)(?:给)?(?:卖了|关了|盘出去了|转让了)",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"^(?:用户的|用戶的|User's )", re.IGNORECASE)
_RELATIONS = {**RELATIONS_ZH, **RELATIONS_EN}
_RELATION = re.compile("|".join(map(re.escape, sorted(_RELATIONS, key=len, reverse=True))))
_NOT_YET = re.compile(r"明年|下个?月|快要?|就要|准备|打算|还没|没有?毕业|\bwill\b|\bnext\b")


def _person(topic: str, content: str) -> str | None:
    """``""`` for the user's own slots, ``family.<key>.`` for a relative's, None otherwise."""
    parts = topic.split(".")
    if parts[0] == "family" and len(parts) > 2:
        return f"family.{parts[1]}."
    if parts[0] in ("event", "plan") and (lead := _RELATIVE.match(content)):
        # 用户的女儿今年六月毕业了 / "User's husband retired from Boeing": that relative's
        word = _RELATION.match(content[lead.end() :].lower())
        return f"family.{_RELATIONS[word.group()]}." if word else None
    return None if parts[0] in ("pet", "") else ""


def ended_slots(c: Candidate) -> tuple[str, ...]:
    """The slots the stage ``c`` says ended leaves behind, for its person; never ``c``'s own
    (退休了，现在在社区当志工: the volunteering is what holds now)."""
    return tuple(s for s in _ended(c) if s != c.topic)


def _ended(c: Candidate) -> tuple[str, ...]:
    topic = c.topic or ""
    who = _person(topic, c.content)
    if who is None:
        return ()
    said = c.quote or c.content
    if _NOT_YET.search(said):
        return ()
    retired = topic.endswith((".job", "work.role")) and _RETIRED.match(c.value or "")
    if retired or _RETIRED_SAID.search(said):
        return (f"{who}employer",) if who else ("work.employer", "location.work")
    if _GRADUATED.search(said) and not topic.endswith((".grade", ".stage", ".school")):
        return (f"{who}grade",) if who else ("education.stage",)
    if _CLOSED_SAID.search(said) and topic.endswith((".job", "work.role")):
        # "sold her salon and she's a realtor now": the new job says it; the shop is over
        return (f"{who}employer",) if who else ("work.employer",)
    return ()
