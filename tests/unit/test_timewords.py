"""Time expressions in queries (past-leaning windows) and plans (future-leaning days)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from jiyi.core.timewords import TimeWindow, cn_number, find_time_window, resolve_date

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2024, 5, 15, 14, 30, tzinfo=TZ)  # a Wednesday


def d(y: int, m: int, day: int) -> datetime:
    return datetime(y, m, day, tzinfo=TZ)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("我昨天说了什么", d(2024, 5, 14), d(2024, 5, 15)),
        ("前天吃的那家店", d(2024, 5, 13), d(2024, 5, 14)),
        ("今天的安排", d(2024, 5, 15), d(2024, 5, 16)),
        ("上周聊过的书", d(2024, 5, 6), d(2024, 5, 13)),
        ("这周我说过啥", d(2024, 5, 13), d(2024, 5, 20)),
        ("上周三那个电影", d(2024, 5, 8), d(2024, 5, 9)),
        ("上个月的体检", d(2024, 4, 1), d(2024, 5, 1)),
        ("本月的预算", d(2024, 5, 1), d(2024, 6, 1)),
        ("去年的旅行", d(2023, 1, 1), d(2024, 1, 1)),
        ("今年的目标", d(2024, 1, 1), d(2025, 1, 1)),
        ("三月份我去哪了", d(2024, 3, 1), d(2024, 4, 1)),
        ("3月", d(2024, 3, 1), d(2024, 4, 1)),
        ("十二月份", d(2023, 12, 1), d(2024, 1, 1)),
        ("去年3月", d(2023, 3, 1), d(2023, 4, 1)),
        ("3天前说的", d(2024, 5, 12), d(2024, 5, 13)),
        ("yesterday", d(2024, 5, 14), d(2024, 5, 15)),
        ("what did I say today", d(2024, 5, 15), d(2024, 5, 16)),
        ("last week", d(2024, 5, 6), d(2024, 5, 13)),
        ("this week", d(2024, 5, 13), d(2024, 5, 20)),
        ("last month", d(2024, 4, 1), d(2024, 5, 1)),
        ("last year", d(2023, 1, 1), d(2024, 1, 1)),
        ("the place I mentioned in March", d(2024, 3, 1), d(2024, 4, 1)),
        ("in June", d(2023, 6, 1), d(2023, 7, 1)),
        ("2 days ago", d(2024, 5, 13), d(2024, 5, 14)),
        ("what did I eat on Monday", d(2024, 5, 13), d(2024, 5, 14)),
    ],
)
def test_query_windows(query: str, start: datetime, end: datetime) -> None:
    window = find_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end, window.recent) == (start, end, False)


@pytest.mark.parametrize(
    "query", ["上次那家店", "之前那次说的", "what did I order last time", "previously"]
)
def test_last_time_prefers_the_most_recent(query: str) -> None:
    window = find_time_window(query, NOW)
    assert window == TimeWindow(None, NOW, window.expression if window else "", recent=True)


@pytest.mark.parametrize("query", ["最近怎么样", "刚才说的", "recently", "几天前"])
def test_vague_recency_words_end_at_or_before_now(query: str) -> None:
    window = find_time_window(query, NOW)
    assert window is not None and window.start is not None and window.end is not None
    assert window.start < window.end <= NOW


def test_a_month_not_yet_reached_this_year_means_last_year() -> None:
    window = find_time_window("三月份", datetime(2024, 2, 10, tzinfo=TZ))
    assert window is not None and window.start == d(2023, 3, 1)


def test_the_expression_is_reported_and_the_longest_match_wins() -> None:
    window = find_time_window("我上周三说的那家店", NOW)
    assert window is not None and window.expression == "上周三"


def test_no_time_expression_gives_none() -> None:
    assert find_time_window("我喜欢什么咖啡", NOW) is None
    assert resolve_date("I like coffee", NOW) is None
    assert resolve_date("I sat in the sun", NOW) is None  # "sat"/"sun" are words, not days


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("明天去机场", date(2024, 5, 16)),
        ("后天", date(2024, 5, 17)),
        ("下周三要出差", date(2024, 5, 22)),
        ("下个月搬家", date(2024, 6, 1)),
        ("周五聚餐", date(2024, 5, 17)),
        ("周三开会", date(2024, 5, 15)),  # today is Wednesday: today, not last week
        ("3月5号", date(2025, 3, 5)),  # passed this year → next year
        ("6月1日", date(2024, 6, 1)),
        ("5号交房租", date(2024, 6, 5)),  # the 5th has passed this month
        ("20号", date(2024, 5, 20)),
        ("3天后", date(2024, 5, 18)),
        ("tomorrow", date(2024, 5, 16)),
        ("next Friday", date(2024, 5, 17)),
        ("next Wednesday", date(2024, 5, 22)),  # strictly after today
        ("on Friday", date(2024, 5, 17)),
        ("on May 3", date(2025, 5, 3)),
        ("on the 3rd of June", date(2024, 6, 3)),
        ("in 3 days", date(2024, 5, 18)),
        ("next week", date(2024, 5, 20)),
    ],
)
def test_plans_resolve_to_the_start_of_a_future_day(text: str, expected: date) -> None:
    resolved = resolve_date(text, NOW)
    assert resolved is not None
    assert resolved.date() == expected
    assert (resolved.hour, resolved.minute, resolved.tzinfo) == (0, 0, TZ)


def test_results_keep_the_timezone_of_now() -> None:
    utc_now = datetime(2024, 5, 15, 23, 30, tzinfo=UTC)
    assert resolve_date("tomorrow", utc_now) == datetime(2024, 5, 16, tzinfo=UTC)
    window = find_time_window("yesterday", utc_now)
    assert window is not None and window.start is not None
    assert window.start.tzinfo is UTC
    assert window.end == window.start + timedelta(days=1)


def test_chinese_numerals_parse() -> None:
    assert [cn_number(t) for t in ["三", "十", "十二", "二十一", "两", "31", "百"]] == [
        3,
        10,
        12,
        21,
        2,
        31,
        None,
    ]
