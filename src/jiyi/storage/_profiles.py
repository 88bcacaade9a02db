"""The profile's overrides in SQL, written once for SQLite and PostgreSQL (like
``_users.py``): the fields a user or operator set or cleared through the API, as an
append-only table — the latest row per field is the override in force, the rows before it
its history. ``delete_user`` removes them all (``_sql.delete_user_rows``).

Export and import (issue 13 item 6) go through :meth:`SqlProfileStore.dump` and
:meth:`SqlProfileStore.restore`: every row of a user, oldest first, and back.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

from jiyi.core.profile import ProfileOverride
from jiyi.storage._rows import decode_rows
from jiyi.storage._sql import Dialect
from jiyi.storage._users import Reader, Transaction

__all__ = ["SqlProfileStore"]

_SELECT = "SELECT field, value, set_at, set_by FROM {s}.profile_overrides"
_MINE = "tenant = ? AND user_id = ?"


class SqlProfileStore:
    """:class:`~jiyi.core.ports.ProfileStore` on ``profile_overrides`` (the guarantees are
    the port's)."""

    def __init__(
        self,
        d: Dialect,
        transaction: Transaction,
        read: Reader,
        *,
        after_delete: Callable[[], None] | None = None,
    ) -> None:
        """``after_delete`` runs after a restore replaced rows (SQLite checkpoints its WAL,
        so the replaced values leave the file at once)."""
        self._d = d
        self._tx = transaction
        self._read = read
        self._after_delete = after_delete

    def _decode(self, rows: Sequence[Sequence[Any]]) -> list[ProfileOverride]:
        d = self._d
        return decode_rows(
            rows,
            lambda r: ProfileOverride(
                field=r[0], value=r[1], set_at=d.read_time(r[2]), set_by=r[3]
            ),
            "profile_overrides",
        )

    def set(self, tenant: str, user_id: str, override: ProfileOverride) -> None:
        d = self._d
        with self._tx(tenant) as run:
            run(
                d.q(
                    "INSERT INTO {s}.profile_overrides (tenant, user_id, field, value, set_at, "
                    "set_by) VALUES (?, ?, ?, ?, ?, ?)"
                ),
                [
                    tenant,
                    user_id,
                    override.field,
                    override.value,
                    d.time(override.set_at),
                    override.set_by,
                ],
            )

    def current(self, tenant: str, user_id: str) -> dict[str, ProfileOverride]:
        rows = self._read(tenant)(
            self._d.q(f"{_SELECT} WHERE {_MINE} ORDER BY id"), [tenant, user_id]
        )
        return {o.field: o for o in self._decode(rows)}  # later rows win

    def history(
        self, tenant: str, user_id: str, *, limit: int | None = None
    ) -> builtins.list[ProfileOverride]:
        sql = f"{_SELECT} WHERE {_MINE} ORDER BY id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return self._decode(self._read(tenant)(self._d.q(sql), [tenant, user_id]))

    def dump(self, tenant: str, user_id: str) -> builtins.list[ProfileOverride]:
        return list(reversed(self.history(tenant, user_id)))

    def restore(self, tenant: str, user_id: str, overrides: Sequence[ProfileOverride]) -> None:
        d = self._d
        with self._tx(tenant) as run:
            gone = run(
                d.q(f"DELETE FROM {{s}}.profile_overrides WHERE {_MINE} RETURNING 1"),
                [tenant, user_id],
            )
            for o in overrides:
                run(
                    d.q(
                        "INSERT INTO {s}.profile_overrides (tenant, user_id, field, value, "
                        "set_at, set_by) VALUES (?, ?, ?, ?, ?, ?)"
                    ),
                    [tenant, user_id, o.field, o.value, d.time(o.set_at), o.set_by],
                )
        if gone and self._after_delete is not None:
            self._after_delete()
