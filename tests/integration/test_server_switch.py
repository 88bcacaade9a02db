"""``/v1/users/{user_id}/memory-switch`` on a real server: off serves nothing at once (the
cached context block too), paused keeps serving, a phrase in a message turns it, every
change is logged with the key id, and tenants never share a switch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path) as s:
        yield s


def http(srv: RunningServer, tenant: str = "acme") -> tuple[httpx.Client, str]:
    key, info = srv.keys.create(tenant)
    client = httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)
    return client, info.key_id


SW = "/v1/users/alice/memory-switch"
CTX: dict[str, Any] = {"query": "我住在哪里", "user_id": "alice"}


def test_off_paused_on_over_rest_with_a_logged_actor(srv: RunningServer) -> None:
    h, key_id = http(srv)
    with h:
        assert h.get(SW).json()["memory"] == "on"
        h.post("/v1/memories", json={"messages": "我住在上海", "user_id": "alice"})
        assert "上海" in h.post("/v1/context", json=CTX).json()["text"]  # now cached
        assert h.put(SW, json={"memory": "off"}).json()["memory"] == "off"
        ctx = h.post("/v1/context", json=CTX).json()
        assert "上海" not in ctx["text"] and ctx["memories"] == []
        search = {"query": "上海", "user_id": "alice"}
        assert h.post("/v1/memories/search", json=search).json()["results"] == []
        added = h.post("/v1/memories", json={"messages": "我对花生过敏", "user_id": "alice"})
        assert added.json()["skipped"][0]["reason"] == "memory_off"
        put = h.put("/v1/users/alice/tasks/k", json={"state": {"a": 1}})
        assert (put.status_code, put.json()["field"]) == (409, "memory")
        assert h.put(SW, json={"memory": "paused"}).status_code == 200
        assert h.post("/v1/memories/search", json=search).json()["results"]
        h.put(SW, json={"memory": "on"})
        log = h.get(f"{SW}/history").json()["changes"]
        assert [(c["before"], c["after"], c["via"]) for c in log] == [
            ("paused", "on", "api"),
            ("off", "paused", "api"),
            ("on", "off", "api"),
        ]
        assert {c["actor"] for c in log} == {f"key:{key_id}"}
        assert h.get(SW).json()["changed_by"] == f"key:{key_id}"


def test_a_phrase_said_in_a_message_turns_the_switch(srv: RunningServer) -> None:
    h, _ = http(srv)
    with h:
        said = h.post("/v1/memories", json={"messages": "以后别记我的任何东西", "user_id": "alice"})
        assert said.json()["skipped"] == [
            {"text": "以后别记我的任何东西", "reason": "memory_switch"}
        ]
        assert h.get(SW).json()["memory"] == "off"
        h.post("/v1/memories", json={"messages": "可以继续记了", "user_id": "alice"})
        assert h.get(SW).json()["memory"] == "on"
        log = h.get(f"{SW}/history", params={"limit": 1}).json()["changes"]
        assert [(c["after"], c["actor"], c["via"]) for c in log] == [("on", "user", "said")]


def test_a_switch_belongs_to_one_tenant_and_user(srv: RunningServer) -> None:
    a, _ = http(srv)
    b, _ = http(srv, "globex")
    with a, b:
        a.put(SW, json={"memory": "off"})
        assert b.get(SW).json()["memory"] == "on"
        assert b.get(f"{SW}/history").json()["changes"] == []
        assert a.get("/v1/users/bob/memory-switch").json()["memory"] == "on"


@pytest.mark.parametrize(
    "body", [{"memory": "maybe"}, {}, {"memory": "off", "extra": 1}, {"memory": None}]
)
def test_a_bad_switch_body_is_422(srv: RunningServer, body: dict[str, Any]) -> None:
    h, _ = http(srv)
    with h:
        resp = h.put(SW, json=body)
        assert resp.status_code == 422 and resp.headers["content-type"].startswith(
            "application/problem+json"
        )
        assert h.get(SW).json()["memory"] == "on"
        assert h.get(f"{SW}/history", params={"limit": 0}).status_code == 422
