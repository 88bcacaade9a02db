"""``Engine``: the memory engine for every tenant of one deployment.

Every method takes a :class:`~jiyi.core.models.Scope` (tenant, user, agent) and inputs that
are already validated; :class:`jiyi.Memory` validates what callers pass and binds one tenant.
A server holds ONE engine — one store, one embedder, one read-bookkeeping thread, one dense
pool — and hands each request a cheap tenant-bound ``Memory`` view of it. What must differ per
tenant (the embedder view that takes fair turns, the LLM extractor that meters tokens) comes
from :class:`TenantPorts`.
"""

from __future__ import annotations

import builtins
import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, tzinfo
from functools import partial
from typing import Any, Protocol

from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration, calibration_of
from jiyi.core.context import assemble_context
from jiyi.core.filters import matches
from jiyi.core.models import (
    AddResult,
    ContextBlock,
    DeletionReceipt,
    MemoryItem,
    Message,
    Scope,
)
from jiyi.core.ports import (
    Clock,
    Embedder,
    EvictableEmbedder,
    Extractor,
    MemoryStore,
    SearchFilter,
    UserDirectory,
    UserSummary,
)
from jiyi.core.tasks import task_text
from jiyi.core.users import MemorySwitch
from jiyi.deferred_ops import DeferredOps
from jiyi.identity_ops import IdentityOps
from jiyi.maintenance import MaintenanceOps
from jiyi.pipeline.access import ReadLedger, close_ledgers
from jiyi.pipeline.edit import delete_memory, embedded_texts, update_memory
from jiyi.pipeline.ingest import IngestOptions, Ports, ingest
from jiyi.pipeline.recall import ContextOptions, Recalled, VectorBudget, recall, recall_context
from jiyi.pipeline.stamp import with_metadata, with_ttl
from jiyi.pipeline.tasks import resumed_tasks
from jiyi.pipeline.write import WriteOptions
from jiyi.profile_tier import ProfileOps
from jiyi.user_tier import UserTierOps

log = logging.getLogger(__name__)

__all__ = ["Engine", "TenantPorts"]

READ_FLUSH_SECONDS = 1.0  # how often counted reads are written back at most


