"""Every job kind, run by a real ``jiyi worker`` process on PostgreSQL (store and queue) and
Redis (context cache), and ``kill -9`` mid-run: after a restart the final state equals the
one a run that was never killed leaves — nothing lost, nothing done twice.

Two fresh databases are seeded identically (fixed ids) with users for each kind of job:
``extract`` (accepted messages), ``maintain`` (expired memories to archive, old archived ones
to purge, duplicates to merge), ``rollup`` (a week of events), ``reflect`` (facts) and
``backfill`` (vectors another embedder made). One worker drains the first database; on the
second a worker is killed with SIGKILL while jobs are running and a new one finishes the
queue. Each user gets one job, so the outcome cannot depend on the order jobs run in and the
two states must be equal row for row (ids of what the jobs made aside), history included.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jiyi import Memory
from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed
from jiyi.core.text import keyword_text
from jiyi.embedders import HashingEmbedder
from jiyi.queue.base import JOB_KINDS, Job, JobKind

PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
REDIS_URL = os.environ.get("JIYI_TEST_REDIS_URL")
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (PG_DSN and REDIS_URL),
        reason=(
            "PostgreSQL/Redis not configured: run `scripts/services.sh up` and export "
            "JIYI_TEST_PG_DSN and JIYI_TEST_REDIS_URL"
        ),
    ),
]
USERS = 8  # per job kind
NS = uuid.UUID("8f0e6a52-3c1b-4d8e-9a7f-2b5c6d7e8f90")
NOW = datetime.now(UTC)
JIYI = [sys.executable, "-c", "from jiyi.cli.main import app; app()"]


def mid(*parts: object) -> str:
    return str(uuid.uuid5(NS, ":".join(map(str, parts))))


def row(user: str, key: str, content: str, kind: MemoryKind, **kw: Any) -> MemoryItem:
    at = kw.pop("at", NOW - timedelta(minutes=5))
    return MemoryItem(
        id=mid(user, key),
        user_id=user,
        kind=kind,
        content=content,
        importance=kw.pop("importance", 0.5),
        source_message_ids=[f"{user}-{key}"],
        created_at=at,
        observed_at=at,
        **kw,
    )


def put(mem: Memory, user: str, rows: list[MemoryItem], embedder: HashingEmbedder) -> None:
    vecs = embedder.embed_documents([m.content for m in rows])
    upserts = [Indexed(m, keyword_text(m.content), v) for m, v in zip(rows, vecs, strict=True)]
    mem.store.apply(Scope(user_id=user), ChangeSet(upserts=upserts, embedder=embedder.name))


def seed(dsn: str) -> int:
    """The same users, rows and jobs in any database; returns how many jobs."""
    from jiyi.queue.postgres import PostgresWorkQueue
    from jiyi.storage.postgres import PostgresMemoryStore

    new = HashingEmbedder()  # what the worker embeds with (JIYI_EMBEDDER=hashing)
    old = HashingEmbedder()
    old.name = "hashing-before"  # a model of the same dimension, replaced since
    queue = PostgresWorkQueue(dsn)
    jobs = 0
    with Memory(store=PostgresMemoryStore(dsn), embedder=new) as mem:
        for u in range(USERS):
            m = f"maint-{u}"
            expired = [
                row(m, f"exp{i}", f"用户喜欢第{i}种茶{u}", MemoryKind.PREFERENCE, expires_at=NOW)
                for i in range(40)
            ]
            gone_at = NOW - timedelta(days=45)
            old_rows = [
                row(
                    m,
                    f"old{i}",
                    f"用户去过第{i}个城市{u}",
                    MemoryKind.FACT,
                    status=Status.ARCHIVED,
                    archived_at=gone_at,
                )
                for i in range(30)
            ]
            dups = [
                row(
                    m,
                    f"dup{i}{j}",
                    f"用户的第{i}个爱好是下棋{u}",
                    MemoryKind.FACT,
                    importance=0.4 + j / 10,
                )
                for i in range(5)
                for j in range(2)
            ]
            put(mem, m, expired + old_rows + dups, new)
            r = f"week-{u}"
            events = ["用户今天联系了搬家公司", "用户今天在打包行李", "用户明天去新家看看"]
            put(
                mem,
                r,
                [
                    row(r, f"ev{i}", text, MemoryKind.EVENT, at=NOW - timedelta(minutes=i + 1))
                    for i, text in enumerate(events)
                ],
                new,
            )
            f = f"refl-{u}"
            facts = ["用户对花生过敏", "用户住在杭州", "用户喜欢爬山", "用户的女儿叫小雨"]
            put(
                mem,
                f,
                [
                    row(f, f"f{i}", t, MemoryKind.FACT, importance=0.9 - i / 10)
                    for i, t in enumerate(facts)
                ],
                new,
            )
            b = f"fill-{u}"
            put(
                mem,
                b,
                [row(b, f"b{i}", f"用户记录第{i}条笔记{u}", MemoryKind.FACT) for i in range(60)],
                old,
            )
            mine: list[tuple[JobKind, str]] = [
                ("maintain", m),
                ("rollup", r),
                ("reflect", f),
                ("backfill", b),
            ]
            for kind, user in mine:
                assert queue.enqueue(
                    Job(
                        id=f"{kind}:{user}",
                        kind=kind,
                        tenant="default",
                        user_id=user,
                        created_at=NOW,
                    ),
                    now=NOW,
                )
                jobs += 1
            x = f"talk-{u}"
            said = [
                {"role": "user", "id": f"{x}-1", "content": "我对芒果过敏"},
                {"role": "user", "id": f"{x}-2", "content": "我在腾讯工作"},
            ]
            mem.accept(
                said,
                queue=queue,
                user_id=x,
                batch_id=f"batch-{x}",
                grace=timedelta(0),
                timestamp=NOW,
            )
            jobs += 1
    queue.close()
    return jobs


@pytest.fixture
def databases() -> Iterator[tuple[str, str]]:
    """Two fresh databases on the test server, dropped afterwards."""
    import psycopg

    assert PG_DSN is not None
    names = [f"jiyi_life_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    base, _, _ = PG_DSN.rpartition("/")
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        for name in names:
            conn.execute(f"CREATE DATABASE {name}")
    dsns = [f"{base}/{name}" for name in names]
    for dsn in dsns:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    yield dsns[0], dsns[1]
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def start_worker(dsn: str, logs: Path, n: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "JIYI_HOME": str(logs),
        "JIYI_STORE": dsn,
        "JIYI_REDIS": str(REDIS_URL),
        "JIYI_EMBEDDER": "hashing",
        "JIYI_QUEUE_LEASE_SECONDS": "3",
        "JIYI_MAINTAIN_EVERY_SECONDS": "0",  # only the jobs this test enqueues
        "JIYI_LOG_LEVEL": "warning",
        "OMP_NUM_THREADS": "1",
    }
    # The child keeps its own copy of the log's descriptor; ours closes at once.
    with open(logs / f"worker-{n}.log", "wb") as log:
        return subprocess.Popen(
            [*JIYI, "worker", "--concurrency", "2"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def query(dsn: str, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        return list(conn.execute(sql).fetchall())


def counts(dsn: str) -> dict[str, int]:
    rows = query(dsn, "SELECT state, count(*) FROM jiyi.work_queue GROUP BY state")
    return {str(s): int(n) for s, n in rows}


def wait_until(dsn: str, done: int, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while counts(dsn).get("done", 0) < done:
        if time.monotonic() > deadline:
            raise TimeoutError(f"queue stuck at {counts(dsn)}")
        time.sleep(0.1)


def stop(p: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if p.poll() is None:
        os.killpg(p.pid, sig)
        p.wait(timeout=60)


def snapshot(dsn: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every row as what it says and where it stands (not when, not its generated id), and
    the history actions per user."""
    rows = query(
        dsn,
        "SELECT user_id, kind, status, content, coalesce(topic, ''), derived, "
        "jsonb_array_length(sources), coalesce(embedder, ''), embedding IS NOT NULL, "
        "round(confidence::numeric, 4), version FROM jiyi.memories ORDER BY 1, 2, 3, 4, 5",
    )
    history = query(
        dsn,
        "SELECT user_id, action, count(*) FROM jiyi.history GROUP BY 1, 2 ORDER BY 1, 2",
    )
    return rows, history


