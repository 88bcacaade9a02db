"""Backends the contract suites run against.

SQLite and the in-process session store always run. PostgreSQL runs when JIYI_TEST_PG_DSN
points at a server and Redis when JIYI_TEST_REDIS_URL does (``scripts/services.sh up``
provides both; CI always sets them); otherwise they are skipped with the reason, never
mocked.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from jiyi.core.ports import MemoryStore
from jiyi.sessions import InMemorySessionStore, SessionStore

BACKENDS = ["sqlite", "postgres"]
PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
REDIS_URL = os.environ.get("JIYI_TEST_REDIS_URL")
NO_PG = "PostgreSQL not configured: run `scripts/services.sh up` and export JIYI_TEST_PG_DSN"
NO_REDIS = "Redis not configured: run `scripts/services.sh up` and export JIYI_TEST_REDIS_URL"


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    if request.param == "sqlite":
        from jiyi.storage.sqlite import SqliteMemoryStore

        s: MemoryStore = SqliteMemoryStore(tmp_path / "contract.db")
    else:
        dsn = PG_DSN
        if not dsn:
            pytest.skip(NO_PG)
        try:
            from jiyi.storage.postgres import PostgresMemoryStore
        except ImportError as exc:
            pytest.skip(f"PostgreSQL backend unavailable: {exc}")
        s = PostgresMemoryStore(dsn, schema=f"t_{os.getpid()}_{abs(hash(tmp_path)) % 10**8}")
    yield s
    drop = getattr(s, "drop_schema", None)
    if callable(drop):
        drop()
    s.close()


@pytest.fixture
def fresh_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    """Another, empty store on the backend ``store`` runs on (export → import tests)."""
    kind = request.node.callspec.params.get("store", "sqlite")
    if kind == "sqlite":
        from jiyi.storage.sqlite import SqliteMemoryStore

        s: MemoryStore = SqliteMemoryStore(tmp_path / "fresh.db")
    else:
        if not PG_DSN:
            pytest.skip(NO_PG)
        from jiyi.storage.postgres import PostgresMemoryStore

        s = PostgresMemoryStore(PG_DSN, schema=f"f_{os.getpid()}_{uuid.uuid4().hex[:12]}")
    yield s
    drop = getattr(s, "drop_schema", None)
    if callable(drop):
        drop()
    s.close()


# -- session stores -------------------------------------------------------------------------

#: Opens a SessionStore on one backend's storage; each call is another process's view of
#: the same sessions (its own connection).
OpenSessions = Callable[[], SessionStore]
T_CLOSE = datetime(2026, 11, 29, tzinfo=UTC)  # durable stores ignore it on close
DURABLE_SESSIONS = [
    "sqlite",
    pytest.param("postgres", marks=pytest.mark.integration),
    pytest.param("redis", marks=pytest.mark.integration),
]


@contextmanager
def session_backend(kind: str, tmp_path: Path) -> Iterator[OpenSessions]:
    """Every store opened is closed afterwards, and its storage dropped."""
    if kind == "memory":
        yield InMemorySessionStore
        return
    undo: list[Callable[[], object]] = []
    try:
        yield _opener(kind, tmp_path, undo)
    finally:
        for step in reversed(undo):
            step()


def _opener(kind: str, tmp_path: Path, undo: list[Callable[[], object]]) -> OpenSessions:
    from jiyi.sessions._db import PostgresDatabase, SqliteDatabase
    from jiyi.sessions.sql import SqlSessionStore

    if kind == "sqlite":

        def open_sqlite() -> SessionStore:
            db = SqliteDatabase(tmp_path / "jiyi.db")
            undo.append(db.close)
            return SqlSessionStore(db)

        return open_sqlite
    if kind == "postgres":
        if not PG_DSN:
            pytest.skip(NO_PG)
        from jiyi.storage.postgres import PostgresMemoryStore

        dsn, schema = PG_DSN, f"jiyi_sess_{uuid.uuid4().hex[:8]}"
        memory_store = PostgresMemoryStore(dsn, schema=schema)  # runs the migrations
        undo += [memory_store.close, memory_store.drop_schema]

        def open_postgres() -> SessionStore:
            db = PostgresDatabase(dsn, schema=schema)
            undo.append(db.close)
            return SqlSessionStore(db)

        return open_postgres
    if not REDIS_URL:
        pytest.skip(NO_REDIS)
    from jiyi.sessions.redis import RedisSessionStore

    url = REDIS_URL
    # A fresh prefix per test: tests never see each other's keys, even in parallel runs.
    prefix = f"jiyi-test-{uuid.uuid4().hex[:8]}:"
    cleaner = RedisSessionStore(url, prefix=prefix)
    undo += [lambda: asyncio.run(cleaner.close(T_CLOSE)), lambda: asyncio.run(cleaner.clear())]

    def open_redis() -> SessionStore:
        store = RedisSessionStore(url, prefix=prefix)
        undo.append(lambda: asyncio.run(store.close(T_CLOSE)))
        return store

    return open_redis


@pytest.fixture(
    params=[
        "memory",
        "sqlite",
        pytest.param("postgres", marks=pytest.mark.integration),
        pytest.param("redis", marks=pytest.mark.integration),
    ]
)
def sessions(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionStore]:
    """A SessionStore on each backend: in-process, durable SQL (SQLite, PostgreSQL), Redis."""
    with session_backend(request.param, tmp_path) as open_store:
        yield open_store()


@pytest.fixture(params=DURABLE_SESSIONS)
def reopen_sessions(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenSessions]:
    """Opens stores that share one durable backend, as several processes (or a restarted
    one) do."""
    with session_backend(request.param, tmp_path) as open_store:
        yield open_store
