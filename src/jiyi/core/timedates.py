"""Plan dates: "下周三要出差", "I'm flying next Friday", 五一去西安 → the start of the day meant.

Bare dates and weekdays lean to the future here (the query side, which leans to the past, is
:mod:`jiyi.core.timewords`). Results keep the tzinfo of ``now``."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from jiyi.core._timebase import (
    _EN_N,
    _MON_EN,
    _MONTHS_EN,
    _WD_EN,
    _WD_ZH,
    _WEEKDAYS_EN,
    _WEEKDAYS_ZH,
    _at,
    _day,
    _earliest,
    _en_number,
    _month_start,
    _n_zh,
    _valid_day,
    _week_start,
    cn_number,
)

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
