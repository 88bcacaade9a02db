"""The plain reads both memory stores share (get, get many, list, consumed message ids,
history), on the statements of ``_sql.py``: the same :class:`~jiyi.storage._sql.Dialect`,
scope ``WHERE`` and row codec. Memory rows are decoded through ``decode_rows``: a bad row is
logged, counted and skipped, never failing the read of its user.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from jiyi.core.models import HistoryEntry, MemoryItem, Scope
from jiyi.core.ports import SearchFilter
from jiyi.storage._rows import COLUMNS, decode_rows
from jiyi.storage._sql import Dialect, Run, chunks, from_row, scope_where

SELECT_MEMORIES = f"SELECT {', '.join(f'm.{c}' for c in COLUMNS)} FROM {{s}}.memories m"


def decode_memories(d: Dialect, rows: Sequence[Sequence[Any]]) -> list[MemoryItem]:
    return decode_rows(rows, partial(from_row, d), "memories")


def get_memory(run: Run, d: Dialect, tenant: str, memory_id: str) -> MemoryItem | None:
    rows = run(d.q(f"{SELECT_MEMORIES} WHERE m.id = ? AND m.tenant = ?"), [memory_id, tenant])
    found = decode_memories(d, rows)
    return found[0] if found else None


def get_memories(run: Run, d: Dialect, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
    """The memories in scope, in the order of ``memory_ids``; missing ids left out."""
    ids = list(dict.fromkeys(memory_ids))
    where, args = scope_where(d, scope)
    found: dict[str, MemoryItem] = {}
    for chunk in chunks(ids):
        part, more = d.any_of("m.id", chunk)
        rows = run(d.q(f"{SELECT_MEMORIES} WHERE {part} AND {where}"), [*more, *args])
        found.update((m.id, m) for m in decode_memories(d, rows))
    return [found[i] for i in ids if i in found]


def list_memories(
    run: Run,
    d: Dialect,
    scope: Scope,
    flt: SearchFilter,
    topic: str | None = None,
    limit: int | None = None,
) -> list[MemoryItem]:
    """Oldest first by id (UUIDv7), in byte order on every backend."""
    where, args = scope_where(d, scope, flt)
    if topic is not None:
        where += " AND m.topic = ?"
        args.append(topic)
    sql = f"{SELECT_MEMORIES} WHERE {where} ORDER BY m.id COLLATE {d.binary}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return decode_memories(d, run(d.q(sql), args))


def seen_messages(run: Run, d: Dialect, scope: Scope, message_ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for chunk in chunks(list(dict.fromkeys(message_ids))):
        part, args = d.any_of("message_id", chunk)
        rows = run(
            d.q(
                "SELECT message_id FROM {s}.messages_seen "
                f"WHERE tenant = ? AND user_id = ? AND {part}"
            ),
            [scope.tenant, scope.user_id, *args],
        )
        found.update(str(r[0]) for r in rows)
    return found


def read_history(run: Run, d: Dialect, tenant: str, memory_id: str) -> list[HistoryEntry]:
    rows = run(
        d.q(
            "SELECT hid, memory_id, action, at, content, content_hash, version, related_id, "
            "reason FROM {s}.history WHERE tenant = ? AND memory_id = ? ORDER BY hid"
        ),
        [tenant, memory_id],
    )
    return decode_rows(
        rows,
        lambda r: HistoryEntry(
            id=r[0],
            memory_id=r[1],
            action=r[2],
            at=d.read_time(r[3]),
            content=r[4],
            content_hash=r[5],
            version=r[6],
            related_id=r[7],
            reason=r[8],
        ),
        "history",
    )
