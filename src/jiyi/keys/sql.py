""":class:`~jiyi.keys.base.KeyStore` in SQL: one implementation, two databases.

- :class:`SqliteKeyStore`: ``$JIYI_HOME/keys.db`` (the file of earlier versions, read as
  is). Right for one node; several processes on that node share it.
- :class:`PostgresKeyStore`: table ``api_keys`` in the memory store's schema. A deployment
  whose memories live in PostgreSQL keeps its keys there too, so every node behind a load
  balancer knows every key and sees a revocation at once (a per-node file did not: a key
  created on one node was a 401 on the next).

Both run the same statements through ``jiyi.sessions._db`` (``?`` placeholders, ``{s}``
before table names, each dialect's time codec). The table has no row-level security: a
key is looked up by its hash before anyone knows the tenant.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jiyi.core.inputs import as_utc, check_id
from jiyi.errors import InvalidInputError
from jiyi.keys.base import KeyRecord, Principal, hash_key, key_id_of, new_key, well_formed
from jiyi.sessions._db import PostgresDatabase, Run, SqlDatabase, SqliteDatabase

Clock = Callable[[], datetime]
SQLITE_DDL = """
CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    tenant TEXT NOT NULL,
    agent_id TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
"""
# Added later (admin keys, expiry): a keys.db or api_keys table of an older version gets
# them on open; both are nullable or defaulted, so old rows stay valid keys.
_ADDED_COLUMNS = {
    "admin": ("INTEGER NOT NULL DEFAULT 0", "boolean NOT NULL DEFAULT false"),
    "expires_at": ("TEXT", "timestamptz"),
}
POSTGRES_DDL = """
CREATE TABLE IF NOT EXISTS {s}api_keys (
    key_id text PRIMARY KEY,
    key_hash text NOT NULL UNIQUE,
    tenant text NOT NULL,
    agent_id text,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
)
"""
_COLUMNS = "key_id, key_hash, tenant, agent_id, created_at, revoked_at, admin, expires_at"
_PRINCIPAL = "key_id, tenant, agent_id, admin"


def _utcnow() -> datetime:
    return datetime.now(UTC)


class SqlKeyStore:
    """The key store on an open :class:`~jiyi.sessions._db.SqlDatabase` whose ``api_keys``
    table exists (the subclasses below open one and create it).

    Args:
        db: the database; closed by :meth:`close`.
        pepper: secret for HMAC key hashes (``JIYI_KEY_PEPPER``); None: plain SHA-256.
        clock: "now" for ``created_at`` / ``revoked_at``.
    """

    def __init__(
        self, db: SqlDatabase, *, pepper: bytes | None = None, clock: Clock = _utcnow
    ) -> None:
        self.db = db
        self._pepper = pepper
        self._clock = clock

    def create(
        self,
        tenant: str,
        agent_id: str | None = None,
        *,
        admin: bool = False,
        expires_at: datetime | None = None,
    ) -> tuple[str, Principal]:
        key = new_key()
        return key, self.register(key, tenant, agent_id, admin=admin, expires_at=expires_at)

    def register(
        self,
        key: str,
        tenant: str,
        agent_id: str | None = None,
        *,
        admin: bool = False,
        expires_at: datetime | None = None,
    ) -> Principal:
        if not well_formed(key):
            raise InvalidInputError(
                "an API key must start with 'jy_' and be at most 200 characters "
                "(let `jiyi keys create` make one)",
                field="key",
            )
        check_id(tenant, "tenant")
        check_id(agent_id, "agent_id", required=False)
        if admin and agent_id is not None:
            raise InvalidInputError("an admin key cannot be bound to an agent", field="admin")
        expires_at = as_utc(expires_at, "expires_at")
        if expires_at is not None and expires_at <= self._clock():
            raise InvalidInputError("expires_at must be in the future", field="expires_at")
        digest = hash_key(key, self._pepper)
        with self.db.transaction(write=True) as q:
            self._insert(q, digest, tenant, agent_id, admin, expires_at)
            rows = q(f"SELECT {_PRINCIPAL} FROM {{s}}api_keys WHERE key_hash = ?", (digest,))
        return _principal(rows[0])

    def _insert(
        self,
        q: Run,
        digest: str,
        tenant: str,
        agent_id: str | None,
        admin: bool,
        expires_at: datetime | None,
    ) -> None:
        q(
            "INSERT INTO {s}api_keys (key_id, key_hash, tenant, agent_id, created_at, admin, "
            "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (
                key_id_of(digest),
                digest,
                tenant,
                agent_id,
                self.db.time(self._clock()),
                admin,
                self.db.time(expires_at) if expires_at is not None else None,
            ),
        )

    def rotate(self, key_id: str) -> tuple[str, Principal] | None:
        key = new_key()
        digest = hash_key(key, self._pepper)
        now = self.db.time(self._clock())
        with self.db.transaction(write=True) as q:
            rows = q(
                "UPDATE {s}api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL "
                "AND (expires_at IS NULL OR expires_at > ?) "
                "RETURNING tenant, agent_id, admin, expires_at",
                (now, key_id, now),
            )
            if not rows:
                return None
            tenant, agent_id, admin, expires = rows[0]
            expires_at = self.db.read_time(expires) if expires is not None else None
            self._insert(q, digest, tenant, agent_id, bool(admin), expires_at)
        return key, Principal(key_id_of(digest), tenant, agent_id, bool(admin))

    def verify(self, key: str) -> Principal | None:
        if not well_formed(key):
            return None
        digest = hash_key(key, self._pepper)
        with self.db.transaction(write=False) as q:
            rows = q(
                f"SELECT {_PRINCIPAL} FROM {{s}}api_keys WHERE key_hash = ? "
                "AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
                (digest, self.db.time(self._clock())),
            )
        return _principal(rows[0]) if rows else None

    def revoke(self, key_id: str) -> bool:
        with self.db.transaction(write=True) as q:
            rows = q(
                "UPDATE {s}api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL "
                "RETURNING key_id",
                (self.db.time(self._clock()), key_id),
            )
        return bool(rows)

    def count(self) -> int:
        with self.db.transaction(write=False) as q:
            rows = q("SELECT count(*) FROM {s}api_keys WHERE revoked_at IS NULL", ())
        return int(rows[0][0])

    def records(self, tenant: str | None = None) -> builtins.list[KeyRecord]:
        where, args = ("WHERE tenant = ? ", (tenant,)) if tenant is not None else ("", ())
        with self.db.transaction(write=False) as q:
            rows = q(
                "SELECT key_id, tenant, agent_id, created_at, revoked_at, admin, expires_at "
                f"FROM {{s}}api_keys {where}ORDER BY created_at, key_id",
                args,
            )
        return [
            KeyRecord(
                key_id=r[0],
                tenant=r[1],
                agent_id=r[2],
                created_at=self.db.read_time(r[3]),
                revoked_at=self.db.read_time(r[4]) if r[4] is not None else None,
                admin=bool(r[5]),
                expires_at=self.db.read_time(r[6]) if r[6] is not None else None,
            )
            for r in rows
        ]

    def close(self) -> None:
        self.db.close()


class SqliteKeyStore(SqlKeyStore):
    """Keys in a SQLite file (``keys.db``; ``":memory:"`` for a throwaway store).

    Raises:
        StorageUnavailableError: the file cannot be opened or created.
    """

    def __init__(
        self, path: str | Path, *, pepper: bytes | None = None, clock: Clock = _utcnow
    ) -> None:
        db = SqliteDatabase(path)
        db.ensure(SQLITE_DDL)
        with db.transaction(write=True) as q:
            have = {r[1] for r in q("PRAGMA table_info(api_keys)", ())}
            for name, (sqlite_type, _) in _ADDED_COLUMNS.items():
                if name not in have:
                    q(f"ALTER TABLE api_keys ADD COLUMN {name} {sqlite_type}", ())
        super().__init__(db, pepper=pepper, clock=clock)
        self.path = Path(path)


class PostgresKeyStore(SqlKeyStore):
    """Keys in PostgreSQL, table ``api_keys`` of ``schema`` (created if missing).

    Args:
        dsn: a libpq connection string or URL (``JIYI_STORE``).
        schema: the memory store's schema.

    Raises:
        InvalidInputError: a malformed schema name.
        StorageUnavailableError: the server cannot be reached.
        MissingDependencyError: psycopg is not installed (the ``postgres`` extra).
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str = "jiyi",
        pepper: bytes | None = None,
        clock: Clock = _utcnow,
    ) -> None:
        db = PostgresDatabase(dsn, schema=schema, pool_size=2)  # checks psycopg and schema
        try:
            from jiyi.storage._pg_schema import _MIGRATION_LOCK

            with db.transaction(write=True) as q:
                # Under the lock the store's migrations take: nodes starting together, or a
                # store migrating at the same moment, never create the schema twice.
                q("SELECT pg_advisory_xact_lock(hashtext(?))", (_MIGRATION_LOCK,))
                q(f'CREATE SCHEMA IF NOT EXISTS "{schema}"', ())  # name checked by the db
                q(POSTGRES_DDL, ())
                for name, (_, pg_type) in _ADDED_COLUMNS.items():
                    q(f"ALTER TABLE {{s}}api_keys ADD COLUMN IF NOT EXISTS {name} {pg_type}", ())
        except BaseException:
            db.close()
            raise
        super().__init__(db, pepper=pepper, clock=clock)
        self.schema = schema


