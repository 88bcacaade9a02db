"""Street addresses: Chinese (road + number, estate + building / unit / room) and English.

The province / city / district part of a Chinese address stays (which city someone lives in is
worth remembering); the span starts at the street or estate name, so
``北京市朝阳区建国路88号3号楼501`` keeps ``北京市朝阳区``. A lone number is never an
address: the Chinese detector wants a street suffix followed by a house number (``路88号``),
or an estate name or a second detail next to a building / unit / room number
(``阳光小区3栋``, ``3号楼2单元501``); ``3号线``, ``5月20号`` and ``房间号 501`` stay. The
English one wants ``<number> <Capitalised Name> <Street|St|Rd|…>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.core.pii_kinds import UNITS, Span, View

__all__ = ["find_addresses"]

# Characters that cannot belong to a street or estate name: administrative suffixes (the part
# kept), and the verbs, prepositions and pronouns that come before an address in a sentence.
_STOP = (
    "省市区區县縣镇鎮乡鄉旗在是的到于於住去从從往和与與及近我你他她它们們家址为為这這那条條个個"
    "着著了过過沿向对對找把给給搬回来來到叫说說有就也都还還而且或"
)
_NAME = rf"[^\W\d_A-Za-z{_STOP}]"
_NAME_RE = re.compile(_NAME)
_MAX_NAME = 4

_STREET_END_RE = re.compile(
    r"(?:大街|大道|路|街|道|巷|胡同)"
    r"(?:[一二三四五六七八九十\d]{1,3}段)?"  # Taiwan: 信義路五段7號
    r"(?:\d{1,5}巷)?(?:\d{1,5}弄)?"
    r"\d{1,5}(?:-\d{1,5})?(?:号院|號院|号楼|號樓|号|號|弄)(?![线線])"
)
_ESTATE_SUFFIX_RE = re.compile(
    r"(?:小区|小區|花园|花園|公寓|家园|家園|新村|大厦|大廈|社区|社區|公馆|公館|苑|园|園|城|村|府|庭|湾|灣"
    r"|居|里)$"
)
_STRONG = r"号楼|號樓|栋|棟|幢|单元|單元|室"
_WEAK = r"座|楼|樓|层|層|户|戶|房|号|號|巷|弄"
_DETAIL = (
    rf"(?:[A-Za-z]?\d{{1,4}}[A-Za-z]?(?:{_STRONG}|{_WEAK})(?![线線])"
    r"|[A-Za-z](?:座|栋|棟|区|區)"
    r"|\d{1,3}-\d{1,4}(?:-\d{1,4})?(?![\d-]))"
)
_ROOM = rf"\d{{2,5}}(?:室|房|号房|號房|(?![\d.]|[{UNITS}]))"
# Details after a street number: any number of them, then an optional bare room number.
_TAIL_RE = re.compile(rf"(?:[ -]?{_DETAIL})*(?:[ -]?{_ROOM})?")
# Building details alone: two or more, one of them a building, unit or room.
_DETAILS_RE = re.compile(rf"(?<![\dA-Za-z.\-]){_DETAIL}(?:[ -]?{_DETAIL})*(?:[ -]?{_ROOM})?")
_PART_RE = re.compile(rf"{_DETAIL}|{_ROOM}")
_STRONG_GATE_RE = re.compile(r"[栋棟幢单單室楼樓座]|\d-\d")
_STRONG_RE = re.compile(rf"{_STRONG}|\d-\d|[A-Za-z](?:座|栋|棟)")

_EN_NAME = r"(?!(?:The|A|An|My|Our|Your|His|Her|Their|Of|And|In|On|At)\b)[A-Z][A-Za-z'.-]*"
_EN_ADDRESS_RE = re.compile(
    r"(?<![A-Za-z0-9.,$-])\d{1,5}[A-Za-z]?"
    rf"(?: (?:{_EN_NAME}|\d{{1,3}}(?:st|nd|rd|th))){{1,4}}"
    r" (?:[Ss]treet|St|[Rr]oad|Rd|[Aa]venue|Ave|[Bb]oulevard|Blvd|[Ll]ane|Ln|[Dd]rive|Dr"
    r"|[Cc]ourt|Ct|[Pp]lace|Pl|[Ww]ay|[Tt]errace|[Cc]rescent|[Cc]lose|[Ss]quare|Sq|[Pp]arkway"
    r"|Pkwy|[Hh]ighway|Hwy|[Cc]ircle|Cir)(?![A-Za-z])\.?"
    r"(?:,? (?:Apt|Apartment|Suite|Ste|Unit|Flat|Room|Rm|Floor|Fl)\.? ?#?[A-Za-z0-9-]{1,6}"
    r"|,? #\d{1,5})?(?![A-Za-z0-9-])"
)


def _name_start(v: str, end: int, limit: int = _MAX_NAME) -> int:
    """Start of the name that runs back from ``end`` (at most ``limit`` name characters)."""
    start = end
    while start > 0 and end - start < limit and _NAME_RE.match(v, start - 1):
        start -= 1
    return start


def _chinese(v: str) -> Iterator[Span]:
    for m in _STREET_END_RE.finditer(v):
        start = _name_start(v, m.start())
        if m.start() - start < 2:  # 走路3号, 知道88号: no street name
            continue
        tail = _TAIL_RE.match(v, m.end())
        end = tail.end() if tail else m.end()
        yield "address", start, end
    if _STRONG_GATE_RE.search(v) is None:
        return
    for m in _DETAILS_RE.finditer(v):
        # An estate name right before the details joins them: 阳光小区3栋2单元501.
        start = m.start()
        estate = _ESTATE_SUFFIX_RE.search(v, max(0, start - 3), start)  # ends right at start
        if estate is not None:
            start = _name_start(v, estate.start(), 8)
        details = m.group(0)
        parts = len(_PART_RE.findall(details))
        if _STRONG_RE.search(details) and (parts >= 2 or start < m.start()):
            yield "address", start, m.end()


def find_addresses(v: View) -> Iterator[Span]:
    """Street addresses in the NFKC view ``v``."""
    if not v.digits:
        return
    yield from _chinese(v.text)
    for m in _EN_ADDRESS_RE.finditer(v.text):
        yield "address", m.start(), m.end()
