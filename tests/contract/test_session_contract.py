"""SessionStore guarantees (see ``jiyi/sessions/base.py``), run against every backend: in
process, durable SQL on SQLite and on PostgreSQL, and Redis (see ``conftest.py``).

The durable backends also keep what they acknowledged for the next process; those checks
open several stores on one backend's storage, as several (or restarted) processes do.
Backend-specific behaviour is tested beside its backend (``tests/unit/test_sessions_*.py``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from jiyi.errors import ConflictError, PayloadTooLargeError
from jiyi.sessions import SessionKey, SessionMessage, SessionOwner, SessionStore, SessionView

T0 = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
TTL = timedelta(hours=2)
LEASE = timedelta(seconds=30)
KEY = SessionKey("acme", "s1")
ALICE = SessionOwner("alice")
OpenSessions = Callable[[], SessionStore]  # the ``reopen_sessions`` fixture


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
) -> SessionView:
    return await store.append(
        key, msg(text, now), owner=owner, window=window, ttl=TTL, max_messages=max_messages, now=now
    )


def test_window_is_the_newest_messages_in_order(sessions: SessionStore) -> None:
    async def go() -> None:
        for i in range(5):
            view = await append(sessions, f"t{i}")
        assert [m.content for m in view.messages] == ["t2", "t3", "t4"]
        assert [m.seq for m in view.messages] == [3, 4, 5]
        assert view.total == 5
        got = await sessions.get(KEY, window=10, now=T0)
        assert got is not None and [m.content for m in got.messages] == [f"t{i}" for i in range(5)]

    asyncio.run(go())


def test_concurrent_appends_from_threads_lose_nothing(sessions: SessionStore) -> None:
    def worker(i: int) -> None:
        asyncio.run(append(sessions, f"m{i:02d}", window=10))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ended = asyncio.run(sessions.end(KEY, window=10, now=T0))
    assert ended is not None and ended.total == 50
    assert [m.seq for m in ended.messages] == list(range(41, 51))
    (flush,) = asyncio.run(sessions.claim_due(T0, limit=10, lease=timedelta(seconds=30)))
    assert sorted(m.content for m in flush.messages) == [f"m{i:02d}" for i in range(50)]
    assert [m.seq for m in flush.messages] == list(range(1, 51))


def test_another_owner_is_refused(sessions: SessionStore) -> None:
    asyncio.run(append(sessions, "hi"))
    with pytest.raises(ConflictError):
        asyncio.run(append(sessions, "hi", owner=SessionOwner("bob")))
    with pytest.raises(ConflictError):
        asyncio.run(append(sessions, "hi", owner=SessionOwner("alice", "agent-x")))


def test_tenants_do_not_share_session_ids(sessions: SessionStore) -> None:
    asyncio.run(append(sessions, "secret"))
    other = SessionKey("globex", "s1")
    assert asyncio.run(sessions.get(other, window=5, now=T0)) is None
    view = asyncio.run(append(sessions, "mine", key=other, owner=SessionOwner("bob")))
    assert [m.content for m in view.messages] == ["mine"]


def test_full_session_must_be_ended(sessions: SessionStore) -> None:
    asyncio.run(append(sessions, "a", max_messages=2))
    asyncio.run(append(sessions, "b", max_messages=2))
    with pytest.raises(PayloadTooLargeError):
        asyncio.run(append(sessions, "c", max_messages=2))


def test_end_hands_the_transcript_over_once(sessions: SessionStore) -> None:
    async def go() -> None:
        await append(sessions, "a")
        view = await sessions.end(KEY, window=3, now=T0)
        assert view is not None and view.ended
        assert await sessions.end(KEY, window=3, now=T0) is None
        assert await sessions.get(KEY, window=3, now=T0) is None
        (f,) = await sessions.claim_due(T0, limit=10, lease=timedelta(seconds=30))
        assert (f.reason, f.user_id, f.attempts) == ("ended", "alice", 1)
        # Claimed: hidden for the lease, then due again with attempts counted.
        assert (
            await sessions.claim_due(
                T0 + timedelta(seconds=29), limit=10, lease=timedelta(seconds=30)
            )
            == []
        )
        (again,) = await sessions.claim_due(
            T0 + timedelta(seconds=30), limit=10, lease=timedelta(seconds=30)
        )
        assert again.flush_id == f.flush_id and again.attempts == 2
        # Backoff doubles: the third claim waits 60 s.
        later = T0 + timedelta(seconds=89)
        assert await sessions.claim_due(later, limit=10, lease=timedelta(seconds=30)) == []
        await sessions.ack(f.flush_id)
        await sessions.ack(f.flush_id)  # idempotent
        assert (
            await sessions.claim_due(T0 + timedelta(days=1), limit=10, lease=timedelta(seconds=30))
            == []
        )

    asyncio.run(go())


def test_idle_sessions_expire_into_the_queue(sessions: SessionStore) -> None:
    async def go() -> None:
        await append(sessions, "old")
        later = T0 + TTL
        assert await sessions.get(KEY, window=3, now=later - timedelta(seconds=1)) is not None
        assert await sessions.expire(later) == 1
        assert await sessions.get(KEY, window=3, now=later) is None
        (f,) = await sessions.claim_due(later, limit=10, lease=timedelta(seconds=30))
        assert f.reason == "expired" and [m.content for m in f.messages] == ["old"]

    asyncio.run(go())


def test_append_after_ttl_starts_a_new_session(sessions: SessionStore) -> None:
    async def go() -> None:
        await append(sessions, "old")
        view = await append(sessions, "new", now=T0 + TTL + timedelta(minutes=1))
        assert [m.content for m in view.messages] == ["new"] and view.total == 1
        (f,) = await sessions.claim_due(T0 + TTL * 2, limit=10, lease=timedelta(seconds=30))
        assert [m.content for m in f.messages] == ["old"]

    asyncio.run(go())


def test_delete_user_removes_live_and_pending(sessions: SessionStore) -> None:
    async def go() -> None:
        await append(sessions, "a")
        await sessions.end(KEY, window=3, now=T0)
        await append(sessions, "b", key=SessionKey("acme", "s2"))
        await append(sessions, "c", key=SessionKey("acme", "s3"), owner=SessionOwner("bob"))
        await append(sessions, "d", key=SessionKey("globex", "s4"))
        assert await sessions.delete_user("acme", "alice") == 2
        assert await sessions.get(SessionKey("acme", "s2"), window=3, now=T0) is None
        assert await sessions.get(SessionKey("acme", "s3"), window=3, now=T0) is not None
        assert await sessions.get(SessionKey("globex", "s4"), window=3, now=T0) is not None
        assert await sessions.claim_due(T0, limit=10, lease=timedelta(seconds=1)) == []

    asyncio.run(go())


# -- durable backends: what was acknowledged is there for the next process -----------------


def test_acknowledged_sessions_are_there_for_the_next_process(
    reopen_sessions: OpenSessions,
) -> None:
    first = reopen_sessions()

    async def before_the_crash() -> None:
        for text in ("a", "b", "c"):
            await append(first, text)
        await append(first, "x", key=SessionKey("acme", "s2"))
        await first.end(SessionKey("acme", "s2"), window=3, now=T0)

    asyncio.run(before_the_crash())
    second = reopen_sessions()  # the first was never closed: as after kill -9

    async def after_the_restart() -> None:
        live = await second.get(KEY, window=10, now=T0)
        assert live is not None and [m.content for m in live.messages] == ["a", "b", "c"]
        assert live.total == 3 and live.user_id == ALICE.user_id
        view = await append(second, "d", window=10)
        assert [m.seq for m in view.messages] == [1, 2, 3, 4]
        (flush,) = await second.claim_due(T0, limit=10, lease=LEASE)
        assert (flush.session_id, [m.content for m in flush.messages]) == ("s2", ["x"])
        await second.ack(flush.flush_id)
        assert await second.claim_due(T0 + timedelta(days=1), limit=10, lease=LEASE) == []
        assert await second.close(T0) == []  # nothing to hand back: it is all stored

    asyncio.run(after_the_restart())
    third = reopen_sessions()
    live = asyncio.run(third.get(KEY, window=10, now=T0))
    assert live is not None and live.total == 4  # closing the second kept the session


def test_expired_sessions_are_handed_over_once_by_any_process(
    reopen_sessions: OpenSessions,
) -> None:
    one, two = reopen_sessions(), reopen_sessions()

    async def go() -> None:
        await append(one, "old", owner=SessionOwner("alice", "planner"))
        later = T0 + TTL
        assert await one.expire(later) + await two.expire(later) == 1
        assert await two.get(KEY, window=3, now=later) is None
        assert await one.get(KEY, window=3, now=later) is None
        (f,) = await two.claim_due(later, limit=10, lease=LEASE)
        assert (f.reason, f.agent_id, [m.content for m in f.messages]) == (
            "expired",
            "planner",
            ["old"],
        )
        assert await one.claim_due(later, limit=10, lease=LEASE) == []  # claimed: hidden

    asyncio.run(go())
