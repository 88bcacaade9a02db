"""Served backend: PostgreSQL with pgvector — memories, a tsvector keyword index, vectors and
history in one schema, behaving exactly like :class:`~jiyi.storage.sqlite.SqliteMemoryStore`.

Why this shape:
- One transaction per :class:`ChangeSet`: row, keyword column, vector and history commit
  together. The tsvector is a generated column over the stored jieba segmentation, so it can
  never disagree with the row.
- The statements shared with SQLite (row codec, scope ``WHERE``, write checks, history) are
  in ``_sql.py`` and ``_sql_reads.py``; the two search channels in ``postgres_search.py``;
  the migrations in ``_pg_schema.py``.
- The vector dimension is fixed by ``dim`` or by the first vector written: the column gets its
  typmod and the HNSW index (which needs one) in that same transaction.
- Row-level security (FORCE, so the table owner is bound too) keeps every statement inside
  the tenant set with ``set_config('jiyi.tenant', …, true)`` at the start of each
  transaction; unset means no rows. Superusers and BYPASSRLS roles skip RLS, so every query
  also filters tenant (and user) explicitly, like SQLite.
- Hard deletes remove rows at once; PostgreSQL reclaims the dead tuples at (auto)VACUUM.
"""

from __future__ import annotations

import builtins
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from jiyi.core.models import HistoryEntry, MemoryItem, Scope
from jiyi.core.ports import (
    ChangeSet,
    Indexed,
    SearchFilter,
    SqlWrite,
    UserSummary,
    Vector,
)
from jiyi.errors import InvalidInputError, StorageUnavailableError
from jiyi.storage import _sql, _sql_reads
from jiyi.storage._filters import list_users
from jiyi.storage._identity import merge_shared_rows
from jiyi.storage._pg_schema import HNSW_INDEX, fix_dim, migrate, read_dim
from jiyi.storage._rows import COLUMNS
from jiyi.storage._sql import Dialect, Run, aware, dumps
from jiyi.storage._tier import UserTierStores
from jiyi.storage._vectors import as_vector, check_dim, checked_vectors
from jiyi.storage.postgres_search import keyword_search, nearest, replace_vectors, stale_ids
from jiyi.storage.postgres_transfer import indexed_rows, merge_memories

__all__ = ["HNSW_INDEX", "PostgresMemoryStore"]

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]
Cursor = psycopg.Cursor[tuple[Any, ...]]

_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
#: PostgreSQL: native timestamptz (naive means UTC) and jsonb; lists bind as arrays. Each
#: store renders it with its own schema.
POSTGRES = Dialect(
    placeholder="%s",
    tables="",
    binary='"C"',
    arrays=True,
    time=aware,
    read_time=aware,
    json=lambda v: Jsonb(v, dumps=dumps),
    read_json=lambda v: v,
    family="postgres",
)
# The row as written (bench/scale.py bulk-loads with it through COPY).
_to_row = partial(_sql.to_row, POSTGRES)
_UPSERT_COLUMNS = (*COLUMNS, "keywords", "embedding", "embedder")
_UPSERT = (
    f"INSERT INTO {{s}}.memories AS t ({', '.join(_UPSERT_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(_UPSERT_COLUMNS))}) "
    f"ON CONFLICT (id) DO UPDATE SET {', '.join(f'{c} = EXCLUDED.{c}' for c in _UPSERT_COLUMNS)} "
    "WHERE t.tenant = EXCLUDED.tenant AND t.user_id = EXCLUDED.user_id"
)


