"""Time expressions beyond single days: ranges, parts of a month, holidays, quarters, and the
dates written inside stored text.

:mod:`jiyi.core.timewords` resolves the relative words (昨天, 上周, last month) and single
dates; this module adds what it misses and picks the most specific reading of a query:

* ranges — "1月6日至9日", "3月24日到4月2日", "2025-01-06至2025-01-09", "March 6-9";
* parts of a month — 上旬 / 中旬 / 下旬, 月初 / 月中 / 月底, "early / mid / late March";
* holidays, lunar ones included — 春节 (除夕 to 初六), 元宵, 清明, 端午, 中秋, 国庆 (1–7
  Oct), 元旦, 五一, 圣诞 …, with a year ("去年春节", "2025年端午节") or the latest one that
  has begun;
* parts of a year — 上半年 / 下半年, 第一季度 / Q1, 年初 / 年底; "3个月前" / "3 months ago";
* ISO dates and year-months in text ("2025-03-02", "2025-03").

Several dates in one query ("5月13日、5月15日和5月20日") give the span that holds them when it
is at most a month long. :func:`mentioned_windows` reads the explicit dates inside a stored
text ("[日程 2025-03-24 …]", "我们3月24日见"), so an appointment counts on the day it is for,
not only on the day it was written down. Windows are half-open ``[start, end)`` in ``now``'s
timezone, like :class:`~jiyi.core.timewords.TimeWindow`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from jiyi.core.holidays import HOLIDAY_WORDS, holiday_span
from jiyi.core.timewords import TimeWindow, cn_number, find_time_window

__all__ = ["find_query_window", "mentioned_windows", "overlaps", "time_expressions"]

_Span = tuple[datetime, datetime]

_N = r"(?:\d{1,2}|[一二两三四五六七八九十]{1,3})"
_Y = r"(?:(?P<year>\d{4})\s*年|(?P<yrel>今年|去年|前年|明年))?"
_TO = r"\s*(?:至|到|~|～|—|–|－|-)\s*"
_MONTHS_EN = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}  # fmt: skip
_MON_EN = r"(?P<mon>" + "|".join(sorted(_MONTHS_EN, key=len, reverse=True)) + r")\b"


def _at(now: datetime, y: int, m: int, d: int) -> datetime | None:
    try:
        return datetime(y, m, d, tzinfo=now.tzinfo)
    except ValueError:
        return None


def _month_span(now: datetime, y: int, m: int) -> _Span:
    start = datetime(y, m, 1, tzinfo=now.tzinfo)
    end = datetime(y + m // 12, m % 12 + 1, 1, tzinfo=now.tzinfo)
    return start, end


def _year(m: re.Match[str], now: datetime) -> int | None:
    g = m.groupdict()
    if g.get("year"):
        return int(g["year"])
    rel = g.get("yrel")
    return now.year + {"今年": 0, "去年": -1, "前年": -2, "明年": 1}[rel] if rel else None


def _latest(now: datetime, year: int | None, make: Callable[[int], _Span | None]) -> _Span | None:
    """The span for ``year``, or (no year said) the latest one that has begun by ``now``."""
    if year is not None:
        return make(year)
    for y in (now.year, now.year - 1, now.year - 2):
        span = make(y)
        if span is not None and span[0] <= now:
            return span
    return None


def _num(tok: str | None) -> int | None:
    return cn_number(tok) if tok else None


def _day_range(m: re.Match[str], now: datetime) -> _Span | None:
    m1, d1, d2 = _num(m.group("m1")), _num(m.group("d1")), _num(m.group("d2"))
    m2 = _num(m.group("m2")) or m1
    if None in (m1, d1, d2, m2):
        return None
    assert m1 is not None and d1 is not None and d2 is not None and m2 is not None

    def make(y: int) -> _Span | None:
        a = _at(now, y, m1, d1)
        b = _at(now, y + (m2 < m1), m2, d2)
        return None if a is None or b is None or b < a else (a, b + timedelta(days=1))

    return _latest(now, _year(m, now), make)


def _one_day(m: re.Match[str], now: datetime) -> _Span | None:
    mo, d = _num(m.group("m1")), _num(m.group("d1"))
    if mo is None or d is None:
        return None

    def make(y: int) -> _Span | None:
        a = _at(now, y, mo, d)
        return None if a is None else (a, a + timedelta(days=1))

    return _latest(now, _year(m, now), make)


_PARTS = {
    "上旬": (1, 11), "初": (1, 11), "中旬": (11, 21), "中": (11, 21), "下旬": (21, 32),
    "底": (21, 32), "末": (21, 32), "early": (1, 11), "mid": (11, 21), "late": (21, 32),
}  # fmt: skip


def _month_part(m: re.Match[str], now: datetime) -> _Span | None:
    word = m.group("m1")
    mo = _MONTHS_EN.get(word.lower()) if word.isalpha() and word.isascii() else _num(word)
    if mo is None or not 1 <= mo <= 12:
        return None
    first, last = _PARTS[m.group("part").lower()]

    def make(y: int) -> _Span:
        start, end = _month_span(now, y, mo)
        return start.replace(day=first), min(end, start + timedelta(days=last - 1))

    return _latest(now, _year(m, now), make)


def _holiday(m: re.Match[str], now: datetime) -> _Span | None:
    name = m.group("h").lower()
    return _latest(now, _year(m, now), lambda y: holiday_span(name, y, now.tzinfo))


def _year_part(m: re.Match[str], now: datetime) -> _Span | None:
    word = m.group("p").lower()
    q = re.search(r"[1-4一二三四]", word)
    if "上半" in word or "first half" in word:
        months = (1, 7)
    elif "下半" in word or "second half" in word:
        months = (7, 13)
    elif word in ("年初", "初"):
        months = (1, 3)
    elif word in ("年中", "中"):
        months = (6, 8)
    elif word in ("年底", "年末", "底", "末"):
        months = (12, 13)
    elif q:
        n = int(q.group(0)) if q.group(0).isdigit() else cn_number(q.group(0)) or 1
        months = (3 * n - 2, 3 * n + 1)
    else:
        return None

    def make(y: int) -> _Span:
        start = datetime(y, months[0], 1, tzinfo=now.tzinfo)
        end = datetime(y + (months[1] > 12), (months[1] - 1) % 12 + 1, 1, tzinfo=now.tzinfo)
        return start, end

    return _latest(now, _year(m, now), make)


def _months_ago(m: re.Match[str], now: datetime) -> _Span | None:
    tok = m.group("n").lower()
    n = {"a": 1, "one": 1, "two": 2, "three": 3, "几": 3}.get(tok) or _num(tok)
    if not n:
        return None
    index = now.year * 12 + now.month - 1 - n
    return _month_span(now, index // 12, index % 12 + 1)


def _iso(m: re.Match[str], now: datetime) -> _Span | None:
    y, mo = int(m.group("y1")), int(m.group("mo1"))
    if not m.group("d1"):
        return _month_span(now, y, mo) if 1 <= mo <= 12 else None
    a = _at(now, y, mo, int(m.group("d1")))
    if a is None:
        return None
    b = a
    if m.group("d2"):
        b2 = _at(now, int(m.group("y2") or y), int(m.group("mo2") or mo), int(m.group("d2")))
        b = b2 if b2 is not None and b2 >= a else a
    return a, b + timedelta(days=1)


def _en_range(m: re.Match[str], now: datetime) -> _Span | None:
    mo = _MONTHS_EN[m.group("mon").lower()]
    d1, d2 = int(m.group("d1")), int(m.group("d2"))

    def make(y: int) -> _Span | None:
        a, b = _at(now, y, mo, d1), _at(now, y, mo, d2)
        return None if a is None or b is None or b < a else (a, b + timedelta(days=1))

    return _latest(now, int(m.group("year")) if m.group("year") else None, make)


_ISO = (
    r"(?<!\d)(?P<y1>(?:19|20)\d{2})[-/.](?P<mo1>\d{1,2})(?:[-/.](?P<d1>\d{1,2}))?(?!\d)"
    r"(?:" + _TO + r"(?:(?P<y2>(?:19|20)\d{2})[-/.])?(?:(?P<mo2>\d{1,2})[-/.])?(?P<d2>\d{1,2})"
    r"(?![\d:]))?"
)
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime], _Span | None]]
_RULES: list[_Rule] = [
    (re.compile(_ISO), _iso),
    (
        re.compile(
            _Y + r"(?P<m1>" + _N + r")月(?P<d1>" + _N + r")[日号]?" + _TO
            + r"(?:(?P<m2>" + _N + r")月)?(?P<d2>" + _N + r")[日号]"
        ),
        _day_range,
    ),
    (re.compile(_Y + r"(?P<m1>" + _N + r")月(?P<d1>" + _N + r")[日号]"), _one_day),
    (
        re.compile(
            _Y + r"(?P<m1>" + _N + r")月(?:份)?(?P<part>上旬|中旬|下旬|初|中(?![午心国])|底|末)"
        ),
        _month_part,
    ),
    (re.compile(r"\b(?P<part>early|mid|late)[- ]" + _MON_EN.replace("mon>", "m1>"), re.I),
     _month_part),
    (
        re.compile(
            # Not the 过年 of "通过年度" / "经过年…" (two words: 通过 / 年度).
            _Y + r"(?P<h>" + "|".join(map(re.escape, HOLIDAY_WORDS)).replace(
                "过年", "(?<![通经])过年(?!度)") + r")",
            re.I,
        ),
        _holiday,
    ),
    (
        re.compile(
            _Y + r"(?P<p>上半年|下半年|第?[一二三四1-4]季度|[Qq][1-4]|年初|年中|年底|年末)"
        ),
        _year_part,
    ),
    (re.compile(r"(?P<year>\d{4})\s*年(?P<p>初|中|底|末)(?![\d国心午旬])"), _year_part),
    (re.compile(r"\b(?P<p>(?:first|second) half) of (?P<year>\d{4})\b", re.I), _year_part),
    (re.compile(r"(?P<n>" + _N + r"|几)个月(?:前|以前|之前)"), _months_ago),
    (re.compile(r"\b(?P<n>\d{1,2}|a|one|two|three) months? ago\b", re.I), _months_ago),
    (
        re.compile(
            _MON_EN + r"\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?" + _TO
            + r"(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s*(?P<year>\d{4}))?",
            re.I,
        ),
        _en_range,
    ),
]  # fmt: skip

_MAX_HULL = timedelta(days=32)


def _matches(text: str, now: datetime) -> list[tuple[int, int, _Span, bool]]:
    """Every expression as (start, end, span, written out as a date: ISO, range or day)."""
    found: list[tuple[int, int, _Span, bool]] = []
    for i, (pattern, resolve) in enumerate(_RULES):
        for m in pattern.finditer(text):
            span = resolve(m, now)
            if span is not None:
                found.append((m.start(), m.end(), span, i < len(_DOC_RULES)))
    return found


def find_query_window(text: str, now: datetime, *, dates_first: bool = False) -> TimeWindow | None:
    """The time window a query refers to, most specific reading first.

    The leftmost expression wins and, at the same place, the longest ("4月中旬" over "4月",
    "2025年端午节" over "2025年"); relative words ("上周", "last time") come from
    :func:`~jiyi.core.timewords.find_time_window`. Several explicit dates within a month of
    each other give the span that holds them all. With ``dates_first`` dates written out
    outrank a period named beside them: "春节期间（1月28日至31日）" is the 28th to the 31st.
    """
    base = find_time_window(text, now)
    found = _matches(text, now)
    if not found:
        return base
    written = [f for f in found if f[3]]
    if dates_first and written:
        found = written
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    start, end, span, _ = found[0]
    if base is not None:
        pos = text.find(base.expression)
        if pos >= 0 and (pos, -len(base.expression)) < (start, -(end - start)):
            return base
    lo = min(f[2][0] for f in found)
    hi = max(f[2][1] for f in found)
    if len(found) > 1 and hi - lo <= _MAX_HULL:
        span = (lo, hi)
    return TimeWindow(span[0], span[1], text[start:end].strip())


def time_expressions(text: str, now: datetime) -> list[str]:
    """Every time expression found in ``text`` (as written), for callers that must not read
    a date's numbers as anything else."""
    base = find_time_window(text, now)
    found = [text[a:b] for a, b, _, _ in _matches(text, now)]
    return ([base.expression] if base is not None else []) + found


