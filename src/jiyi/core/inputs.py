"""Validate raw caller input into domain objects, with errors that name the field.

What every text and time that reaches a store must satisfy (the REST schemas apply the same
rules through :func:`text_problem`, :func:`id_problem` and :func:`time_problem`):

- text is valid Unicode that UTF-8 can encode: no lone surrogates (a JSON ``"\\ud800"``
  decodes to one), and no NUL, which PostgreSQL cannot store in ``text``;
- ids are 1–256 characters with at least one non-blank, and no control characters;
- times lie in [1900-01-01, 9999-01-01) UTC: anything outside cannot be stored, compared or
  shifted by a TTL without overflowing (year 9999 + 7 days), and is never a real chat time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jiyi.core.models import Message
from jiyi.errors import InvalidInputError, PayloadTooLargeError

MAX_ID_CHARS = 256
MAX_NAME_CHARS = 256
ROLES = ("user", "assistant", "system")
MIN_TIME = datetime(1900, 1, 1, tzinfo=UTC)
MAX_TIME = datetime(9999, 1, 1, tzinfo=UTC)  # exclusive: leaves room for TTLs and windows
_ALLOWED_KEYS = {"role", "content", "name", "id", "timestamp"}
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or None if it can."""
    if "\x00" in value:
        return "must not contain NUL (\\u0000) characters"
    if _SURROGATE.search(value):
        return "must be valid Unicode (it contains a lone surrogate such as \\ud800)"
    return None


def id_problem(value: str) -> str | None:
    """Why ``value`` is not a usable id, or None."""
    if not value.strip():
        return "must be a non-empty string"
    if len(value) > MAX_ID_CHARS:
        return f"is longer than {MAX_ID_CHARS} characters"
    why = text_problem(value)
    if why is None and _CONTROL.search(value):
        return "must not contain control characters"
    return why


def time_problem(value: datetime) -> tuple[datetime | None, str | None]:
    """(the time in UTC, None) or (None, why it is out of range). Naive means UTC."""
    try:
        utc = (value if value.tzinfo is not None else value.replace(tzinfo=UTC)).astimezone(UTC)
    except (OverflowError, ValueError):
        utc = None
    if utc is None or not MIN_TIME <= utc < MAX_TIME:
        return None, "must be between 1900-01-01 and 9998-12-31 (UTC)"
    return utc, None


def check_text(value: object, field: str, *, max_chars: int | None = None) -> str:
    """A string that can be stored (see the module docstring)."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a string", field=field)
    why = text_problem(value)
    if why is not None:
        raise InvalidInputError(f"{field} {why}", field=field)
    if max_chars is not None and len(value) > max_chars:
        raise InvalidInputError(f"{field} is longer than {max_chars} characters", field=field)
    return value


def check_id(value: object, field: str, *, required: bool = True) -> str | None:
    """A non-empty string of at most 256 characters without control characters, NUL or
    lone surrogates; or None when not required."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a non-empty string", field=field)
    why = id_problem(value)
    if why is not None:
        raise InvalidInputError(f"{field} {why}", field=field)
    return value


def require_id(value: object, field: str) -> str:
    """:func:`check_id` for an id that must be given (a user id, a key): never None."""
    checked = check_id(value, field)
    assert checked is not None  # required=True raises instead of returning None
    return checked


def as_utc(value: object, field: str) -> datetime | None:
    """Accept a datetime or an ISO-8601 string; naive times are taken as UTC. The time must
    lie in [1900-01-01, 9999-01-01) UTC. The tzinfo given is kept."""
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
    _, why = time_problem(value)
    if why is not None:
        raise InvalidInputError(f"{field} {why}", field=field)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


MAX_TTL = timedelta(days=36_525)  # 100 years: longer is "never", which is no TTL at all


def as_ttl(value: object, field: str = "ttl") -> timedelta | None:
    """A time to live: a ``timedelta`` or a number of seconds, more than 0 and at most 100
    years; None means the lifecycle's default for each kind."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, timedelta | int | float):
        raise InvalidInputError(f"{field} must be a number of seconds or a timedelta", field=field)
    try:
        ttl = value if isinstance(value, timedelta) else timedelta(seconds=value)
    except (OverflowError, ValueError) as exc:
        raise InvalidInputError(
            f"{field} is out of range (at most 100 years)", field=field
        ) from exc
    if not ttl > timedelta(0):
        raise InvalidInputError(f"{field} must be more than 0 seconds", field=field)
    if ttl > MAX_TTL:
        raise InvalidInputError(f"{field} must be at most 100 years", field=field)
    return ttl


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
        content = check_text(item.get("content"), f"{f}.content")
        if len(content) > max_chars:
            raise PayloadTooLargeError(
                f"{f}.content has {len(content)} characters; the limit is {max_chars} "
                "(split long documents before adding them)",
                field=f"{f}.content",
            )
        name = item.get("name")
        if name is not None:
            check_text(name, f"{f}.name", max_chars=MAX_NAME_CHARS)
        mid = check_id(item.get("id"), f"{f}.id", required=False)
        when = as_utc(item.get("timestamp"), f"{f}.timestamp") or default_time
        out.append(Message(role=role, content=content, name=name, id=mid, timestamp=when))
    return out
