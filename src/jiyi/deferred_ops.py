"""The engine's queued write path: ``accept`` stores a call's episodes at once and hands
their extraction to a work queue; ``process`` is that extraction, run by a worker
(``jiyi.worker``). A mixin of :class:`jiyi.engine.Engine`, kept apart like
:mod:`jiyi.user_tier`: the direct write path (``Engine.add``) and the reads stay in the
engine, this half is used only where a queue is configured. The pipeline steps are
:mod:`jiyi.pipeline.deferred`.
"""

from __future__ import annotations

import builtins
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from jiyi.core.models import AddResult, Message, Scope, Skipped
from jiyi.core.ports import ChangeSet, Clock, MemoryStore
from jiyi.core.users import MemorySwitch
from jiyi.errors import InvalidInputError
from jiyi.pipeline.access import ReadLedger
from jiyi.pipeline.deferred import ExtractJob, extract_staged, stage
from jiyi.pipeline.ingest import IngestOptions, Ports
from jiyi.pipeline.stamp import with_metadata, with_ttl

if TYPE_CHECKING:
    from jiyi.queue.base import Job, WorkQueue

log = logging.getLogger(__name__)

__all__ = ["DeferredOps"]


class DeferredOps:
    """``accept`` and ``process``; ``Engine`` supplies ``store``, ``clock``, ``reads``,
    ``ingest_opts``, ``ports``, ``evict`` and, from its other mixins, ``gate``,
    ``switch_of``, ``guard`` and ``signed``."""

    store: MemoryStore
    clock: Clock
    reads: ReadLedger
    ingest_opts: IngestOptions

    if TYPE_CHECKING:
        # Declared for the type checker only: a runtime stub here could shadow the real
        # method of a mixin listed after this one in ``Engine``'s bases.
        def ports(self, tenant: str) -> Ports: ...

        def evict(self, texts: Sequence[str]) -> None: ...

        def gate(
            self, scope: Scope, messages: builtins.list[Message], now: datetime
        ) -> tuple[builtins.list[Message], builtins.list[Skipped]]: ...

        def switch_of(self, tenant: str, user_id: str) -> MemorySwitch: ...

        def guard(
            self, scope: Scope, session_id: str | None, changes: ChangeSet
        ) -> tuple[builtins.list[str], bool]: ...

        def signed(self, tenant: str, changes: ChangeSet) -> ChangeSet: ...

    def accept(
        self,
        scope: Scope,
        messages: builtins.list[Message],
        *,
        queue: WorkQueue,
        session_id: str | None,
        now: datetime,
        batch_id: str | None,
        grace: timedelta,
        metadata: Mapping[str, Any] | None = None,
        ttl: timedelta | None = None,
    ) -> AddResult:
        from jiyi.queue.base import Job

        self.reads.settle()
        messages, gated = self.gate(scope, messages, now)
        if not messages:
            return AddResult(skipped=gated)
        staged = stage(
            messages,
            scope=scope,
            session_id=session_id,
            now=now,
            ports=self.ports(scope.tenant),
            opts=self.ingest_opts,
            batch=batch_id,
        )
        # The episodes carry the caller's metadata; the worker's extractions inherit it.
        staged_result = with_metadata(staged.changes, staged.result, metadata)
        expires = now + ttl if ttl is not None else None
        staged_result = with_ttl(staged.changes, staged_result, expires)
        if staged.messages:
            payload = ExtractJob(
                agent_id=scope.agent_id,
                session_id=session_id,
                now=now,
                episodes=staged.episode_ids,
                messages=staged.messages,
                expires_at=expires,
            )
            job = Job(
                id=staged.batch,
                kind="extract",
                tenant=scope.tenant,
                user_id=scope.user_id,
                created_at=now,
                payload=payload.model_dump(mode="json"),
            )
            # Enqueue first, held back for ``grace``: if we die before the episodes are
            # written, a worker writes them after the grace (extract_staged); the other
            # order could leave episodes that are never extracted. The hold keeps a fast
            # worker from "rebuilding" episodes this call is about to write.
            if not queue.enqueue(job, now=now, delay=grace):
                return AddResult(queued=True)  # accepted before: the first call's writes stand
        self.store.apply(scope, self.signed(scope.tenant, staged.changes))
        if staged.messages and not queue.release(staged.batch, now=self.clock()):
            # Only after a stall longer than ``grace``: a worker took the job meanwhile.
            log.warning("batch %s was claimed before its episodes were written", staged.batch)
        # A re-delivered batch was queued by its first delivery: report it the same way.
        again = any(s.reason == "duplicate_message" for s in staged_result.skipped)
        return staged_result.model_copy(
            update={
                "queued": bool(staged.messages) or again,
                "skipped": gated + staged_result.skipped,
            }
        )

    def process(self, job: Job, scope: Scope) -> AddResult | None:
        if job.kind != "extract" or job.tenant != scope.tenant:
            raise InvalidInputError(f"cannot process a {job.kind} job of tenant {job.tenant}")
        p = ExtractJob.parse(job.payload)
        if self.switch_of(scope.tenant, scope.user_id) != MemorySwitch.ON:
            return None  # switched off or paused since the messages were accepted
        done = extract_staged(
            p.messages,
            scope=scope,
            session_id=p.session_id,
            batch=job.id,
            episode_ids=p.episodes,
            now=p.now,
            ports=self.ports(scope.tenant),
            opts=self.ingest_opts,
        )
        if done is None:
            return None
        episodes = self.store.get_many(scope, list(p.episodes.values()))
        inherited: dict[str, Any] = {}
        for ep in episodes:
            inherited.update(ep.metadata)
        result = with_metadata(done.changes, done.result, inherited, only_new=True)
        result = with_ttl(done.changes, result, p.expires_at)
        # Flagged and audited here too, never held back: its episodes are already stored.
        suspect, _ = self.guard(scope, p.session_id, done.changes)
        if suspect:
            result = result.model_copy(update={"identity_suspect": suspect})
        self.store.apply(scope, self.signed(scope.tenant, done.changes))
        self.evict(done.evict)
        return result