def _principal(row: tuple[Any, ...]) -> Principal:
    return Principal(row[0], row[1], row[2], bool(row[3]))


def copy_keys(source: SqlKeyStore, target: SqlKeyStore) -> int:
    """Copy every key of ``source`` into ``target`` (hashes, tenants, agents, admin flags,
    times; both must use the same pepper). Idempotent: a key already in ``target`` is kept,
    and a revocation in either store wins. Returns how many keys were new to ``target``.

    Used once per start of a PostgreSQL deployment that still has a ``keys.db`` from a
    version that kept keys in a file, so no key that worked before stops working."""
    with source.db.transaction(write=False) as q:
        rows = q(f"SELECT {_COLUMNS} FROM {{s}}api_keys", ())
    if not rows:
        return 0
    with target.db.transaction(write=True) as q:
        return _upsert(q, target.db, source.db, rows)


def _upsert(q: Run, into: SqlDatabase, src: SqlDatabase, rows: list[tuple[Any, ...]]) -> int:
    known = {r[0] for r in q("SELECT key_id FROM {s}api_keys", ())}
    for key_id, digest, tenant, agent_id, created, revoked, admin, expires in rows:
        q(
            f"INSERT INTO {{s}}api_keys AS t ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (key_id) DO UPDATE SET revoked_at = COALESCE(t.revoked_at, "
            "excluded.revoked_at)",
            (
                key_id,
                digest,
                tenant,
                agent_id,
                into.time(src.read_time(created)),
                into.time(src.read_time(revoked)) if revoked is not None else None,
                bool(admin),
                into.time(src.read_time(expires)) if expires is not None else None,
            ),
        )
    return len({r[0] for r in rows} - known)
