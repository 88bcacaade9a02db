"""Embedded backend: one SQLite file (WAL) holding memories, an FTS5 keyword index, vectors
as float32 BLOBs and the history table.

Why this shape:
- One transaction per :class:`ChangeSet` (``BEGIN IMMEDIATE``) keeps row, keyword index and
  vector in step; a crash leaves either all of a write or none of it.
- The statements shared with PostgreSQL (row codec, scope ``WHERE``, write checks, history)
  are in ``_sql.py`` and ``_sql_reads.py``; FTS5 search and the per-user scope caches in
  ``sqlite_search.py``; the tables and migrations in ``_sqlite_schema.py``.
- Hard deletes must leave nothing readable behind: ``secure_delete`` zeroes freed pages, the
  FTS index is merged (``optimize``) so no segment keeps the deleted terms, and the WAL is
  checkpointed and truncated.
"""

from __future__ import annotations

import builtins
import logging
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from jiyi.core.models import HistoryEntry, MemoryItem, Scope
from jiyi.core.ports import (
    ChangeSet,
    Indexed,
    SearchFilter,
    SqlWrite,
    UserSummary,
    Vector,
)
from jiyi.errors import StorageUnavailableError
from jiyi.storage import _sql, _sql_reads
from jiyi.storage._filters import list_users
from jiyi.storage._identity import merge_shared_rows
from jiyi.storage._rows import COLUMNS
from jiyi.storage._sql import SQLITE, Run
from jiyi.storage._sqlite_schema import SCHEMA_VERSION, create_or_migrate
from jiyi.storage._tier import UserTierStores
from jiyi.storage._vectors import check_dim, checked_vectors
from jiyi.storage.sqlite_search import SqliteSearch, scope_token
from jiyi.storage.sqlite_transfer import indexed_rows, merge_memories

__all__ = ["SCHEMA_VERSION", "SqliteMemoryStore", "scope_token"]

log = logging.getLogger(__name__)

_COLUMNS = f"({_sql.COLUMN_LIST})"
_VALUES = f"({', '.join('?' * len(COLUMNS))})"


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _runner(db: sqlite3.Connection) -> Run:
    return lambda sql, args: db.execute(sql, args).fetchall()


