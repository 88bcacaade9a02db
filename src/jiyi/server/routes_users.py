"""``/v1/users/{user_id}/…``: what belongs to a user rather than to one memory — keyed task
state (``/tasks``) and the memory switch (``/memory-switch``, its changes logged with the
key id that made them).

The tenant comes from the key. Tasks belong to the user, not to an agent, so an agent-bound
key of the tenant may use them too. A user id may contain "/" (sent as %2F): the routes
take it as a path and the fixed suffix after it ("/tasks/…") ends it. The key is taken as
a path too, so a key with "/" is refused naming ``key`` rather than routed elsewhere. This
router is mounted before ``DELETE /v1/users/{user_id}``, whose path parameter would
swallow the suffix. No handler invalidates the context cache: the store reports every task write
(``jiyi.cache.NotifyingStore``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import AfterValidator

from jiyi.core.inputs import MAX_ID_CHARS
from jiyi.core.tasks import MAX_TASK_KEY_CHARS
from jiyi.core.users import SwitchState, TaskState
from jiyi.errors import NotFoundError
from jiyi.keys import Principal
from jiyi.server.auth import authenticate
from jiyi.server.errors import error_responses
from jiyi.server.services import Services
from jiyi.wire import SwitchHistory, SwitchPut, TaskList, TaskPut
from jiyi.wire_fields import ID_SCHEMA, TASK_KEY_PATTERN, valid_id

router = APIRouter(prefix="/v1", tags=["users"], responses=error_responses(401, 422, 503))
Auth = Annotated[Principal, Depends(authenticate)]
UserId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=MAX_ID_CHARS,
        json_schema_extra=ID_SCHEMA,
        description='a user id containing "/" is sent as %2F',
    ),
    AfterValidator(valid_id),
]
TaskKey = Annotated[
    str,
    Path(
        min_length=1,
        max_length=MAX_TASK_KEY_CHARS,
        json_schema_extra={"pattern": TASK_KEY_PATTERN},
        description='1-200 characters, no "/"',
    ),
    AfterValidator(valid_id),
    AfterValidator(lambda key: _no_slash(key)),
]


def _no_slash(key: str) -> str:
    # The route takes the key as a path, so a "/" in it (sent as %2F or not) reaches this
    # check and is refused naming the key, instead of falling through to another route.
    if "/" in key:
        raise ValueError("must not contain '/'")
    return key


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


@router.put(
    "/users/{user_id:path}/tasks/{key:path}",
    response_model=TaskState,
    tags=["tasks"],
    responses=error_responses(404, 409, 413),
)
async def put_task(
    user_id: UserId, key: TaskKey, body: TaskPut, request: Request, who: Auth
) -> TaskState:
    """Create or replace a task's state. Send the ``expected_version`` you read to make the
    write conditional: a stale one is refused (409, code ``version_conflict``, field
    ``expected_version``) and nothing is written."""
    s = _services(request)
    return await s.run(
        s.memory_of(who).tasks.put,
        user_id,
        key,
        body.state,
        expires_at=body.expires_at,
        expected_version=body.expected_version,
        status=body.status.value,
    )


@router.get(
    "/users/{user_id:path}/tasks/{key:path}",
    response_model=TaskState,
    tags=["tasks"],
    responses=error_responses(404),
)
async def get_task(user_id: UserId, key: TaskKey, request: Request, who: Auth) -> TaskState:
    """The task; 404 when there is none (never stored, deleted or expired)."""
    s = _services(request)
    found = await s.run(s.memory_of(who).tasks.get, user_id, key)
    if found is None:
        raise NotFoundError(f"no task {key!r} for this user", field="key")
    return found


@router.get(
    "/users/{user_id:path}/tasks",
    response_model=TaskList,
    tags=["tasks"],
    responses=error_responses(404),
)
async def list_tasks(
    user_id: UserId, request: Request, who: Auth, active_only: bool = False
) -> TaskList:
    """The user's tasks, most recently updated first; ``active_only`` leaves out the done
    ones. Expired tasks are never listed."""
    s = _services(request)
    found = await s.run(s.memory_of(who).tasks.list, user_id, active_only=active_only)
    return TaskList(tasks=found)


@router.delete(
    "/users/{user_id:path}/tasks/{key:path}",
    status_code=204,
    response_class=Response,
    tags=["tasks"],
    responses=error_responses(404),
)
async def delete_task(user_id: UserId, key: TaskKey, request: Request, who: Auth) -> Response:
    """Delete the task (no bytes of its state stay behind); 404 when there was none."""
    s = _services(request)
    if not await s.run(s.memory_of(who).tasks.delete, user_id, key):
        raise NotFoundError(f"no task {key!r} for this user", field="key")
    return Response(status_code=204)


@router.get(
    "/users/{user_id:path}/memory-switch",
    response_model=SwitchState,
    tags=["switch"],
    responses=error_responses(404),
)
async def get_switch(user_id: UserId, request: Request, who: Auth) -> SwitchState:
    """The user's memory switch: ``on`` (never switched), ``paused`` or ``off``."""
    s = _services(request)
    return await s.run(s.memory_of(who).switch.get, user_id)


@router.put(
    "/users/{user_id:path}/memory-switch",
    response_model=SwitchState,
    tags=["switch"],
    responses=error_responses(404),
)
async def put_switch(user_id: UserId, body: SwitchPut, request: Request, who: Auth) -> SwitchState:
    """Turn the user's memory on, paused or off. Every change is logged with the key id and
    the time (never content); setting the current position changes nothing."""
    s = _services(request)
    return await s.run(
        s.memory_of(who).switch.set, user_id, body.memory.value, actor=f"key:{who.key_id}"
    )


@router.get(
    "/users/{user_id:path}/memory-switch/history",
    response_model=SwitchHistory,
    tags=["switch"],
    responses=error_responses(404),
)
async def switch_history(
    user_id: UserId,
    request: Request,
    who: Auth,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> SwitchHistory:
    """The switch's changes, newest first: when, before, after, actor (``key:<id>``,
    ``library`` or ``user`` for a phrase the user said) and via (``api`` / ``said``)."""
    s = _services(request)
    found = await s.run(s.memory_of(who).switch.history, user_id, limit=limit)
    return SwitchHistory(changes=found)
