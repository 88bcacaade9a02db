"""A real ``jiyi worker --metrics-port`` process: its endpoint is on loopback, parses as
Prometheus text, and counts the jobs it ran (by kind and outcome) and what they wrote.

The worker runs on the SQLite queue with the hashing embedder: no services needed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from jiyi import Memory
from jiyi.embedders import HashingEmbedder
from jiyi.queue import Job, SqliteWorkQueue

JIYI = [sys.executable, "-c", "from jiyi.cli.main import app; app()"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A store with one accepted add (an extract job) and a job that cannot run."""
    queue = SqliteWorkQueue(tmp_path / "queue.db", max_attempts=1)
    mem = Memory(tmp_path / "jiyi.db", embedder=HashingEmbedder())
    try:
        assert mem.accept("我对花生过敏", queue=queue, user_id="w1").queued
        now = datetime.now(UTC)
        # An extract job naming no batch: its run raises, and with one attempt it is dead.
        poison = Job(id="poison", kind="extract", tenant="default", user_id="w1", created_at=now)
        queue.enqueue(poison, now=now)
        maintain = Job(
            id="maintain:w1", kind="maintain", tenant="default", user_id="w1", created_at=now
        )
        queue.enqueue(maintain, now=now)
    finally:
        mem.close()
        queue.close()
    return tmp_path


@pytest.fixture
def worker(home: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``jiyi worker --metrics-port 0`` and the metrics URL it printed."""
    env = {
        **os.environ,
        "JIYI_HOME": str(home),
        "JIYI_QUEUE": "sqlite",
        "JIYI_EMBEDDER": "hashing",
        "JIYI_MAINTAIN_EVERY_SECONDS": "0",
        "JIYI_QUEUE_MAX_ATTEMPTS": "1",
        "JIYI_LOG_LEVEL": "warning",
    }
    env.pop("JIYI_WORKER_METRICS_HOST", None)
    log = home / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*JIYI, "worker", "--metrics-port", "0"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"metrics at (http://\S+/metrics)", log.read_text())):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "no metrics URL printed"
            time.sleep(0.1)
        yield proc, found.group(1)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)


def samples(url: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = httpx.get(url, timeout=10).text
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def job(kind: str, outcome: str) -> tuple[str, frozenset[tuple[str, str]]]:
    return "jiyi_jobs_total", frozenset({("kind", kind), ("outcome", outcome)})


def test_the_worker_serves_its_job_counters(
    worker: tuple[subprocess.Popen[bytes], str],
) -> None:
    proc, url = worker
    assert url.startswith("http://127.0.0.1:")  # loopback unless told otherwise
    deadline = time.monotonic() + 60
    while True:
        got = samples(url)
        ran = [got.get(job("extract", "done")), got.get(job("extract", "failed"))]
        if ran == [1.0, 1.0] and got.get(job("maintain", "done")) == 1.0:
            break
        assert time.monotonic() < deadline, got
        time.sleep(0.2)
    assert got[("jiyi_memories_written_total", frozenset({("event", "ADD")}))] >= 1
    names = {name for name, _ in got}
    assert not [n for n in names if n.startswith("jiyi_http_")]  # a worker serves no HTTP API
    assert not [n for n in names if n.endswith("_created")]
    assert "# TYPE jiyi_lifecycle_total counter" in httpx.get(url, timeout=10).text
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=30) == 0


def test_a_taken_port_is_one_line_naming_the_setting(home: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "JIYI_HOME": str(home), "JIYI_QUEUE": "sqlite"}
        env["JIYI_WORKER_METRICS_PORT"] = str(port)  # the variable, not the flag
        env["JIYI_EMBEDDER"] = "hashing"
        done = subprocess.run([*JIYI, "worker"], env=env, capture_output=True, timeout=60)
    assert done.returncode != 0
    err = done.stderr.decode()
    assert f"127.0.0.1:{port}" in err and "--metrics-port" in err
    assert "Traceback" not in err
