"""What the user says has changed, and the words that name what it is about (pure).

Shared by the read path (:mod:`jiyi.core.newer`: the newer word ranks first) and the write
path (:mod:`jiyi.core.anaphora`: a change takes the slot of the one fact it is about).

- :func:`clause_words`: per clause of a message that says a thing changed (a change marker:
  现在, 改成, 挪到, 不…了, now, instead, switched …; not a question, a wish, a plan being
  weighed, the past or someone else's news), its content words and its neighbours';
- :func:`content_words`: the words of a text that can name a topic (no function words, no
  fact wording, no single Chinese character, no short English word; simplified, stemmed).
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiyi.core.extraction.lexicon import PETS_EN, PETS_ZH, RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.segment import is_request_or_question, split_clauses
from jiyi.core.extraction.subject import Who, read_subject
from jiyi.core.text import STOPWORDS, has_cjk, to_simplified, tokenize

__all__ = [
    "KIN_WORDS",
    "PET_WORDS",
    "changed_clauses",
    "clause_words",
    "content_words",
    "is_marker",
    "stem",
]

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
    我家 一直 时候 现在 以后 之后 后来 开始 那边 这边 我而家 而家 觉得 感觉 有点 实在 因为 所以 哈哈
    不了""".split()
)
# 我哥 / 用户的哥哥 / 哥: one relative, however written.
_KIN_CHAR = {c: c + c for c in "哥姐弟妹妈爸"}
# 狗 / 狗子 / 柯基 / 我家狗狗: one pet, however called (a single 狗 is otherwise no word).
_PET_ZH = {w: f"宠物:{kind}" for w, kind in PETS_ZH.items()}
PET_WORDS = frozenset(_PET_ZH.values())
# Matched on simplified text (clause_words simplifies first).
_CHANGE_ZH = re.compile(
    r"现在|如今|目前|这阵子|最近开始|从此|以后|后来|"
    r"改成|改为|改到|改叫|改口|改名|改喝|改吃|改点|换成|换到|换了|"
    r"挪到|调到|调去|转到|搬到|搬去|搬来|搬家|搬走|转去|跳槽|辞职|离职|"
    r"退租|不再|再也不|已经不|早就不|不\S{1,4}了|没再|变成|升到|升上|升了|"
    r"升\S{1,3}(?:年级|级)|而家|\S咗|"
    r"满\S{1,3}岁|开始|从\S{1,8}起|不是\S{1,12}[，,]?(?:而)?是"
)
_CHANGE_EN = re.compile(
    r"\b(?:now|nowadays|these days|any ?more|no longer|instead|switched|switching|swapped|shifted|"
    r"changed|moved|relocated|transferred|left|quit|dropped|scrapped|gave up|renamed|"
    r"go by|turned|as of|from now on|started|stopped|packed up|went back|ended up|"
    r"upgraded|downgraded|promoted|took over|turns out|not \w+(?: \w+)? but)\b",
    re.IGNORECASE,
)
# The past, a wish or a plan being weighed: no change of what holds now.
_NOT_NOW = re.compile(
    r"以前|之前|曾经|当年|小时候|年轻时|年轻的时候|想过|考虑|打算|如果|要是|假如|也许|"
    r"本来想|原本想|本想|差点|(?<![没理思感梦])想(?![到起念法])|准备|计划|希望|"
    r"\b(?:used to|back then|back when|when i was|thinking about|thought about|considered|"
    r"considering|might|maybe|if|would|wish|planning to|plan to|was going to|"
    r"(?:almost|nearly) (?:\w+ed|took|went|got|left|quit|bought|sold|gave|made|ran)|"
    r"meant to|ago|never (?:really |actually )?(?:left|moved|changed|switched|quit|stopped))\b",
    re.IGNORECASE,
)
_OPENERS = frozenset("其实 说实话 actually honestly".split())
_QUESTION = re.compile(r"[?？]\s*$|吗\s*$")


# 叫我改喝绿茶 / 劝我转护理: what someone urges the user to do, said as their words
_URGED = re.compile(
    r"(?:叫|让|劝|要|逼|催|建议|喊)(?:我|俺)(?:去|赶紧|还是)?(?:改|换|转|别|不要|戒|少)"
)
# "以后不这样了 / 再也不酱紫干了": what stops is "this", a day's doing, no stored thing
_VAGUE = re.compile(r"不(?:再|会)?(?:这样|这么|那样|那么|酱紫)")


