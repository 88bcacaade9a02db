"""Resolve Chinese and English time expressions against a reference time.

Two directions, because the same word means different things in each:

* :func:`find_time_window` reads a *query* ("我上周说了什么", "what did I say last month") and
  returns the window to search in. Bare months and weekdays lean to the past (三月份 = the
  most recent March not after ``now``).
* :func:`resolve_date` reads a *plan* ("下周三要出差", "I'm flying next Friday") and returns
  the start of the day meant. Bare dates and weekdays lean to the future.

All results keep the tzinfo of ``now``; windows are half-open ``[start, end)`` on whole days.
Weeks start on Monday, as in both Chinese and ISO usage.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

__all__ = ["TimeWindow", "cn_number", "find_date", "find_time_window", "resolve_date"]

_T = TypeVar("_T")


@dataclass(frozen=True)
class TimeWindow:
    """A search window ``[start, end)``; ``None`` leaves a side open.

    ``recent=True`` asks the caller to prefer the most recent matches ("上次", "last time").
    """

    start: datetime | None
    end: datetime | None
    expression: str
    recent: bool = False


_CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_NUM = r"(?:\d{1,2}|[一二两三四五六七八九十]{1,3})"
_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_WEEKDAYS_EN = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
    "mon": 0,
    "tue": 1,
    "tues": 1,
    "wed": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
_MONTHS_EN = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "apr": 4,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "couple of": 2,
}
_WD_ZH = r"(?:周|星期|礼拜)(?P<wd>[一二三四五六日天末])"
_WD_EN = r"(?P<wd>" + "|".join(sorted(_WEEKDAYS_EN, key=len, reverse=True)) + r")\b"
_MON_EN = r"(?P<mon>" + "|".join(sorted(_MONTHS_EN, key=len, reverse=True)) + r")\b"
_EN_N = r"(?P<n>\d{1,3}|a couple of|couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten)"


def cn_number(token: str) -> int | None:
    """Parse 1-99 written as digits or Chinese numerals (三, 十二, 二十一, 两); else None."""
    if token.isdigit():
        return int(token)
    if not token or any(ch not in _CN_DIGITS and ch != "十" for ch in token):
        return None
    if "十" not in token:
        return _CN_DIGITS[token] if len(token) == 1 else None
    tens, _, ones = token.partition("十")
    t = _CN_DIGITS.get(tens, -1) if tens else 1
    o = _CN_DIGITS.get(ones, -1) if ones else 0
    return None if t < 0 or o < 0 else t * 10 + o


def _en_number(token: str) -> int:
    return int(token) if token.isdigit() else _EN_NUMBERS[token.lower()]


def _day(now: datetime, offset: int = 0) -> datetime:
    """Midnight ``offset`` days from ``now``'s calendar day."""
    d = now.date() + timedelta(days=offset)
    return _at(now, d.year, d.month, d.day)


def _at(now: datetime, year: int, month: int, day: int) -> datetime:
    # Build from fields (not by adding timedeltas) so a zoneinfo tz picks the right offset.
    return datetime(year, month, day, tzinfo=now.tzinfo)


def _week_start(now: datetime, weeks: int = 0) -> datetime:
    return _day(now, -now.weekday() + 7 * weeks)


def _month_start(now: datetime, months: int = 0) -> datetime:
    index = now.year * 12 + now.month - 1 + months
    return _at(now, index // 12, index % 12 + 1, 1)


def _valid_day(now: datetime, year: int, month: int, day: int) -> datetime | None:
    try:
        return _at(now, year, month, day)
    except ValueError:
        return None


def _days(start: datetime, n: int = 1) -> tuple[datetime, datetime]:
    return start, start + timedelta(days=n)


# ---------------------------------------------------------------- queries (past-leaning)

_Window = tuple[datetime | None, datetime | None, bool]
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime], _Window | None]]


