"""The user-tier endpoints (keyed task state, the memory switch) as
:class:`~jiyi.client._call.Call` builders, like ``_ops``; ``client.users`` exposes them as
``client.tasks`` and ``client.switch`` with the methods of ``Memory.tasks`` and
``Memory.switch``.

A user named by alias goes the way ``_identity`` sends it (``~`` plus the alias header).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import httpx

from jiyi.client._call import Call, body, parse_as, segment
from jiyi.client._identity import user_path
from jiyi.core.users import SwitchChange, SwitchState, TaskState
from jiyi.wire import SwitchHistory, TaskList

__all__ = [
    "delete_task",
    "get_switch",
    "get_task",
    "list_tasks",
    "put_task",
    "set_switch",
    "switch_history",
]


def put_task(
    user_id: str,
    key: str,
    state: Mapping[str, Any],
    *,
    expires_at: datetime | str | None,
    expected_version: int | None,
    status: str,
) -> Call[TaskState]:
    path, hdrs = user_path(user_id)
    return Call(
        "PUT",
        f"{path}/tasks/{segment(key)}",
        parse_as(TaskState),
        json=body(
            state=dict(state),
            expires_at=expires_at,
            expected_version=expected_version,  # 0 is sent: create only
            status=status,
        ),
        headers=hdrs,
        # Only a conditional put is safe to repeat: a second one with the same version is
        # refused (409) instead of bumping the version again.
        idempotent=expected_version is not None,
    )


def get_task(user_id: str, key: str) -> Call[TaskState | None]:
    path, hdrs = user_path(user_id)
    return Call(
        "GET",
        f"{path}/tasks/{segment(key)}",
        parse_as(TaskState),
        headers=hdrs,
        none_on_404=True,
        idempotent=True,
    )


def list_tasks(user_id: str, *, active_only: bool) -> Call[list[TaskState]]:
    path, hdrs = user_path(user_id)
    parse = parse_as(TaskList)
    return Call(
        "GET",
        f"{path}/tasks",
        lambda r: parse(r).tasks,
        params={"active_only": "true"} if active_only else {},
        headers=hdrs,
        idempotent=True,
    )


def delete_task(user_id: str, key: str) -> Call[bool | None]:
    path, hdrs = user_path(user_id)

    def found(resp: httpx.Response) -> bool | None:
        return resp.status_code == 204  # a 404 answers None (none_on_404): no such task

    call: Call[bool | None] = Call(
        "DELETE",
        f"{path}/tasks/{segment(key)}",
        found,
        headers=hdrs,
        none_on_404=True,
        idempotent=True,
    )
    return call


def get_switch(user_id: str) -> Call[SwitchState]:
    path, hdrs = user_path(user_id)
    return Call(
        "GET", f"{path}/memory-switch", parse_as(SwitchState), headers=hdrs, idempotent=True
    )


def set_switch(user_id: str, memory: str) -> Call[SwitchState]:
    path, hdrs = user_path(user_id)
    return Call(
        "PUT",
        f"{path}/memory-switch",
        parse_as(SwitchState),
        json=body(memory=memory),
        headers=hdrs,
        idempotent=True,  # setting the current position changes and logs nothing
    )


def switch_history(user_id: str, *, limit: int) -> Call[list[SwitchChange]]:
    path, hdrs = user_path(user_id)
    parse = parse_as(SwitchHistory)
    return Call(
        "GET",
        f"{path}/memory-switch/history",
        lambda r: parse(r).changes,
        params={"limit": limit},
        headers=hdrs,
        idempotent=True,
    )