def test_kill_9_mid_run_loses_nothing_and_reruns_idempotently(
    databases: tuple[str, str], tmp_path: Path
) -> None:
    clean, killed = databases
    jobs = seed(clean)
    assert seed(killed) == jobs
    kinds = {r[0] for r in query(clean, "SELECT DISTINCT kind FROM jiyi.work_queue")}
    assert kinds == set(JOB_KINDS)  # every kind the queue knows is exercised
    # The clean run.
    w = start_worker(clean, tmp_path, 0)
    try:
        wait_until(clean, jobs)
    finally:
        stop(w)
    # The killed run: SIGKILL while jobs are running, a third of the way or more. A job seen
    # running may finish between the look and the signal (a busy machine): then the rows show
    # none left running, and the worker is started and killed again, up to three times.
    for attempt in range(3):
        w = start_worker(killed, tmp_path, 1 + attempt)
        try:
            deadline = time.monotonic() + 180
            while True:
                c = counts(killed)
                if c.get("running", 0) >= 1 and c.get("done", 0) >= jobs // 3:
                    break
                assert time.monotonic() < deadline, f"never caught running jobs: {c}"
                time.sleep(0.02)
        finally:
            stop(w, signal.SIGKILL)
        at_kill = counts(killed)
        assert at_kill.get("done", 0) < jobs, at_kill
        if at_kill.get("running", 0) >= 1:
            break  # a job was killed while it ran
    assert at_kill.get("running", 0) >= 1, at_kill
    w = start_worker(killed, tmp_path, 9)
    try:
        wait_until(killed, jobs)
    finally:
        stop(w)
    assert counts(killed) == {"done": jobs}  # nothing dead, nothing left behind
    retried = query(killed, "SELECT count(*) FROM jiyi.work_queue WHERE attempts > 1")[0][0]
    assert retried >= 1  # a job killed while running was run again
    assert snapshot(killed) == snapshot(clean)
    check_outcome(killed)