def _past_month(now: datetime, month: int, year: int | None) -> _Window:
    if year is None:
        year = now.year if month <= now.month else now.year - 1
    start = _at(now, year, month, 1)
    end = _at(now, year + month // 12, month % 12 + 1, 1)
    return start, end, False


def _past_date(now: datetime, month: int, day: int, year: int | None) -> _Window | None:
    if year is None:
        year = now.year if (month, day) <= (now.month, now.day) else now.year - 1
    start = _valid_day(now, year, month, day)
    return None if start is None else (*_days(start), False)


def _past_weekday(now: datetime, wd: int) -> _Window:
    start = _day(now, -((now.weekday() - wd) % 7))
    return (*_days(start), False)


def _year_of(m: re.Match[str], now: datetime) -> int | None:
    rel = m.groupdict().get("yrel")
    if rel:
        return (
            now.year
            + {"今年": 0, "去年": -1, "前年": -2, "this year": 0, "last year": -1}[rel.lower()]
        )
    year = m.groupdict().get("year")
    return int(year) if year else None


def _month_zh(m: re.Match[str], now: datetime) -> _Window | None:
    month = cn_number(m.group("mon"))
    if month is None or not 1 <= month <= 12:
        return None
    day_tok = m.groupdict().get("day")
    if day_tok:
        day = cn_number(day_tok)
        return None if day is None else _past_date(now, month, day, _year_of(m, now))
    return _past_month(now, month, _year_of(m, now))


def _n_zh(m: re.Match[str]) -> int:
    tok = m.group("n")
    return 3 if tok == "几" else (cn_number(tok) or 1)


_YEAR_ZH = r"(?:(?P<year>\d{4})年|(?P<yrel>今年|去年|前年))?"
_QUERY_RULES: list[_Rule] = [
    (
        re.compile(r"上次|上一次|之前那次|前一次|last time|previously|the other time", re.I),
        lambda m, now: (None, now, True),
    ),
    (
        re.compile(r"刚才|刚刚|just now|a moment ago", re.I),
        lambda m, now: (now - timedelta(hours=2), now, True),
    ),
    (
        re.compile(r"最近|近来|这阵子|这段时间|recently|lately|these days", re.I),
        lambda m, now: (_day(now, -14), now, True),
    ),
    (re.compile(r"大前天"), lambda m, now: (*_days(_day(now, -3)), False)),
    (re.compile(r"前天|day before yesterday", re.I), lambda m, now: (*_days(_day(now, -2)), False)),
    (
        re.compile(r"昨天|昨晚|昨日|yesterday|last night", re.I),
        lambda m, now: (*_days(_day(now, -1)), False),
    ),
    (
        re.compile(r"今天|今晚|今日|today|tonight|this morning", re.I),
        lambda m, now: (*_days(_day(now)), False),
    ),
    (
        re.compile(r"前几天|几天前|a few days ago|the other day", re.I),
        lambda m, now: (_day(now, -7), _day(now, -1), False),
    ),
    (
        re.compile(r"(?P<n>\d{1,3}|[一二两三四五六七八九十]{1,3})天(?:前|以前|之前)"),
        lambda m, now: (*_days(_day(now, -_n_zh(m))), False),
    ),
    (
        re.compile(_EN_N + r" days? ago", re.I),
        lambda m, now: (*_days(_day(now, -_en_number(m.group("n")))), False),
    ),
    (
        re.compile(
            r"(?P<n>\d{1,2}|[一二两三四五六七八九十]{1,3}|几)(?:个)?(?:周|星期|礼拜)(?:前|以前|之前)"
        ),
        lambda m, now: (*_days(_week_start(now, -_n_zh(m)), 7), False),
    ),
    (
        re.compile(_EN_N + r" weeks? ago", re.I),
        lambda m, now: (*_days(_week_start(now, -_en_number(m.group("n"))), 7), False),
    ),
    (
        re.compile(r"上(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天末])"),
        lambda m, now: (
            *_days(
                _day(_week_start(now, -1), _WEEKDAYS_ZH[m.group("wd")]),
                2 if m.group("wd") == "末" else 1,
            ),
            False,
        ),
    ),
    (
        re.compile(r"last " + _WD_EN, re.I),
        lambda m, now: _past_weekday(now - timedelta(days=1), _WEEKDAYS_EN[m.group("wd").lower()]),
    ),
    (
        re.compile(r"上上(?:个)?(?:周|星期|礼拜)|the week before last", re.I),
        lambda m, now: (*_days(_week_start(now, -2), 7), False),
    ),
    (
        re.compile(r"上(?:个)?(?:周|星期|礼拜)|last week", re.I),
        lambda m, now: (*_days(_week_start(now, -1), 7), False),
    ),
    (
        re.compile(r"(?:这|本)(?:个)?(?:周|星期|礼拜)|this week", re.I),
        lambda m, now: (*_days(_week_start(now), 7), False),
    ),
    (
        re.compile(r"上(?:个)?月|last month", re.I),
        lambda m, now: (_month_start(now, -1), _month_start(now), False),
    ),
    (
        re.compile(r"(?:本|这个)月|this month", re.I),
        lambda m, now: (_month_start(now), _month_start(now, 1), False),
    ),
    (
        re.compile(
            _YEAR_ZH + r"(?P<mon>\d{1,2}|[一二三四五六七八九十]{1,3})月(?:份)?"
            r"(?:(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})[日号])?"
        ),
        _month_zh,
    ),
    (
        re.compile(
            r"\b(?:in |on |during )?" + _MON_EN + r"(?: (?P<day>\d{1,2})(?:st|nd|rd|th)?\b)?"
            r"(?:,? (?P<year>\d{4}))?",
            re.I,
        ),
        lambda m, now: _en_month_past(m, now),
    ),
    (
        re.compile(r"去年|last year", re.I),
        lambda m, now: (_at(now, now.year - 1, 1, 1), _at(now, now.year, 1, 1), False),
    ),
    (
        re.compile(r"今年|this year", re.I),
        lambda m, now: (_at(now, now.year, 1, 1), _at(now, now.year + 1, 1, 1), False),
    ),
    (
        re.compile(r"(?:这|本)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"),
        lambda m, now: _past_weekday(now, _WEEKDAYS_ZH[m.group("wd")]),
    ),
    (
        re.compile(r"\bon " + _WD_EN, re.I),
        lambda m, now: _past_weekday(now, _WEEKDAYS_EN[m.group("wd").lower()]),
    ),
]


def _en_month_past(m: re.Match[str], now: datetime) -> _Window | None:
    word = m.group("mon").lower()
    # "may" and "march" are also ordinary words; only a preposition or a day makes them dates.
    if word in {"may", "march", "jan"} and not (
        m.group(0).lower().startswith(("in ", "on ", "during ")) or m.group("day")
    ):
        return None
    month = _MONTHS_EN[word]
    year = int(m.group("year")) if m.group("year") else None
    if m.group("day"):
        return _past_date(now, month, int(m.group("day")), year)
    return _past_month(now, month, year)


def _earliest(
    rules: list[tuple[re.Pattern[str], Callable[[re.Match[str], datetime], _T | None]]],
    text: str,
    now: datetime,
) -> tuple[re.Match[str], _T] | None:
    """The leftmost match whose rule resolves; on ties the longest expression wins
    (上周三 over 上周, "3月5号" over "3月")."""
    best: tuple[re.Match[str], _T] | None = None
    for pattern, resolve in rules:
        for m in pattern.finditer(text):
            if best is not None and (m.start(), -len(m.group(0))) >= (
                best[0].start(),
                -len(best[0].group(0)),
            ):
                break
            value = resolve(m, now)
            if value is not None:
                best = (m, value)
                break
    return best


_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def _last_season(m: re.Match[str], now: datetime) -> _Window:
    """ "last summer": the latest such season that is over (three months from its first)."""
    first = _SEASONS[m.group("s").lower()]
    for year in (now.year, now.year - 1, now.year - 2):
        start = _at(now, year, first, 1)
        end = _month_start(start, 3)
        if end <= now:
            return start, end, False
    return None, now, False


def _past_year(m: re.Match[str], now: datetime) -> _Window | None:
    """2019年 / "in 2019": that whole year, when it is over."""
    year = int(m.group("y"))
    return (
        (_at(now, year, 1, 1), _at(now, year + 1, 1, 1), False) if 1900 < year < now.year else None
    )


_QUERY_RULES += [
    (re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})年(?![\d一二三四五六七八九十]{1,2}月)"), _past_year),
    (re.compile(r"\bin (?P<y>(?:19|20)\d{2})\b", re.I), _past_year),
    (
        re.compile(r"\b(?:last|this past) (?P<s>spring|summer|fall|autumn|winter)\b", re.I),
        _last_season,
    ),
    (
        re.compile(r"\b(?:this past|over the|last) weekend\b", re.I),
        lambda m, now: (*_days(_day(_week_start(now), -2), 2), False),
    ),
]