@lru_cache(maxsize=4096)
def changed_clauses(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each clause of ``text`` that says a thing changed (simplified), with its content words
    and its neighbours' ("乌龟那个名字是我女儿起的，后来她改口叫它阿呆了" is about the turtle)."""
    text = to_simplified(text) if has_cjk(text) else text
    if _QUESTION.search(text):
        return ()
    clauses = split_clauses(text, spaces=has_cjk(text))  # 空格断句 in Chinese chat
    out = []
    wide = 2 if has_cjk(text) else 1
    for k, clause in enumerate(clauses):
        if is_request_or_question(clause) or _NOT_NOW.search(clause) or _others(clause):
            continue
        if _VAGUE.search(clause):
            continue  # 昨天喝了五杯美式…以后不这样了: a resolution about a day, naming nothing
        if _URGED.search(clause) and "了" not in clause:
            continue  # (我妈)叫我改喝绿茶 (我才不要): someone's advice, not what changed
        if _CHANGE_ZH.search(clause) or _CHANGE_EN.search(clause):
            # a neighbour about a relative tells nothing of a clause about the user
            # (女朋友辞职回南京了，我们终于不用异地了: 南京 is where she went, not a change of
            # the user's 南京)
            mine = read_subject(clause) is Who.USER
            near = [
                c
                # (Chinese chat cut at its spaces: two clauses either side)
                for c in clauses[max(0, k - wide) : k + wide + 1]
                if not _NOT_NOW.search(c) and (c == clause or not mine or not _of_kin(c))
            ]
            out.append((clause, frozenset().union(*map(content_words, near))))
    return tuple(out)


def clause_words(text: str) -> tuple[frozenset[str], ...]:
    """The words of each of :func:`changed_clauses`."""
    return tuple(words for _, words in changed_clauses(text))


@lru_cache(maxsize=4096)
def content_words(text: str) -> frozenset[str]:
    """Content words that can name a topic: no function words or fact wording, no single
    Chinese character (住, 叫, 岁 name no topic), no English word under three letters;
    Chinese in simplified script, English without its ending; a Chinese pet word stands for
    its kind (柯基 and 狗子 are one dog)."""
    keep = set()
    for tok in tokenize(text):  # normalised: simplified, lower case
        if has_cjk(tok):
            bare = tok.removeprefix("我").removeprefix("家")
            t = _PET_ZH.get(bare) or _KIN_CHAR.get(bare, tok)
        else:
            t = tok
        if t in STOPWORDS or t in _FRAME or t in _GENERIC or t.isdigit() or is_marker(t):
            continue
        if (has_cjk(t) and len(t) < 2) or (not has_cjk(t) and len(t) < 3):
            continue
        keep.add(t if has_cjk(t) else stem(t))
    return frozenset(keep)


_KIN_HEAD = re.compile(
    r"^(?:我的?|我家的?)?(?:"
    + "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
    + r")|^(?:my |our )?(?:"
    + "|".join(
        sorted((re.escape(w.replace("_", " ")) for w in RELATIONS_EN), key=len, reverse=True)
    )
    + r")\b",
    re.IGNORECASE,
)


def _of_kin(clause: str) -> bool:
    """Does ``clause`` open with a relative (我妹… / 女朋友… / my sister…)?"""
    return read_subject(clause) is Who.FAMILY or bool(_KIN_HEAD.match(clause.strip()))


def _others(clause: str) -> bool:
    """Said of someone outside the family (他/she may be the relative just named: kept)."""
    return read_subject(clause) in (Who.OTHER, Who.THEY)


def stem(word: str) -> str:
    """climbing / climbs / climbed → climb: one English word, whatever its ending."""
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            return word[: -len(end)]
    return word


def is_marker(word: str) -> bool:
    """A change marker or an opener on its own (现在, 其实, instead): no topic."""
    return bool(_CHANGE_ZH.fullmatch(word) or _CHANGE_EN.fullmatch(word) or word in _OPENERS)


# Words naming a relative or pet itself (as content words): every fact of that subject
# shares them, so they name no topic.
_KIN = frozenset(RELATIONS_ZH) | frozenset(RELATIONS_EN) | frozenset(PETS_ZH) | frozenset(PETS_EN)
KIN_WORDS = _KIN | frozenset(stem(w) for w in _KIN) | PET_WORDS | frozenset(_KIN_CHAR.values())