def check_outcome(dsn: str) -> None:
    """What each kind of job had to do, done exactly once."""

    def per_user(sql: str) -> dict[str, int]:
        return {str(u): int(n) for u, n in query(dsn, sql)}

    active_expired = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE user_id LIKE 'maint-%' "
        "AND kind = 'preference' AND status = 'active' GROUP BY 1"
    )
    assert active_expired == {}
    left_old = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE content LIKE '用户去过%' GROUP BY 1"
    )
    assert left_old == {}  # purged
    merged = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE content LIKE '%下棋%' "
        "AND status = 'superseded' GROUP BY 1"
    )
    assert merged == {f"maint-{u}": 5 for u in range(USERS)}
    rollups = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE topic LIKE 'rollup.%' GROUP BY 1"
    )
    assert rollups == {f"week-{u}": 1 for u in range(USERS)}
    reflections = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE topic LIKE 'reflection.%' GROUP BY 1"
    )
    assert reflections == {f"refl-{u}": 1 for u in range(USERS)}
    stale = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE embedding IS NOT NULL "
        "AND embedder IS DISTINCT FROM 'hashing' GROUP BY 1"
    )
    assert stale == {}  # every vector is the worker's embedder's now
    extracted = per_user(
        "SELECT user_id, count(*) FROM jiyi.memories WHERE user_id LIKE 'talk-%' "
        "AND kind <> 'episode' GROUP BY 1"
    )
    assert extracted == {f"talk-{u}": 2 for u in range(USERS)}
