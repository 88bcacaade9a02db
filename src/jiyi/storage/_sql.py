"""The SQL both memory stores share, written once so SQLite and PostgreSQL cannot drift:

- the row codec: one column order (``_rows.COLUMNS``), :func:`to_row` and :func:`from_row`;
- the scope ``WHERE``: tenant, user, agent visibility and every :class:`SearchFilter` field;
- the write checks, all before anything is written: every memory in the write scope, no id
  owned by another user or tenant, vectors 1-D, finite and of one dimension;
- the statements of a write: updated rows, history rows (insert, and the content a hard
  delete erases), consumed message ids, access counts, reinforcement, a user's deletion.

The plain reads (get, list, history, seen messages) are in ``_sql_reads.py``, on the same
:class:`Dialect`. Each store keeps what it does best: SQLite its FTS5 index with the scope
token, per-user scope cache and secure deletion; PostgreSQL its tsvector, pgvector HNSW,
row-level security and pool. Statements are written with ``?`` placeholders and ``{s}.``
before table names; :meth:`Dialect.q` renders both for a :class:`Dialect`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from jiyi.core.models import (
    GoalStatus,
    HistoryEntry,
    MemoryItem,
    MemoryKind,
    Origin,
    Scope,
    Status,
)
from jiyi.core.ports import ChangeSet, SearchFilter, Vector
from jiyi.errors import InvalidInputError
from jiyi.storage._filters import condition_sql
from jiyi.storage._rows import (
    BOOL_COLUMNS,
    COLUMNS,
    JSON_COLUMNS,
    TIME_COLUMNS,
    check_types,
    parse_ts,
    ts,
)
from jiyi.storage._vectors import as_vector

#: Runs one statement and returns its rows ([] for a statement without any).
Run = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]

# SQLite caps bound parameters per statement; longer id lists go in slices.
CHUNK = 500


@dataclass(frozen=True)
class Dialect:
    """How one database spells what the shared statements need."""

    placeholder: str  # "?" or "%s"
    tables: str  # what "{s}." becomes: "" or '"schema".'
    binary: str  # a collation ordering ids byte by byte (list order is the same everywhere)
    arrays: bool  # bind a list as one array (``= ANY(%s)``) instead of ``IN (?, …)``
    time: Callable[[datetime | None], Any]  # datetime → stored value
    read_time: Callable[[Any], datetime | None]  # stored value → UTC-aware datetime
    json: Callable[[Any], Any]  # list/dict → stored value
    read_json: Callable[[Any], Any]  # stored value → list/dict
    # "sqlite" or "postgres": how metadata filters reach into JSON (``_filters.py``).
    family: str = "sqlite"

    def q(self, sql: str) -> str:
        """``sql`` with this dialect's table prefix and placeholders."""
        sql = sql.replace("{s}.", self.tables)
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def any_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column`` equal to any of ``values`` (not empty), and the arguments."""
        if self.arrays:
            return f"{column} = ANY(?)", [list(values)]
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)


def aware(value: Any) -> datetime | None:
    """A datetime as PostgreSQL stores and returns it; naive means UTC (as in SQLite)."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise ValueError(f"a timestamp must be a datetime, not {type(value).__name__}")
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


dumps = partial(json.dumps, ensure_ascii=False, default=str)

#: SQLite: times as fixed-width UTC text (string order is time order), JSON as text.
SQLITE = Dialect(
    placeholder="?",
    tables="",
    binary="BINARY",
    arrays=False,
    time=ts,
    read_time=parse_ts,
    json=dumps,
    read_json=json.loads,
)


def chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """``values`` in slices of at most :data:`CHUNK` (one statement each)."""
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


# -- the row codec --------------------------------------------------------------------------

_ENUMS: dict[str, Any] = {
    "kind": MemoryKind,
    "origin": Origin,
    "status": Status,
    "goal_status": GoalStatus,
}
_JSON_EMPTY: dict[str, type] = {"source_message_ids": list, "metadata": dict, "sources": list}
_EMPTY_TEXT: dict[type, str] = {list: "[]", dict: "{}"}
_FIELDS_SET = frozenset(COLUMNS)
COLUMN_LIST = ", ".join(COLUMNS)


def to_row(d: Dialect, m: MemoryItem) -> tuple[Any, ...]:
    """The values of ``m`` in :data:`COLUMNS` order, as ``d`` stores them."""
    data = m.model_dump(mode="python")
    out: list[Any] = []
    for col in COLUMNS:
        v = data[col]
        if col in TIME_COLUMNS:
            v = d.time(v)
        elif col in JSON_COLUMNS:
            v = d.json(v)
        elif hasattr(v, "value"):
            v = v.value
        out.append(v)
    return tuple(out)


