"""After the fusion, before the newer-word step: each decaying kind's score × its relevance
factor (:func:`jiyi.core.lifecycle.relevance`), and the current value above the outdated one
it replaced. Pure functions over a :class:`~jiyi.core.retrieval.Ranking`."""

from __future__ import annotations

from datetime import datetime

from jiyi.core.lifecycle import LifecycleConfig, relevance
from jiyi.core.models import SearchHit
from jiyi.core.retrieval import Ranking

__all__ = ["decayed"]


def decayed(
    ranking: Ranking, now: datetime, life: LifecycleConfig | None, limit: int
) -> list[SearchHit]:
    """The best ``limit`` hits of ``ranking`` after each decaying kind's score × its
    relevance factor (component ``decay``; none without ``life``), best first again (ties
    keep the fused order), and no outdated memory above the current one that replaced it.
    Every candidate is rescored, but only the kept ones become hits."""
    order: list[tuple[float, int, float]] = []
    for k, (neg, mid, _, _) in enumerate(ranking.order):
        m = ranking.memories[mid]
        factor = relevance(m, now, life) if life and m.kind in life.rank_decay_kinds else 1.0
        order.append((neg if factor == 1.0 else -round(-neg * factor, 6), k, factor))
    order = _current_first(order, ranking, now)
    order.sort(key=lambda t: (t[0], t[1]))
    return [
        ranking.hit(k) if factor == 1.0 and neg == ranking.order[k][0] else
        ranking.hit(k, -neg, decay=factor)
        for neg, k, factor in order[:limit]
    ]  # fmt: skip


def _current_first(
    order: list[tuple[float, int, float]], ranking: Ranking, now: datetime
) -> list[tuple[float, int, float]]:
    """``order`` with the current memory that replaced an outdated one (its ``valid_to``
    passed, ``superseded_by`` it) scored at least as high as that one, when both are
    candidates: what made the old value relevant to the query makes its successor so. A
    fact's score decays with the days since it was last used and an episode's does not:
    nine months after 北京 → 上海, "我住在北京" outranked the fact 用户住在上海 by 0.35 to 0.19
    (issue 8: the current value first)."""
    at = {ranking.order[k][1]: i for i, (_, k, _) in enumerate(order)}
    out = list(order)
    for neg, k, _ in order:
        m = ranking.memories[ranking.order[k][1]]
        after = at.get(m.superseded_by or "")
        if m.valid_to is None or m.valid_to > now or after is None:
            continue
        s_neg, s_k, s_factor = out[after]
        if s_neg >= neg:  # (scores are negated: the successor ranks lower)
            out[after] = (round(neg - 1e-6, 6), s_k, s_factor)
    return out