class SqliteMemoryStore(UserTierStores):
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
            create_or_migrate(self._db)
            # The dimension of the vectors held (all share one, as in PostgreSQL's column).
            row = self._db.execute("SELECT dim FROM vectors LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            raise StorageUnavailableError(
                f"cannot open the SQLite store at {self.path}: {exc}", field="path"
            ) from exc
        self._dim: int | None = None if row is None else int(row[0])
        self._lock = threading.RLock()
        self._search = SqliteSearch(self._read, self._lock)
        self._build_user_tier(
            SQLITE, self._user_tx, lambda _tenant: self._read, after_delete=self._checkpoint
        )

    # -- plumbing -------------------------------------------------------------------------

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

    @contextmanager
    def _user_tx(self, tenant: str) -> Iterator[Run]:
        """A write transaction for the user tier (one file: the tenant is in every row)."""
        with self._tx() as db:
            yield _runner(db)

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

    # -- writes ---------------------------------------------------------------------------

    def apply(self, scope: Scope, changes: ChangeSet) -> None:
        self.import_user(scope, changes, ())

    def import_user(self, scope: Scope, changes: ChangeSet, writes: Sequence[SqlWrite]) -> None:
        checked = _sql.check_write(scope, changes)
        if not changes and not writes:
            return
        token = scope_token(scope.tenant, scope.user_id)
        with self._tx() as db:
            run = _runner(db)
            _sql.refuse_foreign_ids(run, SQLITE, scope, changes)
            if checked.dim is not None:
                self._hold_dim(db, checked.dim)
            for item, vec in zip(changes.upserts, checked.vectors, strict=True):
                row = _sql.to_row(SQLITE, item.memory)
                # By id alone: an existing id is this scope's (refuse_foreign_ids above).
                old = db.execute("SELECT pk FROM memories WHERE id = ?", (row[0],)).fetchone()
                if old is not None:
                    pk = old[0]
                    db.execute("DELETE FROM memory_fts WHERE rowid = ?", (pk,))
                    db.execute("DELETE FROM vectors WHERE pk = ?", (pk,))
                    db.execute(
                        f"UPDATE memories SET {_COLUMNS} = {_VALUES} WHERE pk = ?", (*row, pk)
                    )
                else:
                    pk = db.execute(
                        f"INSERT INTO memories {_COLUMNS} VALUES {_VALUES}", row
                    ).lastrowid
                db.execute(
                    "INSERT INTO memory_fts (rowid, scope, tokens) VALUES (?, ?, ?)",
                    (pk, token, item.keywords),
                )
                if vec is not None:
                    db.execute(
                        "INSERT INTO vectors (pk, dim, vec, embedder) VALUES (?, ?, ?, ?)",
                        (pk, int(vec.shape[0]), vec.tobytes(), changes.embedder),
                    )
            if changes.updates:
                db.executemany(*_sql.update_rows(SQLITE, scope, changes.updates))
            if changes.deletes:
                self._hard_delete(db, scope, changes.deletes)
            if changes.history:
                db.executemany(*_sql.insert_history(SQLITE, scope, changes.history))
            if changes.messages:
                db.executemany(*_sql.record_messages(SQLITE, scope, changes.messages))
            if changes.deletes:
                # Merge FTS segments so no older segment still lists the deleted terms.
                db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
            for write in writes:
                write(run, SQLITE)
            version = self._bump(db, scope)
            # Still inside the write lock: no other write of this process can interleave.
            self._search.after_write(scope, changes, version)
        if changes.deletes:
            self._checkpoint()

    def merge_users(self, tenant: str, source: str, target: str) -> dict[str, int]:
        src, dst = Scope(tenant=tenant, user_id=source), Scope(tenant=tenant, user_id=target)
        with self._tx() as db:
            counts = merge_memories(_runner(db), tenant, source, target)
            counts |= merge_shared_rows(_runner(db), SQLITE, tenant, source, target)
            db.execute(
                "DELETE FROM scope_versions WHERE tenant = ? AND user_id = ?", (tenant, source)
            )
            self._bump(db, dst)
            self._search.forget(src)
            self._search.forget(dst)
        return counts

    def indexed(self, tenant: str, user_id: str) -> builtins.list[Indexed]:
        return indexed_rows(self._read, tenant, user_id)

    def _hold_dim(self, db: sqlite3.Connection, dim: int) -> None:
        """Refuse vectors of another dimension than those stored (re-read inside the write
        transaction: another process may have written the first ones)."""
        if self._dim != dim:
            row = db.execute("SELECT dim FROM vectors LIMIT 1").fetchone()
            self._dim = None if row is None else int(row[0])
            check_dim(self._dim, dim)
            self._dim = dim

    def _hard_delete(self, db: sqlite3.Connection, scope: Scope, memory_ids: Sequence[str]) -> None:
        for memory_id in dict.fromkeys(memory_ids):
            row = db.execute(
                "SELECT pk FROM memories WHERE id = ? AND tenant = ? AND user_id = ?",
                (memory_id, scope.tenant, scope.user_id),
            ).fetchone()
            if row is not None:
                db.execute("DELETE FROM memory_fts WHERE rowid = ?", (row[0],))
                db.execute("DELETE FROM vectors WHERE pk = ?", (row[0],))
                db.execute("DELETE FROM memories WHERE pk = ?", (row[0],))
        _sql.erase_history(_runner(db), SQLITE, scope, memory_ids)

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

    def touch(self, scope: Scope, counts: Mapping[str, int], at: datetime) -> None:
        sql, rows = _sql.touch_rows(SQLITE, scope, counts, at)
        if not rows:
            return
        try:
            with self._tx() as db:
                db.executemany(sql, rows)
        except (StorageUnavailableError, sqlite3.Error) as exc:  # reads must not fail on it
            log.warning("could not record access: %s", exc)
            return
        self._search.after_touch(scope, counts, at)

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
            with self._tx() as db:
                changed = _sql.reinforce_rows(
                    _runner(db), SQLITE, scope, memory_ids, at, step=step, cap=cap, every=every
                )
                if changed:  # importance is searchable (min_importance): a real write
                    self._bump(db, scope)
        except (StorageUnavailableError, sqlite3.Error) as exc:  # reads must not fail on it
            log.warning("could not record reinforcement: %s", exc)
            return []
        if changed:
            self._search.forget(scope)
        return changed

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
            counts = _sql.delete_user_rows(_runner(db), SQLITE, scope)
            db.execute("DELETE FROM scope_versions WHERE tenant = ? AND user_id = ?", args)
            db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
        self._search.forget(scope)
        self._checkpoint()
        return {"memories": memories, "keyword_index": len(pks), "vectors": vectors, **counts}

    # -- the vector ledger (embedding backfill) ---------------------------------------------

    def stale_vectors(self, scope: Scope, embedder: str, *, limit: int) -> builtins.list[str]:
        where, args = _sql.scope_where(SQLITE, scope)
        return [
            r[0]
            for r in self._read(
                "SELECT m.id FROM memories m JOIN vectors v ON v.pk = m.pk "
                f"WHERE {where} AND (v.embedder IS NULL OR v.embedder != ?) "
                "ORDER BY m.id LIMIT ?",
                [*args, embedder, limit],
            )
        ]

    def set_vectors(self, scope: Scope, vectors: Mapping[str, Vector], embedder: str) -> int:
        checked = checked_vectors(vectors)
        if not checked:
            return 0
        changed = 0
        with self._tx() as db:
            self._hold_dim(db, next(int(v.shape[0]) for v in checked.values()))
            for memory_id, vec in checked.items():
                changed += db.execute(
                    "UPDATE vectors SET dim = ?, vec = ?, embedder = ? WHERE pk = (SELECT pk "
                    "FROM memories WHERE id = ? AND tenant = ? AND user_id = ?)",
                    (
                        int(vec.shape[0]),
                        vec.tobytes(),
                        embedder,
                        memory_id,
                        scope.tenant,
                        scope.user_id,
                    ),
                ).rowcount
            if changed:
                self._bump(db, scope)
        if changed:
            self._search.forget(scope)  # the matrix rows changed: rebuild on the next read
        return changed

    # -- reads ----------------------------------------------------------------------------

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        return _sql_reads.get_memory(self._read, SQLITE, tenant, memory_id)

    def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        return self._search.visible(scope, memory_ids)

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        return _sql_reads.list_memories(self._read, SQLITE, scope, flt, topic, limit)

    def keyword_search(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        return self._search.keyword(scope, terms, flt, limit)

    def vector_search(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        return self._search.vectors(scope, query, flt, limit, self._dim)

    def seen_messages(self, scope: Scope, message_ids: Sequence[str]) -> set[str]:
        return _sql_reads.seen_messages(self._read, SQLITE, scope, message_ids)

    def users(
        self, tenant: str, *, after: str | None = None, limit: int = 100
    ) -> builtins.list[UserSummary]:
        return list_users(self._read, SQLITE, tenant, after, limit)

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        return _sql_reads.read_history(self._read, SQLITE, tenant, memory_id)

    def close(self) -> None:
        with self._lock:
            self._db.close()
