"""The embedded store's read path: FTS5 keyword search inside one user's postings, and the
per-user scope caches behind ``get_many`` and exact vector search.

- The FTS5 table carries a per-user scope token in its own column, so a keyword query reads
  only that user's postings instead of filtering the whole corpus afterwards.
- Vector search is exact over the user's float32 matrix, cached with the user's rows and
  rebuilt when the user's ``scope_versions`` row changes (any process bumps it inside its
  write transaction). At 10k vectors × 384 dims a matrix product costs ~1 ms, and exactness
  means a small user among many never loses results to an approximate index.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime

from jiyi.core.models import MemoryItem, Scope
from jiyi.core.ports import ChangeSet, SearchFilter, Vector
from jiyi.storage._rows import COLUMNS, decode_rows
from jiyi.storage._scope_cache import ScopeCache
from jiyi.storage._sql import SQLITE, Run, from_row, scope_where
from jiyi.storage._vectors import as_vector, check_dim, top_k_cosine

# Rows (with their vectors) kept in memory across all cached users, least recently used user
# dropped first; ~200k rows is a few hundred MB. The user being read always stays.
MAX_CACHED_ROWS = 200_000
_LOAD = (
    f"SELECT {', '.join(f'm.{c}' for c in COLUMNS)}, v.vec, v.embedder FROM memories m "
    "LEFT JOIN vectors v ON v.pk = m.pk WHERE m.tenant = ? AND m.user_id = ? ORDER BY m.pk"
)


def scope_token(tenant: str, user_id: str) -> str:
    """An opaque FTS token naming one user (hashing keeps ids out of the term list)."""
    return "u" + hashlib.blake2b(f"{tenant}\x1f{user_id}".encode(), digest_size=10).hexdigest()


def fts_query(token: str, terms: Sequence[str]) -> str:
    """An FTS5 query: the user's scope token AND any of ``terms`` (each a quoted phrase, so
    FTS5 operators in user text are plain characters)."""
    quoted = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    return f'scope : "{token}" AND tokens : ({quoted})'


class SqliteSearch:
    """Keyword and vector search over one SQLite file, and the scope caches.

    Shares the store's lock: every method that touches the caches holds it, and the store
    calls :meth:`after_write` inside its write transaction, so no write of this process can
    interleave with a cache patch.
    """

    def __init__(self, read: Run, lock: threading.RLock) -> None:
        self._read = read
        self._lock = lock
        self._caches: OrderedDict[tuple[str, str], ScopeCache] = OrderedDict()

    def keyword(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> list[tuple[str, float]]:
        if not terms:
            return []
        where, args = scope_where(SQLITE, scope, flt)
        match = fts_query(scope_token(scope.tenant, scope.user_id), terms)
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
            count = "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?"
            if self._read(count, [match])[0][0] > inner:
                rows = self._read(
                    "SELECT m.id, bm25(memory_fts, 0.0, 1.0) AS r FROM memory_fts "
                    "JOIN memories m ON m.pk = memory_fts.rowid "
                    f"WHERE memory_fts MATCH ? AND {where} ORDER BY r LIMIT ?",
                    [match, *args, limit],
                )
        return [(r[0], -float(r[1])) for r in rows]

    def vectors(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int, dim: int | None
    ) -> list[tuple[str, float]]:
        q = as_vector(query)
        check_dim(dim, int(q.shape[0]), query=True)
        # The matrix and its mask are taken together under the lock a write patches them
        # under (the mask's cached part is emptied by the patch); the product runs outside.
        with self._lock:
            cached = self.cache(scope)
            if cached is None or cached.mat is None:
                return []
            mat, ids = cached.mat, cached.ids
            check_dim(int(mat.shape[1]), int(q.shape[0]), query=True)
            mask = cached.mask(scope, flt)
        return [(ids[i], s) for i, s in top_k_cosine(mat, q, mask, limit)]

    def visible(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        if not memory_ids:
            return []
        cached = self.cache(scope)
        return [] if cached is None else cached.visible(scope, memory_ids)

    def cache(self, scope: Scope) -> ScopeCache | None:
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
            rows = self._read(_LOAD, key)
            if not rows:
                self._caches.pop(key, None)
                return None
            items = decode_rows(
                rows, lambda r: (from_row(SQLITE, r[:-2]), r[-2], r[-1]), "memories"
            )
            built = ScopeCache.build(version, items)
            self._caches[key] = built
            total = sum(len(c.rows) for c in self._caches.values())
            while total > MAX_CACHED_ROWS and len(self._caches) > 1:
                _, dropped = self._caches.popitem(last=False)
                total -= len(dropped.rows)
            return built

    def after_write(self, scope: Scope, changes: ChangeSet, version: int) -> None:
        """Follow a write committed (or about to commit) under the store's lock: patch the
        scope's cache in place, or drop it when it cannot follow."""
        key = (scope.tenant, scope.user_id)
        cached = self._caches.get(key)
        if cached is not None and not (
            cached.version == version - 1 and cached.patch(changes, version)
        ):
            self._caches.pop(key, None)

    def after_touch(self, scope: Scope, counts: Mapping[str, int], at: datetime) -> None:
        """Mirror recorded reads (access fields only; the version does not change)."""
        with self._lock:
            cached = self._caches.get((scope.tenant, scope.user_id))
            if cached is not None:
                cached.touch(counts, at)

    def forget(self, scope: Scope) -> None:
        with self._lock:
            self._caches.pop((scope.tenant, scope.user_id), None)
