"""The user tier's ports (issue 13): task state, the memory switch, profile overrides, login
aliases and the audit log — kept beside the memories, in the same database. Split from
:mod:`jiyi.core.ports` (which re-exports every name) to keep each module readable.

Each method's docstring is a guarantee every implementation keeps; the contract suite in
``tests/contract`` checks them against every backend.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from jiyi.core.audit import AuditEntry
from jiyi.core.identity import Alias, AliasKind, IdentityEvent, SuspectSession
from jiyi.core.profile import ProfileOverride
from jiyi.core.users import (
    MemorySwitch,
    SwitchChange,
    SwitchState,
    SwitchVia,
    TaskState,
    TaskStatus,
)

__all__ = [
    "AuditStore",
    "AuditTier",
    "IdentityStore",
    "ProfileStore",
    "SwitchStore",
    "TaskStore",
    "UserTier",
]

# -- the user tier (issue 13) --------------------------------------------------------------
#
# Kept beside the memories, in the same database. Every method takes the tenant explicitly
# and never reads or writes another tenant's rows; none looks at agents: a task belongs to
# the user, whichever agent works on it.


class TaskStore(Protocol):
    """Keyed task state with optimistic concurrency. A task whose ``expires_at`` is at or
    before ``now`` does not exist for any method: it is never returned, a put starts it
    afresh at version 1, and the user's next put deletes its row."""

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
        """Create or replace the task in one transaction and return it as stored (a JSON
        object, checked by ``jiyi.core.tasks.check_task_state``; it reads back equal). The current
        version is the stored one, or 0 when there is none (or it expired); a non-None
        ``expected_version`` that differs raises VersionConflictError (``field``
        "expected_version", ``current`` the stored version) and writes nothing — 0 means
        "create only". None replaces whatever is there. The new version is current + 1;
        ``created_at`` is kept while the task lives. Of two concurrent puts naming the same
        expected version exactly one succeeds; the other conflicts."""
        ...

    def get(self, tenant: str, user_id: str, key: str, now: datetime) -> TaskState | None:
        """The live task, or None (missing, expired, or another user's or tenant's)."""
        ...

    def list(
        self, tenant: str, user_id: str, now: datetime, *, active_only: bool
    ) -> builtins.list[TaskState]:
        """The user's live tasks, most recently updated first (then by key); with
        ``active_only`` only those whose status is ``active``."""
        ...

    def delete(self, tenant: str, user_id: str, key: str, now: datetime) -> bool:
        """Delete the task; True if a live one was deleted (an expired row is removed too,
        but counts as not existing). Another user's task is never touched."""
        ...


