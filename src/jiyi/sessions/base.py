"""Short-term session memory: the ``SessionStore`` port and its value types.

A session is the live conversation of one user (optionally with one agent) inside one
tenant. The store keeps its whole transcript until the session ends — explicitly or after
``ttl`` without an append — and then hands the transcript over as a :class:`PendingFlush`
for the long-term write. A pending flush stays in the store until :meth:`SessionStore.ack`,
so a failed or interrupted write is claimed again later: nothing said in a session is lost.

The Protocol is shaped for a Redis implementation with one Lua script per method: every
method is one atomic step on one session (or on the pending queue), takes ``now`` from the
caller (so tests inject a clock and no backend needs its own), and returns plain values.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from pydantic import BaseModel, Field

Role = Literal["user", "assistant", "system"]


@dataclass(frozen=True)
class SessionKey:
    """A session is identified by tenant and id: two tenants' "s1" are different sessions."""

    tenant: str
    session_id: str


@dataclass(frozen=True)
class SessionOwner:
    """Whose session it is; set by the first append and checked by every later one."""

    user_id: str
    agent_id: str | None = None


class SessionMessage(BaseModel):
    """One message of a live session; ``seq`` is its 1-based position in the transcript."""

    id: str
    seq: int
    role: Role
    content: str
    name: str | None = None
    timestamp: datetime


class SessionView(BaseModel):
    """A live session: its newest ``window`` messages, oldest first."""

    session_id: str
    user_id: str
    agent_id: str | None = None
    messages: list[SessionMessage] = Field(default_factory=list)
    total: int = 0  # messages in the whole transcript so far
    started_at: datetime
    last_active_at: datetime
    expires_at: datetime
    ended: bool = False


class PendingFlush(BaseModel):
    """An ended session's full transcript, waiting to be written to long-term memory."""

    flush_id: str
    tenant: str
    session_id: str
    user_id: str
    agent_id: str | None = None
    messages: list[SessionMessage]
    reason: Literal["ended", "expired", "shutdown"]
    attempts: int = 0  # claims so far, this one included


class SessionStore(Protocol):
    """Live sessions and the queue of ended ones awaiting their long-term write.

    Guarantees every implementation keeps (``tests/contract/test_session_contract.py``
    checks them on every backend):
    - Atomicity: concurrent appends to one session are serialised; each gets a distinct
      ``seq``, none is lost, and the transcript is in ``seq`` order.
    - Scoping: keys are (tenant, session_id); nothing crosses tenants.
    - Expiry: a session whose ``expires_at`` (last append + ttl) is at or before ``now`` is
      not live — ``get`` returns None and an append starts a new session after queueing the
      old transcript as a pending flush, exactly as ``expire`` would.
    - Hand-over: ending a session moves its transcript to the pending queue in the same
      atomic step, so a transcript is always in exactly one place.
    """

    async def append(
        self,
        key: SessionKey,
        message: SessionMessage,
        *,
        owner: SessionOwner,
        window: int,
        ttl: timedelta,
        max_messages: int,
        now: datetime,
    ) -> SessionView:
        """Append ``message`` (its ``seq`` is assigned here) and return the new window.

        Starts the session if none is live. Raises ConflictError if the live session belongs
        to another owner, PayloadTooLargeError if it already holds ``max_messages``."""
        ...

    async def get(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        """The live session's newest ``window`` messages, or None if there is none."""
        ...

    async def end(self, key: SessionKey, *, window: int, now: datetime) -> SessionView | None:
        """End the live session: its transcript joins the pending queue (due at once).
        Returns the final view with ``ended=True``, or None if no session was live (so
        ending twice is harmless)."""
        ...

    async def expire(self, now: datetime) -> int:
        """End every session idle past its ttl (reason ``expired``); returns how many."""
        ...

    async def claim_due(self, now: datetime, *, limit: int, lease: timedelta) -> list[PendingFlush]:
        """Up to ``limit`` pending flushes that are due, oldest first; each is hidden from
        further claims until ``now + lease * 2**(attempts-1)`` (capped at one hour), after
        which it is due again unless acknowledged. ``attempts`` counts this claim."""
        ...

    async def ack(self, flush_id: str) -> None:
        """Forget a pending flush whose write succeeded. Unknown ids are ignored."""
        ...

    async def delete_user(self, tenant: str, user_id: str) -> int:
        """Remove every live session and pending flush of this user in this tenant (a hard
        delete must not be undone by a later flush); returns how many messages went."""
        ...

    async def close(self, now: datetime) -> list[PendingFlush]:
        """Release the store. Returns the flushes that would otherwise be lost with it: an
        in-process store ends every live session (reason ``shutdown``) and returns all
        unacknowledged flushes for the caller to write before exiting; a durable store
        (Redis) keeps them for the next process and returns []."""
        ...
