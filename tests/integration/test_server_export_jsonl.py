"""``GET /v1/users/{id}/export?format=jsonl`` and ``POST …/import`` with JSON Lines on a
real server: streamed as application/x-ndjson (a header line, one record a line), imported
into a fresh server with the same search results, a bad line refused with 422 naming the
line and nothing written, and the JSON document still accepted as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

NDJSON = {"Content-Type": "application/x-ndjson"}


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path, alias_secret="server-secret") as s:
        yield s


def http(srv: RunningServer) -> httpx.Client:
    key = srv.key("acme")
    return httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def search(h: httpx.Client, query: str) -> list[tuple[str, float]]:
    found = h.post("/v1/memories/search", json={"query": query, "user_id": "alice"})
    return [(x["memory"]["id"], x["score"]) for x in found.json()["results"]]


def test_jsonl_export_streams_and_imports_into_a_fresh_server(
    srv: RunningServer, tmp_path: Path
) -> None:
    queries = ["我做什么工作", "what do I drink"]
    with http(srv) as h:
        h.post("/v1/memories", json={"messages": "我在杭州做会计，喜欢喝冷萃", "user_id": "alice"})
        h.post("/v1/memories", json={"messages": "I drink oolong tea daily", "user_id": "alice"})
        h.put("/v1/users/alice/tasks/报销", json={"state": {"step": 2}})
        h.put("/v1/users/alice/memory-switch", json={"memory": "paused"})
        h.put("/v1/users/alice/memory-switch", json={"memory": "on"})
        with h.stream("GET", "/v1/users/alice/export", params={"format": "jsonl"}) as resp:
            assert resp.status_code == 200
            assert resp.headers["content-type"].startswith("application/x-ndjson")
            lines = [line for line in resp.iter_lines() if line]
        header = json.loads(lines[0])
        assert (header["format"], header["version"], header["tenant"], header["user_id"]) == (
            "jiyi.export.jsonl",
            1,
            "acme",
            "alice",
        )
        assert header["counts"]["tasks"] == 1 and header["counts"]["switch"] == 1
        assert len(lines) == 1 + sum(header["counts"].values())
        before = {q: search(h, q) for q in queries}
        profile = h.get("/v1/users/alice/profile").json()
        as_json = h.get("/v1/users/alice/export").json()  # the default stays one document
        assert as_json["format"] == "jiyi.export"
    body = "\n".join(lines) + "\n"
    with running_server(tmp_path / "two", alias_secret="server-secret") as two, http(two) as h2:
        bad: list[Any] = [json.loads(line) for line in lines]
        bad[2]["record"] = {"not": "a record"}
        broken = "\n".join(json.dumps(x) for x in bad) + "\n"
        got = h2.post("/v1/users/alice/import", content=broken, headers=NDJSON)
        assert got.status_code == 422, got.text
        assert (
            got.json()["field"].startswith("lines.3.record") and "line 3" in got.json()["message"]
        )
        assert h2.get("/v1/memories", params={"user_id": "alice"}).json()["memories"] == []
        assert h2.get("/v1/users/alice/tasks").json()["tasks"] == []
        done = h2.post("/v1/users/alice/import", content=body, headers=NDJSON)
        assert done.status_code == 200, done.text
        assert done.json()["imported"]["memories"] == header["counts"]["memories"]
        for q in queries:
            assert search(h2, q) == before[q] and before[q], q
        assert h2.get("/v1/users/alice/profile").json() == profile
        assert h2.get("/v1/users/alice/tasks/报销").json()["state"] == {"step": 2}
        log = h2.get("/v1/users/alice/memory-switch/history").json()["changes"]
        assert [c["after"] for c in log] == ["on", "paused"]
        # The JSON document goes in through the same route, as before (the same content:
        # importing it after the JSON Lines changes nothing).
        listed = h2.get("/v1/memories", params={"user_id": "alice"}).json()["memories"]
        again = h2.post("/v1/users/alice/import", json=as_json)
        assert again.status_code == 200, again.text
        assert h2.get("/v1/memories", params={"user_id": "alice"}).json()["memories"] == listed
        for q in queries:
            assert search(h2, q) == before[q], q


def test_the_sdk_exports_and_imports_json_lines(srv: RunningServer, tmp_path: Path) -> None:
    import asyncio

    from jiyi.client import AsyncClient, Client
    from jiyi.errors import InvalidInputError

    with Client(srv.url, srv.key("acme")) as c:
        c.add("我在杭州做会计，喜欢喝冷萃", user_id="alice")
        c.tasks.put("alice", "报销", {"step": 2})
        text = c.export_lines("alice")
        before = [(h.memory.id, h.score) for h in c.search("我做什么工作", user_id="alice")]
    header = json.loads(text.splitlines()[0])
    assert header["format"] == "jiyi.export.jsonl" and header["counts"]["tasks"] == 1
    with running_server(tmp_path / "two", alias_secret="server-secret") as two:
        with Client(two.url, two.key("acme")) as c2:
            lines = text.splitlines()
            with pytest.raises(InvalidInputError) as bad:
                c2.import_("\n".join([lines[0], '{"section": "tasks"}', *lines[2:]]))
            assert bad.value.field == "lines.2.record" and bad.value.status == 422
            assert c2.tasks.list("alice") == []
            counts = c2.import_(text)  # the user named by the header line
            assert counts["memories"] == header["counts"]["memories"] and counts["tasks"] == 1
            got = [(h.memory.id, h.score) for h in c2.search("我做什么工作", user_id="alice")]
            assert got == before and before

        async def run() -> None:
            async with AsyncClient(two.url, two.key("acme")) as a:
                again = await a.export_lines("alice")
                assert json.loads(again.splitlines()[0])["counts"] == header["counts"]
                # JSON text too (its user from the document); twice is once.
                doc = await a.export("alice")
                assert (await a.import_(json.dumps(doc)))["tasks"] == 1
                assert len(await a.list(user_id="alice")) == len(
                    [m for m in doc["sections"]["memories"] if m["memory"]["kind"] != "episode"]
                )

        asyncio.run(run())
