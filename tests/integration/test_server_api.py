"""Every endpoint of the real server (uvicorn on a loopback port), through the SDK and raw
HTTP: results, auth, agent scoping, the problem bodies of errors."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import AsyncClient, Client
from jiyi.errors import (
    AuthenticationError,
    InvalidInputError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("api"), max_request_bytes=20_000) as s:
        yield s


@pytest.fixture(scope="module")
def key(srv: RunningServer) -> str:
    return srv.key("acme")


@pytest.fixture()
def client(srv: RunningServer, key: str) -> Iterator[Client]:
    with Client(srv.url, key) as c:
        yield c


def raw(srv: RunningServer, key: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.Client(base_url=srv.url, headers=headers, timeout=30)


def test_health_docs_and_openapi(srv: RunningServer) -> None:
    with raw(srv, None) as h:
        assert h.get("/healthz").json()["status"] == "ok"
        assert h.get("/docs").status_code == 200
        paths = h.get("/openapi.json").json()["paths"]
    for p in (
        "/v1/memories",
        "/v1/memories/search",
        "/v1/memories/{memory_id}",
        "/v1/memories/{memory_id}/history",
        "/v1/users/{user_id}",
        "/v1/sessions/{session_id}/messages",
        "/v1/sessions/{session_id}",
        "/v1/sessions/{session_id}/end",
        "/v1/context",
        "/healthz",
        "/metrics",
    ):
        assert p in paths


def test_memory_lifecycle_through_the_sdk(client: Client) -> None:
    added = client.add("我对花生过敏，以后别推荐带花生的菜。", user_id="sdk-u")
    assert added.events and all(e.memory.user_id == "sdk-u" for e in added.events)
    fact = next(e.memory for e in added.events if "花生过敏" in e.memory.content)
    hits = client.search("花生", user_id="sdk-u", top_k=5)
    assert hits[0].memory.id in {e.memory.id for e in added.events} | {
        ep.id for ep in added.episodes
    }
    assert {"keyword", "semantic"} <= set(hits[0].scores)
    got = client.get(fact.id)
    assert got is not None and got.content == fact.content
    assert fact.id in [m.id for m in client.list(user_id="sdk-u")]
    updated = client.update(fact.id, "用户对花生和腰果过敏")
    assert updated.version == 2
    actions = [h.action.value for h in client.history(fact.id)]
    assert actions[0] == "ADD" and "UPDATE" in actions
    ctx = client.context("推荐个菜", user_id="sdk-u", token_budget=300)
    assert "腰果" in ctx.text and ctx.tokens <= 300
    client.delete(fact.id)
    assert client.get(fact.id) is None
    with pytest.raises(NotFoundError):
        client.delete(fact.id)
    assert [h.action.value for h in client.history(fact.id)][-1] == "DELETE"
    receipt = client.delete_user("sdk-u")
    assert receipt.user_id == "sdk-u" and receipt.removed["memories"] >= 1
    assert client.list(user_id="sdk-u", include_episodes=True) == []


def test_raw_http_paths_and_fields(srv: RunningServer, key: str) -> None:
    with raw(srv, key) as h:
        r = h.post(
            "/v1/memories",
            json={
                "messages": [{"role": "user", "content": "I live in Berlin and I love jazz."}],
                "user_id": "raw-u",
                "agent_id": "planner",
                "session_id": "r1",
                "infer": True,
            },
        )
        assert r.status_code == 200
        body = r.json()
        assert set(body) >= {"events", "skipped"}
        mem = body["events"][0]["memory"]
        assert {
            "id",
            "content",
            "kind",
            "topic",
            "status",
            "source_message_ids",
            "created_at",
        } <= set(mem)
        r = h.post(
            "/v1/memories/search",
            json={
                "query": "where does the user live",
                "user_id": "raw-u",
                "agent_id": "planner",
                "top_k": 3,
                "kinds": ["fact", "preference"],
                "since": "2020-01-01T00:00:00Z",
                "until": "2030-01-01T00:00:00Z",
                "now": "2026-11-29T08:00:00+08:00",
            },
        )
        assert r.status_code == 200
        assert all(x["memory"]["kind"] in ("fact", "preference") for x in r.json()["results"])
        assert {"score", "scores"} <= set(r.json()["results"][0])
        r = h.get(
            "/v1/memories",
            params={"user_id": "raw-u", "agent_id": "planner", "include_superseded": "true"},
        )
        assert r.status_code == 200 and r.json()["memories"]
        mid = mem["id"]
        assert h.get(f"/v1/memories/{mid}").json()["id"] == mid
        r = h.patch(f"/v1/memories/{mid}", json={"content": "The user lives in Munich."})
        assert r.status_code == 200 and r.json()["version"] == 2
        assert len(h.get(f"/v1/memories/{mid}/history").json()["history"]) == 2
        assert h.delete(f"/v1/memories/{mid}").status_code == 204
        assert h.get(f"/v1/memories/{mid}").status_code == 404
        r = h.post(
            "/v1/sessions/r1/messages",
            json={"user_id": "raw-u", "role": "user", "content": "Plan a trip for me"},
        )
        assert r.status_code == 200 and r.json()["messages"][-1]["content"] == "Plan a trip for me"
        assert h.get("/v1/sessions/r1").json()["total"] == 1
        r = h.post(
            "/v1/context",
            json={
                "user_id": "raw-u",
                "session_id": "r1",
                "query": "trip ideas",
                "token_budget": 400,
            },
        )
        assert set(r.json()) >= {"text", "memories", "tokens"}
        assert "Plan a trip for me" in r.json()["text"]
        assert h.post("/v1/sessions/r1/end").json()["ended"] is True
        assert h.get("/v1/sessions/r1").status_code == 404
        r = h.delete("/v1/users/raw-u")
        assert r.status_code == 200
        assert set(r.json()) >= {"user_id", "tenant", "deleted_at", "removed"}


def test_no_key_or_wrong_key_is_401(srv: RunningServer) -> None:
    for key in (None, "jy_not-a-real-key", "Basic abc"):
        with raw(srv, key) as h:
            r = h.get("/v1/memories", params={"user_id": "u"})
            assert r.status_code == 401
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["code"] == "unauthenticated"
    with Client(srv.url, "jy_wrong") as c, pytest.raises(AuthenticationError):
        c.list(user_id="u")


def test_validation_errors_name_the_field(srv: RunningServer, key: str, client: Client) -> None:
    with raw(srv, key) as h:
        r = h.post(
            "/v1/memories", json={"messages": [{"role": "bot", "content": "x"}], "user_id": "u"}
        )
        assert r.status_code == 422
        assert r.json()["field"] == "messages[0].role" and r.json()["code"] == "invalid_input"
        r = h.post("/v1/memories/search", json={"query": "x", "user_id": "u", "top_k": 0})
        assert (r.status_code, r.json()["field"]) == (422, "top_k")
        r = h.post(
            "/v1/memories", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code == 422 and "Traceback" not in r.text
        r = h.post("/v1/memories", json={"messages": "hi", "user_id": "u", "since": 1})
        assert (r.status_code, r.json()["field"]) == (422, "since")
    with pytest.raises(InvalidInputError) as exc:
        client.search("", user_id="u")
    assert exc.value.field == "query"


def test_oversize_payload_is_413(srv: RunningServer, key: str, client: Client) -> None:
    with raw(srv, key) as h:
        r = h.post("/v1/memories", json={"messages": "长" * 30_000, "user_id": "u"})
        assert r.status_code == 413 and r.json()["code"] == "payload_too_large"

        def chunks() -> Iterator[bytes]:
            yield b'{"messages": "'
            for _ in range(30):
                yield b"x" * 1000
            yield b'", "user_id": "u"}'

        r = h.post("/v1/memories", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
    with pytest.raises(PayloadTooLargeError):
        client.add("x" * 30_000, user_id="u")


def test_agent_bound_key_sees_only_its_own_and_shared(srv: RunningServer, key: str) -> None:
    tenant = Client(srv.url, key)
    a = Client(srv.url, srv.key("acme", agent="agent-a"))
    b = Client(srv.url, srv.key("acme", agent="agent-b"))
    shared = tenant.add("我住在杭州", user_id="ag-u").events[0].memory
    mine_a = a.add("我喜欢爵士乐", user_id="ag-u").events[0].memory
    assert mine_a.agent_id == "agent-a" and shared.agent_id is None
    assert b.get(mine_a.id) is None
    assert b.get(shared.id) is not None
    with pytest.raises(NotFoundError):
        b.update(mine_a.id, "hacked")
    with pytest.raises(NotFoundError):
        b.history(mine_a.id)
    with pytest.raises(PermissionDeniedError):
        b.search("爵士", user_id="ag-u", agent_id="agent-a")
    with pytest.raises(PermissionDeniedError):
        b.delete_user("ag-u")
    seen_b = {m.id for m in b.list(user_id="ag-u")}
    assert shared.id in seen_b and mine_a.id not in seen_b
    assert all(h.memory.agent_id in (None, "agent-b") for h in b.search("爵士", user_id="ag-u"))
    assert mine_a.id in {m.id for m in a.list(user_id="ag-u")}
    a.add_message("ag-s", "hello", user_id="ag-u")
    assert b.get_session("ag-s") is None and b.end_session("ag-s") is None
    assert a.get_session("ag-s") is not None
    for c in (tenant, a, b):
        c.close()


def test_async_client_mirrors_the_sync_one(srv: RunningServer, key: str) -> None:
    async def go() -> None:
        async with AsyncClient(srv.url, key) as c:
            assert (await c.health()).status == "ok"
            r = await c.add("我下周去成都出差", user_id="async-u")
            results = await asyncio.gather(*(c.search("成都", user_id="async-u") for _ in range(5)))
            assert all(res for res in results)
            mid = r.events[0].memory.id
            assert (await c.get(mid)) is not None
            assert (await c.update(mid, "用户下周去重庆出差")).version == 2
            assert len(await c.history(mid)) == 2
            assert await c.list(user_id="async-u")
            view = await c.add_message("as1", "你好", user_id="async-u")
            assert view.total == 1 and (await c.get_session("as1")) is not None
            assert "你好" in (await c.context("出差", user_id="async-u", session_id="as1")).text
            assert (await c.end_session("as1")) is not None
            await c.delete(mid)
            with pytest.raises(NotFoundError):
                await c.delete(mid)
            assert (await c.delete_user("async-u")).removed

    asyncio.run(go())


def test_unreachable_server_is_a_jiyi_error(tmp_path: Path) -> None:
    from jiyi.errors import StorageUnavailableError

    with (
        Client("http://127.0.0.1:9", "jy_x", timeout=2) as c,
        pytest.raises(StorageUnavailableError),
    ):
        c.health()


def test_metrics_count_requests_and_writes(srv: RunningServer, client: Client) -> None:
    client.add("我对芒果过敏", user_id="metrics-u")
    with raw(srv, None) as h:
        text = h.get("/metrics").text
    assert 'jiyi_http_requests_total{method="POST",route="/v1/memories",status="200"}' in text
    assert "jiyi_http_request_duration_seconds_bucket" in text
    assert 'jiyi_memories_written_total{event="ADD"}' in text
    assert "jiyi_extraction_failures_total" in text
