"""A change no rule made a fact of, placed in the slot of the one fact it is about (pure).

"羽毛球场地换到奥森了", "孙子升四年级了", "Mia switched over to Birch Academy": the rules
extract nothing from such a message, so the old fact stayed active and true. Here a clause of
such a message changes the stored fact it is about when all of these hold:

1. the clause says a thing changed (:mod:`jiyi.core.changes`: not the past, a wish, a plan, a
   question or someone else's news) with a **verb of change** (换 / 改 / 挪 / 升 / 辞 /
   switched / moved / quit …) or says a person or thing *is* so now ("Jake's at Roosevelt
   now"; not "now" alone, not "I'm at the library now"), and is no addition (也 / also /
   too) and no news of a place (关门 / 在修 / closed) unless given as the reason ("…since the
   old place closed"); the message states no condition, guess or one coming day (要是 /
   估计 / this Saturday: a one-off, not a lasting change);
2. it is about **one subject**: a "he / she" or "we moved him" clause naming nobody, the
   one relative or pet with a fact the clause or its neighbours share a word with ("We
   pulled Eli out of Lincoln, he's at Oak Ridge now": the son at Lincoln; none when the
   message names someone else); else the relative, pet or stored name it says (我妈 / my
   sister / Jake), else the user;
3. exactly one active fact or preference of that subject shares a content word with the
   clause (and its neighbours): no kin or pet word, no name, no word every routine, liking
   or fact wording shares (周末, 喜欢, drinks, goes). Two or more: nothing, as which one
   changed is unknowable;
4. the clause names a word that fact does not hold (the new value), the fact is no name, no
   health fact and no timeline, the message does not name its value as still so
   (陈太搬咗去元朗，我哋仲係住喺沙田; "tuesdays clash with my shifts" is a reason, not a
   restatement), and does not retract it, or a value it holds in passing, outright ("left
   Phoenix", "left DCFS" of "a caseworker at DCFS": a leaving is no new value), which
   :mod:`jiyi.pipeline.retract` closes as before (these checks of one fact against the
   message are in :mod:`jiyi.core.anaphora_kept`).

Similarity decides nothing here; words and slots do. A candidate the rules *did* extract in
another slot of the same subject is not moved: that lost a fact on a held-out set (issue 8,
2026-12-02, see bench/README.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from jiyi.core.anaphora_kept import (
    _STILL,
    _news_of_work,
    _only_as_still,
    _only_its_value,
    _only_its_words,
    _restates,
    _retracted,
)
from jiyi.core.changes import KIN_WORDS, changed_clauses, content_words, stem
from jiyi.core.extraction.lexicon import HEDGE_RE, PETS_EN, PETS_ZH, RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.lexicon_places import WORKPLACE_MOVES
from jiyi.core.extraction.segment import split_clauses
from jiyi.core.extraction.subject import (
    Who,
    named_first,
    read_subject,
    someone_else_before,
    someone_else_leads,
)
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.core.slots import PARTS, is_timeline_slot
from jiyi.core.text import to_simplified, tokenize

__all__ = ["USER", "clause_targets", "named_subjects", "said_subjects", "subject_of"]

USER = "user"
# Words every routine or liking shares, and the verbs facts are worded with: a new weekend job
# is no change of the weekend hobby, a new favourite singer none of the liked guitar, "I drink
# a lot of water these days" none of the coffee ("drinks", "goes", "likes" as stemmed).
_WORDING = """周末 每天 每周 天天 早上 上午 中午 下午 晚上 平时 经常 喜欢 最喜欢 爱好 喜爱 爱喝 爱吃
    一杯 喝一杯 一只 一家 家有 上班 工作 公司 weekend weekday morning evening night daily week
    like lik love lov enjoy favorite favourite prefer drink go goe do doe play tak take use get
    make have"""
# A weekday: 每周六去爬山 and 这周六要下雨 share a day, not a topic ("saturdays" stems to saturday).
_DAYS = frozenset(f"{p}{d}" for p in ("周", "每周", "星期", "礼拜") for d in "一二三四五六日天") | {
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
}
_SHARED = frozenset(_WORDING.split()) | _DAYS
# An addition, not a change: 也 / 又 / 另外 / also / too / as well.
_ADDS = re.compile(r"也|又|另外|同时|\b(?:also|too|as well|another|additionally)\b", re.IGNORECASE)
# A leaving denied (没离开华为, 没辞职, "didn't leave Boeing", "not moving"): what it names stays.
_DENIED_LEAVING = re.compile(
    r"(?:没|没有|并没有?|不会|不打算|不是要)(?:离开|辞|离职|退|跳槽|搬|换工作|转行|走)|"
    r"\b(?:didn't|did not|never|not|won't|isn't|wasn't|aren't) (?:leave|leaving|left|quit|"
    r"quitting|move|moving|switch|switching|transfer|transferring)\b",
    re.IGNORECASE,
)


# A verb of change: "now" alone, with nothing of the message placed, changes nothing.
_CHANGES = re.compile(
    r"改|换|挪|调|转|搬|辞|离开|离职|退|卸|删|卖|戒|不再|不\S{0,6}了|没再|变成|升|"
    # (not "left my lunch at costco": a thing left somewhere)
    r"\b(?:switched|swapped|changed|moved|transferred|quit|dropped|stopped|gave up|sold|"
    r"left(?! (?:my|his|her|the|our|a|an) \w+(?: \w+)? (?:at|in|on|behind)\b)|"
    r"deleted|no longer|anymore|instead|turned|replaced|retired|promoted|shifted|relocated)\b",
    re.IGNORECASE,
)
# "gym is at lunchtime now", "Jake's at Roosevelt now": a thing or person said to be so now,
# after its verb, is a lasting change; "I'm at the gym now" is where the user is this minute.
_IS_NOW = re.compile(
    r"^(?!\s*i\b)[\w' ]*?(?:\b(?:is|are)\b|'s\b|'re\b)[^,;.!?]*\bnow\b", re.IGNORECASE
)
# A place's hours or repairs, not the user's change (the hall is closed now, 朝阳公园在修).
_PLACE_NEWS = re.compile(
    r"关门|闭馆|停业|歇业|装修|在修|维修|倒闭|拆了|"
    r"\b(?:closed|closing|shut|shuts|renovat\w*|under construction|out of business)\b|"
    # where the workplace is ("our office moved to Capitol Mall"), not the user's job
    rf"{WORKPLACE_MOVES.pattern}|店里[^，,。]{{0,6}}?(?:搬|迁)|"
    r"\b(?:clinic|branch)(?:'s| has| just| recently| finally)* (?:moved|relocated)\b",
    re.IGNORECASE,
)
# Anywhere in the message, nothing has lastingly changed: a condition (要是周二下雨，网球就改到
# 周四), a guess (估计 / probably), or one coming day (这周六要下雨，山估计爬不成了 / this
# Saturday / tomorrow): a one-off skip, not a new routine.
_NOT_YET = re.compile(
    rf"{HEDGE_RE.pattern}|如果|要是|万一|假如|的话|除非|假设|"
    # 下雨天就不去爬山了 / "when it rains I skip the hike": when, not whether
    r"(?:下雨|下雪|刮风|雾霾|天冷|天热|太冷|太热|太忙|太累|加班|出差|生病|感冒)(?:天|的时候|时|了)?就|"
    r"\b(?:when it(?:'s| is)? (?:rains?|raining|snows?|snowing|cold|hot)|on rainy days|"
    r"when i'm (?:busy|tired|sick|traveling|travelling))\b|"
    r"这周[一二三四五六日天末]|这个?礼拜[一二三四五六日天]|这个?星期[一二三四五六日天]|这个周末|今天|明天|后天|今晚|明晚|"
    r"\b(?:if|unless|in case|this (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"weekend)|today|tonight|tomorrow)\b",
    re.IGNORECASE,
)
# A change only talked of: "i keep saying ill quit", "gonna switch", "might move"
_WOULD = re.compile(
    r"\b(?:i'll|ill|i will|gonna|going to|wanna|want to|keep saying|keeps saying|should|might|"
    r"would|could)\b",
    re.IGNORECASE,
)
# The part of a clause after which a change is only the reason: "captain now that jake moved"
_BECAUSE = re.compile(r"\b(?:now that|since|because|cause|cuz)\b|因为|由于|自从", re.IGNORECASE)
# A reason given after the change: "…is Vital now since the old place closed" is no news of
# a place.
_REASON = re.compile(r"\b(?:since|because|cause|cuz|as)\b|因为|由于", re.IGNORECASE)
# How far apart (characters: laughter, an emoji, punctuation) two clauses of one change may be.
_GAP = 6
_TARGETS = (MemoryKind.FACT, MemoryKind.PREFERENCE)
# A job or workplace fact (news of the workplace is no change of it: "Starbucks changed the
# uniforms", 学校换了新校长, 顺丰把我的片区换到西湖区了 each retired the user's job; probes of
# issue 8, 2026-12-03 III).
_WORK_FACT = re.compile(r"^(?:work\.|location\.work$|family\.\w+\.(?:job|employer)$)")


def subject_of(topic: str) -> str:
    """Whom a slot is about: ``family.brother`` / ``pet.dog`` for a relative's or pet's
    slot, :data:`USER` for every other (events included)."""
    parts = topic.split(".")
    if parts[0] in ("family", "pet") and len(parts) >= 3:
        return ".".join(parts[:2])
    return USER


def named_subjects(stored: Iterable[MemoryItem]) -> dict[str, frozenset[str]]:
    """The stored name of each relative and pet (``family.son`` → {jake}), as words."""
    out: dict[str, frozenset[str]] = {}
    for m in stored:
        # a name said in passing ("My daughter Mia goes to Oak Primary") is a part
        for slot, value in {m.topic or "": m.value, **(m.metadata.get(PARTS) or {})}.items():
            if slot.startswith(("family.", "pet.")) and slot.endswith(".name") and value:
                who = slot.rsplit(".", 1)[0]
                words = {t for w in tokenize(str(value)) for t in (w, stem(w))}
                out[who] = out.get(who, frozenset()) | words
    return out


def _said_zh(word: str, clause: str) -> bool:
    return (len(word) > 1 and word in clause) or ("我" + word) in clause


def said_subjects(clause: str, named: dict[str, frozenset[str]]) -> set[str]:
    """Whom ``clause`` is about, by the relative, pet or stored name it says (我妈 / my
    sister / 狗子 / Jake), else the user when it opens with the user or no one."""
    words = set(tokenize(clause))
    out = {f"family.{RELATIONS_EN[w]}" for w in words if w in RELATIONS_EN}
    out |= {f"pet.{PETS_EN[w]}" for w in words if w in PETS_EN}
    out |= {f"family.{k}" for w, k in RELATIONS_ZH.items() if w in words or _said_zh(w, clause)}
    out |= {f"pet.{k}" for w, k in PETS_ZH.items() if w in words or _said_zh(w, clause)}
    out |= {who for who, name in named.items() if name & words}
    if not out and read_subject(clause) in (Who.USER, Who.UNSAID) and not named_first(clause):
        out.add(USER)  # (阿梅不在杭州了: a person the user knows, by a name not stored)
    return out


# "he's at Oak Ridge now", "we moved him to Piedmont IB": a relative or pet, by pronoun
_HIM_HER = re.compile(
    r"^(?:(?:so|and|but|now),? )?(?:he|she)\b|^(?:we|i)(?:'ve| have)? (?:\w+ ){1,2}?(?:him|her)\b",
    re.IGNORECASE,
)


_LASTED = re.compile(r"\b(?:been|for (?:\w+ ){1,3}now)\b", re.IGNORECASE)


def _pronoun_subject(
    clause: str, message: str, near: frozenset[str], stored: Sequence[MemoryItem]
) -> set[str]:
    """Whom a he / she / him / her clause is about when it names nobody: the relatives and
    pets with a stored fact the clause or its neighbours share a word with ("We pulled Eli
    out of Lincoln, he's at Oak Ridge Montessori now": the son whose school is Lincoln) —
    none when the message names someone else ("my coworker's son hated Lincoln, he's …")."""
    if not _HIM_HER.match(clause.strip()) or _LASTED.search(clause) or _STILL.search(message):
        return set()  # "she's been playing for three years now": what has lasted, no change
    if any(
        read_subject(c) in (Who.OTHER, Who.THEY) or someone_else_before(c, len(c))
        for c in split_clauses(message)
    ):
        return set()
    return {
        who
        for m in stored
        if (who := subject_of(m.topic or "")) != USER
        and _can_hold(m, who)
        and content_words(m.content) & near
    }


def _can_hold(m: MemoryItem, subject: str) -> bool:
    topic = m.topic or ""
    return (
        m.kind in _TARGETS
        and bool(topic)
        and subject_of(topic) == subject
        and not topic.endswith(".name")
        and not topic.startswith("health.")
        and not is_timeline_slot(topic)
    )


def clause_targets(message: str, stored: Sequence[MemoryItem]) -> list[tuple[str, MemoryItem]]:
    """(clause, fact) for each clause of ``message`` (a user message no fact was extracted
    from) that changes the one stored fact it is about (see the module doc); ``clause`` is
    in simplified script.

    Args:
        message: the user's message as said.
        stored: the user's active memories.
    """
    named = named_subjects(stored)
    drop = KIN_WORDS | frozenset().union(*named.values()) | _SHARED
    plain = to_simplified(message)
    if _NOT_YET.search(plain):
        return []
    out: list[tuple[str, MemoryItem]] = []
    last: tuple[int, str] | None = None  # where the last placed clause ends, and its subject
    before: tuple[str, int] | None = None  # a change clause without a verb of change
    for clause, near in changed_clauses(message):
        if _PLACE_NEWS.search(_REASON.split(clause, 1)[0]) or _ADDS.search(clause):
            continue
        main = _BECAUSE.split(clause, 1)[0]  # "…now that jake moved to denver": his move
        if _WOULD.search(main):
            continue
        if not (_CHANGES.search(main) or _IS_NOW.search(main)):
            # 以后晚上八点去B站播 (, 抖音不播了): no verb of change, but the new value said first
            before = (clause, plain.find(clause) + len(clause))
            continue
        near = near - drop
        subjects = _pronoun_subject(clause, plain, near, stored) or said_subjects(clause, named)
        if len(subjects) != 1 or (subjects == {USER} and someone_else_leads(plain, clause)):
            continue
        (subject,) = subjects
        at = plain.find(clause)
        held = [m for m in stored if _can_hold(m, subject) and content_words(m.content) & near]
        old = held[0] if len(held) == 1 else None
        if old is not None and _only_as_still(content_words(old.content) & near, plain):
            continue
        if old is not None and _only_its_value(old, content_words(old.content) & near, plain):
            continue
        if old is not None and _only_its_words(old, content_words(old.content) & near, plain):
            continue
        if old is not None and _DENIED_LEAVING.search(plain):
            continue  # 我哥没离开华为 就是换了个部门而已: the fact is said to stay
        # a new day is a new value (choir moved to Thursdays), though no shared topic
        new = content_words(clause) - (drop - _DAYS) - content_words(old.content) if old else set()
        if (
            last
            and last[1] == subject
            and 0 <= at - last[0] <= _GAP
            and (old is None or old is out[-1][1])
        ):  # 学校换了哈哈哈 转到莫纳什大学了: the next clause says what it changed to
            out[-1] = (f"{out[-1][0]}，{clause.lstrip('哈呵嘿 ')}", out[-1][1])
            last = (at + len(clause), subject)
            continue
        if old is None or not new or _restates(old, clause, plain):
            continue
        if _retracted(old, message):
            continue  # retracted outright ("left Phoenix"): the retraction step closes it
        if _WORK_FACT.match(old.topic or "") and _news_of_work(old, plain):
            continue  # news of the workplace, not a change of the user's job
        if before and 0 <= at - before[1] <= _GAP:
            clause = f"{before[0]}，{clause}"  # the clause before named what it changed to
        before = None
        out.append((clause, old))
        last = (at + len(clause), subject)
    return out
