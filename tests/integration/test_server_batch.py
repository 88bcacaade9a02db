"""``POST /v1/memories/batch`` on a real server: many users in one request, one result per
item, a bad item its own 422 naming ``items[i].…`` while the others are written, tenants
kept apart, limits answered with 413, and idempotent retries (inline and with a queue)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi import AddResult
from jiyi.client import AsyncClient, Client
from jiyi.errors import InvalidInputError, PermissionDeniedError

pytestmark = pytest.mark.integration


@pytest.fixture(params=["inline", "queue"], scope="module")
def srv(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    extra: dict[str, Any] = {"queue": "sqlite"} if request.param == "queue" else {}
    with running_server(
        tmp_path_factory.mktemp(f"batch-{request.param}"), max_batch_items=5, **extra
    ) as s:
        yield s


@pytest.fixture(scope="module")
def key(srv: RunningServer) -> str:
    return srv.key("acme")


def http(srv: RunningServer, key: str) -> httpx.Client:
    return httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def episodes(h: httpx.Client, user: str) -> int:
    """The user's stored messages (with a queue, extracted facts appear later on their own;
    a duplicate would show here)."""
    return sum(m["kind"] == "episode" for m in stored(h, user))


def stored(h: httpx.Client, user: str) -> list[dict[str, Any]]:
    r = h.get("/v1/memories", params={"user_id": user, "include_episodes": True})
    assert r.status_code == 200, r.text
    memories: list[dict[str, Any]] = r.json()["memories"]
    return memories


def test_good_items_are_written_and_bad_ones_answered_alone(srv: RunningServer, key: str) -> None:
    items: list[Any] = [
        {"user_id": "mixed-a", "messages": "我对花生过敏"},
        {"user_id": "mixed-b", "messages": []},
        {"user_id": "", "messages": "I live in Berlin"},
        {"user_id": "mixed-d", "messages": [{"role": "user", "content": "I work as a nurse"}]},
        {"user_id": "mixed-e", "messages": [{"role": "robot", "content": "beep"}]},
    ]
    with http(srv, key) as h:
        r = h.post("/v1/memories/batch", json={"items": items})
        assert r.status_code == 200, r.text
        body = r.json()
        assert (body["succeeded"], body["failed"]) == (2, 3)
        results = body["results"]
        assert [x["index"] for x in results] == [0, 1, 2, 3, 4]
        assert [x["status"] for x in results] == [200, 422, 422, 200, 422]
        assert results[1]["error"]["field"] == "items[1].messages"
        assert results[1]["error"]["code"] == "invalid_input"
        assert results[2]["error"]["field"] == "items[2].user_id"
        assert results[4]["error"]["field"] == "items[4].messages[0].role"
        assert "items[4].messages[0].role" in results[4]["error"]["message"]
        assert results[0]["result"]["episodes"] and results[3]["result"]["episodes"]
        assert any("花生" in m["content"] for m in stored(h, "mixed-a"))
        assert any("nurse" in m["content"] for m in stored(h, "mixed-d"))
        assert stored(h, "mixed-b") == [] and stored(h, "mixed-e") == []


def test_the_tenant_comes_from_the_key_for_every_item(srv: RunningServer, key: str) -> None:
    other = srv.key("globex")
    bound = srv.key("acme", agent="support")
    with http(srv, key) as acme, http(srv, other) as globex, http(srv, bound) as agent:
        assert (
            acme.post(
                "/v1/memories/batch",
                json={"items": [{"user_id": "same", "messages": "I love jazz"}]},
            ).json()["succeeded"]
            == 1
        )
        r = globex.post(
            "/v1/memories/batch",
            json={"items": [{"user_id": "same", "messages": "I love opera"}] * 2},
        )
        assert r.json()["succeeded"] == 2
        assert all("jazz" not in m["content"] for m in stored(globex, "same"))
        assert all("opera" not in m["content"] for m in stored(acme, "same"))
        # an agent-bound key cannot write as another agent: that item alone is refused
        r = agent.post(
            "/v1/memories/batch",
            json={
                "items": [
                    {"user_id": "ag", "messages": "I live in Oslo", "agent_id": "sales"},
                    {"user_id": "ag", "messages": "I live in Oslo"},
                ]
            },
        )
        results = r.json()["results"]
        assert [x["status"] for x in results] == [403, 200]
        assert results[0]["error"]["field"] == "items[0].agent_id"
        assert {m["agent_id"] for m in stored(acme, "ag")} == {"support"}


def test_limits_refuse_the_whole_batch(srv: RunningServer, key: str) -> None:
    with http(srv, key) as h:
        six = [{"user_id": f"lim-{i}", "messages": "hi"} for i in range(6)]
        r = h.post("/v1/memories/batch", json={"items": six})
        assert r.status_code == 413 and r.json()["field"] == "items"
        big = [{"user_id": f"lim-{i}", "messages": "长" * 6000} for i in range(3)]
        r = h.post("/v1/memories/batch", json={"items": big})  # 18,000 characters together
        assert r.status_code == 413 and "all items together" in r.json()["message"]
        r = h.post("/v1/memories/batch", json={"items": []})
        assert r.status_code == 422 and r.json()["field"] == "items"
        r = h.post("/v1/memories/batch", json={"items": "hi"})
        assert r.status_code == 422 and r.json()["field"] == "items"
        r = h.post("/v1/memories/batch", json={"items": [1], "extra": True})
        assert r.status_code == 422 and r.json()["field"] == "extra"
        assert all(stored(h, f"lim-{i}") == [] for i in range(6))


def test_a_retried_batch_stores_nothing_new(srv: RunningServer, key: str) -> None:
    batch = {
        "items": [
            {"user_id": "idem-a", "messages": "我下周去成都出差"},
            {"user_id": "idem-b", "messages": ["bad"]},
            {"user_id": "idem-c", "messages": "I am vegetarian"},
        ]
    }
    with http(srv, key) as h:
        headers = {"Idempotency-Key": "batch-1"}
        first = h.post("/v1/memories/batch", json=batch, headers=headers).json()
        assert [x["status"] for x in first["results"]] == [200, 422, 200]
        before = {u: episodes(h, u) for u in ("idem-a", "idem-c")}
        assert all(before.values())
        # The same batch again: nothing new for the good items.
        again = h.post("/v1/memories/batch", json=batch, headers=headers).json()
        assert [x["status"] for x in again["results"]] == [200, 422, 200]
        assert {u: episodes(h, u) for u in before} == before
        # A partial failure left no record of the key: the corrected batch may reuse it,
        # and the items written before are still not written twice.
        batch["items"][1] = {"user_id": "idem-b", "messages": "I live in Lisbon"}
        fixed = h.post("/v1/memories/batch", json=batch, headers=headers).json()
        assert fixed["succeeded"] == 3
        assert {u: episodes(h, u) for u in before} == before
        assert any("Lisbon" in m["content"] for m in stored(h, "idem-b"))
        # Now the key is spent on this body: another body under it is a client bug.
        batch["items"][2] = {"user_id": "idem-c", "messages": "I am vegan"}
        r = h.post("/v1/memories/batch", json=batch, headers=headers)
        assert r.status_code == 409 and r.json()["field"] == "Idempotency-Key"
        assert all("vegan" not in m["content"] for m in stored(h, "idem-c"))


def test_the_sdks_return_one_outcome_per_item(srv: RunningServer, key: str) -> None:
    items = [
        {"user_id": "sdk-a", "messages": "I love hiking", "metadata": {"src": "import"}},
        {"user_id": "sdk-b", "messages": "x", "ttl": -1.0},
    ]
    with Client(srv.url, key) as c:
        out = c.add_batch(items, idempotency_key="sdk-batch")
        assert isinstance(out[0], AddResult) and out[0].episodes
        assert isinstance(out[1], InvalidInputError) and out[1].field == "items[1].ttl"
        assert out[1].status == 422

    async def main() -> None:
        async with AsyncClient(srv.url, srv.key("acme", agent="bot")) as ac:
            got = await ac.add_batch([{"user_id": "sdk-c", "messages": "hi", "agent_id": "other"}])
            assert isinstance(got[0], PermissionDeniedError) and got[0].status == 403

    asyncio.run(main())


def test_the_batch_is_in_the_openapi_document(srv: RunningServer) -> None:
    doc = httpx.get(f"{srv.url}/openapi.json").json()
    op = doc["paths"]["/v1/memories/batch"]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    ref = schema["$ref"].rsplit("/", 1)[-1]
    items = doc["components"]["schemas"][ref]["properties"]["items"]
    assert items["items"] == {"$ref": "#/components/schemas/AddRequest"}
    assert {"200", "413", "422"} <= set(op["responses"])


GOOD = b'{"user_id": "ok", "messages": "hi"}]}'


@pytest.mark.parametrize(
    "raw",
    [
        b'{"items": [{"user_id": "\\ud800", "messages": "x"}, ' + GOOD,
        b'{"items": [{"user_id": "u", "messages": "x", "\\udfff": 1}, ' + GOOD,
    ],
)
def test_lone_surrogates_in_an_item_are_that_items_422(
    srv: RunningServer, key: str, raw: bytes
) -> None:
    with http(srv, key) as h:
        for headers in ({}, {"Idempotency-Key": "surrogate-" + raw.hex()[-12:]}):
            r = h.post(
                "/v1/memories/batch",
                content=raw,
                headers={"content-type": "application/json", **headers},
            )
            assert r.status_code == 200, r.text
            assert [x["status"] for x in r.json()["results"]] == [422, 200]
