"""``/v1/users/{user_id}/profile``: who the user is — the profile derived from the user's
memories (``GET``), the fields a user or operator sets or clears (``PATCH``, logged with the
key id that made them) and their history (``GET …/profile/history``).

The tenant comes from the key; another tenant's user with the same id is another user.
Like the task routes (``routes_users.py``) the user id is a path ("/" sent as %2F) ended
by the fixed suffix, and this router is mounted before ``DELETE /v1/users/{user_id}``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from jiyi.core.profile import UserProfile
from jiyi.server.errors import error_responses
from jiyi.server.routes_users import Auth, UserId, _services
from jiyi.wire import ProfileHistory, ProfilePatch

router = APIRouter(prefix="/v1", tags=["profile"], responses=error_responses(401, 404, 422, 503))


@router.get("/users/{user_id:path}/profile", response_model=UserProfile)
async def get_profile(user_id: UserId, request: Request, who: Auth) -> UserProfile:
    """The user's profile: name, language, timezone, city, occupation, family and pets,
    diet, allergies and health, preferences by category, goals (with status) and recent
    state — each value with its confidence, source memory ids and last update. Empty for a
    user with no memories, and while the user's memory switch is off."""
    s = _services(request)
    return await s.run(s.memory_of(who).profile, user_id)


@router.patch(
    "/users/{user_id:path}/profile",
    response_model=UserProfile,
    responses=error_responses(409),
)
async def patch_profile(
    user_id: UserId, body: ProfilePatch, request: Request, who: Auth
) -> UserProfile:
    """Set fields (a string) or clear them (null): such a value wins over what memories say
    (confidence 1.0) and is kept in the field's history; PII in it is redacted like
    everything stored. Every field is checked before anything is written (422 naming the
    field); setting a value while the user's memory is off or paused is refused (409)."""
    s = _services(request)
    return await s.run(
        s.memory_of(who).update_profile, user_id, body.changes(), actor=f"key:{who.key_id}"
    )


@router.get("/users/{user_id:path}/profile/history", response_model=ProfileHistory)
async def profile_history(
    user_id: UserId,
    request: Request,
    who: Auth,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> ProfileHistory:
    """The fields set or cleared through the API, newest first: field, value, when and by
    which key."""
    s = _services(request)
    found = await s.run(s.memory_of(who).profile_history, user_id, limit=limit)
    return ProfileHistory(changes=found)
