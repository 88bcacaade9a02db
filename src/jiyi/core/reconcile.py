"""Reconcile a candidate memory against what is already stored — by slot and value.

A candidate's ``topic`` is its slot and ``value`` what it says about it (see
:mod:`jiyi.core.slots`). Rules, in order (first match wins):

1. **Same slot, same value** (compared explicitly after normalisation; without values, the
   same normalised content) → NOOP: the stored memory is refreshed (observed time,
   importance, confidence, sources), no new row.
2. **Same slot, different value** → SUPERSEDE the slot's newest active memory: the old one
   becomes ``superseded`` with ``valid_to`` and ``superseded_by``; the reason is
   ``user_correction`` when the user marked it as one (其实 / 说错了 / actually …), else
   ``value_changed``. Timeline slots (past events) append instead: ADD; so does a free
   description (``family.husband.about``) when neither side holds a value to compare, unless
   the user marked it as a correction of the present (其实她教的是数学; not 其实他以前…, nor
   其实/actually opening more news that shares the description's own words without saying
   what was wrong: 其实我爸那个五金店生意还行) or the write path found the one description it
   changes (``CHANGES``, core/anaphora.py).
3. **A correction that names the wrong value** ("I'm allergic to almonds, not walnuts",
   "我喜欢的是象棋，刚才说成围棋了") → SUPERSEDE the active memory of the sibling slot that
   holds the named value (``health.allergy.walnut`` for ``health.allergy.almond``), matched
   by value; the caller finds it (``replaced``).
4. **A correction with no slot match**: stored memories that embedding similarity proposes
   (cosine ≥ the calibrated ``related``) are considered only if their slot is *compatible*
   (same area and attribute, subject named generically on one side: ``pet.pet.name`` ~
   ``pet.cat.name``) and their kind is the candidate's. Exactly one such proposal →
   SUPERSEDE it; none or several → ADD. Similarity proposes, the slot decides.
5. **No slot** (an extractor that could not place the memory): the same normalised content
   already active → NOOP; anything else → ADD. Nothing is superseded without a slot.
6. Otherwise ADD. A memory of another slot is never touched, whatever its cosine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from jiyi.core.calibration import Calibration
from jiyi.core.changes import KIN_WORDS, changed_clauses, content_words, stem
from jiyi.core.extraction.lexicon_places import is_place_zh
from jiyi.core.models import Action, Candidate, MemoryItem
from jiyi.core.slots import (
    PARTS,
    compatible,
    is_free_slot,
    is_timeline_slot,
    normalize_value,
    same_value,
)
from jiyi.core.text import has_cjk, normalize, to_simplified

__all__ = ["CHANGES", "NEWS_PARTS", "Decision", "parts_news", "reconcile"]

# A description of someone's past ("他以前也在银行上过班", "she used to teach") adds to what
# they are now; it corrects nothing even after 其实 / actually.
# Words of the past both tests below know.
_THEN_ZH = r"以前|曾经|早年|当年|那时候?"
_THEN_EN = r"used to|back then|formerly|years ago"
_PAST = re.compile(rf"{_THEN_ZH}|之前|过去|\b(?:{_THEN_EN}|before that)\b", re.IGNORECASE)
# Only the past, nothing of now ("before I retired I taught in Sheffield, long time ago now";
# 我退休前在青岛教过书): what was true then replaces nothing true today.
_ONLY_PAST = re.compile(
    rf"{_THEN_ZH}|年轻(?:的)?时候?|小时候|退休前|结婚前|上大学(?:的)?时候|"
    rf"\b(?:{_THEN_EN}|back in (?:the day|\d{{4}})|(?:a )?long time ago|"
    r"before i (?:retired|moved|married|got married|had kids)|when i was (?:young|a kid|"
    r"little|in (?:school|college|university))|in my (?:twenties|thirties|teens|youth))\b",
    re.IGNORECASE,
)
_NOW = re.compile(
    r"现在|目前|如今|这几年|最近|\b(?:currently|these days|nowadays|anymore|any more|"
    r"no longer)\b|(?<!ago )\bnow\b",
    re.IGNORECASE,
)
# Said as more of the same (其实我姐姐最近也养了一只柴犬): it adds to what is known.
_ALSO = re.compile(r"也|又|\b(?:also|too|as well)\b", re.IGNORECASE)
# Name slots of which a user may have several: pets, children, siblings, cousins.
_MANY = re.compile(
    r"^(?:pet\.\w+|family\.(?:son|daughter|child|child\d|brother|sister|grandchild|cousin|"
    r"nephew|niece))\.name$"
)
# Someone around the relative was replaced (幼儿园换园长了, "got a new boss"): news of their
# place, no correction of what they do.
_THEIR_PEOPLE_CHANGED = re.compile(
    r"换(?:了)?(?:个|新)?(?:园长|校长|领导|老板|经理|物业|老师|主任|班主任|店长|房东|上司)|"
    r"\bgot a new (?:boss|manager|principal|landlord|teacher|supervisor)\b",
    re.IGNORECASE,
)
# A name said to have changed or been wrong (改名 / 其实叫 / renamed / "is called X now").
_RENAMES = re.compile(
    r"改名|改叫|改口|改成|换了?名|换个名|名字改|其实|实际上|应该叫|不叫|叫错|记错|说错|现在|如今|"
    r"\b(?:renamed|rename|now|goes by|not called|not named|actually|meant|wrong|"
    r"ended up calling|started calling|these days|instead|never stuck|"
    r"changed (?:his|her|its) name)\b",
    re.IGNORECASE,
)
# Words that correct what was said, as opposed to a change or a stop (quit, 不…了), which
# names no description it replaces.
_CORRECTS = re.compile(
    r"其实|实际上|事实上|说错|记错|搞错|弄错|才是|应该是|不是|"
    r"\b(?:actually|i meant|correction|in fact|rather)\b",
    re.IGNORECASE,
)
# A correction that says what was wrong (其实她教的是历史, "actually it's math, not English"),
# as opposed to 其实 / actually opening more news of the same thing.
_CONTRASTS = re.compile(
    r"的是|才是|应该是|不是|而是|说错|记错|搞错|弄错|"
    r"\b(?:not|i meant|correction|rather|instead|wrong)\b|n't",
    re.IGNORECASE,
)
USER_CORRECTION = "user_correction"
# The metadata key naming the stored memory a candidate changes (core/anaphora.py): a free
# description that says how that one description changed replaces it instead of adding.
CHANGES = "changes"
VALUE_CHANGED = "value_changed"


@dataclass(frozen=True)
class Decision:
    """What to do with one candidate; ``target`` is the stored memory it refers to and
    ``reason`` why (for a SUPERSEDE: ``user_correction`` or ``value_changed``)."""

    action: Action
    candidate: Candidate
    target: MemoryItem | None = None
    reason: str = ""


def _same_text(a: str, b: str) -> bool:
    strip = "。.!！ "
    return normalize(a).strip(strip) == normalize(b).strip(strip)


def parts_news(candidate: Candidate, held: Mapping[str, object]) -> bool:
    """Does a part of ``candidate`` that is news on its own (:data:`NEWS_PARTS`) hold another
    value than ``held`` (slot → value) says (我儿子在二中上高一 → 现在在一中上高一: the same
    grade, another school)?"""
    return any(
        v and held.get(k) and k.endswith(NEWS_PARTS) and not same_value(str(v), str(held[k]))
        for k, v in (candidate.metadata.get(PARTS) or {}).items()
    )


# Parts whose new value is news on its own (a school changed in the same grade, "coffee with
# milk and no sugar now" after two sugars); other parts said beside a head said again refresh
# it (在顺丰干了快八年 restates the employer).
NEWS_PARTS = (".school", ".grade", ".stage", ".major", ".sugar", ".milk", ".ice")


def _says_the_same(candidate: Candidate, stored: MemoryItem) -> bool:
    if parts_news(candidate, stored.metadata.get(PARTS) or {}):
        return False
    if candidate.value is not None and stored.value is not None:
        return same_value(candidate.value, stored.value) or _less_precise(candidate, stored)
    return _same_text(candidate.content, stored.content)


def _redescribes(candidate: Candidate, stored: MemoryItem) -> bool:
    """Is ``candidate`` the stored memory said again with another description, named as the
    one it changes (the pet's name memory "…中华田园犬叫虎子" → "…柴犬叫虎子")?"""
    return candidate.metadata.get(CHANGES) == stored.id and not _same_text(
        candidate.content, stored.content
    )


def _less_precise(candidate: Candidate, stored: MemoryItem) -> bool:
    """A place said less precisely than stored (还是住岳麓区 after 长沙岳麓区, "Portland"
    after "Portland, Oregon") is the same place, not a move; so is an employer (阿里 after
    阿里杭州总部, "Mercy" after "Mercy Hospital") and a drink ("I still drink my latte" after
    "oat milk lattes") unless said as a change."""
    slot = candidate.topic or ""
    drink = (
        slot.startswith("diet.")
        and slot.endswith(".type")
        and not candidate.is_correction
        and not changed_clauses(candidate.quote or candidate.content)
    )
    employer = slot.endswith(".employer") and not (candidate.value or "").startswith("not ")
    if not (slot.startswith("location.") or drink or employer) or not stored.value:
        return False
    new, old = normalize_value(candidate.value or ""), normalize_value(stored.value)
    if employer and has_cjk(new) and len(new) >= 2 and new[0] == old[:1]:
        # 广丰 after 广汽丰田, 北大 after 北京大学: the short name of the same employer
        return re.match(".*?".join(map(re.escape, new)), old) is not None
    return len(new) >= (2 if has_cjk(new) else 4) and new in old


def _adds_a_description(candidate: Candidate, head: MemoryItem) -> bool:
    """A free description with nothing to compare ("he works late" beside "he's at Huawei")
    that is not a correction of the present: it adds, it replaces nothing."""
    if not is_free_slot(candidate.topic or "") or candidate.value or head.value:
        return False
    said = to_simplified(candidate.quote or candidate.content)
    if not candidate.is_correction or not _CORRECTS.search(said) or _ALSO.search(said):
        return True  # a stop or a change of something else ("he quit cooking at home") adds
    if _THEIR_PEOPLE_CHANGED.search(said):
        return True  # 其实我老婆她们幼儿园换园长了 beside 在家带俩孩子: news of their place
    if not _CONTRASTS.search(said) and _topic_words(said) & _topic_words(head.content):
        return True  # 其实我爸那个五金店生意还行 beside 在老家开五金店: more of the same thing
    return bool(_PAST.search(said))


def _topic_words(text: str) -> frozenset[str]:
    """Content words of a description without who it is about: the kin word and a name said
    after it ("User's daughter Emma is in 5th grade" → 5th, grade, oak, ridge, elementary)."""
    names = {
        stem(name.lower())
        for kin, name in re.findall(r"\b([a-z]+) ([A-Z][a-z]+)\b", text)
        if kin in KIN_WORDS or stem(kin) in KIN_WORDS
    }
    return content_words(text) - KIN_WORDS - names


def _another_pet(candidate: Candidate, slot: str) -> bool:
    """Another name for a pet of the same kind, or a child or sibling, not said to be a
    correction or a rename ("I also have a dog named Max", "my dog Max is the best" beside
    Biscuit the pug): a second one, not the first one renamed. A spouse or parent is one."""
    if not _MANY.match(slot):
        return False
    # the clause quoted (叫旺旺) and the memory's words (用户的狗现在叫旺旺: read as a rename)
    said = to_simplified(f"{candidate.quote or ''} {candidate.content}")
    if _RENAMES.search(said):
        return False
    return not candidate.is_correction or bool(_ALSO.search(said))


# One more role said as such ("actually I'm a mom of two as well", 其实我还兼职做家教).
_ANOTHER_ROLE = re.compile(
    r"也是|兼职|兼任|还兼|同时也|\b(?:also|too|as well|on the side)\b", re.IGNORECASE
)


def _another_role(candidate: Candidate, slot: str) -> bool:
    """A role or employer said as one more, with no change said ("my sister drives for Uber
    on weekends too"): a second job, the first stays."""
    if slot not in ("work.role", "work.employer") and not re.fullmatch(
        r"family\.[a-z_]+\.(?:job|employer)", slot
    ):
        return False
    said = to_simplified(candidate.quote or candidate.content)
    return bool(_ANOTHER_ROLE.search(said)) and not changed_clauses(said)


def _school_in_a_place(candidate: Candidate, head: MemoryItem) -> bool:
    """A school named after one held only as a place (转到莫纳什大学了 beside 在澳洲读书):
    which school, added to where; the country or city studied in is not replaced."""
    if candidate.topic != "education.school" or not head.value or not candidate.value:
        return False
    return is_place_zh(to_simplified(head.value)) and not is_place_zh(
        to_simplified(candidate.value)
    )


def _only_past(candidate: Candidate) -> bool:
    """Said of the past alone, with nothing of now: it adds, it replaces no current value."""
    said = to_simplified(candidate.quote or candidate.content)
    return bool(_ONLY_PAST.search(said)) and not _NOW.search(said)


def reconcile(
    candidate: Candidate,
    same_slot: list[MemoryItem],
    similar: list[tuple[MemoryItem, float]],
    cal: Calibration,
    replaced: list[MemoryItem] | None = None,
) -> Decision:
    """Decide ADD / NOOP / SUPERSEDE for ``candidate``.

    Args:
        candidate: the admitted, redacted candidate.
        same_slot: active memories of the same user/agent whose topic equals the candidate's
            (empty when the candidate has no topic).
        similar: active non-episode memories with their cosine to the candidate, best first;
            only consulted for rules 4 and 5.
        cal: the embedder's calibration (its ``related`` threshold).
        replaced: active memories of the slot holding the value the candidate says was
            wrong (``candidate.replaces``), for rule 3.
    """
    slot = candidate.topic
    if not slot:  # rule 5
        for m, _ in similar:
            if m.kind == candidate.kind and _same_text(m.content, candidate.content):
                return Decision(Action.NOOP, candidate, m)
        return Decision(Action.ADD, candidate)
    for m in same_slot:  # rule 1
        if _says_the_same(candidate, m) and not _redescribes(candidate, m):
            return Decision(Action.NOOP, candidate, m)
    if same_slot:  # rule 2
        if is_timeline_slot(slot):
            return Decision(Action.ADD, candidate)
        head = max(same_slot, key=lambda m: (m.created_at, m.id))  # the chain's newest link
        changed = [m for m in same_slot if m.id == candidate.metadata.get(CHANGES)]
        if changed and not _only_past(candidate):  # the one description it changes (anaphora)
            reason = USER_CORRECTION if candidate.is_correction else VALUE_CHANGED
            return Decision(Action.SUPERSEDE, candidate, changed[0], reason)
        if (
            _adds_a_description(candidate, head)
            or _only_past(candidate)
            or _another_pet(candidate, slot)
            or _another_role(candidate, slot)
            or _school_in_a_place(candidate, head)
        ):
            return Decision(Action.ADD, candidate)
        reason = USER_CORRECTION if candidate.is_correction else VALUE_CHANGED
        return Decision(Action.SUPERSEDE, candidate, head, reason)
    wrong = [m for m in replaced or [] if m.kind == candidate.kind and m.topic != slot]
    if wrong and not is_timeline_slot(slot):  # rule 3
        head = max(wrong, key=lambda m: (m.created_at, m.id))
        return Decision(Action.SUPERSEDE, candidate, head, USER_CORRECTION)
    if candidate.is_correction and not is_timeline_slot(slot):  # rule 4
        proposals = {
            m.id: m
            for m, cos in similar
            if cos >= cal.related
            and m.kind == candidate.kind
            and m.topic
            and m.topic != slot
            and compatible(m.topic, slot)
        }
        if len(proposals) == 1:
            (target,) = proposals.values()
            if not _says_the_same(candidate, target):
                return Decision(Action.SUPERSEDE, candidate, target, USER_CORRECTION)
            return Decision(Action.NOOP, candidate, target)
    return Decision(Action.ADD, candidate)  # rule 6
