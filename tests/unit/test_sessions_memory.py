"""What the in-process session store adds to the SessionStore contract
(``tests/contract/test_session_contract.py`` runs that on every backend): it dies with its
process, so ``close`` hands back everything not yet written."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from jiyi.errors import ConflictError
from jiyi.sessions import InMemorySessionStore, SessionKey, SessionMessage, SessionOwner

T0 = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)


async def append(store: InMemorySessionStore, text: str, session_id: str = "s1") -> None:
    await store.append(
        SessionKey("acme", session_id),
        SessionMessage(id=f"m-{text}", seq=0, role="user", content=text, timestamp=T0),
        owner=SessionOwner("alice"),
        window=3,
        ttl=timedelta(hours=2),
        max_messages=100,
        now=T0,
    )


def test_close_returns_everything_unwritten() -> None:
    store = InMemorySessionStore()

    async def go() -> None:
        await append(store, "a")
        await append(store, "b", session_id="s2")
        await store.end(SessionKey("acme", "s2"), window=3, now=T0)
        left = await store.close(T0)
        assert sorted(f.reason for f in left) == ["ended", "shutdown"]
        with pytest.raises(ConflictError):
            await append(store, "late")

    asyncio.run(go())
