"""The engine's user-tier operations (issue 13): the memory switch and keyed task state,
on the store's :class:`~jiyi.core.ports.UserTier`. A mixin of :class:`jiyi.engine.Engine`
(kept apart so the engine stays readable); it needs the engine's store, clock and
embedding-cache eviction.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from jiyi.core.models import Message, Scope, Skipped
from jiyi.core.ports import Clock, MemoryStore, TaskStore, UserTier
from jiyi.core.switch import gate
from jiyi.core.tasks import task_text
from jiyi.core.users import MemorySwitch, SwitchChange, SwitchState, TaskState, TaskStatus
from jiyi.errors import ConflictError, StorageUnavailableError
from jiyi.pipeline.tasks import task_store

__all__ = ["UserTierOps"]


class UserTierOps:
    """Switch and task operations; ``Engine`` supplies ``store``, ``clock`` and ``evict``."""

    store: MemoryStore
    clock: Clock

    def evict(self, texts: Sequence[str]) -> None:  # pragma: no cover - Engine's wins
        raise NotImplementedError

    # -- the memory switch (the store's UserTier) ---------------------------------------------

    def switch_of(self, tenant: str, user_id: str) -> MemorySwitch:
        """The user's switch; always on for a store without a user tier."""
        if isinstance(self.store, UserTier):
            return self.store.switches.get(tenant, user_id).memory
        return MemorySwitch.ON

    def gate(
        self, scope: Scope, messages: builtins.list[Message], now: datetime
    ) -> tuple[builtins.list[Message], builtins.list[Skipped]]:
        """The messages that may be stored, and the rest as skipped: a switch phrase of the
        user moves the switch (logged as said by the user) and is never stored; a message
        said while the switch is off or paused is dropped (``core/switch.py``)."""
        if not isinstance(self.store, UserTier):
            return messages, []
        switches = self.store.switches
        gated = gate(messages, switches.get(scope.tenant, scope.user_id).memory)
        for position in gated.changes:
            switches.set(scope.tenant, scope.user_id, position, at=now, actor="user", via="said")
        return gated.kept, [Skipped(text=m.content, reason=r) for m, r in gated.dropped]

    def set_switch(
        self, tenant: str, user_id: str, memory: MemorySwitch, *, actor: str
    ) -> SwitchState:
        if not isinstance(self.store, UserTier):
            raise StorageUnavailableError(f"{type(self.store).__name__} keeps no memory switch")
        self.store.switches.set(tenant, user_id, memory, at=self.clock(), actor=actor, via="api")
        return self.store.switches.get(tenant, user_id)

    def switch_state(self, tenant: str, user_id: str) -> SwitchState:
        if not isinstance(self.store, UserTier):
            return SwitchState(user_id=user_id)
        return self.store.switches.get(tenant, user_id)

    def switch_changes(
        self, tenant: str, user_id: str, *, limit: int
    ) -> builtins.list[SwitchChange]:
        if not isinstance(self.store, UserTier):
            return []
        return self.store.switches.changes(tenant, user_id, limit=limit)

    # -- task state (the store's UserTier) ---------------------------------------------------

    @property
    def tasks(self) -> TaskStore:
        """The store's task table (StorageUnavailableError for a store without one)."""
        return task_store(self.store)

    def _user_tasks(self, tenant: str, user_id: str) -> builtins.list[TaskState]:
        if not isinstance(self.store, UserTier):
            return []
        return self.store.tasks.list(tenant, user_id, self.clock(), active_only=False)

    def put_task(
        self,
        tenant: str,
        user_id: str,
        key: str,
        state: dict[str, Any],
        *,
        status: TaskStatus,
        expires_at: datetime | None,
        expected_version: int | None,
    ) -> TaskState:
        position = self.switch_of(tenant, user_id)
        if position != MemorySwitch.ON:
            raise ConflictError(
                f"memory is {position.value} for this user: nothing new is stored "
                "(turn it back on first)",
                field="memory",
            )
        now = self.clock()
        old = self.tasks.get(tenant, user_id, key, now)
        new = self.tasks.put(
            tenant,
            user_id,
            key,
            state,
            status=status,
            expires_at=expires_at,
            expected_version=expected_version,
            now=now,
        )
        if old is not None and task_text(old) != task_text(new):
            self.evict([task_text(old)])  # its words may have been embedded for a context
        return new

    def get_task(self, tenant: str, user_id: str, key: str) -> TaskState | None:
        if self.switch_of(tenant, user_id) == MemorySwitch.OFF:
            return None
        return self.tasks.get(tenant, user_id, key, self.clock())

    def list_tasks(
        self, tenant: str, user_id: str, *, active_only: bool
    ) -> builtins.list[TaskState]:
        if self.switch_of(tenant, user_id) == MemorySwitch.OFF:
            return []
        return self.tasks.list(tenant, user_id, self.clock(), active_only=active_only)

    def delete_task(self, tenant: str, user_id: str, key: str) -> bool:
        now = self.clock()
        old = self.tasks.get(tenant, user_id, key, now)
        found = self.tasks.delete(tenant, user_id, key, now)
        if old is not None:
            self.evict([task_text(old)])
        return found
