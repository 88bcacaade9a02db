"""The user tier's SQL, written once for SQLite and PostgreSQL (like ``_sql.py``): keyed
task state with optimistic concurrency, and the memory switch with its change log.

Each store hands :class:`SqlTaskStore` its own transaction (``BEGIN IMMEDIATE`` on SQLite,
a pooled transaction bound to the tenant on PostgreSQL) and reader; the statements are the
same on both. A put is one statement after the purge of the user's expired rows, so the
database itself decides between two concurrent writers:

- no expected version: ``INSERT … ON CONFLICT DO UPDATE`` (an upsert is atomic on both);
- expected version 0 ("create only"): ``INSERT … ON CONFLICT DO NOTHING`` — the loser of a
  race inserts nothing and gets no row back;
- expected version n: ``UPDATE … WHERE version = n`` — on PostgreSQL the second writer
  waits for the first one's row lock, then re-reads the row, finds version n + 1 and
  updates nothing; SQLite serialises writers outright.

No row back means a conflict: the current version is read in the same transaction and
:class:`~jiyi.errors.VersionConflictError` names it.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from jiyi.core.users import (
    MemorySwitch,
    SwitchChange,
    SwitchState,
    SwitchVia,
    TaskState,
    TaskStatus,
)
from jiyi.errors import StorageUnavailableError, VersionConflictError
from jiyi.storage._rows import decode_rows
from jiyi.storage._sql import Dialect, Run

__all__ = ["SqlSwitchStore", "SqlTaskStore", "Transaction"]

#: A transaction of the store bound to a tenant, yielding its statement runner.
Transaction = Callable[[str], AbstractContextManager[Run]]
#: A reader bound to a tenant (outside any write transaction).
Reader = Callable[[str], Run]

_COLUMNS = "user_id, task_key, state, status, version, created_at, updated_at, expires_at"
_SELECT = f"SELECT {_COLUMNS} FROM {{s}}.tasks"
_LIVE = "(expires_at IS NULL OR expires_at > ?)"
_MINE = "tenant = ? AND user_id = ? AND task_key = ?"


class SqlTaskStore:
    """:class:`~jiyi.core.ports.TaskStore` on the ``tasks`` table of a memory store's
    database (the guarantees are the port's)."""

    def __init__(
        self,
        d: Dialect,
        transaction: Transaction,
        read: Reader,
        *,
        after_delete: Callable[[], None] | None = None,
    ) -> None:
        """``after_delete`` runs after a delete committed (SQLite checkpoints its WAL, so
        the deleted state leaves the file at once)."""
        self._d = d
        self._tx = transaction
        self._read = read
        self._after_delete = after_delete

    def _decode(self, rows: Sequence[Sequence[Any]]) -> list[TaskState]:
        d = self._d

        def one(r: Sequence[Any]) -> TaskState:
            return TaskState(
                user_id=r[0],
                key=r[1],
                state=d.read_json(r[2]),
                status=TaskStatus(r[3]),
                version=int(r[4]),
                created_at=d.read_time(r[5]),
                updated_at=d.read_time(r[6]),
                expires_at=d.read_time(r[7]),
            )

        return decode_rows(rows, one, "tasks")

    def put(
        self,
        tenant: str,
        user_id: str,
        key: str,
        state: Mapping[str, Any],
        *,
        status: TaskStatus,
        expires_at: datetime | None,
        expected_version: int | None,
        now: datetime,
    ) -> TaskState:
        d = self._d
        when, until = d.time(now), d.time(expires_at)
        values = [tenant, user_id, key, d.json(dict(state)), status.value, when, when, until]
        insert = (
            "INSERT INTO {s}.tasks AS t (tenant, user_id, task_key, state, status, version, "
            "created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) "
            "ON CONFLICT (tenant, user_id, task_key) "
        )
        with self._tx(tenant) as run:
            # Expired tasks of the user vanish here (this key's included: it starts afresh).
            run(
                d.q(
                    "DELETE FROM {s}.tasks WHERE tenant = ? AND user_id = ? "
                    "AND expires_at IS NOT NULL AND expires_at <= ?"
                ),
                [tenant, user_id, when],
            )
            if expected_version is None:
                rows = run(
                    d.q(
                        insert + "DO UPDATE SET state = EXCLUDED.state, status = EXCLUDED.status, "
                        "version = t.version + 1, updated_at = EXCLUDED.updated_at, "
                        f"expires_at = EXCLUDED.expires_at RETURNING {_COLUMNS}"
                    ),
                    values,
                )
            elif expected_version == 0:
                rows = run(d.q(insert + f"DO NOTHING RETURNING {_COLUMNS}"), values)
            else:
                rows = run(
                    d.q(
                        "UPDATE {s}.tasks SET state = ?, status = ?, version = version + 1, "
                        f"updated_at = ?, expires_at = ? WHERE {_MINE} AND version = ? "
                        f"RETURNING {_COLUMNS}"
                    ),
                    [values[3], values[4], when, until, tenant, user_id, key, expected_version],
                )
            if not rows:
                found = run(d.q(f"SELECT version FROM {{s}}.tasks WHERE {_MINE}"), values[:3])
                current = int(found[0][0]) if found else 0
                raise VersionConflictError(
                    f"task {key!r} is at version {current}, not {expected_version}: read it "
                    "again, then put with its version",
                    field="expected_version",
                    current=current,
                )
        return self._decode(rows)[0]

    def get(self, tenant: str, user_id: str, key: str, now: datetime) -> TaskState | None:
        d = self._d
        rows = self._read(tenant)(
            d.q(f"{_SELECT} WHERE {_MINE} AND {_LIVE}"), [tenant, user_id, key, d.time(now)]
        )
        found = self._decode(rows)
        return found[0] if found else None

    def list(
        self, tenant: str, user_id: str, now: datetime, *, active_only: bool
    ) -> builtins.list[TaskState]:
        d = self._d
        sql = f"{_SELECT} WHERE tenant = ? AND user_id = ? AND {_LIVE}"
        args: list[Any] = [tenant, user_id, d.time(now)]
        if active_only:
            sql += " AND status = ?"
            args.append(TaskStatus.ACTIVE.value)
        sql += f" ORDER BY updated_at DESC, task_key COLLATE {d.binary}"
        return self._decode(self._read(tenant)(d.q(sql), args))

    def delete(self, tenant: str, user_id: str, key: str, now: datetime) -> bool:
        d = self._d
        with self._tx(tenant) as run:
            rows = run(
                d.q(f"DELETE FROM {{s}}.tasks WHERE {_MINE} RETURNING expires_at"),
                [tenant, user_id, key],
            )
        if self._after_delete is not None and rows:
            self._after_delete()
        if not rows:
            return False
        until = d.read_time(rows[0][0])
        return until is None or until > now


_SWITCH_ATTEMPTS = 5


class SqlSwitchStore:
    """:class:`~jiyi.core.ports.SwitchStore` on ``memory_switches`` and
    ``memory_switch_log``. A set is compare-and-set: the row is updated only if it still
    holds the position read (or inserted only if still absent), so two concurrent sets never
    log the same "before"; the loser reads again."""

    def __init__(self, d: Dialect, transaction: Transaction, read: Reader) -> None:
        self._d = d
        self._tx = transaction
        self._read = read

    def get(self, tenant: str, user_id: str) -> SwitchState:
        rows = self._read(tenant)(
            self._d.q(
                "SELECT memory, changed_at, changed_by FROM {s}.memory_switches "
                "WHERE tenant = ? AND user_id = ?"
            ),
            [tenant, user_id],
        )
        if not rows:
            return SwitchState(user_id=user_id)
        memory, at, by = rows[0]
        return SwitchState(
            user_id=user_id,
            memory=MemorySwitch(memory),
            changed_at=self._d.read_time(at),
            changed_by=by,
        )

    def set(
        self,
        tenant: str,
        user_id: str,
        memory: MemorySwitch,
        *,
        at: datetime,
        actor: str,
        via: SwitchVia,
    ) -> SwitchChange | None:
        d = self._d
        when = d.time(at)
        for _ in range(_SWITCH_ATTEMPTS):
            with self._tx(tenant) as run:
                rows = run(
                    d.q("SELECT memory FROM {s}.memory_switches WHERE tenant = ? AND user_id = ?"),
                    [tenant, user_id],
                )
                before = MemorySwitch(rows[0][0]) if rows else MemorySwitch.ON
                if before == memory:
                    return None
                if rows:
                    done = run(
                        d.q(
                            "UPDATE {s}.memory_switches SET memory = ?, changed_at = ?, "
                            "changed_by = ? WHERE tenant = ? AND user_id = ? AND memory = ? "
                            "RETURNING 1"
                        ),
                        [memory.value, when, actor, tenant, user_id, before.value],
                    )
                else:
                    done = run(
                        d.q(
                            "INSERT INTO {s}.memory_switches (tenant, user_id, memory, "
                            "changed_at, changed_by) VALUES (?, ?, ?, ?, ?) "
                            "ON CONFLICT (tenant, user_id) DO NOTHING RETURNING 1"
                        ),
                        [tenant, user_id, memory.value, when, actor],
                    )
                if not done:
                    continue  # another writer moved it since the read: read again
                run(
                    d.q(
                        "INSERT INTO {s}.memory_switch_log (tenant, user_id, at, before, "
                        "after, actor, via) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    ),
                    [tenant, user_id, when, before.value, memory.value, actor, via],
                )
            return SwitchChange(
                user_id=user_id, at=at, before=before, after=memory, actor=actor, via=via
            )
        raise StorageUnavailableError("the memory switch kept changing under this write; retry")

    def changes(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[SwitchChange]:
        d = self._d
        rows = self._read(tenant)(
            d.q(
                "SELECT at, before, after, actor, via FROM {s}.memory_switch_log "
                f"WHERE tenant = ? AND user_id = ? ORDER BY id DESC LIMIT {int(limit)}"
            ),
            [tenant, user_id],
        )
        return decode_rows(
            rows,
            lambda r: SwitchChange(
                user_id=user_id,
                at=d.read_time(r[0]),
                before=MemorySwitch(r[1]),
                after=MemorySwitch(r[2]),
                actor=r[3],
                via=r[4],
            ),
            "memory_switch_log",
        )
