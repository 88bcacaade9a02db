"""API keys: each belongs to one tenant (and optionally one agent); only hashes are stored.

A key is 32 random bytes (``jy_`` + URL-safe base64), so a plain SHA-256 is enough to make
the stored hash useless to a thief; no salt is needed because there is nothing to guess.
With a pepper configured the hash is HMAC-SHA256(pepper, key) instead, so a stolen
``keys.db`` alone cannot even be checked against a candidate key.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from jiyi.core.inputs import check_id
from jiyi.errors import StorageUnavailableError

PREFIX = "jy_"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    tenant TEXT NOT NULL,
    agent_id TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
"""


@dataclass(frozen=True)
class Principal:
    """Who is calling: the tenant every query is scoped to, and the agent the key is bound
    to (None: any agent of the tenant)."""

    key_id: str
    tenant: str
    agent_id: str | None = None


class KeyStore:
    """API keys in a small SQLite file (``keys.db``); thread-safe."""

    def __init__(self, path: str | Path, *, pepper: bytes | None = None) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._pepper = pepper
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StorageUnavailableError(f"cannot open key store {path}: {exc}") from exc

    def _hash(self, key: str) -> str:
        if self._pepper:
            return hmac.new(self._pepper, key.encode(), hashlib.sha256).hexdigest()
        return hashlib.sha256(key.encode()).hexdigest()

    def create(self, tenant: str, agent_id: str | None = None) -> tuple[str, Principal]:
        """Make a new key. Returns the key (shown once, never stored) and its principal."""
        check_id(tenant, "tenant")
        check_id(agent_id, "agent_id", required=False)
        key = PREFIX + secrets.token_urlsafe(32)
        return key, self.register(key, tenant, agent_id)

    def register(self, key: str, tenant: str, agent_id: str | None = None) -> Principal:
        """Store the hash of a key chosen elsewhere (e.g. JIYI_BOOTSTRAP_KEY). Idempotent."""
        digest = self._hash(key)
        key_id = digest[:12]
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO api_keys(key_id, key_hash, tenant, agent_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (key_id, digest, tenant, agent_id, datetime.now(UTC).isoformat()),
            )
        return Principal(key_id=key_id, tenant=tenant, agent_id=agent_id)

    def verify(self, key: str) -> Principal | None:
        """The principal of a valid, unrevoked key, else None."""
        if not key.startswith(PREFIX) or len(key) > 200:
            return None
        digest = self._hash(key)
        with self._lock:
            row = self._db.execute(
                "SELECT key_id, key_hash, tenant, agent_id FROM api_keys"
                " WHERE key_hash = ? AND revoked_at IS NULL",
                (digest,),
            ).fetchone()
        # The lookup is by hash already; compare_digest keeps the final check constant-time.
        if row is None or not hmac.compare_digest(row[1], digest):
            return None
        return Principal(key_id=row[0], tenant=row[2], agent_id=row[3])

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by id; False if there was no such active key."""
        with self._lock:
            cur = self._db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                (datetime.now(UTC).isoformat(), key_id),
            )
        return cur.rowcount > 0

    def count(self) -> int:
        """Active keys."""
        with self._lock:
            row = self._db.execute(
                "SELECT count(*) FROM api_keys WHERE revoked_at IS NULL"
            ).fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
