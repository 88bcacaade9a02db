"""``NotifyingStore``: a MemoryStore that reports every committed write of a user.

The context cache must be invalidated by every write of a user — an add, an update or
delete, a session flush, a worker's extraction, ``delete_user`` — and each of those once had
a ``changed()`` call placed by hand after it; forgetting one served a stale context block
until the TTL. Wrapped around the store in the composition root (``create_app``), the store
itself says so, after the transaction committed, whoever wrote.

Only :meth:`apply` with a non-empty change set, :meth:`delete_user` and the writes of the
user tier (a task put or delete, a switch change, a profile override: all shape the context
block) notify. ``touch``
(access counts) does not: a cached block skips its access-count update on purpose, and
notifying on reads would empty the cache on every miss.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from jiyi.core.identity import Alias, AliasKind, IdentityEvent, SuspectSession
from jiyi.core.models import HistoryEntry, MemoryItem, Scope
from jiyi.core.ports import (
    AuditStore,
    AuditTier,
    ChangeSet,
    IdentityStore,
    IdentityTier,
    Indexed,
    MemoryStore,
    ProfileStore,
    SearchFilter,
    SqlWrite,
    SwitchStore,
    TaskStore,
    UserDirectory,
    UserSummary,
    UserTier,
    Vector,
    VectorLedger,
)
from jiyi.core.profile import ProfileOverride
from jiyi.core.users import (
    MemorySwitch,
    SwitchChange,
    SwitchState,
    SwitchVia,
    TaskState,
    TaskStatus,
)

#: Called with (tenant, user_id) after a write of that user committed. Must not raise
#: (a cache's ``bump`` is best effort): the write has already happened.
OnChange = Callable[[str, str], None]


class NotifyingStore:
    """Delegates every :class:`~jiyi.core.ports.MemoryStore` method to ``inner`` and calls
    ``on_change(tenant, user_id)`` after each write that committed (nothing is reported
    for a write that raised: it wrote nothing).

    Args:
        inner: the store that does the work.
        on_change: e.g. ``ContextCache.bump``.
    """

    def __init__(self, inner: MemoryStore, on_change: OnChange) -> None:
        self.inner = inner
        self._on_change = on_change
        self._tasks: _NotifyingTasks | None = None
        self._switches: _NotifyingSwitches | None = None
        self._profiles: _NotifyingProfiles | None = None
        if isinstance(inner, UserTier):
            self._tasks = _NotifyingTasks(inner.tasks, on_change)
            self._switches = _NotifyingSwitches(inner.switches, on_change)
            self._profiles = _NotifyingProfiles(inner.profiles, on_change)
        self._identity: _NotifyingIdentity | None = None
        if isinstance(inner, IdentityTier):
            self._identity = _NotifyingIdentity(inner.identity, on_change)

    @property
    def tasks(self) -> TaskStore:
        """The inner store's tasks, reporting each put and delete (``UserTier``); an
        AttributeError when the inner store keeps none, so this is a UserTier exactly when
        the inner store is."""
        if self._tasks is None:
            raise AttributeError(f"{type(self.inner).__name__} keeps no task state")
        return self._tasks

    @property
    def switches(self) -> SwitchStore:
        """The inner store's memory switches, reporting each change (``UserTier``)."""
        if self._switches is None:
            raise AttributeError(f"{type(self.inner).__name__} keeps no memory switch")
        return self._switches

    @property
    def profiles(self) -> ProfileStore:
        """The inner store's profile overrides, reporting each set and restore
        (``UserTier``)."""
        if self._profiles is None:
            raise AttributeError(f"{type(self.inner).__name__} keeps no profile")
        return self._profiles

    @property
    def identity(self) -> IdentityStore:
        """The inner store's identity tier (``IdentityTier``), reporting each flag and
        confirmation of a session (they decide whether memories reach its context)."""
        if self._identity is None:
            raise AttributeError(f"{type(self.inner).__name__} keeps no aliases")
        return self._identity

    @property
    def audit(self) -> AuditStore:
        """The inner store's audit log (``AuditTier``), unwrapped: an audit row never
        changes a context block."""
        if not isinstance(self.inner, AuditTier):
            raise AttributeError(f"{type(self.inner).__name__} keeps no audit log")
        return self.inner.audit

    def _identity_tier(self) -> IdentityTier:
        if not isinstance(self.inner, IdentityTier):
            raise AttributeError(f"{type(self.inner).__name__} keeps no aliases")
        return self.inner

    def merge_users(self, tenant: str, source: str, target: str) -> dict[str, int]:
        counts = self._identity_tier().merge_users(tenant, source, target)
        self._on_change(tenant, source)
        self._on_change(tenant, target)
        return counts

    def indexed(self, tenant: str, user_id: str) -> builtins.list[Indexed]:
        return self._identity_tier().indexed(tenant, user_id)

    def import_user(self, scope: Scope, changes: ChangeSet, writes: Sequence[SqlWrite]) -> None:
        self._identity_tier().import_user(scope, changes, writes)
        self._on_change(scope.tenant, scope.user_id)

    def apply(self, scope: Scope, changes: ChangeSet) -> None:
        self.inner.apply(scope, changes)
        if changes:
            self._on_change(scope.tenant, scope.user_id)

    def delete_user(self, scope: Scope) -> dict[str, int]:
        removed = self.inner.delete_user(scope)
        self._on_change(scope.tenant, scope.user_id)
        return removed

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        return self.inner.get(tenant, memory_id)

    def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> builtins.list[MemoryItem]:
        return self.inner.get_many(scope, memory_ids)

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        return self.inner.list(scope, flt, topic=topic, limit=limit)

    def keyword_search(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        return self.inner.keyword_search(scope, terms, flt, limit)

    def vector_search(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        return self.inner.vector_search(scope, query, flt, limit)

    def seen_messages(self, scope: Scope, message_ids: Sequence[str]) -> set[str]:
        return self.inner.seen_messages(scope, message_ids)

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        return self.inner.history(tenant, memory_id)

    def touch(self, scope: Scope, counts: Mapping[str, int], at: datetime) -> None:
        self.inner.touch(scope, counts, at)

    def reinforce(
        self,
        scope: Scope,
        memory_ids: Sequence[str],
        at: datetime,
        *,
        step: float,
        cap: float,
        every: timedelta,
    ) -> builtins.list[str]:
        """Reinforcement changes importance (which pins context lines): notifies when it
        changed a row."""
        changed = self.inner.reinforce(scope, memory_ids, at, step=step, cap=cap, every=every)
        if changed:
            self._on_change(scope.tenant, scope.user_id)
        return changed

    def stale_vectors(self, scope: Scope, embedder: str, *, limit: int) -> builtins.list[str]:
        """The inner store's (``VectorLedger``); [] if it keeps no ledger."""
        if isinstance(self.inner, VectorLedger):
            return self.inner.stale_vectors(scope, embedder, limit=limit)
        return []

    def set_vectors(self, scope: Scope, vectors: Mapping[str, Vector], embedder: str) -> int:
        """Re-embedded rows rank differently: notifies when it changed any."""
        if not isinstance(self.inner, VectorLedger):
            return 0
        changed = self.inner.set_vectors(scope, vectors, embedder)
        if changed:
            self._on_change(scope.tenant, scope.user_id)
        return changed

    def users(
        self, tenant: str, *, after: str | None = None, limit: int = 100
    ) -> builtins.list[UserSummary]:
        """The inner store's users (``UserDirectory``); [] if it cannot list them."""
        if isinstance(self.inner, UserDirectory):
            return self.inner.users(tenant, after=after, limit=limit)
        return []

    def close(self) -> None:
        self.inner.close()


class _NotifyingTasks:
    """A TaskStore reporting every committed put and delete of a user."""

    def __init__(self, inner: TaskStore, on_change: OnChange) -> None:
        self.inner = inner
        self._on_change = on_change

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
        task = self.inner.put(
            tenant,
            user_id,
            key,
            state,
            status=status,
            expires_at=expires_at,
            expected_version=expected_version,
            now=now,
        )
        self._on_change(tenant, user_id)
        return task

    def get(self, tenant: str, user_id: str, key: str, now: datetime) -> TaskState | None:
        return self.inner.get(tenant, user_id, key, now)

    def list(
        self, tenant: str, user_id: str, now: datetime, *, active_only: bool
    ) -> builtins.list[TaskState]:
        return self.inner.list(tenant, user_id, now, active_only=active_only)

    def delete(self, tenant: str, user_id: str, key: str, now: datetime) -> bool:
        found = self.inner.delete(tenant, user_id, key, now)
        if found:
            self._on_change(tenant, user_id)
        return found


class _NotifyingSwitches:
    """A SwitchStore reporting every change of a user's switch."""

    def __init__(self, inner: SwitchStore, on_change: OnChange) -> None:
        self.inner = inner
        self._on_change = on_change

    def get(self, tenant: str, user_id: str) -> SwitchState:
        return self.inner.get(tenant, user_id)

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
        change = self.inner.set(tenant, user_id, memory, at=at, actor=actor, via=via)
        if change is not None:
            self._on_change(tenant, user_id)
        return change

    def changes(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[SwitchChange]:
        return self.inner.changes(tenant, user_id, limit=limit)


class _NotifyingProfiles:
    """A ProfileStore reporting every override set or restored."""

    def __init__(self, inner: ProfileStore, on_change: OnChange) -> None:
        self.inner = inner
        self._on_change = on_change

    def set(self, tenant: str, user_id: str, override: ProfileOverride) -> None:
        self.inner.set(tenant, user_id, override)
        self._on_change(tenant, user_id)

    def current(self, tenant: str, user_id: str) -> dict[str, ProfileOverride]:
        return self.inner.current(tenant, user_id)

    def history(
        self, tenant: str, user_id: str, *, limit: int | None = None
    ) -> builtins.list[ProfileOverride]:
        return self.inner.history(tenant, user_id, limit=limit)

    def dump(self, tenant: str, user_id: str) -> builtins.list[ProfileOverride]:
        return self.inner.dump(tenant, user_id)

    def restore(self, tenant: str, user_id: str, overrides: Sequence[ProfileOverride]) -> None:
        self.inner.restore(tenant, user_id, overrides)
        self._on_change(tenant, user_id)


class _NotifyingIdentity:
    """An IdentityStore reporting every flag and confirmation of a user's session."""

    def __init__(self, inner: IdentityStore, on_change: OnChange) -> None:
        self.inner = inner
        self._on_change = on_change

    def link(
        self, tenant: str, user_id: str, kind: AliasKind, digest: str, hint: str, at: datetime
    ) -> Alias:
        return self.inner.link(tenant, user_id, kind, digest, hint, at)

    def unlink(self, tenant: str, user_id: str, kind: AliasKind, digest: str) -> bool:
        return self.inner.unlink(tenant, user_id, kind, digest)

    def aliases(self, tenant: str, user_id: str) -> builtins.list[Alias]:
        return self.inner.aliases(tenant, user_id)

    def resolve(self, tenant: str, kind: AliasKind, digest: str) -> str | None:
        return self.inner.resolve(tenant, kind, digest)

    def record(self, tenant: str, event: IdentityEvent) -> None:
        self.inner.record(tenant, event)

    def events(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[IdentityEvent]:
        return self.inner.events(tenant, user_id, limit=limit)

    def flag(self, tenant: str, suspect: SuspectSession) -> None:
        self.inner.flag(tenant, suspect)
        self._on_change(tenant, suspect.user_id)

    def suspect(self, tenant: str, user_id: str, session_id: str) -> SuspectSession | None:
        return self.inner.suspect(tenant, user_id, session_id)

    def suspects(self, tenant: str, user_id: str) -> builtins.list[SuspectSession]:
        return self.inner.suspects(tenant, user_id)

    def confirm(
        self, tenant: str, user_id: str, session_id: str, *, at: datetime, actor: str
    ) -> SuspectSession | None:
        found = self.inner.confirm(tenant, user_id, session_id, at=at, actor=actor)
        self._on_change(tenant, user_id)
        return found
