"""The background worker: claims jobs from a :class:`~jiyi.queue.base.WorkQueue` and runs
them (``jiyi worker``, or threads inside ``jiyi serve``).

Crash safety is the queue's lease plus idempotent jobs: a job is marked done only after
its writes committed, and a job whose worker died is claimed again when its lease ends and
finds its batch already marked extracted (see ``Memory.process``). So ``kill -9`` at any
moment costs at most one lease of delay and never a duplicate memory.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from jiyi.core.models import AddResult
from jiyi.core.ports import Clock
from jiyi.errors import InvalidInputError, JiyiError
from jiyi.memory import Memory
from jiyi.queue.base import Job, WorkQueue

log = logging.getLogger(__name__)
RETENTION = timedelta(days=1)  # done jobs are kept this long: re-accepting a batch is a no-op


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _describe(exc: BaseException) -> str:
    # Stored in the queue and logged: the type and our own message, never a traceback's
    # locals (the payload is redacted, but keep errors short and content-free anyway).
    detail = exc.message if isinstance(exc, JiyiError) else ""
    return f"{type(exc).__name__}: {detail}"[:300]


class Worker:
    """Runs jobs one at a time.

    Args:
        queue: where jobs come from.
        memory: the Memory of a tenant (jobs name their tenant).
        name: recorded on claimed jobs; default host:pid:thread.
        lease: how long a claimed job is ours; it comes back if we die.
        clock: "now" for the queue (tests inject one).
        on_done: called after a job's writes committed (the server bumps the user's
            context cache and counts metrics here).
    """

    def __init__(
        self,
        queue: WorkQueue,
        memory: Callable[[str], Memory],
        *,
        name: str | None = None,
        lease: timedelta = timedelta(minutes=2),
        clock: Clock | None = None,
        on_done: Callable[[Job, AddResult | None], None] | None = None,
    ) -> None:
        self.queue = queue
        self.memory = memory
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.lease = lease
        self.clock = clock or _utcnow
        self.on_done = on_done or (lambda job, result: None)
        self.processed = 0
        self.failed = 0

    def run_once(self) -> Job | None:
        """Claim and run one job; the job (with its outcome recorded), or None if idle."""
        job = self.queue.claim(
            f"{self.name}:{threading.get_ident()}", lease=self.lease, now=self.clock()
        )
        if job is None:
            return None
        try:
            result = self.memory(job.tenant).process(job)
        except Exception as exc:  # a job must never take the worker down
            self.failed += 1
            state = self.queue.fail(job.id, _describe(exc), now=self.clock())
            level = (
                logging.ERROR
                if state == "dead" or isinstance(exc, InvalidInputError)
                else logging.WARNING
            )
            log.log(
                level,
                "job %s failed (attempt %d, now %s): %s",
                job.id,
                job.attempts,
                state,
                _describe(exc),
            )
            return job
        if not self.queue.complete(job.id, now=self.clock()):
            log.info("job %s was purged or finished elsewhere while it ran", job.id)
        self.processed += 1
        self.on_done(job, result)
        return job

    def run(self, stop: threading.Event, *, idle: float = 0.5, drain: bool = False) -> int:
        """Run jobs until ``stop`` is set (or, with ``drain``, until none is due);
        returns how many ran. Prunes done jobs past retention now and then."""
        ran = 0
        pruned_at = 0.0
        while not stop.is_set():
            try:
                job = self.run_once()
            except JiyiError as exc:  # the queue or store is unreachable: wait, retry
                log.warning("worker cannot reach the queue: %s", exc.message)
                stop.wait(max(idle, 2.0))
                continue
            if job is not None:
                ran += 1
                continue
            if drain:
                break
            now = self.clock()
            if now.timestamp() - pruned_at > 3600:
                pruned_at = now.timestamp()
                self.queue.prune(before=now - RETENTION)
            stop.wait(idle)
        return ran
