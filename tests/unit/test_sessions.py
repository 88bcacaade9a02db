"""SessionStore guarantees, run against every backend: in-process and Redis.

The Redis parameter needs a real server (``scripts/services.sh up``, then export
JIYI_TEST_REDIS_URL); without one it is skipped, never mocked.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from jiyi.errors import ConflictError, PayloadTooLargeError
from jiyi.sessions import (
    InMemorySessionStore,
    SessionKey,
    SessionMessage,
    SessionOwner,
    SessionStore,
)

T0 = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
TTL = timedelta(hours=2)
KEY = SessionKey("acme", "s1")
ALICE = SessionOwner("alice")


REDIS_URL = os.environ.get("JIYI_TEST_REDIS_URL")
NO_REDIS = "Redis not configured: run `scripts/services.sh up` and export JIYI_TEST_REDIS_URL"


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.integration)])
def store(request: pytest.FixtureRequest) -> Iterator[SessionStore]:
    if request.param == "memory":
        yield InMemorySessionStore()
        return
    if not REDIS_URL:
        pytest.skip(NO_REDIS)
    from jiyi.sessions.redis import RedisSessionStore

    # A fresh prefix per test: tests never see each other's keys, even in parallel runs.
    redis_store = RedisSessionStore(REDIS_URL, prefix=f"jiyi-test-{uuid.uuid4().hex[:8]}:")
    yield redis_store
    asyncio.run(redis_store.clear())
    asyncio.run(redis_store.close(T0))


def msg(text: str, at: datetime = T0) -> SessionMessage:
    return SessionMessage(id=f"m-{text}", seq=0, role="user", content=text, timestamp=at)


async def append(
    store: SessionStore,
    text: str,
    *,
    key: SessionKey = KEY,
    owner: SessionOwner = ALICE,
    now: datetime = T0,
    window: int = 3,
    max_messages: int = 100,
):
    return await store.append(
        key, msg(text, now), owner=owner, window=window, ttl=TTL, max_messages=max_messages, now=now
    )


def test_window_is_the_newest_messages_in_order(store: SessionStore) -> None:
    async def go() -> None:
        for i in range(5):
            view = await append(store, f"t{i}")
        assert [m.content for m in view.messages] == ["t2", "t3", "t4"]
        assert [m.seq for m in view.messages] == [3, 4, 5]
        assert view.total == 5
        got = await store.get(KEY, window=10, now=T0)
        assert got is not None and [m.content for m in got.messages] == [f"t{i}" for i in range(5)]

    asyncio.run(go())


def test_concurrent_appends_from_threads_lose_nothing(store: SessionStore) -> None:
    def worker(i: int) -> None:
        asyncio.run(append(store, f"m{i:02d}", window=10))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ended = asyncio.run(store.end(KEY, window=10, now=T0))
    assert ended is not None and ended.total == 50
    assert [m.seq for m in ended.messages] == list(range(41, 51))
    (flush,) = asyncio.run(store.claim_due(T0, limit=10, lease=timedelta(seconds=30)))
    assert sorted(m.content for m in flush.messages) == [f"m{i:02d}" for i in range(50)]
    assert [m.seq for m in flush.messages] == list(range(1, 51))


def test_another_owner_is_refused(store: SessionStore) -> None:
    asyncio.run(append(store, "hi"))
    with pytest.raises(ConflictError):
        asyncio.run(append(store, "hi", owner=SessionOwner("bob")))
    with pytest.raises(ConflictError):
        asyncio.run(append(store, "hi", owner=SessionOwner("alice", "agent-x")))


def test_tenants_do_not_share_session_ids(store: SessionStore) -> None:
    asyncio.run(append(store, "secret"))
    other = SessionKey("globex", "s1")
    assert asyncio.run(store.get(other, window=5, now=T0)) is None
    view = asyncio.run(append(store, "mine", key=other, owner=SessionOwner("bob")))
    assert [m.content for m in view.messages] == ["mine"]


def test_full_session_must_be_ended(store: SessionStore) -> None:
    asyncio.run(append(store, "a", max_messages=2))
    asyncio.run(append(store, "b", max_messages=2))
    with pytest.raises(PayloadTooLargeError):
        asyncio.run(append(store, "c", max_messages=2))


def test_end_hands_the_transcript_over_once(store: SessionStore) -> None:
    async def go() -> None:
        await append(store, "a")
        view = await store.end(KEY, window=3, now=T0)
        assert view is not None and view.ended
        assert await store.end(KEY, window=3, now=T0) is None
        assert await store.get(KEY, window=3, now=T0) is None
        (f,) = await store.claim_due(T0, limit=10, lease=timedelta(seconds=30))
        assert (f.reason, f.user_id, f.attempts) == ("ended", "alice", 1)
        # Claimed: hidden for the lease, then due again with attempts counted.
        assert (
            await store.claim_due(T0 + timedelta(seconds=29), limit=10, lease=timedelta(seconds=30))
            == []
        )
        (again,) = await store.claim_due(
            T0 + timedelta(seconds=30), limit=10, lease=timedelta(seconds=30)
        )
        assert again.flush_id == f.flush_id and again.attempts == 2
        # Backoff doubles: the third claim waits 60 s.
        later = T0 + timedelta(seconds=89)
        assert await store.claim_due(later, limit=10, lease=timedelta(seconds=30)) == []
        await store.ack(f.flush_id)
        await store.ack(f.flush_id)  # idempotent
        assert (
            await store.claim_due(T0 + timedelta(days=1), limit=10, lease=timedelta(seconds=30))
            == []
        )

    asyncio.run(go())


def test_idle_sessions_expire_into_the_queue(store: SessionStore) -> None:
    async def go() -> None:
        await append(store, "old")
        later = T0 + TTL
        assert await store.get(KEY, window=3, now=later - timedelta(seconds=1)) is not None
        assert await store.expire(later) == 1
        assert await store.get(KEY, window=3, now=later) is None
        (f,) = await store.claim_due(later, limit=10, lease=timedelta(seconds=30))
        assert f.reason == "expired" and [m.content for m in f.messages] == ["old"]

    asyncio.run(go())


def test_append_after_ttl_starts_a_new_session(store: SessionStore) -> None:
    async def go() -> None:
        await append(store, "old")
        view = await append(store, "new", now=T0 + TTL + timedelta(minutes=1))
        assert [m.content for m in view.messages] == ["new"] and view.total == 1
        (f,) = await store.claim_due(T0 + TTL * 2, limit=10, lease=timedelta(seconds=30))
        assert [m.content for m in f.messages] == ["old"]

    asyncio.run(go())


def test_delete_user_removes_live_and_pending(store: SessionStore) -> None:
    async def go() -> None:
        await append(store, "a")
        await store.end(KEY, window=3, now=T0)
        await append(store, "b", key=SessionKey("acme", "s2"))
        await append(store, "c", key=SessionKey("acme", "s3"), owner=SessionOwner("bob"))
        await append(store, "d", key=SessionKey("globex", "s4"))
        assert await store.delete_user("acme", "alice") == 2
        assert await store.get(SessionKey("acme", "s2"), window=3, now=T0) is None
        assert await store.get(SessionKey("acme", "s3"), window=3, now=T0) is not None
        assert await store.get(SessionKey("globex", "s4"), window=3, now=T0) is not None
        assert await store.claim_due(T0, limit=10, lease=timedelta(seconds=1)) == []

    asyncio.run(go())


def test_close_returns_everything_unwritten() -> None:
    store = InMemorySessionStore()  # in-process only: a durable store keeps them instead

    async def go() -> None:
        await append(store, "a")
        await append(store, "b", key=SessionKey("acme", "s2"))
        await store.end(SessionKey("acme", "s2"), window=3, now=T0)
        left = await store.close(T0)
        assert sorted(f.reason for f in left) == ["ended", "shutdown"]
        with pytest.raises(ConflictError):
            await append(store, "late")

    asyncio.run(go())


@pytest.mark.integration
@pytest.mark.skipif(not REDIS_URL, reason=NO_REDIS)
def test_redis_keeps_sessions_for_the_next_process() -> None:
    from jiyi.sessions.redis import RedisSessionStore

    assert REDIS_URL is not None
    prefix = f"jiyi-test-{uuid.uuid4().hex[:8]}:"

    async def go() -> None:
        first = RedisSessionStore(REDIS_URL, prefix=prefix)
        await append(first, "a")
        await append(first, "b", key=SessionKey("acme", "s2"))
        await first.end(SessionKey("acme", "s2"), window=3, now=T0)
        assert await first.close(T0) == []
        second = RedisSessionStore(REDIS_URL, prefix=prefix)
        try:
            live = await second.get(KEY, window=3, now=T0)
            assert live is not None and [m.content for m in live.messages] == ["a"]
            (f,) = await second.claim_due(T0, limit=10, lease=timedelta(seconds=30))
            assert (f.session_id, [m.content for m in f.messages]) == ("s2", ["b"])
        finally:
            await second.clear()
            await second.close(T0)

    asyncio.run(go())
