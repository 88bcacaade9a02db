"""The fusion's weights and limits (``RetrievalConfig``) and its named, measured presets.

Each weight's comment carries the measurement that chose it; bench/README.md has the runs.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["PRESETS", "RetrievalConfig"]


class RetrievalConfig(BaseModel):
    """Weights and limits of the fusion; see PRESETS for named, measured settings."""

    model_config = ConfigDict(frozen=True)

    w_semantic: float = 0.6
    w_keyword: float = 0.3
    w_semantic_pool: float = 0.0  # cosine placed within the dense pool's range (0 worst, 1 best)
    w_importance: float = 0.05
    w_recency: float = 0.05
    w_exact: float = 0.15
    w_time: float = 0.2
    w_neighbor: float = 0.2
    w_speaker: float = 0.2
    w_session: float = 0.0
    w_slot: float = 0.25
    # Issue 11, each judged by bench/retrieval_ablation.py --cv on both languages (see
    # bench/README.md): on where it helped or was neutral on every held-out half.
    w_time_text: float = 0.2  # a date written in the memory's text falls in the query's window
    time_ranges: bool = True  # query window from timeranges: ranges, 上中下旬, holidays, quarters
    dates_as_time: bool = True  # a year/date in the query is a time: no exact id, no BM25 numbers
    kin_synonyms: bool = True  # 妈妈 also searches 母亲/老妈 (words for the same relative)
    dates_first: bool = True  # a date written out outranks a period named beside it (春节)
    # Off: lowered a held-out LifeBench user (speaker −1.7, thread −0.7 R@5; thread also
    # temporal questions −5.5 R@5, below BM25).
    speaker_in_text: bool = False  # a Chinese speaker name counts anywhere in the query
    thread_gap_minutes: float = 0.0  # one-message adds of a session this close are neighbours
    event_gap_minutes: float = 0.0  # …and of any session, at half weight (same event)
    # Multi-evidence questions (core/evidence.py): off until cross-validation keeps them.
    session_spread: float = 0.0  # each better hit of the same session costs this much
    spread_lists_only: bool = True  # …only for questions that ask for several things
    sub_questions: int = 0  # keyword rounds per clause of a multi-clause question (0: off)
    # Day evidence across adds (core/days.py), kept by the same two folds (bench/README.md):
    # LifeBench R@5 +3.0 / +1.5 per user, LoCoMo and DuLeMon unchanged.
    w_top_day: float = 0.15  # memories of the best hit's day (records of one event) gain this
    w_same_day: float = 0.05  # questions relating events: borrow this × the best of the day
    w_near_day: float = 0.0  # memories of the days next to the best hit's day gain this
    near_days: int = 1  # …within this many calendar days
    day_expand: int = 0  # also search the best hit's day for this many more (0: off)
    w_linked: float = 0.0  # the best hits' rare words searched again at this share (core/links)
    # Kept by both LoCoMo folds (unname: R@10 +0.9 / +3.0; addressed: held out +0.0–0.3 /
    # +0.7, R@1 +2.4); Chinese queries are never touched (bench/README.md).
    unname_speakers: bool = True  # a named speaker searched as "they" (core/speakers.py)
    w_addressed: float = 0.1  # her turns that speak to the other ("your painting!") lose this
    outdated_factor: float = 0.5  # score kept by a memory whose valid_to has passed
    # The user's later word that a thing changed, above the earlier hits on the same thing,
    # if it scores this share of them (core/newer.py; 0: off), among the first newer_window.
    newer_ratio: float = 0.4
    newer_window: int = 10
    pool: int = 100  # candidates taken from each channel
    min_relevance: float = 0.02  # hits below this (no semantic, keyword or exact signal) drop
    recency_half_life_days: float = 30.0
    use_keyword: bool = True
    use_dense: bool = True


# The baselines are one channel over the plain query: no query rewriting either, and none of
# the fusion's other signals.
_ONE_CHANNEL = RetrievalConfig(
    w_importance=0.0,
    w_recency=0.0,
    w_exact=0.0,
    w_time=0.0,
    w_time_text=0.0,
    time_ranges=False,
    dates_as_time=False,
    kin_synonyms=False,
    w_neighbor=0.0,
    w_speaker=0.0,
    w_slot=0.0,
    newer_ratio=0.0,
    w_top_day=0.0,
    w_same_day=0.0,
    unname_speakers=False,
    w_addressed=0.0,
    outdated_factor=1.0,
)
PRESETS: dict[str, RetrievalConfig] = {
    "balanced": RetrievalConfig(),
    "keyword_only": _ONE_CHANNEL.model_copy(
        update={"use_dense": False, "w_semantic": 0.0, "w_keyword": 1.0}
    ),
    # Ranked by the raw cosine (its place in the pool): the calibrated score saturates at
    # 1.0 for most Chinese candidates, which left a dense-only ranking to the tie-break.
    "dense_only": _ONE_CHANNEL.model_copy(
        update={"use_keyword": False, "w_semantic": 0.0, "w_semantic_pool": 1.0, "w_keyword": 0.0}
    ),
}