def _runner(cur: Cursor) -> Run:
    def run(sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        cur.execute(sql, args)
        return cur.fetchall() if cur.description is not None else []

    return run


class PostgresMemoryStore(UserTierStores):
    """:class:`~jiyi.core.ports.MemoryStore` on PostgreSQL 15+ with pgvector 0.8.

    Thread-safe (a connection pool); several processes may share one schema.

    Args:
        dsn: a libpq connection string or URL.
        schema: the schema holding every object of this store (created if missing).
        pool_size: the most connections this store opens.
        statement_timeout_ms: per-statement limit; also bounds the wait for a connection.
        dim: the vector dimension, if known; otherwise fixed by the first vector written.
        hnsw_index: build the HNSW index with the dimension. It only serves scopes of
            ``exact_max_rows`` or more and makes writes ~10x slower; without it every
            search is exact.

    Raises:
        InvalidInputError: a malformed schema name or dim.
        StorageUnavailableError: the server cannot be reached or the migration failed.
    """

    #: Scopes with fewer rows than this get exact vector search (fast through the btree).
    exact_max_rows = 20_000

    def __init__(
        self,
        dsn: str,
        *,
        schema: str = "jiyi",
        pool_size: int = 10,
        statement_timeout_ms: int = 5000,
        dim: int | None = None,
        hnsw_index: bool = True,
    ) -> None:
        if not _SCHEMA_NAME.fullmatch(schema):
            raise InvalidInputError(
                "schema must be letters, digits and underscores (max 63)", field="schema"
            )
        if dim is not None and not 0 < dim <= 16000:
            raise InvalidInputError("dim must be between 1 and 16000", field="dim")
        self.schema = schema
        self._d = replace(POSTGRES, tables=f'"{schema}".')
        self._timeout_ms = int(statement_timeout_ms)
        self._dim: int | None = None
        self._hnsw = hnsw_index
        self._build_user_tier(self._d, self._user_tx, lambda t: partial(self._read, t))
        self._migrate(dsn, dim)
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=pool_size,
            # No server-side prepared statements: a generic plan cannot see the user or the
            # terms, and at 1M rows it picked the GIN index over the user's btree (60 ms
            # instead of 1.5 ms). Planning each query costs well under a millisecond.
            kwargs={"autocommit": True, "prepare_threshold": None},
            configure=self._configure,
            check=ConnectionPool.check_connection,
            timeout=max(5.0, self._timeout_ms / 1000),
            name=f"jiyi-{schema}",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=max(5.0, self._timeout_ms / 1000))
        except psycopg.Error as exc:
            self._pool.close()
            raise StorageUnavailableError(f"cannot connect to PostgreSQL: {exc}") from exc

    # -- plumbing -------------------------------------------------------------------------

    def _configure(self, conn: Conn) -> None:
        register_vector(conn)
        conn.execute("SELECT set_config('statement_timeout', %s, false)", (str(self._timeout_ms),))
        conn.execute("SET TimeZone = 'UTC'")

    def _migrate(self, dsn: str, dim: int | None) -> None:
        try:
            with (
                psycopg.connect(dsn, connect_timeout=10, autocommit=True) as conn,
                conn.transaction(),
                conn.cursor() as cur,
            ):
                migrate(cur, self._d, self.schema)
                if dim is not None:
                    self._dim = fix_dim(cur, self._d, self.schema, dim, hnsw=self._hnsw)
                else:
                    self._dim = read_dim(cur, self._d)
        except psycopg.Error as exc:
            raise StorageUnavailableError(
                f"cannot prepare the PostgreSQL schema {self.schema!r}: {exc}"
            ) from exc

    @contextmanager
    def _tx(self, tenant: str) -> Iterator[Cursor]:
        """One transaction bound to ``tenant`` (row-level security reads it)."""
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                cur.execute("SELECT set_config('jiyi.tenant', %s, true)", (tenant,))
                yield cur
        except (psycopg.DataError, psycopg.IntegrityError) as exc:
            raise InvalidInputError(f"PostgreSQL refused the data: {exc}") from exc
        except psycopg.errors.QueryCanceled as exc:
            raise StorageUnavailableError(
                f"PostgreSQL statement timed out after {self._timeout_ms} ms: {exc}"
            ) from exc
        except psycopg.Error as exc:
            raise StorageUnavailableError(f"PostgreSQL is unavailable: {exc}") from exc

    @contextmanager
    def _user_tx(self, tenant: str) -> Iterator[Run]:
        with self._tx(tenant) as cur:
            yield _runner(cur)

    def _read(self, tenant: str, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self._tx(tenant) as cur:
            cur.execute(sql, args)
            return cur.fetchall()

    # -- writes ---------------------------------------------------------------------------

    def apply(self, scope: Scope, changes: ChangeSet) -> None:
        self.import_user(scope, changes, ())

    def import_user(self, scope: Scope, changes: ChangeSet, writes: Sequence[SqlWrite]) -> None:
        d = self._d
        checked = _sql.check_write(scope, changes)
        if not changes and not writes:
            return
        upserts = [
            (*_sql.to_row(d, i.memory), i.keywords, vec, None if vec is None else changes.embedder)
            for i, vec in zip(changes.upserts, checked.vectors, strict=True)
        ]
        with self._tx(scope.tenant) as cur:
            run = _runner(cur)
            _sql.refuse_foreign_ids(run, d, scope, changes)
            if checked.dim is not None and self._dim != checked.dim:
                self._dim = fix_dim(cur, d, self.schema, checked.dim, hnsw=self._hnsw)
            if upserts:
                cur.executemany(d.q(_UPSERT), upserts)
                # A row the check above could not see (another tenant's, hidden by row-level
                # security; or one written meanwhile) is skipped by the upsert's WHERE.
                if cur.rowcount < len(upserts):
                    raise _sql.foreign_id()
            if changes.updates:
                cur.executemany(*_sql.update_rows(d, scope, changes.updates))
            if changes.deletes:
                ids = list(dict.fromkeys(changes.deletes))
                part, args = d.any_of("id", ids)
                run(
                    d.q(f"DELETE FROM {{s}}.memories WHERE tenant = ? AND user_id = ? AND {part}"),
                    [scope.tenant, scope.user_id, *args],
                )
                _sql.erase_history(run, d, scope, ids)
            if changes.messages:
                cur.executemany(*_sql.record_messages(d, scope, changes.messages))
            if changes.history:
                cur.executemany(*_sql.insert_history(d, scope, changes.history))
            for write in writes:
                write(run, d)

    def merge_users(self, tenant: str, source: str, target: str) -> dict[str, int]:
        with self._tx(tenant) as cur:
            run = _runner(cur)
            counts = merge_memories(run, self._d, tenant, source, target)
            return counts | merge_shared_rows(run, self._d, tenant, source, target)

    def indexed(self, tenant: str, user_id: str) -> builtins.list[Indexed]:
        return indexed_rows(partial(self._read, tenant), self._d, tenant, user_id)

    def touch(self, scope: Scope, counts: Mapping[str, int], at: datetime) -> None:
        sql, rows = _sql.touch_rows(self._d, scope, counts, at)
        if not rows:
            return
        try:
            with self._tx(scope.tenant) as cur:
                cur.executemany(sql, rows)
        except (StorageUnavailableError, InvalidInputError) as exc:  # bookkeeping only
            log.warning("could not record access: %s", exc)

    def reinforce(
        self,
        scope: Scope,
        memory_ids: Sequence[str],
        at: datetime,
        *,
        step: float,
        cap: float,
        every: timedelta,
    ) -> builtins.list[str]:
        if not memory_ids:
            return []
        try:
            with self._tx(scope.tenant) as cur:
                return _sql.reinforce_rows(
                    _runner(cur), self._d, scope, memory_ids, at, step=step, cap=cap, every=every
                )
        except (StorageUnavailableError, InvalidInputError) as exc:  # bookkeeping only
            log.warning("could not record reinforcement: %s", exc)
            return []

    def delete_user(self, scope: Scope) -> dict[str, int]:
        with self._tx(scope.tenant) as cur:
            cur.execute(
                self._d.q(
                    "WITH d AS (DELETE FROM {s}.memories WHERE tenant = ? AND user_id = ? "
                    "RETURNING embedding IS NOT NULL AS has_vector) "
                    "SELECT count(*), count(*) FILTER (WHERE has_vector) FROM d"
                ),
                (scope.tenant, scope.user_id),
            )
            memories, vectors = cur.fetchone() or (0, 0)
            counts = _sql.delete_user_rows(_runner(cur), self._d, scope)
        return {
            "memories": int(memories),
            "keyword_index": int(memories),  # the tsvector lives in the row
            "vectors": int(vectors),
            **counts,
        }

    # -- the vector ledger (embedding backfill) ---------------------------------------------

    def stale_vectors(self, scope: Scope, embedder: str, *, limit: int) -> builtins.list[str]:
        return stale_ids(partial(self._read, scope.tenant), self._d, scope, embedder, limit)

    def set_vectors(self, scope: Scope, vectors: Mapping[str, Vector], embedder: str) -> int:
        checked = checked_vectors(vectors)
        if not checked:
            return 0
        with self._tx(scope.tenant) as cur:
            dim = next(int(v.shape[0]) for v in checked.values())
            if self._dim != dim:
                self._dim = fix_dim(cur, self._d, self.schema, dim, hnsw=self._hnsw)
            return replace_vectors(cur, self._d, scope, checked, embedder)

    # -- reads ----------------------------------------------------------------------------

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        return _sql_reads.get_memory(partial(self._read, tenant), self._d, tenant, memory_id)

    def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        if not memory_ids:
            return []
        run = partial(self._read, scope.tenant)
        return _sql_reads.get_memories(run, self._d, scope, memory_ids)

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        run = partial(self._read, scope.tenant)
        return _sql_reads.list_memories(run, self._d, scope, flt, topic, limit)

    def keyword_search(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        return keyword_search(partial(self._read, scope.tenant), self._d, scope, terms, flt, limit)

    def vector_search(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        q = as_vector(query)
        if limit <= 0:
            return []
        with self._tx(scope.tenant) as cur:
            if self._dim is None:
                self._dim = read_dim(cur, self._d)
                if self._dim is None:
                    return []  # no vector was ever written
            check_dim(self._dim, int(q.shape[0]), query=True)
            return nearest(cur, self._d, scope, q, flt, limit, exact_max_rows=self.exact_max_rows)

    def users(
        self, tenant: str, *, after: str | None = None, limit: int = 100
    ) -> builtins.list[UserSummary]:
        return list_users(partial(self._read, tenant), self._d, tenant, after, limit)

    def seen_messages(self, scope: Scope, message_ids: Sequence[str]) -> set[str]:
        if not message_ids:
            return set()
        run = partial(self._read, scope.tenant)
        return _sql_reads.seen_messages(run, self._d, scope, message_ids)

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        return _sql_reads.read_history(partial(self._read, tenant), self._d, tenant, memory_id)

    # -- lifecycle ------------------------------------------------------------------------

    def drop_schema(self) -> None:
        """Drop this store's schema and everything in it (tests, benchmarks)."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SET LOCAL statement_timeout = 0")
                conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        except psycopg.Error as exc:
            raise StorageUnavailableError(f"cannot drop schema {self.schema!r}: {exc}") from exc
        self._dim = None

    def close(self) -> None:
        self._pool.close()