class TenantPorts(Protocol):
    """The per-tenant views of the shared ports (a server's fair-turn embedder, its
    token-metering extractor). Both are cheap to call repeatedly for the same tenant."""

    def embedder_of(self, tenant: str) -> Embedder: ...

    def extractor_of(self, tenant: str) -> Extractor: ...


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Engine(UserTierOps, ProfileOps, IdentityOps, MaintenanceOps, DeferredOps):
    """Store, embedder and extractor wired into the write and read pipelines; the switch and
    task operations come from :class:`~jiyi.user_tier.UserTierOps`, the profile from
    :class:`~jiyi.profile_tier.ProfileOps`, maintain, health,
    restore and history from :class:`~jiyi.maintenance.MaintenanceOps`, the queued write
    path (``accept``, ``process``) from :class:`~jiyi.deferred_ops.DeferredOps`."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        *,
        config: MemoryConfig | None = None,
        extractor: Extractor | None = None,
        clock: Clock | None = None,
        tenants: TenantPorts | None = None,
    ) -> None:
        from jiyi.core.extraction import RuleExtractor

        self.config = config or MemoryConfig()
        self.store = store
        self.embedder = embedder
        self.rules = RuleExtractor()
        self.extractor: Extractor = extractor or self.rules
        self.clock: Clock = clock or _utcnow
        self.calibration: Calibration = calibration_of(embedder)  # its own, else by name
        self._tenants = tenants
        # With a time budget (servers) the dense channel runs beside the keyword channel on a
        # pool; without one (the embedded default) they run in turn: a concurrent channel only
        # slowed the engine's threads (measured at 10k memories: p50 28 ms vs 40 ms overlapped).
        self.budget: VectorBudget | None = None
        if self.config.vector_budget_ms is not None:
            pool = ThreadPoolExecutor(4, thread_name_prefix="jiyi-dense")
            self.budget = VectorBudget(self.config.vector_budget_ms / 1000, pool)
        # Reads are counted and written back in the background (pipeline/access.py); every
        # read of stored rows settles them first, so callers always see their own reads.
        self.life = self.config.lifecycle
        self.reads = ReadLedger(store, self.clock, READ_FLUSH_SECONDS, life=self.life)
        self.ingest_opts = IngestOptions(
            pii_policy=self.config.pii_policy,
            write=WriteOptions(
                min_confidence=self.config.min_confidence,
                episode_context_turns=self.config.episode_context_turns,
                lifecycle=self.config.lifecycle,
                change_threshold=self.config.change_threshold,
            ),
        )

    # -- ports ----------------------------------------------------------------------------

    def embedder_for(self, tenant: str) -> Embedder:
        return self._tenants.embedder_of(tenant) if self._tenants else self.embedder

    def ports(self, tenant: str) -> Ports:
        extractor = self._tenants.extractor_of(tenant) if self._tenants else self.extractor
        return Ports(self.store, self.embedder_for(tenant), extractor, self.rules, self.calibration)

    def evict(self, texts: Sequence[str]) -> None:
        """Drop the cached vectors of these exact texts (after a hard delete)."""
        if isinstance(self.embedder, EvictableEmbedder):
            self.embedder.evict([t for t in dict.fromkeys(texts) if t])

    # -- writes ---------------------------------------------------------------------------

    def add(
        self,
        scope: Scope,
        messages: list[Message],
        *,
        session_id: str | None,
        infer: bool,
        now: datetime,
        metadata: Mapping[str, Any] | None = None,
        ttl: timedelta | None = None,
    ) -> AddResult:
        self.reads.settle()
        messages, gated = self.gate(scope, messages, now)
        if not messages:
            return AddResult(skipped=gated)
        plan = partial(ingest, messages, scope=scope, session_id=session_id, now=now)
        out = plan(infer=infer, ports=self.ports(scope.tenant), opts=self.ingest_opts)
        suspect, hold = self.guard(scope, session_id, out.changes) if infer else ([], False)
        if hold:  # another person may be speaking: their words as episodes only
            out = plan(infer=False, ports=self.ports(scope.tenant), opts=self.ingest_opts)
        result = with_metadata(out.changes, out.result, metadata)
        result = with_ttl(out.changes, result, now + ttl if ttl is not None else None)
        self.store.apply(scope, self.signed(scope.tenant, out.changes))
        self.evict(out.evict)
        if suspect:
            result = result.model_copy(update={"identity_suspect": suspect})
        return result.model_copy(update={"skipped": gated + result.skipped}) if gated else result

    def update(self, old: MemoryItem, content: str) -> MemoryItem:
        new, edit = update_memory(
            self.store,
            self.embedder_for(old.tenant),
            old,
            content,
            now=self.clock(),
            pii_policy=self.config.pii_policy,
            context_turns=self.config.episode_context_turns,
        )
        self.store.apply(old.scope, self.signed(old.tenant, edit.changes))
        self.evict(edit.evict)
        return new

    def delete(self, m: MemoryItem) -> None:
        edit = delete_memory(
            self.store,
            self.embedder_for(m.tenant),
            m,
            now=self.clock(),
            context_turns=self.config.episode_context_turns,
        )
        self.store.apply(m.scope, self.signed(m.tenant, edit.changes))
        self.evict(edit.evict)

    def delete_user(self, scope: Scope) -> DeletionReceipt:
        self.reads.settle()
        texts = embedded_texts(self.store, scope, self.config.episode_context_turns)
        texts += [task_text(t) for t in self._user_tasks(scope.tenant, scope.user_id)]
        removed = self.store.delete_user(scope)
        self.evict(texts)
        removed["embedding_cache"] = len(texts)
        return DeletionReceipt(
            user_id=scope.user_id, tenant=scope.tenant, deleted_at=self.clock(), removed=removed
        )

    # -- reads ----------------------------------------------------------------------------

    def search(
        self,
        scope: Scope,
        query: str,
        *,
        flt: SearchFilter,
        now: datetime,
        top_k: int,
        reinforce: bool = True,
    ) -> Recalled:
        """The hits, counted as reads; with ``reinforce`` (a search answered to the caller)
        each hit is also a use that reinforces it (``jiyi.core.lifecycle``)."""
        if self.switch_of(scope.tenant, scope.user_id) == MemorySwitch.OFF:
            return Recalled([])  # memory off: nothing is served
        found = recall(
            self.store,
            self.embedder_for(scope.tenant),
            scope,
            query,
            flt=flt,
            now=now,
            top_k=top_k,
            cfg=self.config.retrieval,
            cal=self.calibration,
            budget=self.budget,
            life=self.life,
        )
        if flt.where:  # every channel filters in the store; this also covers derived hits
            found = Recalled(
                [h for h in found.hits if matches(flt.where, h.memory)], found.degraded
            )
        self.reads.record(scope, (h.memory.id for h in found.hits))
        if reinforce:
            self.reads.reinforce(scope, (h.memory.id for h in found.hits))
        return found

    def context(
        self,
        scope: Scope,
        query: str,
        *,
        now: datetime,
        tz: tzinfo,
        token_budget: int,
        session_id: str | None = None,
    ) -> ContextBlock:
        """The context block; empty when memory is off, or for a session the identity guard
        blocks (until the user's identity is confirmed)."""
        off = self.switch_of(scope.tenant, scope.user_id) == MemorySwitch.OFF
        if off or self.blocked(scope, session_id):
            return assemble_context([], query=query, token_budget=token_budget, now=now, tz=tz)
        found = self.search(scope, query, flt=SearchFilter(), now=now, top_k=30, reinforce=False)
        opts = ContextOptions(
            min_score=self.config.context_min_score,
            min_semantic=self.config.context_min_semantic,
            pin_importance=self.config.pin_importance,
        )
        tasks = resumed_tasks(
            self.store,
            scope,
            query,
            now=now,
            embedder=self.embedder_for(scope.tenant),
            cal=self.calibration,
            min_semantic=self.config.context_min_semantic,
        )
        block = recall_context(
            self.store,
            scope,
            query,
            found,
            now=now,
            tz=tz,
            token_budget=token_budget,
            opts=opts,
            tasks=tasks,
            profile=self.profile_of(scope.tenant, scope.user_id, lines_only=True),
        )
        # What reached the block is a use (the other candidates were only read).
        self.reads.reinforce(scope, (m.id for m in block.memories))
        return block

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        self.reads.settle()  # a pending access update must not be overwritten by a stale copy
        return self.store.get(tenant, memory_id)

    def list(
        self, scope: Scope, flt: SearchFilter, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        self.reads.settle()
        if self.switch_of(scope.tenant, scope.user_id) == MemorySwitch.OFF:
            return []
        return self.store.list(scope, flt, limit=limit)

    def users(
        self, tenant: str, *, after: str | None = None, limit: int = 100
    ) -> builtins.list[UserSummary]:
        """The tenant's users with stored memories (``UserDirectory``), by id."""
        if not isinstance(self.store, UserDirectory):
            return []
        return self.store.users(tenant, after=after, limit=limit)

    def close(self) -> None:
        # Every engine's write-backs on this store, not only ours: a Memory built on our
        # store with another config has its own ledger, and its last reads would otherwise
        # be lost or written to a closed store ("could not record access").
        close_ledgers(self.store)
        self.reads.close()
        if self.budget is not None:
            self.budget.pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()
