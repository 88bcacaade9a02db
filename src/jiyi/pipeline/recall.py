"""Read path: candidates from the store's channels, fused by the pure core.

With a time budget (``vector_budget``) the dense channel — query embedding plus vector
search, the part that slows down under load — runs in a worker thread while the keyword
channel runs here. If the dense channel misses the deadline its result is dropped (the
thread finishes in the background) and the hits are fused from keywords alone and marked
``degraded``: a slower answer would arrive after the agent stopped waiting.
"""

from __future__ import annotations

from concurrent.futures import Executor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import datetime

from jiyi.core.calibration import Calibration
from jiyi.core.models import MemoryItem, Scope, SearchHit
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter
from jiyi.core.retrieval import RetrievalConfig, fuse, plan_query


@dataclass(frozen=True)
class Recalled:
    hits: list[SearchHit]
    degraded: bool = False  # the dense channel missed its budget: keyword-only results


@dataclass(frozen=True)
class VectorBudget:
    """Run the dense channel on ``pool`` while the keyword channel runs in the caller's thread,
    and wait at most ``seconds`` for it (None: wait for it, never degrade). The query
    embedding runs in C and releases the GIL, so the two channels overlap on two cores."""

    seconds: float | None
    pool: Executor


def recall(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    query: str,
    *,
    flt: SearchFilter,
    now: datetime,
    top_k: int,
    cfg: RetrievalConfig,
    cal: Calibration,
    budget: VectorBudget | None = None,
) -> Recalled:
    """The ``top_k`` best memories for ``query`` in ``scope``; expired memories are left out."""
    plan = plan_query(query, now)
    dense: dict[str, float] = {}
    keyword: dict[str, float] = {}
    degraded = False

    def dense_channel() -> dict[str, float]:
        qv = embedder.embed_query(query)
        return dict(store.vector_search(scope, qv, flt, cfg.pool))

    future = budget.pool.submit(dense_channel) if cfg.use_dense and budget else None
    if cfg.use_dense and budget is None:
        dense = dense_channel()
    memories: dict[str, MemoryItem] = {}

    def fetch(ids: list[str]) -> None:
        for m in store.get_many(scope, [i for i in ids if i not in memories]):
            if m.expires_at is None or m.expires_at > now:
                memories[m.id] = m

    if cfg.use_keyword:
        terms = plan.terms + [e.lower() for e in plan.exact if e.lower() not in plan.terms]
        keyword = dict(store.keyword_search(scope, terms, flt, cfg.pool))
        # Materialise the keyword hits while the query embedding is still running.
        fetch(list(keyword))
    if future is not None and budget is not None:
        try:
            dense = future.result(timeout=budget.seconds)
        except FutureTimeout:
            future.cancel()
            degraded = True
    # A dense candidate below the calibrated floor with no keyword match could only be
    # dropped by fusion (no relevance signal), so it is not worth reading from the store.
    fetch([i for i, c in dense.items() if cal.semantic(c) >= cfg.min_relevance])
    hits = fuse(plan, dense, keyword, memories, now=now, cfg=cfg, cal=cal, limit=top_k)
    return Recalled(hits, degraded)