def find_time_window(text: str, now: datetime) -> TimeWindow | None:
    """The time window a query refers to, or None when it names no time.

    Args:
        text: a query in Chinese, English or both.
        now: the reference time (tz-aware); the result keeps its tzinfo.

    Returns:
        A :class:`TimeWindow` for the first time expression in ``text``. "上次 / last time /
        之前那次 / previously" give ``TimeWindow(None, now, expr, recent=True)``; "最近 /
        recently" the last 14 days and "刚才 / just now" the last two hours, both ``recent``.
    """
    found = _earliest(_QUERY_RULES, text, now)
    if found is None:
        return None
    m, (start, end, recent) = found
    return TimeWindow(start, end, m.group(0).strip(), recent)


# ---------------------------------------------------------------- plans (future-leaning)

_DateRule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime], datetime | None]]


def _next_weekday(now: datetime, wd: int, *, strictly_after: bool = False) -> datetime:
    ahead = (wd - now.weekday()) % 7
    if ahead == 0 and strictly_after:
        ahead = 7
    return _day(now, ahead)


def _future_date(now: datetime, month: int, day: int, year: int | None) -> datetime | None:
    if year is not None:
        return _valid_day(now, year, month, day)
    for y in (now.year, now.year + 1):
        candidate = _valid_day(now, y, month, day)
        if candidate is not None and candidate >= _day(now):
            return candidate
    return None


