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
from dataclasses import dataclass
from datetime import datetime, timedelta

from jiyi.core._timebase import (
    _EN_N,
    _MON_EN,
    _MONTHS_EN,
    _WD_EN,
    _WEEKDAYS_EN,
    _WEEKDAYS_ZH,
    _at,
    _day,
    _days,
    _earliest,
    _en_number,
    _month_start,
    _n_zh,
    _Rule,
    _valid_day,
    _week_start,
    _Window,
    cn_number,
)
from jiyi.core.timedates import find_date, resolve_date

__all__ = ["TimeWindow", "cn_number", "find_date", "find_time_window", "resolve_date"]


@dataclass(frozen=True)
class TimeWindow:
    """A search window ``[start, end)``; ``None`` leaves a side open.

    ``recent=True`` asks the caller to prefer the most recent matches ("上次", "last time").
    """

    start: datetime | None
    end: datetime | None
    expression: str
    recent: bool = False


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
        # Not "每周六" (every Saturday: a habit, no window).
        re.compile(r"(?<!每)(?<!每个)(?:这|本)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"),
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
