"""The served store's two search channels: tsvector keyword search and pgvector search.

- Keyword config ``<schema>.jiyi_text`` = 'simple' plus the English Snowball stemmer (without
  a stopword list) for ASCII words: Chinese tokens are kept verbatim as jieba cut them, and
  English is stemmed like SQLite's porter tokenizer (paint/paints/painting match).
- Vector search never loses a small user among many: for a scope with fewer than
  ``exact_max_rows`` rows it is exact (``cosine_distance()`` over the user's rows, found
  through the (tenant, user_id) btree — a function call, so the planner cannot pick the
  HNSW index). Bigger scopes use HNSW with pgvector 0.8 iterative scans; those are best
  effort (bounded by ``hnsw.max_scan_tuples`` and memory), so a short page falls back to the
  exact query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import psycopg

from jiyi.core.models import Scope
from jiyi.core.ports import SearchFilter, Vector
from jiyi.storage._sql import Dialect, Run, scope_where

Cursor = psycopg.Cursor[tuple[Any, ...]]


def keyword_search(
    run: Run, d: Dialect, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
) -> list[tuple[str, float]]:
    """(id, rank) best first; rank is ts_rank_cd, positive, larger is better."""
    terms = [t for t in terms if t.strip()]
    if not terms:
        return []
    where, args = scope_where(d, scope, flt)
    # One plainto_tsquery per term, OR-ed: user text is only ever a bound parameter and
    # tsquery operators in it are plain characters.
    query = " || ".join(["plainto_tsquery('{s}.jiyi_text'::regconfig, ?)"] * len(terms))
    # ts_rank_cd counts every occurrence; flag 1 divides by log(length) like BM25's
    # length normalisation.
    rows = run(
        d.q(
            f"SELECT m.id, ts_rank_cd(m.tsv, k.q, 1) AS r FROM {{s}}.memories m, "
            f"(SELECT {query} AS q) AS k WHERE m.tsv @@ k.q AND {where} "
            f"ORDER BY r DESC, m.id COLLATE {d.binary} LIMIT ?"
        ),
        [*terms, *args, limit],
    )
    return [(r[0], float(r[1])) for r in rows]


def nearest(
    cur: Cursor,
    d: Dialect,
    scope: Scope,
    q: Vector,
    flt: SearchFilter,
    limit: int,
    *,
    exact_max_rows: int,
) -> list[tuple[str, float]]:
    """(id, cosine) best first, inside the caller's transaction (its settings are local)."""
    where, args = scope_where(d, scope, flt)
    where += " AND m.embedding IS NOT NULL"
    if flt.embedder is not None:  # vectors of another embedder are not comparable
        where += " AND (m.embedder IS NULL OR m.embedder = ?)"
        args.append(flt.embedder)
    cur.execute(
        d.q(
            "SELECT count(*) FROM (SELECT 1 FROM {s}.memories "
            "WHERE tenant = ? AND user_id = ? LIMIT ?) c"
        ),
        (scope.tenant, scope.user_id, exact_max_rows),
    )
    row = cur.fetchone()
    if row is not None and row[0] >= exact_max_rows:
        # Iterative scans keep walking the graph until enough rows pass the filter;
        # relaxed order may return them slightly out of order, so sort again.
        cur.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        cur.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(max(64, 2 * limit)),))
        cur.execute(
            d.q(
                "SELECT id, 1 - d AS sim FROM (SELECT m.id, m.embedding <=> ? AS d "
                f"FROM {{s}}.memories m WHERE {where} ORDER BY m.embedding <=> ? "
                f"LIMIT ?) a ORDER BY d, id COLLATE {d.binary}"
            ),
            [q, *args, q, limit],
        )
        hits = cur.fetchall()
        if len(hits) >= limit:
            return [(r[0], float(r[1])) for r in hits]
        # Fewer than asked: the scan may have given up early; be exact instead.
    cur.execute(
        d.q(
            f"SELECT m.id, 1 - cosine_distance(m.embedding, ?) AS sim FROM {{s}}.memories m "
            f"WHERE {where} ORDER BY sim DESC, m.id COLLATE {d.binary} LIMIT ?"
        ),
        [q, *args, limit],
    )
    return [(r[0], float(r[1])) for r in cur.fetchall()]


# -- the vector ledger (which embedder made each vector: pipeline/backfill.py) ---------------


def stale_ids(run: Run, d: Dialect, scope: Scope, embedder: str, limit: int) -> list[str]:
    """Ids of the scope's rows with a vector not recorded as ``embedder``'s, in id order."""
    where, args = scope_where(d, scope)
    rows = run(
        d.q(
            f"SELECT m.id FROM {{s}}.memories m WHERE {where} AND m.embedding IS NOT NULL "
            f"AND m.embedder IS DISTINCT FROM ? ORDER BY m.id COLLATE {d.binary} LIMIT ?"
        ),
        [*args, embedder, limit],
    )
    return [r[0] for r in rows]


def replace_vectors(
    cur: Cursor, d: Dialect, scope: Scope, vectors: Mapping[str, Vector], embedder: str
) -> int:
    """Set the vectors (and their maker) of rows of the scope that have one, inside the
    caller's transaction; how many rows changed."""
    cur.executemany(
        d.q(
            "UPDATE {s}.memories SET embedding = ?, embedder = ? WHERE id = ? "
            "AND tenant = ? AND user_id = ? AND embedding IS NOT NULL"
        ),
        [(v, embedder, i, scope.tenant, scope.user_id) for i, v in vectors.items()],
    )
    return max(0, cur.rowcount)
