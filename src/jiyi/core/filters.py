"""Filters on memories and caller metadata: what ``filters={…}`` means, checked once.

A filter is a mapping from a *field* to a value (equality) or to operators::

    {"metadata.project": "alpha",                      # equality
     "metadata.tags": {"in": ["work", "family"]},      # any of
     "metadata.priority": {"gte": 2},                  # number range
     "metadata.due": {"lt": "2026-12-01"},             # text range (ISO dates sort as text)
     "importance": {"gte": 0.7}, "created_at": {"gte": "2026-11-01T00:00:00Z"},
     "kind": {"in": ["fact", "preference"]}, "agent_id": "planner"}

Every condition must hold (AND). Fields are memory columns (:data:`COLUMN_TYPES`) or
``metadata.<key>[.<key>…]``; ``{"metadata": {"k": v}}`` is short for ``"metadata.k": v``.
Operators: ``eq``, ``ne``, ``in``, ``gt``, ``gte``, ``lt``, ``lte``. Metadata comparisons are
typed, the same on every backend: ``"1"`` never equals ``1``, ``true`` never equals ``1``; a
range on a number admits only numbers, a range on text only text; a missing key matches no
condition but ``ne``. Stores render conditions in SQL (``storage/_sql.py``); :func:`matches`
is the same rule in Python (the SQLite vector cache and the tests use it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from jiyi.core.inputs import as_utc
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.core.ports import Condition
from jiyi.errors import InvalidInputError

__all__ = [
    "COLUMN_TYPES",
    "OPS",
    "agent_sees",
    "check_metadata",
    "matches",
    "metadata_value",
    "parse_filters",
]

OPS = ("eq", "ne", "in", "gt", "gte", "lt", "lte")
RANGE_OPS = ("gt", "gte", "lt", "lte")
#: Memory columns a filter may name, with the type their values have.
COLUMN_TYPES: dict[str, str] = {
    "kind": "text",
    "agent_id": "text",
    "topic": "text",
    "session_id": "text",
    "importance": "number",
    "confidence": "number",
    "access_count": "number",
    "created_at": "time",
    "observed_at": "time",
    "valid_from": "time",
    "valid_to": "time",
    "expires_at": "time",
    "last_accessed_at": "time",
}
KEY = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
MAX_CONDITIONS = 32
MAX_IN_VALUES = 100
MAX_METADATA_BYTES = 16_384
Scalar = str | int | float | bool


def check_metadata(value: object, field: str = "metadata") -> dict[str, Any]:
    """Caller metadata as stored: a JSON object whose keys are 1-64 letters, digits, ``_``
    or ``-`` (a ``.`` would be ambiguous in a filter path), at most 16 KiB as JSON.

    Raises:
        InvalidInputError: naming ``field`` (or the offending key inside it).
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInputError("metadata must be a JSON object", field=field)
    _check_keys(value, field)
    try:
        size = len(json.dumps(value, ensure_ascii=False, allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"metadata must be plain JSON: {exc}", field=field) from exc
    if size > MAX_METADATA_BYTES:
        raise InvalidInputError(f"metadata is over {MAX_METADATA_BYTES} bytes", field=field)
    return dict(value)


def _check_keys(value: Mapping[Any, Any], field: str) -> None:
    for k, v in value.items():
        if not isinstance(k, str) or not KEY.match(k):
            raise InvalidInputError(
                "metadata keys are 1-64 letters, digits, '_' or '-'", field=f"{field}.{k}"
            )
        if isinstance(v, Mapping):
            _check_keys(v, f"{field}.{k}")
        if isinstance(v, str) and "\x00" in v:
            raise InvalidInputError("metadata text cannot contain NUL", field=f"{field}.{k}")


def parse_filters(raw: object, field: str = "filters") -> tuple[Condition, ...]:
    """The conditions of a filter mapping (see the module docstring); () for None.

    Raises:
        InvalidInputError: an unknown field or operator, or a value of the wrong type,
            with ``field`` set to ``filters.<name>``.
    """
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise InvalidInputError("filters must be a JSON object", field=field)
    flat: list[tuple[str, Any]] = []
    for name, spec in raw.items():
        if name == "metadata" and isinstance(spec, Mapping):
            flat += [(f"metadata.{k}", v) for k, v in spec.items()]
        else:
            flat.append((str(name), spec))
    out: list[Condition] = []
    for name, spec in flat:
        out += _conditions(name, spec, f"{field}.{name}")
    if len(out) > MAX_CONDITIONS:
        raise InvalidInputError(f"at most {MAX_CONDITIONS} conditions", field=field)
    return tuple(out)


def _conditions(name: str, spec: Any, where: str) -> list[Condition]:
    path = _path(name, where)
    ops = spec if isinstance(spec, Mapping) else {"eq": spec}
    if not ops:
        raise InvalidInputError("an operator object needs at least one operator", field=where)
    out = []
    for op, value in ops.items():
        if op not in OPS:
            raise InvalidInputError(f"unknown operator {op!r}; use one of {OPS}", field=where)
        out.append(Condition(name, cast(Any, op), _value(name, path, op, value, where)))
    return out


def _path(name: str, where: str) -> tuple[str, ...] | None:
    if name in COLUMN_TYPES:
        return None
    head, _, rest = name.partition(".")
    parts = tuple(rest.split(".")) if rest else ()
    if head != "metadata" or not parts or not all(KEY.match(p) for p in parts):
        raise InvalidInputError(
            f"cannot filter on {name!r}: use metadata.<key> or one of {sorted(COLUMN_TYPES)}",
            field=where,
        )
    return parts


def _value(name: str, path: tuple[str, ...] | None, op: str, value: Any, where: str) -> Any:
    if op == "in":
        if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_IN_VALUES:
            raise InvalidInputError(f"'in' takes a list of 1-{MAX_IN_VALUES} values", field=where)
        return tuple(_scalar(name, path, "eq", v, where) for v in value)
    return _scalar(name, path, op, value, where)


def _scalar(name: str, path: tuple[str, ...] | None, op: str, value: Any, where: str) -> Any:
    kind = COLUMN_TYPES.get(name, "json")
    if value is None:
        if op in ("eq", "ne") and kind in ("text", "time", "json"):
            return None
        raise InvalidInputError("null is only compared with eq / ne", field=where)
    if kind == "time":
        return as_utc(value, where)
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidInputError(f"{name} is compared with numbers", field=where)
        return float(value)
    if kind == "text":
        if not isinstance(value, str):
            raise InvalidInputError(f"{name} is compared with text", field=where)
        if name == "kind" and value not in {k.value for k in MemoryKind}:
            raise InvalidInputError(f"unknown kind {value!r}", field=where)
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if not isinstance(value, str | int | float | bool):
        raise InvalidInputError("metadata is compared with text, numbers or booleans", field=where)
    if op in RANGE_OPS and isinstance(value, bool):
        raise InvalidInputError("ranges take numbers or text, not booleans", field=where)
    return value


# -- the same rules in Python ---------------------------------------------------------------


def metadata_value(metadata: Mapping[str, Any], path: Sequence[str]) -> tuple[bool, Any]:
    """(found, value) at ``path`` inside ``metadata``."""
    cur: Any = metadata
    for p in path:
        if not isinstance(cur, Mapping) or p not in cur:
            return False, None
        cur = cur[p]
    return True, cur


def _same(stored: Any, wanted: Any) -> bool:
    # JSON typing: booleans only equal booleans, numbers numbers (1 == 1.0), text text.
    if isinstance(wanted, bool) or isinstance(stored, bool):
        return isinstance(wanted, bool) and isinstance(stored, bool) and stored == wanted
    if isinstance(wanted, int | float):
        return isinstance(stored, int | float) and float(stored) == float(wanted)
    return isinstance(stored, str) and stored == wanted


def _in_range(op: str, stored: Any, wanted: Any) -> bool:
    numeric = isinstance(wanted, int | float) and not isinstance(wanted, bool)
    if numeric != (isinstance(stored, int | float) and not isinstance(stored, bool)):
        return False
    if not numeric and not isinstance(stored, str):
        return False
    if op == "gt":
        return bool(stored > wanted)
    if op == "gte":
        return bool(stored >= wanted)
    if op == "lt":
        return bool(stored < wanted)
    return bool(stored <= wanted)


def _holds(c: Condition, m: MemoryItem) -> bool:
    if c.field in COLUMN_TYPES:
        found, stored = True, getattr(m, c.field)
        if hasattr(stored, "value"):
            stored = stored.value
        if isinstance(stored, int) and not isinstance(stored, bool):
            stored = float(stored)
    else:
        found, stored = metadata_value(m.metadata, c.field.split(".")[1:])
    if c.op == "ne":
        return not (found and _eq(stored, c.value))
    if not found:
        return False
    if c.op == "eq":
        return _eq(stored, c.value)
    if c.op == "in":
        return any(_eq(stored, v) for v in c.value)
    if stored is None:
        return False
    if isinstance(stored, datetime):
        return _in_range(c.op, stored.timestamp(), c.value.timestamp())
    return _in_range(c.op, stored, c.value)


def _eq(stored: Any, wanted: Any) -> bool:
    if wanted is None or stored is None:
        return stored is None and wanted is None
    if isinstance(stored, datetime):
        return isinstance(wanted, datetime) and stored == wanted
    return _same(stored, wanted)


def matches(conditions: Sequence[Condition], memory: MemoryItem) -> bool:
    """Whether ``memory`` meets every condition (the rule the SQL of both stores follows)."""
    return all(_holds(c, memory) for c in conditions)


def agent_sees(agent_id: str | None, memory: MemoryItem) -> bool:
    """Whether a caller bound to ``agent_id`` may see ``memory``: a caller bound to no agent
    sees the whole user; an agent-bound one sees shared memories (agent None) and its own.
    The one rule behind REST keys, the MCP server and the console."""
    return agent_id is None or memory.agent_id is None or memory.agent_id == agent_id
