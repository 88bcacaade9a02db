"""Idempotent writes over real HTTP: message ids and the ``Idempotency-Key`` header.

A client that retries a ``POST /v1/memories`` (its connection dropped, a timeout) must
not store the messages twice: with the same key and body the retry answers 200 with the
same shape and nothing new; the same key with another body is refused with 409. Run with
inline extraction and with a work queue (where the retry must not enqueue a second job).
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import Client
from jiyi.errors import ConflictError

pytestmark = pytest.mark.integration
BODY = {
    "user_id": "retry-u",
    "messages": [
        {"role": "user", "content": "我对花生过敏"},
        {"role": "assistant", "content": "好的，记住了。"},
        {"role": "user", "content": "我下周去成都出差"},
    ],
}


@pytest.fixture(params=["inline", "queue"], scope="module")
def srv(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    extra: dict[str, Any] = {"queue": "sqlite"} if request.param == "queue" else {}
    with running_server(tmp_path_factory.mktemp(f"idem-{request.param}"), **extra) as s:
        yield s


@pytest.fixture(scope="module")
def key(srv: RunningServer) -> str:
    return srv.key("acme")


@pytest.fixture
def http(srv: RunningServer, key: str) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
    ) as h:
        yield h


def episodes(h: httpx.Client, user: str) -> list[dict[str, Any]]:
    items = h.get("/v1/memories", params={"user_id": user, "include_episodes": True}).json()
    return [m for m in items["memories"] if m["kind"] == "episode"]


def test_a_retry_with_the_same_key_stores_nothing_new(http: httpx.Client) -> None:
    body = {**BODY, "user_id": "retry-1"}
    first = http.post("/v1/memories", json=body, headers={"Idempotency-Key": "req-0001"})
    assert first.status_code == 200, first.text
    stored = episodes(http, "retry-1")
    assert len(stored) == 3 and len(first.json()["episodes"]) == 3
    for _ in range(2):
        again = http.post("/v1/memories", json=body, headers={"Idempotency-Key": "req-0001"})
        assert again.status_code == 200, again.text
        assert set(again.json()) == set(first.json())  # the same shape
        assert again.json()["episodes"] == [] and again.json()["events"] == []
    assert episodes(http, "retry-1") == stored
    # Derived ids: every stored episode came from the keyed request.
    assert all(e["source_message_ids"][0].startswith("idem-") for e in stored)


def test_the_same_key_with_another_body_is_refused(http: httpx.Client) -> None:
    body = {**BODY, "user_id": "retry-2"}
    assert http.post("/v1/memories", json=body, headers={"Idempotency-Key": "k-2"}).is_success
    changed = {**body, "messages": "我住在上海"}
    r = http.post("/v1/memories", json=changed, headers={"Idempotency-Key": "k-2"})
    assert r.status_code == 409, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["field"] == "Idempotency-Key"
    other_user = {**body, "user_id": "retry-2b"}
    r = http.post("/v1/memories", json=other_user, headers={"Idempotency-Key": "k-2"})
    assert r.status_code == 409  # the user is part of the request
    assert not any("上海" in e["content"] for e in episodes(http, "retry-2"))
    # Another key is another request.
    r = http.post("/v1/memories", json=changed, headers={"Idempotency-Key": "k-3"})
    assert r.status_code == 200 and len(episodes(http, "retry-2")) == 4


def test_concurrent_retries_store_once(srv: RunningServer, key: str) -> None:
    body = {**BODY, "user_id": "retry-3"}

    def post(_: int) -> int:
        with httpx.Client(
            base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
        ) as h:
            r = h.post("/v1/memories", json=body, headers={"Idempotency-Key": "burst"})
            return r.status_code

    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(post, range(8))) == {200}
    with httpx.Client(
        base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
    ) as h:
        assert len(episodes(h, "retry-3")) == 3


def test_caller_message_ids_are_honoured_without_a_key(http: httpx.Client) -> None:
    body = {
        "user_id": "retry-4",
        "messages": [{"id": "wx-81", "content": "我养了一只猫叫阿橘"}, {"content": "hi"}],
    }
    assert len(http.post("/v1/memories", json=body).json()["episodes"]) == 2
    again = http.post("/v1/memories", json=body).json()
    # The message with an id is skipped; the one without is a new message each time.
    assert [e["content"] for e in again["episodes"]] == ["hi"]
    assert {s["reason"] for s in again["skipped"]} >= {"duplicate_message"}
    assert len([e for e in episodes(http, "retry-4") if "阿橘" in e["content"]]) == 1


@pytest.mark.parametrize("bad", ["has space", "x" * 256, "中文"])
def test_malformed_keys_are_refused(http: httpx.Client, bad: str) -> None:
    r = http.post("/v1/memories", json=BODY, headers={"Idempotency-Key": bad.encode()})
    assert r.status_code == 422, r.text
    assert r.json()["field"] == "Idempotency-Key"


def test_the_sdk_sends_the_key(srv: RunningServer, key: str) -> None:
    with Client(srv.url, key) as c:
        first = c.add("我喜欢爵士乐", user_id="retry-5", idempotency_key="sdk-1")
        again = c.add("我喜欢爵士乐", user_id="retry-5", idempotency_key="sdk-1")
        assert len(first.episodes) == 1 and again.episodes == []
        with pytest.raises(ConflictError) as err:
            c.add("我喜欢摇滚", user_id="retry-5", idempotency_key="sdk-1")
        assert err.value.field == "Idempotency-Key"
        eps = [m for m in c.list(user_id="retry-5", include_episodes=True) if m.kind == "episode"]
        assert [m.content for m in eps] == ["我喜欢爵士乐"]
