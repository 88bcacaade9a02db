"""Crash test: ``kill -9`` the server and the worker while 1,000 messages are being
ingested; after a restart every acknowledged message exists as an episode and has been
extracted.

Real processes against real services: ``jiyi serve`` and ``jiyi worker`` subprocesses on a
fresh PostgreSQL database (store + work queue) and Redis (sessions, context cache). The
hashing embedder keeps it to well under a minute. Needs ``scripts/services.sh up`` and
JIYI_TEST_PG_DSN / JIYI_TEST_REDIS_URL exported.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

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
KEY = "jy_crash-test-key-0123456789abcdef"
BATCHES = 200  # × 5 messages = 1,000
PER_BATCH = 5
# One template per topic in each language, so a batch never states one topic twice.
TOPICS = [
    (
        ("我对{}过敏", ["花生", "芒果", "海鲜", "牛奶", "鸡蛋"]),
        ("I'm allergic to {}", ["peanuts", "shellfish", "pollen", "penicillin", "cats"]),
    ),
    (
        ("我住在{}", ["杭州", "成都", "北京", "上海", "西安"]),
        ("I live in {}", ["Berlin", "Paris", "Boston", "Madrid", "Oslo"]),
    ),
    (
        ("我在{}工作", ["腾讯", "阿里巴巴", "华为", "字节跳动", "百度"]),
        ("I work at {}", ["Siemens", "Google", "Airbus", "Nokia", "Philips"]),
    ),
    (
        ("我喜欢{}", ["爵士乐", "摇滚乐", "古典音乐", "民谣", "京剧"]),
        ("I love {}", ["jazz", "hiking", "chess", "sushi", "opera"]),
    ),
    (
        ("我的猫叫{}", ["阿橘", "咪咪", "小黑", "团子", "豆豆"]),
        ("My dog's name is {}", ["Rex", "Bella", "Max", "Luna", "Charlie"]),
    ),
]


def batch(i: int) -> dict[str, Any]:
    msgs = []
    for t, (zh, en) in enumerate(TOPICS):
        template, values = zh if (i + t) % 2 == 0 else en
        msgs.append(
            {
                "role": "user",
                "id": f"m-{i:03d}-{t}",
                "content": template.format(values[(i // 2 + t) % len(values)]),
            }
        )
    return {"user_id": f"crash-u{i:03d}", "messages": msgs}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh database on the test server, dropped afterwards."""
    import psycopg

    assert PG_DSN is not None
    name = f"jiyi_crash_{uuid.uuid4().hex[:8]}"
    base, _, _ = PG_DSN.rpartition("/")
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    dsn = f"{base}/{name}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    yield dsn
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class Procs:
    """``jiyi serve`` and ``jiyi worker`` as real subprocesses."""

    def __init__(self, home: Path, dsn: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "JIYI_HOME": str(home),
            "JIYI_STORE": dsn,
            "JIYI_REDIS": str(REDIS_URL),
            "JIYI_EMBEDDER": "hashing",
            # This test is about crashes, not overload: no 503s on a busy CI machine.
            "JIYI_MAX_QUEUE_WAIT_MS": "60000",
            "JIYI_PORT": str(self.port),
            "JIYI_BOOTSTRAP_KEY": KEY,
            "JIYI_QUEUE_WORKERS": "0",
            "JIYI_QUEUE_LEASE_SECONDS": "3",
            "JIYI_QUEUE_GRACE_SECONDS": "5",
            "JIYI_LOG_LEVEL": "warning",
            "OMP_NUM_THREADS": "1",
        }
        self.logs = home / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.server: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.files: list[Any] = []

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        self.starts += 1
        log = open(self.logs / f"{args[0]}-{self.starts}.log", "wb")  # noqa: SIM115
        self.files.append(log)
        return subprocess.Popen(
            [sys.executable, "-c", "from jiyi.cli.main import app; app()", *args],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start(self) -> None:
        self.server = self._spawn("serve")
        self.worker = self._spawn("worker", "--concurrency", "2")
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start; see {self.logs}")
            time.sleep(0.1)

    def kill9(self) -> None:
        for p in (self.server, self.worker):
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()

    def stop(self) -> None:
        for p in (self.server, self.worker):
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        for f in self.files:
            f.close()


def queue_counts(dsn: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT state, count(*) FROM jiyi.work_queue GROUP BY state")
        return {str(s): int(n) for s, n in rows.fetchall()}


def retried_jobs(dsn: str) -> int:
    import psycopg

    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT count(*) FROM jiyi.work_queue WHERE attempts > 1").fetchone()
        return int(row[0]) if row else 0


def send(
    url: str,
    batches: list[int],
    acked: set[int],
    stop: threading.Event,
    on_ack: threading.Event | None = None,
    kill_after: int = 0,
) -> None:
    def post(i: int) -> None:
        if stop.is_set():
            return
        try:
            with httpx.Client(
                base_url=url, timeout=30, headers={"Authorization": f"Bearer {KEY}"}
            ) as h:
                r = h.post("/v1/memories", json=batch(i))
        except httpx.HTTPError:
            return  # not acknowledged: the client will send it again
        if r.status_code == 200 and r.json()["queued"]:
            acked.add(i)
            if on_ack is not None and len(acked) >= kill_after:
                on_ack.set()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(post, batches))


def test_kill_9_mid_ingest_loses_no_acknowledged_message(tmp_path: Path, database: str) -> None:
    t0 = time.monotonic()
    procs = Procs(tmp_path, database)
    procs.start()
    try:
        acked: set[int] = set()
        stop, half = threading.Event(), threading.Event()
        sender = threading.Thread(
            target=send, args=(procs.url, list(range(BATCHES)), acked, stop, half, BATCHES * 2 // 5)
        )
        sender.start()
        assert half.wait(120), "ingest stalled"
        procs.kill9()  # server and worker, while requests are in flight
        stop.set()
        sender.join()
        at_kill = queue_counts(database)
        acked_at_kill = len(acked)
        assert at_kill.get("pending", 0) + at_kill.get("running", 0) > 0, at_kill

        procs.start()
        missing = [i for i in range(BATCHES) if i not in acked]
        send(procs.url, missing, acked, threading.Event())
        assert acked == set(range(BATCHES))

        deadline = time.monotonic() + 180
        while (c := queue_counts(database)).get("pending", 0) + c.get("running", 0):
            assert time.monotonic() < deadline, f"queue did not drain: {c}"
            time.sleep(0.5)
        assert c.get("dead", 0) == 0, c

        episodes = extracted = memories = 0
        with httpx.Client(
            base_url=procs.url, timeout=30, headers={"Authorization": f"Bearer {KEY}"}
        ) as h:
            for i in range(BATCHES):
                b = batch(i)
                items = h.get(
                    "/v1/memories",
                    params={
                        "user_id": b["user_id"],
                        "include_episodes": True,
                        "include_superseded": True,
                    },
                ).json()["memories"]
                for m in b["messages"]:
                    eps = [
                        x
                        for x in items
                        if x["kind"] == "episode" and x["source_message_ids"] == [m["id"]]
                    ]
                    facts = [
                        x
                        for x in items
                        if x["kind"] != "episode" and m["id"] in x["source_message_ids"]
                    ]
                    assert eps, f"message {m['id']} was acknowledged but has no episode"
                    assert all(e["extracted"] for e in eps), m["id"]
                    assert facts, f"nothing was extracted from {m['id']}: {m['content']}"
                    episodes += 1
                    extracted += all(e["extracted"] for e in eps)
                    memories += bool(facts)
        total = BATCHES * PER_BATCH
        assert (episodes, extracted, memories) == (total, total, total)
        print(
            f"\ncrash test: {acked_at_kill * PER_BATCH} messages acknowledged before kill -9, "
            f"queue then {at_kill}; after restart {total} episodes, {extracted} extracted, "
            f"{memories} with memories; {retried_jobs(database)} job(s) re-run after the "
            f"crash; {time.monotonic() - t0:.1f} s"
        )
    finally:
        procs.stop()
