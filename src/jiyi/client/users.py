"""``client.tasks`` and ``client.switch``: keyed task state and the memory switch over the
REST API, with the names and semantics of ``Memory.tasks`` (:class:`jiyi.tasks.Tasks`) and
``Memory.switch`` (:class:`jiyi.switch.MemorySwitches`), so code moves between the library
and the SDK unchanged. The one difference: a switch change is logged with the API key's id
(``key:<id>``), so ``set`` takes no ``actor``.

The sync and the async variants only send the Calls that ``_tier`` builds.
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

from jiyi.client import _tier
from jiyi.client._call import Call
from jiyi.core.users import SwitchChange, SwitchState, TaskState

__all__ = ["AsyncSwitchClient", "AsyncTaskClient", "SwitchClient", "TaskClient"]


class TaskClient:
    """The task state of the key's tenant (``Client.tasks``); see :class:`jiyi.tasks.Tasks`.

    Example:
        >>> t = client.tasks.put("u1", "reimbursement", {"form": "三月差旅报销单", "step": 2})
        >>> client.tasks.put("u1", "reimbursement", {"step": 3}, expected_version=t.version)
    """

    def __init__(self, send: Callable[[Call[Any]], Any]) -> None:
        self._send = send

    def put(
        self,
        user_id: str,
        key: str,
        state: Mapping[str, Any],
        *,
        expires_at: datetime | str | None = None,
        expected_version: int | None = None,
        status: str = "active",
    ) -> TaskState:
        """Create or replace a task's state (see :meth:`jiyi.tasks.Tasks.put`).

        Raises:
            InvalidInputError: naming the bad field (422); nothing is written.
            VersionConflictError: ``expected_version`` is stale (409 ``version_conflict``,
                ``current`` the stored version); nothing is written.
        """
        call = _tier.put_task(
            user_id,
            key,
            state,
            expires_at=expires_at,
            expected_version=expected_version,
            status=status,
        )
        found: TaskState = self._send(call)
        return found

    def get(self, user_id: str, key: str) -> TaskState | None:
        """The task, or None when there is none (never stored, deleted or expired)."""
        found: TaskState | None = self._send(_tier.get_task(user_id, key))
        return found

    def list(self, user_id: str, *, active_only: bool = False) -> builtins.list[TaskState]:
        """The user's tasks, most recently updated first; ``active_only`` leaves out the
        ``done`` ones."""
        found: builtins.list[TaskState] = self._send(
            _tier.list_tasks(user_id, active_only=active_only)
        )
        return found

    def delete(self, user_id: str, key: str) -> bool:
        """Delete the task; True if it existed."""
        return self._send(_tier.delete_task(user_id, key)) is True


class SwitchClient:
    """The memory switches of the key's tenant (``Client.switch``); see
    :class:`jiyi.switch.MemorySwitches`."""

    def __init__(self, send: Callable[[Call[Any]], Any]) -> None:
        self._send = send

    def get(self, user_id: str) -> SwitchState:
        """The user's switch (``on`` for a user never switched)."""
        found: SwitchState = self._send(_tier.get_switch(user_id))
        return found

    def set(self, user_id: str, memory: str) -> SwitchState:
        """Turn the user's memory ``on``, ``paused`` or ``off``; the change is logged with the
        key's id. InvalidInputError (field ``memory``) for another position."""
        found: SwitchState = self._send(_tier.set_switch(user_id, memory))
        return found

    def history(self, user_id: str, *, limit: int = 100) -> builtins.list[SwitchChange]:
        """The user's switch changes, newest first."""
        found: builtins.list[SwitchChange] = self._send(_tier.switch_history(user_id, limit=limit))
        return found


class AsyncTaskClient:
    """:class:`TaskClient`, awaited (``AsyncClient.tasks``)."""

    def __init__(self, send: Callable[[Call[Any]], Awaitable[Any]]) -> None:
        self._send = send

    async def put(
        self,
        user_id: str,
        key: str,
        state: Mapping[str, Any],
        *,
        expires_at: datetime | str | None = None,
        expected_version: int | None = None,
        status: str = "active",
    ) -> TaskState:
        """As :meth:`TaskClient.put`."""
        call = _tier.put_task(
            user_id,
            key,
            state,
            expires_at=expires_at,
            expected_version=expected_version,
            status=status,
        )
        found: TaskState = await self._send(call)
        return found

    async def get(self, user_id: str, key: str) -> TaskState | None:
        found: TaskState | None = await self._send(_tier.get_task(user_id, key))
        return found

    async def list(self, user_id: str, *, active_only: bool = False) -> builtins.list[TaskState]:
        found: builtins.list[TaskState] = await self._send(
            _tier.list_tasks(user_id, active_only=active_only)
        )
        return found

    async def delete(self, user_id: str, key: str) -> bool:
        return await self._send(_tier.delete_task(user_id, key)) is True


class AsyncSwitchClient:
    """:class:`SwitchClient`, awaited (``AsyncClient.switch``)."""

    def __init__(self, send: Callable[[Call[Any]], Awaitable[Any]]) -> None:
        self._send = send

    async def get(self, user_id: str) -> SwitchState:
        found: SwitchState = await self._send(_tier.get_switch(user_id))
        return found

    async def set(self, user_id: str, memory: str) -> SwitchState:
        found: SwitchState = await self._send(_tier.set_switch(user_id, memory))
        return found

    async def history(self, user_id: str, *, limit: int = 100) -> builtins.list[SwitchChange]:
        found: builtins.list[SwitchChange] = await self._send(
            _tier.switch_history(user_id, limit=limit)
        )
        return found
