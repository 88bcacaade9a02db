"""Read path: candidates from the store's channels, fused by the pure core.

With a time budget (``vector_budget``) the dense channel — query embedding plus vector
search, the part that slows down under load — runs in a worker thread while the keyword
channel runs here. If the dense channel misses the deadline its result is dropped (the
thread finishes in the background) and the hits are fused from keywords alone and marked
``degraded``: a slower answer would arrive after the agent stopped waiting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, tzinfo

from jiyi.core.calibration import Calibration
from jiyi.core.context import assemble_context
from jiyi.core.decayed import decayed
from jiyi.core.evidence import SUB_QUESTION_POOL, merge_keyword_rounds, split_clauses
from jiyi.core.lifecycle import LifecycleConfig, is_safety
from jiyi.core.links import LINKED_FROM, LINKED_POOL, LINKED_TERMS, feedback_terms, fold_linked
from jiyi.core.models import ContextBlock, MemoryItem, MemoryKind, Scope, SearchHit
from jiyi.core.newer import newer_first
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter, Vector
from jiyi.core.profile import UserProfile
from jiyi.core.retrieval import QueryPlan, RetrievalConfig, fuse, plan_query, rank
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
    read = _Read(store, scope, flt, now, cfg, cal)
    first = _speaker_free(read, query, plan)  # a named speaker searched as "they"
    dense = _start_dense(read, embedder, first.dense_text if first else query, budget)
    _search_keywords(read, query, plan, first)  # while the query embedding runs
    _finish_dense(read, dense, budget)
    if cfg.w_linked > 0 and cfg.use_keyword and read.keyword:
        _search_linked(read, plan)
    if cfg.day_expand > 0 and cfg.w_top_day > 0 and not plan.relates and read.memories:
        _expand_top_day(read, plan, embedder.name)
    return Recalled(_ranked(read, plan, top_k, life), read.degraded)


@dataclass
class _Read:
    """One search's inputs and the candidates gathered so far (id → channel score)."""

    store: MemoryStore
    scope: Scope
    flt: SearchFilter
    now: datetime
    cfg: RetrievalConfig
    cal: Calibration
    dense: dict[str, float] = field(default_factory=dict)
    keyword: dict[str, float] = field(default_factory=dict)
    memories: dict[str, MemoryItem] = field(default_factory=dict)
    query_vector: list[Vector] = field(default_factory=list)  # for a day-bounded search
    degraded: bool = False

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryItem]:
        """Read the memories of ``ids`` not read yet, leaving out the expired ones; all the
        memories read so far."""
        todo = [i for i in ids if i not in self.memories]
        for m in self.store.get_many(self.scope, todo):
            if m.expires_at is None or m.expires_at > self.now:
                self.memories[m.id] = m
        return self.memories

    def fetch_dense(self, dense: Mapping[str, float]) -> None:
        # A dense candidate below the calibrated floor with no keyword match could only be
        # dropped by fusion (no relevance signal), so it is not worth reading from the store.
        floor = self.cfg.min_relevance
        self.fetch(i for i, c in dense.items() if self.cal.semantic(c) >= floor)


_DenseResult = tuple[Vector, dict[str, float]]


def _dense_channel(read: _Read, embedder: Embedder, query: str) -> _DenseResult:
    qv = embedder.embed_query(query)
    # Only vectors this embedder made are comparable with its query; the others (an
    # embedder change the backfill has not caught up with) are found by keywords alone.
    mine = replace(read.flt, embedder=embedder.name)
    return qv, dict(read.store.vector_search(read.scope, qv, mine, read.cfg.pool))


def _start_dense(
    read: _Read, embedder: Embedder, query: str, budget: VectorBudget | None
) -> Future[_DenseResult] | _DenseResult | None:
    """The dense channel: run now (no budget), or started on the budget's pool."""
    if not read.cfg.use_dense:
        return None
    if budget is None:
        return _dense_channel(read, embedder, query)
    return budget.pool.submit(_dense_channel, read, embedder, query)


def _speaker_free(read: _Read, query: str, plan: QueryPlan) -> SpeakerFree | None:
    """For a query that may name a speaker: keywords first, to learn whether it does and, if
    so, to search both channels without the name (pipeline/unnamed.py)."""
    cfg = read.cfg
    if not (cfg.unname_speakers and cfg.use_keyword and may_name_someone(query)):
        return None
    terms = keyword_terms(plan)
    return speaker_free_keywords(
        read.store, read.scope, query, terms, read.flt, read.now, cfg, read.fetch
    )


