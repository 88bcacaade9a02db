"""The weekly roll-up: a user's events and states of one ISO week become one summary memory
("这周（11月23日起）在准备搬家：…" / "Week of 2026-11-23: move — …").

Events and states are short-lived by design (TTL 3 days and 1 day, then archived and, after
the retention period, purged); the roll-up is what keeps "what the week was about". It is

- **derived**: kind ``summary``, ``derived=True``, citing every memory it rests on
  (``sources``), topic ``rollup.<ISO week>`` and ``metadata={"aspect": "rollup", "week": …}``;
- **inferred**: it starts at the lifecycle's inferred confidence (0.6) and decays unconfirmed
  like every reflection;
- **idempotent**: one roll-up per user and week. A re-run that finds the same sources changes
  nothing (and asks no LLM again); one that finds more (the week went on) rewrites the same
  row (same id, version + 1). It never duplicates, so a job killed mid-run is simply run
  again.

Rule-based by default: the words shared by at least half of the week's items (and at least
two) name its theme, in the order the user said them; the items follow. With a
``summarize`` function (an LLM, :mod:`jiyi.llm.rollup`) the text is the model's, and a
failure falls back to the rule text. Archived events count too: they are exactly what the
roll-up exists to keep. The housekeeping purge of a source leaves its roll-up in place
(``pipeline/maintain.purge_set``); a user's delete of a source takes it (``dependents``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from jiyi.core.ids import new_id
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.models import Action, HistoryEntry, MemoryItem, MemoryKind, Origin, Scope, Status
from jiyi.core.ports import ChangeSet, Embedder, Indexed, MemoryStore, SearchFilter
from jiyi.core.text import has_cjk, keyword_text, query_terms
from jiyi.errors import ExtractionError

__all__ = ["ROLLUP_KINDS", "RolledUp", "Summarize", "iso_week", "rollup", "rule_summary"]

log = logging.getLogger(__name__)

# Goals set that week belong to it too ("准备搬家" is what the week's events were for).
ROLLUP_KINDS = (MemoryKind.EVENT, MemoryKind.STATE, MemoryKind.GOAL)
#: (the week's items, "zh"/"en", the week's Monday) → the summary text; ExtractionError on
#: failure (the rule text is used instead).
Summarize = Callable[[list[MemoryItem], str, date], str]
MAX_LISTED = 6  # items spelled out in a rule summary (all are cited)
# Words too common to name a week's theme.
_FILLER = frozenset(
    "用户 今天 明天 昨天 这周 本周 周末 上午 下午 晚上 准时 一下 "
    "user today tomorrow yesterday week weekend morning evening".split()
)


@dataclass
class RolledUp:
    """What a roll-up run wrote (or, dry, would write)."""

    written: list[MemoryItem] = field(default_factory=list)  # new or refreshed roll-ups
    unchanged: int = 0  # weeks whose roll-up was already up to date
    llm_used: bool = False


def iso_week(at: datetime) -> str:
    """``2026-W48``: the ISO week of ``at`` (UTC)."""
    year, week, _ = at.astimezone(UTC).isocalendar()
    return f"{year}-W{week:02d}"


def _monday(at: datetime) -> date:
    d = at.astimezone(UTC).date()
    return d - timedelta(days=d.weekday())


def _said(m: MemoryItem) -> str:
    return m.content.removeprefix("用户").strip(" ，,。.")


def _theme(items: Sequence[MemoryItem]) -> list[str]:
    """Words said in at least half of the items (two at least), in the order first said.
    Counted by substring, so 搬家 is found in 搬家公司; a word inside a longer chosen one
    gives way to it only if the longer is as common."""
    texts = [m.content.lower() for m in items]
    floor = max(2, (len(items) + 1) // 2)
    words = [
        t
        for m in items
        for t in query_terms(m.content)
        if t not in _FILLER and len(t) >= (2 if has_cjk(t) else 3)
    ]
    common = [w for w in dict.fromkeys(words) if sum(w in t for t in texts) >= floor]
    return [w for w in common if not any(w != o and w in o for o in common)][:4]


def rule_summary(items: Sequence[MemoryItem], lang: str, monday: date) -> str:
    """The rule text of one week: its theme (:func:`_theme`) and up to
    :data:`MAX_LISTED` items."""
    theme = _theme(items)
    listed = [_said(m) for m in items[:MAX_LISTED]]
    more = len(items) - len(listed)
    if lang == "zh":
        head = f"这周（{monday.month}月{monday.day}日起）"
        head += f"在忙{'、'.join(theme)}：" if theme else "："
        return head + "；".join(listed) + (f"；另有 {more} 件" if more else "")
    head = f"Week of {monday.isoformat()}: " + (f"mostly {', '.join(theme)} — " if theme else "")
    return head + "; ".join(listed) + (f"; and {more} more" if more else "")


def _week_text(items: list[MemoryItem], summarize: Summarize | None, out: RolledUp) -> str:
    """The LLM's sentence for the week, or the rule text (no LLM, or it failed)."""
    lang = "zh" if sum(has_cjk(m.content) for m in items) * 2 >= len(items) else "en"
    monday = _monday(items[0].observed_at)
    if summarize is not None:
        try:
            text = " ".join(summarize(items, lang, monday).split())
            out.llm_used = True
            if text:
                return text
        except ExtractionError as exc:
            log.warning("roll-up by the LLM failed (%s); using the rule text", exc.message)
    return rule_summary(items, lang, monday)


