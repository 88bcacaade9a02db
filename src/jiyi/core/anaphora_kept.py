"""When a fact a change clause meets is kept, not changed (pure): the checks
:func:`jiyi.core.anaphora.clause_targets` runs on the one fact a clause is about.

The message names the fact only by words it says as still so (啤酒照喝), by the fact's own
value named in passing and not left (跑青岛到济南这条线 of the home 青岛), or by a free
description's own words; names the old value as where the change goes or as still true
(我阿哥都搬咗嚟將軍澳); retracts it, or a value it holds in passing, outright ("left DCFS" of
"a caseworker at DCFS"); or is news of the workplace a job fact names ("Starbucks changed the
uniforms", "the paralegal next to me just quit").

Apart from :mod:`jiyi.core.anaphora` (which clause, which subject, which fact) because each
of these reads one stored fact against the message, with its own patterns of leaving and
staying.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.changes import KIN_WORDS
from jiyi.core.models import MemoryItem
from jiyi.core.retract import find_retractions
from jiyi.core.retract_holds import holds
from jiyi.core.slots import PARTS, normalize_value
from jiyi.core.text import to_simplified, tokenize

_KEYED = frozenset({"like", "dislike", "yes", "no"})
# The message leaves the old value behind (辞了银行的工作, left Tesla, 不在…了, from X to Y).
_LEAVES = re.compile(
    r"辞|离开|离职|退|不再|不\S{0,6}了|没再|卸|换掉|戒|删|卖|从\S{1,8}(?:搬|调|转|换|改)|"
    r"\b(?:quit|left|leaving|no longer|not|anymore|stopped|gave up|dropped|sold|from)\b|n't",
    re.IGNORECASE,
)
# Still so (我们还是住在杭州, 我妹现在还在医院上班, still in Leeds): the old value is restated,
# not a reason named beside the change ("tuesdays clash with my shifts").
_STILL = re.compile(
    r"还|仍|依然|依旧|照样|照旧|照(?=[喝吃做去开玩练跑打写看])|仲|继续|"
    r"\b(?:still|remain\w*|stay\w*)\b",
    re.IGNORECASE,
)


def _only_as_still(words: frozenset[str], message: str) -> bool:
    """Are ``words`` (what the message shares with a fact) said only in parts that keep it
    (深圳那个工地封顶了 … 啤酒照喝: the beer, still drunk)? Parts are split at commas and, in
    run-on chat, at spaces."""
    parts = [p for p in re.split(r"[，,。；;！!]+|\s+", message) if p]
    found = [p for p in parts if any(w in p.lower() for w in words)]
    return bool(found) and all(_STILL.search(p) for p in found)


def _only_its_value(old: MemoryItem, words: frozenset[str], message: str) -> bool:
    """Is the fact met only by its own value, which the message names without leaving it?
    (跑青岛到济南这条线 of the home 青岛, 孙子五年级数学题我都看不懂 of the grade 五年级,
    辞职去北京 of a boyfriend working in 北京): a mention of the value, not news of the fact;
    a change names the fact's topic (游泳 / 羽毛球场地) or leaves the value (青岛待不下去了)."""
    if not old.value or old.value in _KEYED:
        return False
    value = to_simplified(old.value).lower()
    # the value as said: 小学五年级 is named by 五年级
    forms = {
        value,
        normalize_value(old.value),
        re.sub(r"^(?:小学|初中|高中|幼儿园)(?=..)", "", value),
    }
    words = frozenset(w for w in words if not any(w in k for k in KIN_WORDS))  # 朋友 of 男朋友
    if not words or not all(any(w in f for f in forms) for w in words):
        return False
    named = [f for f in forms if f and f in message.lower()]
    if not named:
        return False  # a word of it ("he's at Oak Grove Elementary" of Lincoln Elementary)
    return not _left(named, message)


def _only_its_words(old: MemoryItem, words: frozenset[str], message: str) -> bool:
    """A free description (no value) met only by its own words, said and not left ("emma got
    moved up to the advanced reading group in her 5th grade class" of "Emma is in 5th grade
    at Oak Ridge"; 我爸那个五金店生意还行 of 在老家开五金店): news of it, not a change."""
    if old.value or not (old.topic or "").endswith(".about"):
        return False
    words = frozenset(w for w in words if not any(w in k for k in KIN_WORDS))
    said = message.lower()
    # a number of its own said beside them is a new value ("switched to teaching 3rd grade"
    # of "a 2nd grade teacher"), not the old one named again
    held, now = (set(_NUMBER.findall(t.lower())) for t in (old.content, message))
    if held and now - held:
        return False
    return bool(words) and all(w in said for w in words) and not _left(sorted(words), message)


_NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?|[一二两三四五六七八九十百]+(?=年级|岁|年|个|班|楼|号)")


def _left(named: Sequence[str], message: str) -> bool:
    """Does ``message`` leave, close or sell what ``named`` names (离开了华为, 五金店关了, "left
    Boeing", "the shop is closed")?"""
    said = "(?:" + "|".join(re.escape(f) for f in sorted(named, key=len, reverse=True)) + ")"
    left = (
        rf"(?:离开了?|不在|不住|不去|辞掉?了?|退出了?|搬离|告别|从|卖了|\b(?:left|leaving|quit|from|"
        rf"out of|sold|no longer (?:in|at)|not (?:in|at))\s+(?:the\s+)?){said}|"
        rf"{said}\S{{0,4}}?(?:不|没|待不|呆不|住不|腻|拜拜|太|受不了|关|倒闭|黄了|停)|"
        rf"{said}\w*\s+(?:is|was|got|has been) (?:over|done|closed|shut|sold|gone)"
    )
    return bool(re.search(left, message.lower()))


# The user is the one moved or promoted (把我调到急诊 / 我升主管了 / "they moved me to billing").
_MOVES_THE_USER = re.compile(
    r"把我(?![的们])|我被|我(?:已经|刚|也)?(?:调|转|升|换)|调我|升我|"
    r"\b(?:moved|transferred|promoted|bumped|switched) me\b|"
    r"\bi(?:'ve| have)? (?:got|was|been) (?:moved|transferred|promoted|bumped)\b",
    re.IGNORECASE,
)
# Someone at work did it ("the paralegal next to me just quit", 我同事辞职了).
_AT_WORK_OTHER = re.compile(r"同事|\b(?:next to me|coworkers?|co-workers?|colleagues?)\b", re.I)


def _restates(old: MemoryItem, clause: str, message: str) -> bool:
    """The message names the old value as where the change goes (我阿哥都搬咗嚟將軍澳: to the
    user's own place) or as still so, and does not leave it: the user's value stands
    ("moved my Tuesday yoga to Thursdays" names it only as what changed)."""
    if not old.value or old.value in _KEYED:
        return False
    value = normalize_value(old.value)
    # 才回成都的 of a home in 成都锦江区: the city of the stored district is its value too
    city = re.sub(r"(?<=..)[\u4e00-\u9fff]{1,4}(?:区|县|镇|乡|街道)$", "", value)
    value = value if value in message.lower() else city
    if not value or value not in message.lower():
        return False
    to_it = rf"(?:到|去|嚟|来|回|\bto|\binto)\s*(?:the\s+)?{re.escape(value)}"
    # (回成都的, and no other district of it: 搬去成都高新区 is a move)
    if re.search(to_it + r"(?![\u4e00-\u9fff]{0,4}(?:区|县|镇|乡))", clause.lower()):
        return True  # going to where the fact already is: 受不了雾霾才回成都 left 北京
    return not _LEAVES.search(message) and bool(_STILL.search(message))


def _news_of_work(old: MemoryItem, message: str) -> bool:
    """The message names the job or workplace ``old`` holds (a word of its value or of a
    part's) without leaving it, or someone at work: news of the workplace ("Starbucks changed
    the uniforms", 医院把我们科室搬到新大楼了, "the paralegal next to me just quit")."""
    if _AT_WORK_OTHER.search(message):
        return True
    if _LEAVES.search(message) or _MOVES_THE_USER.search(message):
        return False
    held = [old.value or "", *(str(v) for v in (old.metadata.get(PARTS) or {}).values())]
    said = message.lower()
    words = {w for v in held for w in tokenize(normalize_value(v)) if len(w) >= 2}
    return any(w in said for w in words)


def _retracted(old: MemoryItem, message: str) -> bool:
    """The message retracts the fact's value, or a value it holds in passing ("left DCFS" of
    "a caseworker at DCFS"): nothing here to take its slot — a leaving is no new value."""
    held = {old.topic: old.value, **(old.metadata.get(PARTS) or {})}
    return any(
        holds(r, slot, value, old.content)
        for r in find_retractions(message)
        for slot, value in held.items()
    )