_DOC_RULES: list[_Rule] = _RULES[:3]  # ISO dates, day ranges, single days


def mentioned_windows(text: str, anchor: datetime) -> list[_Span]:
    """The explicit dates (and date ranges) written in a stored text, as whole-day spans.

    A date without a year is the one nearest to ``anchor`` (when the text was written):
    "3月24日" in a note of 2025-03-02 is 2025-03-24, in a note of 2025-12-30 it may be next
    year's. Relative words (明天, next Friday) are not read here.
    """
    if not re.search(r"\d|[一二三四五六七八九十]月", text):
        return []
    out: list[_Span] = []
    for pattern, resolve in _DOC_RULES:
        for m in pattern.finditer(text):
            if m.groupdict().get("year") or m.groupdict().get("y1"):
                span = resolve(m, anchor)
            else:
                span = _nearest(m, resolve, anchor)
            if span is not None:
                out.append(span)
    return out


def _nearest(
    m: re.Match[str], resolve: Callable[[re.Match[str], datetime], _Span | None], anchor: datetime
) -> _Span | None:
    """Resolve a year-less date in the year (anchor's, previous or next) nearest the anchor."""
    best: _Span | None = None
    for shift in (0, -1, 1):
        probe = anchor.replace(year=anchor.year + shift, month=12, day=31)
        span = resolve(m, probe)
        if span is None or span[0].year != anchor.year + shift:
            continue
        if best is None or abs(span[0] - anchor) < abs(best[0] - anchor):
            best = span
    return best


def overlaps(span: _Span, window: TimeWindow) -> bool:
    """Does the whole-day ``span`` meet ``window``?"""
    return (window.start is None or span[1] > window.start) and (
        window.end is None or span[0] < window.end
    )
