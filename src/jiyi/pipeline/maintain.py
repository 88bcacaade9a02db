"""Maintenance of one user's memories: the lifecycle, applied.

One run (``jiyi maintain``, ``POST /v1/users/{id}/maintain``, a worker's ``maintain`` job):

1. **sweep** (:func:`jiyi.core.lifecycle.plan_sweep`): decay inferred confidences, archive
   what expired, decayed below the floor or falls over the per-user cap, and the episodes
   that follow archived facts — one transaction, with an ``ARCHIVE`` history line each;
2. **purge**: archived memories past the retention period are hard-deleted through the
   delete path (:func:`jiyi.pipeline.edit.delete_rows`: rows, index entries, vectors,
   cached embeddings, history content, neighbours' index entries), together with their
   older versions, derived reflections citing them, and the episodes they came from unless
   a memory still kept rests on those too;
3. **merge**: near-duplicates collapse (:func:`jiyi.pipeline.consolidate.merge_duplicates`).

Every step is its own transaction and recomputed from the stored rows, so a run killed at
any point loses nothing, and running it again finishes the work without doing any twice
(decay steps count from ``confidence_at``, which advances with them). ``dry_run`` decides
everything and writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from jiyi.core.calibration import Calibration
from jiyi.core.lifecycle import LifecycleConfig, plan_sweep
from jiyi.core.models import (
    Action,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    MemoryKind,
    Scope,
    Status,
)
from jiyi.core.ports import ChangeSet, Embedder, MemoryStore, SearchFilter
from jiyi.pipeline.consolidate import merge_duplicates
from jiyi.pipeline.edit import delete_rows

__all__ = ["Maintained", "Progress", "maintain", "purge_set"]

#: Called with (step name, steps done, steps in all) as a run advances.
Progress = Callable[[str, int, int], None]
STEPS = ("sweep", "purge", "merge")
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
        if m.id not in gone and m.kind != MemoryKind.EPISODE and m.status != Status.SUPERSEDED
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
        if m.kind == MemoryKind.SUMMARY and m.derived and set(m.sources) & set(gone):
            gone[m.id] = m
    return list(gone.values())


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
    merge: bool = True,
    progress: Progress | None = None,
) -> Maintained:
    """Run the lifecycle on one user (all agents: pass a scope without ``agent_id``)."""
    started = time.perf_counter()
    tick = progress or (lambda step, done, total: None)
    rows = store.list(scope, _EVERYTHING)
    plan = plan_sweep(rows, now, life)
    report = MaintenanceReport(
        tenant=scope.tenant,
        user_id=scope.user_id,
        at=now,
        dry_run=dry_run,
        examined=sum(1 for m in rows if m.status != Status.SUPERSEDED),
        active=plan.active,
        decayed=len(plan.decayed),
        archived={
            r: n for r in ("expired", "decayed", "cap", "episode") if (n := plan.count(r)) > 0
        },
        expiring=len(plan.expiring),
        archived_ids=list(plan.archived),
    )
    if plan.updates and not dry_run:
        history = [
            HistoryEntry.of(plan.updates[i], Action.ARCHIVE, now, reason=f"lifecycle:{why}")
            for i, why in plan.archived.items()
        ]
        store.apply(scope, ChangeSet(updates=list(plan.updates.values()), history=history))
    tick("sweep", 1, len(STEPS))
    out = Maintained(report)
    gone = purge_set(rows, plan.purge)
    report.purged = len(gone)
    report.purged_ids = [g.id for g in gone]
    if gone and not dry_run:
        edit = delete_rows(
            store, embedder, scope, gone, now=now, context_turns=context_turns, reason="purge"
        )
        edit.changes.embedder = embedder.name  # neighbour episodes are re-embedded
        store.apply(scope, edit.changes)
        out.evict += edit.evict
    tick("purge", 2, len(STEPS))
    if merge:
        groups = merge_duplicates(store, embedder, cal, scope, now=now, dry_run=dry_run)
        report.merged_ids = groups
        report.merged = sum(len(v) for v in groups.values())
        if not dry_run:
            report.active -= report.merged
    tick("merge", 3, len(STEPS))
    report.seconds = round(time.perf_counter() - started, 4)
    return out
