"""Accept now, extract later (server mode with a work queue): what is stored when, and why
a job run twice — or a producer dying half-way — never loses or duplicates anything."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from jiyi import Memory, MemoryConfig, MemoryKind
from jiyi.queue import Job, SqliteWorkQueue
from jiyi.worker import Worker


@pytest.fixture
def queue(tmp_path: Path) -> Iterator[SqliteWorkQueue]:
    q = SqliteWorkQueue(tmp_path / "queue.db")
    yield q
    q.close()


def claim(queue: SqliteWorkQueue, mem: Memory) -> Job:
    job = queue.claim("test", lease=timedelta(seconds=30), now=mem.now())
    assert job is not None
    return job


def facts(mem: Memory, user: str = "u1") -> list[str]:
    return sorted(m.content for m in mem.list(user_id=user))


def episodes(mem: Memory, user: str = "u1") -> list[dict[str, object]]:
    return [
        {"extracted": m.extracted}
        for m in mem.list(user_id=user, include_episodes=True)
        if m.kind == MemoryKind.EPISODE
    ]


def test_accept_stores_episodes_now_and_the_worker_extracts(
    mem: Memory, queue: SqliteWorkQueue
) -> None:
    res = mem.accept("我对花生过敏，我的手机号是13812345678", queue=queue, user_id="u1")
    assert res.queued and res.events == [] and len(res.episodes) == 1
    assert [(r.kind, r.count) for r in res.redactions] == [("phone", 1)]
    assert facts(mem) == [] and [e["extracted"] for e in episodes(mem)] == [False]
    assert mem.search("花生", user_id="u1")  # the words are searchable at once
    job = claim(queue, mem)
    assert "13812345678" not in str(job.payload)  # the queue never holds PII
    done = mem.process(job)
    assert done is not None and [e.event.value for e in done.events] == ["ADD"]
    assert facts(mem) == ["用户对花生过敏"] and [e["extracted"] for e in episodes(mem)] == [True]


def test_a_fast_worker_never_races_the_episode_write(mem: Memory, queue: SqliteWorkQueue) -> None:
    class ClaimsAtOnce(SqliteWorkQueue):
        def enqueue(self, job: Job, *, now, delay=timedelta(0)):  # type: ignore[no-untyped-def]
            stored = super().enqueue(job, now=now, delay=delay)
            # A worker polls between the enqueue and the episode write: nothing for it.
            assert self.claim("eager", lease=timedelta(seconds=30), now=now) is None
            return stored

    eager = ClaimsAtOnce(queue.path)
    mem.accept("我对花生过敏", queue=eager, user_id="u1")
    eager.close()
    mem.process(claim(queue, mem))  # released once the episodes were written: due now
    assert [e["extracted"] for e in episodes(mem)] == [True]


def test_a_job_run_twice_writes_once(mem: Memory, queue: SqliteWorkQueue) -> None:
    mem.accept("我住在北京。我喜欢爵士乐", queue=queue, user_id="u1")
    job = claim(queue, mem)
    assert mem.process(job) is not None
    # The worker died after its commit but before complete(): the job comes round again.
    assert mem.process(job) is None
    assert facts(mem) == ["用户住在北京", "用户喜欢爵士乐"]
    assert len(episodes(mem)) == 1


def test_a_batch_accepted_twice_is_stored_once(mem: Memory, queue: SqliteWorkQueue) -> None:
    first = mem.accept("我对芒果过敏", queue=queue, user_id="u1", batch_id="flush-1")
    again = mem.accept("我对芒果过敏", queue=queue, user_id="u1", batch_id="flush-1")
    assert len(first.episodes) == 1 and again.episodes == [] and again.queued
    assert len(episodes(mem)) == 1 and queue.counts()["pending"] == 1


def test_episodes_lost_with_the_producer_are_written_by_the_worker(
    mem: Memory, queue: SqliteWorkQueue, clock
) -> None:  # type: ignore[no-untyped-def]
    class DiesAfterEnqueue(SqliteWorkQueue):
        def enqueue(self, job: Job, *, now, delay=timedelta(0)):  # type: ignore[no-untyped-def]
            stored = super().enqueue(job, now=now, delay=delay)
            raise SystemExit("killed between enqueue and the episode write") if stored else None

    dying = DiesAfterEnqueue(queue.path)
    with pytest.raises(SystemExit):
        mem.accept("我在腾讯工作", queue=dying, user_id="u1")
    dying.close()
    assert episodes(mem) == []
    # The job waits out the grace for its producer, then a worker takes over.
    clock.advance(seconds=59)
    assert queue.claim("test", lease=timedelta(seconds=30), now=clock.now) is None
    clock.advance(seconds=1)
    assert mem.process(claim(queue, mem)) is not None
    assert facts(mem) == ["用户在腾讯工作"] and [e["extracted"] for e in episodes(mem)] == [True]


def test_deferred_forget_removes_the_memory_and_the_request(
    mem: Memory, queue: SqliteWorkQueue
) -> None:
    mem.add("我生日是5月3号", user_id="u1")
    mem.accept("别记我的生日", queue=queue, user_id="u1")
    mem.process(claim(queue, mem))
    assert all("生日" not in m.content for m in mem.list(user_id="u1", include_episodes=True))


def test_a_job_for_deleted_episodes_does_nothing(mem: Memory, queue: SqliteWorkQueue) -> None:
    res = mem.accept("我对花生过敏", queue=queue, user_id="u1")
    mem.delete(res.episodes[0].id)
    assert mem.process(claim(queue, mem)) is None and facts(mem) == []


def test_worker_retries_then_dead_letters(mem: Memory, tmp_path: Path) -> None:
    queue = SqliteWorkQueue(tmp_path / "q2.db", max_attempts=2, retry_base=timedelta(0))
    mem.accept("我对花生过敏", queue=queue, user_id="u1")
    calls = []

    def broken(tenant: str) -> Memory:
        calls.append(tenant)
        raise RuntimeError("extractor down")

    w = Worker(queue, broken, clock=mem.now)
    assert w.run(threading.Event(), drain=True) == 2
    assert queue.counts()["dead"] == 1 and len(calls) == 2
    (dead,) = queue.dead()
    assert dead.last_error == "RuntimeError: "
    queue.retry_dead(now=mem.now())
    w = Worker(queue, lambda tenant: mem, clock=mem.now)
    assert w.run(threading.Event(), drain=True) == 1
    assert facts(mem) == ["用户对花生过敏"] and queue.counts()["done"] == 1
    queue.close()


def test_slow_semantic_search_degrades_to_keywords(tmp_path: Path, slow_embedder) -> None:  # type: ignore[no-untyped-def]
    cfg = MemoryConfig(vector_budget_ms=50)
    with Memory(tmp_path / "d.db", embedder=slow_embedder, config=cfg) as mem:
        mem.add("我对花生过敏", user_id="u1")
        assert not mem.search_result("花生", user_id="u1").degraded
        slow_embedder.delay = 0.5
        found = mem.search_result("花生", user_id="u1")
        assert found.degraded and any("花生" in h.memory.content for h in found.hits)
        assert mem.context("花生", user_id="u1").degraded


def test_a_goal_report_accepted_now_moves_the_goal_when_the_worker_extracts(
    mem: Memory, queue: SqliteWorkQueue
) -> None:
    mem.add("我打算明年考研", user_id="u1")
    mem.accept("不想考研了", queue=queue, user_id="u1")
    [before] = mem.profile("u1").goals
    assert before.status.value == "active"  # nothing is judged before extraction
    mem.process(claim(queue, mem))
    [after] = mem.profile("u1").goals
    assert (after.slot, after.status.value) == ("goal.考研", "abandoned")
    assert after.text == "用户打算明年考研"  # the report did not come back as a new goal
