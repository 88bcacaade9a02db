"""Shared pieces of the time-word resolvers (:mod:`jiyi.core.timewords` for query windows,
:mod:`jiyi.core.timedates` for plan dates): number words, weekday and month names, whole-day
arithmetic that keeps ``now``'s tzinfo, and the leftmost-longest rule matcher."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypeVar

_T = TypeVar("_T")


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


_Window = tuple[datetime | None, datetime | None, bool]
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime], _Window | None]]


def _n_zh(m: re.Match[str]) -> int:
    tok = m.group("n")
    return 3 if tok == "几" else (cn_number(tok) or 1)


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
