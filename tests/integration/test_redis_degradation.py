"""Redis sessions and the context cache, and what happens when Redis dies mid-test.

Starts a private redis-server on a free port (so killing it cannot hurt other tests that
share the one from ``scripts/services.sh``), serves through it, then ``kill -9``s it:
session and context endpoints must keep answering 200 from the in-process fallback, count
``jiyi_redis_unavailable_total``, and move back to Redis once it is up again.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_harness import running_server

from jiyi.sessions.fallback import FallbackSessionStore

pytestmark = pytest.mark.integration
REDIS = shutil.which("redis-server")


class PrivateRedis:
    def __init__(self, workdir: Path) -> None:
        self.dir = workdir
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS is not None
        subprocess.run(
            [
                REDIS,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--dir",
                str(self.dir),
                "--pidfile",
                str(self.dir / "redis.pid"),
            ],
            check=True,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        while not (self.dir / "redis.pid").exists():
            time.sleep(0.05)

    def kill(self) -> None:
        pidfile = self.dir / "redis.pid"
        pid = int(pidfile.read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        pidfile.unlink()
        while True:  # until the port is closed
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    time.sleep(0.05)
            except OSError:
                return


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if REDIS is None:
        pytest.skip(
            "redis-server not installed: run `scripts/services.sh up` "
            "(it installs Redis and exports JIYI_TEST_REDIS_URL)"
        )
    r = PrivateRedis(tmp_path)
    r.start()
    yield r
    if (tmp_path / "redis.pid").exists():
        r.kill()


def test_sessions_and_context_survive_redis_dying(tmp_path: Path, redis: PrivateRedis) -> None:
    with running_server(tmp_path / "srv", redis=redis.url, session_window=5) as srv:
        sessions = srv.services.sessions
        assert isinstance(sessions, FallbackSessionStore)
        key = srv.key("acme")
        with httpx.Client(
            base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
        ) as h:

            def say(session: str, text: str) -> httpx.Response:
                return h.post(
                    f"/v1/sessions/{session}/messages", json={"user_id": "r1", "content": text}
                )

            def context(session: str) -> httpx.Response:
                return h.post(
                    "/v1/context",
                    json={"user_id": "r1", "query": "推荐晚饭", "session_id": session},
                )

            assert say("before", "我对花生过敏").status_code == 200
            assert (
                h.post("/v1/memories", json={"messages": "我喜欢吃辣", "user_id": "r1"}).status_code
                == 200
            )
            assert context("before").status_code == 200
            assert sessions.fallback.stats()["live"] == 0  # it lives in Redis
            assert (
                srv.services.metrics.value("jiyi_redis_unavailable_total", component="sessions")
                == 0
            )

            redis.kill()

            assert say("during", "晚上想吃火锅").status_code == 200
            got = h.get("/v1/sessions/during")
            assert got.status_code == 200 and got.json()["total"] == 1
            ctx = context("during")
            assert ctx.status_code == 200, ctx.text
            assert "火锅" in ctx.json()["text"]
            assert (
                h.post("/v1/memories", json={"messages": "我住在成都", "user_id": "r1"}).status_code
                == 200
            )
            assert h.post("/v1/sessions/during/end").status_code == 200
            assert h.get("/v1/sessions/before").status_code == 404  # in the dead Redis
            assert sessions.degraded
            assert (
                srv.services.metrics.value("jiyi_redis_unavailable_total", component="sessions") > 0
            )
            assert "jiyi_redis_unavailable_total" in h.get("/metrics").text
            srv.sweep()  # the fallback session is written to long-term memory
            eps = h.get("/v1/memories", params={"user_id": "r1", "include_episodes": True})
            assert "晚上想吃火锅" in {m["content"] for m in eps.json()["memories"]}
            # Deleting a user needs every store: refused while Redis is down.
            assert h.delete("/v1/users/r1").status_code == 503

            redis.start()  # back (empty: it kept nothing on disk)
            sessions.retry_after = 0.0
            sessions._down_until = 0.0
            assert say("after", "明天去北京").status_code == 200
            assert not sessions.degraded and sessions.fallback.stats()["live"] == 0
            assert h.get("/v1/sessions/after").status_code == 200
            assert h.delete("/v1/users/r1").status_code == 200
