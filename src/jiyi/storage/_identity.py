"""The identity tier's SQL, written once for SQLite and PostgreSQL (like ``_users.py``):
aliases as keyed digests, the identity audit log, sessions flagged by the drift guard, and
the statements a merge of two users runs on the shared tables.

An alias row holds the digest, the kind, a masked hint and the time — never the alias. The
primary key (tenant, kind, digest) lets the database itself refuse a second owner: a link is
``INSERT … ON CONFLICT DO NOTHING`` and the row read back says whose it is.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from jiyi.core.identity import Alias, AliasKind, IdentityEvent, SuspectSession
from jiyi.errors import AliasTakenError, ConflictError
from jiyi.storage._rows import decode_rows
from jiyi.storage._sql import Dialect, Run
from jiyi.storage._users import Reader, Transaction

__all__ = ["SqlIdentityStore", "merge_shared_rows"]

_ALIAS = "SELECT kind, hint, digest, created_at, user_id FROM {s}.aliases"
_SUSPECT = (
    "SELECT user_id, session_id, flagged_at, slots, confirmed_at, confirmed_by "
    "FROM {s}.identity_sessions WHERE tenant = ? AND user_id = ? AND session_id = ?"
)


class SqlIdentityStore:
    """:class:`~jiyi.core.ports.IdentityStore` on ``aliases``, ``identity_log`` and
    ``identity_sessions`` (the guarantees are the port's)."""

    def __init__(self, d: Dialect, transaction: Transaction, read: Reader) -> None:
        self._d = d
        self._tx = transaction
        self._read = read

    def _alias(self, r: Sequence[Any]) -> Alias:
        return Alias(
            kind=AliasKind(r[0]), hint=r[1], digest=r[2], created_at=self._d.read_time(r[3])
        )

    def link(
        self, tenant: str, user_id: str, kind: AliasKind, digest: str, hint: str, at: datetime
    ) -> Alias:
        d = self._d
        with self._tx(tenant) as run:
            run(
                d.q(
                    "INSERT INTO {s}.aliases (tenant, kind, digest, user_id, hint, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, kind, digest) DO NOTHING"
                ),
                [tenant, kind.value, digest, user_id, hint, d.time(at)],
            )
            rows = run(
                d.q(f"{_ALIAS} WHERE tenant = ? AND kind = ? AND digest = ?"),
                [tenant, kind.value, digest],
            )
            if rows[0][4] != user_id:
                # Never name the owner: the caller may not be allowed to know who it is.
                raise AliasTakenError(
                    "this alias is linked to another user: unlink it there, or merge the two users",
                    field="alias",
                )
        return self._alias(rows[0])

    def unlink(self, tenant: str, user_id: str, kind: AliasKind, digest: str) -> bool:
        with self._tx(tenant) as run:
            rows = run(
                self._d.q(
                    "DELETE FROM {s}.aliases WHERE tenant = ? AND kind = ? AND digest = ? "
                    "AND user_id = ? RETURNING 1"
                ),
                [tenant, kind.value, digest, user_id],
            )
        return bool(rows)

    def aliases(self, tenant: str, user_id: str) -> builtins.list[Alias]:
        rows = self._read(tenant)(
            self._d.q(
                f"{_ALIAS} WHERE tenant = ? AND user_id = ? "
                f"ORDER BY created_at, kind, digest COLLATE {self._d.binary}"
            ),
            [tenant, user_id],
        )
        return decode_rows(rows, self._alias, "aliases")

    def resolve(self, tenant: str, kind: AliasKind, digest: str) -> str | None:
        rows = self._read(tenant)(
            self._d.q(
                "SELECT user_id FROM {s}.aliases WHERE tenant = ? AND kind = ? AND digest = ?"
            ),
            [tenant, kind.value, digest],
        )
        return str(rows[0][0]) if rows else None

    def record(self, tenant: str, event: IdentityEvent) -> None:
        with self._tx(tenant) as run:
            insert_event(run, self._d, tenant, event)

    def events(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[IdentityEvent]:
        d = self._d
        rows = self._read(tenant)(
            d.q(
                "SELECT at, action, actor, session_id, other_user, detail FROM "
                "{s}.identity_log WHERE tenant = ? AND user_id = ? "
                f"ORDER BY id DESC LIMIT {int(limit)}"
            ),
            [tenant, user_id],
        )
        return decode_rows(
            rows,
            lambda r: IdentityEvent(
                user_id=user_id,
                at=d.read_time(r[0]),
                action=r[1],
                actor=r[2],
                session_id=r[3],
                other_user=r[4],
                detail=d.read_json(r[5]),
            ),
            "identity_log",
        )

    def flag(self, tenant: str, suspect: SuspectSession) -> None:
        d = self._d
        with self._tx(tenant) as run:
            run(
                d.q(
                    "INSERT INTO {s}.identity_sessions (tenant, user_id, session_id, "
                    "flagged_at, slots) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (tenant, user_id, session_id) DO UPDATE SET "
                    "flagged_at = EXCLUDED.flagged_at, slots = EXCLUDED.slots, "
                    "confirmed_at = NULL, confirmed_by = NULL"
                ),
                [
                    tenant,
                    suspect.user_id,
                    suspect.session_id,
                    d.time(suspect.flagged_at),
                    d.json(suspect.slots),
                ],
            )

    def _suspect(self, rows: Sequence[Sequence[Any]]) -> SuspectSession | None:
        d = self._d
        found = decode_rows(
            rows,
            lambda r: SuspectSession(
                user_id=r[0],
                session_id=r[1],
                flagged_at=d.read_time(r[2]),
                slots=d.read_json(r[3]),
                confirmed_at=d.read_time(r[4]),
                confirmed_by=r[5],
            ),
            "identity_sessions",
        )
        return found[0] if found else None

    def suspect(self, tenant: str, user_id: str, session_id: str) -> SuspectSession | None:
        rows = self._read(tenant)(self._d.q(_SUSPECT), [tenant, user_id, session_id])
        return self._suspect(rows)

    def suspects(self, tenant: str, user_id: str) -> builtins.list[SuspectSession]:
        d = self._d
        rows = self._read(tenant)(
            d.q(
                "SELECT user_id, session_id, flagged_at, slots, confirmed_at, confirmed_by "
                "FROM {s}.identity_sessions WHERE tenant = ? AND user_id = ? "
                f"ORDER BY flagged_at, session_id COLLATE {d.binary}"
            ),
            [tenant, user_id],
        )
        return [found for r in rows if (found := self._suspect([r])) is not None]

    def confirm(
        self, tenant: str, user_id: str, session_id: str, *, at: datetime, actor: str
    ) -> SuspectSession | None:
        d = self._d
        with self._tx(tenant) as run:
            run(
                d.q(
                    "UPDATE {s}.identity_sessions SET confirmed_at = ?, confirmed_by = ? "
                    "WHERE tenant = ? AND user_id = ? AND session_id = ? "
                    "AND confirmed_at IS NULL"
                ),
                [d.time(at), actor, tenant, user_id, session_id],
            )
            rows = run(d.q(_SUSPECT), [tenant, user_id, session_id])
        return self._suspect(rows)


def insert_event(run: Run, d: Dialect, tenant: str, event: IdentityEvent) -> None:
    """Append one identity event (inside the caller's transaction)."""
    run(
        d.q(
            "INSERT INTO {s}.identity_log (tenant, user_id, at, action, actor, session_id, "
            "other_user, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        ),
        [
            tenant,
            event.user_id,
            d.time(event.at),
            event.action,
            event.actor,
            event.session_id,
            event.other_user,
            d.json(event.detail),
        ],
    )


def merge_shared_rows(
    run: Run, d: Dialect, tenant: str, source: str, target: str
) -> dict[str, int]:
    """Move the source user's rows of the tables both stores share to the target, inside
    the caller's transaction (each store moves its memories, keyword index and vectors
    itself). A task key both users hold is a conflict: nothing moves."""
    clash = run(
        d.q(
            "SELECT a.task_key FROM {s}.tasks a JOIN {s}.tasks b ON b.tenant = a.tenant "
            "AND b.task_key = a.task_key AND b.user_id = ? WHERE a.tenant = ? AND a.user_id = ?"
        ),
        [target, tenant, source],
    )
    if clash:
        keys = ", ".join(sorted(str(r[0]) for r in clash))
        raise ConflictError(
            f"both users hold the task(s) {keys}: delete or rename one side, then merge",
            field="tasks",
        )
    counts: dict[str, int] = {}
    tables = (
        ("history", "history"),
        ("tasks", "tasks"),
        ("aliases", "aliases"),
        ("profile_overrides", "profile_overrides"),  # set fields keep their history
    )
    for table, key in tables:
        rows = run(
            d.q(
                f"UPDATE {{s}}.{table} SET user_id = ? WHERE tenant = ? AND user_id = ? RETURNING 1"
            ),
            [target, tenant, source],
        )
        counts[key] = len(rows)
    # Consumed message ids: the pair is the key, so copy what the target lacks, then drop.
    run(
        d.q(
            "INSERT INTO {s}.messages_seen (tenant, user_id, message_id) SELECT tenant, ?, "
            "message_id FROM {s}.messages_seen WHERE tenant = ? AND user_id = ? "
            "ON CONFLICT DO NOTHING"
        ),
        [target, tenant, source],
    )
    moved = run(
        d.q("DELETE FROM {s}.messages_seen WHERE tenant = ? AND user_id = ? RETURNING 1"),
        [tenant, source],
    )
    counts["message_ids"] = len(moved)
    # A flag belongs to the source's sessions; merging says who they were.
    run(
        d.q("DELETE FROM {s}.identity_sessions WHERE tenant = ? AND user_id = ?"),
        [tenant, source],
    )
    return counts
