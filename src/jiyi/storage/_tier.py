"""The user tier of a memory store: its task, switch, profile-override, identity and audit
stores, built alike over the store's SQL dialect, transaction and reader. One mixin gives
SQLite and PostgreSQL the same accessors (``UserTier``, ``AuditTier``, ``IdentityTier``).
"""

from __future__ import annotations

from collections.abc import Callable

from jiyi.core.ports import AuditStore, IdentityStore, ProfileStore, SwitchStore, TaskStore
from jiyi.storage._audit import SqlAuditStore
from jiyi.storage._identity import SqlIdentityStore
from jiyi.storage._profiles import SqlProfileStore
from jiyi.storage._sql import Dialect
from jiyi.storage._users import Reader, SqlSwitchStore, SqlTaskStore, Transaction

__all__ = ["UserTierStores"]


class UserTierStores:
    """Builds and exposes a memory store's user-tier stores (all in its own database, every
    call scoped by tenant; PostgreSQL adds row-level security on each table)."""

    def _build_user_tier(
        self,
        d: Dialect,
        transaction: Transaction,
        read: Reader,
        *,
        after_delete: Callable[[], None] | None = None,
    ) -> None:
        """``after_delete`` runs after a task or profile field is deleted (SQLite checkpoints
        its WAL so the deleted bytes leave the file)."""
        self._tasks = SqlTaskStore(d, transaction, read, after_delete=after_delete)
        self._switches = SqlSwitchStore(d, transaction, read)
        self._profiles = SqlProfileStore(d, transaction, read, after_delete=after_delete)
        self._identity = SqlIdentityStore(d, transaction, read)
        self._audit = SqlAuditStore(d, transaction, read)

    @property
    def tasks(self) -> TaskStore:
        """Task state of the users (``UserTier``)."""
        return self._tasks

    @property
    def switches(self) -> SwitchStore:
        """The users' memory switches and their change log (``UserTier``)."""
        return self._switches

    @property
    def profiles(self) -> ProfileStore:
        """The profile fields users or operators set, with their history (``UserTier``)."""
        return self._profiles

    @property
    def audit(self) -> AuditStore:
        """The audit log of reads and writes, no content (``AuditTier``)."""
        return self._audit

    @property
    def identity(self) -> IdentityStore:
        """Aliases (keyed digests), the identity log and flagged sessions (``IdentityTier``)."""
        return self._identity
