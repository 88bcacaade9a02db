"""A change said as "from the old value to the new one" (read only; pure, no I/O).

从土木转到计算机了, 科室从儿科调到急诊了, 广场舞由周三改到周五了, 拿铁从燕麦奶改成椰奶了,
"switched my major from biology to nursing": the sentence names both values, so the fact it
changes is the one that *literally* holds the old value, whatever its slot.
:func:`from_to` reads the pairs; :mod:`jiyi.pipeline.fromto` finds that fact and swaps the
value. Nothing here decides by similarity.

A pair is not read from a question, a wish, a plan or a condition (想从…转到…, 如果,
"thinking of switching from"), from the past (以前从北京搬到上海), or when the old value is
long or the new one is a pronoun or a filler (换成别的 / 改成那个).

Chinese text is read in simplified characters (callers convert).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.subject import strip_openers
from jiyi.core.extraction.zh_common import REL
from jiyi.core.text import sentence_start

__all__ = ["NOTHING", "UNREAL", "FromTo", "from_to", "relative_of"]

_W = r"[\u4e00-\u9fffA-Za-z0-9]"
_VERB = r"(?:(?:转|调|换|改|跳|挪|搬|升|变|迁)(?:到|成|为|去)|(?:转岗|转行|跳槽)(?:到|去)?)"
_ZH = re.compile(
    rf"(?:从|由)(?P<x>{_W}{{1,8}}?){_VERB}了?(?:做|当|学|读|带|喝|用)?"
    rf"(?P<y>{_W}{{1,8}}?)(?=了|啦|啊|呀|$|\s)"  # (a space ends a clause in chat)
)
_EN = re.compile(
    r"\b(?:switched|changed|moved|transferred|went|swapped|shifted|upgraded|downgraded|"
    r"bumped|cut|changed over|switched over)\b[^,.;!?]{0,30}?\bfrom (?:the )?"
    r"(?P<x>[\w' -]{2,30}?) to (?:the )?(?P<y>[\w' -]{2,30}?)"
    r"(?=[,.;!?]|$| (?:and|but|because|since|last|this|now)\b)",
    re.IGNORECASE,
)
# "renamed Max to Rocky", "traded in the Civic for a RAV4", "replaced the walker with a cane"
_EN_SWAP = re.compile(
    r"\b(?:(?P<r>renam(?:ed|ing)|changed) (?:the |my |our |his |her )?(?:name )?"
    r"|(?P<t>trad(?:ed|ing)(?: in)?|swapp(?:ed|ing)(?: out)?|exchang(?:ed|ing)|replac(?:ed|ing)) "
    r"(?:the |my |our |his |her )?)"
    r"(?P<x>[\w'-]{2,20}(?: [\w'-]{2,20})?) (?:to|for|with) (?:a |an |the |my |our )?"
    r"(?P<y>[\w'-]{2,20}(?: [\w'-]{2,20})?)"
    r"(?=[,.;!?]|$| (?:and|but|because|since|last|this|now|the|a|as|after|in|on)\b)",
    re.IGNORECASE,
)
# "my badge says VITAS instead of Compassus" (two names), "my order went double-double →
# black coffee" (an arrow between the old and the new)
_EN_INSTEAD = re.compile(
    r"(?P<y>(?-i:[A-Z][\w&'.-]*(?: [A-Z][\w&'.-]*){0,2})) (?:now )?(?:instead of|rather than) "
    r"(?:the )?(?P<x>(?-i:[A-Z][\w&'.-]*(?: [A-Z][\w&'.-]*){0,2}))|"
    r"(?P<a>[\w'-]{2,20})\s*(?:→|->|=>)\s*(?P<b>[\w'-]{2,20}(?: [\w'-]{2,20})?)"
    r"(?=[,.;!?]|$| (?:and|but|because|since|now|pray|lol)\b)",
)
# The old value denied and the new one said beside it: 不是天河是番禺, 俺家不在铁岭 在四平,
# 大宝不是金毛啦 是拉布拉多 (one clause, or two split by a comma or a space)
_END_ZH = r"(?=了|啦|啊|呀|哦|喔|咯|的|哈|嘛|噢|$|\s|[，,。.!！?？~])"
_NOT_ZH = re.compile(
    rf"(?:不是|不在|并不是|并不在)\s?(?P<x>{_W}{{1,10}}?)\s?(?:了|啦|哦|喔|的|呀|啊|咯)?\s?"
    rf"[，,]?\s?(?:而|现在|其实|实际上|真正)?(?:是|在)\s?(?P<y>{_W}{{1,10}}?){_END_ZH}"
)
# "not woolies anymore, it's coles now"; "I'm born 1978, not 1987"; "im head chef now, not
# sous chef"; "she's more like thirteen, not ten": only after "it's / I'm / she's …", so the
# new value is what someone or something *is* (not "I react to, not penicillin")
_PHRASE = r"[\w'&-]+(?: [\w'&-]+){0,2}?"
# the new value: a name or a thing, never a verb phrase ("allergic to almonds, not walnuts"
# is read by the allergy rules)
_NEW = (
    r"(?!(?:allergic|going|gonna|moving|not|into|from|so|very|really|too)\b)[\w'&-]+"
    r"(?: (?!(?:to|of|with|for|from|about|at|in|on)\b)[\w'&-]+){0,2}?"
)
_IS = (
    r"\b(?:it's|its|it is|i'm|im|i am|she's|shes|he's|hes|she is|he is|we're|we are|"
    r"they're|they are)(?: born| now| actually| really| just| more like| like| about| around|"
    r" in| at| a| an| the)*"
)
_NOT_EN = re.compile(
    rf"\bnot (?:a |an |the |in |at )?(?P<x>{_PHRASE})(?: anymore| any more| no more)?"
    rf"[,;.!]? (?:but )?{_IS} (?P<y>{_NEW})"
    r"(?= now|\s*[^\w\s]|\s*$| (?:and|but|lol|haha|fr|since|btw)\b)"
    rf"|{_IS} (?P<b>{_NEW})(?: now)?,? (?:and )?not (?:a |an |the |in |at )?(?P<a>{_PHRASE})"
    r"(?=\s*[^\w\s]|\s*$| (?:anymore|any more|at all|lol|haha|btw|though)\b| n[ữu]a\b)",
    re.IGNORECASE,
)
_ONCE = re.compile(
    r"\b(?:today|tonight|this time|for once|yesterday|this morning|last night|just once)\b", re.I
)
UNREAL = re.compile(
    r"想|打算|准备|考虑|计划|如果|要是|万一|假如|会不会|可能|吗|[?？]|以前|之前|曾经|当年|"
    r"\b(?:if|might|maybe|thinking|planning|plan to|want to|would|could|used to|years ago)\b",
    re.IGNORECASE,
)
NOTHING = re.compile(
    r"^(?:别的|其他|那个|这个|什么|啥|它)|^(?:them|it|that|this|something|other)$", re.IGNORECASE
)
# "moved up from Toowoomba to be near Kylie": what the move was for, not where it went
_PURPOSE = re.compile(
    r"^(?:be|help|look|live|stay|take|care|get|work|study|save|see|start|join|support|raise|"
    r"make|do|go|keep|spend|try|find|pay|visit|settle)\b",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"[^，,。.;；!！?？]+[?？]?")
_RELATION = re.compile(REL)  # the longest relation word first


@dataclass(frozen=True)
class FromTo:
    """``old`` gave way to ``new`` (as said), in ``clause``; ``free``: read from a stop and
    its replacement, so only a description without a value may hold ``old`` as a word;
    ``told_over``: read by :func:`jiyi.core.left_for.left_for`."""

    old: str
    new: str
    clause: str
    free: bool = False
    told_over: bool = False  # read by left_for: the old value told as over, then the new


def from_to(text: str) -> list[FromTo]:
    """The from → to pairs ``text`` states as having happened; [] when none."""
    out: list[FromTo] = _denied(text)
    for c in _CLAUSES.finditer(text):
        clause = c.group().strip()
        if not clause or UNREAL.search(clause):
            continue
        found = (*_ZH.finditer(clause), *_EN.finditer(clause), *_EN_SWAP.finditer(clause))
        # "had Pepsi instead of Coke today": one time, not a change
        instead = [] if _ONCE.search(clause) else list(_EN_INSTEAD.finditer(clause))
        for m in (*found, *instead):
            if m.groupdict().get("r") and m.group(0).lower().split()[-2] == "for":
                continue  # "changed my plans for Friday": no new name
            if pair := _values(m):
                out.append(FromTo(*pair, clause))
    return out


def _values(m: re.Match[str]) -> tuple[str, str] | None:
    """The old and the new value a match names (x / a, y / b); None when they are one, a
    filler (换成别的), or the new one is what the change was for ("to be near Kylie")."""
    found = m.groupdict()
    old = (found.get("x") or found.get("a") or "").strip()
    new = (found.get("y") or found.get("b") or "").strip()
    if not old or not new or old.lower() == new.lower():
        return None
    if NOTHING.match(new) or NOTHING.match(old) or _PURPOSE.match(new):
        return None
    return old, new


def _denied(text: str) -> list[FromTo]:
    """The pairs said as the old value denied beside the new one (_NOT_ZH, _NOT_EN); the
    clause is the sentence up to the pair, so a question, wish or plan before it counts."""
    out: list[FromTo] = []
    for pattern in (_NOT_ZH, _NOT_EN):
        for m in pattern.finditer(text):
            said = text[sentence_start(text, m.start()) : m.end()].strip()
            rest = text[m.end() :].split("\n")[0][:12]
            if UNREAL.search(said) or rest.lstrip().startswith(("?", "？", "吗")):
                continue
            if pair := _values(m):
                out.append(FromTo(*pair, said))
    return out


_RELATION_EN = re.compile(
    r"^(?:my|our) (?:(?:little|older|younger|big|oldest|youngest|eldest) )?(?P<r>"
    + "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
    + r"|boy|girl)\b",
    re.IGNORECASE,
)


def relative_of(clause: str) -> str | None:
    """The relation key of the relative ``clause`` opens with (我哥 / 女儿 / 我们家老大 /
    "my son")."""
    opened = strip_openers(clause)
    if en := _RELATION_EN.match(opened):
        said = en["r"].lower()
        return {"boy": "son", "girl": "daughter"}.get(said) or RELATIONS_EN[said]
    rest = re.sub(r"^(?:我|俺)(?:们)?家?的?", "", opened)
    word = _RELATION.match(rest)
    return RELATIONS_ZH[word.group()] if word else None
