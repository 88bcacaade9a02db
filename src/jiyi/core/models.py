"""Domain model: what a memory is, what goes in and what comes out.

Pure pydantic v2 value objects, no I/O. Every public result type of :class:`jiyi.Memory`
lives here so the server and the SDK can share them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jiyi.core.users import TaskState


class MemoryKind(StrEnum):
    FACT = "fact"
    PREFERENCE = "preference"
    EVENT = "event"
    GOAL = "goal"
    STATE = "state"
    SUMMARY = "summary"
    EPISODE = "episode"


class Origin(StrEnum):
    USER_STATED = "user_stated"
    INFERRED = "inferred"
    CONFIRMED = "confirmed"


class GoalStatus(StrEnum):
    """Where a goal stands (``MemoryItem.goal_status``, set on goal memories only): a goal is
    ``active`` when said, ``completed`` ("我跑完马拉松了"), ``abandoned`` ("不想考研了") or
    ``paused`` ("考研的事先放一放") when the user says so (:mod:`jiyi.core.goals`)."""

    ACTIVE = "active"
    COMPLETED = "completed"
    ABANDONED = "abandoned"
    PAUSED = "paused"


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"


class Action(StrEnum):
    """What a write did; also the ``event`` of an add result and the history action."""

    ADD = "ADD"
    UPDATE = "UPDATE"
    NOOP = "NOOP"
    SUPERSEDE = "SUPERSEDE"
    DELETE = "DELETE"
    ARCHIVE = "ARCHIVE"  # history only: the lifecycle archived it (jiyi.core.lifecycle)
    RESTORE = "RESTORE"  # history only: an archived memory was made active again


Role = Literal["user", "assistant", "system"]


class Scope(BaseModel):
    """Whose memories an operation may see.

    ``agent_id=None`` means "any agent of this user" for reads and "shared by all agents"
    for writes. A scope with an agent sees that agent's private memories plus the shared
    ones (agent_id None), never another agent's private memories.
    """

    model_config = ConfigDict(frozen=True)

    tenant: str = "default"
    user_id: str
    agent_id: str | None = None


class MemoryItem(BaseModel):
    """One stored memory: an extracted fact/preference/… or an episode (a raw message)."""

    model_config = ConfigDict(validate_assignment=False)

    id: str
    tenant: str = "default"
    user_id: str
    agent_id: str | None = None
    kind: MemoryKind
    topic: str | None = None  # the slot: subject + attribute (see jiyi.core.slots)
    value: str | None = None  # what the slot holds (上海, 1989, 阿橘, yes), when known
    content: str
    importance: float = Field(0.5, ge=0.0, le=1.0)
    confidence: float = Field(0.8, ge=0.0, le=1.0)
    origin: Origin = Origin.USER_STATED
    source_message_ids: list[str] = Field(default_factory=list)
    session_id: str | None = None
    quote: str | None = None
    created_at: datetime
    observed_at: datetime
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    last_accessed_at: datetime | None = None
    access_count: int = 0
    expires_at: datetime | None = None
    status: Status = Status.ACTIVE
    superseded_by: str | None = None
    version: int = 1
    metadata: dict[str, Any] = Field(default_factory=dict)
    # Provenance the pipelines rely on (typed, not metadata keys):
    batch: str | None = None  # the write (one add / one session flush) that stored it
    position: int | None = None  # an episode's index in its batch (neighbour turns)
    role: Role | None = None  # an episode's speaker role
    speaker: str | None = None  # an episode's speaker name, as given (PII-redacted)
    extracted: bool | None = None  # a queued episode: False until the worker extracted it
    supersedes: str | None = None  # the version this memory replaced
    derived: bool = False  # a reflection computed from other memories
    sources: list[str] = Field(default_factory=list)  # the memory ids a derived one rests on
    # Lifecycle (jiyi.core.lifecycle): the last use that counted as reinforcement (a read that
    # reached the caller, or the user saying it again), when it was archived, and the time
    # the stored confidence of an inferred memory refers to (decay steps count from it).
    reinforced_at: datetime | None = None
    archived_at: datetime | None = None
    confidence_at: datetime | None = None
    # Goals (jiyi.core.goals): where the goal stands, and the day it is meant to be reached
    # by ("年底前考过雅思" → Dec 31, 00:00 UTC), when the user named one. None on other kinds.
    goal_status: GoalStatus | None = None
    target_date: datetime | None = None

    @property
    def scope(self) -> Scope:
        return Scope(tenant=self.tenant, user_id=self.user_id, agent_id=self.agent_id)


class Message(BaseModel):
    """One chat message handed to :meth:`jiyi.Memory.add`."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    content: str
    name: str | None = None
    id: str | None = None
    timestamp: datetime | None = None


