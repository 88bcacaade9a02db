"""The durable session store (``jiyi.sessions.sql``) on SQLite and PostgreSQL.

It keeps every guarantee of the SessionStore port — the behaviour tests of
``test_sessions.py`` are imported and run here against these backends (pytest collects the
imported functions with this module's ``store`` fixture) — and adds durability: what was
acknowledged is there for the next process, and flushes a dead process had claimed are due
again at once.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from test_sessions import (  # the port's behaviour tests, run again on these backends
    ALICE,
    KEY,
    T0,
    TTL,
    append,
    test_another_owner_is_refused,
    test_append_after_ttl_starts_a_new_session,
    test_concurrent_appends_from_threads_lose_nothing,
    test_delete_user_removes_live_and_pending,
    test_end_hands_the_transcript_over_once,
    test_full_session_must_be_ended,
    test_idle_sessions_expire_into_the_queue,
    test_tenants_do_not_share_session_ids,
    test_window_is_the_newest_messages_in_order,
)

from jiyi.sessions import SessionKey, SessionOwner
from jiyi.sessions._db import PostgresDatabase, SqlDatabase, SqliteDatabase
from jiyi.sessions.sql import SqlSessionStore

__all__ = [
    "test_another_owner_is_refused",
    "test_append_after_ttl_starts_a_new_session",
    "test_concurrent_appends_from_threads_lose_nothing",
    "test_delete_user_removes_live_and_pending",
    "test_end_hands_the_transcript_over_once",
    "test_full_session_must_be_ended",
    "test_idle_sessions_expire_into_the_queue",
    "test_tenants_do_not_share_session_ids",
    "test_window_is_the_newest_messages_in_order",
]
PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
NO_PG = "PostgreSQL not configured: run `scripts/services.sh up` and export JIYI_TEST_PG_DSN"
LEASE = timedelta(seconds=30)

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


@pytest.fixture
def store(open_db: Opener) -> SqlSessionStore:
    return SqlSessionStore(open_db())


def test_acknowledged_sessions_are_there_for_the_next_process(open_db: Opener) -> None:
    first = SqlSessionStore(open_db())

    async def before_the_crash() -> None:
        for text in ("a", "b", "c"):
            await append(first, text)
        await append(first, "x", key=SessionKey("acme", "s2"))
        await first.end(SessionKey("acme", "s2"), window=3, now=T0)
        # A flush claimed by a writer that then dies: its lease would hide it for 30 s.
        await append(first, "y", key=SessionKey("acme", "s3"))
        await first.end(SessionKey("acme", "s3"), window=3, now=T0)
        claimed = await first.claim_due(T0, limit=1, lease=LEASE)
        assert len(claimed) == 1

    asyncio.run(before_the_crash())
    second = SqlSessionStore(open_db())  # the first was never closed: as after kill -9

    async def after_the_restart() -> None:
        live = await second.get(KEY, window=10, now=T0)
        assert live is not None and [m.content for m in live.messages] == ["a", "b", "c"]
        assert live.total == 3 and live.user_id == ALICE.user_id
        view = await append(second, "d", window=10)
        assert [m.seq for m in view.messages] == [1, 2, 3, 4]
        due = await second.claim_due(T0, limit=10, lease=LEASE)
        assert sorted((f.session_id, [m.content for m in f.messages]) for f in due) == [
            ("s2", ["x"]),
            ("s3", ["y"]),
        ]
        for f in due:
            await second.ack(f.flush_id)
        assert await second.claim_due(T0 + timedelta(days=1), limit=10, lease=LEASE) == []
        assert second.stats() == {"live": 1, "pending": 0}
        assert await second.close(T0) == []  # nothing to hand back: it is all stored

    asyncio.run(after_the_restart())


def test_expired_sessions_are_handed_over_once_by_any_process(open_db: Opener) -> None:
    one, two = SqlSessionStore(open_db()), SqlSessionStore(open_db())

    async def go() -> None:
        await append(one, "old", owner=SessionOwner("alice", "planner"))
        later = T0 + TTL
        assert await two.get(KEY, window=3, now=later) is None
        assert await one.expire(later) + await two.expire(later) == 1
        (f,) = await two.claim_due(later, limit=10, lease=LEASE)
        assert (f.reason, f.agent_id, [m.content for m in f.messages]) == (
            "expired",
            "planner",
            ["old"],
        )

    asyncio.run(go())


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
