"""Ranges, parts of months, holidays and dates inside stored text (jiyi.core.timeranges)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from jiyi.core.timeranges import find_query_window, mentioned_windows

CN = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 12, 31, 23, 0, tzinfo=CN)


def days(text: str, now: datetime = NOW) -> tuple[date, date] | None:
    w = find_query_window(text, now)
    if w is None or w.start is None or w.end is None:
        return None
    return w.start.date(), w.end.date()


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("1月6日至9日我在干嘛", date(2025, 1, 6), date(2025, 1, 10)),
        ("那一周（3月24日到28日）", date(2025, 3, 24), date(2025, 3, 29)),
        ("3月30日至4月2日出差", date(2025, 3, 30), date(2025, 4, 3)),
        ("2025-01-06至2025-01-09", date(2025, 1, 6), date(2025, 1, 10)),
        ("what did I do March 6-9", date(2025, 3, 6), date(2025, 3, 10)),
    ],
)
def test_a_range_keeps_every_day(text: str, start: date, end: date) -> None:
    assert days(text) == (start, end)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("4月中旬采取了哪些措施", date(2025, 4, 11), date(2025, 4, 21)),
        ("3月上旬的复盘", date(2025, 3, 1), date(2025, 3, 11)),
        ("2月下旬", date(2025, 2, 21), date(2025, 3, 1)),
        ("5月底", date(2025, 5, 21), date(2025, 6, 1)),
        ("6月初", date(2025, 6, 1), date(2025, 6, 11)),
        ("in early March", date(2025, 3, 1), date(2025, 3, 11)),
        ("late June", date(2025, 6, 21), date(2025, 7, 1)),
    ],
)
def test_parts_of_a_month_are_not_the_whole_month(text: str, start: date, end: date) -> None:
    assert days(text) == (start, end)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("春节放假", date(2025, 1, 28), date(2025, 2, 5)),  # 除夕 to 初六
        ("去年春节", date(2024, 2, 9), date(2024, 2, 17)),
        ("2025年端午节", date(2025, 5, 30), date(2025, 6, 2)),
        ("中秋节", date(2025, 10, 5), date(2025, 10, 8)),
        ("国庆假期", date(2025, 10, 1), date(2025, 10, 8)),
        ("元旦", date(2025, 1, 1), date(2025, 1, 4)),
        ("清明节当天", date(2025, 4, 4), date(2025, 4, 7)),
        ("over Christmas", date(2025, 12, 24), date(2025, 12, 26)),
    ],
)
def test_holidays_lunar_ones_included(text: str, start: date, end: date) -> None:
    assert days(text) == (start, end)


def test_a_holiday_without_a_year_is_the_latest_that_has_begun() -> None:
    spring = datetime(2025, 1, 10, tzinfo=CN)  # before 2025's Spring Festival
    assert days("春节的时候", spring) == (date(2024, 2, 9), date(2024, 2, 17))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("上半年", date(2025, 1, 1), date(2025, 7, 1)),
        ("2024年下半年", date(2024, 7, 1), date(2025, 1, 1)),
        ("第一季度", date(2025, 1, 1), date(2025, 4, 1)),
        ("Q3", date(2025, 7, 1), date(2025, 10, 1)),
        ("2025年底", date(2025, 12, 1), date(2026, 1, 1)),
        ("3个月前", date(2025, 9, 1), date(2025, 10, 1)),
        ("3 months ago", date(2025, 9, 1), date(2025, 10, 1)),
        ("2025-03-02 那天", date(2025, 3, 2), date(2025, 3, 3)),
        ("2025-03", date(2025, 3, 1), date(2025, 4, 1)),
    ],
)
def test_parts_of_years_and_iso_dates(text: str, start: date, end: date) -> None:
    assert days(text) == (start, end)


def test_several_dates_within_a_month_give_their_span() -> None:
    assert days("5月13日、5月15日和5月22日分别做了什么") == (date(2025, 5, 13), date(2025, 5, 23))


def test_relative_words_still_come_from_timewords() -> None:
    assert days("上周") == (date(2025, 12, 22), date(2025, 12, 29))
    assert days("2025年3月") == (date(2025, 3, 1), date(2025, 4, 1))


def test_no_time_no_window() -> None:
    assert find_query_window("我喜欢什么咖啡", NOW) is None


def test_dates_written_in_stored_text() -> None:
    written = datetime(2025, 3, 2, 10, tzinfo=CN)
    spans = mentioned_windows("[日程 2025-03-24 周一 10:00–15:30] 年度会议", written)
    assert [(a.date(), b.date()) for a, b in spans] == [(date(2025, 3, 24), date(2025, 3, 25))]
    spans = mentioned_windows("我们1月6日至9日出差", written)
    assert (date(2025, 1, 6), date(2025, 1, 10)) in [(a.date(), b.date()) for a, b in spans]


def test_a_yearless_date_in_text_is_the_one_nearest_its_writing() -> None:
    late = datetime(2025, 12, 30, tzinfo=CN)
    [(a, _)] = mentioned_windows("1月3日见", late)
    assert a.date() == date(2026, 1, 3)
    early = datetime(2025, 1, 2, tzinfo=CN)
    [(a, _)] = mentioned_windows("12月30日的事", early)
    assert a.date() == date(2024, 12, 30)


def test_text_without_dates_costs_nothing() -> None:
    assert mentioned_windows("今天天气不错", NOW) == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("春节假期返乡期间（1月28日至31日）晨练了几次", date(2025, 1, 28), date(2025, 2, 1)),
        ("2025年端午节假期（6月2日至4日）前准备了什么", date(2025, 6, 2), date(2025, 6, 5)),
        ("中秋节促销活动正式启动（9月25日）前", date(2025, 9, 25), date(2025, 9, 26)),
    ],
)
def test_a_date_written_out_outranks_the_period_named_beside_it(
    text: str, start: date, end: date
) -> None:
    w = find_query_window(text, NOW, dates_first=True)
    assert w is not None and w.start is not None and w.end is not None
    assert (w.start.date(), w.end.date()) == (start, end)
    # Off: the leftmost expression (the holiday) decides, as before.
    assert days(text) != (start, end)
    # A holiday alone is still the holiday.
    assert days("春节假期返乡了几天") == (date(2025, 1, 28), date(2025, 2, 5))


@pytest.mark.parametrize(
    "text",
    [
        "通过年度财务规划会议决议设立基金",
        "年度预算经过年度评审",
        "每周六上午去师傅的维修店",
        "每个星期天都去钓鱼",
    ],
)
def test_words_that_only_look_like_a_time_give_no_window(text: str) -> None:
    assert find_query_window(text, NOW) is None
