"""Read path: candidates from the store's channels, fused by the pure core.

With a time budget (``vector_budget``) the dense channel — query embedding plus vector
search, the part that slows down under load — runs in a worker thread while the keyword
channel runs here. If the dense channel misses the deadline its result is dropped (the
thread finishes in the background) and the hits are fused from keywords alone and marked
``degraded``: a slower answer would arrive after the agent stopped waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, tzinfo

from jiyi.core.calibration import Calibration
from jiyi.core.context import assemble_context
from jiyi.core.evidence import SUB_QUESTION_POOL, merge_keyword_rounds, split_clauses
from jiyi.core.lifecycle import LifecycleConfig, is_safety, relevance
from jiyi.core.models import ContextBlock, MemoryItem, MemoryKind, Scope, SearchHit
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter, Vector
from jiyi.core.profile import UserProfile
from jiyi.core.retrieval import QueryPlan, RetrievalConfig, fuse, plan_query
from jiyi.core.users import TaskState
from jiyi.pipeline.unnamed import (
    SpeakerFree,
    keyword_terms,
    may_name_someone,
    speaker_free_keywords,
)


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
    life: LifecycleConfig | None = None,
) -> Recalled:
    """The ``top_k`` best memories for ``query`` in ``scope``; expired memories are left out.
    With ``life.rank_decay`` the score of each memory of ``life.rank_decay_kinds`` is
    multiplied by its relevance factor (``0.995 ** days since last use``, component
    ``decay``)."""
    plan = plan_query(query, now, cfg)
    dense: dict[str, float] = {}
    keyword: dict[str, float] = {}
    degraded = False

    query_vector: list[Vector] = []  # kept for a second, day-bounded dense search
    memories: dict[str, MemoryItem] = {}

    def fetch(ids: list[str]) -> dict[str, MemoryItem]:
        for m in store.get_many(scope, [i for i in ids if i not in memories]):
            if m.expires_at is None or m.expires_at > now:
                memories[m.id] = m
        return memories

    # A query that may name a speaker: keywords first, to learn whether it does and, if so,
    # to search both channels without the name (pipeline/unnamed.py).
    first: SpeakerFree | None = None
    if cfg.unname_speakers and cfg.use_keyword and may_name_someone(query):
        terms = keyword_terms(plan)
        first = speaker_free_keywords(store, scope, query, terms, flt, now, cfg, fetch)
    dense_text = first.dense_text if first else query

    def dense_channel() -> dict[str, float]:
        qv = embedder.embed_query(dense_text)
        query_vector.append(qv)
        # Only vectors this embedder made are comparable with its query; the others (an
        # embedder change the backfill has not caught up with) are found by keywords alone.
        mine = replace(flt, embedder=embedder.name)
        return dict(store.vector_search(scope, qv, mine, cfg.pool))

    future = budget.pool.submit(dense_channel) if cfg.use_dense and budget else None
    if cfg.use_dense and budget is None:
        dense = dense_channel()

    if cfg.use_keyword:
        terms = keyword_terms(plan)
        keyword = (
            first.keyword if first else dict(store.keyword_search(scope, terms, flt, cfg.pool))
        )
        if cfg.sub_questions > 0:
            keyword = merge_keyword_rounds(
                keyword, sub_question_rounds(store, scope, query, now, flt, cfg)
            )
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
    if cfg.day_expand > 0 and cfg.w_top_day > 0 and not plan.relates and memories:
        top = fuse(plan, dense, keyword, memories, now=now, cfg=cfg, cal=cal, limit=1)
        day = _day_filter(flt, top[0].memory, now) if top else None
        vector = [] if degraded else query_vector  # past its budget: no second dense search
        more = top_day_candidates(store, scope, plan, day, vector, embedder.name, cfg)
        dense, keyword = more[0] | dense, more[1] | keyword  # the first round's scores win
        fetch([*more[1], *(i for i, c in more[0].items() if cal.semantic(c) >= cfg.min_relevance)])
    if life is None or not life.rank_decay:
        hits = fuse(plan, dense, keyword, memories, now=now, cfg=cfg, cal=cal, limit=top_k)
        return Recalled(hits, degraded)
    hits = decayed(fuse(plan, dense, keyword, memories, now=now, cfg=cfg, cal=cal), now, life)
    return Recalled(hits[:top_k], degraded)


def _day_filter(flt: SearchFilter, anchor: MemoryItem, now: datetime) -> SearchFilter:
    """``flt`` narrowed to the calendar day (in ``now``'s time zone) ``anchor`` was observed."""
    local = anchor.observed_at.astimezone(now.tzinfo) if now.tzinfo else anchor.observed_at
    start = local.replace(hour=0, minute=0, second=0, microsecond=0)
    end = start + timedelta(days=1)
    since = max(start, flt.since) if flt.since else start
    until = min(end, flt.until) if flt.until else end
    return replace(flt, since=since, until=until)


def top_day_candidates(
    store: MemoryStore,
    scope: Scope,
    plan: QueryPlan,
    day: SearchFilter | None,
    query_vector: list[Vector],
    embedder_name: str,
    cfg: RetrievalConfig,
) -> tuple[dict[str, float], dict[str, float]]:
    """Dense and keyword candidates of the best hit's day beyond the channels' pools (at
    most ``cfg.day_expand`` each): the day's other records of one event, which the day
    evidence lifts, even when their wording ranked them below the pools' cut. Scores are
    the same channels' for the same query, so they merge with the first round's. Off by
    default (``day_expand`` 0): two more bounded searches per query (bench/README.md)."""
    dense: dict[str, float] = {}
    if day is None:
        return dense, {}
    if cfg.use_dense and query_vector:
        mine = replace(day, embedder=embedder_name)
        dense = dict(store.vector_search(scope, query_vector[0], mine, cfg.day_expand))
    keyword: dict[str, float] = {}
    terms = plan.terms + [e.lower() for e in plan.exact if e.lower() not in plan.terms]
    if cfg.use_keyword and terms:
        keyword = dict(store.keyword_search(scope, terms, day, cfg.day_expand))
    return dense, keyword


def sub_question_rounds(
    store: MemoryStore,
    scope: Scope,
    query: str,
    now: datetime,
    flt: SearchFilter,
    cfg: RetrievalConfig,
) -> list[dict[str, float]]:
    """One bounded keyword search per clause of a multi-clause question (none for a
    one-clause question): at most ``cfg.sub_questions`` rounds of ``SUB_QUESTION_POOL``."""
    rounds = []
    for clause in split_clauses(query, max_clauses=cfg.sub_questions):
        terms = plan_query(clause, now, cfg).terms
        if terms:
            rounds.append(dict(store.keyword_search(scope, terms, flt, SUB_QUESTION_POOL)))
    return rounds


def decayed(hits: list[SearchHit], now: datetime, life: LifecycleConfig) -> list[SearchHit]:
    """``hits`` with each decaying kind's score × its relevance factor, best first again
    (ties keep the fused order)."""
    out: list[tuple[float, int, SearchHit]] = []
    for rank, h in enumerate(hits):
        factor = relevance(h.memory, now, life) if h.memory.kind in life.rank_decay_kinds else 1.0
        if factor != 1.0:
            h = SearchHit.model_construct(
                memory=h.memory,
                score=round(h.score * factor, 6),
                scores=h.scores | {"decay": factor},
            )
        out.append((-h.score, rank, h))
    out.sort(key=lambda t: (t[0], t[1]))
    return [h for _, _, h in out]


@dataclass(frozen=True)
class ContextOptions:
    """Which hits earn a context line (see :class:`jiyi.config.MemoryConfig`)."""

    min_score: float = 0.25  # fused score floor
    min_semantic: float = 0.7  # without a keyword, identifier or slot match
    pin_importance: float = 0.85  # facts/preferences this important join every block
    max_pinned: int = 10


def relevant(h: SearchHit, opts: ContextOptions) -> bool:
    """Worth a context line: above the fused floor and with a real relevance signal (a
    keyword, identifier or slot match, or enough semantic relevance on its own)."""
    s = h.scores
    if h.score < opts.min_score:
        return False
    lexical = s.get("keyword", 0.0) > 0 or s.get("exact", 0.0) > 0 or s.get("slot", 0.0) > 0
    return lexical or s.get("semantic", 0.0) >= opts.min_semantic


def recall_context(
    store: MemoryStore,
    scope: Scope,
    query: str,
    found: Recalled,
    *,
    now: datetime,
    tz: tzinfo,
    token_budget: int,
    opts: ContextOptions,
    tasks: Sequence[TaskState] = (),
    profile: UserProfile | None = None,
) -> ContextBlock:
    """The context block for ``query`` from its search hits: the relevant ones, plus the
    safety-critical facts (allergies, health, strong "never" preferences) even when the turn
    does not mention them — "推荐个菜" must still see "对花生过敏" — and the previous versions
    of corrected facts, to label them. ``tasks`` (the active tasks the query is about) go
    first, after the ``profile``'s lines."""
    hits = [h for h in found.hits if relevant(h, opts)]
    seen = {h.memory.id for h in hits}
    critical = SearchFilter(
        kinds=(MemoryKind.FACT, MemoryKind.PREFERENCE), min_importance=opts.pin_importance
    )
    pinned = [m for m in store.list(scope, critical) if m.id not in seen]
    # Health and safety first: a reinforced everyday preference must never push an allergy
    # out of the pinned lines.
    pinned.sort(key=lambda m: (not is_safety(m), -m.importance, m.id))
    hits += [
        SearchHit(memory=m, score=0.0, scores={"pinned": 1.0}) for m in pinned[: opts.max_pinned]
    ]
    older = [h.memory.supersedes for h in hits if h.memory.supersedes]
    previous = {m.id: m for m in store.get_many(scope, older)} if older else {}
    block = assemble_context(
        hits,
        query=query,
        token_budget=token_budget,
        now=now,
        tz=tz,
        previous=previous,
        tasks=tasks,
        profile=profile,
    )
    return block.model_copy(update={"degraded": True}) if found.degraded else block
