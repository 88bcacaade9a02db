"""The engine's lifecycle operations: maintain a user's memories, report their health,
restore an archived memory, read a memory's audit trail. A mixin of
:class:`jiyi.engine.Engine` (kept apart so the engine stays readable, like
:mod:`jiyi.user_tier`); it needs the engine's store, clock, calibration, lifecycle settings,
read ledger, per-tenant embedder and embedding-cache eviction. The pure sweep is
:mod:`jiyi.core.lifecycle`, the run :mod:`jiyi.pipeline.maintain`.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import datetime

from jiyi.config import MemoryConfig
from jiyi.core import lifecycle
from jiyi.core.calibration import Calibration
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.models import (
    Action,
    HealthReport,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    MemoryKind,
    Scope,
    Status,
    TenantHealth,
)
from jiyi.core.ports import (
    ChangeSet,
    Clock,
    Embedder,
    MemoryStore,
    SearchFilter,
    UserDirectory,
    VectorLedger,
)
from jiyi.errors import InvalidInputError
from jiyi.pipeline.access import ReadLedger
from jiyi.pipeline.maintain import DEFAULT_STEPS, Progress, StepOptions, maintain
from jiyi.pipeline.write import Ports

__all__ = ["MaintenanceOps"]


class MaintenanceOps:
    """Maintain, health, restore and history; ``Engine`` supplies ``config``, ``store``,
    ``clock``, ``calibration``, ``life``, ``reads``, ``embedder_for`` and ``evict``."""

    config: MemoryConfig
    store: MemoryStore
    clock: Clock
    calibration: Calibration
    life: LifecycleConfig
    reads: ReadLedger

    def embedder_for(self, tenant: str) -> Embedder:  # pragma: no cover - Engine's wins
        raise NotImplementedError

    def evict(self, texts: Sequence[str]) -> None:  # pragma: no cover - Engine's wins
        raise NotImplementedError

    def ports(self, tenant: str) -> Ports:  # pragma: no cover - Engine's wins
        raise NotImplementedError

    def maintain(
        self,
        scope: Scope,
        *,
        now: datetime,
        dry_run: bool = False,
        steps: Sequence[str] = DEFAULT_STEPS,
        backfill_max: int | None = None,
        progress: Progress | None = None,
    ) -> MaintenanceReport:
        """Run ``steps`` of the lifecycle on one user (``jiyi.pipeline.maintain``)."""
        self.reads.settle()
        done = maintain(
            self.store,
            self.embedder_for(scope.tenant),
            self.calibration,
            scope,
            now=now,
            life=self.life,
            context_turns=self.config.episode_context_turns,
            dry_run=dry_run,
            steps=steps,
            opts=replace(self.makers_for(scope.tenant), backfill_max=backfill_max),
            progress=progress,
        )
        self.evict(done.evict)
        return done.report

    def makers_for(self, tenant: str) -> StepOptions:
        """The LLM makers of reflections and roll-ups when the tenant's extractor is an LLM
        one (it offers ``makers()``), else the rules."""
        offer = getattr(self.ports(tenant).extractor, "makers", None)
        made = offer() if callable(offer) else None
        return made if isinstance(made, StepOptions) else StepOptions()

    def health(self, scope: Scope, *, now: datetime) -> HealthReport:
        """Counts by kind and status, and what the lifecycle is about to do."""
        self.reads.settle()
        rows = self.store.list(scope, SearchFilter(statuses=tuple(Status)))
        stale = 0
        if isinstance(self.store, VectorLedger):
            name = self.embedder_for(scope.tenant).name
            stale = len(self.store.stale_vectors(scope, name, limit=1_000_000))
        return HealthReport(
            tenant=scope.tenant,
            user_id=scope.user_id,
            at=now,
            stale_vectors=stale,
            last_rollup_at=_last(rows, "rollup."),
            last_reflection_at=_last(rows, "reflection."),
            **lifecycle.health(rows, now, self.life),
        )

    def tenant_health(self, tenant: str, *, now: datetime) -> TenantHealth:
        """Every user's :meth:`health` in ``tenant``, added up (users page by page)."""
        return TenantHealth.of(
            tenant,
            now,
            (self.health(Scope(tenant=tenant, user_id=u), now=now) for u in self.user_ids(tenant)),
        )

    def user_ids(self, tenant: str) -> Iterator[str]:
        """Every user of ``tenant`` with stored memories, in id order."""
        if not isinstance(self.store, UserDirectory):
            return
        after: str | None = None
        while True:
            page = self.store.users(tenant, after=after, limit=500)
            yield from (u.user_id for u in page)
            if len(page) < 500:
                return
            after = page[-1].user_id

    def restore(self, m: MemoryItem) -> MemoryItem:
        """Make an archived memory active again, with the episodes archived with it; an
        active one is returned as it is. InvalidInputError for a superseded memory."""
        if m.status == Status.ACTIVE:
            return m
        if m.status != Status.ARCHIVED:
            raise InvalidInputError(
                f"memory {m.id} is {m.status.value}, not archived: only archived memories "
                "can be restored",
                field="memory_id",
            )
        self.reads.settle()
        now = self.clock()
        back = lifecycle.restore(m, now, self.life)
        changes = ChangeSet(updates=[back])
        if m.kind != MemoryKind.EPISODE and m.source_message_ids:
            archived = SearchFilter(statuses=(Status.ARCHIVED,), kinds=(MemoryKind.EPISODE,))
            for ep in self.store.list(m.scope, archived):
                if lifecycle.follows(ep, m):
                    changes.updates.append(lifecycle.restore(ep, now, self.life))
        changes.history = [
            HistoryEntry.of(r, Action.RESTORE, now, reason="restore") for r in changes.updates
        ]
        self.store.apply(m.scope, changes)
        return back

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        """The audit trail of a memory, oldest first (also after it was deleted)."""
        return self.store.history(tenant, memory_id)

    def signed(self, tenant: str, changes: ChangeSet) -> ChangeSet:
        """``changes`` with the tenant's embedder recorded as the maker of its vectors."""
        changes.embedder = self.embedder_for(tenant).name
        return changes


def _last(rows: Sequence[MemoryItem], prefix: str) -> datetime | None:
    """When the newest derived summary under ``prefix`` (a roll-up, a reflection) was made
    (a rewrite is made anew: its ``created_at`` is the rewrite's)."""
    made = [m.created_at for m in rows if m.derived and (m.topic or "").startswith(prefix)]
    return max(made, default=None)
