"""Who the user is: the value objects of the user tier (issue 13) — keyed task state and
the per-user memory switch with its audited changes.

Pure pydantic, no I/O; shared by the library, the server and the SDK like
:mod:`jiyi.core.models`. What a task key or state may be, and which tasks a query is about,
is in :mod:`jiyi.core.tasks`.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["MemorySwitch", "SwitchChange", "SwitchState", "SwitchVia", "TaskState", "TaskStatus"]


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


class MemorySwitch(StrEnum):
    """Whether jiyi remembers a user: ``on``; ``paused`` stores nothing new but still serves
    what is stored; ``off`` stores nothing new and serves nothing (what is stored is kept,
    hidden, until the switch goes back on or the user is deleted)."""

    ON = "on"
    PAUSED = "paused"
    OFF = "off"


#: How a switch was changed: through the API (library call or REST) or by a recognised
#: phrase in the user's own message ("以后别记我的任何东西").
SwitchVia = Literal["api", "said"]


class SwitchState(BaseModel):
    """A user's memory switch; a user never switched is ``on`` with no ``changed_at``."""

    user_id: str
    memory: MemorySwitch = MemorySwitch.ON
    changed_at: datetime | None = None
    changed_by: str | None = None  # the actor of the last change ("key:3fa…", "library")


class SwitchChange(BaseModel):
    """One audited change of the switch: who, when, from what to what — never content."""

    user_id: str
    at: datetime
    before: MemorySwitch
    after: MemorySwitch
    actor: str  # "key:<key id>" over REST, "library" in-process, "user" for a phrase
    via: SwitchVia
