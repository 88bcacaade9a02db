"""Lifecycle: how memories fade, are reinforced, expire, archive and finally go.

Pure functions over :class:`~jiyi.core.models.MemoryItem` values and one
:class:`LifecycleConfig` — every design number lives there, nowhere else (it and the TTL
classes are defined in :mod:`jiyi.core.lifecycle_config` and re-exported here). Time always
comes from the caller (``now``), so a test moves a fake clock across years in microseconds.

The rules (defaults in brackets):

- **Relevance in ranking**: ``relevance_per_day ** days_since_last_use`` [0.995]; the last
  use is the latest of when the memory was said (or said again), reinforced, or read.
- **Reinforcement** by use — a read that reached the caller (a search hit, a line of a
  context block) or the user saying it again: importance ``+reinforce_step`` [0.1], capped
  at ``reinforce_cap`` [0.95] (never lowered), at most once per ``reinforce_every_days`` [1].
- **Inferred memories** (``Origin.INFERRED``: reflections, LLM guesses) start at confidence
  ``inferred_confidence`` [0.6], lose ×``decay_factor`` [0.95] per ``decay_every_days`` [30]
  without confirmation, gain ``confirm_step`` [0.15] per confirming mention up to
  ``confirmed_confidence`` [0.9], and are archived below ``archive_below`` [0.3].
  Stated and confirmed memories never decay.
- **TTL per kind** without reinforcement, counted from the last use (an event from its own
  day when that is later): temporary state 1 day, event 3 days, preference and goal 180
  days, identity and other facts 365 days, health/safety never; episodes and reflections
  have none (episodes follow their facts; reflections are recomputed). An ``expires_at``
  set on the memory (a caller's ``ttl=``, an extraction rule's own judgement) wins over
  the kind default. Per-tenant overrides: ``tenant_ttl_days``.
- **Archive**: expired or decayed memories become ``archived`` (out of search and
  context, listable, restorable); an episode follows when every memory extracted from it
  is archived. A user over ``max_active`` [10 000] active memories loses the least valuable
  first (importance × confidence × relevance; health/safety facts last).
- **Purge**: archived longer than ``retention_days`` [30] → hard-deleted through the delete
  path (no bytes left).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from jiyi.core.lifecycle_config import (
    DEFAULT,
    DEFAULT_TTL_DAYS,
    TTL_CLASSES,
    LifecycleConfig,
    TtlClass,
)
from jiyi.core.models import MemoryItem, MemoryKind, Origin, Status

__all__ = [
    "DEFAULT",
    "DEFAULT_TTL_DAYS",
    "TTL_CLASSES",
    "LifecycleConfig",
    "SweepPlan",
    "TtlClass",
    "archive",
    "confirm",
    "decay",
    "expiry",
    "health",
    "last_use",
    "plan_sweep",
    "reinforce",
    "reinforceable",
    "relevance",
    "restore",
    "ttl_class",
    "value",
]

DAY = timedelta(days=1)

# Slot areas whose facts keep the user safe: never forgotten by time or by the cap.
SAFETY_AREAS = frozenset({"health", "safety", "medical", "allergy"})

Reason = Literal["expired", "decayed", "cap", "episode"]


# -- classes and clocks ---------------------------------------------------------------------


def is_safety(m: MemoryItem) -> bool:
    """A health or safety fact (allergies, medication, conditions)."""
    topic = (m.topic or "").lower()
    area = topic.split(".", 1)[0]
    return area in SAFETY_AREAS or ".allergy" in topic


def ttl_class(m: MemoryItem) -> TtlClass:
    """Which TTL applies to ``m``."""
    if m.kind == MemoryKind.EPISODE:
        return "episode"
    if m.kind == MemoryKind.SUMMARY:
        return "summary"
    if is_safety(m):
        return "safety"
    if m.kind == MemoryKind.STATE:
        return "state"
    if m.kind == MemoryKind.EVENT:
        return "event"
    if m.kind == MemoryKind.PREFERENCE:
        return "preference"
    if m.kind == MemoryKind.GOAL:
        return "goal"
    return "identity"


def last_use(m: MemoryItem) -> datetime:
    """When ``m`` was last said, reinforced or read."""
    times = [m.observed_at, m.reinforced_at, m.last_accessed_at]
    return max(t for t in times if t is not None)


def relevance(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> float:
    """The ranking factor ``relevance_per_day ** days since last use`` (1.0 for a memory
    used today or in the future)."""
    days = (now - last_use(m)).total_seconds() / 86400.0
    return float(cfg.relevance_per_day ** max(days, 0.0))


def expiry(m: MemoryItem, cfg: LifecycleConfig = DEFAULT) -> datetime | None:
    """When ``m`` expires unless reinforced first: its own ``expires_at`` if it has one,
    else its class TTL counted from the last use (an event from its own day when later)."""
    if m.expires_at is not None:
        return m.expires_at
    ttl = cfg.ttl(ttl_class(m), m.tenant)
    if ttl is None:
        return None
    anchor = last_use(m)
    if m.kind == MemoryKind.EVENT:
        day = m.valid_to or m.valid_from
        if day is not None and day > anchor:
            anchor = day
    return anchor + ttl


def value(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> float:
    """What keeping ``m`` is worth when the cap must drop some: importance × confidence ×
    relevance; health/safety facts are worth more than anything else."""
    v = m.importance * m.confidence * relevance(m, now, cfg)
    return v + 10.0 if is_safety(m) else v


# -- single-memory transitions --------------------------------------------------------------


def reinforceable(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> bool:
    """Whether a use at ``now`` reinforces ``m`` (at most once per ``reinforce_every``,
    counted from the last reinforcement, else from when it was said)."""
    if not cfg.reinforce or m.status != Status.ACTIVE:
        return False
    since = m.reinforced_at or m.observed_at
    return now - since >= cfg.reinforce_every


def reinforced_importance(importance: float, cfg: LifecycleConfig = DEFAULT) -> float:
    """``importance`` after one reinforcement: + step, capped, never lowered."""
    if importance >= cfg.reinforce_cap:
        return importance
    return round(min(cfg.reinforce_cap, importance + cfg.reinforce_step), 6)


def reinforce(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> MemoryItem:
    """``m`` after a use at ``now`` (unchanged if it is not reinforceable yet)."""
    if not reinforceable(m, now, cfg):
        return m
    return m.model_copy(
        update={"importance": reinforced_importance(m.importance, cfg), "reinforced_at": now}
    )


def confirm(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> MemoryItem:
    """An inferred memory the user confirmed by saying it: confidence rises by
    ``confirm_step`` (from its decayed value) up to ``confirmed_confidence``, and the
    decay clock restarts. Other memories are returned unchanged."""
    if m.origin != Origin.INFERRED:
        return m
    current = decay(m, now, cfg).confidence
    raised = min(cfg.confirmed_confidence, max(current, current + cfg.confirm_step))
    return m.model_copy(update={"confidence": round(raised, 6), "confidence_at": now})


def decay(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> MemoryItem:
    """An inferred memory's confidence at ``now``: × ``decay_factor`` per whole
    ``decay_every_days`` since ``confidence_at`` (else since it was said). The stored
    ``confidence_at`` advances by the steps taken, so running this daily or once a year
    gives the same number. Other memories are returned unchanged."""
    if m.origin != Origin.INFERRED:
        return m
    since = m.confidence_at or m.observed_at
    period = timedelta(days=cfg.decay_every_days)
    steps = int((now - since) / period) if now > since else 0
    if steps <= 0:
        return m if m.confidence_at is not None else m.model_copy(update={"confidence_at": since})
    return m.model_copy(
        update={
            "confidence": round(m.confidence * cfg.decay_factor**steps, 6),
            "confidence_at": since + steps * period,
        }
    )


def archive(m: MemoryItem, now: datetime) -> MemoryItem:
    return m.model_copy(update={"status": Status.ARCHIVED, "archived_at": now})


def restore(m: MemoryItem, now: datetime, cfg: LifecycleConfig = DEFAULT) -> MemoryItem:
    """An archived memory made active again: the restore counts as a use (its TTL starts
    over), a passed ``expires_at`` is cleared, and a decayed inferred memory gets its
    starting confidence back — otherwise the next sweep would archive it again."""
    update: dict[str, object] = {
        "status": Status.ACTIVE,
        "archived_at": None,
        "reinforced_at": now,
    }
    if m.expires_at is not None and m.expires_at <= now:
        update["expires_at"] = None
    if m.origin == Origin.INFERRED:
        update["confidence"] = max(m.confidence, cfg.inferred_confidence)
        update["confidence_at"] = now
    return m.model_copy(update=update)


# -- one user's sweep -----------------------------------------------------------------------


@dataclass
class SweepPlan:
    """What a sweep of one user's memories decided (nothing is written here).

    ``updates`` are the changed rows (decayed confidence, archived), keyed by id;
    ``archived`` says why each archived memory went; ``purge`` lists archived memories past
    the retention period, to be hard-deleted."""

    updates: dict[str, MemoryItem] = field(default_factory=dict)
    archived: dict[str, Reason] = field(default_factory=dict)
    decayed: list[str] = field(default_factory=list)
    purge: list[MemoryItem] = field(default_factory=list)
    active: int = 0  # active memories left after the sweep
    expiring: list[str] = field(default_factory=list)  # active, expiring within a day

    def count(self, reason: Reason) -> int:
        return sum(1 for r in self.archived.values() if r == reason)


def plan_sweep(
    memories: Iterable[MemoryItem], now: datetime, cfg: LifecycleConfig = DEFAULT
) -> SweepPlan:
    """Decide one user's sweep from their active and archived memories (superseded ones are
    history and are ignored):

    1. decay inferred confidences; archive those below ``archive_below`` (``decayed``);
    2. archive expired memories (``expired``);
    3. archive episodes whose extracted memories are all archived now (``episode``);
    4. over ``max_active``: archive the least valuable until the cap holds (``cap``);
    5. purge what was archived before ``now - retention``.
    """
    plan = SweepPlan()
    rows = [m for m in memories if m.status in (Status.ACTIVE, Status.ARCHIVED)]
    active: dict[str, MemoryItem] = {}
    for m in rows:
        if m.status == Status.ARCHIVED:
            if m.archived_at is None or m.archived_at <= now - cfg.retention:
                plan.purge.append(m)
            continue
        d = decay(m, now, cfg)
        if d is not m and d.confidence != m.confidence:
            plan.decayed.append(m.id)
        if d is not m:
            plan.updates[m.id] = d
        if m.origin == Origin.INFERRED and d.confidence < cfg.archive_below:
            _archive(plan, d, now, "decayed")
            continue
        until = expiry(d, cfg)
        if until is not None and until <= now:
            _archive(plan, d, now, "expired")
            continue
        active[m.id] = d
    _episodes_follow(plan, rows, active, now)
    over = len(active) - cfg.max_active
    if over > 0:
        ranked = sorted(active.values(), key=lambda m: (value(m, now, cfg), m.id))
        for m in ranked[:over]:
            _archive(plan, m, now, "cap")
            del active[m.id]
    plan.active = len(active)
    plan.expiring = [
        m.id for m in active.values() if (e := expiry(m, cfg)) is not None and e <= now + DAY
    ]
    return plan


def _archive(plan: SweepPlan, m: MemoryItem, now: datetime, reason: Reason) -> None:
    plan.updates[m.id] = archive(m, now)
    plan.archived[m.id] = reason


def _episodes_follow(
    plan: SweepPlan, rows: Sequence[MemoryItem], active: dict[str, MemoryItem], now: datetime
) -> None:
    """Archive the active episodes whose every extracted memory (active or archived; a
    superseded one is history) is now archived, and at least one of them in this sweep."""
    gone_now = {i for i, r in plan.archived.items()}
    by_message: dict[str, list[MemoryItem]] = {}
    for m in rows:
        if m.kind != MemoryKind.EPISODE:
            for mid in m.source_message_ids:
                by_message.setdefault(mid, []).append(m)
    for ep in [m for m in active.values() if m.kind == MemoryKind.EPISODE]:
        facts = [f for mid in ep.source_message_ids for f in by_message.get(mid, [])]
        if not facts:
            continue
        archived = [f.id in plan.archived or f.status == Status.ARCHIVED for f in facts]
        if all(archived) and any(f.id in gone_now for f in facts):
            _archive(plan, ep, now, "episode")
            del active[ep.id]


def health(
    memories: Iterable[MemoryItem], now: datetime, cfg: LifecycleConfig = DEFAULT
) -> dict[str, object]:
    """The numbers of a :class:`~jiyi.core.models.HealthReport` for one user's rows."""
    rows = list(memories)
    counts: dict[str, dict[str, int]] = {}
    for m in rows:
        per = counts.setdefault(m.kind.value, {})
        per[m.status.value] = per.get(m.status.value, 0) + 1
    active = [m for m in rows if m.status == Status.ACTIVE]
    plan = plan_sweep(rows, now, cfg)
    week = now + timedelta(days=7)
    return {
        "counts": counts,
        "active": len(active),
        "archived": sum(1 for m in rows if m.status == Status.ARCHIVED),
        "superseded": sum(1 for m in rows if m.status == Status.SUPERSEDED),
        "expiring_soon": sum(1 for m in active if (e := expiry(m, cfg)) is not None and e <= week),
        "stale": sum(1 for m in active if relevance(m, now, cfg) < 0.5),
        "never_used": sum(
            1 for m in active if m.kind != MemoryKind.EPISODE and m.last_accessed_at is None
        ),
        "due_archive": len(plan.archived),
        "due_purge": len(plan.purge),
        "oldest_observed_at": min((m.observed_at for m in active), default=None),
        "content_chars": sum(len(m.content) for m in rows if m.status != Status.SUPERSEDED),
    }


def follows(episode: MemoryItem, memory: MemoryItem) -> bool:
    """Whether ``episode`` is one ``memory`` was extracted from."""
    return episode.kind == MemoryKind.EPISODE and bool(
        set(episode.source_message_ids) & set(memory.source_message_ids)
    )