class SwitchStore(Protocol):
    """Per-user memory switches and the log of their changes (who, when, from, to)."""

    def get(self, tenant: str, user_id: str) -> SwitchState:
        """The user's switch; ``on`` with no ``changed_at`` for a user never switched."""
        ...

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
        """Move the switch and append the change to the log, in one transaction; None (and
        nothing written) when it is already there. Of concurrent sets each logged change
        starts from the position the previous one left."""
        ...

    def changes(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[SwitchChange]:
        """The user's logged changes, newest first, at most ``limit``. They outlive
        ``delete_user`` (no content), as does the switch itself: a user who turned memory
        off and then asked to be forgotten stays unremembered."""
        ...


class ProfileStore(Protocol):
    """The profile fields a user or operator set or cleared (overrides), append-only: the
    latest row per field is in force, earlier rows are its history. The values are stored
    as given (the caller redacts PII first)."""

    def set(self, tenant: str, user_id: str, override: ProfileOverride) -> None:
        """Append ``override`` (``value`` None: the field is cleared); one transaction."""
        ...

    def current(self, tenant: str, user_id: str) -> dict[str, ProfileOverride]:
        """The override in force per field (the latest set); {} for a user with none."""
        ...

    def history(
        self, tenant: str, user_id: str, *, limit: int | None = None
    ) -> builtins.list[ProfileOverride]:
        """Every override of the user, newest first (at most ``limit``)."""
        ...

    def dump(self, tenant: str, user_id: str) -> builtins.list[ProfileOverride]:
        """Every override of the user, oldest first: what an export writes."""
        ...

    def restore(self, tenant: str, user_id: str, overrides: Sequence[ProfileOverride]) -> None:
        """Replace the user's overrides with ``overrides`` (oldest first) in one
        transaction: an import; running it twice leaves the same rows."""
        ...


@runtime_checkable
class UserTier(Protocol):
    """A MemoryStore that also keeps the user tier in its database (both jiyi stores do).
    ``delete_user`` removes the user's tasks and profile overrides (with their history) in
    the same transaction as the memories."""

    @property
    def tasks(self) -> TaskStore: ...

    @property
    def switches(self) -> SwitchStore: ...

    @property
    def profiles(self) -> ProfileStore: ...


class IdentityStore(Protocol):
    """Aliases (keyed digests, never the alias), identity events and sessions flagged by the
    drift guard. Every method is scoped by tenant; none ever reads another tenant's rows."""

    def link(
        self, tenant: str, user_id: str, kind: AliasKind, digest: str, hint: str, at: datetime
    ) -> Alias:
        """Link the alias to the user and return it as stored. Linking an alias the user
        already has returns the stored one unchanged (idempotent); one linked to another user
        of the tenant raises AliasTakenError (``field`` "alias") and writes nothing."""
        ...

    def unlink(self, tenant: str, user_id: str, kind: AliasKind, digest: str) -> bool:
        """Remove the alias from the user; False when the user had no such alias (another
        user's alias is never touched)."""
        ...

    def aliases(self, tenant: str, user_id: str) -> builtins.list[Alias]:
        """The user's aliases, oldest first (then by kind and digest)."""
        ...

    def resolve(self, tenant: str, kind: AliasKind, digest: str) -> str | None:
        """The user the alias is linked to in this tenant, or None."""
        ...

    def record(self, tenant: str, event: IdentityEvent) -> None:
        """Append an identity event to the audit log (outlives ``delete_user``: no content)."""
        ...

    def events(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[IdentityEvent]:
        """The user's identity events, newest first, at most ``limit``."""
        ...

    def flag(self, tenant: str, suspect: SuspectSession) -> None:
        """Mark a session as suspect (again: the slots and time are replaced and any earlier
        confirmation is cleared)."""
        ...

    def suspect(self, tenant: str, user_id: str, session_id: str) -> SuspectSession | None:
        """The session's flag (confirmed or not), or None when it was never flagged."""
        ...

    def suspects(self, tenant: str, user_id: str) -> builtins.list[SuspectSession]:
        """Every flagged session of the user (confirmed or not), oldest flag first."""
        ...

    def confirm(
        self, tenant: str, user_id: str, session_id: str, *, at: datetime, actor: str
    ) -> SuspectSession | None:
        """Confirm a flagged session (its memories load again); None when it was never
        flagged. Confirming twice keeps the first confirmation."""
        ...


class AuditStore(Protocol):
    """The audit log (``jiyi.core.audit``): append-only rows that never hold content. Every
    method is scoped by tenant; none ever reads another tenant's rows."""

    def append(self, tenant: str, entries: Sequence[AuditEntry]) -> None:
        """Append ``entries`` in one transaction, in the order given (their ``id`` is
        ignored; the store numbers them). An empty sequence writes nothing."""
        ...

    def list(
        self,
        tenant: str,
        user_id: str,
        *,
        since: datetime | None = None,
        limit: int = 100,
        cursor: int | None = None,
    ) -> builtins.list[AuditEntry]:
        """The user's rows, newest first (by ``id``), at most ``limit``, only those at or
        after ``since``, and only those older than the row ``cursor`` names (the ``id`` of
        the last row of the previous page). Unknown users give an empty list."""
        ...

    def purge(self, tenant: str, before: datetime) -> int:
        """Delete the tenant's rows older than ``before``; return how many went."""
        ...


@runtime_checkable
class AuditTier(Protocol):
    """A MemoryStore that keeps the audit log in its database (both jiyi stores do).
    ``delete_user`` removes the user's audit rows in the same transaction as the memories."""

    @property
    def audit(self) -> AuditStore: ...