class Candidate(BaseModel):
    """A memory proposed by an extractor, before admission, PII and reconciliation."""

    kind: MemoryKind
    topic: str | None = None  # the slot (see jiyi.core.slots)
    value: str | None = None  # the slot's value as said, compared by jiyi.core.slots
    content: str
    importance: float = Field(0.5, ge=0.0, le=1.0)
    confidence: float = Field(0.8, ge=0.0, le=1.0)
    origin: Origin = Origin.USER_STATED
    quote: str | None = None
    source_message_ids: list[str] = Field(default_factory=list)
    role: Role = "user"
    is_correction: bool = False
    # The value the user said was wrong ("…, not Rachel" / "不是初二"): a correction that
    # names what it replaces may retire that value even in a sibling slot (allergy.walnut →
    # allergy.almond), matched by value, never by similarity.
    replaces: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    expires_at: datetime | None = None
    observed_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class ForgetRequest(BaseModel):
    """ "别记这个 / forget that": what the user asked to forget."""

    text: str  # the request as said
    target: str | None = None  # what to forget, if named ("我的生日"); None = the latest memory
    source_message_id: str | None = None


class Skipped(BaseModel):
    """A piece of input that was deliberately not stored, and why."""

    text: str
    reason: str


class Extraction(BaseModel):
    """What an extractor found in a batch of messages."""

    candidates: list[Candidate] = Field(default_factory=list)
    forget: list[ForgetRequest] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    queries: list[str] = Field(default_factory=list)  # what to look up for the current turn


class Redaction(BaseModel):
    """One PII span found in the input (the value itself is never kept)."""

    kind: str  # a PII kind from jiyi.core.pii (id_card, phone, passport, address, …)
    count: int = 1


class MemoryEvent(BaseModel):
    """One effect of an add: ``event`` in ADD / UPDATE / NOOP / SUPERSEDE / DELETE."""

    event: Action
    memory: MemoryItem
    previous: MemoryItem | None = None  # the superseded or updated memory, if any


class AddResult(BaseModel):
    """The outcome of :meth:`jiyi.Memory.add`."""

    events: list[MemoryEvent] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    redactions: list[Redaction] = Field(default_factory=list)
    episodes: list[MemoryItem] = Field(default_factory=list)
    # True when extraction was handed to a background worker (server with a work queue):
    # the episodes are stored, ``events`` stay empty and the memories appear shortly.
    queued: bool = False
    # The identity dimensions (name, age, language, city) this batch contradicted at once:
    # non-empty means someone else may be speaking (``jiyi.core.identity``, drift guard).
    identity_suspect: list[str] = Field(default_factory=list)


class SearchHit(BaseModel):
    """One search result with its score and the components the score came from."""

    memory: MemoryItem
    score: float
    scores: dict[str, float] = Field(default_factory=dict)


class ContextBlock(BaseModel):
    """A token-budgeted, natural-language memory block for a system prompt."""

    text: str
    memories: list[MemoryItem] = Field(default_factory=list)
    # The user's active tasks the query is about ("继续上次的报销单"), shown first.
    tasks: list[TaskState] = Field(default_factory=list)
    tokens: int
    # True when semantic search missed its time budget and only keyword matches were used.
    degraded: bool = False


class HistoryEntry(BaseModel):
    """One line of a memory's audit trail.

    After a hard delete only ``memory_id``, ``action``, ``at`` and ``content_hash`` remain;
    ``content`` is erased.
    """

    id: int | None = None
    memory_id: str
    action: Action
    at: datetime
    content: str | None = None
    content_hash: str
    version: int = 1
    related_id: str | None = None  # superseded_by / the memory that replaced it
    reason: str | None = None

    @classmethod
    def of(
        cls,
        m: MemoryItem,
        action: Action,
        at: datetime,
        *,
        related: str | None = None,
        reason: str | None = None,
    ) -> HistoryEntry:
        """The entry recording ``action`` on ``m``; a DELETE keeps no content, only its hash."""
        from jiyi.core.ids import content_hash

        return cls(
            memory_id=m.id,
            action=action,
            at=at,
            content=None if action == Action.DELETE else m.content,
            content_hash=content_hash(m.content),
            version=m.version,
            related_id=related,
            reason=reason or None,
        )


class DeletionReceipt(BaseModel):
    """What a hard delete removed, from which store, and when."""

    user_id: str
    tenant: str
    deleted_at: datetime
    removed: dict[str, int] = Field(default_factory=dict)


