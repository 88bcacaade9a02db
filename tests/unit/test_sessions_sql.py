"""What the durable SQL session store (``jiyi.sessions.sql``) adds to the SessionStore
contract (``tests/contract/test_session_contract.py`` runs that on every backend): flushes a
dead process had claimed are due again at once when the store is opened, and nothing of an
acknowledged or deleted session stays in its tables."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jiyi.sessions import SessionKey, SessionMessage, SessionOwner
from jiyi.sessions._db import PostgresDatabase, SqlDatabase, SqliteDatabase
from jiyi.sessions.sql import SqlSessionStore

PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
NO_PG = "PostgreSQL not configured: run `scripts/services.sh up` and export JIYI_TEST_PG_DSN"
T0 = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
TTL = timedelta(hours=2)
LEASE = timedelta(seconds=30)
KEY = SessionKey("acme", "s1")
ALICE = SessionOwner("alice")

Opener = Callable[[], SqlDatabase]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.integration)])
def open_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a new connection to one database each call (a new process, as far as the
    store can tell); everything is closed and dropped afterwards."""
    opened: list[SqlDatabase] = []
    if request.param == "sqlite":

        def opener() -> SqlDatabase:
            opened.append(SqliteDatabase(tmp_path / "jiyi.db"))
            return opened[-1]

        yield opener
    else:
        if not PG_DSN:
            pytest.skip(NO_PG)
        from jiyi.storage.postgres import PostgresMemoryStore

        schema = f"jiyi_sess_{uuid.uuid4().hex[:8]}"
        memory_store = PostgresMemoryStore(PG_DSN, schema=schema)  # runs the migrations

        def opener() -> SqlDatabase:
            assert PG_DSN is not None
            opened.append(PostgresDatabase(PG_DSN, schema=schema))
            return opened[-1]

        yield opener
        memory_store.drop_schema()
        memory_store.close()
    for db in opened:
        db.close()


async def append(
    store: SqlSessionStore, text: str, *, key: SessionKey = KEY, owner: SessionOwner = ALICE
) -> None:
    message = SessionMessage(id=f"m-{text}", seq=0, role="user", content=text, timestamp=T0)
    await store.append(key, message, owner=owner, window=3, ttl=TTL, max_messages=100, now=T0)


def test_flushes_claimed_by_a_dead_process_are_due_again_at_once(open_db: Opener) -> None:
    first = SqlSessionStore(open_db())

    async def before_the_crash() -> None:
        await append(first, "a")
        await append(first, "y", key=SessionKey("acme", "s3"))
        await first.end(SessionKey("acme", "s3"), window=3, now=T0)
        # Claimed by a writer that then dies: its lease would hide it for 30 s.
        assert len(await first.claim_due(T0, limit=1, lease=LEASE)) == 1
        assert await first.claim_due(T0, limit=1, lease=LEASE) == []

    asyncio.run(before_the_crash())
    second = SqlSessionStore(open_db())  # the first was never closed: as after kill -9

    async def after_the_restart() -> None:
        (due,) = await second.claim_due(T0, limit=10, lease=LEASE)
        assert (due.session_id, [m.content for m in due.messages], due.attempts) == (
            "s3",
            ["y"],
            2,
        )
        await second.ack(due.flush_id)
        assert second.stats() == {"live": 1, "pending": 0}

    asyncio.run(after_the_restart())


def test_ack_and_delete_user_leave_no_message_rows(tmp_path: Path) -> None:
    store = SqlSessionStore(SqliteDatabase(tmp_path / "jiyi.db"))

    async def go() -> None:
        await append(store, "我对花生过敏")
        await store.end(KEY, window=3, now=T0)
        (f,) = await store.claim_due(T0, limit=10, lease=LEASE)
        await store.ack("not-a-flush")  # unknown ids are ignored
        await store.ack(f.flush_id)
        await append(store, "我住在上海", key=SessionKey("acme", "s2"))
        await append(store, "kept", key=SessionKey("acme", "s3"), owner=SessionOwner("bob"))
        assert await store.delete_user("acme", "alice") == 1

    asyncio.run(go())
    db = sqlite3.connect(tmp_path / "jiyi.db")
    try:
        rows = db.execute("SELECT content FROM session_messages").fetchall()
        assert rows == [("kept",)]
        assert db.execute("SELECT count(*) FROM session_flushes").fetchone() == (0,)
    finally:
        db.close()
