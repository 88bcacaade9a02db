"""Row <-> MemoryItem mapping shared by the SQL backends."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from jiyi.core.models import MemoryItem, MemoryKind, Origin, Status

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
    "value",  # added in schema 2 (slot values), hence last
)
_TIMES = frozenset(
    {"created_at", "observed_at", "valid_from", "valid_to", "last_accessed_at", "expires_at"}
)
_JSON = frozenset({"source_message_ids", "metadata"})


def ts(value: datetime | None) -> str | None:
    """Fixed-width UTC ISO text, so string order equals time order in SQL."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_ts(value: str | None) -> datetime | None:
    if value is None:
        return None
    # fromisoformat is ~10x faster than strptime and reads the fixed format written by ts().
    return datetime.fromisoformat(value)


def to_row(m: MemoryItem) -> tuple[Any, ...]:
    data = m.model_dump(mode="python")
    out: list[Any] = []
    for col in COLUMNS:
        v = data[col]
        if col in _TIMES:
            v = ts(v)
        elif col in _JSON:
            v = json.dumps(v, ensure_ascii=False, default=str)
        elif hasattr(v, "value"):
            v = v.value
        out.append(v)
    return tuple(out)


_ENUMS: dict[str, Any] = {"kind": MemoryKind, "origin": Origin, "status": Status}


_FIELDS_SET = frozenset(COLUMNS)


def from_row(row: Any) -> MemoryItem:
    """Rows were validated on the way in, so they are constructed without re-validation
    (search materialises up to a few hundred rows per query; ``model_validate`` made that
    the slowest step). Every column maps to a field, so the instance is complete."""
    data: dict[str, Any] = {}
    for col, v in zip(COLUMNS, row, strict=True):
        if col in _TIMES:
            v = parse_ts(v)
        elif col in _JSON:
            v = json.loads(v) if v else ([] if col == "source_message_ids" else {})
        elif col in _ENUMS:
            v = _ENUMS[col](v)
        data[col] = v
    item = MemoryItem.__new__(MemoryItem)
    # What pydantic's model_construct does, minus its per-field default handling (all
    # fields are present): ~4x cheaper.
    object.__setattr__(item, "__dict__", data)
    object.__setattr__(item, "__pydantic_fields_set__", set(_FIELDS_SET))
    object.__setattr__(item, "__pydantic_extra__", None)
    object.__setattr__(item, "__pydantic_private__", None)
    return item