class MaintenanceReport(BaseModel):
    """What one maintenance run did (or, with ``dry_run``, would do) to a user's memories
    (``jiyi.pipeline.maintain``)."""

    tenant: str
    user_id: str
    at: datetime
    dry_run: bool = False
    examined: int = 0  # active and archived memories looked at
    active: int = 0  # active memories after the run
    decayed: int = 0  # inferred memories whose confidence went down
    archived: dict[str, int] = Field(default_factory=dict)  # reason → count
    purged: int = 0  # rows hard-deleted (archived past retention, and what went with them)
    audit_purged: int = 0  # audit rows of the tenant past audit_retention_days
    merged: int = 0  # duplicates absorbed into a keeper
    expiring: int = 0  # active memories expiring within a day
    seconds: float = 0.0
    archived_ids: list[str] = Field(default_factory=list)
    purged_ids: list[str] = Field(default_factory=list)
    merged_ids: dict[str, list[str]] = Field(default_factory=dict)  # keeper → absorbed
    steps: list[str] = Field(default_factory=list)  # the steps run, in order
    rolled_up: int = 0  # weekly roll-ups written or refreshed
    rollup_ids: list[str] = Field(default_factory=list)
    reflected: int = 0  # profile reflections written or rewritten (unchanged ones not counted)
    backfilled: int = 0  # vectors re-embedded with the configured embedder
    stale_vectors: int = 0  # vectors still made by another embedder after the run


class HealthReport(BaseModel):
    """The state of one user's memories (``Memory.health``): counts by kind and status, and
    what the lifecycle is about to do."""

    tenant: str
    user_id: str
    at: datetime
    counts: dict[str, dict[str, int]] = Field(default_factory=dict)  # kind → status → n
    active: int = 0
    archived: int = 0
    superseded: int = 0
    expiring_soon: int = 0  # active, expiring within a week unless used
    stale: int = 0  # active, relevance factor below 0.5 (unused for ~140 days)
    never_used: int = 0  # active extracted memories never read
    due_archive: int = 0  # the next maintenance would archive these
    due_purge: int = 0  # archived past the retention period
    oldest_observed_at: datetime | None = None
    content_chars: int = 0  # characters of stored content (active and archived)
    stale_vectors: int = 0  # vectors another embedder made: the backfill's work left
    last_rollup_at: datetime | None = None  # when the newest weekly roll-up was written
    last_reflection_at: datetime | None = None  # when the profile was last reflected on


class TenantHealth(BaseModel):
    """The health of a whole tenant (``Memory.tenant_health``): every user's
    :class:`HealthReport` added up, and the users holding the most active memories."""

    tenant: str
    at: datetime
    users: int = 0
    counts: dict[str, dict[str, int]] = Field(default_factory=dict)  # kind → status → n
    active: int = 0
    archived: int = 0
    superseded: int = 0
    expiring_soon: int = 0
    stale: int = 0
    never_used: int = 0
    due_archive: int = 0
    due_purge: int = 0
    content_chars: int = 0
    stale_vectors: int = 0
    oldest_observed_at: datetime | None = None
    last_rollup_at: datetime | None = None
    last_reflection_at: datetime | None = None
    largest_users: dict[str, int] = Field(default_factory=dict)  # user → active, top 10

    @classmethod
    def of(cls, tenant: str, at: datetime, reports: Iterable[HealthReport]) -> TenantHealth:
        """The sum of per-user reports (earliest oldest, latest last-run times)."""
        out = cls(tenant=tenant, at=at)
        sizes: dict[str, int] = {}
        summed = (
            "active archived superseded expiring_soon stale never_used due_archive due_purge "
            "content_chars stale_vectors"
        ).split()
        for r in reports:
            out.users += 1
            sizes[r.user_id] = r.active
            for name in summed:
                setattr(out, name, getattr(out, name) + getattr(r, name))
            for kind, per in r.counts.items():
                mine = out.counts.setdefault(kind, {})
                for status, n in per.items():
                    mine[status] = mine.get(status, 0) + n
            out.oldest_observed_at = _pick(min, out.oldest_observed_at, r.oldest_observed_at)
            out.last_rollup_at = _pick(max, out.last_rollup_at, r.last_rollup_at)
            out.last_reflection_at = _pick(max, out.last_reflection_at, r.last_reflection_at)
        top = sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        out.largest_users = dict(top)
        return out


def _pick(
    choose: Callable[[datetime, datetime], datetime], a: datetime | None, b: datetime | None
) -> datetime | None:
    return b if a is None else a if b is None else choose(a, b)