def _weeks(now: datetime, count: int) -> list[str]:
    return [iso_week(now - timedelta(weeks=i)) for i in range(count)]


def _rollup_item(
    scope: Scope, week: str, content: str, sources: list[MemoryItem], now: datetime, conf: float
) -> MemoryItem:
    return MemoryItem(
        id=new_id(),
        tenant=scope.tenant,
        user_id=scope.user_id,
        kind=MemoryKind.SUMMARY,
        topic=f"rollup.{week}",
        content=content,
        importance=round(max(s.importance for s in sources), 2),
        confidence=conf,
        confidence_at=now,
        origin=Origin.INFERRED,
        source_message_ids=list(dict.fromkeys(i for s in sources for i in s.source_message_ids)),
        created_at=now,
        observed_at=max(s.observed_at for s in sources),
        metadata={"aspect": "rollup", "week": week},
        derived=True,
        sources=[s.id for s in sources],
    )


def rollup(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    *,
    now: datetime,
    life: LifecycleConfig,
    summarize: Summarize | None = None,
    dry_run: bool = False,
) -> RolledUp:
    """Roll up the events and states of the last ``life.rollup_weeks`` ISO weeks (the one of
    ``now`` included) that have at least ``life.rollup_min_items`` of them, in one
    transaction. The scope should name no agent (a roll-up is the user's)."""
    weeks = _weeks(now, life.rollup_weeks)
    statuses = (Status.ACTIVE, Status.ARCHIVED)
    rows = store.list(
        scope, SearchFilter(statuses=statuses, since=now - timedelta(weeks=len(weeks) + 1))
    )
    by_week: dict[str, list[MemoryItem]] = {}
    for m in rows:
        if m.kind in ROLLUP_KINDS and not m.derived and iso_week(m.observed_at) in weeks:
            by_week.setdefault(iso_week(m.observed_at), []).append(m)
    held: dict[str, list[MemoryItem]] = {}
    summaries = SearchFilter(statuses=statuses, kinds=(MemoryKind.SUMMARY,))
    for m in store.list(scope, summaries):
        if m.derived and m.topic and m.topic.startswith("rollup."):
            held.setdefault(m.topic.removeprefix("rollup."), []).append(m)
    out = RolledUp()
    changes = ChangeSet(embedder=embedder.name)
    texts: list[str] = []
    for week in weeks:
        items = sorted(by_week.get(week, []), key=lambda m: (m.observed_at, m.id))
        if len(items) < life.rollup_min_items:
            continue
        old = sorted(held.get(week, []), key=lambda m: m.id)
        for extra in old[1:]:  # never more than one per week (a race could leave two)
            changes.deletes.append(extra.id)
            changes.history.append(HistoryEntry.of(extra, Action.DELETE, now, reason="rollup"))
        if old and old[0].sources == [m.id for m in items]:
            out.unchanged += 1  # the same items: the same summary (no second LLM call)
            continue
        content = _week_text(items, summarize, out)
        fresh = _rollup_item(scope, week, content, items, now, life.inferred_confidence)
        if old:
            fresh = fresh.model_copy(update={"id": old[0].id, "version": old[0].version + 1})
        action = Action.UPDATE if old else Action.ADD
        changes.upserts.append(Indexed(fresh, keyword_text(content), None))
        changes.history.append(HistoryEntry.of(fresh, action, now, reason="rollup"))
        texts.append(content)
        out.written.append(fresh)
    if texts and not dry_run:
        vecs = embedder.embed_documents(texts)
        changes.upserts = [
            Indexed(i.memory, i.keywords, v) for i, v in zip(changes.upserts, vecs, strict=True)
        ]
    if changes and not dry_run:
        store.apply(scope, changes)
    return out