def from_row(d: Dialect, row: Sequence[Any]) -> MemoryItem:
    """The MemoryItem of a row in :data:`COLUMNS` order; ValueError if a value cannot be
    what its column promises (read through ``decode_rows``, which skips the row).

    Rows were validated on the way in, so they are constructed without re-validation
    (search materialises up to a few hundred rows per query; ``model_validate`` made that
    the slowest step). Every column maps to a field, so the instance is complete."""
    data: dict[str, Any] = {}
    for col, v in zip(COLUMNS, row, strict=True):
        if col in TIME_COLUMNS:
            v = d.read_time(v)
        elif col in JSON_COLUMNS:
            # the empty literal of its type (most rows' sources, every episode's metadata)
            # needs no parser
            empty = _JSON_EMPTY[col]
            v = empty() if not v or v == _EMPTY_TEXT[empty] else d.read_json(v)
        elif col in _ENUMS:
            v = None if v is None and col == "goal_status" else _ENUMS[col](v)
        elif col in BOOL_COLUMNS:
            v = bool(v) if v is not None else (False if col == "derived" else None)
        data[col] = v
    check_types(data)
    item = MemoryItem.__new__(MemoryItem)
    # What pydantic's model_construct does, minus its per-field default handling (all
    # fields are present): ~4x cheaper.
    object.__setattr__(item, "__dict__", data)
    object.__setattr__(item, "__pydantic_fields_set__", set(_FIELDS_SET))
    object.__setattr__(item, "__pydantic_extra__", None)
    object.__setattr__(item, "__pydantic_private__", None)
    return item


# -- scope ----------------------------------------------------------------------------------


def scope_where(d: Dialect, scope: Scope, flt: SearchFilter | None = None) -> tuple[str, list[Any]]:
    """The ``WHERE`` (over alias ``m``) of what ``scope`` may see and ``flt`` admits."""
    sql = "m.tenant = ? AND m.user_id = ?"
    args: list[Any] = [scope.tenant, scope.user_id]
    if scope.agent_id is not None:  # that agent's private rows and the shared ones
        sql += " AND (m.agent_id IS NULL OR m.agent_id = ?)"
        args.append(scope.agent_id)
    if flt is None:
        return sql, args
    for column, values in (
        ("m.status", [s.value for s in flt.statuses]),
        ("m.kind", [k.value for k in flt.kinds or ()]),
    ):
        if values:
            part, more = d.any_of(column, values)
            sql += f" AND {part}"
            args += more
    if flt.since is not None:
        sql += " AND m.observed_at >= ?"
        args.append(d.time(flt.since))
    if flt.until is not None:
        sql += " AND m.observed_at < ?"
        args.append(d.time(flt.until))
    if flt.min_importance is not None:
        sql += " AND m.importance >= ?"
        args.append(float(flt.min_importance))
    if flt.after_id is not None:
        sql += f" AND m.id COLLATE {d.binary} > ?"
        args.append(flt.after_id)
    for c in flt.where:
        part, more = condition_sql(d, c)
        sql += f" AND {part}"
        args += more
    return sql, args


# -- write checks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedWrite:
    """What :func:`check_write` found valid: the upserts' vectors and their one dimension."""

    vectors: list[Vector | None]  # in the order of ``ChangeSet.upserts``
    dim: int | None


def check_write(scope: Scope, changes: ChangeSet) -> CheckedWrite:
    """Refuse a write that names a memory of another user or tenant than ``scope``, or a
    vector that is not 1-D, finite and of the write's one dimension (InvalidInputError).
    Runs before the transaction: nothing is written."""
    for m in [i.memory for i in changes.upserts] + changes.updates:
        if m.tenant != scope.tenant or m.user_id != scope.user_id:
            raise InvalidInputError(
                f"memory {m.id} belongs to another user than the write scope", field="user_id"
            )
    vectors = [None if i.vector is None else as_vector(i.vector) for i in changes.upserts]
    dims = {int(v.shape[0]) for v in vectors if v is not None}
    if len(dims) > 1:
        raise InvalidInputError("vectors of one write differ in dimension", field="vector")
    return CheckedWrite(vectors, dims.pop() if dims else None)


def refuse_foreign_ids(run: Run, d: Dialect, scope: Scope, changes: ChangeSet) -> None:
    """Inside the write transaction, before any change: InvalidInputError if an id to
    upsert or update exists for another user or tenant. Ids are global; without this check
    an upsert would move another user's row into this scope."""
    ids = list(
        dict.fromkeys([i.memory.id for i in changes.upserts] + [m.id for m in changes.updates])
    )
    for chunk in chunks(ids):
        part, args = d.any_of("id", chunk)
        rows = run(
            d.q(f"SELECT id FROM {{s}}.memories WHERE {part} AND NOT (tenant = ? AND user_id = ?)"),
            [*args, scope.tenant, scope.user_id],
        )
        if rows:
            raise foreign_id(str(rows[0][0]))


def foreign_id(memory_id: str | None = None) -> InvalidInputError:
    """The error of a write naming an id owned by another user or tenant."""
    which = f"memory id {memory_id}" if memory_id else "a memory id in this write"
    return InvalidInputError(
        f"{which} already belongs to another user or tenant; ids are global, so a new "
        "memory needs a new id",
        field="id",
    )


# -- statements of a write (sql, one argument tuple per row) --------------------------------

Batch = tuple[str, list[tuple[Any, ...]]]


