"""The user's newer word on a topic ranks above the older one (read path, pure).

Reconciling by slot (core/reconcile.py) retires an old value only when the correction is
placed in the old fact's slot. Phrasings no rule knows ("周三老加班，游泳就挪到周五晚上了",
"my sister packed up and went to Tucson") leave the old fact active, and it outranks the
newer message: the agent answers with the outdated value. This step does not decide that
anything is outdated, and it changes nothing stored; among the hits of one search it puts a
later statement of the user *about the same thing* and *saying that it changed* directly
above the earlier hits it follows:

- **same thing**: the two share a content word (not a function word, not a single Chinese
  character, not a short English word) in one clause of the newer message: 游泳, sister,
  多肉葡萄, Phoenix (the old value, named as left behind);
- **changed**: that clause carries a change marker (现在, 改成, 挪到, 不…了, now, instead,
  switched, left, no longer, these days …) and is not a question, a wish, a plan being
  weighed, a memory of the past ("以前", "used to") or said of someone else ("my buddy
  moved to Seattle");
- **close enough**: the newer hit already scores at least ``ratio`` of the older one, so a
  barely related message is never lifted.

The older hits keep their place relative to each other, one below the newer hit; the
newer hit's score becomes the older one's (the order stays sorted by score) and its
components gain ``newer`` (1.0), the older ones' ``followed`` (1.0).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from functools import lru_cache

from jiyi.core.extraction.segment import is_request_or_question, split_clauses
from jiyi.core.extraction.subject import Who, read_subject
from jiyi.core.models import MemoryItem, MemoryKind, SearchHit
from jiyi.core.text import STOPWORDS, has_cjk, to_simplified, tokenize

__all__ = ["CHANGED_LABEL", "newer_first", "says_changed"]

# How a context block labels what the user's newer word says has changed.
CHANGED_LABEL = {"zh": "后来可能已变", "en": "may have changed since"}

# A later message must be this much later to count as newer: not a fact and the message it
# came from, nor two messages of one batch without their own times (they share one time).
_LATER = timedelta(seconds=1)
# Words of a stored fact's wording ("User's sister lives in…", "用户的…") that name nobody's
# topic.
_FRAME = frozenset(
    """user users user's 用户 their they've they're lives live living works work working
    called named name is are has have every usually always""".split()
)
# Words every topic shares: time, quantity, filler. A shared 上个月 or "old" is no topic.
_GENERIC = frozenset(
    """old new lol haha since thing things stuff year years month months week weeks day days
    time times today yesterday tomorrow wasn isn didn doesn don can't won't back lot really
    已经 上个 上个月 这个月 下个月 去年 今年 明年 年底 年初 那天 这天 今天 昨天 最近 过去 好多
    一直 时候 现在 以后 之后 后来 开始 那边 这边 我而家 而家 觉得 感觉 有点 实在 因为 所以 哈哈
    不了""".split()
)
# 我哥 / 用户的哥哥 / 哥: one relative, however written.
_KIN_CHAR = {c: c + c for c in "哥姐弟妹妈爸"}
# Matched on simplified text (_clause_words simplifies first).
_CHANGE_ZH = re.compile(
    r"现在|如今|目前|这阵子|最近开始|从此|以后|后来|"
    r"改成|改为|改到|改叫|改口|改名|改喝|改吃|改点|换成|换到|换了|"
    r"挪到|调到|调去|转到|搬到|搬去|搬来|搬家|搬走|转去|跳槽|辞职|离职|"
    r"退租|不再|再也不|已经不|早就不|不\S{1,4}了|没再|变成|升到|升上|升了|"
    r"升\S{1,3}(?:年级|级)|而家|\S咗|"
    r"满\S{1,3}岁|开始|从\S{1,8}起|不是\S{1,12}[，,]?(?:而)?是"
)
_CHANGE_EN = re.compile(
    r"\b(?:now|nowadays|these days|any ?more|no longer|instead|switched|switching|swapped|"
    r"changed|moved|relocated|transferred|left|quit|dropped|scrapped|gave up|renamed|"
    r"go by|turned|as of|from now on|started|stopped|packed up|went back|ended up|"
    r"upgraded|downgraded|promoted|took over|turns out|not \w+(?: \w+)? but)\b",
    re.IGNORECASE,
)
# The past, a wish or a plan being weighed: no change of what holds now.
_NOT_NOW = re.compile(
    r"以前|之前|曾经|当年|小时候|年轻时|年轻的时候|想过|考虑|打算|如果|要是|假如|也许|"
    r"本来想|原本想|本想|差点|"
    r"\b(?:used to|back then|back when|when i was|thinking about|thought about|considered|"
    r"considering|might|maybe|if|would|wish|planning to|plan to|was going to|"
    r"(?:almost|nearly) (?:\w+ed|took|went|got|left|quit|bought|sold|gave|made|ran)|"
    r"meant to|ago)\b",
    re.IGNORECASE,
)
_OPENERS = frozenset("其实 说实话 actually honestly".split())
_QUESTION = re.compile(r"[?？]\s*$|吗\s*$")


def newer_first(hits: Sequence[SearchHit], ratio: float, window: int) -> list[SearchHit]:
    """``hits`` (best first) with each qualifying newer statement moved directly above the
    first older hit about the same thing, among the first ``window`` hits. ``ratio`` 0: off."""
    out = list(hits)
    if ratio <= 0 or len(out) < 2:
        return out
    told = _told(out[:window])
    for j in range(1, min(window, len(out))):
        newer = out[j]
        clauses = _changed_clauses(newer.memory)
        if not clauses:
            continue
        same = [i for i in range(j) if _follows(newer, out[i], clauses, ratio)]
        # Only past a stored fact (or a corrected message) on the same thing: between raw
        # messages a later "now" is a conversation going on (LoCoMo R@1 48.3 → 38.5).
        if same and any(_settled(out[i].memory) or out[i].memory.id in told for i in same):
            i = same[0]
            out[i : j + 1] = [_lifted(newer, out[i].score), *map(_followed, out[i:j])]
    _label_below(out, min(window, len(out)), told, ratio)
    return out


def _label_below(hits: list[SearchHit], window: int, told: set[str], ratio: float) -> None:
    """Label a stored fact the user's newer word already outranks on its own, as a lifted one
    is labelled: the block must not show "表哥住在青岛" as current below "表哥现在调去深圳了"."""
    for i, older in enumerate(hits[:window]):
        m = older.memory
        if "followed" in older.scores or not (_settled(m) or m.id in told):
            continue
        for k in range(i):
            newer = hits[k]
            clauses = _changed_clauses(newer.memory)
            if clauses and _follows(newer, older, clauses, ratio):
                hits[k] = _lifted(newer, newer.score)
                hits[i] = _followed(older)
                break


def says_changed(older: str, newer: str) -> bool:
    """Does ``newer`` say, in a clause of now, that the thing ``older`` is about changed
    (the test :func:`newer_first` applies to two hits, on two texts)?"""
    words = _words(older)
    return any(words & c for c in _clause_words(newer))


def _told(hits: Sequence[SearchHit]) -> set[str]:
    """The messages among ``hits`` that a stored fact or preference among them came from
    ("I go to the gym every day at 6am" beside "User goes to the gym every day at 6am")."""
    sources = {i for h in hits if _settled(h.memory) for i in h.memory.source_message_ids}
    return {
        h.memory.id
        for h in hits
        if h.memory.kind == MemoryKind.EPISODE and sources & set(h.memory.source_message_ids)
    }


def _settled(m: MemoryItem) -> bool:
    """A stored fact or preference, or a message whose fact was corrected. Not a plan, goal or
    event: "I went to the conference" later tells what became of a plan, it changes nothing."""
    if m.kind == MemoryKind.EPISODE:
        return m.valid_to is not None
    return m.kind in (MemoryKind.FACT, MemoryKind.PREFERENCE)


def _follows(
    newer: SearchHit, older: SearchHit, clauses: list[frozenset[str]], ratio: float
) -> bool:
    a, b = older.memory, newer.memory
    if b.observed_at - a.observed_at < _LATER or newer.score < ratio * older.score:
        return False
    if a.role not in (None, "user") or (a.speaker and b.speaker and a.speaker != b.speaker):
        return False
    words = _words(a.content)
    return any(words & c for c in clauses)


def _changed_clauses(m: MemoryItem) -> list[frozenset[str]]:
    """The content words of each clause of ``m`` that says something changed (none for an
    assistant's turn, a question, the past, a plan or someone else's news)."""
    if m.role not in (None, "user"):
        return []
    return list(_clause_words(m.content))


@lru_cache(maxsize=4096)
def _clause_words(text: str) -> tuple[frozenset[str], ...]:
    """Per clause that says a thing changed: its content words and its neighbours' ("乌龟那个
    名字是我女儿起的，后来她改口叫它阿呆了" is about the turtle)."""
    text = to_simplified(text) if has_cjk(text) else text
    if _QUESTION.search(text):
        return ()
    clauses = split_clauses(text)
    out = []
    for k, clause in enumerate(clauses):
        if is_request_or_question(clause) or _NOT_NOW.search(clause) or _others(clause):
            continue
        if _CHANGE_ZH.search(clause) or _CHANGE_EN.search(clause):
            near = [c for c in clauses[max(0, k - 1) : k + 2] if not _NOT_NOW.search(c)]
            out.append(frozenset().union(*map(_words, near)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """Content words that can name a topic: no function words or fact wording, no single
    Chinese character (住, 叫, 岁 name no topic), no English word under three letters;
    Chinese in simplified script, English without its ending."""
    keep = set()
    for tok in tokenize(text):  # normalised: simplified, lower case
        t = _KIN_CHAR.get(tok.removeprefix("我"), tok) if has_cjk(tok) else tok
        if t in STOPWORDS or t in _FRAME or t in _GENERIC or t.isdigit() or _marker(t):
            continue
        if (has_cjk(t) and len(t) < 2) or (not has_cjk(t) and len(t) < 3):
            continue
        keep.add(t if has_cjk(t) else _stem(t))
    return frozenset(keep)


def _others(clause: str) -> bool:
    """Said of someone outside the family (他/she may be the relative just named: kept)."""
    return read_subject(clause) in (Who.OTHER, Who.THEY)


def _stem(word: str) -> str:
    """climbing / climbs / climbed → climb: one English word, whatever its ending."""
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            return word[: -len(end)]
    return word


def _marker(word: str) -> bool:
    """A change marker or an opener on its own (现在, 其实, instead): no topic."""
    return bool(_CHANGE_ZH.fullmatch(word) or _CHANGE_EN.fullmatch(word) or word in _OPENERS)


def _lifted(hit: SearchHit, score: float) -> SearchHit:
    return SearchHit.model_construct(
        memory=hit.memory, score=max(hit.score, score), scores=hit.scores | {"newer": 1.0}
    )


def _followed(hit: SearchHit) -> SearchHit:
    return SearchHit.model_construct(
        memory=hit.memory, score=hit.score, scores=hit.scores | {"followed": 1.0}
    )
