"""The docker-compose.yml topology without Docker: ``jiyi serve`` and ``jiyi worker`` as
real processes with the environment the compose file gives them (only the addresses of
PostgreSQL and Redis, the port, the data directory and the embedder swapped for the test
services), on a fresh PostgreSQL database and Redis.

The image's HEALTHCHECK command (read from the Dockerfile) must pass against the server;
the bootstrap key must work; the documented first admin key (``jiyi keys create --admin``)
must work on the running server; a batch is queued by the API (``JIYI_QUEUE_WORKERS=0``)
and extracted by the worker; the server's log has one access line per request without the
key or the user's words.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
REDIS_URL = os.environ.get("JIYI_TEST_REDIS_URL")
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (PG_DSN and REDIS_URL),
        reason="PostgreSQL/Redis not configured: export JIYI_TEST_PG_DSN and "
        "JIYI_TEST_REDIS_URL (scripts/services.sh up)",
    ),
]
ROOT = Path(__file__).resolve().parents[2]
KEY = "jy_compose-topology-" + uuid.uuid4().hex
CLI = [sys.executable, "-c", "from jiyi.cli.main import app; app()"]


def compose_env(service: str, **swap: str) -> dict[str, str]:
    """The service's environment as compose would set it (``${X:-d}`` → d), then ``swap``."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))["services"]
    env = {
        k: re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(v))
        for k, v in services[service]["environment"].items()
    }
    env.update(swap)
    assert not [v for v in env.values() if "${" in v], env  # every required one swapped
    return {**os.environ, **env}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def database() -> Iterator[str]:
    import psycopg

    assert PG_DSN is not None
    name = f"jiyi_compose_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    dsn = f"{PG_DSN.rpartition('/')[0]}/{name}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    yield dsn
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def healthcheck(env: dict[str, str]) -> int:
    """Run the Dockerfile's HEALTHCHECK command; its exit status."""
    text = (ROOT / "Dockerfile").read_text("utf-8")
    found = re.search(r"^HEALTHCHECK [^\n]*\\\n\s+CMD (\[.*\])$", text, re.M)
    assert found, "HEALTHCHECK … CMD [json] not found"
    argv = json.loads(found.group(1))
    assert argv[0] == "python"
    return subprocess.run([sys.executable, *argv[1:]], env=env, timeout=30).returncode


def test_the_compose_services_serve_queue_and_extract(tmp_path: Path, database: str) -> None:
    port = free_port()
    common = {"JIYI_STORE": database, "JIYI_REDIS": str(REDIS_URL), "JIYI_EMBEDDER": "hashing"}
    api_env = compose_env(
        "jiyi",
        **common,
        JIYI_HOME=str(tmp_path / "api"),
        JIYI_HOST="127.0.0.1",
        JIYI_PORT=str(port),
        JIYI_BOOTSTRAP_KEY=KEY,
    )
    worker_env = compose_env("worker", **common, JIYI_HOME=str(tmp_path / "worker"))
    log = (tmp_path / "serve.log").open("w+b")
    server = subprocess.Popen([*CLI, "serve"], env=api_env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while healthcheck(api_env) != 0:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "server never became healthy"
            time.sleep(0.5)
        url = f"http://127.0.0.1:{port}"
        auth = {"Authorization": f"Bearer {KEY}"}
        items = [
            {"user_id": "compose-a", "messages": "我对花生过敏"},
            {"user_id": "compose-b", "messages": "I live in Berlin"},
            {"user_id": "compose-c", "messages": []},
        ]
        r = httpx.post(f"{url}/v1/memories/batch", json={"items": items}, headers=auth, timeout=60)
        assert r.status_code == 200, r.text
        results = r.json()["results"]
        assert [x["status"] for x in results] == [200, 200, 422]
        # The API only stores the episodes and enqueues: extraction is the worker's.
        assert all(x["result"]["queued"] and not x["result"]["events"] for x in results[:2])

        made = subprocess.run(
            [*CLI, "keys", "create", "--admin", "--tenant", "ops"],
            env=api_env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr
        admin = made.stdout.strip().splitlines()[-1]
        tenants = httpx.get(
            f"{url}/v1/admin/tenants", headers={"Authorization": f"Bearer {admin}"}, timeout=30
        )
        assert tenants.status_code == 200 and {"default", "ops"} <= set(tenants.json()["tenants"])

        drained = subprocess.run(
            [*CLI, "worker", "--drain"], env=worker_env, capture_output=True, timeout=120
        )
        assert drained.returncode == 0, drained.stderr
        for user, word in (("compose-a", "花生"), ("compose-b", "Berlin")):
            listed = httpx.get(
                f"{url}/v1/memories", params={"user_id": user}, headers=auth, timeout=30
            ).json()["memories"]
            assert any(word in m["content"] for m in listed), (user, listed)
    finally:
        server.terminate()
        server.wait(timeout=60)
    log.seek(0)
    text = log.read().decode("utf-8", "replace")
    log.close()
    access = [line for line in text.splitlines() if "jiyi.access" in line]
    assert any("route=/v1/memories/batch status=200" in a and "tenant=default" in a for a in access)
    assert any("route=/v1/memories status=200" in a for a in access)
    for secret in (KEY, admin, "花生", "Berlin", "compose-a"):
        assert secret not in text
