"""The API-key port: who a bearer key speaks for, and what every key store guarantees.

A key is ``jy_`` + 32 random bytes (URL-safe base64), so a plain SHA-256 is enough to make
the stored hash useless to a thief; no salt is needed because there is nothing to guess.
With a pepper configured the hash is HMAC-SHA256(pepper, key) instead, so a stolen table
alone cannot even be checked against a candidate key. Only hashes are ever stored.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

PREFIX = "jy_"
MAX_KEY_CHARS = 200


@dataclass(frozen=True)
class Principal:
    """Who is calling: the tenant every query is scoped to, and the agent the key is bound
    to (None: any agent of the tenant)."""

    key_id: str
    tenant: str
    agent_id: str | None = None
    # An admin key (for the console, ``/v1/keys`` and ``/v1/admin``) may act on any tenant
    # by naming it in the ``X-Jiyi-Tenant`` header; its own tenant is the default.
    admin: bool = False


@dataclass(frozen=True)
class KeyRecord:
    """A stored key as an operator sees it (never the key, never its hash)."""

    key_id: str
    tenant: str
    agent_id: str | None
    created_at: datetime
    revoked_at: datetime | None = None
    admin: bool = False
    expires_at: datetime | None = None


def new_key() -> str:
    """A fresh random key."""
    return PREFIX + secrets.token_urlsafe(32)


def well_formed(key: str) -> bool:
    """Whether ``key`` could be a jiyi key at all (checked before any hashing)."""
    return key.startswith(PREFIX) and len(key) <= MAX_KEY_CHARS


def hash_key(key: str, pepper: bytes | None) -> str:
    """The stored form of a key: hex SHA-256, or HMAC-SHA256 with a pepper."""
    if pepper:
        return hmac.new(pepper, key.encode(), hashlib.sha256).hexdigest()
    return hashlib.sha256(key.encode()).hexdigest()


def key_id_of(key_hash: str) -> str:
    """The public id of a key (its hash's first 12 hex digits): safe to log and show."""
    return key_hash[:12]


class KeyStore(Protocol):
    """API keys → principals. Thread-safe; every backend keeps these guarantees (checked by
    ``tests/contract/test_keys_contract.py`` on SQLite and PostgreSQL):

    - Only the hash of a key is stored; a key is shown once, by :meth:`create`.
    - Keys are global: a key belongs to exactly one tenant (and at most one agent), found
      from the key alone; nothing in a request can change either.
    - Several processes (or nodes) sharing one backend see each other's keys and
      revocations at once (a server caches a verified key for under a second, so a revoked
      key is refused within one second on every node).
    - Every method raises StorageUnavailableError when the backend cannot be reached.
    """

    def create(
        self,
        tenant: str,
        agent_id: str | None = None,
        *,
        admin: bool = False,
        expires_at: datetime | None = None,
    ) -> tuple[str, Principal]:
        """A new random key for ``tenant`` (bound to ``agent_id`` if given; an admin key if
        ``admin``; refused by :meth:`verify` from ``expires_at`` on): (the key, shown once
        and never stored; its principal). InvalidInputError for a malformed tenant or agent
        id (same rules as user ids), an admin key bound to an agent, or an ``expires_at``
        that is not in the future (a naive time is UTC)."""
        ...

    def rotate(self, key_id: str) -> tuple[str, Principal] | None:
        """Replace a key: a new key with the same tenant, agent, admin flag and expiry, and
        the old one revoked, in one transaction. None (nothing changed) for an unknown,
        revoked or expired id."""
        ...

    def register(self, key: str, tenant: str, agent_id: str | None = None) -> Principal:
        """Store the hash of a key chosen elsewhere (``JIYI_BOOTSTRAP_KEY``). Idempotent: a
        key already stored keeps its tenant and agent, and its stored principal is returned.
        InvalidInputError for a key :meth:`verify` could never accept (no ``jy_`` prefix,
        over 200 characters) or a malformed tenant or agent id."""
        ...

    def verify(self, key: str) -> Principal | None:
        """The principal of a stored, unrevoked, unexpired key; None for anything else
        (unknown, revoked, expired, malformed — without touching the backend for a
        malformed one)."""
        ...

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by its id; True if an active key was revoked, False for an unknown
        or already revoked id (idempotent). A revoked key never verifies again."""
        ...

    def count(self) -> int:
        """Active (unrevoked) keys, all tenants."""
        ...

    def records(self, tenant: str | None = None) -> builtins.list[KeyRecord]:
        """Stored keys, revoked ones included, of ``tenant`` (None: all), oldest first."""
        ...

    def close(self) -> None:
        """Release connections; further calls are undefined."""
        ...
