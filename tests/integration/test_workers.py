"""Several processes over one store: every process sees every other's writes and deletes.

Each SQLite store keeps a per-user read cache, checked against the user's ``scope_versions``
row that every write bumps. These tests write from one real process and read from another:
first two ``Memory`` objects in two processes (deterministic), then ``jiyi serve --workers 2``
over one SQLite file with Redis for sessions and the context cache, where any request may land
on either process.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from jiyi import Memory
from jiyi.embedders import HashingEmbedder

REDIS_URL = os.environ.get("JIYI_TEST_REDIS_URL")


def _in_another_process(db: Path, code: str) -> None:
    script = (
        "from jiyi import Memory\n"
        "from jiyi.embedders import HashingEmbedder\n"
        f"mem = Memory({str(db)!r}, embedder=HashingEmbedder())\n"
        f"{code}\n"
        "mem.close()\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def _contents(mem: Memory, query: str) -> list[str]:
    return [h.memory.content for h in mem.search(query, user_id="u")]


def test_a_write_by_another_process_is_seen_by_a_warm_cache(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mem = Memory(db, embedder=HashingEmbedder())
    mem.add("我住在北京朝阳区", user_id="u", infer=False)
    assert _contents(mem, "北京") == ["我住在北京朝阳区"]  # this process's cache is warm
    _in_another_process(db, 'mem.add("北京的冬天很冷", user_id="u", infer=False)')
    assert sorted(_contents(mem, "北京")) == ["北京的冬天很冷", "我住在北京朝阳区"]
    mem.close()


def test_forget_me_in_another_process_is_not_undone_by_a_cache(tmp_path: Path) -> None:
    """Deleting a user drops its version row; if versions restarted at 1, a process that had
    the user cached at version 1 would keep serving the deleted memories after the other
    process's first new write (it did, before versions started at a random value)."""
    db = tmp_path / "m.db"
    mem = Memory(db, embedder=HashingEmbedder())
    mem.add("我住在北京朝阳区", user_id="u", infer=False)
    assert _contents(mem, "北京") == ["我住在北京朝阳区"]
    _in_another_process(
        db, 'mem.delete_user("u")\nmem.add("我喜欢上海的小笼包", user_id="u", infer=False)'
    )
    assert _contents(mem, "北京") == []
    assert _contents(mem, "上海") == ["我喜欢上海的小笼包"]
    mem.close()