def _future_day_of_month(now: datetime, day: int) -> datetime | None:
    for months in range(3):  # 31号 said in a 30-day month means the next month that has one
        base = _month_start(now, months)
        candidate = _valid_day(now, base.year, base.month, day)
        if candidate is not None and candidate >= _day(now):
            return candidate
    return None


def _date_zh(m: re.Match[str], now: datetime) -> datetime | None:
    day = cn_number(m.group("day"))
    if day is None:
        return None
    if m.group("mon") is None:
        return _future_day_of_month(now, day)
    month = cn_number(m.group("mon"))
    return (
        None
        if month is None or not 1 <= month <= 12
        else _future_date(now, month, day, int(m.group("year")) if m.group("year") else None)
    )


def _date_en(m: re.Match[str], now: datetime) -> datetime | None:
    month = _MONTHS_EN[m.group("mon").lower()]
    day = int(m.group("day"))
    return _future_date(now, month, day, int(m.group("year")) if m.group("year") else None)


_DATE_RULES: list[_DateRule] = [
    (
        re.compile(r"(?P<year>\d{4})-(?P<mon>\d{1,2})-(?P<day>\d{1,2})"),
        lambda m, now: _valid_day(
            now, int(m.group("year")), int(m.group("mon")), int(m.group("day"))
        ),
    ),
    (re.compile(r"大后天"), lambda m, now: _day(now, 3)),
    (re.compile(r"后天|day after tomorrow", re.I), lambda m, now: _day(now, 2)),
    (re.compile(r"明天|明晚|明早|明日|tomorrow", re.I), lambda m, now: _day(now, 1)),
    (re.compile(r"今天|今晚|今日|today|tonight|this evening", re.I), lambda m, now: _day(now)),
    (
        re.compile(r"(?P<n>\d{1,3}|[一二两三四五六七八九十]{1,3})天(?:后|以后|之后)"),
        lambda m, now: _day(now, _n_zh(m)),
    ),
    (
        re.compile(r"in " + _EN_N + r" days?", re.I),
        lambda m, now: _day(now, _en_number(m.group("n"))),
    ),
    (
        re.compile(r"下(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天末])"),
        lambda m, now: _day(_week_start(now, 1), _WEEKDAYS_ZH[m.group("wd")]),
    ),
    (
        re.compile(r"(?:这|本)(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天末])"),
        lambda m, now: _day(_week_start(now), _WEEKDAYS_ZH[m.group("wd")]),
    ),
    (re.compile(r"下(?:个)?(?:周|星期|礼拜)|next week", re.I), lambda m, now: _week_start(now, 1)),
    (re.compile(r"下(?:个)?月|next month", re.I), lambda m, now: _month_start(now, 1)),
    (re.compile(r"明年|next year", re.I), lambda m, now: _at(now, now.year + 1, 1, 1)),
    # "next Friday" = the first Friday strictly after today; "this/on Friday" may be today.
    (
        re.compile(r"next " + _WD_EN, re.I),
        lambda m, now: _next_weekday(now, _WEEKDAYS_EN[m.group("wd").lower()], strictly_after=True),
    ),
    (
        re.compile(r"(?<!last )(?<!since )(?<!past )\b(?:this |on |coming )?" + _WD_EN, re.I),
        lambda m, now: _bare_weekday(m, now),
    ),
    (
        re.compile(r"(?<![上个])" + _WD_ZH),
        lambda m, now: _next_weekday(now, _WEEKDAYS_ZH[m.group("wd")]),
    ),
    (
        re.compile(
            r"(?:(?P<year>\d{4})年)?(?:(?P<mon>\d{1,2}|[一二三四五六七八九十]{1,3})月)?"
            r"(?P<day>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]"
        ),
        _date_zh,
    ),
    (
        re.compile(
            r"(?:on )?" + _MON_EN + r" (?P<day>\d{1,2})(?:st|nd|rd|th)?\b(?:,? (?P<year>\d{4}))?",
            re.I,
        ),
        _date_en,
    ),
    (
        re.compile(
            r"(?:on )?(?:the )?(?P<day>\d{1,2})(?:st|nd|rd|th)? (?:of )?"
            + _MON_EN
            + r"(?:,? (?P<year>\d{4}))?",
            re.I,
        ),
        _date_en,
    ),
    # "on the 30th": the next 30th (this month or the next).
    (
        re.compile(r"\bon the (?P<day>\d{1,2})(?:st|nd|rd|th)\b(?! of)", re.I),
        lambda m, now: _future_day_of_month(now, int(m.group("day"))),
    ),
]


