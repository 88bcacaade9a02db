"""What PostgreSQL needs to move or read a whole user (``IdentityTier``): its keyword index
(the generated ``tsv``) and vector live in the memory's row, so a merge is one ``UPDATE``
and an export one ``SELECT``. SQLite's counterpart is ``sqlite_transfer.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jiyi.core.ports import Indexed
from jiyi.storage import _sql
from jiyi.storage._rows import COLUMNS, decode_rows
from jiyi.storage._sql import Dialect, Run

__all__ = ["indexed_rows", "merge_memories"]


def merge_memories(run: Run, d: Dialect, tenant: str, source: str, target: str) -> dict[str, int]:
    """Give the source's memories to the target (inside the caller's transaction)."""
    moved = run(
        d.q("UPDATE {s}.memories SET user_id = ? WHERE tenant = ? AND user_id = ? RETURNING 1"),
        [target, tenant, source],
    )
    return {"memories": len(moved)}


def indexed_rows(run: Run, d: Dialect, tenant: str, user_id: str) -> list[Indexed]:
    """Every row of the user with its keywords and vector, by id (byte order)."""
    rows = run(
        d.q(
            f"SELECT {_sql.COLUMN_LIST}, keywords, embedding FROM {{s}}.memories "
            'WHERE tenant = ? AND user_id = ? ORDER BY id COLLATE "C"'
        ),
        [tenant, user_id],
    )
    n = len(COLUMNS)

    def one(r: Sequence[Any]) -> Indexed:
        raw = r[n + 1]
        vec = None
        if raw is not None:  # pgvector hands back its own Vector type
            vec = np.asarray(raw.to_numpy() if hasattr(raw, "to_numpy") else raw, np.float32)
        return Indexed(_sql.from_row(d, r[:n]), r[n] or "", vec)

    return decode_rows(rows, one, "memories")
