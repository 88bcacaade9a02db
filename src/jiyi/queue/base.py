"""The durable work queue: the ``WorkQueue`` port and its :class:`Job`.

Background work that must survive a crash (extraction of accepted messages; later embedding
backfill and consolidation) is a row in a queue stored next to the memories. A job moves

    pending ──claim──▶ running ──complete──▶ done        (kept for ``retention``, then pruned)
       ▲                  │
       └──fail (attempts < max_attempts, after a backoff)  └─fail (attempts = max)─▶ dead

and a ``running`` job whose lease ran out (its worker died) is claimable again, so a
``kill -9`` at any point delays a job but never loses it. Processing is therefore
at-least-once: a job's handler must be idempotent (extraction is, per batch — see
``jiyi.worker``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

JobState = Literal["pending", "running", "done", "dead"]
# extract: accepted messages to extract (Memory.process); the others run lifecycle steps
# for one user (jiyi.pipeline.maintain.JOB_STEPS): maintain = sweep, purge, merge (daily);
# rollup and reflect (weekly); backfill (re-embed another embedder's vectors, when needed).
JobKind = Literal["extract", "maintain", "rollup", "reflect", "backfill"]
JOB_KINDS: tuple[JobKind, ...] = ("extract", "maintain", "rollup", "reflect", "backfill")
STATES: tuple[JobState, ...] = ("pending", "running", "done", "dead")
MAX_BACKOFF = timedelta(hours=1)


class Job(BaseModel):
    """One unit of background work.

    ``payload`` must already be safe to store: the write path redacts PII before a job is
    built, so the queue never holds anything the memory store may not.
    """

    id: str  # chosen by the producer: enqueueing the same id twice is a no-op
    kind: JobKind
    tenant: str
    user_id: str
    payload: dict[str, Any] = Field(default_factory=dict)
    state: JobState = "pending"
    attempts: int = 0  # claims so far, the current one included
    last_error: str | None = None
    created_at: datetime


def backoff(attempts: int, base: timedelta) -> timedelta:
    """Delay before retry number ``attempts`` (1-based): base, 2×base, 4×base … ≤ 1 hour."""
    return min(base * (1 << min(max(0, attempts - 1), 20)), MAX_BACKOFF)


class WorkQueue(Protocol):
    """A durable FIFO of jobs shared by any number of producer and worker processes.

    Guarantees every implementation keeps (``tests/contract/test_queue_contract.py``):
    - Durability: a job is stored when ``enqueue`` returns.
    - Exclusivity: a job is held by at most one worker at a time (until its lease ends).
    - Order: ``claim`` returns the oldest due job (by ``available_at``, then creation).
    - Time comes from the caller (``now``), so tests inject a clock.
    """

    def enqueue(self, job: Job, *, now: datetime, delay: timedelta = timedelta(0)) -> bool:
        """Store ``job`` as pending, due at ``now + delay``. True if stored; False if a job
        with this id already exists in any state (nothing changes — producers retry
        safely)."""
        ...

    def release(self, job_id: str, *, now: datetime) -> bool:
        """Make a pending job due at ``now`` (end its enqueue delay early). False if it is
        not pending any more (claimed, done, purged) or unknown."""
        ...

    def claim(self, worker: str, *, lease: timedelta, now: datetime) -> Job | None:
        """The oldest due job, now ``running`` for ``worker`` until ``now + lease`` with
        ``attempts`` incremented; or None. Due: pending and available, or running with
        its lease expired (its worker is presumed dead)."""
        ...

    def complete(self, job_id: str, *, now: datetime) -> bool:
        """Mark the job done. False if it no longer exists (purged meanwhile) or is
        already done; unknown ids are ignored."""
        ...

    def fail(self, job_id: str, error: str, *, now: datetime) -> JobState | None:
        """Record a failed attempt: ``pending`` again after :func:`backoff`, or ``dead``
        once ``attempts`` reached the queue's ``max_attempts``. Returns the new state
        (None for an unknown id). ``error`` is stored truncated; it must not hold PII."""
        ...

    def retry_dead(self, *, now: datetime) -> int:
        """Move every dead job back to pending with attempts reset (after a fix);
        returns how many."""
        ...

    def purge_user(self, tenant: str, user_id: str) -> int:
        """Delete every job of this user in this tenant, in any state (their payloads
        hold the user's words); returns how many."""
        ...

    def counts(self) -> dict[str, int]:
        """Jobs per state; every state in :data:`STATES` is present (0 if none)."""
        ...

    def dead(self, limit: int = 100) -> list[Job]:
        """Dead jobs, oldest first, with their ``last_error``."""
        ...

    def prune(self, *, before: datetime) -> int:
        """Delete done jobs finished before ``before``; returns how many."""
        ...

    def close(self) -> None:
        """Release connections; further calls are undefined."""
        ...
