"""Validate raw caller input into domain objects, with errors that name the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jiyi.core.models import Message
from jiyi.errors import InvalidInputError, PayloadTooLargeError

MAX_ID_CHARS = 256
ROLES = ("user", "assistant", "system")
_ALLOWED_KEYS = {"role", "content", "name", "id", "timestamp"}


def check_id(value: object, field: str, *, required: bool = True) -> str | None:
    """A non-empty string of at most 256 characters, or None when not required."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{field} must be a non-empty string", field=field)
    if len(value) > MAX_ID_CHARS:
        raise InvalidInputError(f"{field} is longer than {MAX_ID_CHARS} characters", field=field)
    return value


def as_utc(value: object, field: str) -> datetime | None:
    """Accept a datetime or an ISO-8601 string; naive times are taken as UTC."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError as exc:
            raise InvalidInputError(
                f"{field} must be an ISO-8601 timestamp such as 2026-11-29T14:00:00+08:00",
                field=field,
            ) from exc
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{field} must be a datetime or ISO-8601 string", field=field)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def zone(name: object, field: str) -> ZoneInfo:
    """An IANA timezone ("Asia/Shanghai", "UTC"), or InvalidInputError naming ``field``."""
    if not isinstance(name, str) or not name.strip() or len(name) > 64:
        raise InvalidInputError(
            f"{field} must be an IANA timezone name such as Asia/Shanghai", field=field
        )
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidInputError(
            f"{field} {name!r} is not a known IANA timezone (e.g. Asia/Shanghai, UTC)", field=field
        ) from exc


def parse_messages(messages: object, *, default_time: datetime, max_chars: int) -> list[Message]:
    """Turn ``str | list[dict]`` into Messages; every message gets a timestamp.

    Raises:
        InvalidInputError: naming e.g. ``messages[2].role`` and what is allowed.
        PayloadTooLargeError: a message longer than ``max_chars`` characters.
    """
    if isinstance(messages, str):
        raw: Sequence[Any] = [{"role": "user", "content": messages}]
    elif isinstance(messages, Mapping):
        raw = [messages]
    elif isinstance(messages, Sequence) and not isinstance(messages, bytes | bytearray):
        raw = messages
    else:
        raise InvalidInputError(
            "messages must be a string or a list of {role, content} objects", field="messages"
        )
    if not raw:
        raise InvalidInputError("messages is empty; pass at least one message", field="messages")
    out: list[Message] = []
    for i, item in enumerate(raw):
        f = f"messages[{i}]"
        if isinstance(item, Message):
            item = item.model_dump()
        if not isinstance(item, Mapping):
            raise InvalidInputError(f"{f} must be an object with role and content", field=f)
        unknown = set(item) - _ALLOWED_KEYS
        if unknown:
            raise InvalidInputError(
                f"{f} has unknown key(s) {sorted(unknown)}; allowed: {sorted(_ALLOWED_KEYS)}",
                field=f"{f}.{sorted(unknown)[0]}",
            )
        role = item.get("role", "user")
        if role not in ROLES:
            raise InvalidInputError(
                f"{f}.role is {role!r}; use one of 'user', 'assistant', 'system'", field=f"{f}.role"
            )
        content = item.get("content")
        if not isinstance(content, str):
            raise InvalidInputError(f"{f}.content must be a string", field=f"{f}.content")
        if len(content) > max_chars:
            raise PayloadTooLargeError(
                f"{f}.content has {len(content)} characters; the limit is {max_chars} "
                "(split long documents before adding them)",
                field=f"{f}.content",
            )
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            raise InvalidInputError(f"{f}.name must be a string", field=f"{f}.name")
        mid = check_id(item.get("id"), f"{f}.id", required=False)
        when = as_utc(item.get("timestamp"), f"{f}.timestamp") or default_time
        out.append(Message(role=role, content=content, name=name, id=mid, timestamp=when))
    return out
