"""Edge validation in the library: every time, id and text that could break storage is
refused with InvalidInputError naming the field, before anything is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from jiyi import Memory
from jiyi.core.inputs import as_utc, check_id, parse_messages
from jiyi.errors import InvalidInputError
from jiyi.storage._rows import parse_ts, ts

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "value",
    [
        "0001-01-01T00:00:00Z",
        "0999-12-31T23:59:59Z",
        "1899-12-31T23:59:59Z",
        "9999-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999Z",
        datetime(1, 1, 1),
        datetime(1900, 1, 1, 0, 30, tzinfo=timezone(timedelta(hours=1))),  # 1899 in UTC
        datetime(9998, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=-2))),  # 9999 in UTC
    ],
)
def test_times_outside_the_supported_range_are_refused(value: object) -> None:
    with pytest.raises(InvalidInputError) as err:
        as_utc(value, "since")
    assert err.value.field == "since"
    assert "1900-01-01" in err.value.message


@pytest.mark.parametrize("value", ["2026-13-01", "yesterday", "2026-11-29T25:00", ""])
def test_malformed_times_name_the_field(value: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        as_utc(value, "until")
    assert err.value.field == "until"


def test_the_range_edges_are_accepted_and_naive_means_utc() -> None:
    assert as_utc("1900-01-01T00:00:00", "t") == datetime(1900, 1, 1, tzinfo=UTC)
    last = as_utc("9998-12-31T23:59:59+00:00", "t")
    assert last == datetime(9998, 12, 31, 23, 59, 59, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("a\ud800b", "surrogate"),
        ("a\x00b", "NUL"),
        ("tab\there", "control"),
        ("   ", "non-empty"),
        ("x" * 257, "longer"),
    ],
)
def test_bad_ids_are_refused(value: str, why: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        check_id(value, "user_id")
    assert err.value.field == "user_id" and why in err.value.message


def test_ids_may_hold_any_printable_unicode() -> None:
    assert check_id("小王/alice 😀", "user_id") == "小王/alice 😀"


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"content": "我\ud83d喜欢"}, "messages[1].content"),
        ({"content": "nul\x00byte"}, "messages[1].content"),
        ({"content": "hi", "name": "\udfff"}, "messages[1].name"),
        ({"content": "hi", "name": "n" * 257}, "messages[1].name"),
        ({"content": "hi", "id": "m\ud800"}, "messages[1].id"),
        ({"content": "hi", "timestamp": "0999-01-01T00:00:00Z"}, "messages[1].timestamp"),
        ({"content": "hi", "timestamp": "10000-01-01T00:00:00Z"}, "messages[1].timestamp"),
    ],
)
def test_parse_messages_names_the_bad_field(message: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        parse_messages([{"content": "ok"}, message], default_time=NOW, max_chars=16_000)
    assert err.value.field == field


def test_memory_add_refuses_bad_input_and_writes_nothing(mem: Memory) -> None:
    for bad in (
        {"messages": [{"content": "我对花生过敏\ud800"}]},
        {"messages": "我对花生过敏", "timestamp": "0001-01-01T00:00:00Z"},
        {"messages": "我对花生过敏", "session_id": "s\x00"},
    ):
        with pytest.raises(InvalidInputError):
            mem.add(user_id="u1", **bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError) as err:
        mem.search("花生", user_id="u1", now="9999-06-01T00:00:00Z")
    assert err.value.field == "now"
    assert mem.list(user_id="u1", include_episodes=True) == []


@pytest.mark.parametrize(
    "when",
    [
        datetime(1900, 1, 1, tzinfo=UTC),
        datetime(999, 5, 6, 7, 8, 9, 10, tzinfo=UTC),
        datetime(9998, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    ],
)
def test_stored_times_are_zero_padded_and_read_back(when: datetime) -> None:
    text = ts(when)
    assert text is not None and len(text) == 27 and text[4] == "-"
    assert parse_ts(text) == when


def test_stored_times_sort_like_the_times() -> None:
    times = [datetime(y, 1, 1, tzinfo=UTC) for y in (999, 1000, 1900, 2026, 9998)]
    assert sorted(ts(t) or "" for t in times) == [ts(t) for t in times]


def test_unpadded_years_written_by_older_versions_still_read() -> None:
    assert parse_ts("999-01-01T00:00:00.000000Z") == datetime(999, 1, 1, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_ts("not a time")
