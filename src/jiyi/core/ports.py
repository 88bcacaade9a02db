"""The ports the core needs, as small Protocols. Adapters implement them.

Each method's docstring is a guarantee every implementation keeps; the contract suite in
``tests/contract`` checks them against every backend.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from jiyi.core.audit import AuditEntry
from jiyi.core.identity import Alias, AliasKind, IdentityEvent, SuspectSession
from jiyi.core.models import (
    Extraction,
    HistoryEntry,
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
    Status,
)
from jiyi.core.profile import ProfileOverride
from jiyi.core.users import (
    MemorySwitch,
    SwitchChange,
    SwitchState,
    SwitchVia,
    TaskState,
    TaskStatus,
)

Vector = npt.NDArray[np.float32]
Clock = Callable[[], datetime]


@dataclass(frozen=True)
class Indexed:
    """A memory with what its indexes need: segmented keyword text and its vector."""

    memory: MemoryItem
    keywords: str  # space-joined tokens (jieba for Chinese), as built by ``core.text``
    vector: Vector | None


@dataclass
class ChangeSet:
    """Everything one logical write changes; a store applies it in ONE transaction."""

    upserts: list[Indexed] = field(default_factory=list)
    # Memories whose row changes but whose text (and so keywords/vector) does not.
    updates: list[MemoryItem] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)  # hard deletes by id
    history: list[HistoryEntry] = field(default_factory=list)
    # Ids of the caller's messages this write consumed: a re-delivered message is skipped.
    messages: list[str] = field(default_factory=list)
    # The embedder (its ``name``) that made the upserts' vectors: stored beside each vector,
    # so a store knows which vectors a later embedder cannot compare with. None: unknown.
    embedder: str | None = None

    def __bool__(self) -> bool:
        return bool(self.upserts or self.updates or self.deletes or self.history or self.messages)


@dataclass(frozen=True)
class Condition:
    """One checked condition of a caller's filter (built by ``jiyi.core.filters``).

    ``field`` is a column of :data:`jiyi.core.filters.COLUMN_TYPES` or ``metadata.<path>``;
    ``op`` one of eq, ne, in, gt, gte, lt, lte; ``value`` a scalar (a tuple for ``in``), a
    UTC datetime for time columns, a float for number columns."""

    field: str
    op: Literal["eq", "ne", "in", "gt", "gte", "lt", "lte"]
    value: Any


@dataclass(frozen=True)
class SearchFilter:
    """Filters shared by keyword and vector search and by ``list``; ``None`` means no
    constraint.

    Guarantees (every store, checked by ``tests/contract/test_store_filters.py``): ``where``
    holds exactly as ``jiyi.core.filters.matches`` says — every condition must hold, typed
    JSON comparison on metadata — in ``list``, ``keyword_search`` and ``vector_search``
    alike; ``after_id`` admits only ids greater than it in byte order (a ``list`` cursor)."""

    statuses: tuple[Status, ...] = (Status.ACTIVE,)
    kinds: tuple[MemoryKind, ...] | None = None
    since: datetime | None = None  # on observed_at, inclusive
    until: datetime | None = None  # on observed_at, exclusive
    min_importance: float | None = None  # importance >= this
    where: tuple[Condition, ...] = ()  # caller conditions on columns and metadata (AND)
    after_id: str | None = None  # only ids after this one (byte order): list pagination
    # vector_search only (list and keyword_search ignore it): only vectors made by this
    # embedder, or by an unrecorded one (rows written before vectors were labelled).
    embedder: str | None = None


@dataclass(frozen=True)
class UserSummary:
    """One user of a tenant as :meth:`UserDirectory.users` reports it."""

    user_id: str
    memories: int  # stored rows of any kind and status
    last_observed_at: datetime | None


@runtime_checkable
class UserDirectory(Protocol):
    """A store that can list the users of a tenant (both jiyi stores can)."""

    def users(
        self, tenant: str, *, after: str | None = None, limit: int = 100
    ) -> builtins.list[UserSummary]:
        """Users with at least one stored memory in ``tenant``, ordered by user id in byte
        order, starting after ``after`` (exclusive), at most ``limit``. Never another
        tenant's users; a user whose memories were all deleted is gone."""
        ...


