"""Background writer: ended sessions → long-term memory, off the request path.

Why one ``Memory.add(..., infer=True)`` per session and not "episodes first, extraction
later": ``add`` writes the episodes and everything extracted from them in ONE transaction,
and the session store keeps the transcript (a pending flush) until that transaction has
committed and we acknowledge it. A failure anywhere therefore leaves the transcript where
it was, and it is claimed again after a growing lease. After ``flush_max_attempts`` failed
tries the flush is written with ``infer=False`` — the episodes alone, which is what
"stored first" has to guarantee — so a broken extractor cannot keep a conversation out of
memory. (A crash between commit and acknowledgement re-writes the episodes once more;
extracted memories dedupe as NOOPs.)

With a work queue the write is ``Memory.accept`` instead: the episodes are stored and an
extraction job enqueued, keyed by the flush id, so a flush written twice (a crash before
the ack, or an ack that could not reach Redis) is accepted once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from jiyi.errors import InvalidInputError
from jiyi.server.services import Services
from jiyi.sessions.base import PendingFlush

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=30)  # first retry delay; doubles per attempt up to an hour
BATCH = 20
GIVE_UP_AFTER = 10  # attempts; only for input the store rejects outright (never transient)


class Flusher:
    """Runs expiry sweeps and pending flushes; woken early by :meth:`kick`."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self.idle = asyncio.Event()  # set whenever a sweep found nothing left to do

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run(), name="jiyi-session-flusher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def kick(self) -> None:
        """Ask for a sweep now; safe to call from any thread."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.services.settings.sweep_seconds)
            self._wake.clear()
            try:
                await self.sweep()
            except Exception:  # the loop must survive anything a sweep throws
                log.exception("session sweep failed")

    async def sweep(self) -> int:
        """Expire idle sessions and write every due flush; returns flushes written."""
        self.idle.clear()
        sessions = self.services.sessions
        written = 0
        await sessions.expire(self.services.clock())
        while True:
            epochs = dict(self.services.user_epochs)  # before claiming: see Services
            due = await sessions.claim_due(self.services.clock(), limit=BATCH, lease=LEASE)
            if not due:
                break
            for f in due:
                written += await self.write(f, epoch=epochs.get((f.tenant, f.user_id), 0))
        self.idle.set()
        return written

    async def write(self, f: PendingFlush, *, epoch: int | None = None) -> bool:
        """Write one flush claimed when the user's deletion epoch was ``epoch`` (None: now);
        True (and acknowledged) on success."""
        s = self.services
        async with s.user_lock(f.tenant, f.user_id):
            current = s.user_epochs.get((f.tenant, f.user_id), 0)
            if epoch is not None and epoch != current:
                await s.sessions.ack(f.flush_id)  # the user was deleted after the claim
                return False
            return await self._write(f)

    async def _write(self, f: PendingFlush) -> bool:
        s = self.services
        infer = f.attempts <= s.settings.flush_max_attempts
        msgs = [
            {
                "role": m.role,
                "content": m.content,
                "name": m.name,
                "id": m.id,
                "timestamp": m.timestamp,
            }
            for m in f.messages
        ]
        mem = s.memory(f.tenant)
        try:
            if s.queue is not None and infer:
                result = await s.run(
                    mem.accept,
                    msgs,
                    queue=s.queue,
                    user_id=f.user_id,
                    agent_id=f.agent_id,
                    session_id=f.session_id,
                    batch_id=f"flush-{f.flush_id}",
                    grace=s.queue_grace,
                )
            else:
                result = await s.run(
                    mem.add,
                    msgs,
                    user_id=f.user_id,
                    agent_id=f.agent_id,
                    session_id=f.session_id,
                    infer=infer,
                )
        except Exception as exc:
            s.metrics.inc("jiyi_extraction_failures_total")
            log.warning(
                "writing session %s failed on attempt %d: %s",
                f.session_id,
                f.attempts,
                type(exc).__name__,
            )
            if isinstance(exc, InvalidInputError) and f.attempts >= GIVE_UP_AFTER:
                log.error(
                    "dropping session %s after %d attempts: %s", f.session_id, f.attempts, exc
                )
                await s.sessions.ack(f.flush_id)
            return False
        s.metrics.record_add(result)
        s.metrics.inc(
            "jiyi_session_flushes_total",
            reason=f.reason,
            mode="extract" if infer else "episodes_only",
        )
        await s.sessions.ack(f.flush_id)
        return True
