"""Day evidence: records of the same day are evidence of the same event (pure, no I/O).

A phone hands its records to a memory layer one by one — an SMS, a call, a calendar entry,
a photo, a payment notice — and the records of one event share little wording: "课程支付成功"
and "今天上午终于把春季的服装订单都敲定啦" are the same morning. What ties them is the day.
Turn adjacency (``w_neighbor``) cannot: every record is an ``add`` of its own. Two uses of
the day, each a weight of :class:`jiyi.core.retrieval.RetrievalConfig`, ablated on both
languages by ``bench/retrieval_ablation.py`` (bench/README.md):

- **top day** (``w_top_day``): the best hit names the day the question is about; every
  other memory observed that day (in the caller's time zone) gains up to ``w_top_day``,
  never past the best hit itself, so the answer's other records rise and the first place is
  left to the channels. (Lifting the best hit too froze near-ties: a remainder of a
  corrected fact that led the new value by 0.01 led it by 0.16, and the corrections
  benchmark lost top-1 answers on five sets.) A memory whose ``valid_to`` has passed (a
  corrected record) is no evidence of the day's event and gains nothing.
- **same day** (``w_same_day``), only for questions that relate events in time ("…之后/之前",
  "间隔了多少天", "当天还…", "先…还是…", "第一次", "after", "how long"): each memory borrows
  ``w_same_day`` × the best score of another memory of its day, so each of the two events
  of "从 X 到 Y 间隔多少天" brings its day's records along, not only the best one's.
- **near days** (``w_near_day``, ``near_days``): an event's records spill over to the days
  next to it — the preparation the evening before, the note written the next morning, the
  payment notice after midnight — so the memories observed within ``near_days`` calendar
  days of the best hit's day (not that day itself) gain up to ``w_near_day``, under the
  same cap and rules as the top day. On LifeBench's keyword ranking, of the candidates
  ranked 6–100, one a day from the best hit's day was an evidence record 23 % of the time
  on multi-hop questions (same day: 20 %, more than a week away: 0.8 %; bench/README.md).

Both look only across ``add`` calls: memories of one batch (a conversation session added at
once) already borrow from their adjacent turns, so English chat sessions are left as they
were. And a day that holds most of the candidates says nothing about any of them: 109
persona sentences added on one day in three batches (DuLeMon) made the top day a penalty
for the best hit's own batch (R@5 45.1 → 33.3 with ``w_top_day`` .1), so a day holding more
than :data:`MAX_DAY_SHARE` of the candidates lends nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from datetime import date, datetime, tzinfo

from jiyi.core.models import MemoryItem

# Words that place one event relative to another or to a day. Chinese as written (no
# segmenter needed), English as whole words.
_RELATES = re.compile(
    r"之后|以后|之前|以前|间隔|相隔|隔了|多久|多少天|几天|当天|那天|那一天|同一天|当日|紧接着|随后"
    r"|先.{1,40}还是|首次|第一次|最后一次|最近一次|起止|期间"
    r"|\b(?:after|before|how long|how many days|same day|that day|first time|last time)\b",
    re.IGNORECASE,
)


MAX_DAY_SHARE = 0.5  # a day holding more of the candidates than this is no evidence


def relates_events(text: str) -> bool:
    """Does the question relate events in time (an order, an interval, the same day)?"""
    return _RELATES.search(text) is not None


def _day(m: MemoryItem, tz: tzinfo | None) -> date:
    return (m.observed_at.astimezone(tz) if tz is not None else m.observed_at).date()


def _other_add(a: MemoryItem, b: MemoryItem) -> bool:
    """Did ``a`` and ``b`` come in different writes? (No batch: treated as its own.)"""
    return a.batch is None or a.batch != b.batch


def _near(days: Mapping[str, date], day: date, within: int) -> list[str]:
    """The ids whose day is 1 to ``within`` calendar days from ``day``, either side."""
    return [mid for mid, d in days.items() if 0 < abs((d - day).days) <= within]


def day_evidence(
    scores: Mapping[str, float],
    memories: Mapping[str, MemoryItem],
    *,
    tz: tzinfo | None,
    w_top_day: float,
    w_same_day: float,
    relates: bool,
    now: datetime | None = None,
    w_near_day: float = 0.0,
    near_days: int = 1,
) -> dict[str, float]:
    """The day bonus of each candidate (absent: none), from ``scores`` (memory id → score
    before this bonus).

    For a question that relates events (``relates``) with ``w_same_day`` > 0: each memory
    gets ``w_same_day`` × the best score of a memory of its day from another batch. Else,
    with ``w_top_day`` > 0: every memory of the best-scored one's day from another batch
    gains ``w_top_day``, capped to stay below the best-scored one. Days are calendar days in
    ``tz`` (UTC days without one); a day holding more than ``MAX_DAY_SHARE`` of the
    candidates lends nothing; a memory outdated at ``now`` gains nothing. With
    ``w_near_day`` > 0 the memories of the ``near_days`` days either side of the best one's
    day gain up to ``w_near_day`` the same way (those days together holding more than
    ``MAX_DAY_SHARE`` of the candidates lend nothing)."""
    lifting = w_top_day > 0 or w_near_day > 0
    if not scores or (relates and w_same_day <= 0) or (not relates and not lifting):
        return {}

    def current(mid: str) -> bool:
        end = memories[mid].valid_to
        return now is None or end is None or end > now

    days = {mid: _day(memories[mid], tz) for mid in scores}
    if not relates:
        # The first of the ranking (ties by id, as the fusion orders them).
        top = min(scores, key=lambda mid: (-round(scores[mid], 6), mid))
        anchor, day = memories[top], days[top]
        same = [mid for mid in scores if days[mid] == day]
        if len(same) > MAX_DAY_SHARE * len(scores):
            return {}
        near = _near(days, day, near_days) if w_near_day > 0 else []
        if len(near) > MAX_DAY_SHARE * len(scores):
            near = []
        ceiling = scores[top] - 2e-6  # below the best hit even after rounding: it keeps its place
        lifts = {
            mid: min(weight, ceiling - scores[mid])
            for group, weight in ((same, w_top_day), (near, w_near_day))
            for mid in group
            if mid != top and current(mid) and _other_add(memories[mid], anchor)
        }
        return {mid: lift for mid, lift in lifts.items() if lift > 0}
    by_day: dict[date, list[tuple[float, str]]] = defaultdict(list)
    for mid, s in scores.items():
        by_day[days[mid]].append((s, mid))
    out: dict[str, float] = {}
    for items in by_day.values():
        if len(items) < 2 or len(items) > MAX_DAY_SHARE * len(scores):
            continue
        items.sort(reverse=True)
        for _, mid in items:
            if not current(mid):
                continue
            m = memories[mid]
            # The best other memory of the day that came in another add.
            best = next((s for s, o in items if o != mid and _other_add(m, memories[o])), 0.0)
            if best > 0:
                out[mid] = round(w_same_day * best, 6)
    return out
