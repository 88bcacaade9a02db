"""API keys of a multi-node PostgreSQL deployment live in PostgreSQL, not in a file per node.

Two servers ("nodes", each with its own ``JIYI_HOME``) share one fresh PostgreSQL database:
a key made by ``jiyi keys create`` on either works on both, a key revoked or rotated on one
is refused by every node within one second (the key cache's lifetime), no ``keys.db``
appears, and the keys of a
``keys.db`` left by a version that kept keys in a file keep working.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from server_harness import serving
from typer.testing import CliRunner

from jiyi import backends
from jiyi.cli.main import app as cli
from jiyi.keys import PostgresKeyStore, SqliteKeyStore
from jiyi.server.app import create_app
from jiyi.settings import Settings

PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not PG_DSN,
        reason="PostgreSQL not configured: export JIYI_TEST_PG_DSN (scripts/services.sh up)",
    ),
]


@pytest.fixture
def dsn() -> Iterator[str]:
    """A fresh database on the test server (the store's default schema is ours), dropped
    afterwards."""
    import psycopg

    assert PG_DSN is not None
    name = f"jiyi_keys_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = f"{PG_DSN.rpartition('/')[0]}/{name}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    yield url
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def node_settings(home: Path, dsn: str) -> Settings:
    return Settings(home=home, store=dsn, embedder="hashing", queue="off")


def keys_create(home: Path, dsn: str, *args: str) -> str:
    """``jiyi keys create`` as an operator runs it on one node: the key it prints."""
    env = {"JIYI_HOME": str(home), "JIYI_STORE": dsn, "JIYI_EMBEDDER": "hashing"}
    result = CliRunner().invoke(cli, ["keys", "create", *args], env=env)
    assert result.exit_code == 0, result.output
    return result.stdout.strip().splitlines()[-1]


def status(url: str, key: str) -> int:
    r = httpx.get(
        f"{url}/v1/memories",
        params={"user_id": "u1"},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    return r.status_code


def test_a_key_made_on_one_node_works_on_every_node(tmp_path: Path, dsn: str) -> None:
    homes = [tmp_path / "node-a", tmp_path / "node-b"]
    with ExitStack() as nodes:
        urls = [nodes.enter_context(serving(create_app(node_settings(h, dsn)))) for h in homes]
        key = keys_create(homes[0], dsn, "--tenant", "acme")
        bound = keys_create(homes[1], dsn, "--tenant", "acme", "--agent", "planner")
        assert [status(u, k) for u in urls for k in (key, bound)] == [200] * 4
        assert [status(u, "jy_unknown") for u in urls] == [401, 401]
    assert not any((h / "keys.db").exists() for h in homes)


def test_a_revoked_key_is_refused_by_every_node(tmp_path: Path, dsn: str) -> None:
    settings = node_settings(tmp_path / "node-a", dsn)
    keys = backends.open_key_store(settings)
    try:
        key, who = keys.create("acme")
        with serving(create_app(node_settings(tmp_path / "node-b", dsn))) as url:
            assert status(url, key) == 200
            assert keys.revoke(who.key_id)
            other = backends.open_key_store(node_settings(tmp_path / "node-c", dsn))
            try:
                assert other.verify(key) is None  # a node without a cached verification
            finally:
                other.close()
    finally:
        keys.close()


def test_keys_of_an_old_key_file_keep_working_after_the_move(tmp_path: Path, dsn: str) -> None:
    home = tmp_path / "node-a"
    legacy = SqliteKeyStore(home / "keys.db")
    try:
        old_key, who = legacy.create("acme", "planner")
    finally:
        legacy.close()
    with serving(create_app(node_settings(home, dsn))) as a:
        assert status(a, old_key) == 200
    # Another node never had that file: the key is in PostgreSQL now.
    with serving(create_app(node_settings(tmp_path / "node-b", dsn))) as b:
        assert status(b, old_key) == 200
    moved = PostgresKeyStore(dsn)
    try:
        assert [r.key_id for r in moved.records("acme")] == [who.key_id]
    finally:
        moved.close()


def test_revoked_and_rotated_keys_are_refused_by_every_node_within_a_second(
    tmp_path: Path, dsn: str
) -> None:
    homes = [tmp_path / "node-a", tmp_path / "node-b"]
    with ExitStack() as nodes:
        urls = [nodes.enter_context(serving(create_app(node_settings(h, dsn)))) for h in homes]
        admin = keys_create(homes[0], dsn, "--tenant", "ops", "--admin")
        doomed = keys_create(homes[1], dsn, "--tenant", "acme")
        rotated = keys_create(homes[1], dsn, "--tenant", "acme", "--agent", "planner")
        # Every node has verified (and cached) every key.
        assert [status(u, k) for u in urls for k in (doomed, rotated)] == [200] * 4
        listed = httpx.get(
            f"{urls[0]}/v1/keys",
            params={"tenant": "acme"},
            headers={"Authorization": f"Bearer {admin}"},
            timeout=30,
        ).json()["keys"]
        doomed_id, rotated_id = (k["key_id"] for k in listed)

        r = httpx.delete(
            f"{urls[0]}/v1/keys/{doomed_id}", headers={"Authorization": f"Bearer {admin}"}
        )
        assert r.status_code == 204
        revoked = time.monotonic()
        assert max(seconds_until_refused(u, doomed, revoked) for u in urls) < 1.0

        env = {"JIYI_HOME": str(homes[1]), "JIYI_STORE": dsn, "JIYI_EMBEDDER": "hashing"}
        result = CliRunner().invoke(cli, ["keys", "rotate", rotated_id], env=env)
        assert result.exit_code == 0, result.output
        done = time.monotonic()
        successor = result.stdout.strip()
        assert max(seconds_until_refused(u, rotated, done) for u in urls) < 1.0
        assert [status(u, successor) for u in urls] == [200, 200]


def seconds_until_refused(url: str, key: str, since: float) -> float:
    """Seconds from ``since`` (a monotonic time) until ``url`` answered ``key`` with 401
    (asserting it does within 5 s)."""
    while status(url, key) != 401:
        assert time.monotonic() - since < 5, "the key is still accepted"
        time.sleep(0.02)
    return time.monotonic() - since
