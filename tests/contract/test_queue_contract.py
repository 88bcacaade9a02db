"""WorkQueue guarantees, run against every backend: SQLite always, PostgreSQL when
JIYI_TEST_PG_DSN points at a server (``scripts/services.sh up``)."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jiyi.queue import Job, SqliteWorkQueue, WorkQueue

T0 = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
LEASE = timedelta(seconds=30)
PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.integration)])
def queue(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[WorkQueue]:
    if request.param == "sqlite":
        q: WorkQueue = SqliteWorkQueue(
            tmp_path / "queue.db", max_attempts=3, retry_base=timedelta(seconds=10)
        )
        yield q
        q.close()
        return
    if not PG_DSN:
        pytest.skip(
            "PostgreSQL not configured: run `scripts/services.sh up` and export "
            "JIYI_TEST_PG_DSN (CI always does)"
        )
    from jiyi.queue.postgres import PostgresWorkQueue

    pq = PostgresWorkQueue(
        PG_DSN,
        schema=f"q_{uuid.uuid4().hex[:10]}",
        max_attempts=3,
        retry_base=timedelta(seconds=10),
    )
    yield pq
    pq.drop()
    pq.close()


def job(i: int | str, user: str = "alice", tenant: str = "acme") -> Job:
    return Job(
        id=f"job-{i}",
        kind="extract",
        tenant=tenant,
        user_id=user,
        payload={"messages": [{"content": f"我对花生过敏 {i}"}]},
        created_at=T0,
    )


def test_jobs_come_out_oldest_first_with_their_payload(queue: WorkQueue) -> None:
    for i in range(3):
        assert queue.enqueue(job(i), now=T0 + timedelta(seconds=i))
    got = [queue.claim("w", lease=LEASE, now=T0 + timedelta(seconds=5)) for _ in range(4)]
    assert [j.id if j else None for j in got] == ["job-0", "job-1", "job-2", None]
    first = got[0]
    assert first is not None
    assert (first.state, first.attempts, first.payload) == (
        "running",
        1,
        {"messages": [{"content": "我对花生过敏 0"}]},
    )


def test_enqueue_is_idempotent_by_id(queue: WorkQueue) -> None:
    assert queue.enqueue(job(1), now=T0)
    assert not queue.enqueue(job(1), now=T0)
    claimed = queue.claim("w", lease=LEASE, now=T0)
    assert claimed is not None
    assert queue.complete(claimed.id, now=T0)
    assert not queue.enqueue(job(1), now=T0)  # also once done: the batch was accepted
    assert queue.counts() == {"pending": 0, "running": 0, "done": 1, "dead": 0}


def test_a_delayed_job_waits_until_released(queue: WorkQueue) -> None:
    assert queue.enqueue(job(1), now=T0, delay=timedelta(seconds=60))
    assert queue.claim("w", lease=LEASE, now=T0) is None
    assert queue.release("job-1", now=T0)
    claimed = queue.claim("w", lease=LEASE, now=T0)
    assert claimed is not None and not queue.release("job-1", now=T0)  # running now
    assert not queue.release("no-such-job", now=T0)
    queue.enqueue(job(2), now=T0, delay=timedelta(seconds=60))  # never released:
    assert queue.claim("w", lease=LEASE, now=T0 + timedelta(seconds=60)) is not None


def test_a_dead_workers_job_is_claimed_again_after_its_lease(queue: WorkQueue) -> None:
    queue.enqueue(job(1), now=T0)
    assert queue.claim("w1", lease=LEASE, now=T0) is not None
    assert queue.claim("w2", lease=LEASE, now=T0 + LEASE - timedelta(seconds=1)) is None
    again = queue.claim("w2", lease=LEASE, now=T0 + LEASE)
    assert again is not None and again.id == "job-1" and again.attempts == 2


def test_failures_back_off_then_go_dead_and_can_be_retried(queue: WorkQueue) -> None:
    queue.enqueue(job(1), now=T0)
    now = T0
    states = []
    for wait in (0, 10, 20):  # retry_base 10 s, doubling
        now += timedelta(seconds=wait)
        assert (
            queue.claim("w", lease=LEASE, now=now - timedelta(microseconds=1)) is None or wait == 0
        )
        claimed = queue.claim("w", lease=LEASE, now=now)
        assert claimed is not None, wait
        states.append(queue.fail(claimed.id, "ExtractionError: timeout", now=now))
    assert states == ["pending", "pending", "dead"]
    assert queue.claim("w", lease=LEASE, now=now + timedelta(days=1)) is None
    (dead,) = queue.dead()
    assert dead.last_error == "ExtractionError: timeout" and dead.attempts == 3
    assert queue.counts()["dead"] == 1
    assert queue.retry_dead(now=now) == 1
    revived = queue.claim("w", lease=LEASE, now=now)
    assert revived is not None and revived.attempts == 1
    assert queue.fail("no-such-job", "x", now=now) is None


def test_complete_reports_a_purged_job(queue: WorkQueue) -> None:
    queue.enqueue(job(1), now=T0)
    queue.enqueue(job(2, user="bob"), now=T0)
    queue.enqueue(job(3, tenant="globex"), now=T0)
    claimed = queue.claim("w", lease=LEASE, now=T0)
    assert claimed is not None and claimed.id == "job-1"
    assert queue.purge_user("acme", "alice") == 1
    assert not queue.complete("job-1", now=T0)
    assert sum(queue.counts().values()) == 2


def test_done_jobs_are_pruned_after_retention(queue: WorkQueue) -> None:
    queue.enqueue(job(1), now=T0)
    queue.complete("job-1", now=T0)
    assert queue.prune(before=T0) == 0
    assert queue.prune(before=T0 + timedelta(seconds=1)) == 1


def test_concurrent_workers_never_share_a_job(queue: WorkQueue) -> None:
    for i in range(60):
        queue.enqueue(job(i), now=T0)
    seen: list[str] = []
    lock = threading.Lock()

    def work() -> None:
        while j := queue.claim(threading.current_thread().name, lease=LEASE, now=T0):
            with lock:
                seen.append(j.id)
            queue.complete(j.id, now=T0)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == sorted(f"job-{i}" for i in range(60))
    assert queue.counts()["done"] == 60
