"""Holidays as the days people mean by their names (pure data, no I/O).

春节 is the official break from 除夕 to 初六, 国庆 the first week of October; the lunar ones
(春节, 元宵, 端午, 中秋) move with the lunar calendar and are looked up by year in tables
copied from the published calendars. Used by :mod:`jiyi.core.timeranges` to resolve "去年春节"
or "2025年端午节" to a span of days.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

__all__ = ["HOLIDAY_WORDS", "holiday_span"]

# Lunar-calendar holidays by Gregorian date (正月初一, 端午 五月初五, 中秋 八月十五), from the
# published calendars; outside these years a lunar holiday is not resolved.
_LUNAR_NEW_YEAR = {
    2015: (2, 19), 2016: (2, 8), 2017: (1, 28), 2018: (2, 16), 2019: (2, 5), 2020: (1, 25),
    2021: (2, 12), 2022: (2, 1), 2023: (1, 22), 2024: (2, 10), 2025: (1, 29), 2026: (2, 17),
    2027: (2, 6), 2028: (1, 26), 2029: (2, 13), 2030: (2, 3),
}  # fmt: skip
_DRAGON_BOAT = {
    2015: (6, 20), 2016: (6, 9), 2017: (5, 30), 2018: (6, 18), 2019: (6, 7), 2020: (6, 25),
    2021: (6, 14), 2022: (6, 3), 2023: (6, 22), 2024: (6, 10), 2025: (5, 31), 2026: (6, 19),
    2027: (6, 9), 2028: (5, 28), 2029: (6, 16), 2030: (6, 5),
}  # fmt: skip
_MID_AUTUMN = {
    2015: (9, 27), 2016: (9, 15), 2017: (10, 4), 2018: (9, 24), 2019: (9, 13), 2020: (10, 1),
    2021: (9, 21), 2022: (9, 10), 2023: (9, 29), 2024: (9, 17), 2025: (10, 6), 2026: (9, 25),
    2027: (9, 15), 2028: (10, 3), 2029: (9, 22), 2030: (9, 12),
}  # fmt: skip

# holiday → (table or fixed (month, day), days before, days after the day itself): the span
# people mean by the word (春节 = the official break from 除夕 to 初六).
_Table = dict[int, tuple[int, int]]
_HOLIDAYS: dict[str, tuple[_Table | tuple[int, int], int, int]] = {
    "春节": (_LUNAR_NEW_YEAR, 1, 6), "过年": (_LUNAR_NEW_YEAR, 1, 6),
    "除夕": (_LUNAR_NEW_YEAR, 1, -1), "大年三十": (_LUNAR_NEW_YEAR, 1, -1),
    "大年初一": (_LUNAR_NEW_YEAR, 0, 0), "元宵": (_LUNAR_NEW_YEAR, -14, 14),
    "端午": (_DRAGON_BOAT, 1, 1), "中秋": (_MID_AUTUMN, 1, 1),
    "清明": ((4, 4), 0, 2), "国庆": ((10, 1), 0, 6), "元旦": ((1, 1), 0, 2),
    "五一": ((5, 1), 0, 4), "劳动节": ((5, 1), 0, 4), "七夕": ((8, 29), 0, 0),
    "圣诞": ((12, 25), 1, 0), "平安夜": ((12, 24), 0, 0), "情人节": ((2, 14), 0, 0),
    "双十一": ((11, 11), 0, 0), "跨年": ((12, 31), 0, 1),
    "christmas": ((12, 25), 1, 0), "new year's eve": ((12, 31), 0, 0),
    "new year's day": ((1, 1), 0, 0), "halloween": ((10, 31), 0, 0),
    "valentine's day": ((2, 14), 0, 0), "independence day": ((7, 4), 0, 0),
    "fourth of july": ((7, 4), 0, 0),
}  # fmt: skip
# 七夕 moves with the lunar calendar; a fixed day is wrong in most years, so it is dropped.
del _HOLIDAYS["七夕"]


HOLIDAY_WORDS = sorted(
    [*(k for k in _HOLIDAYS if not k.isascii()), "春节", "元宵节", "清明节", "端午节", "中秋节",
     "国庆节", "圣诞节", "christmas", "new year's eve", "new year's day", "halloween",
     "valentine's day", "independence day", "fourth of july"],
    key=len, reverse=True,
)  # fmt: skip


def holiday_span(name: str, year: int, tz: tzinfo | None) -> tuple[datetime, datetime] | None:
    """The half-open span of days the holiday ``name`` (a key of the table, or one with 节
    after it: 端午节) covers in ``year``; None for an unknown name or a lunar holiday outside
    the tables' years."""
    name = name.lower()
    key = name if name in _HOLIDAYS else name[:-1]
    if key not in _HOLIDAYS:
        return None
    when, before, after = _HOLIDAYS[key]
    md = when.get(year) if isinstance(when, dict) else when
    if not md:
        return None
    try:
        day = datetime(year, *md, tzinfo=tz)
    except ValueError:
        return None
    return day - timedelta(days=before), day + timedelta(days=after + 1)