# -- jiyi serve --workers 2 ---------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _children(pid: int) -> list[int]:
    """Live server processes the supervisor ``pid`` spawned (from /proc; multiprocessing's
    resource tracker, also a child, is not one)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if int(fields[1]) == pid and fields[0] != "Z" and b"spawn_main" in cmdline:
            out.append(int(entry.name))
    return out


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[str, str, subprocess.Popen[bytes]]]:
    if not REDIS_URL:
        pytest.skip("Redis not configured: export JIYI_TEST_REDIS_URL (scripts/services.sh up)")
    port = _free_port()
    key = "jy_workers-" + uuid.uuid4().hex
    env = {
        **os.environ,
        "JIYI_HOME": str(tmp_path),
        "JIYI_REDIS": REDIS_URL,
        "JIYI_EMBEDDER": "hashing",
        "JIYI_MAX_QUEUE_WAIT_MS": "60000",  # about workers, not overload
        "JIYI_PORT": str(port),
        "JIYI_BOOTSTRAP_KEY": key,
        "JIYI_BOOTSTRAP_TENANT": "workers-" + uuid.uuid4().hex[:8],
        "JIYI_LOG_LEVEL": "warning",
    }
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-c", "from jiyi.cli.main import app; app()", "serve", "--workers", "2"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    try:
        while True:
            try:
                up = httpx.get(f"{url}/healthz", timeout=1).status_code == 200
                if up and len(_children(proc.pid)) >= 2:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"jiyi serve --workers 2 did not start; see {tmp_path}")
            time.sleep(0.2)
        yield url, key, proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def _many(url: str, key: str, path: str, body: dict[str, object], n: int = 24) -> list[object]:
    """``n`` requests, each on a new connection, so both processes answer some of them."""
    out = []
    for _ in range(n):
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}) as c:
            r = c.post(path, json=body, timeout=30)
            assert r.status_code == 200, r.text
            out.append(r.json())
    return out


@pytest.mark.integration
def test_serve_with_two_workers_shares_one_store_and_its_invalidations(
    two_workers: tuple[str, str, subprocess.Popen[bytes]],
) -> None:
    url, key, proc = two_workers
    assert len(_children(proc.pid)) == 2  # two server processes under the supervisor
    h = {"Authorization": f"Bearer {key}"}
    search = {"query": "北京", "user_id": "u", "top_k": 10}
    context = {"query": "北京", "user_id": "u"}

    def ids(found: list[object]) -> list[set[str]]:
        return [{r["memory"]["id"] for r in f["results"]} for f in found]  # type: ignore[index]

    first = httpx.post(
        f"{url}/v1/memories", json={"messages": "我住在北京", "user_id": "u"}, headers=h
    ).json()["episodes"][0]["id"]
    assert all(first in s for s in ids(_many(url, key, "/v1/memories/search", search)))
    # Warm both processes' context caches (Redis) and scope caches, then write again.
    assert all("北京" in c["text"] for c in _many(url, key, "/v1/context", context))  # type: ignore[index]
    httpx.post(
        f"{url}/v1/memories", json={"messages": "北京的烤鸭很好吃", "user_id": "u"}, headers=h
    )
    texts = [c["text"] for c in _many(url, key, "/v1/context", context)]  # type: ignore[index]
    assert all("烤鸭" in t for t in texts), texts
    # A delete through one process is seen by the other at once.
    assert httpx.delete(f"{url}/v1/memories/{first}", headers=h).status_code == 204
    assert not any(first in s for s in ids(_many(url, key, "/v1/memories/search", search)))
    # Forget the user, write again: no process brings back what was deleted.
    assert httpx.delete(f"{url}/v1/users/u", headers=h).status_code == 200
    httpx.post(f"{url}/v1/memories", json={"messages": "我搬到上海了", "user_id": "u"}, headers=h)
    found = _many(url, key, "/v1/memories/search", {**search, "query": "北京 上海"})
    contents = [{r["memory"]["content"] for r in f["results"]} for f in found]  # type: ignore[index]
    assert all("我搬到上海了" in c for c in contents), contents
    assert not any("北京" in text for c in contents for text in c), contents


def test_more_than_one_worker_without_redis_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "JIYI_HOME": str(tmp_path), "JIYI_EMBEDDER": "hashing"}
    env.pop("JIYI_REDIS", None)
    done = subprocess.run(
        [sys.executable, "-c", "from jiyi.cli.main import app; app()", "serve", "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "JIYI_REDIS" in done.stderr


def _nodelay_of_served_connections(protocol: type) -> list[int]:
    """Serve one request through uvicorn on a socket bound as uvicorn binds it for
    ``--workers`` (``proto`` 0), and read TCP_NODELAY of the accepted connection."""
    import threading

    import uvicorn

    seen: list[int] = []

    class Recording(protocol):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})

    sock = socket.socket(family=socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, http=Recording, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        assert httpx.get(f"http://127.0.0.1:{sock.getsockname()[1]}/").text == "ok"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
    return seen


def test_worker_processes_answer_without_nagle_delays() -> None:
    """uvicorn's --workers socket has proto 0, so asyncio leaves Nagle on and keep-alive
    responses waited ~40 ms for delayed ACKs; jiyi serve's protocol sets TCP_NODELAY."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from jiyi.cli.nodelay import NoDelayHTTPProtocol

    assert _nodelay_of_served_connections(H11Protocol) == [0]  # the bug, as uvicorn has it
    assert _nodelay_of_served_connections(NoDelayHTTPProtocol) != [0]
