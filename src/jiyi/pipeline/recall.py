"""Read path: candidates from the store's channels, fused by the pure core."""

from __future__ import annotations

from datetime import datetime

from jiyi.core.calibration import Calibration
from jiyi.core.models import Scope, SearchHit
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter
from jiyi.core.retrieval import RetrievalConfig, fuse, plan_query


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
) -> list[SearchHit]:
    """The ``top_k`` best memories for ``query`` in ``scope``; expired memories are left out."""
    plan = plan_query(query, now)
    dense: dict[str, float] = {}
    keyword: dict[str, float] = {}
    if cfg.use_dense:
        qv = embedder.embed_query(query)
        dense = dict(store.vector_search(scope, qv, flt, cfg.pool))
    if cfg.use_keyword:
        terms = plan.terms + [e.lower() for e in plan.exact if e.lower() not in plan.terms]
        keyword = dict(store.keyword_search(scope, terms, flt, cfg.pool))
    ids = list(dict.fromkeys([*dense, *keyword]))
    memories = {
        m.id: m for m in store.get_many(scope, ids) if m.expires_at is None or m.expires_at > now
    }
    hits = fuse(plan, dense, keyword, memories, now=now, cfg=cfg, cal=cal)
    return hits[:top_k]
