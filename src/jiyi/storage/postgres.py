"""Served backend: PostgreSQL with pgvector — memories, a tsvector keyword index, vectors and
history in one schema, behaving exactly like :class:`~jiyi.storage.sqlite.SqliteMemoryStore`.

Why this shape:
- One transaction per :class:`ChangeSet`: row, keyword column, vector and history commit
  together. The tsvector is a generated column over the stored jieba segmentation, so it can
  never disagree with the row.
- Keyword config ``<schema>.jiyi_text`` = 'simple' plus the English Snowball stemmer (without
  a stopword list) for ASCII words: Chinese tokens are kept verbatim as jieba cut them, and
  English is stemmed like SQLite's porter tokenizer (paint/paints/painting match).
- Vector search never loses a small user among many: for a scope with fewer than
  :attr:`PostgresMemoryStore.exact_max_rows` rows it is exact (``cosine_distance()`` over the
  user's rows, found through the (tenant, user_id) btree — a function call, so the planner
  cannot pick the HNSW index). Bigger scopes use HNSW with pgvector 0.8 iterative scans; those
  are best effort (bounded by ``hnsw.max_scan_tuples`` and memory), so a short page falls back
  to the exact query.
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
import json
import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from jiyi.core.models import HistoryEntry, MemoryItem, MemoryKind, Origin, Scope, Status
from jiyi.core.ports import ChangeSet, SearchFilter, Vector
from jiyi.errors import InvalidInputError, StorageUnavailableError
from jiyi.storage._pg_schema import HNSW_INDEX, MIGRATIONS
from jiyi.storage._rows import COLUMNS, check_types, decode_rows

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]
Cursor = psycopg.Cursor[tuple[Any, ...]]

_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
_MIGRATION_LOCK = "jiyi.migrations"
_COLS = ", ".join(COLUMNS)
_SELECT = "SELECT " + ", ".join(f"m.{c}" for c in COLUMNS) + " FROM {s}.memories m"
_TIMES = frozenset(
    {"created_at", "observed_at", "valid_from", "valid_to", "last_accessed_at", "expires_at"}
)
_JSON_DEFAULTS: dict[str, Any] = {"source_message_ids": [], "metadata": {}}
_ENUMS: dict[str, Any] = {"kind": MemoryKind, "origin": Origin, "status": Status}
_dumps = partial(json.dumps, ensure_ascii=False, default=str)


def _utc(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)  # naive means UTC, as in the SQLite store


def _to_row(m: MemoryItem) -> tuple[Any, ...]:
    data = m.model_dump(mode="python")
    out: list[Any] = []
    for col in COLUMNS:
        v = data[col]
        if col in _TIMES:
            v = _utc(v)
        elif col in _JSON_DEFAULTS:
            v = Jsonb(v, dumps=_dumps)
        elif hasattr(v, "value"):
            v = v.value
        out.append(v)
    return tuple(out)


def _from_row(row: Sequence[Any]) -> MemoryItem:
    data: dict[str, Any] = {}
    for col, v in zip(COLUMNS, row, strict=True):
        if col in _JSON_DEFAULTS and not v:
            v = type(_JSON_DEFAULTS[col])()
        elif col in _ENUMS:
            v = _ENUMS[col](v)
        data[col] = v
    check_types(data)  # raises ValueError: decode_rows skips the row
    return MemoryItem.model_construct(**data)


def _as_vector(value: Any) -> Vector:
    try:
        vec = np.ascontiguousarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"not a float vector: {exc}", field="vector") from exc
    if vec.ndim != 1 or vec.shape[0] == 0 or not np.isfinite(vec).all():
        raise InvalidInputError("a vector must be 1-D, non-empty and finite", field="vector")
    return vec


class PostgresMemoryStore:
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
        self._s = f'"{schema}"'
        self._timeout_ms = int(statement_timeout_ms)
        self._dim: int | None = None
        self._hnsw = hnsw_index
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

    def _q(self, sql: str) -> str:
        return sql.replace("{s}", self._s)

    def _configure(self, conn: Conn) -> None:
        register_vector(conn)
        conn.execute("SELECT set_config('statement_timeout', %s, false)", (str(self._timeout_ms),))
        conn.execute("SET TimeZone = 'UTC'")

    def _migrate(self, dsn: str, dim: int | None) -> None:
        """Apply pending migrations under a cluster-wide advisory lock (concurrent starts
        wait for each other, then see the work done)."""
        try:
            with (
                psycopg.connect(dsn, connect_timeout=10, autocommit=True) as conn,
                conn.transaction(),
                conn.cursor() as cur,
            ):
                self._run_migrations(cur, dim)
        except psycopg.Error as exc:
            raise StorageUnavailableError(
                f"cannot prepare the PostgreSQL schema {self.schema!r}: {exc}"
            ) from exc

    def _run_migrations(self, cur: Cursor, dim: int | None) -> None:
        cur.execute("SET LOCAL statement_timeout = 0")
        cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_MIGRATION_LOCK,))
        cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
        cur.execute(self._q("CREATE SCHEMA IF NOT EXISTS {s}"))
        cur.execute(
            self._q(
                "CREATE TABLE IF NOT EXISTS {s}.schema_migrations (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
        )
        cur.execute(self._q("SELECT version FROM {s}.schema_migrations"))
        done = {r[0] for r in cur.fetchall()}
        for version, name, ddl in MIGRATIONS:
            if version in done:
                continue
            log.info("migrating schema %s to version %d (%s)", self.schema, version, name)
            cur.execute(self._q(ddl))
            cur.execute(
                self._q("INSERT INTO {s}.schema_migrations (version, name) VALUES (%s, %s)"),
                (version, name),
            )
        if dim is not None:
            self._fix_dim(cur, dim)
        else:
            self._dim = self._read_dim(cur)

    def _read_dim(self, cur: Cursor) -> int | None:
        cur.execute(
            "SELECT atttypmod FROM pg_attribute WHERE attrelid = %s::regclass "
            "AND attname = 'embedding'",
            (f"{self._s}.memories",),
        )
        row = cur.fetchone()
        return int(row[0]) if row and row[0] > 0 else None

    def _fix_dim(self, cur: Cursor, dim: int) -> None:
        """Give the embedding column its dimension and HNSW index, once; later writers with
        another dimension are refused (their vectors would not be comparable)."""
        cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"jiyi.dim.{self.schema}",))
        current = self._read_dim(cur)
        if current is None:
            cur.execute(
                self._q(f"ALTER TABLE {{s}}.memories ALTER COLUMN embedding TYPE vector({dim})")
            )
            if self._hnsw:
                cur.execute(self._q(HNSW_INDEX))
            current = dim
        if current != dim:
            raise InvalidInputError(
                f"this store holds {current}-dim vectors, got {dim}: use the same embedder "
                "or another schema",
                field="vector",
            )
        self._dim = current

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

    def _scope_sql(self, scope: Scope, flt: SearchFilter | None) -> tuple[str, list[Any]]:
        sql = "m.tenant = %s AND m.user_id = %s"
        args: list[Any] = [scope.tenant, scope.user_id]
        if scope.agent_id is not None:
            sql += " AND (m.agent_id IS NULL OR m.agent_id = %s)"
            args.append(scope.agent_id)
        if flt is not None:
            if flt.statuses:
                sql += " AND m.status = ANY(%s)"
                args.append([s.value for s in flt.statuses])
            if flt.kinds:
                sql += " AND m.kind = ANY(%s)"
                args.append([k.value for k in flt.kinds])
            if flt.since is not None:
                sql += " AND m.observed_at >= %s"
                args.append(_utc(flt.since))
            if flt.until is not None:
                sql += " AND m.observed_at < %s"
                args.append(_utc(flt.until))
            if flt.min_importance is not None:
                sql += " AND m.importance >= %s"
                args.append(float(flt.min_importance))
        return sql, args

    # -- writes ---------------------------------------------------------------------------

    def apply(self, scope: Scope, changes: ChangeSet) -> None:
        for m in [i.memory for i in changes.upserts] + changes.updates:
            if m.tenant != scope.tenant or m.user_id != scope.user_id:
                raise InvalidInputError(
                    f"memory {m.id} belongs to another user than the write scope", field="user_id"
                )
        if not changes:
            return
        # Convert vectors before the transaction: a bad one must fail with nothing written.
        upserts = [
            (*_to_row(i.memory), i.keywords, None if i.vector is None else _as_vector(i.vector))
            for i in changes.upserts
        ]
        dims = {int(r[-1].shape[0]) for r in upserts if r[-1] is not None}
        if len(dims) > 1:
            raise InvalidInputError("vectors of one write differ in dimension", field="vector")
        with self._tx(scope.tenant) as cur:
            if dims and self._dim != (d := dims.pop()):
                self._fix_dim(cur, d)
            if upserts:
                sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in (*COLUMNS, "keywords", "embedding"))
                cur.executemany(
                    self._q(
                        f"INSERT INTO {{s}}.memories AS t ({_COLS}, keywords, embedding) "
                        f"VALUES ({', '.join(['%s'] * (len(COLUMNS) + 2))}) "
                        f"ON CONFLICT (id) DO UPDATE SET {sets} "
                        "WHERE t.tenant = EXCLUDED.tenant AND t.user_id = EXCLUDED.user_id"
                    ),
                    upserts,
                )
                if cur.rowcount < len(upserts):  # an id taken by another user: refuse all
                    raise InvalidInputError(
                        "a memory id already belongs to another user", field="id"
                    )
            if changes.updates:
                cur.executemany(
                    self._q(
                        f"UPDATE {{s}}.memories SET ({_COLS}) = "
                        f"({', '.join(['%s'] * len(COLUMNS))}) "
                        "WHERE id = %s AND tenant = %s AND user_id = %s"
                    ),
                    [(*_to_row(m), m.id, scope.tenant, scope.user_id) for m in changes.updates],
                )
            if changes.deletes:
                ids = list(dict.fromkeys(changes.deletes))
                cur.execute(
                    self._q(
                        "DELETE FROM {s}.memories WHERE tenant = %s AND user_id = %s "
                        "AND id = ANY(%s)"
                    ),
                    (scope.tenant, scope.user_id, ids),
                )
                # History keeps that something happened (id, action, hash), never what was said.
                cur.execute(
                    self._q(
                        "UPDATE {s}.history SET content = NULL, reason = NULL "
                        "WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s)"
                    ),
                    (scope.tenant, scope.user_id, ids),
                )
            if changes.messages:
                cur.executemany(
                    self._q(
                        "INSERT INTO {s}.messages_seen (tenant, user_id, message_id) "
                        "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
                    ),
                    [(scope.tenant, scope.user_id, i) for i in dict.fromkeys(changes.messages)],
                )
            if changes.history:
                cur.executemany(
                    self._q(
                        "INSERT INTO {s}.history (tenant, user_id, memory_id, action, at, "
                        "content, content_hash, version, related_id, reason) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    ),
                    [
                        (
                            scope.tenant,
                            scope.user_id,
                            h.memory_id,
                            h.action.value,
                            _utc(h.at),
                            h.content,
                            h.content_hash,
                            h.version,
                            h.related_id,
                            h.reason,
                        )
                        for h in changes.history
                    ],
                )

    def seen_messages(self, scope: Scope, message_ids: Sequence[str]) -> set[str]:
        if not message_ids:
            return set()
        rows = self._read(
            scope.tenant,
            self._q(
                "SELECT message_id FROM {s}.messages_seen WHERE tenant = %s AND user_id = %s "
                "AND message_id = ANY(%s)"
            ),
            (scope.tenant, scope.user_id, list(dict.fromkeys(message_ids))),
        )
        return {str(r[0]) for r in rows}

    def touch(self, scope: Scope, memory_ids: Sequence[str], at: datetime) -> None:
        if not memory_ids:
            return
        try:
            with self._tx(scope.tenant) as cur:
                cur.execute(
                    self._q(
                        "UPDATE {s}.memories SET last_accessed_at = %s, "
                        "access_count = access_count + 1 "
                        "WHERE tenant = %s AND user_id = %s AND id = ANY(%s)"
                    ),
                    (_utc(at), scope.tenant, scope.user_id, list(memory_ids)),
                )
        except (StorageUnavailableError, InvalidInputError) as exc:  # bookkeeping only
            log.warning("could not record access: %s", exc)

    def delete_user(self, scope: Scope) -> dict[str, int]:
        args = (scope.tenant, scope.user_id)
        with self._tx(scope.tenant) as cur:
            cur.execute(
                self._q(
                    "WITH d AS (DELETE FROM {s}.memories WHERE tenant = %s AND user_id = %s "
                    "RETURNING embedding IS NOT NULL AS has_vector) "
                    "SELECT count(*), count(*) FILTER (WHERE has_vector) FROM d"
                ),
                args,
            )
            memories, vectors = cur.fetchone() or (0, 0)
            cur.execute(self._q("DELETE FROM {s}.history WHERE tenant = %s AND user_id = %s"), args)
            history = cur.rowcount
            cur.execute(
                self._q("DELETE FROM {s}.messages_seen WHERE tenant = %s AND user_id = %s"), args
            )
            seen = cur.rowcount
        return {
            "memories": int(memories),
            "keyword_index": int(memories),  # the tsvector lives in the row
            "vectors": int(vectors),
            "history": int(history),
            "message_ids": int(seen),
        }

    # -- reads ----------------------------------------------------------------------------

    def _read(self, tenant: str, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self._tx(tenant) as cur:
            cur.execute(self._q(sql), args)
            return cur.fetchall()

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        rows = self._read(
            tenant, f"{_SELECT} WHERE m.id = %s AND m.tenant = %s", [memory_id, tenant]
        )
        found = decode_rows(rows, _from_row, "memories")
        return found[0] if found else None

    def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        if not memory_ids:
            return []
        where, args = self._scope_sql(scope, None)
        ids = list(dict.fromkeys(memory_ids))
        rows = self._read(scope.tenant, f"{_SELECT} WHERE m.id = ANY(%s) AND {where}", [ids, *args])
        found = {item.id: item for item in decode_rows(rows, _from_row, "memories")}
        return [found[i] for i in ids if i in found]

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        where, args = self._scope_sql(scope, flt)
        if topic is not None:
            where += " AND m.topic = %s"
            args.append(topic)
        sql = f'{_SELECT} WHERE {where} ORDER BY m.id COLLATE "C"'  # byte order, as in SQLite
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return decode_rows(self._read(scope.tenant, sql, args), _from_row, "memories")

    def keyword_search(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        terms = [t for t in terms if t.strip()]
        if not terms:
            return []
        where, args = self._scope_sql(scope, flt)
        # One plainto_tsquery per term, OR-ed: user text is only ever a bound parameter and
        # tsquery operators in it are plain characters.
        query = " || ".join(["plainto_tsquery('{s}.jiyi_text'::regconfig, %s)"] * len(terms))
        # ts_rank_cd counts every occurrence; flag 1 divides by log(length) like BM25's
        # length normalisation.
        rows = self._read(
            scope.tenant,
            f"SELECT m.id, ts_rank_cd(m.tsv, k.q, 1) AS r FROM {{s}}.memories m, "
            f"(SELECT {query} AS q) AS k WHERE m.tsv @@ k.q AND {where} "
            'ORDER BY r DESC, m.id COLLATE "C" LIMIT %s',
            [*terms, *args, limit],
        )
        return [(r[0], float(r[1])) for r in rows]

    def vector_search(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        q = _as_vector(query)
        if limit <= 0:
            return []
        where, args = self._scope_sql(scope, flt)
        where += " AND m.embedding IS NOT NULL"
        exact = (
            f"SELECT m.id, 1 - cosine_distance(m.embedding, %s) AS sim FROM {{s}}.memories m "
            f'WHERE {where} ORDER BY sim DESC, m.id COLLATE "C" LIMIT %s'
        )
        with self._tx(scope.tenant) as cur:
            if self._dim is None:
                self._dim = self._read_dim(cur)
                if self._dim is None:
                    return []  # no vector was ever written
            if q.shape[0] != self._dim:
                raise InvalidInputError(
                    f"query has {q.shape[0]} dims, the store holds {self._dim}", field="vector"
                )
            cur.execute(
                self._q(
                    "SELECT count(*) FROM (SELECT 1 FROM {s}.memories "
                    "WHERE tenant = %s AND user_id = %s LIMIT %s) c"
                ),
                (scope.tenant, scope.user_id, self.exact_max_rows),
            )
            row = cur.fetchone()
            if row is not None and row[0] >= self.exact_max_rows:
                # Iterative scans keep walking the graph until enough rows pass the filter;
                # relaxed order may return them slightly out of order, so sort again.
                cur.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
                cur.execute(
                    "SELECT set_config('hnsw.ef_search', %s, true)", (str(max(64, 2 * limit)),)
                )
                cur.execute(
                    self._q(
                        "SELECT id, 1 - d AS sim FROM (SELECT m.id, m.embedding <=> %s AS d "
                        f"FROM {{s}}.memories m WHERE {where} ORDER BY m.embedding <=> %s "
                        'LIMIT %s) a ORDER BY d, id COLLATE "C"'
                    ),
                    [q, *args, q, limit],
                )
                hits = cur.fetchall()
                if len(hits) >= limit:
                    return [(r[0], float(r[1])) for r in hits]
                # Fewer than asked: the scan may have given up early; be exact instead.
            cur.execute(self._q(exact), [q, *args, limit])
            return [(r[0], float(r[1])) for r in cur.fetchall()]

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        rows = self._read(
            tenant,
            "SELECT hid, memory_id, action, at, content, content_hash, version, related_id, "
            "reason FROM {s}.history WHERE tenant = %s AND memory_id = %s ORDER BY hid",
            (tenant, memory_id),
        )
        return decode_rows(
            rows,
            lambda r: HistoryEntry(
                id=r[0],
                memory_id=r[1],
                action=r[2],
                at=r[3],
                content=r[4],
                content_hash=r[5],
                version=r[6],
                related_id=r[7],
                reason=r[8],
            ),
            "history",
        )

    # -- lifecycle ------------------------------------------------------------------------

    def drop_schema(self) -> None:
        """Drop this store's schema and everything in it (tests, benchmarks)."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SET LOCAL statement_timeout = 0")
                conn.execute(self._q("DROP SCHEMA IF EXISTS {s} CASCADE"))
        except psycopg.Error as exc:
            raise StorageUnavailableError(f"cannot drop schema {self.schema!r}: {exc}") from exc
        self._dim = None

    def close(self) -> None:
        self._pool.close()
