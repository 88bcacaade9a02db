"""The profile methods of :class:`jiyi.Memory`: ``profile``, ``set_profile`` and
``profile_history`` — validation over the engine's :class:`~jiyi.profile_tier.ProfileOps`.

Private: ``Memory`` inherits them (``from jiyi import Memory``).
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping

from jiyi._memory_base import MemoryBase
from jiyi.core.inputs import check_text, require_id, zone
from jiyi.core.profile import SETTABLE_FIELDS, ProfileOverride, UserProfile
from jiyi.errors import InvalidInputError

__all__ = ["MAX_PROFILE_VALUE_CHARS", "MemoryProfile", "check_profile_value"]

MAX_PROFILE_VALUE_CHARS = 200


def check_profile_value(field: object, value: object, *, name: str | None = None) -> str | None:
    """A field name and value an override may hold; errors name ``name`` (default: the
    field itself — over REST, the key of the PATCH body)."""
    where = name or (field if isinstance(field, str) and field in SETTABLE_FIELDS else "field")
    if not isinstance(field, str) or field not in SETTABLE_FIELDS:
        raise InvalidInputError(
            f"{field!r} is not a profile field one can set; use one of "
            + ", ".join(sorted(SETTABLE_FIELDS)),
            field=where,
        )
    if value is None:
        return None
    text = check_text(value, where, max_chars=MAX_PROFILE_VALUE_CHARS).strip()
    if not text:
        raise InvalidInputError(f"{where} must not be blank (null clears it)", field=where)
    if field == "timezone":
        zone(text, where)
    return text


class MemoryProfile(MemoryBase):
    """The user's structured profile."""

    def profile(self, user_id: str) -> UserProfile:
        """Who the user is: name, language, timezone, city, occupation, family and pets,
        diet, allergies and health, preferences by category, goals (with status) and recent
        state — each value with its confidence, source memory ids and last update
        (``jiyi.core.profile`` says how). Fields set through :meth:`set_profile` win.
        Empty while the user's memory switch is off."""
        uid = self._user(user_id)
        found = self.engine.profile_of(self.config.tenant, uid)
        self._audited("profile", uid, profile_items(found))
        return found

    def set_profile(
        self, user_id: str, field: str, value: str | None, *, actor: str = "library"
    ) -> UserProfile:
        """Set a profile field, or clear it with None: the value wins over what memories
        say (confidence 1.0) and is kept in the field's history; PII in it is redacted as
        in everything stored. ``delete_user`` removes it with its history.

        Args:
            field: one of name, language, timezone (an IANA name), city, hometown,
                occupation, employer, school, family, pets, diet, allergies, health (a list
                field's value replaces its whole list).
            value: at most 200 characters; None clears the field.

        Returns:
            The profile after the change.

        Raises:
            InvalidInputError: an unknown field (``field`` "field") or a bad value (``field``
                the field's name); nothing is written.
            ConflictError: setting a value while the user's memory is off or paused.
        """
        return self.update_profile(user_id, {field: value}, actor=actor)

    def update_profile(
        self, user_id: str, changes: Mapping[str, str | None], *, actor: str = "library"
    ) -> UserProfile:
        """Set or clear several fields at once (what ``PATCH /v1/users/{id}/profile``
        does): every field and value is checked before anything is written, then each is
        set as :meth:`set_profile` sets one. An empty mapping changes nothing."""
        uid, who = self._user(user_id), require_id(actor, "actor")
        if not isinstance(changes, Mapping):
            raise InvalidInputError("changes must map field names to values", field="changes")
        checked = {str(f): check_profile_value(f, v) for f, v in changes.items()}
        tenant = self.config.tenant
        if checked:
            self.engine.set_profile_fields(tenant, uid, checked, actor=who)
        return self.engine.profile_of(tenant, uid)

    def profile_history(self, user_id: str, *, limit: int = 100) -> builtins.list[ProfileOverride]:
        """The fields set or cleared through the API, newest first (who, when, what)."""
        uid = self._user(user_id)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        return self.engine.profile_changes(self.config.tenant, uid, limit=limit)


def profile_items(profile: UserProfile) -> int:
    """How many values a profile returned (the audit log's count): one per single field
    set, one per list entry and preference."""
    n = 0
    for name in type(profile).model_fields:
        value = getattr(profile, name)
        if name in ("user_id", "updated_at"):
            continue
        if isinstance(value, dict):
            n += sum(len(v) for v in value.values())
        elif isinstance(value, list):
            n += len(value)
        else:
            n += value is not None
    return n
