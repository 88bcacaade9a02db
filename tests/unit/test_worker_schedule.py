"""The worker's lifecycle schedule: daily maintain, weekly rollup and reflect, backfill only
for users whose vectors another embedder made, continued job by job until none is left."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.conftest import FakeClock

from jiyi import Memory, memory
from jiyi.core.models import AddResult, MaintenanceReport
from jiyi.embedders import HashingEmbedder
from jiyi.queue.base import Job
from jiyi.queue.sqlite import SqliteWorkQueue
from jiyi.worker import Worker, daily_maintenance, maintenance_jobs


def test_job_ids_name_the_day_or_the_iso_week(clock: FakeClock) -> None:
    jobs = list(maintenance_jobs(["acme"], lambda t: ["u1"], clock.now))
    assert [j.id for j in jobs] == [
        "maintain:2026-11-29:acme:u1",
        "rollup:2026-W48:acme:u1",
        "reflect:2026-W48:acme:u1",
    ]
    clock.advance(days=1)  # Monday: a new ISO week
    later = list(maintenance_jobs(["acme"], lambda t: ["u1"], clock.now, stale=lambda t, u: True))
    assert [j.id for j in later] == [
        "maintain:2026-11-30:acme:u1",
        "rollup:2026-W49:acme:u1",
        "reflect:2026-W49:acme:u1",
        "backfill:2026-11-30:acme:u1",
    ]


def test_backfill_is_scheduled_for_users_with_stale_vectors_and_runs_to_the_end(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = HashingEmbedder()
    before.name = "hashing-before"
    with Memory(tmp_path / "m.db", embedder=before, clock=clock) as old:
        old.add("我对花生过敏。我住在杭州。我喜欢爬山。", user_id="stale")
    mem = Memory(tmp_path / "m.db", embedder=HashingEmbedder(), clock=clock)
    mem.add("我住在成都", user_id="fresh")
    queue = SqliteWorkQueue(tmp_path / "q.db")
    reports: list[MaintenanceReport] = []

    def done(job: Job, result: AddResult | MaintenanceReport | None) -> None:
        if isinstance(result, MaintenanceReport) and job.kind == "backfill":
            reports.append(result)

    monkeypatch.setattr(memory, "BACKFILL_PER_JOB", 2)  # a job stops early, like a big user's
    try:
        schedule = daily_maintenance(mem.engine, lambda: ["default"])
        due = list(schedule(clock.now))
        assert [j.id for j in due if j.kind == "backfill"] == ["backfill:2026-11-29:default:stale"]
        worker = Worker(queue, lambda tenant: mem, clock=clock, on_done=done)
        for job in due:
            queue.enqueue(job, now=clock.now)
        worker.run(threading.Event(), drain=True)
        assert worker.failed == 0
        assert [r.backfilled for r in reports][:2] == [2, 2]  # continued job by job …
        assert reports[-1].stale_vectors == 0  # … until nothing was left
        stale = mem.health("stale").stale_vectors
        assert stale == 0 and sum(r.backfilled for r in reports) >= 4
        assert all(j.kind != "backfill" for j in schedule(clock.now))  # nothing due now
    finally:
        queue.close()
        mem.close()
