"""Which stored words a message names, and whose fact a "left X for Y" pair may change.

:func:`jiyi.core.left_for.left_for` reads a pair for one old value; the values it is asked
about are the stored facts' own words that the message repeats (:func:`olds_in`: the slot's
value, or a run of the fact's words such as 万达 in 用户每周六上午去万达的健身房上普拉提 or
"shopify" in "User is a software engineer at Shopify"). :func:`holders` keeps the facts that
hold the old value and belong to whom the message speaks of there: the relative named
before it (我哥不在大连了, "mam sold the house in galway"), a person or pet the fact names
(Bridget, Santi, 大宝), else the user (and the user's pets).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.subject import Who, named_first, read_subject, someone_else_before
from jiyi.core.fromto import FromTo
from jiyi.core.left_for import fit_new, left_for, may_tell_over, typed_in
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.text import as_said, find_word, has_cjk, sentence_start, words_zh
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.fromto import place_swap, plain_text

__all__ = ["holders", "left_for_swaps", "olds_in"]

# Words of a stored fact that are no value of it (said in most facts, or the user's own)
_STOCK_ZH = frozenset(
    "用户 每天 每天晚上 每天早上 早上 晚上 上午 下午 中午 每周 周末 喜欢 工作 上班 今年 现在 一个 "
    "一只 一家 家里 自己 经常 平时 最近 时候 一直 已经 大家 一起 我们 他们 可以 没有 还是 因为 "
    "所以 朋友 公司 学校 岁了 今年 每个 一杯 一次 两次 晚饭 早饭 午饭".split()
)
_STOCK_EN = frozenset(
    "user user's users is are was a an the at in on of to for and as with their his her its "
    "lives live living works working job drives drive goes go has have had named called "
    "name is's every week weeks day days morning mornings evening evenings night nights "
    "usually always now currently also who which that from by into about likes like loves "
    "plays play does do take takes takes their they them there this year years old time "
    "favorite favourite".split()
)
_RELATIVES = frozenset(w.lower() for w in (*RELATIONS_ZH, *RELATIONS_EN))
_PRONOUN = re.compile(r"[他她]|\b(?:he|she|he's|she's|him|her|his)\b")
_KIN_EN = "|".join(
    sorted({w for w in RELATIONS_EN if " " not in w} | {"dog", "cat", "kid", "puppy", "kitten"})
)
_NAMING = re.compile(
    r"renam|call|name|saying|spell|typo|autocorrect|叫|喊|改成|改名|名字|说错|写错|记错|打错",
    re.IGNORECASE,
)
_LATIN = re.compile(r"[A-Za-z0-9][\w'&.-]*")


def _runs(content: str, said: str) -> list[str]:
    """Runs of ``content``'s words (lower case, simplified) that ``said`` repeats."""
    words: Sequence[str]
    if has_cjk(content):
        words = words_zh(content)
        stock = _STOCK_ZH
        join = ""
    else:
        words = _LATIN.findall(content)
        stock = _STOCK_EN
        join = " "
    out: list[str] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and (join.join(words[i : j + 1]) in said):
            j += 1
        while j > i + 1 and words[j - 1] in stock:
            j -= 1  # no stock word at either end: "moncton", not "in moncton"
        while i < j - 1 and words[i] in stock:
            i += 1
        run = join.join(words[i:j]).strip()
        if j > i and run and not set(words[i:j]) <= stock and len(run) >= 2:
            parts = [run] + [w for w in words[i:j] if w not in stock and len(w) >= 2]
            out += [p for p in dict.fromkeys(parts) if find_word(said, p) >= 0]
            i = j
        else:
            i += 1
    return out


def _pairs(said: str) -> frozenset[str]:
    """Every two characters in a row of ``said``, spaces left out."""
    bare = "".join(said.split())
    return frozenset(bare[i : i + 2] for i in range(len(bare) - 1))


def _shares_pair(plain: str, pairs: frozenset[str]) -> bool:
    """Could ``plain`` share a run with the message of ``pairs``? (A cheap test before
    jieba cuts the fact: every run has two characters in a row that both texts hold.)"""
    bare = "".join(plain.split())
    return any(bare[i : i + 2] in pairs for i in range(len(bare) - 1))


def olds_in(said: str, stored: Sequence[tuple[MemoryItem, str]]) -> list[str]:
    """The stored values and words that ``said`` (plain: simplified, lower case) repeats: a
    slot's value, a typed value (周三), a run of a fact's words and each word of it."""
    found: list[str] = []
    pairs = _pairs(said)
    for m, plain in stored:
        if m.kind == MemoryKind.EPISODE or not m.topic:
            continue
        value = (m.value or "").lower()
        runs = [value] if len(value) >= 2 and value in said and value in plain else []
        runs += [t for t in typed_in(plain) if t in said]
        if _shares_pair(plain, pairs):  # (a run is two characters or more, as said)
            runs += _runs(plain, said)
        for run in runs:
            if run not in found and run not in _RELATIVES:
                found.append(run)
    return found