def _search_keywords(
    read: _Read, query: str, plan: QueryPlan, first: SpeakerFree | None = None
) -> None:
    """The keyword channel (and its sub-question rounds), its hits read from the store;
    ``first``: the round already searched without a speaker's name."""
    cfg = read.cfg
    if not cfg.use_keyword:
        return
    keyword = (
        first.keyword
        if first
        else dict(read.store.keyword_search(read.scope, keyword_terms(plan), read.flt, cfg.pool))
    )
    if cfg.sub_questions > 0:
        rounds = sub_question_rounds(read.store, read.scope, query, read.now, read.flt, cfg)
        keyword = merge_keyword_rounds(keyword, rounds)
    read.keyword = keyword
    read.fetch(keyword)


def _finish_dense(
    read: _Read, dense: Future[_DenseResult] | _DenseResult | None, budget: VectorBudget | None
) -> None:
    """Take the dense channel's result, or mark the read degraded if it missed its budget."""
    if isinstance(dense, Future):
        pending = dense
        try:
            dense = pending.result(timeout=budget.seconds if budget else None)
        except FutureTimeout:
            pending.cancel()
            read.degraded = True
            dense = None
    if dense is not None:
        read.query_vector.append(dense[0])
        read.dense = dense[1]
    read.fetch_dense(read.dense)


def _search_linked(read: _Read, plan: QueryPlan) -> None:
    """One more keyword round with the best hits' words that are rare among the keyword
    candidates (core/links.py), folded in at ``cfg.w_linked`` of the question's best score."""
    cfg = read.cfg
    top = fuse(
        plan, read.dense, read.keyword, read.memories,
        now=read.now, cfg=cfg, cal=read.cal, limit=LINKED_FROM,
    )  # fmt: skip
    pool = [read.memories[i].content for i in read.keyword if i in read.memories]
    terms = feedback_terms(plan.terms, [h.memory.content for h in top], pool, LINKED_TERMS)
    if not terms:
        return
    linked = dict(read.store.keyword_search(read.scope, terms, read.flt, LINKED_POOL))
    read.keyword = fold_linked(read.keyword, linked, cfg.w_linked)
    read.fetch(linked)


def _expand_top_day(read: _Read, plan: QueryPlan, embedder_name: str) -> None:
    """Add the best hit's day's candidates beyond the pools (``cfg.day_expand``)."""
    cfg = read.cfg
    top = fuse(
        plan, read.dense, read.keyword, read.memories, now=read.now, cfg=cfg, cal=read.cal, limit=1
    )
    day = _day_filter(read.flt, top[0].memory, read.now) if top else None
    vector = [] if read.degraded else read.query_vector  # past its budget: no second search
    more = top_day_candidates(read.store, read.scope, plan, day, vector, embedder_name, cfg)
    read.dense = more[0] | read.dense  # the first round's scores win
    read.keyword = more[1] | read.keyword
    read.fetch(more[1])
    read.fetch_dense(more[0])


def _ranked(
    read: _Read, plan: QueryPlan, top_k: int, life: LifecycleConfig | None
) -> list[SearchHit]:
    """The fused ranking (after the decay of ``life``, if it ranks), with the user's newer
    word on a topic above the older hits (core/newer.py), cut at ``top_k``."""
    cfg = read.cfg
    # The newer step moves hits only within its window, so the first ``deep`` are enough.
    deep = max(top_k, cfg.newer_window if cfg.newer_ratio > 0 else 0)
    ranking = rank(
        plan, read.dense, read.keyword, read.memories, now=read.now, cfg=cfg, cal=read.cal
    )
    hits = decayed(ranking, read.now, life if life is not None and life.rank_decay else None, deep)
    return newer_first(hits, cfg.newer_ratio, cfg.newer_window)[:top_k]


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
    terms = keyword_terms(plan)
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


def relevant_hits(hits: Sequence[SearchHit], opts: ContextOptions) -> list[SearchHit]:
    """The hits worth a context line (:func:`relevant`), and the user's newer word on a
    topic whenever an older hit it went above is among them (core/newer.py puts it
    directly above them): labelling "阿橘" as "后来可能已变" while dropping "阿橘现在改叫
    橘座了" (semantic .66, no shared keyword) told the agent of a change it could not see."""
    keep = [relevant(h, opts) for h in hits]
    for k, h in enumerate(hits):
        if h.scores.get("newer") and not keep[k]:
            older = (o for o in hits[k + 1 :] if o.scores.get("followed"))
            keep[k] = any(relevant(o, opts) for o in older)
    return [h for h, kept in zip(hits, keep, strict=True) if kept]


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
    hits = relevant_hits(found.hits, opts)
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
