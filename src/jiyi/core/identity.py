"""Who is speaking: login aliases of one user (hashed, never stored in clear), the audited
identity events (merge, drift, confirmation), and the drift test.

Pure functions and value objects, no I/O.

**Aliases.** A phone number, WeChat openid, e-mail, device id or login names one canonical
user. It is PII, so only a keyed digest is kept: ``HMAC-SHA256(tenant_key, kind ":" value)``
where ``tenant_key = HMAC-SHA256(secret, "jiyi.alias:" tenant)``. The per-tenant key means
tenant B cannot resolve (or even recognise) tenant A's alias, and without the secret a
stolen database does not give phone numbers back by trying them all. The value is
normalised first (a phone's digits, an e-mail in lower case), so "+86 138-0013-8000" and
"+8613800138000" are one alias. What the listing shows is a masked hint ("*******8000").

**Naming a user by alias.** Wherever a user id is accepted, ``alias:<kind>:<value>`` names
the user that alias is linked to (:func:`parse_alias_ref`); over REST the alias travels in
the ``X-Jiyi-Alias`` header instead, never in a URL (``docs/server.md``).

**Drift.** A session whose messages give other values for at least
:data:`DRIFT_MIN_SLOTS` of the identity slots at once (name, age or birth year, language,
home city) is probably someone else at the keyboard, not a correction: a user who moved
changes one slot. Values are compared through :func:`jiyi.core.slots.same_value`, never by
embedding similarity (E5 puts "30岁" and "52岁" close).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field

from jiyi.core.slots import same_value
from jiyi.errors import InvalidInputError

__all__ = [
    "ALIAS_PREFIX",
    "DRIFT_MIN_SLOTS",
    "IDENTITY_SLOTS",
    "Alias",
    "AliasKind",
    "IdentityEvent",
    "IdentityGuard",
    "SuspectSession",
    "alias_digest",
    "alias_hint",
    "drifted_slots",
    "normalize_alias",
    "parse_alias_ref",
    "tenant_key",
]

ALIAS_PREFIX = "alias:"
MAX_ALIAS_CHARS = 256


class AliasKind(StrEnum):
    """What kind of login id an alias is (the digest covers the kind: a phone number and a
    device id with the same characters are two aliases)."""

    PHONE = "phone"
    WECHAT_OPENID = "wechat_openid"
    EMAIL = "email"
    DEVICE = "device"
    LOGIN = "login"


class IdentityGuard(StrEnum):
    """What a drift does: ``off`` nothing; ``flag`` marks the add result and the session and
    audits it; ``block`` also keeps the user's memories out of that session's context until
    :meth:`jiyi.Memory.confirm_identity`."""

    OFF = "off"
    FLAG = "flag"
    BLOCK = "block"


class Alias(BaseModel):
    """A linked alias as listed: its kind, a masked hint and when it was linked — never the
    alias itself (``digest`` is the keyed hash, useful only to this tenant's key)."""

    kind: AliasKind
    hint: str
    digest: str
    created_at: datetime


IdentityAction = Literal[
    "alias_linked", "alias_unlinked", "merged_into", "merged_from", "suspect", "confirmed"
]


class IdentityEvent(BaseModel):
    """One audited identity event: who did what when, with counts or slot names — never an
    alias or a memory's content."""

    user_id: str
    at: datetime
    action: IdentityAction
    actor: str  # "key:<key id>", "library", "user" (a drift seen in the user's messages)
    session_id: str | None = None
    other_user: str | None = None  # the other side of a merge
    detail: dict[str, int | str | list[str]] = Field(default_factory=dict)


class SuspectSession(BaseModel):
    """A session flagged by the drift guard, and whether the user confirmed it since."""

    user_id: str
    session_id: str
    flagged_at: datetime
    slots: list[str]  # the identity slots whose values changed at once
    confirmed_at: datetime | None = None
    confirmed_by: str | None = None


# -- aliases ----------------------------------------------------------------------------------

_PHONE = re.compile(r"\+?[\d\s().-]{5,40}")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def normalize_alias(kind: AliasKind, value: object) -> str:
    """The canonical form of an alias (what is hashed). Phones keep digits (and a leading
    +); e-mail is lower-cased; every kind is NFKC and trimmed.

    Raises:
        InvalidInputError: ``field`` "alias" — never echoing the value (it is PII).
    """
    if not isinstance(value, str):
        raise InvalidInputError("alias must be a non-empty string", field="alias")
    text = unicodedata.normalize("NFKC", value).strip()
    if not text or len(text) > MAX_ALIAS_CHARS or any(ord(c) < 32 for c in text):
        raise InvalidInputError(
            f"alias must be 1-{MAX_ALIAS_CHARS} printable characters", field="alias"
        )
    if kind == AliasKind.PHONE:
        if not _PHONE.fullmatch(text):
            raise InvalidInputError("a phone alias must be a phone number", field="alias")
        digits = re.sub(r"\D", "", text)
        return ("+" if text.startswith("+") else "") + digits
    if kind == AliasKind.EMAIL:
        if not _EMAIL.fullmatch(text):
            raise InvalidInputError("an email alias must be an e-mail address", field="alias")
        return text.lower()
    return text


def check_kind(kind: object) -> AliasKind:
    try:
        return AliasKind(str(kind))
    except ValueError as exc:
        kinds = ", ".join(k.value for k in AliasKind)
        raise InvalidInputError(f"kind must be one of: {kinds}", field="kind") from exc


def tenant_key(secret: bytes, tenant: str) -> bytes:
    """The tenant's alias key, derived from the deployment's secret."""
    return hmac.new(secret, f"jiyi.alias:{tenant}".encode(), hashlib.sha256).digest()


def alias_digest(key: bytes, kind: AliasKind, normalized: str) -> str:
    """The stored form of an alias: hex HMAC-SHA256 under the tenant's key."""
    msg = f"{kind.value}:{normalized}".encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def alias_hint(kind: AliasKind, normalized: str) -> str:
    """A masked hint a person can recognise their own alias by, never enough to rebuild
    it: the last 4 digits of a phone, an e-mail's first letter and top-level domain, the
    last 3 characters of anything else (only for values of 8 or more characters)."""
    if kind == AliasKind.PHONE:
        return "*" * max(len(normalized) - 4, 3) + normalized[-4:]
    if kind == AliasKind.EMAIL:
        local, _, domain = normalized.partition("@")
        return f"{local[:1]}***@***.{domain.rsplit('.', 1)[-1]}"
    return "***" + normalized[-3:] if len(normalized) >= 8 else "***"


def parse_alias_ref(user_id: str) -> tuple[AliasKind, str] | None:
    """``alias:phone:+8613800138000`` → (phone, the raw value); None for a plain user id.

    Raises:
        InvalidInputError: ``field`` "user_id" for a malformed reference (unknown kind).
    """
    if not user_id.startswith(ALIAS_PREFIX):
        return None
    kind, sep, value = user_id[len(ALIAS_PREFIX) :].partition(":")
    if not sep:
        raise InvalidInputError(
            "an alias reference is alias:<kind>:<value>, e.g. alias:phone:+8613800138000",
            field="user_id",
        )
    try:
        return AliasKind(kind), value
    except ValueError as exc:
        kinds = ", ".join(k.value for k in AliasKind)
        raise InvalidInputError(f"alias kind must be one of: {kinds}", field="user_id") from exc


# -- drift ------------------------------------------------------------------------------------

#: Identity slots the drift test reads, grouped: name, age (an age and a birth year are one
#: dimension), language, home city.
IDENTITY_SLOTS: dict[str, tuple[str, ...]] = {
    "name": ("identity.name",),
    "age": ("identity.age", "identity.birth_year"),
    "language": ("identity.language",),
    "city": ("location.home",),
}
DRIFT_MIN_SLOTS = 3  # one or two changed values are corrections (a move, a birthday)


def drifted_slots(stored: Mapping[str, str], said: Mapping[str, str]) -> list[str]:
    """The identity dimensions whose value in ``said`` (slot → value of this session)
    differs from ``stored`` (slot → the user's active value); a dimension counts when both
    sides have a value for one of its slots and none of them agree. The result is a drift
    when it has at least :data:`DRIFT_MIN_SLOTS` entries."""
    changed: list[str] = []
    for dimension, slots in IDENTITY_SLOTS.items():
        pairs = [(stored[s], said[s]) for s in slots if s in stored and s in said]
        if pairs and not any(same_value(a, b) for a, b in pairs):
            changed.append(dimension)
    return changed
