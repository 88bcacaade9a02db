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

from jiyi.core.models import (
    Extraction,
    HistoryEntry,
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
    Status,
)

# The user tier's ports live in jiyi.core.ports_users; re-exported here for every importer.
from jiyi.core.ports_users import (
    AuditStore as AuditStore,
)
from jiyi.core.ports_users import (
    AuditTier as AuditTier,
)
from jiyi.core.ports_users import (
    IdentityStore as IdentityStore,
)
from jiyi.core.ports_users import (
    ProfileStore as ProfileStore,
)
from jiyi.core.ports_users import (
    SwitchStore as SwitchStore,
)
from jiyi.core.ports_users import (
    TaskStore as TaskStore,
)
from jiyi.core.ports_users import (
    UserTier as UserTier,
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
