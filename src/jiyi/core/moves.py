"""Who moved to which city, in a Chinese message (read only; pure, no I/O).

A move is told in many ways that name the new city and leave the slot to the listener:
公司把我调去苏州了, 我哥今年去了多伦多工作, 我姐嫁到深圳去了, 女儿研究生考到了北京,
年初跟老公去了成都，在那边安家了. What they share is a person (the user, or a relative by
the word that opens the clause), a verb that takes someone somewhere to stay, and a city.
:func:`moves` reads those three; :mod:`jiyi.pipeline.moves` finds the one stored fact of that
person that holds a city and swaps the value.

- A verb that settles by itself: 搬 / 调 / 派 / 嫁 / 迁 / 移民 / 考 / 转学 / 跳槽 to a city,
  or 在 a city 定居 / 安家 / 落户 / 扎根 / 买了房.
- A verb that only goes (去了 / 到了 / 回了): a move when the clause says what the stay is
  (工作, 上班, 读书, 生活, 住 …) or another clause of the message says the person settled
  there (在那边安家了, 一家人都过去了, 长期待下去, 不回来了).
- Never a trip (出差, 玩, 看我姨, 几天, 一趟, 去过), a plan, a wish or a worry (想, 打算,
  准备, 要, 下个月 …), the past (以前, 小时候), a question, a negation (没搬), or someone
  who is neither the user nor a relative (同事, 朋友).

Text is read in simplified characters; spans index the simplified text, which has the same
length as the text said when the conversion kept it (callers check).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.core.extraction.lexicon import RELATIONS_ZH
from jiyi.core.extraction.lexicon_places import CITIES_ZH
from jiyi.core.extraction.subject import Who, read_subject, strip_openers

__all__ = ["Move", "moves", "relative_of"]

_HAN = r"[\u4e00-\u9fff]"
# Two to four characters after the verb; the city is the longest known name they start with.
_GO = re.compile(
    r"(?P<v>(?:搬|迁|调|派|外派|嫁|移民|转学|跳槽|考|回|去|到|来)(?:到|去|回|往|来)?"
    r"(?:了|过)?(?:到|去)?)"
    # the city in a lookahead: 去年就回了老家南昌 must still reach 回 after 去 of 去年
    rf"(?=(?:[她他我]的?)?(?:老家)?(?P<x>{_HAN}{{2,6}}))"
)
_SETTLES = re.compile(r"^(?:搬|迁|调|派|外派|嫁|移民|转学|跳槽|考)")
_IN = re.compile(
    rf"在(?P<x>{_HAN}{{2,6}}?)(?:定居|安家|落户|扎根|买了?房|买了?房子)|"
    # 我弟现在人在东莞: where the person is now, with no verb of going
    rf"(?:现在|目前|如今)人?在(?P<y>{_HAN}{{2,6}})"
)
# What a stay is, said after the city in the same clause: 去了多伦多工作 / 回了合肥住.
_STAY = re.compile(
    r"^(?:的)?(?:工作|上班|打工|发展|定居|生活|住|安家|读书|上学|念书|读研|读大学|养老)"
)
# Said in another clause: the person settled where the move took them.
_SETTLED = re.compile(
    r"安家|定居|落户|扎根|住下|住进|长期待|待下去|不回来了|都过去了|都搬过去|买在这边|买在那边|"
    r"买了房|房子也买|住过去|常住"
)
_VISIT = re.compile(
    r"出差|旅游|旅行|玩|开会|培训|度假|出游|看病|住院|探亲|办事|参展|比赛|考试|看[我她他]|"
    r"几天|趟|两天|三天|一周|一个星期|看看|逛|参加|过(?!去)|今天|明天|昨天|今晚|刚才|每天"
)
_UNREAL = re.compile(
    r"想|打算|准备|考虑|计划|可能|也许|如果|要是|万一|假如|会不会|怕|担心|希望|要(?!求)|"
    r"下(?:个)?月|下周|明年|以后|将来|以前|之前|曾经|小时候|那时候|当年|[?？吗]"
)
_NEGATED = re.compile(r"没(?:有)?(?:搬|去|调|回|嫁|考)|不(?:搬|去|调|回|嫁)")
_CLAUSES = re.compile(r"[^，,。.;；!！?？\s]+[?？]?")
_US = re.compile(r"^(?:我们家|我们|我家|全家|一家人?|咱们|咱家)")
_ORG = re.compile(r"^(?:我们|我|咱们)的?(?:公司|单位|厂|学校|店|部门|团队|工地|医院)")
# The whole household went: 我们全家回了合肥 settles by itself.
_ALL = re.compile(r"全家|一家人?(?:都)?|我们家|咱家")


@dataclass(frozen=True)
class Move:
    """``who`` moved to ``city`` (``who``: None for the user, else a relation key such as
    ``brother``); ``start``/``end`` index the city in the simplified text, ``clause`` the
    clause that said it."""

    who: str | None
    city: str
    start: int
    end: int
    clause: str


def _city(span: str) -> str | None:
    """The known city ``span`` starts with (the longest), if any."""
    for n in range(min(len(span), 6), 1, -1):
        if span[:n] in CITIES_ZH and span[:n] not in _NOT_CITIES:
            return span[:n]
    return None


# Words of the place list that name no one city a person lives in.
_NOT_CITIES = frozenset({"国外", "海外", "外地", "老家", "湾区", "硅谷"})


def relative_of(clause: str) -> str | None:
    """The relation key of the relative ``clause`` opens with (我哥 / 女儿 / 我们家老大)."""
    rest = re.sub(r"^(?:我|俺)(?:们)?家?的?", "", strip_openers(clause))
    for word in sorted(RELATIONS_ZH, key=len, reverse=True):
        if rest.startswith(word):
            return RELATIONS_ZH[word]
    return None


def _who(clause: str) -> tuple[bool, str | None] | None:
    """(said of the user or a relative, that relative's key); None when the clause names
    nobody (它 aside, whoever was named before is meant)."""
    text = strip_openers(clause)
    who = read_subject(text)
    if who in (Who.FAMILY, Who.UNSAID) and (key := relative_of(text)):
        return True, key
    if who == Who.UNSAID and not _US.match(text):
        return None
    if who == Who.HE_SHE:
        return False, "he_she"  # a relative named before, see moves()
    if _ORG.match(text):
        return False, None  # 我们公司搬去深圳了: the workplace moved, not the user's home
    return (who == Who.USER or (who == Who.UNSAID and bool(_US.match(text)))), None


def moves(text: str) -> list[Move]:
    """The moves ``text`` (simplified) tells, in order; [] when none is sure."""
    clauses = [(m.start(), m.group()) for m in _CLAUSES.finditer(text)]
    settled = any(_SETTLED.search(c) for _, c in clauses)
    out: list[Move] = []
    who_before: tuple[bool, str | None] = (True, None)
    for at, clause in clauses:
        said = _who(clause)
        if said == (False, "he_she"):  # 我哥……，他去年搬去多伦多了: the relative named before
            said = who_before if who_before[1] else (False, None)
        if said is None and who_before[1]:
            continue  # 我妈身体不好，回了老家: the user or the mother? neither is sure
        ok, who = who_before = said or who_before
        if not ok or _UNREAL.search(clause) or _NEGATED.search(clause):
            continue
        for m in list(_GO.finditer(clause)) + list(_IN.finditer(clause)):
            g = "x" if m.groupdict().get("x") else "y"
            city = _city(m.group(g))
            if city is None:
                continue
            verb = m.groupdict().get("v") or ""
            after = clause[m.start(g) + len(city) :]
            if _VISIT.search(clause[: m.start()] + verb) or _VISIT.search(after):
                continue
            strong = not verb or bool(_SETTLES.match(verb) or _ALL.search(clause[: m.start()]))
            if not strong and not (_STAY.match(after) or settled):
                continue
            start = at + m.start(g)
            out.append(Move(who, city, start, start + len(city), clause))
            break
    return out
