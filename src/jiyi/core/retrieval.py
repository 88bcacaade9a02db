"""Read path, pure part: plan a query, then fuse candidate lists into one ranking.

Candidates come from three channels (keyword BM25, dense cosine, exact identifiers) and are
scored by a weighted sum of calibrated components. Beyond the textbook hybrid, three signals
capture what evidence in a conversation looks like:

- **neighbours**: an answer often spans a question turn and the reply next to it, so each
  episode borrows part of the relevance of its adjacent turns (same batch/session);
- **speaker**: "What did Caroline …" prefers turns Caroline said;
- **session**: turns in a session that holds several strong hits are likelier evidence than
  an isolated lexical match in an unrelated session.

Two signals come from what is stored about a memory rather than its text:

- **slot**: a query that asks about an attribute ("我住在哪里" → ``location.home``, see
  :mod:`jiyi.core.intents`) prefers the memory that holds it;
- **outdated**: a memory whose ``valid_to`` has passed (an episode whose fact was corrected)
  keeps only ``outdated_factor`` of its score, so the current value ranks first.

Day: records added one by one (a phone's SMS, calls, calendar, notices) are tied by their
day, not their wording: the best hit's day lifts its other records (``w_top_day``), and a
question that relates events ("…之后", "间隔多少天") lets each record borrow from its day's
best (``w_same_day``); see :mod:`jiyi.core.days`.

Time: the query's window (ranges, parts of months, holidays, quarters: ``time_ranges``) is
met by when a memory was observed (``w_time``) or by a date written in its text, such as an
appointment's day (``w_time_text``). Each such change is a setting, ablated in English and
Chinese by ``bench/retrieval_ablation.py`` and on by default only where two-fold
cross-validation kept it (bench/README.md).

Every hit returns its component scores so a ranking can be explained and tuned.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from jiyi.core.calibration import Calibration
from jiyi.core.days import day_evidence, relates_events
from jiyi.core.evidence import asks_for_several, spread_sessions
from jiyi.core.intents import kin_synonyms, query_slots, slot_matches
from jiyi.core.models import MemoryItem, SearchHit

# Re-exported: callers import the config and its presets from here.
from jiyi.core.retrieval_config import PRESETS as PRESETS
from jiyi.core.retrieval_config import RetrievalConfig as RetrievalConfig
from jiyi.core.slots import PARTS
from jiyi.core.speakers import addressed_penalties
from jiyi.core.text import has_cjk, normalize, query_terms, tokenize
from jiyi.core.timeranges import find_query_window, mentioned_windows, overlaps, time_expressions
from jiyi.core.timewords import TimeWindow, find_time_window

# Identifiers worth an exact match: order numbers, codes, long numbers (A1234, SF-88, 13579).
# Capitalised names are deliberately not here: on LoCoMo an exact boost for names lowered
# recall@10 by ~1.5 points (every greeting mentions the other speaker); the speaker signal
# covers names better.
_ID_LIKE = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z]*\d[A-Za-z0-9_-]{2,}|[A-Z]{2,}-?\d+)(?![A-Za-z0-9])"
)
# A year or a date is a time, not an identifier: "2025年3月" boosted every record that
# mentions 2025. Dates are matched by the time window instead.
_DATE_LIKE = re.compile(r"(?:19|20)\d{2}(?:[-/.]\d{1,2}){0,2}")


_DEFAULT = RetrievalConfig()


@dataclass(frozen=True)
class QueryPlan:
    """What the query asks for, found without any I/O."""

    text: str
    terms: list[str]
    exact: list[str]
    window: TimeWindow | None
    slots: tuple[str, ...] = ()  # slot prefixes the query asks about
    several: bool = False  # asks for a list or a count (evidence from several sessions)
    relates: bool = False  # relates events in time: "之后", "间隔多少天", "after" (core/days.py)


def plan_query(text: str, now: datetime, cfg: RetrievalConfig | None = None) -> QueryPlan:
    """Terms for BM25, identifiers for exact matching, and a time window if one is named.

    With ``cfg.dates_as_time`` the numbers of a date ("1月12日" → 1, 12) are not BM25 terms
    (they match clock times and amounts anywhere, and the window already carries the date)
    and a year is not an identifier."""
    cfg = cfg or _DEFAULT
    exact = [m.group(0) for m in _ID_LIKE.finditer(text)]
    terms = query_terms(text)
    if cfg.dates_as_time:
        exact = [e for e in exact if not _DATE_LIKE.fullmatch(e)]
        numbers = {t for e in time_expressions(text, now) for t in tokenize(e) if t.isdigit()}
        terms = [t for t in terms if t not in numbers]
    if cfg.kin_synonyms:
        terms = terms + kin_synonyms(terms)
    return QueryPlan(
        text=text,
        terms=terms,
        exact=list(dict.fromkeys(exact)),
        window=(
            find_query_window(text, now, dates_first=cfg.dates_first)
            if cfg.time_ranges
            else find_time_window(text, now)
        ),
        slots=query_slots(text),
        several=asks_for_several(text),
        relates=relates_events(text),
    )


def speaker_named(name: str, terms: set[str], text: str, *, in_text: bool = True) -> bool:
    """Does the query name this speaker? A word of the query; with ``in_text``, a Chinese
    name anywhere in the query too, where the segmenter cuts names apart ("刘太太" → 太太)."""
    return name in terms or (in_text and has_cjk(name) and len(name) >= 2 and name in text)


def _recency(m: MemoryItem, now: datetime, half_life_days: float) -> float:
    age = (now - m.observed_at).total_seconds() / 86400.0
    return math.exp(-max(age, 0.0) * math.log(2) / half_life_days)


def _in_window(m: MemoryItem, w: TimeWindow) -> bool:
    t = m.observed_at
    return (w.start is None or t >= w.start) and (w.end is None or t < w.end)


@dataclass(frozen=True)
class Ranking:
    """The fused order of the candidates before any :class:`SearchHit` is made: ``order``
    holds (-score, id, neighbour, session), best first. A hit is built only for what the
    caller keeps: building one per candidate (~170 at 10k memories, with the rank decay
    reading them all) cost ~1.5 ms of each search."""

    order: list[tuple[float, str, float, float]]
    memories: Mapping[str, MemoryItem]
    parts: dict[str, dict[str, float]]
    day: dict[str, float]
    spoken_to: dict[str, float]

    def hit(self, k: int, score: float | None = None, **more: float) -> SearchHit:
        """The hit at place ``k`` of ``order`` (``score`` instead of its fused one, and
        ``more`` components added)."""
        neg, mid, nb, sess = self.order[k]
        return SearchHit.model_construct(
            memory=self.memories[mid],
            score=-neg if score is None else score,
            scores=self.parts[mid]
            | {"neighbor": nb, "session": sess, "day": self.day.get(mid, 0.0)}
            | {"addressed": self.spoken_to.get(mid, 0.0)}
            | more,
        )

    def hits(self, limit: int | None = None) -> list[SearchHit]:
        """The best ``limit`` hits (all if None), best first."""
        n = len(self.order) if limit is None else min(limit, len(self.order))
        return [self.hit(k) for k in range(n)]


def fuse(
    plan: QueryPlan,
    dense: Mapping[str, float],
    keyword: Mapping[str, float],
    memories: Mapping[str, MemoryItem],
    *,
    now: datetime,
    cfg: RetrievalConfig,
    cal: Calibration,
    limit: int | None = None,
) -> list[SearchHit]:
    """Rank the union of candidates; best first, each with its score components.
    Only the best ``limit`` (all if None) become SearchHit objects.

    Args:
        dense: memory id → cosine from the vector channel.
        keyword: memory id → BM25 score (positive, larger is better).
        memories: the candidate memories by id (ids missing here are ignored).
    """
    return rank(plan, dense, keyword, memories, now=now, cfg=cfg, cal=cal).hits(limit)


def rank(
    plan: QueryPlan,
    dense: Mapping[str, float],
    keyword: Mapping[str, float],
    memories: Mapping[str, MemoryItem],
    *,
    now: datetime,
    cfg: RetrievalConfig,
    cal: Calibration,
) -> Ranking:
    """:func:`fuse`'s order, with no hit made yet (see :class:`Ranking`)."""
    top_kw = max(keyword.values(), default=0.0)
    # The dense pool's own range: E5's cosines are compressed, and in Chinese most of a
    # user's memories sit above the calibrated ceiling (unrelated pairs: median 0.86 in
    # Chinese, 0.80 in English), where every candidate reads as semantic 1.0. Where the
    # candidate stands between the pool's worst and best still ranks them.
    lo_cos, hi_cos = min(dense.values(), default=0.0), max(dense.values(), default=0.0)
    spread = hi_cos - lo_cos
    speakers = set(plan.terms)
    said = normalize(plan.text)
    exact = [e.lower() for e in plan.exact]
    recent_mode = plan.window is not None and plan.window.recent
    base: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    for mid, m in memories.items():
        sem = cal.semantic(dense[mid]) if mid in dense else 0.0
        rel = (dense[mid] - lo_cos) / spread if mid in dense and spread > 0 else 0.0
        kw = keyword.get(mid, 0.0) / top_kw if top_kw > 0 else 0.0
        ex = 0.0
        if exact:  # lower-cased only when the query names an identifier
            low = m.content.lower()
            ex = 1.0 if any(e in low for e in exact) else 0.0
        if max(sem, kw, ex) < cfg.min_relevance:
            continue
        rec = _recency(m, now, cfg.recency_half_life_days)
        tw = twt = 0.0
        if plan.window is not None and not recent_mode:
            tw = 1.0 if _in_window(m, plan.window) else 0.0
            if cfg.w_time_text > 0 and any(
                overlaps(span, plan.window) for span in mentioned_windows(m.content, m.observed_at)
            ):
                twt = 1.0
        name = (m.speaker or "").lower()
        spk = (
            1.0
            if name and speaker_named(name, speakers, said, in_text=cfg.speaker_in_text)
            else 0.0
        )
        # a habit the user stopped (habit.跑步 = no: 跑不了步了) does not answer what they do
        # (a memory holding the slot as a part answers too: 在永辉超市当值班主管 for 岗位)
        held = [m.topic, *(m.metadata.get(PARTS) or {})]
        slot = 1.0 if m.value != "no" and any(slot_matches(t, plan.slots) for t in held) else 0.0
        outdated = m.valid_to is not None and m.valid_to <= now
        w_rec = cfg.w_recency * (4.0 if recent_mode else 1.0)
        score = (
            cfg.w_semantic * sem
            + cfg.w_semantic_pool * rel
            + cfg.w_keyword * kw
            + cfg.w_importance * m.importance
            + w_rec * rec
            + cfg.w_exact * ex
            + max(cfg.w_time * tw, cfg.w_time_text * twt)
            + cfg.w_speaker * spk
            + cfg.w_slot * slot
        )
        if outdated:
            score *= cfg.outdated_factor
        base[mid] = score
        parts[mid] = {
            "semantic": sem,
            "semantic_pool": rel,
            "keyword": kw,
            "importance": m.importance,
            "recency": rec,
            "exact": ex,
            "time": tw,
            "time_text": twt,
            "speaker": spk,
            "slot": slot,
            "outdated": 1.0 if outdated else 0.0,
        }

    # Neighbour and session evidence use the base scores of the other candidates.
    by_pos: dict[tuple[str, int], str] = {}
    session_best: dict[str, list[float]] = defaultdict(list)
    for mid in base:
        m = memories[mid]
        batch, pos = m.batch, m.position
        if isinstance(batch, str) and isinstance(pos, int):
            by_pos[(batch, pos)] = mid
            session_best[batch].append(base[mid])
    top_session = {b: sum(sorted(v, reverse=True)[:3]) / 3.0 for b, v in session_best.items()}
    best_session = max(top_session.values(), default=0.0)
    thread = _thread_neighbours(base, memories, cfg.thread_gap_minutes)
    if cfg.event_gap_minutes > 0:
        for mid, v in _thread_neighbours(base, memories, cfg.event_gap_minutes, True).items():
            thread[mid] = max(thread.get(mid, 0.0), 0.5 * v)

    totals: dict[str, float] = {}
    signals: dict[str, tuple[float, float]] = {}
    for mid, score in base.items():
        m = memories[mid]
        batch, pos = m.batch, m.position
        nb = sess = 0.0
        if isinstance(batch, str) and isinstance(pos, int):
            before, after = by_pos.get((batch, pos - 1), ""), by_pos.get((batch, pos + 1), "")
            nb = max(base.get(before, 0.0), base.get(after, 0.0))
            sess = top_session[batch] / best_session if best_session > 0 else 0.0
        nb = max(nb, thread.get(mid, 0.0))
        totals[mid] = score + cfg.w_neighbor * nb + cfg.w_session * sess
        signals[mid] = (nb, sess)
    day = day_evidence(
        totals,
        memories,
        tz=now.tzinfo,
        w_top_day=cfg.w_top_day,
        w_same_day=cfg.w_same_day,
        relates=plan.relates,
        now=now,
        w_near_day=cfg.w_near_day,
        near_days=cfg.near_days,
    )
    # English turns of the named speaker that speak to the other (core/speakers.py).
    spoken_to = addressed_penalties(plan.text, parts, memories, cfg.w_addressed)
    ranked = sorted(
        (-round(t + day.get(mid, 0.0) - spoken_to.get(mid, 0.0), 6), mid, *signals[mid])
        for mid, t in totals.items()
    )
    if cfg.session_spread > 0 and (plan.several or not cfg.spread_lists_only):
        order = [(-neg, mid) for neg, mid, _, _ in ranked]
        spread_out = spread_sessions(order, memories, cfg.session_spread)
        ranked = [(-score, mid, signals[mid][0], signals[mid][1]) for score, mid in spread_out]
    return Ranking(ranked, memories, parts, day, spoken_to)


