"""Who the user is: the value objects of the user tier (issue 13) — so far keyed task
state.

Pure pydantic, no I/O; shared by the library, the server and the SDK like
:mod:`jiyi.core.models`. What a task key or state may be, and which tasks a query is about,
is in :mod:`jiyi.core.tasks`.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

__all__ = ["TaskState", "TaskStatus"]


class TaskStatus(StrEnum):
    """``active`` work can be resumed (and joins the context block); ``done`` is kept, but
    only :meth:`TaskStore.list` without ``active_only`` still shows it."""

    ACTIVE = "active"
    DONE = "done"


class TaskState(BaseModel):
    """Keyed working state an agent keeps for a user ("the reimbursement form, step 3")."""

    user_id: str
    key: str
    state: dict[str, Any] = Field(default_factory=dict)
    status: TaskStatus = TaskStatus.ACTIVE
    version: int = Field(1, ge=1)  # 1 when created, +1 on every put
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None  # at or after this the task no longer exists
