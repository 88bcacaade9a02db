"""Embedded backend: one SQLite file (WAL) holding memories, an FTS5 keyword index, vectors
as float32 BLOBs and the history table.

Why this shape:
- One transaction per :class:`ChangeSet` (``BEGIN IMMEDIATE``) keeps row, keyword index and
  vector in step; a crash leaves either all of a write or none of it.
- The FTS5 table carries a per-user scope token in its own column, so a keyword query reads
  only that user's postings instead of filtering the whole corpus afterwards.
- Vector search is exact: a per-user float32 matrix cached in memory and rebuilt from the
  table when that user's ``scope_versions`` row changes (any process bumps it inside its
  write transaction). At 10k vectors × 384 dims a matrix product costs ~1 ms, and exactness
  means a small user among many never loses results to an approximate index.
- Hard deletes must leave nothing readable behind: ``secure_delete`` zeroes freed pages, the
  FTS index is merged (``optimize``) so no segment keeps the deleted terms, and the WAL is
  checkpointed and truncated.
"""

from __future__ import annotations

import builtins
import hashlib
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from jiyi.core.models import HistoryEntry, MemoryItem, Scope
from jiyi.core.ports import ChangeSet, SearchFilter, Vector
from jiyi.errors import InvalidInputError, StorageUnavailableError
from jiyi.storage._rows import COLUMNS, decode_rows, from_row, parse_ts, to_row, ts
from jiyi.storage._scope_cache import ScopeCache
from jiyi.storage._vectors import top_k_cosine

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
# Rows (with their vectors) kept in memory across all cached users, least recently used user
# dropped first; ~200k rows is a few hundred MB. The user being read always stays.
MAX_CACHED_ROWS = 200_000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT,
    kind TEXT NOT NULL, topic TEXT, content TEXT NOT NULL,
    importance REAL NOT NULL, confidence REAL NOT NULL, origin TEXT NOT NULL,
    source_message_ids TEXT NOT NULL, session_id TEXT, quote TEXT,
    created_at TEXT NOT NULL, observed_at TEXT NOT NULL, valid_from TEXT, valid_to TEXT,
    last_accessed_at TEXT, access_count INTEGER NOT NULL DEFAULT 0, expires_at TEXT,
    status TEXT NOT NULL, superseded_by TEXT, version INTEGER NOT NULL, metadata TEXT NOT NULL,
    value TEXT
);
CREATE INDEX IF NOT EXISTS ix_memories_scope ON memories(tenant, user_id, status, kind);
CREATE INDEX IF NOT EXISTS ix_memories_topic ON memories(tenant, user_id, topic);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(
    scope, tokens, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS vectors (
    pk INTEGER PRIMARY KEY REFERENCES memories(pk) ON DELETE CASCADE,
    dim INTEGER NOT NULL, vec BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
    hid INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, memory_id TEXT NOT NULL,
    action TEXT NOT NULL, at TEXT NOT NULL, content TEXT, content_hash TEXT NOT NULL,
    version INTEGER NOT NULL, related_id TEXT, reason TEXT
);
CREATE INDEX IF NOT EXISTS ix_history_memory ON history(tenant, user_id, memory_id);
CREATE TABLE IF NOT EXISTS messages_seen (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, message_id TEXT NOT NULL,
    PRIMARY KEY (tenant, user_id, message_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scope_versions (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, version INTEGER NOT NULL,
    PRIMARY KEY (tenant, user_id)
);
"""
# Applied in order to files written by an older version (``PRAGMA user_version``).
_MIGRATIONS: dict[int, str] = {2: "ALTER TABLE memories ADD COLUMN value TEXT"}
_SELECT = "SELECT " + ", ".join(f"m.{c}" for c in COLUMNS) + " FROM memories m"
_PLACEHOLDERS = ", ".join("?" for _ in COLUMNS)


def scope_token(tenant: str, user_id: str) -> str:
    """An opaque FTS token naming one user (hashing keeps ids out of the term list)."""
    return "u" + hashlib.blake2b(f"{tenant}\x1f{user_id}".encode(), digest_size=10).hexdigest()


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _fts_query(token: str, terms: Sequence[str]) -> str:
    quoted = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    return f'scope : "{token}" AND tokens : ({quoted})'


class SqliteMemoryStore:
    """:class:`~jiyi.core.ports.MemoryStore` on one SQLite file.

    Thread-safe: one connection guarded by a lock (SQLite serialises writers anyway); other
    processes may open the same file, WAL lets their reads proceed during a write.
    """

    def __init__(self, path: str | Path, *, timeout: float = 10.0) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA secure_delete=ON")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._migrate()
        except sqlite3.Error as exc:
            raise StorageUnavailableError(
                f"cannot open the SQLite store at {self.path}: {exc}", field="path"
            ) from exc
        self._lock = threading.RLock()
        # Per-user rows + vectors for the read path, least recently used dropped first.
        self._caches: OrderedDict[tuple[str, str], ScopeCache] = OrderedDict()

    # -- plumbing -------------------------------------------------------------------------

    def _migrate(self) -> None:
        """Bring a file written by an older jiyi up to SCHEMA_VERSION. A new file already has
        every column (CREATE TABLE is current), so only the version number is set."""
        current = self._db.execute("PRAGMA user_version").fetchone()[0]
        if current >= SCHEMA_VERSION:
            return
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(memories)")}
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for version in sorted(_MIGRATIONS):
                if version > current and "value" not in columns:
                    self._db.execute(_MIGRATIONS[version])
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StorageUnavailableError(
                    f"the SQLite store at {self.path} is locked by another writer: {exc}"
                ) from exc
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                try:
                    self._db.execute("COMMIT")
                except sqlite3.Error as exc:
                    self._db.execute("ROLLBACK")
                    raise StorageUnavailableError(f"commit failed: {exc}") from exc

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.OperationalError as exc:
                if "decode" not in str(exc):
                    raise StorageUnavailableError(f"SQLite read failed: {exc}") from exc
            # A TEXT value that is not UTF-8 (written by another tool) fails the whole
            # query; read it again with such bytes replaced (U+FFFD). Only on this rare
            # path: a Python text factory on every read would slow the scope cache down.
            log.warning("SQLite returned text that is not UTF-8; reading it with replacement")
            self._db.text_factory = _lenient_text
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.OperationalError as exc:
                raise StorageUnavailableError(f"SQLite read failed: {exc}") from exc
            finally:
                self._db.text_factory = str

    @staticmethod
    def _scope_sql(scope: Scope, flt: SearchFilter | None) -> tuple[str, list[Any]]:
        sql = "m.tenant = ? AND m.user_id = ?"
        args: list[Any] = [scope.tenant, scope.user_id]
        if scope.agent_id is not None:
            sql += " AND (m.agent_id IS NULL OR m.agent_id = ?)"
            args.append(scope.agent_id)
        if flt is not None:
            if flt.statuses:
                sql += f" AND m.status IN ({','.join('?' * len(flt.statuses))})"
                args += [s.value for s in flt.statuses]
            if flt.kinds:
                sql += f" AND m.kind IN ({','.join('?' * len(flt.kinds))})"
                args += [k.value for k in flt.kinds]
            if flt.since is not None:
                sql += " AND m.observed_at >= ?"
                args.append(ts(flt.since))
            if flt.until is not None:
                sql += " AND m.observed_at < ?"
                args.append(ts(flt.until))
            if flt.min_importance is not None:
                sql += " AND m.importance >= ?"
                args.append(flt.min_importance)
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
        token = scope_token(scope.tenant, scope.user_id)
        with self._tx() as db:
            for item in changes.upserts:
                m = item.memory
                row = db.execute("SELECT pk FROM memories WHERE id = ?", (m.id,)).fetchone()
                if row is not None:
                    pk = row[0]
                    db.execute("DELETE FROM memory_fts WHERE rowid = ?", (pk,))
                    db.execute("DELETE FROM vectors WHERE pk = ?", (pk,))
                    db.execute(
                        f"UPDATE memories SET ({', '.join(COLUMNS)}) = ({_PLACEHOLDERS}) "
                        "WHERE pk = ?",
                        (*to_row(m), pk),
                    )
                else:
                    cur = db.execute(
                        f"INSERT INTO memories ({', '.join(COLUMNS)}) VALUES ({_PLACEHOLDERS})",
                        to_row(m),
                    )
                    pk = cur.lastrowid
                db.execute(
                    "INSERT INTO memory_fts (rowid, scope, tokens) VALUES (?, ?, ?)",
                    (pk, token, item.keywords),
                )
                if item.vector is not None:
                    vec = np.ascontiguousarray(item.vector, dtype=np.float32)
                    db.execute(
                        "INSERT INTO vectors (pk, dim, vec) VALUES (?, ?, ?)",
                        (pk, int(vec.shape[0]), vec.tobytes()),
                    )
            for m in changes.updates:
                db.execute(
                    f"UPDATE memories SET ({', '.join(COLUMNS)}) = ({_PLACEHOLDERS}) "
                    "WHERE id = ? AND tenant = ? AND user_id = ?",
                    (*to_row(m), m.id, scope.tenant, scope.user_id),
                )
            for memory_id in changes.deletes:
                self._hard_delete(db, scope, memory_id)
            for h in changes.history:
                db.execute(
                    "INSERT INTO history (tenant, user_id, memory_id, action, at, content, "
                    "content_hash, version, related_id, reason) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        scope.tenant,
                        scope.user_id,
                        h.memory_id,
                        h.action.value,
                        ts(h.at),
                        h.content,
                        h.content_hash,
                        h.version,
                        h.related_id,
                        h.reason,
                    ),
                )
            db.executemany(
                "INSERT OR IGNORE INTO messages_seen (tenant, user_id, message_id) VALUES (?,?,?)",
                [(scope.tenant, scope.user_id, i) for i in dict.fromkeys(changes.messages)],
            )
            if changes.deletes:
                # Merge FTS segments so no older segment still lists the deleted terms.
                db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
            version = self._bump(db, scope)
            # Still inside the write lock: no other write of this process can interleave.
            key = (scope.tenant, scope.user_id)
            cached = self._caches.get(key)
            if cached is not None and not (
                cached.version == version - 1 and cached.patch(changes, version)
            ):
                self._caches.pop(key, None)
        if changes.deletes:
            self._checkpoint()

    def _hard_delete(self, db: sqlite3.Connection, scope: Scope, memory_id: str) -> None:
        row = db.execute(
            "SELECT pk FROM memories WHERE id = ? AND tenant = ? AND user_id = ?",
            (memory_id, scope.tenant, scope.user_id),
        ).fetchone()
        if row is not None:
            db.execute("DELETE FROM memory_fts WHERE rowid = ?", (row[0],))
            db.execute("DELETE FROM vectors WHERE pk = ?", (row[0],))
            db.execute("DELETE FROM memories WHERE pk = ?", (row[0],))
        # History keeps that something happened (id, action, hash), never what was said.
        db.execute(
            "UPDATE history SET content = NULL, reason = NULL "
            "WHERE tenant = ? AND user_id = ? AND memory_id = ?",
            (scope.tenant, scope.user_id, memory_id),
        )

    def _bump(self, db: sqlite3.Connection, scope: Scope) -> int:
        # A user's first version is random, not 1: delete_user drops the row, and a user
        # deleted and written again by another process must never come back at a version
        # this process still has cached (it would serve the deleted rows: "forget me" undone).
        row = db.execute(
            "INSERT INTO scope_versions (tenant, user_id, version) "
            "VALUES (?, ?, abs(random() % 1099511627776) + 1) "
            "ON CONFLICT (tenant, user_id) DO UPDATE SET version = version + 1 RETURNING version",
            (scope.tenant, scope.user_id),
        ).fetchone()
        return int(row[0])

    def _checkpoint(self) -> None:
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError as exc:  # a reader elsewhere holds the WAL
                log.warning("WAL checkpoint after delete deferred: %s", exc)

    def seen_messages(self, scope: Scope, message_ids: Sequence[str]) -> set[str]:
        ids = list(dict.fromkeys(message_ids))
        found: set[str] = set()
        for start in range(0, len(ids), 500):  # SQLite caps bound parameters
            chunk = ids[start : start + 500]
            rows = self._read(
                "SELECT message_id FROM messages_seen WHERE tenant = ? AND user_id = ? "
                f"AND message_id IN ({','.join('?' * len(chunk))})",
                [scope.tenant, scope.user_id, *chunk],
            )
            found.update(r[0] for r in rows)
        return found

    def touch(self, scope: Scope, memory_ids: Sequence[str], at: datetime) -> None:
        if not memory_ids:
            return
        marks = ",".join("?" * len(memory_ids))
        try:
            with self._tx() as db:
                db.execute(
                    f"UPDATE memories SET last_accessed_at = ?, access_count = access_count + 1 "
                    f"WHERE tenant = ? AND user_id = ? AND id IN ({marks})",
                    (ts(at), scope.tenant, scope.user_id, *memory_ids),
                )
        except StorageUnavailableError as exc:  # reads must not fail on bookkeeping
            log.warning("could not record access: %s", exc)
            return
        with self._lock:
            cached = self._caches.get((scope.tenant, scope.user_id))
            if cached is not None:
                cached.touch(memory_ids, at)

    def delete_user(self, scope: Scope) -> dict[str, int]:
        args = (scope.tenant, scope.user_id)
        with self._tx() as db:
            pks = [
                r[0]
                for r in db.execute(
                    "SELECT pk FROM memories WHERE tenant = ? AND user_id = ?", args
                )
            ]
            for pk in pks:
                db.execute("DELETE FROM memory_fts WHERE rowid = ?", (pk,))
            vectors = db.execute(
                "DELETE FROM vectors WHERE pk IN "
                "(SELECT pk FROM memories WHERE tenant = ? AND user_id = ?)",
                args,
            ).rowcount
            memories = db.execute(
                "DELETE FROM memories WHERE tenant = ? AND user_id = ?", args
            ).rowcount
            history = db.execute(
                "DELETE FROM history WHERE tenant = ? AND user_id = ?", args
            ).rowcount
            seen = db.execute(
                "DELETE FROM messages_seen WHERE tenant = ? AND user_id = ?", args
            ).rowcount
            db.execute("DELETE FROM scope_versions WHERE tenant = ? AND user_id = ?", args)
            db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
        self._caches.pop((scope.tenant, scope.user_id), None)
        self._checkpoint()
        return {
            "memories": memories,
            "keyword_index": len(pks),
            "vectors": vectors,
            "history": history,
            "message_ids": seen,
        }

    # -- reads ----------------------------------------------------------------------------

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        rows = self._read(f"{_SELECT} WHERE m.id = ? AND m.tenant = ?", [memory_id, tenant])
        found = decode_rows(rows, from_row, "memories")
        return found[0] if found else None

    def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        if not memory_ids:
            return []
        cached = self._cache(scope)
        return [] if cached is None else cached.visible(scope, memory_ids)

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        where, args = self._scope_sql(scope, flt)
        if topic is not None:
            where += " AND m.topic = ?"
            args.append(topic)
        sql = f"{_SELECT} WHERE {where} ORDER BY m.id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return decode_rows(self._read(sql, args), from_row, "memories")

    def keyword_search(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        if not terms:
            return []
        where, args = self._scope_sql(scope, flt)
        match = _fts_query(scope_token(scope.tenant, scope.user_id), terms)
        # Rank inside FTS first and join only the best few hundred rows: joining every match
        # before sorting cost ~30% more at 10k memories. If the filters then leave fewer than
        # ``limit`` rows although FTS had more, rank over all matches instead (exact).
        # Column weights: the scope column must not contribute to the rank.
        inner = 4 * limit
        rows = self._read(
            "SELECT m.id, f.r FROM (SELECT rowid, bm25(memory_fts, 0.0, 1.0) AS r "
            "FROM memory_fts WHERE memory_fts MATCH ? ORDER BY r LIMIT ?) f "
            f"JOIN memories m ON m.pk = f.rowid WHERE {where} ORDER BY f.r LIMIT ?",
            [match, inner, *args, limit],
        )
        if len(rows) < limit:
            total = self._read("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", [match])[
                0
            ][0]
            if total > inner:
                rows = self._read(
                    "SELECT m.id, bm25(memory_fts, 0.0, 1.0) AS r FROM memory_fts "
                    "JOIN memories m ON m.pk = memory_fts.rowid "
                    f"WHERE memory_fts MATCH ? AND {where} ORDER BY r LIMIT ?",
                    [match, *args, limit],
                )
        return [(r[0], -float(r[1])) for r in rows]

    def vector_search(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        cached = self._cache(scope)
        if cached is None or cached.mat is None:
            return []
        mask = cached.mask(scope, flt)
        return [(cached.ids[i], s) for i, s in top_k_cosine(cached.mat, query, mask, limit)]

    def _cache(self, scope: Scope) -> ScopeCache | None:
        """The scope's cache, reloaded if any process wrote to the scope since it was built."""
        key = (scope.tenant, scope.user_id)
        with self._lock:
            row = self._read(
                "SELECT version FROM scope_versions WHERE tenant = ? AND user_id = ?", key
            )
            version = row[0][0] if row else 0
            cached = self._caches.get(key)
            if cached is not None and cached.version == version:
                self._caches.move_to_end(key)
                return cached
            rows = self._read(
                f"SELECT {', '.join(f'm.{c}' for c in COLUMNS)}, v.vec FROM memories m "
                "LEFT JOIN vectors v ON v.pk = m.pk WHERE m.tenant = ? AND m.user_id = ? "
                "ORDER BY m.pk",
                key,
            )
            if not rows:
                self._caches.pop(key, None)
                return None
            items = decode_rows(rows, lambda r: (from_row(r[:-1]), r[-1]), "memories")
            built = ScopeCache.build(version, items)
            self._caches[key] = built
            total = sum(len(c.rows) for c in self._caches.values())
            while total > MAX_CACHED_ROWS and len(self._caches) > 1:
                _, dropped = self._caches.popitem(last=False)
                total -= len(dropped.rows)
            return built

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        rows = self._read(
            "SELECT hid, memory_id, action, at, content, content_hash, version, related_id, "
            "reason FROM history WHERE tenant = ? AND memory_id = ? ORDER BY hid",
            (tenant, memory_id),
        )
        return decode_rows(
            rows,
            lambda r: HistoryEntry(
                id=r[0],
                memory_id=r[1],
                action=r[2],
                at=parse_ts(r[3]),
                content=r[4],
                content_hash=r[5],
                version=r[6],
                related_id=r[7],
                reason=r[8],
            ),
            "history",
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()
