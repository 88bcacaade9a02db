"""The SDK against a real server that refuses: 429 (tenant over its rate) and 503 (at
capacity) come back as RateLimitedError / OverloadedError with ``retry_after``; calls that
are safe to repeat wait out ``Retry-After`` and succeed, the others raise at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from server_harness import RunningServer, running_server

from jiyi.client import AsyncClient, Client, RetryPolicy
from jiyi.errors import RateLimitedError


@pytest.fixture
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # A request every 2 s, bursts of one: the second request in a row is refused, with
    # Retry-After: 2 (wide enough that a slow first request on a busy machine still counts).
    path = tmp_path_factory.mktemp("retry")
    with running_server(path, tenant_rate=0.5, tenant_burst=1) as s:
        yield s


def test_a_read_waits_out_retry_after_and_succeeds(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme")) as c:
        assert c.list(user_id="u") == []
        t0 = time.monotonic()
        assert c.search("花生", user_id="u") == []  # refused once, then served
        assert time.monotonic() - t0 >= 1.5


def test_an_add_without_a_key_is_not_repeated(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme")) as c:
        c.list(user_id="u")
        with pytest.raises(RateLimitedError) as refused:
            c.add("我对花生过敏", user_id="u")
        assert refused.value.status == 429 and refused.value.retry_after == 2
        time.sleep(2.1)
        assert c.list(user_id="u") == []  # the refused add stored nothing


def test_an_add_with_an_idempotency_key_is_repeated(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme")) as c:
        c.list(user_id="u")
        res = c.add("我对花生过敏", user_id="u", idempotency_key="k-1")
        assert [e.memory.content for e in res.events] == ["用户对花生过敏"]


def test_retries_are_bounded(srv: RunningServer) -> None:
    never = RetryPolicy(attempts=1)
    impatient = RetryPolicy(attempts=3, max_wait=1.5)  # Retry-After is 2 s: not waited out
    for policy in (never, impatient):
        with Client(srv.url, srv.key("acme"), retry=policy) as c:
            time.sleep(2.1)
            c.list(user_id="u")
            t0 = time.monotonic()
            with pytest.raises(RateLimitedError):
                c.list(user_id="u")
            assert time.monotonic() - t0 < 1.5  # less than the 2 s a retry would wait


def test_the_async_client_retries_the_same_calls(srv: RunningServer) -> None:
    async def go() -> None:
        async with AsyncClient(srv.url, srv.key("acme")) as c:
            assert await c.list(user_id="u") == []
            assert await c.get_session("s-1") is None  # refused once, then served
            with pytest.raises(RateLimitedError):
                await c.add_message("s-1", "你好", user_id="u")

    asyncio.run(go())


def test_retry_policies_validate_themselves() -> None:
    with pytest.raises(ValueError, match="attempts"):
        RetryPolicy(attempts=0)
    with pytest.raises(ValueError, match="max_wait"):
        RetryPolicy(max_wait=float("inf"))
