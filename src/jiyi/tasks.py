"""``Memory.tasks``: keyed task state of a user — what an agent needs to resume work
("继续上次的报销单"), with optimistic concurrency.

Validation over the engine's :class:`~jiyi.core.ports.TaskStore`, like :class:`jiyi.Memory`
over the engine: every bad input raises InvalidInputError naming its field, and nothing is
written. A task belongs to the user, whichever agent wrote it.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from jiyi.core.inputs import as_utc, require_id
from jiyi.core.tasks import check_task_key, check_task_state
from jiyi.core.users import TaskState, TaskStatus
from jiyi.errors import InvalidInputError

if TYPE_CHECKING:
    from jiyi.engine import Engine

__all__ = ["Tasks"]


class Tasks:
    """The task state of one tenant's users (``mem.tasks``).

    Example:
        >>> t = mem.tasks.put("u1", "reimbursement", {"form": "三月差旅报销单", "step": 2})
        >>> mem.tasks.put("u1", "reimbursement", {"step": 3}, expected_version=t.version)
        >>> mem.context("继续上次的报销单", user_id="u1").tasks  # → [the reimbursement task]
    """

    def __init__(self, engine: Engine, tenant: str) -> None:
        self._engine = engine
        self._tenant = tenant

    def _user(self, user_id: object) -> str:
        # An alias reference names its user (IdentityOps.resolve_user).
        return self._engine.resolve_user(self._tenant, require_id(user_id, "user_id"))

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
        """Create or replace a task's state.

        Args:
            user_id: whose task. key: its name (1-200 characters, no "/").
            state: a JSON object of at most 64 KiB (no NaN, no NUL characters).
            expires_at: when the task stops existing (must lie in the future); None: never.
            expected_version: the version you read (optimistic concurrency); 0: create only;
                None: replace whatever is stored.
            status: ``active`` (default) or ``done`` (kept, but left out of context blocks
                and of ``list(active_only=True)``).

        Returns:
            The task as stored: ``version`` 1 when created, one more on every put.

        Raises:
            InvalidInputError: naming the bad field; nothing is written.
            VersionConflictError: ``expected_version`` is stale (``field``
                "expected_version", ``current`` the stored version); nothing is written.
        """
        uid, k = self._user(user_id), check_task_key(key)
        check_task_state(state)
        try:
            st = TaskStatus(status)
        except ValueError as exc:
            raise InvalidInputError("status must be 'active' or 'done'", field="status") from exc
        if expected_version is not None and (
            not isinstance(expected_version, int)
            or isinstance(expected_version, bool)
            or not 0 <= expected_version < 2**31
        ):
            raise InvalidInputError(
                "expected_version must be an integer ≥ 0 (0: create only)",
                field="expected_version",
            )
        now = self._engine.clock()
        until = as_utc(expires_at, "expires_at")
        if until is not None and until <= now:
            raise InvalidInputError("expires_at must lie in the future", field="expires_at")
        return self._engine.put_task(
            self._tenant,
            uid,
            k,
            dict(state),
            status=st,
            expires_at=until,
            expected_version=expected_version,
        )

    def get(self, user_id: str, key: str) -> TaskState | None:
        """The task, or None when there is none (never stored, deleted or expired)."""
        return self._engine.get_task(self._tenant, self._user(user_id), check_task_key(key))

    def list(self, user_id: str, *, active_only: bool = False) -> builtins.list[TaskState]:
        """The user's tasks, most recently updated first; ``active_only`` leaves out the
        ``done`` ones. Expired tasks are never listed."""
        if not isinstance(active_only, bool):
            raise InvalidInputError("active_only must be true or false", field="active_only")
        return self._engine.list_tasks(self._tenant, self._user(user_id), active_only=active_only)

    def delete(self, user_id: str, key: str) -> bool:
        """Delete the task; True if it existed (an expired one did not)."""
        return self._engine.delete_task(self._tenant, self._user(user_id), check_task_key(key))
