"""The SQL the durable session store and the idempotency ledger run on: one small
interface, two dialects, so their logic is written once.

- SQLite: its own connection to the memory store's file (WAL, ``synchronous=NORMAL``: a
  committed transaction survives ``kill -9`` of the process), ``BEGIN IMMEDIATE`` per write
  (SQLite serialises writers anyway). Times are ``ts()`` text, as in the memory tables.
- PostgreSQL: a small pool on the store's DSN and schema; the tables come from the store's
  migrations (``storage/_pg_schema.py``). A write that names a ``lock`` key takes a
  transaction-scoped advisory lock on it, which serialises the operations on one session
  across processes (two first appends cannot both create it).

SQL is written with ``?`` placeholders and ``{s}`` before table names; each dialect maps
them. Callers get a ``run(sql, args) -> rows`` function inside :meth:`transaction`.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from jiyi.errors import InvalidInputError, MissingDependencyError, StorageUnavailableError
from jiyi.storage._rows import parse_ts, ts

Run = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]
_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


class SqlDatabase(Protocol):
    """Transactions on the store's database, in one of two dialects."""

    #: appended to a SELECT that must lock the rows it reads ("" where writes serialise)
    for_update: str
    #: appended to a SELECT of rows to claim, so concurrent claimers skip each other's
    skip_locked: str

    def transaction(self, *, write: bool, lock: str | None = None) -> AbstractContextManager[Run]:
        """One transaction; ``lock`` names a key to hold exclusively until it ends.
        Raises StorageUnavailableError when the database cannot be reached or stays
        locked."""
        ...

    def time(self, value: datetime) -> Any:
        """A datetime as this dialect stores it."""
        ...

    def read_time(self, value: Any) -> datetime:
        """A stored time back as a UTC-aware datetime."""
        ...

    def ensure(self, sqlite_ddl: str) -> None:
        """Create tables described for SQLite (PostgreSQL's come from migrations)."""
        ...

    def close(self) -> None: ...


class SqliteDatabase:
    """:class:`SqlDatabase` on a SQLite file (normally the memory store's ``jiyi.db``)."""

    for_update = ""
    skip_locked = ""

    def __init__(self, path: str | Path, *, timeout: float = 10.0) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA secure_delete=ON")  # a deleted session leaves nothing
        except sqlite3.Error as exc:
            raise StorageUnavailableError(f"cannot open {self.path}: {exc}", field="path") from exc
        self._lock = threading.Lock()

    def ensure(self, sqlite_ddl: str) -> None:
        with self._lock:
            try:
                self._db.executescript(sqlite_ddl)
            except sqlite3.Error as exc:
                raise StorageUnavailableError(f"cannot create tables: {exc}") from exc

    def _run(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql.replace("{s}", ""), args).fetchall()

    @contextmanager
    def transaction(self, *, write: bool, lock: str | None = None) -> Iterator[Run]:
        del lock  # BEGIN IMMEDIATE already serialises every writer of the file
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.OperationalError as exc:
                raise StorageUnavailableError(f"{self.path} is locked: {exc}") from exc
            try:
                yield self._run
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise StorageUnavailableError(f"commit failed: {exc}") from exc

    def time(self, value: datetime) -> Any:
        return ts(value)

    def read_time(self, value: Any) -> datetime:
        parsed = parse_ts(value)
        if parsed is None:
            raise ValueError("a required time is missing")
        return parsed

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresDatabase:
    """:class:`SqlDatabase` on the PostgreSQL store's schema."""

    for_update = " FOR UPDATE"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(
        self, dsn: str, *, schema: str = "jiyi", pool_size: int = 4, timeout_ms: int = 5000
    ) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError as exc:
            raise MissingDependencyError(exc.name or "psycopg", "postgres") from exc
        if not _SCHEMA_NAME.fullmatch(schema):
            raise InvalidInputError("schema must be letters, digits and underscores")
        self._psycopg = psycopg
        self._s = f'"{schema}".'
        self._timeout_ms = timeout_ms

        def configure(conn: Any) -> None:
            conn.execute("SELECT set_config('statement_timeout', %s, false)", (str(timeout_ms),))

        self._pool: Any = ConnectionPool(
            dsn,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            configure=configure,
            check=ConnectionPool.check_connection,
            timeout=max(5.0, timeout_ms / 1000),
            name=f"jiyi-sessions-{schema}",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=max(5.0, timeout_ms / 1000))
        except psycopg.Error as exc:
            self._pool.close()
            raise StorageUnavailableError(f"cannot connect to PostgreSQL: {exc}") from exc

    def ensure(self, sqlite_ddl: str) -> None:
        del sqlite_ddl  # migration 4 of the store created the tables

    @contextmanager
    def transaction(self, *, write: bool, lock: str | None = None) -> Iterator[Run]:
        del write
        psycopg = self._psycopg
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                if lock is not None:
                    cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (lock,))

                def run(sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
                    cur.execute(sql.replace("{s}", self._s).replace("?", "%s"), args)
                    return list(cur.fetchall()) if cur.description else []

                yield run
        except psycopg.errors.UndefinedTable as exc:
            raise StorageUnavailableError(
                "the session tables are missing: open the PostgreSQL memory store once "
                f"(it applies the migrations): {exc}"
            ) from exc
        except psycopg.Error as exc:
            raise StorageUnavailableError(f"PostgreSQL is unavailable: {exc}") from exc

    def time(self, value: datetime) -> Any:
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)

    def read_time(self, value: Any) -> datetime:
        if not isinstance(value, datetime):
            raise ValueError("a required time is missing")
        return value.astimezone(UTC)

    def close(self) -> None:
        self._pool.close()
