"""What the request handlers share: stores, embedder, clock, metrics and the thread pool.

SQLite and the embedder are synchronous, so every call into ``Memory`` goes through
:meth:`Services.run`, which runs it in a worker thread bounded by a ``CapacityLimiter``;
the event loop itself only parses, authenticates and serialises. ``run`` is typed with a
ParamSpec, so mypy checks every route's arguments against the engine method it calls.

``store`` is the one ``create_app`` built: wrapped in a :class:`~jiyi.cache.NotifyingStore`,
so every committed write of a user invalidates that user's cached context, whoever wrote.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import anyio
import anyio.to_thread

from jiyi.cache import ContextCache, InProcessContextCache
from jiyi.config import MemoryConfig
from jiyi.core.audit import AuditAction, AuditEntry
from jiyi.core.models import DeletionReceipt
from jiyi.core.ports import Clock, Embedder, Extractor, MemoryStore
from jiyi.embedders.fair import OwnedEmbedder
from jiyi.engine import Engine
from jiyi.keys import KeyStore, Principal
from jiyi.memory import Memory
from jiyi.queue.base import WorkQueue
from jiyi.server.keycache import KeyCache
from jiyi.server.metrics import Metrics
from jiyi.sessions.base import SessionStore
from jiyi.settings import Settings

if TYPE_CHECKING:
    from jiyi.llm.client import UsageMeter

T = TypeVar("T")
P = ParamSpec("P")


@dataclass
class Services:
    """The objects ``create_app`` composed, handed to every route, the flusher and the
    in-process queue workers."""

    settings: Settings
    store: MemoryStore
    embedder: Embedder
    sessions: SessionStore
    keys: KeyStore
    clock: Clock
    metrics: Metrics = field(default_factory=Metrics)
    # With a queue, writes store episodes now and extraction runs in a worker.
    queue: WorkQueue | None = None
    cache: ContextCache = field(default_factory=InProcessContextCache)
    limiter: anyio.CapacityLimiter | None = None
    key_cache: KeyCache = field(init=False)
    _engine: Engine | None = None
    _extractors: dict[str, Extractor] = field(default_factory=dict)
    llm_usage: UsageMeter | None = None  # prompt/completion tokens per tenant, for /metrics
    # Deleting a user bumps its epoch; a flush claimed under an older epoch is dropped, so a
    # background write can never resurrect a deleted user.
    user_epochs: dict[tuple[str, str], int] = field(default_factory=dict)
    _user_locks: dict[tuple[str, str], asyncio.Lock] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.key_cache = KeyCache(lambda key: self.run(self.keys.verify, key))

    def memory(self, tenant: str, actor: str | None = None) -> Memory:
        """A view of the one shared engine bound to ``tenant`` (cheap: no pools of its own);
        ``actor`` is who its calls are audited as (``key:<id>``, ``jiyi.core.audit``)."""
        with self._lock:
            if self._engine is None:
                config = MemoryConfig.model_validate(
                    {
                        "vector_budget_ms": self.settings.vector_budget_ms,
                        "lifecycle": self.settings.lifecycle,
                        "alias_secret": self.settings.alias_secret,
                        "identity_guard": self.settings.identity_guard,
                        "change_threshold": self.settings.change_threshold,
                    }
                )
                self._engine = Engine(
                    self.store, self.embedder, config=config, clock=self.clock, tenants=self
                )
            return Memory.on(self._engine, tenant, actor=actor)

    # TenantPorts: what differs per tenant on the shared engine.
    def embedder_of(self, tenant: str) -> Embedder:
        # Embedding work counts as this tenant's: tenants take turns at the engine.
        return OwnedEmbedder(self.embedder, tenant)

    def extractor_of(self, tenant: str) -> Extractor:
        with self._lock:
            found = self._extractors.get(tenant)
            if found is None:
                from jiyi import backends
                from jiyi.core.extraction import RuleExtractor

                opened = backends.open_extractor(self.settings, tenant, self.llm_usage)
                found = self._extractors[tenant] = opened or RuleExtractor()
            return found

    def user_lock(self, tenant: str, user_id: str) -> asyncio.Lock:
        """Serialises a user's deletion with background writes of that user's sessions."""
        key = (tenant, user_id)
        lock = self._user_locks.get(key)
        if lock is None:
            if len(self._user_locks) > 10_000:
                for k in [k for k, v in self._user_locks.items() if not v.locked()]:
                    del self._user_locks[k]
            lock = self._user_locks[key] = asyncio.Lock()
        return lock

    @property
    def queue_grace(self) -> timedelta:
        return timedelta(seconds=self.settings.queue_grace_seconds)

    def memory_of(self, who: Principal) -> Memory:
        """:meth:`memory` for the caller's tenant, audited as the caller's key."""
        return self.memory(who.tenant, f"key:{who.key_id}")

    def audited(self, who: Principal, action: AuditAction, user_id: str, count: int) -> None:
        """Queue the audit row of a read the server answered without the facade (a context
        block from the hot cache, a memory fetched for its visibility check)."""
        entry = AuditEntry(
            user_id=user_id, at=self.clock(), actor=f"key:{who.key_id}", action=action, count=count
        )
        self.memory(who.tenant).engine.reads.audit(who.tenant, entry)

    async def delete_user(
        self, tenant: str, user_id: str, actor: str | None = None
    ) -> DeletionReceipt:
        """Hard-delete a user from the long-term store, the session store and the queue
        (queued jobs hold the user's words, and running one would write them back)."""
        user_id = await self.run(self.memory(tenant).resolve_user, user_id)
        async with self.user_lock(tenant, user_id):
            key = (tenant, user_id)
            self.user_epochs[key] = self.user_epochs.get(key, 0) + 1
            dropped = await self.sessions.delete_user(tenant, user_id)
            jobs = 0
            if self.queue is not None:
                jobs = await self.run(self.queue.purge_user, tenant, user_id)
            receipt = await self.run(self.memory(tenant, actor).delete_user, user_id)
        receipt.removed["session_messages"] = dropped
        if self.queue is not None:
            receipt.removed["queued_jobs"] = jobs
        return receipt

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` in the bounded worker pool, awaited."""
        if self.limiter is None:  # created lazily: a limiter belongs to a running loop
            self.limiter = anyio.CapacityLimiter(self.settings.worker_threads)
        return await anyio.to_thread.run_sync(
            functools.partial(fn, *args, **kwargs), limiter=self.limiter
        )
