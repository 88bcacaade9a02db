"""What only SQLite needs to move or read a whole user: its keyword index lives in an FTS5
table keyed by an opaque per-user scope token and its vectors in a table of its own, so a
merge re-tokens the rows and an export joins the three (PostgreSQL keeps both in the row)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jiyi.core.ports import Indexed
from jiyi.storage import _sql
from jiyi.storage._rows import COLUMNS, decode_rows
from jiyi.storage._sql import SQLITE, Run
from jiyi.storage.sqlite_search import scope_token

__all__ = ["indexed_rows", "merge_memories"]


def merge_memories(run: Run, tenant: str, source: str, target: str) -> dict[str, int]:
    """Give the source's memories to the target (inside the caller's transaction): the
    rows change owner and their keyword entries move to the target's scope token."""
    pks = [
        r[0]
        for r in run("SELECT pk FROM memories WHERE tenant = ? AND user_id = ?", [tenant, source])
    ]
    token = scope_token(tenant, target)
    for chunk in _sql.chunks(pks):
        marks = ", ".join("?" * len(chunk))
        run(f"UPDATE memory_fts SET scope = ? WHERE rowid IN ({marks})", [token, *chunk])
    run(
        "UPDATE memories SET user_id = ? WHERE tenant = ? AND user_id = ?",
        [target, tenant, source],
    )
    return {"memories": len(pks)}


def indexed_rows(
    read: Callable[[str, Sequence[Any]], list[Any]], tenant: str, user_id: str
) -> list[Indexed]:
    """Every row of the user with its FTS tokens and vector, by id."""
    cols = ", ".join(f"m.{c}" for c in COLUMNS)
    rows = read(
        f"SELECT {cols}, f.tokens, v.vec FROM memories m "
        "LEFT JOIN memory_fts f ON f.rowid = m.pk LEFT JOIN vectors v ON v.pk = m.pk "
        "WHERE m.tenant = ? AND m.user_id = ? ORDER BY m.id COLLATE BINARY",
        [tenant, user_id],
    )
    n = len(COLUMNS)

    def one(r: Sequence[Any]) -> Indexed:
        vec = None if r[n + 1] is None else np.frombuffer(r[n + 1], dtype=np.float32).copy()
        return Indexed(_sql.from_row(SQLITE, r[:n]), r[n] or "", vec)

    return decode_rows(rows, one, "memories")
