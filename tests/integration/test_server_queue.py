"""The server with a durable work queue (SQLite here; PostgreSQL in the crash test), the
hot context cache and the vector-search time budget, over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_harness import RunningServer, running_server, wait_for

from jiyi.client import Client


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("queue"), queue="sqlite", queue_workers=1) as s:
        yield s


@pytest.fixture(scope="module")
def client(srv: RunningServer) -> Iterator[Client]:
    with Client(srv.url, srv.key("acme")) as c:
        yield c


def facts(client: Client, user: str) -> list[str]:
    return sorted(m.content for m in client.list(user_id=user))


def test_add_is_acknowledged_with_episodes_and_extracted_in_the_background(
    srv: RunningServer, client: Client
) -> None:
    res = client.add("我对花生过敏", user_id="q1")
    assert res.queued and res.events == [] and len(res.episodes) == 1
    assert wait_for(lambda: facts(client, "q1")) == ["用户对花生过敏"]
    eps = [m for m in client.list(user_id="q1", include_episodes=True) if m.kind.value == "episode"]
    assert [e.extracted for e in eps] == [True]
    assert srv.services.queue is not None
    assert wait_for(lambda: srv.services.queue.counts()["done"] >= 1)  # type: ignore[union-attr]


def test_ended_sessions_go_through_the_queue(srv: RunningServer, client: Client) -> None:
    client.add_message("qs", "我住在杭州", user_id="q2")
    client.end_session("qs")
    srv.sweep()
    assert wait_for(lambda: facts(client, "q2")) == ["用户住在杭州"]


def test_context_is_cached_until_the_user_changes(srv: RunningServer, client: Client) -> None:
    client.add("我喜欢爵士乐", user_id="q3")
    wait_for(lambda: facts(client, "q3"))
    first = client.context("推荐点音乐", user_id="q3")
    hits = srv.services.metrics.value("jiyi_context_cache_total", result="hit")
    assert client.context("推荐点音乐", user_id="q3").text == first.text
    assert srv.services.metrics.value("jiyi_context_cache_total", result="hit") == hits + 1
    client.add("我也喜欢古典音乐", user_id="q3")  # a write: the cached block is stale
    assert wait_for(lambda: "古典" in client.context("推荐点音乐", user_id="q3").text)
    client.delete_user("q3")
    assert "爵士" not in client.context("推荐点音乐", user_id="q3").text


def test_deleting_a_user_drops_their_queued_jobs(srv: RunningServer, client: Client) -> None:
    receipt = client.delete_user("nobody")
    assert receipt.removed["queued_jobs"] == 0


def test_slow_semantic_search_answers_degraded_with_keywords(tmp_path: Path, slow_embedder) -> None:  # type: ignore[no-untyped-def]
    with running_server(tmp_path, embedder=slow_embedder, vector_budget_ms=100) as s:
        key = s.key("acme")
        with httpx.Client(
            base_url=s.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
        ) as h:
            assert (
                h.post(
                    "/v1/memories", json={"messages": "我对花生过敏", "user_id": "d1"}
                ).status_code
                == 200
            )
            fast = h.post("/v1/memories/search", json={"query": "花生", "user_id": "d1"}).json()
            assert fast["degraded"] is False
            slow_embedder.delay = 1.0
            slow = h.post("/v1/memories/search", json={"query": "花生", "user_id": "d1"}).json()
            assert slow["degraded"] is True and slow["results"]
            assert "花生" in slow["results"][0]["memory"]["content"]
            ctx = h.post("/v1/context", json={"query": "花生", "user_id": "d1"}).json()
            assert ctx["degraded"] is True and "花生" in ctx["text"]
            assert s.services.metrics.value("jiyi_search_degraded_total") == 2
