"""The values of stored rows, below any SQL: the column order of ``memories``, the fixed-width
time text, the type checks of a decoded row, and the defensive decoding of whatever a
database hands back. The statements themselves, and the row codec that turns a row into a
MemoryItem in either dialect, are in :mod:`jiyi.storage._sql`.

Rows written through jiyi were validated on the way in, but a database may also hold rows
written by an older version (``ts()`` once wrote year 999 as ``999-…``), by hand or by a
broken tool. One such row must never make every read of its user fail: readers decode
through :func:`decode_rows`, which logs the row's id, counts it (``bad_rows()``, rendered
on the server's ``/metrics``) and skips it.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")

# Column order of the memories table (after the surrogate key).
COLUMNS = (
    "id",
    "tenant",
    "user_id",
    "agent_id",
    "kind",
    "topic",
    "content",
    "importance",
    "confidence",
    "origin",
    "source_message_ids",
    "session_id",
    "quote",
    "created_at",
    "observed_at",
    "valid_from",
    "valid_to",
    "last_accessed_at",
    "access_count",
    "expires_at",
    "status",
    "superseded_by",
    "version",
    "metadata",
    "value",  # added in schema 2 (slot values)
    # added in schema 3 (provenance that used to live in metadata)
    "batch",
    "position",
    "role",
    "speaker",
    "extracted",
    "supersedes",
    "derived",
    "sources",
    # added in schema 4 (lifecycle)
    "reinforced_at",
    "archived_at",
    "confidence_at",
    # added in schema 6 (goals with a lifecycle)
    "goal_status",
    "target_date",
)
#: Provenance columns of schema 3 and the metadata keys they were read from before.
PROVENANCE = {
    "batch": "batch",
    "position": "pos",
    "role": "role",
    "speaker": "name",
    "extracted": "extracted",
    "supersedes": "supersedes",
    "derived": "derived",
    "sources": "sources",
}
#: Columns holding times and JSON, encoded per dialect (``_sql.Dialect``).
TIME_COLUMNS = frozenset(
    {
        "created_at",
        "observed_at",
        "valid_from",
        "valid_to",
        "last_accessed_at",
        "expires_at",
        "reinforced_at",
        "archived_at",
        "confidence_at",
        "target_date",
    }
)
JSON_COLUMNS = frozenset({"source_message_ids", "metadata", "sources"})
BOOL_COLUMNS = frozenset({"extracted", "derived"})


def ts(value: datetime | None) -> str | None:
    """Fixed-width UTC ISO text (``0999-01-01T00:00:00.000000Z``), so string order equals
    time order in SQL. Formatted by hand: ``strftime("%Y")`` does not zero-pad years
    before 1000 on glibc, and the unpadded text neither sorts nor parses back."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    v = value.astimezone(UTC)
    return (
        f"{v.year:04d}-{v.month:02d}-{v.day:02d}T"
        f"{v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond:06d}Z"
    )


_UNPADDED_YEAR = re.compile(r"^(\d{1,3})-")


def parse_ts(value: str | None) -> datetime | None:
    """The datetime ``ts()`` wrote (always UTC-aware); raises ValueError for anything else.
    Reads the unpadded years older versions wrote (``999-01-01…``) too."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"a timestamp must be text, not {type(value).__name__}")
    try:
        # fromisoformat is ~10x faster than strptime and reads the fixed format of ts().
        parsed = datetime.fromisoformat(value)
    except ValueError:
        m = _UNPADDED_YEAR.match(value)
        if m is None:
            raise
        parsed = datetime.fromisoformat(m.group(1).zfill(4) + value[m.end(1) :])
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


# -- rows that cannot be decoded ------------------------------------------------------------

_bad_lock = threading.Lock()
_bad: Counter[str] = Counter()


def bad_rows() -> dict[str, int]:
    """Rows skipped on read because they could not be decoded, per table, in this process."""
    with _bad_lock:
        return dict(_bad)


def decode_rows(
    rows: Iterable[T], decode: Callable[[T], R], table: str, *, row_id: int = 0
) -> list[R]:
    """``decode`` every row; a row that raises is logged (its id, never its content),
    counted in :func:`bad_rows` and left out."""
    out: list[R] = []
    for row in rows:
        try:
            out.append(decode(row))
        except Exception as exc:  # any broken value: skip the row, keep the read alive
            rid = row[row_id] if isinstance(row, tuple | list) and len(row) > row_id else "?"
            log.warning("skipped an undecodable %s row (id %r): %s", table, rid, type(exc).__name__)
            with _bad_lock:
                _bad[table] += 1
    return out


_STRINGS = frozenset({"id", "tenant", "user_id", "content"})
_NUMBERS = frozenset({"importance", "confidence"})
_INTS = frozenset({"access_count", "version"})


def check_types(data: dict[str, Any]) -> None:
    """Cheap type checks of the columns a response cannot do without (SQLite columns are
    dynamically typed, so a hand-written row may hold anything); raises ValueError."""
    for col in _STRINGS:
        if not isinstance(data[col], str):
            raise ValueError(f"{col} is not text")
    for col in _NUMBERS:
        v = data[col]
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{col} is not a finite number")
    for col in _INTS:
        if isinstance(data[col], bool) or not isinstance(data[col], int):
            raise ValueError(f"{col} is not an integer")
    if not isinstance(data["source_message_ids"], list) or not isinstance(data["metadata"], dict):
        raise ValueError("source_message_ids or metadata has the wrong shape")
    if data["created_at"] is None or data["observed_at"] is None:
        raise ValueError("created_at and observed_at are required")