def update_rows(d: Dialect, scope: Scope, items: Sequence[MemoryItem]) -> Batch:
    """Replace rows whose text did not change; ids missing from the scope are left alone."""
    sql = (
        f"UPDATE {{s}}.memories SET ({COLUMN_LIST}) = ({', '.join('?' * len(COLUMNS))}) "
        "WHERE id = ? AND tenant = ? AND user_id = ?"
    )
    return d.q(sql), [(*to_row(d, m), m.id, scope.tenant, scope.user_id) for m in items]


def insert_history(d: Dialect, scope: Scope, entries: Sequence[HistoryEntry]) -> Batch:
    sql = (
        "INSERT INTO {s}.history (tenant, user_id, memory_id, action, at, content, "
        "content_hash, version, related_id, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    return d.q(sql), [
        (
            scope.tenant,
            scope.user_id,
            h.memory_id,
            h.action.value,
            d.time(h.at),
            h.content,
            h.content_hash,
            h.version,
            h.related_id,
            h.reason,
        )
        for h in entries
    ]


def erase_history(run: Run, d: Dialect, scope: Scope, memory_ids: Sequence[str]) -> None:
    """After a hard delete, history keeps that something happened (id, action, content
    hash), never what was said."""
    for chunk in chunks(list(dict.fromkeys(memory_ids))):
        part, args = d.any_of("memory_id", chunk)
        run(
            d.q(
                "UPDATE {s}.history SET content = NULL, reason = NULL "
                f"WHERE tenant = ? AND user_id = ? AND {part}"
            ),
            [scope.tenant, scope.user_id, *args],
        )


def record_messages(d: Dialect, scope: Scope, message_ids: Sequence[str]) -> Batch:
    sql = (
        "INSERT INTO {s}.messages_seen (tenant, user_id, message_id) VALUES (?, ?, ?) "
        "ON CONFLICT DO NOTHING"
    )
    return d.q(sql), [(scope.tenant, scope.user_id, i) for i in dict.fromkeys(message_ids)]


def touch_rows(d: Dialect, scope: Scope, counts: Mapping[str, int], at: datetime) -> Batch:
    """Add each id's read count; ids in sorted order, so concurrent writers lock rows in
    the same order (no deadlock). Counts below 1 are ignored."""
    sql = (
        "UPDATE {s}.memories SET last_accessed_at = ?, access_count = access_count + ? "
        "WHERE id = ? AND tenant = ? AND user_id = ?"
    )
    when = d.time(at)
    return d.q(sql), [
        (when, int(n), i, scope.tenant, scope.user_id) for i, n in sorted(counts.items()) if n > 0
    ]


def reinforce_rows(
    run: Run,
    d: Dialect,
    scope: Scope,
    memory_ids: Sequence[str],
    at: datetime,
    *,
    step: float,
    cap: float,
    every: timedelta,
) -> list[str]:
    """Reinforce the scope's active rows among ``memory_ids`` whose last reinforcement (else
    when they were said) is ``every`` or more before ``at``: importance + ``step`` capped at
    ``cap`` (an importance already above it is kept), ``reinforced_at`` = ``at``. The check
    and the change are one statement, so concurrent readers never reinforce twice. Returns
    the ids that changed; ids in sorted order (no deadlock between writers)."""
    changed: list[str] = []
    sql = (
        "UPDATE {s}.memories SET importance = CASE WHEN importance >= ? THEN importance "
        "WHEN importance + ? > ? THEN ? ELSE importance + ? END, reinforced_at = ? "
        "WHERE tenant = ? AND user_id = ? AND status = ? AND {ids} "
        "AND coalesce(reinforced_at, observed_at) <= ? RETURNING id"
    )
    for chunk in chunks(sorted(set(memory_ids))):
        part, args = d.any_of("id", chunk)
        rows = run(
            d.q(sql.replace("{ids}", part)),
            [
                cap,
                step,
                cap,
                cap,
                step,
                d.time(at),
                scope.tenant,
                scope.user_id,
                Status.ACTIVE.value,
                *args,
                d.time(at - every),
            ],
        )
        changed += [str(r[0]) for r in rows]
    return changed


def delete_user_rows(run: Run, d: Dialect, scope: Scope) -> dict[str, int]:
    """Delete the user's history, consumed message ids, task state, profile overrides (with
    their history), aliases, sessions flagged by the drift guard and audit rows (the facade
    then appends one ``delete_user`` row); counts per table. (Each store deletes its
    memories, keyword index and vectors itself; the switch and identity logs outlive the
    user: no content.)"""
    counts: dict[str, int] = {}
    for table, key in (
        ("history", "history"),
        ("messages_seen", "message_ids"),
        ("tasks", "tasks"),
        ("profile_overrides", "profile_overrides"),
        ("aliases", "aliases"),
        ("identity_sessions", "suspect_sessions"),
        ("audit_log", "audit"),
    ):
        rows = run(
            d.q(f"DELETE FROM {{s}}.{table} WHERE tenant = ? AND user_id = ? RETURNING 1"),
            [scope.tenant, scope.user_id],
        )
        counts[key] = len(rows)
    return counts
