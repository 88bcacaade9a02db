"""Retractions: the user says an old value no longer holds (zh + en, no model).

"虾没事", "almonds are fine", "我现在不吃素了", "I gave up sugar", "跑不了步了",
"switched from green tea to rooibos", "not a lab": each clause names a value — the
*retracted phrase* — through a cue bound to it in the same clause. This module only reads the
words; :mod:`jiyi.core.retract_holds` says which stored slot/value a phrase matches; the write
path (:mod:`jiyi.pipeline.retract`) retires the memory that literally holds it. A phrase that
no memory holds retires nothing, and embedding similarity never enters.

Five kinds of cue (Chinese in :mod:`jiyi.core.retract_zh`, English in
:mod:`jiyi.core.retract_en`), each with the slots it may touch:

- ``fine`` (X 没事 / X 不过敏 / X is fine): a risk or dislike withdrawn — only ``health.*``
  slots and dislikes; "虾没事" never retires "我喜欢吃虾".
- ``stopped`` (不…了 / 不再 / 戒了 / V不了O / 从X换成 / no longer / quit / gave up / used to /
  switched from X): something that held and ended — any slot but an allergy ("我不吃虾了" is
  no statement about an allergy to it).
- ``wrong`` (不是X(而)是Y / not a X): the value was never right — any slot.
- ``work`` (不在X上班了 / 辞了X的工作 / "don't work in X anymore"): a stop said of a place of
  work — only the job's slots (and a relative's city said as where they work), never where
  the user lives.
- ``died`` (棉花上礼拜去当小天使了 / 走了): a pet that died — only a pet's name memory.

A clause that names a relative (我妈 / my brother, or 他/she continuing one) retracts only
that relative's slots; a clause about the user never touches a relative's; a clause about
someone outside the family (我同事 / my friend, and 他/she continuing them) retracts nothing.

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.core.extraction.lexicon import EMOJI, RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.markers import apostrophes
from jiyi.core.extraction.subject import (
    SOMEONE_ELSE,
    Who,
    name_first,
    read_subject,
    someone_else_before,
)
from jiyi.core.retract_en import EN_CUES, EN_STOP, next_value, right_value
from jiyi.core.retract_zh import INSTEAD_ZH, ONLY_NOT, RIGHT_ZH, STATED, ZH_CUES
from jiyi.core.text import has_cjk, to_simplified

__all__ = ["Retraction", "find_retractions"]


def _latin(text: str) -> bool:
    """Read with the English cues: no Chinese in it (emoji and "bạc xỉu" are no Chinese)."""
    return not has_cjk(text)


def _plain(text: str) -> str:
    """``text`` as the cues read it: simplified characters, typed apostrophes ("isnt")."""
    return to_simplified(apostrophes(text.replace("’", "'")))


_CLAUSES = re.compile(
    r"[，,。.;；!！?？—–:：]+|\s+-\s+|\bbut\b|但是|不过|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])|"
    rf"\s*{EMOJI}\s*"
)


@dataclass(frozen=True)
class Retraction:
    """One retracted phrase: ``phrases`` are its readings (with and without the verb: 吃素,
    素), ``kind`` the cue's kind (``fine``, ``stopped``, ``dropped``: "X is dead to me",
    ``wrong``), ``subject`` the relation
    key of the relative the clause is about (None: the user), ``clause`` where it was said."""

    phrases: tuple[str, ...]
    kind: str
    subject: str | None
    clause: str
    replacement: str | None = None  # what replaced it, when said (从X换成Y, switched from X to Y)


# A worry or a condition states nothing that ended: 我怕以后跑不了步了, "if I quit coffee".
_UNREAL = re.compile(
    r"怕|担心|如果|要是|万一|可能|会不会|恐怕|假如|打算|考虑|想要|想过|想把|准备|计划|试过|差点|差一点|"
    # "nearly quit netball this term": it did not happen
    r"\b(?:if|might|maybe|afraid|worried|worry|in case|could|would|should|wonder|wanna|nearly|"
    r"almost|"
    r"thought about|considered|considering|tried to|i'll|ill|i will|gonna|going to|"
    r"keep saying|keeps saying|one day|someday|"
    # a wish ("my sister wants to quit law"), not "I don't want to eat meat anymore"
    r"(?<!n't )(?<!not )wants? to|thinking (?:about|of)|plans? to|planning to|hop(?:es|ing) to)\b",
    re.IGNORECASE,
)


def _subject(clause: str) -> str | None:
    low = clause.lower()
    for word, key in RELATIONS_ZH.items():
        if word in clause and (len(word) > 1 or word in "妈爸哥姐" or f"我{word}" in clause):
            return key
    for word, key in RELATIONS_EN.items():
        if re.search(rf"\bmy {re.escape(word)}\b", low):
            return key
    return None


# Work said as its activity: stopping the activity ends the job ("my brother quit cooking"
# retires "my brother is a chef"; 我爸不教书了 retires 老师).
_WORK_DONE = {
    "cooking": ("chef", "cook"),
    "driving": ("driver",),
    "teaching": ("teacher",),
    "nursing": ("nurse",),
    "writing": ("writer",),
    "farming": ("farmer",),
    "baking": ("baker",),
    "coding": ("programmer", "developer", "software engineer"),
    "programming": ("programmer", "developer", "software engineer"),
    "practicing law": ("lawyer", "attorney"),
    "做饭": ("厨师",),
    "炒菜": ("厨师",),
    "教书": ("老师", "教师"),
    "开车": ("司机",),
    "开出租": ("出租车司机", "司机"),
    "跑外卖": ("外卖员", "骑手"),
    "送外卖": ("外卖员", "骑手"),
    "种地": ("农民",),
}


# How much, not what: "don't hike much anymore".
_DEGREE = re.compile(r"much|that much|so much|as much|a lot|often|that often|as often|really")


def _readings(match: re.Match[str]) -> tuple[str, ...]:
    found = match.groupdict()
    raw = (found.get("x") or found.get("y") or found.get("z") or "").strip()
    raw = re.sub(r"^(?:那杯|这杯|那瓶|那碗|那个|这个)(?=..)", "", raw)  # 早上那杯美式戒了
    # 最近咖啡戒了 / 今年奶茶不喝了: when it stopped is no part of what stopped
    raw = re.sub(r"^(?:最近|现在|如今|今年|去年|上个?月|这阵子|这段时间|早就|已经)+(?=..)", "", raw)
    x = EN_STOP.sub("", raw).strip(" '")
    x = re.sub(r"^(?:the|my|that|this|all the|all my)\s+(?=\w)", "", x)  # "quit the milk tea habit"
    if _DEGREE.fullmatch(x) and (verb_said := (found.get("ev") or "").strip()):
        x = raw = verb_said  # "don't hike much anymore": hiking stopped, not "much"
    if not x:
        return ()
    verb = found.get("v")
    said: tuple[str, ...] = (x,)
    if verb and verb != "是":  # 不教书了: 书 alone is no value the user held
        said = (verb + x,) if len(x) == 1 else (x, verb + x)
    words = x.split()
    if len(words) > 1 and words[0].endswith("ing"):  # "stopped drinking coffee": coffee
        said += (" ".join(words[1:]),)
    if "ev" in found and x.isascii() and x.isalpha() and _ing(x) != x:
        said += (_ing(x),)  # "I don't hike anymore": the hiking the user liked
    if x != raw:  # "quit cooking at home" is no job given up
        return said
    # "I don't teach anymore": the bare verb of a job, as "teaching" is
    return said + tuple(job for s in said for job in _WORK_DONE.get(s, _WORK_DONE.get(_ing(s), ())))


def _ing(verb: str) -> str:
    """teach → teaching, drive → driving, swim → swimming (a one-word verb; else unchanged)."""
    if " " in verb or not verb.isascii() or verb.endswith("ing"):
        return verb
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", verb):  # swim → swimming, jog → jogging
        return verb + verb[-1] + "ing"
    return (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"


def _said(match: re.Match[str], clause: str) -> str | None:
    """The replacement a cue names, as the user wrote it (case kept)."""
    to = EN_STOP.sub("", match.groupdict().get("to") or "").strip()
    if not to:
        return None
    at = match.start("to")
    return clause[at : at + len(to)]


# A temperature or sweetness, not a value of its own: 美式改成热的 / 奶茶换成少糖.
_ATTRIBUTE = re.compile(r"^(?:热|冰|温|常温|去冰|少冰|多冰|无糖|少糖|半糖|全糖|微糖)的?$")


# "(turns out) she's a Welsh sheepdog(, not a border collie)": what a pet or person is, said
# right before the value denied
_SAID_BEFORE = re.compile(
    r"\b(?:he's|she's|he is|she is) (?:actually |really |just )?(?:an? )?"
    r"(?P<y>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)$|"
    # "(pickle) is like 70% pit bull(, 0% lab)": the share a test found, before the one denied
    r"\b(?:is|'s) (?:like |about |around |mostly )?\d{1,3} ?% "
    r"(?P<p>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)$",
    re.IGNORECASE,
)


def find_retractions(text: str) -> list[Retraction]:
    """The retracted phrases of a user message, clause by clause (see the module doc)."""
    out = _find_retractions(text)
    clauses = [c.strip() for c in _CLAUSES.split(_plain(text))]
    for i, r in enumerate(out):
        later = (
            [c for c in clauses[clauses.index(r.clause) + 1 :] if c] if r.clause in clauses else []
        )
        # "X was wrong, it's Y" / "X is dead to me, Y is my fave": the later clause names Y
        at = clauses.index(r.clause) if r.clause in clauses else -1
        before = clauses[at - 1] if at > 0 else ""
        said = _SAID_BEFORE.search(before) if r.clause.startswith(("not ", "0")) else None
        if r.kind == "wrong" and r.replacement is None and said:
            # "turns out she's a Welsh sheepdog, not a border collie at all": the right one first
            out[i] = Retraction(r.phrases, r.kind, r.subject, r.clause, said["y"] or said["p"])
        elif r.kind in ("wrong", "dropped") and r.replacement is None and _latin(r.clause):
            if right := right_value(later):
                out[i] = Retraction(r.phrases, r.kind, r.subject, r.clause, right)
        elif r.kind == "wrong" and r.replacement is None and later:
            if (right_zh := RIGHT_ZH.match(later[0])) and right_zh["to"] not in r.phrases:
                out[i] = Retraction(r.phrases, r.kind, r.subject, r.clause, right_zh["to"])
        elif r.kind == "stopped" and r.replacement is None and _latin(r.clause):
            # "tennis is done for me, my knees. pickleball now": what took its place
            # (the next clause, or the one after a reason)
            if after := next(filter(None, map(next_value, later[:2])), None):
                out[i] = Retraction(r.phrases, r.kind, r.subject, r.clause, after)
        elif r.kind == "stopped" and r.replacement is None and later:
            # the next clause, or one after a reason (医生说糖分高，现在改喝豆浆)
            instead = next(filter(None, map(INSTEAD_ZH.match, later[:3])), None)
            if instead and instead["to"] not in r.phrases:
                out[i] = Retraction(r.phrases, r.kind, r.subject, r.clause, instead["to"])
    return out


def _find_retractions(text: str) -> list[Retraction]:
    out: list[Retraction] = []
    subject: str | None = None
    previous, before, other = "", None, False
    person: str | None = None
    for raw in _CLAUSES.split(_plain(text)):
        clause = raw.strip()
        if not clause:
            continue
        named = _subject(clause)
        who = read_subject(clause)
        # 阿杰从腾讯离职了: 阿杰's news; only the named one themself can end (小虎过世了), and
        # the clauses after it without a subject are theirs too (大刘把相机卖了，不玩摄影了)
        unsaid = who is Who.UNSAID and named is None
        person = (name_first(clause) if named is None else None) or (person if unsaid else None)
        pronoun = who in (Who.HE_SHE, Who.THEY)  # whoever was named before
        if who in SOMEONE_ELSE and not pronoun:
            other = True  # "My friend Sarah switched from vegetarian to vegan": hers, not ours
        elif not pronoun and not (other and unsaid):  # (我们科主任刚搬家，从太原搬到北京了)
            other = False
        if other:
            previous = clause
            continue
        before, subject = subject, named or (subject if pronoun else None)
        if has_cjk(clause) and "冇" in clause:  # Cantonese 冇事 / 冇問題: 没有
            clause = clause.replace("冇", "没有")
        cues = EN_CUES if _latin(clause) else ZH_CUES
        low = clause.lower()
        if _UNREAL.search(low):
            previous = clause
            continue
        for kind, pattern in cues:
            for m in pattern.finditer(low):
                if _latin(clause) and someone_else_before(clause, m.start()):
                    continue
                if _ATTRIBUTE.match(m.groupdict().get("to") or ""):
                    continue  # 美式改成热的: how the drink is taken changed, not the drink
                if (phrases := _readings(m)) and not (
                    person and not any(person in p for p in phrases)
                ):
                    to = _said(m, clause)
                    out.append(Retraction(phrases, _kind(kind, m), subject, clause, to))
        if (denied := ONLY_NOT.match(clause)) and (right := STATED.match(previous)):
            said = (denied.group("x"),)  # of whom the stating clause spoke
            out.append(Retraction(said, "wrong", named or before, clause, right.group("to")))
        previous = clause
    return out


def _kind(kind: str, match: re.Match[str]) -> str:
    """``work`` for a stop said of a place of work (不在北京上班了, "don't work in Boston
    anymore"): the job's slots only, never where the user lives."""
    found = match.groupdict()
    if found.get("w") or (found.get("ev") or "").strip() in ("work", "working"):
        return "work"
    return kind