# Fixed-date holidays a plan may be pinned to: 五一去西安, "home for Christmas".
_HOLIDAYS = {
    "元旦": (1, 1), "情人节": (2, 14), "妇女节": (3, 8), "五一": (5, 1), "劳动节": (5, 1),
    "六一": (6, 1), "儿童节": (6, 1), "国庆": (10, 1), "国庆节": (10, 1), "双十一": (11, 11),
    "圣诞": (12, 25), "圣诞节": (12, 25), "平安夜": (12, 24), "christmas": (12, 25),
    "christmas eve": (12, 24), "new year's eve": (12, 31), "new year's day": (1, 1),
    "new year's": (1, 1), "halloween": (10, 31), "valentine's day": (2, 14),
    "valentine's": (2, 14), "fourth of july": (7, 4), "4th of july": (7, 4),
    "independence day": (7, 4),
    # school breaks, by their usual start
    "寒假": (1, 20), "暑假": (7, 10), "spring break": (3, 15), "summer break": (6, 20),
    "万圣节": (10, 31), "跨年": (12, 31),
    "summer vacation": (6, 20), "winter break": (12, 20), "christmas break": (12, 20),
}  # fmt: skip
_HOLIDAY_RE = "|".join(sorted(map(re.escape, _HOLIDAYS), key=len, reverse=True))


