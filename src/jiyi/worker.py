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
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from jiyi.core.models import AddResult, MaintenanceReport, Scope
from jiyi.core.ports import Clock, VectorLedger
from jiyi.engine import Engine
from jiyi.errors import InvalidInputError, JiyiError
from jiyi.memory import Memory
from jiyi.pipeline.rollup import iso_week
from jiyi.queue.base import Job, JobKind, WorkQueue

log = logging.getLogger(__name__)
RETENTION = timedelta(days=1)  # done jobs are kept this long: re-accepting a batch is a no-op


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _describe(exc: BaseException) -> str:
    # Stored in the queue and logged: the type and our own message, never a traceback's
    # locals (the payload is redacted, but keep errors short and content-free anyway).
    detail = exc.message if isinstance(exc, JiyiError) else ""
    return f"{type(exc).__name__}: {detail}"[:300]


#: What a job's run returned: an extraction's result, a lifecycle job's report, or None.
JobResult = AddResult | MaintenanceReport | None
#: What to enqueue when maintenance is due: the jobs for ``now`` (see :func:`maintenance_jobs`).
Schedule = Callable[[datetime], Iterable[Job]]


def maintenance_jobs(
    tenants: Iterable[str],
    users_of: Callable[[str], Iterable[str]],
    now: datetime,
    *,
    stale: Callable[[str, str], bool] | None = None,
) -> Iterable[Job]:
    """The lifecycle jobs due for each user of each tenant at ``now``: ``maintain`` once per
    UTC day, ``rollup`` and ``reflect`` once per ISO week, and ``backfill`` once per day for a
    user whose vectors another embedder made (``stale(tenant, user)``). Each job id names its
    day or week, so however many workers enqueue them, each runs once per period."""
    day = now.astimezone(UTC).date().isoformat()
    week = iso_week(now)
    for tenant in tenants:
        for user in users_of(tenant):
            due: list[tuple[JobKind, str]] = [
                ("maintain", day),
                ("rollup", week),
                ("reflect", week),
            ]
            if stale is not None and stale(tenant, user):
                due.append(("backfill", day))
            for kind, period in due:
                yield Job(
                    id=f"{kind}:{period}:{tenant}:{user}",
                    kind=kind,
                    tenant=tenant,
                    user_id=user,
                    created_at=now,
                )


def backfill_continuation(job: Job, report: MaintenanceReport, now: datetime) -> Job | None:
    """The next round of a ``backfill`` job that stopped at its per-job limit with vectors
    still stale (None when it finished, or made no progress: no endless chain)."""
    if job.kind != "backfill" or report.stale_vectors == 0 or report.backfilled == 0:
        return None
    round_ = int(job.payload.get("round", 0)) + 1
    base = job.id.split("#", 1)[0]
    return Job(
        id=f"{base}#{round_}",
        kind="backfill",
        tenant=job.tenant,
        user_id=job.user_id,
        payload={"round": round_},
        created_at=now,
    )


def users_of(engine: Engine) -> Callable[[str], Iterable[str]]:
    """Every user id of a tenant with stored memories, page by page."""

    def users(tenant: str) -> Iterable[str]:
        after: str | None = None
        while True:
            page = engine.users(tenant, after=after, limit=500)
            yield from (u.user_id for u in page)
            if len(page) < 500:
                return
            after = page[-1].user_id

    return users


def daily_maintenance(engine: Engine, tenants: Callable[[], Iterable[str]]) -> Schedule:
    """The schedule of lifecycle jobs for every user of ``tenants()`` (read each time: a
    tenant given its first key later is included from then on)."""

    def stale(tenant: str, user: str) -> bool:
        store = engine.store
        if not isinstance(store, VectorLedger):
            return False
        name = engine.embedder_for(tenant).name
        return bool(store.stale_vectors(Scope(tenant=tenant, user_id=user), name, limit=1))

    return lambda now: maintenance_jobs(tenants(), users_of(engine), now, stale=stale)


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
        on_failed: called after a job's run raised and the failure was recorded.
        schedule: jobs to enqueue every ``schedule_every`` while idle (the daily
            maintenance of every user: :func:`maintenance_jobs`); None: none.
    """

    def __init__(
        self,
        queue: WorkQueue,
        memory: Callable[[str], Memory],
        *,
        name: str | None = None,
        lease: timedelta = timedelta(minutes=2),
        clock: Clock | None = None,
        on_done: Callable[[Job, JobResult], None] | None = None,
        on_failed: Callable[[Job], None] | None = None,
        schedule: Schedule | None = None,
        schedule_every: timedelta = timedelta(hours=1),
    ) -> None:
        self.queue = queue
        self.memory = memory
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.lease = lease
        self.clock = clock or _utcnow
        self.on_done = on_done or (lambda job, result: None)
        self.on_failed = on_failed or (lambda job: None)
        self.schedule = schedule
        self.schedule_every = schedule_every
        # The first run is one period after start: a restarted worker does not redo the
        # day's maintenance at once (the day's job ids make a repeat a no-op anyway).
        self.scheduled_at: datetime | None = self.clock() if schedule is not None else None
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
            self.on_failed(job)
            return job
        if isinstance(result, MaintenanceReport):
            more = backfill_continuation(job, result, self.clock())
            if more is not None:  # before completing: a crash in between re-runs this one
                self.queue.enqueue(more, now=self.clock())
        if not self.queue.complete(job.id, now=self.clock()):
            log.info("job %s was purged or finished elsewhere while it ran", job.id)
        self.processed += 1
        self.on_done(job, result)
        return job

    def enqueue_due(self) -> int:
        """Enqueue the scheduled jobs if ``schedule_every`` passed since the last time;
        how many were new (ids already queued are skipped by the queue)."""
        now = self.clock()
        if self.schedule is None or (
            self.scheduled_at is not None and now - self.scheduled_at < self.schedule_every
        ):
            return 0
        self.scheduled_at = now
        added = sum(1 for job in self.schedule(now) if self.queue.enqueue(job, now=now))
        if added:
            log.info("scheduled %d maintenance job(s)", added)
        return added

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
            try:
                if self.enqueue_due():
                    continue
            except JiyiError as exc:
                log.warning("could not schedule maintenance: %s", exc.message)
            now = self.clock()
            if now.timestamp() - pruned_at > 3600:
                pruned_at = now.timestamp()
                self.queue.prune(before=now - RETENTION)
            stop.wait(idle)
        return ran