class MemoryStore(Protocol):
    """Durable home of memories, their keyword index, vectors and history.

    Scoping: every method takes a :class:`Scope`; rows of another tenant or user are never
    read or written. A scope with ``agent_id`` sees that agent's rows and the shared rows
    (``agent_id IS NULL``); a scope without one sees all rows of the user.
    """

    def apply(self, scope: Scope, changes: ChangeSet) -> None:
        """Write ``changes`` atomically: rows, keyword index, vectors and history commit
        together or not at all. Every memory in ``changes`` must belong to ``scope``'s
        tenant and user, and so must an id that already exists: ids are global, and an id
        owned by another user or tenant is refused, never taken over (InvalidInputError
        with ``field`` "user_id" or "id", nothing written). Vectors must be 1-D, finite and
        of the one dimension the store's vectors have (else InvalidInputError,
        ``field`` "vector", nothing written). Upserting an existing id replaces the row;
        updating a missing id is a no-op. Deleting a missing id is a no-op. A hard delete
        removes the row, its keyword entry and vector, and erases ``content`` from its
        history (keeping id, action and content hash). Raises StorageUnavailableError if
        the store is locked or unreachable past its timeout."""
        ...

    def get(self, tenant: str, memory_id: str) -> MemoryItem | None:
        """The memory with this id in this tenant (any status, any user), or None. Ids are
        global, so a tenant is enough; another tenant's id yields None."""
        ...

    def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        """The memories that exist in scope, in the order of ``memory_ids``; missing ids
        are left out."""
        ...

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        """Memories matching ``flt`` (and ``topic`` if given), oldest first by id."""
        ...

    def keyword_search(
        self, scope: Scope, terms: Sequence[str], flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        """(id, score) pairs for memories containing any of ``terms``, best first; score is
        positive, larger is better (BM25). Empty ``terms`` → []."""
        ...

    def vector_search(
        self, scope: Scope, query: Vector, flt: SearchFilter, limit: int
    ) -> builtins.list[tuple[str, float]]:
        """(id, cosine) pairs for the nearest memories with a vector, best first. Exact or
        approximate, but never silently drops matching rows because other users' rows
        outnumber this scope's. A query that is not 1-D and finite, or not of the stored
        vectors' dimension, raises InvalidInputError (``field`` "vector")."""
        ...

    def seen_messages(self, scope: Scope, message_ids: Sequence[str]) -> set[str]:
        """The ids among ``message_ids`` that an earlier ``apply`` recorded in
        ``ChangeSet.messages`` for the scope's tenant and user (any agent). Recorded ids
        outlive hard deletes of the memories made from them (a forgotten message that is
        delivered again stays forgotten) and go with ``delete_user``."""
        ...

    def history(self, tenant: str, memory_id: str) -> builtins.list[HistoryEntry]:
        """The memory's audit trail in this tenant, oldest first (it outlives a hard delete,
        without content); [] for an unknown id."""
        ...

    def touch(self, scope: Scope, counts: Mapping[str, int], at: datetime) -> None:
        """Record reads in one write: for each memory id in ``counts``, set
        last_accessed_at to ``at`` and add its count (how many reads) to access_count.
        Best effort, never raises: ids missing from the scope (unknown, another user's or
        tenant's) are ignored, counts below 1 and an empty mapping are no-ops, and a store
        that cannot write logs a warning and drops the counts."""
        ...

    def reinforce(
        self,
        scope: Scope,
        memory_ids: Sequence[str],
        at: datetime,
        *,
        step: float,
        cap: float,
        every: timedelta,
    ) -> builtins.list[str]:
        """Record uses that count as reinforcement (``jiyi.core.lifecycle``): each ACTIVE
        memory of the scope's tenant and user among ``memory_ids`` whose ``reinforced_at``
        (else ``observed_at``) is at least ``every`` before ``at`` gets importance + ``step``
        capped at ``cap`` (an importance already at or above ``cap`` is kept, never lowered)
        and ``reinforced_at`` = ``at``; the rest are left alone, so a memory is reinforced at
        most once per ``every`` however many readers race. Returns the ids that changed.
        Best effort like :meth:`touch`: never raises (a store that cannot write logs a
        warning and returns [])."""
        ...

    def delete_user(self, scope: Scope) -> dict[str, int]:
        """Hard-delete every row of the scope's tenant and user (all agents), including
        history; return counts per table. Idempotent."""
        ...

    def close(self) -> None:
        """Release connections; further calls are undefined."""
        ...


@runtime_checkable
class VectorLedger(Protocol):
    """A store that knows which embedder made each vector and can replace vectors alone
    (both jiyi stores): the embedding backfill (``jiyi.pipeline.backfill``) runs on it."""

    def stale_vectors(self, scope: Scope, embedder: str, *, limit: int) -> builtins.list[str]:
        """Ids of the scope's memories (any status) with a vector not recorded as made by
        ``embedder`` (an unrecorded one counts as stale), in id byte order, at most
        ``limit``. Rows without a vector are never listed."""
        ...

    def set_vectors(self, scope: Scope, vectors: Mapping[str, Vector], embedder: str) -> int:
        """Replace the vectors of these memory ids (the row, its keywords and history stay
        as they are) and record ``embedder`` as their maker, in one transaction; returns how
        many rows changed. Ids missing from the scope (unknown, deleted meanwhile, another
        user's) are skipped, so re-running the same batch is harmless. Vectors must be 1-D,
        finite and of the stored dimension (else InvalidInputError, nothing written)."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors.

    Models with asymmetric prefixes (E5's "query: "/"passage: ") apply them here, so callers
    only choose between documents and queries.
    """

    name: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One row per text, shape (len(texts), dim)."""
        ...

    def embed_query(self, text: str) -> Vector:
        """Shape (dim,)."""
        ...


@runtime_checkable
class EvictableEmbedder(Embedder, Protocol):
    """An embedder that keeps vectors (a cache) and can forget them: a hard delete evicts
    the exact texts that were embedded, so no vector of deleted words stays in memory."""

    def evict(self, texts: Sequence[str]) -> None:
        """Drop any kept vector of these texts (as documents or as queries); unknown texts
        are ignored."""
        ...


class Extractor(Protocol):
    """Finds what is worth remembering in a batch of messages."""

    name: str

    def extract(self, messages: Sequence[Message], *, now: datetime) -> Extraction:
        """Candidates, forget requests and skipped pieces (with reasons) for ``messages``.
        Must not raise for ordinary text; raise ExtractionError when it cannot work at all
        (the caller then falls back to rules)."""
        ...


# -- the user tier (issue 13) --------------------------------------------------------------
#
# Kept beside the memories, in the same database. Every method takes the tenant explicitly
# and never reads or writes another tenant's rows; none looks at agents: a task belongs to
# the user, whichever agent works on it.


class TaskStore(Protocol):
    """Keyed task state with optimistic concurrency. A task whose ``expires_at`` is at or
    before ``now`` does not exist for any method: it is never returned, a put starts it
    afresh at version 1, and the user's next put deletes its row."""

    def put(
        self,
        tenant: str,
        user_id: str,
        key: str,
        state: Mapping[str, Any],
        *,
        status: TaskStatus,
        expires_at: datetime | None,
        expected_version: int | None,
        now: datetime,
    ) -> TaskState:
        """Create or replace the task in one transaction and return it as stored (a JSON
        object, checked by ``jiyi.core.tasks.check_task_state``; it reads back equal). The current
        version is the stored one, or 0 when there is none (or it expired); a non-None
        ``expected_version`` that differs raises VersionConflictError (``field``
        "expected_version", ``current`` the stored version) and writes nothing — 0 means
        "create only". None replaces whatever is there. The new version is current + 1;
        ``created_at`` is kept while the task lives. Of two concurrent puts naming the same
        expected version exactly one succeeds; the other conflicts."""
        ...

    def get(self, tenant: str, user_id: str, key: str, now: datetime) -> TaskState | None:
        """The live task, or None (missing, expired, or another user's or tenant's)."""
        ...

    def list(
        self, tenant: str, user_id: str, now: datetime, *, active_only: bool
    ) -> builtins.list[TaskState]:
        """The user's live tasks, most recently updated first (then by key); with
        ``active_only`` only those whose status is ``active``."""
        ...

    def delete(self, tenant: str, user_id: str, key: str, now: datetime) -> bool:
        """Delete the task; True if a live one was deleted (an expired row is removed too,
        but counts as not existing). Another user's task is never touched."""
        ...


class SwitchStore(Protocol):
    """Per-user memory switches and the log of their changes (who, when, from, to)."""

    def get(self, tenant: str, user_id: str) -> SwitchState:
        """The user's switch; ``on`` with no ``changed_at`` for a user never switched."""
        ...

    def set(
        self,
        tenant: str,
        user_id: str,
        memory: MemorySwitch,
        *,
        at: datetime,
        actor: str,
        via: SwitchVia,
    ) -> SwitchChange | None:
        """Move the switch and append the change to the log, in one transaction; None (and
        nothing written) when it is already there. Of concurrent sets each logged change
        starts from the position the previous one left."""
        ...

    def changes(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[SwitchChange]:
        """The user's logged changes, newest first, at most ``limit``. They outlive
        ``delete_user`` (no content), as does the switch itself: a user who turned memory
        off and then asked to be forgotten stays unremembered."""
        ...


class ProfileStore(Protocol):
    """The profile fields a user or operator set or cleared (overrides), append-only: the
    latest row per field is in force, earlier rows are its history. The values are stored
    as given (the caller redacts PII first)."""

    def set(self, tenant: str, user_id: str, override: ProfileOverride) -> None:
        """Append ``override`` (``value`` None: the field is cleared); one transaction."""
        ...

    def current(self, tenant: str, user_id: str) -> dict[str, ProfileOverride]:
        """The override in force per field (the latest set); {} for a user with none."""
        ...

    def history(
        self, tenant: str, user_id: str, *, limit: int | None = None
    ) -> builtins.list[ProfileOverride]:
        """Every override of the user, newest first (at most ``limit``)."""
        ...

    def dump(self, tenant: str, user_id: str) -> builtins.list[ProfileOverride]:
        """Every override of the user, oldest first: what an export writes."""
        ...

    def restore(self, tenant: str, user_id: str, overrides: Sequence[ProfileOverride]) -> None:
        """Replace the user's overrides with ``overrides`` (oldest first) in one
        transaction: an import; running it twice leaves the same rows."""
        ...


@runtime_checkable
class UserTier(Protocol):
    """A MemoryStore that also keeps the user tier in its database (both jiyi stores do).
    ``delete_user`` removes the user's tasks and profile overrides (with their history) in
    the same transaction as the memories."""

    @property
    def tasks(self) -> TaskStore: ...

    @property
    def switches(self) -> SwitchStore: ...

    @property
    def profiles(self) -> ProfileStore: ...


class IdentityStore(Protocol):
    """Aliases (keyed digests, never the alias), identity events and sessions flagged by the
    drift guard. Every method is scoped by tenant; none ever reads another tenant's rows."""

    def link(
        self, tenant: str, user_id: str, kind: AliasKind, digest: str, hint: str, at: datetime
    ) -> Alias:
        """Link the alias to the user and return it as stored. Linking an alias the user
        already has returns the stored one unchanged (idempotent); one linked to another user
        of the tenant raises AliasTakenError (``field`` "alias") and writes nothing."""
        ...

    def unlink(self, tenant: str, user_id: str, kind: AliasKind, digest: str) -> bool:
        """Remove the alias from the user; False when the user had no such alias (another
        user's alias is never touched)."""
        ...

    def aliases(self, tenant: str, user_id: str) -> builtins.list[Alias]:
        """The user's aliases, oldest first (then by kind and digest)."""
        ...

    def resolve(self, tenant: str, kind: AliasKind, digest: str) -> str | None:
        """The user the alias is linked to in this tenant, or None."""
        ...

    def record(self, tenant: str, event: IdentityEvent) -> None:
        """Append an identity event to the audit log (outlives ``delete_user``: no content)."""
        ...

    def events(self, tenant: str, user_id: str, *, limit: int) -> builtins.list[IdentityEvent]:
        """The user's identity events, newest first, at most ``limit``."""
        ...

    def flag(self, tenant: str, suspect: SuspectSession) -> None:
        """Mark a session as suspect (again: the slots and time are replaced and any earlier
        confirmation is cleared)."""
        ...

    def suspect(self, tenant: str, user_id: str, session_id: str) -> SuspectSession | None:
        """The session's flag (confirmed or not), or None when it was never flagged."""
        ...

    def suspects(self, tenant: str, user_id: str) -> builtins.list[SuspectSession]:
        """Every flagged session of the user (confirmed or not), oldest flag first."""
        ...

    def confirm(
        self, tenant: str, user_id: str, session_id: str, *, at: datetime, actor: str
    ) -> SuspectSession | None:
        """Confirm a flagged session (its memories load again); None when it was never
        flagged. Confirming twice keeps the first confirmation."""
        ...


class AuditStore(Protocol):
    """The audit log (``jiyi.core.audit``): append-only rows that never hold content. Every
    method is scoped by tenant; none ever reads another tenant's rows."""

    def append(self, tenant: str, entries: Sequence[AuditEntry]) -> None:
        """Append ``entries`` in one transaction, in the order given (their ``id`` is
        ignored; the store numbers them). An empty sequence writes nothing."""
        ...

    def list(
        self,
        tenant: str,
        user_id: str,
        *,
        since: datetime | None = None,
        limit: int = 100,
        cursor: int | None = None,
    ) -> builtins.list[AuditEntry]:
        """The user's rows, newest first (by ``id``), at most ``limit``, only those at or
        after ``since``, and only those older than the row ``cursor`` names (the ``id`` of
        the last row of the previous page). Unknown users give an empty list."""
        ...

    def purge(self, tenant: str, before: datetime) -> int:
        """Delete the tenant's rows older than ``before``; return how many went."""
        ...


@runtime_checkable
class AuditTier(Protocol):
    """A MemoryStore that keeps the audit log in its database (both jiyi stores do).
    ``delete_user`` removes the user's audit rows in the same transaction as the memories."""

    @property
    def audit(self) -> AuditStore: ...


@runtime_checkable
class IdentityTier(Protocol):
    """A MemoryStore that keeps aliases, can merge two users and can write a whole user in
    one transaction (both jiyi stores can). ``delete_user`` removes the user's aliases and
    flagged sessions, leaving the audit events (no content)."""

    @property
    def identity(self) -> IdentityStore: ...

    def merge_users(self, tenant: str, source: str, target: str) -> dict[str, int]:
        """Move every memory, history line, consumed message id, task and alias of
        ``source`` to ``target`` in one transaction and return counts per table. A task key
        both users hold raises ConflictError (``field`` "tasks") and moves nothing."""
        ...

    def indexed(self, tenant: str, user_id: str) -> builtins.list[Indexed]:
        """Every stored row of the user (any kind, status and agent) with its keywords and
        vector as stored, oldest first by id: what an export carries."""
        ...

    def import_user(self, scope: Scope, changes: ChangeSet, writes: Sequence[SqlWrite]) -> None:
        """Apply ``changes`` (as :meth:`MemoryStore.apply`) and run every one of ``writes``
        in ONE transaction: all of an import or none of it."""
        ...


#: A write an import section runs inside the import's transaction: given the statement
#: runner and the store's SQL dialect (``jiyi.storage._sql``), it writes its rows.
SqlWrite = Callable[[Any, Any], None]