def _holiday(m: re.Match[str], now: datetime) -> datetime | None:
    month, day = _HOLIDAYS[m.group("h").lower()]
    return _future_date(now, month, day, None)


def _thanksgiving(m: re.Match[str], now: datetime) -> datetime | None:
    for year in (now.year, now.year + 1):
        first = _at(now, year, 11, 1)
        day = _day(first, (3 - first.weekday()) % 7 + 21)  # the fourth Thursday
        if day >= _day(now):
            return day
    return None


def _month_end(m: re.Match[str], now: datetime) -> datetime:
    return _month_start(now, 2 if m.group(0).startswith("下") else 1) - timedelta(days=1)


def _future_month(m: re.Match[str], now: datetime) -> datetime | None:
    """In December / 12月份 (no day): the first of the next such month, or today in it."""
    word = m.group("mon")
    month = (
        _MONTHS_EN.get(word.lower()) if word.isascii() and not word.isdigit() else cn_number(word)
    )
    if month is None or not 1 <= month <= 12:
        return None
    if month == now.month:
        return _day(now)
    return _at(now, now.year + (month < now.month), month, 1)


def _weekend(m: re.Match[str], now: datetime) -> datetime:
    saturday = _next_weekday(now, 5)
    return saturday + timedelta(days=7) if m.group(0).lower().startswith("next") else saturday


_DATE_RULES += [
    # A clock time with no day ("我下午三点有个会", "a meeting at 3pm") is today's.
    (
        re.compile(
            r"(?:上午|下午|晚上|中午|傍晚|早上)[零一二三四五六七八九十两\d]{1,3}点(?:半|钟)?|"
            r"\bat \d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)",
            re.I,
        ),
        lambda m, now: _day(now, 0),
    ),
    (re.compile(r"(?P<h>" + _HOLIDAY_RE + r")", re.I), _holiday),
    (re.compile(r"\bthanksgiving\b|感恩节", re.I), _thanksgiving),
    (re.compile(r"下(?:个)?月(?:底|末)|(?:这个|本)?月(?:底|末)"), _month_end),
    (re.compile(r"\b(?:this|next|on the|over the|the) weekend\b", re.I), _weekend),
    (
        re.compile(
            r"\bin (?:early |mid[- ]|late )?"
            + _MON_EN.replace("(?P<mon>", "(?P<mon>")
            + r"(?! \d)",
            re.I,
        ),
        _future_month,
    ),
    (
        re.compile(
            r"(?<![\d年上去前])(?P<mon>\d{1,2}|十[一二]?|[一二三四五六七八九])月(?:份|初|中|中旬|底)?(?![\d一二三四五六七八九十]|号|"
            r"日)"
        ),
        _future_month,
    ),
]


def _bare_weekday(m: re.Match[str], now: datetime) -> datetime | None:
    word = m.group("wd").lower()
    # "sun", "sat", "mon" are ordinary words too; abbreviations need "on"/"this" before them.
    if len(word) <= 5 and word not in {"friday", "monday", "sunday"} and m.group(0).lower() == word:
        return None
    return _next_weekday(now, _WEEKDAYS_EN[word])


def find_date(text: str, now: datetime) -> tuple[datetime, str] | None:
    """Like :func:`resolve_date`, but also returns the expression that matched."""
    found = _earliest(_DATE_RULES, text, now)
    return None if found is None else (found[1], found[0].group(0).strip())


def resolve_date(text: str, now: datetime) -> datetime | None:
    """The day a plan refers to, as midnight in ``now``'s timezone, or None.

    Future-leaning: 周五 / "on Friday" is today or the next Friday, 3月5号 and "May 3" are the
    next such date on or after today, 5号 is the 5th of this month or the next; 下周三 is the
    Wednesday of next (Monday-based) week, 下个月 the first of next month and "next Friday" the
    first Friday strictly after today.

    Args:
        text: a message in Chinese, English or both.
        now: the reference time (tz-aware), usually the message timestamp.
    """
    found = find_date(text, now)
    return None if found is None else found[0]