def _named(plain: str) -> list[str]:
    """The names of people and pets a fact's text gives: after a relation or pet word
    ("User's sister Bridget", "User's son Santi") or after named / called / 叫 (大宝)."""
    names = re.findall(r"(?<=叫)[\u4e00-\u9fff]{2}", plain)
    names += re.findall(r"\b(?:named|called|name is) ([a-z][a-z'-]+)", plain)
    names += re.findall(rf"\b(?:{_KIN_EN}) ([a-z][a-z'-]{{2,}})\b", plain)
    return [n for n in names if n not in _STOCK_EN and n not in _RELATIVES]


def _named_pet(stored: Sequence[tuple[MemoryItem, str]], said: str) -> bool:
    """Does ``said`` name a pet the stored facts name (可可不是泰迪，是比熊)?"""
    return any(
        (m.topic or "").startswith("pet.") and any(n in said for n in _named(plain))
        for m, plain in stored
    )


def _relative_before(said: str, at: int) -> str | None:
    """The relation key of the last relative named before ``at`` in ``said``'s sentence."""
    head = said[sentence_start(said, at) : at]
    if not re.search(r"我|俺|\b(?:i|i'm|im|my|we|our)\b", head):
        head = said[:at]  # 我弟考上公务员了！下个月去区税务局报到，辅警不干了
    best: tuple[int, str] | None = None
    for word, key in (*RELATIONS_ZH.items(), *RELATIONS_EN.items()):
        if re.search(r"[a-z]", word):
            spots = [m.end() for m in re.finditer(rf"\b{re.escape(word)}\b", head)]
        else:
            spots = [m.end() for m in re.finditer(re.escape(word), head)]
        if spots and (best is None or spots[-1] > best[0]):
            best = (spots[-1], key)
    return best[1] if best else None


def holders(
    said: str, pair: FromTo, stored: Sequence[tuple[MemoryItem, str]], as_said: str = ""
) -> list[tuple[MemoryItem, str]]:
    """The stored facts ``pair`` may change: they hold its old value and not its new one, and
    are the facts of whom ``said`` (``as_said``: in the user's own case) speaks of where it
    names the old value."""
    was, now = pair.old.lower(), pair.new.lower()
    at = said.find(was)
    relative = _relative_before(said, at)
    start = sentence_start(said, at)
    sentence = said[start:]
    # "Jake finally quit Amazon lol": a name is read in the case it was said
    by_name = named_first(as_said[start:] if len(as_said) == len(said) else sentence)
    if someone_else_before(sentence, at - start) or (
        relative is None
        and read_subject(sentence) in (Who.OTHER, Who.THEY)
        and not _named_pet(stored, said)
    ):
        return []  # "my mate Dave left Bristol for Bath": not the user's change
    out: list[tuple[MemoryItem, str]] = []
    kin: list[tuple[MemoryItem, str]] = []
    for m, plain in stored:
        topic = m.topic or ""
        if m.kind == MemoryKind.EPISODE or not topic or was not in plain or now in plain:
            continue
        if topic.rsplit(".", 1)[-1].replace("_", " ").rstrip("s") in (was, was.rstrip("s")):
            continue  # health.allergy.penicillin: the slot is the value (retractions read it)
        names = _named(plain)
        if any(was == n or n in was.split() for n in names) and not (
            topic.endswith(".name") and _NAMING.search(pair.clause)
        ):  # a name changes only in a name's slot, said as a name ("Diesel's a bit chunky
            continue  # so he's on fewer treats now" names no new dog)
        if any(re.search(rf"(?<![a-z]){re.escape(n)}(?![a-z])", said) for n in names):
            out.append((m, plain))  # the person or pet the fact names
        elif topic.startswith("family."):
            if relative and topic.startswith(f"family.{relative}."):
                out.append((m, plain))
            elif relative is None and _PRONOUN.search(said):
                kin.append((m, plain))  # 我还当他是三年级: the one relative the fact is of
        elif relative is None:
            subject = read_subject(sentence)
            if (subject in (Who.HE_SHE, Who.OTHER) or by_name) and not topic.startswith("pet."):
                continue  # (阿梅不在杭州了，回老家南昌了: 阿梅's move)
            out.append((m, plain))
    out = out or kin  # (a pronoun stands for a relative only when no fact of the user fits)
    by_value = [(m, p) for m, p in out if was in (m.value or "").lower()]
    return by_value if len({m.topic for m, _ in by_value}) == 1 else out


def left_for_swaps(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """``admitted`` with each value told as left for another swapped in the one fact that
    holds it (see the module doc). Run last: a slot the message fills otherwise is left so."""
    out = list(admitted)
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        said = plain_text(msg.content)
        if not may_tell_over(said):
            continue
        stored = [(m, plain_text(m.content)) for m in store.list(scope, ACTIVE_MEMORIES)]
        read: list[str] = []
        for old in sorted(olds_in(said, stored), key=len, reverse=True):
            if any(old in o for o in read):
                continue  # "left cleveland clinic": not the city of Cleveland
            if (pair := left_for(said, old, msg.content)) is None:
                continue
            read.append(old)
            held = holders(said, pair, stored, msg.content)
            if len({m.topic for m, _ in held}) != 1:
                continue
            pair = replace(pair, new=fit_new(pair.new, pair.old, held[0][1]))
            out = place_swap(replace(pair, new=as_said(msg.content, pair.new)), held, msg, out)
    return out
