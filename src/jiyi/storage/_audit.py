"""The audit log's SQL, written once for SQLite and PostgreSQL (like ``_users.py``).

Rows are numbered by the database (``id``), which is the log's order and the cursor of a
page: a later row always has a larger id, even when two rows share a timestamp.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from jiyi.core.audit import AuditEntry
from jiyi.storage._rows import decode_rows
from jiyi.storage._sql import Dialect
from jiyi.storage._users import Reader, Transaction

__all__ = ["SqlAuditStore"]


class SqlAuditStore:
    """:class:`~jiyi.core.ports.AuditStore` on the ``audit_log`` table (the guarantees are
    the port's)."""

    def __init__(self, d: Dialect, transaction: Transaction, read: Reader) -> None:
        self._d = d
        self._tx = transaction
        self._read = read

    def append(self, tenant: str, entries: Sequence[AuditEntry]) -> None:
        if not entries:
            return
        d = self._d
        sql = d.q(
            "INSERT INTO {s}.audit_log (tenant, user_id, at, actor, action, n) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        with self._tx(tenant) as run:
            for e in entries:
                run(sql, [tenant, e.user_id, d.time(e.at), e.actor, e.action, e.count])

    def list(
        self,
        tenant: str,
        user_id: str,
        *,
        since: datetime | None = None,
        limit: int = 100,
        cursor: int | None = None,
    ) -> builtins.list[AuditEntry]:
        d = self._d
        sql = "SELECT id, at, actor, action, n FROM {s}.audit_log WHERE tenant = ? AND user_id = ?"
        args: list[Any] = [tenant, user_id]
        if since is not None:
            sql += " AND at >= ?"
            args.append(d.time(since))
        if cursor is not None:
            sql += " AND id < ?"
            args.append(int(cursor))
        sql += f" ORDER BY id DESC LIMIT {max(int(limit), 0)}"
        rows = self._read(tenant)(d.q(sql), args)

        def one(r: Sequence[Any]) -> AuditEntry:
            return AuditEntry(
                id=int(r[0]),
                user_id=user_id,
                at=d.read_time(r[1]),
                actor=r[2],
                action=r[3],
                count=int(r[4]),
            )

        return decode_rows(rows, one, "audit_log")

    def purge(self, tenant: str, before: datetime) -> int:
        d = self._d
        with self._tx(tenant) as run:
            rows = run(
                d.q("DELETE FROM {s}.audit_log WHERE tenant = ? AND at < ? RETURNING 1"),
                [tenant, d.time(before)],
            )
        return len(rows)
