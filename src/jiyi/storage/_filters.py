"""Filter conditions (``jiyi.core.filters``) and user listing in SQL, for both stores.

Columns compare directly (times through the dialect's codec). Metadata is JSON, and the two
databases reach into it differently, but they must agree with ``core.filters.matches``
exactly — typed comparison, a missing key failing every operator but ``ne``:

- SQLite: ``json_type(metadata, '$."a"."b"')`` says what is there ('text', 'integer', 'real',
  'true', 'false', 'null', …) and ``json_extract`` gives it as an SQL value;
- PostgreSQL: ``metadata #> '{a,b}'`` is the jsonb there (jsonb equality is typed: ``"1"`` is
  not ``1``); ranges cast inside ``CASE`` so a string is never cast to a number (PostgreSQL
  does not promise the order in which ``AND`` evaluates).

Text ranges compare byte by byte (``COLLATE "C"`` / SQLite's BINARY), so ISO dates order
as time on both.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from jiyi.core.filters import COLUMN_TYPES
from jiyi.core.ports import Condition, UserSummary


class Dialect(Protocol):
    """What these statements need of ``jiyi.storage._sql.Dialect`` (a protocol, so that
    ``_sql`` can import this module without a cycle)."""

    @property
    def binary(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def time(self) -> Callable[[datetime | None], Any]: ...

    @property
    def read_time(self) -> Callable[[Any], datetime | None]: ...

    def q(self, sql: str) -> str: ...

    def any_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]: ...


_CMP = {"eq": "=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def condition_sql(d: Dialect, c: Condition) -> tuple[str, list[Any]]:
    """One condition as SQL over alias ``m``, and its arguments."""
    if c.field in COLUMN_TYPES:
        return _column(d, c)
    path = c.field.split(".")[1:]
    if c.op == "ne":
        part, args = _meta_eq(d, path, c.value)
        return f"NOT coalesce(({part}), ?)", [*args, False]
    if c.op == "eq":
        return _meta_eq(d, path, c.value)
    if c.op == "in":
        parts, args = [], []
        for v in c.value:
            part, more = _meta_eq(d, path, v)
            parts.append(f"({part})")
            args += more
        return f"({' OR '.join(parts)})", args
    return _meta_range(d, path, c.op, c.value)


def _column(d: Dialect, c: Condition) -> tuple[str, list[Any]]:
    col = f"m.{c.field}"
    kind = COLUMN_TYPES[c.field]

    def val(v: Any) -> Any:
        return d.time(v) if kind == "time" else v

    if c.value is None:
        return (f"{col} IS NULL" if c.op == "eq" else f"{col} IS NOT NULL"), []
    if c.op == "ne":
        return f"({col} IS NULL OR {col} <> ?)", [val(c.value)]
    if c.op == "in":
        values = [val(v) for v in c.value if v is not None]
        null = any(v is None for v in c.value)
        if not values:
            return f"{col} IS NULL", []
        part, args = d.any_of(col, values)
        return (f"({part} OR {col} IS NULL)" if null else part), args
    return f"{col} {_CMP[c.op]} ?", [val(c.value)]


def _sqlite_path(path: list[str]) -> str:
    return "$" + "".join(f'."{p}"' for p in path)


def _meta_eq(d: Dialect, path: list[str], value: Any) -> tuple[str, list[Any]]:
    if d.family == "postgres":
        return "m.metadata #> ?::text[] = ?::jsonb", [path, json.dumps(value, ensure_ascii=False)]
    p = _sqlite_path(path)
    if value is None:
        return "json_type(m.metadata, ?) = 'null'", [p]
    if isinstance(value, bool):
        return "json_type(m.metadata, ?) = ?", [p, "true" if value else "false"]
    if isinstance(value, int | float):
        return (
            "(json_type(m.metadata, ?) IN ('integer', 'real') AND json_extract(m.metadata, ?) = ?)",
            [p, p, value],
        )
    return "(json_type(m.metadata, ?) = 'text' AND json_extract(m.metadata, ?) = ?)", [p, p, value]


def _meta_range(d: Dialect, path: list[str], op: str, value: Any) -> tuple[str, list[Any]]:
    numeric = isinstance(value, int | float)
    cmp = _CMP[op]
    if d.family == "postgres":
        if numeric:
            return (
                "(CASE WHEN jsonb_typeof(m.metadata #> ?::text[]) = 'number' "
                f"THEN (m.metadata #>> ?::text[])::numeric END) {cmp} ?",
                [path, path, value],
            )
        return (
            "(CASE WHEN jsonb_typeof(m.metadata #> ?::text[]) = 'string' "
            f'THEN (m.metadata #>> ?::text[]) END) COLLATE "C" {cmp} ?',
            [path, path, value],
        )
    p = _sqlite_path(path)
    types = "('integer', 'real')" if numeric else "('text')"
    return (
        f"(json_type(m.metadata, ?) IN {types} AND json_extract(m.metadata, ?) {cmp} ?)",
        [p, p, value],
    )


def list_users(
    run: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]],
    d: Dialect,
    tenant: str,
    after: str | None,
    limit: int,
) -> list[UserSummary]:
    """The users of ``tenant`` with stored memories, by user id in byte order."""
    sql = "SELECT user_id, count(*), max(observed_at) FROM {s}.memories WHERE tenant = ?"
    args: list[Any] = [tenant]
    if after is not None:
        sql += f" AND user_id COLLATE {d.binary} > ?"
        args.append(after)
    sql += f" GROUP BY user_id ORDER BY user_id COLLATE {d.binary} LIMIT {int(limit)}"
    return [UserSummary(str(r[0]), int(r[1]), d.read_time(r[2])) for r in run(d.q(sql), args)]