def _thread_neighbours(
    base: Mapping[str, float],
    memories: Mapping[str, MemoryItem],
    gap_minutes: float,
    any_session: bool = False,
) -> dict[str, float]:
    """Neighbour evidence across ``add`` calls: a conversation delivered one message per
    call (an SMS thread, a chat synced message by message) is linked by its session id and
    time. Each episode gets the best base score of the nearest earlier and later candidate
    of the same session if it came in *another* batch at most ``gap_minutes`` away (a
    session added in one batch has its turn order already)."""
    if gap_minutes <= 0:
        return {}
    by_session: dict[str, list[tuple[datetime, str]]] = defaultdict(list)
    for mid in base:
        m = memories[mid]
        if any_session or m.session_id:
            by_session["" if any_session else str(m.session_id)].append((m.observed_at, mid))
    out: dict[str, float] = {}
    gap = gap_minutes * 60.0
    for items in by_session.values():
        if len(items) < 2:
            continue
        items.sort()
        # Only the adjacent messages, as turns next to each other in one batch: borrowing
        # the best of a whole run of messages close in time (an afternoon's SMS exchange)
        # flooded the top of the ranking with one exchange (LifeBench temporal R@5 −5.5).
        for (t0, a), (t1, b) in pairwise(items):
            if (t1 - t0).total_seconds() > gap or memories[a].batch == memories[b].batch:
                continue
            if base[b] > out.get(a, 0.0):
                out[a] = base[b]
            if base[a] > out.get(b, 0.0):
                out[b] = base[a]
    return out
