"""``/v1/users/{user_id}/tasks``: task state over HTTP on a real server — versions and 409s,
expiry, validation naming the field, tenant and user isolation, the context block and
``DELETE /v1/users/{id}`` taking the tasks (no bytes left in the file)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

MARK = "TASKSECRET7"


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path) as s:
        yield s


def http(srv: RunningServer, tenant: str = "acme", agent: str | None = None) -> httpx.Client:
    key = srv.key(tenant, agent)
    return httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def problem(resp: httpx.Response, status: int) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = resp.json()
    return body


URL = "/v1/users/alice/tasks/reimbursement"
STATE = {"form": "三月差旅报销单", "step": 2, "missing": ["酒店发票"]}


def test_put_get_list_delete_with_versions(srv: RunningServer) -> None:
    with http(srv) as h:
        made = h.put(URL, json={"state": STATE})
        assert made.status_code == 200, made.text
        assert made.json()["version"] == 1 and made.json()["state"] == STATE
        again = h.put(URL, json={"state": {**STATE, "step": 3}, "expected_version": 1})
        assert again.json()["version"] == 2
        stale = problem(h.put(URL, json={"state": {"step": 9}, "expected_version": 1}), 409)
        assert (stale["code"], stale["field"]) == ("version_conflict", "expected_version")
        assert "version 2" in stale["message"]
        got = h.get(URL).json()
        assert (got["version"], got["state"]["step"]) == (2, 3)
        srv.clock.advance(minutes=1)
        h.put("/v1/users/alice/tasks/trip", json={"state": {"city": "成都"}, "status": "done"})
        listed = h.get("/v1/users/alice/tasks").json()["tasks"]
        assert [t["key"] for t in listed] == ["trip", "reimbursement"]
        active = h.get("/v1/users/alice/tasks", params={"active_only": "true"}).json()
        assert [t["key"] for t in active["tasks"]] == ["reimbursement"]
        assert h.delete(URL).status_code == 204
        assert problem(h.get(URL), 404)["field"] == "key"
        assert problem(h.delete(URL), 404)["code"] == "not_found"
        created_only = h.put(URL, json={"state": STATE, "expected_version": 0})
        assert created_only.json()["version"] == 1
        assert problem(h.put(URL, json={"state": STATE, "expected_version": 0}), 409)


def test_an_expired_task_is_gone(srv: RunningServer) -> None:
    with http(srv) as h:
        until = "2026-11-29T07:00:00Z"  # the server clock starts at 06:00
        assert h.put(URL, json={"state": STATE, "expires_at": until}).status_code == 200
        assert h.get(URL).status_code == 200
        srv.clock.advance(hours=1)
        assert h.get(URL).status_code == 404
        assert h.get("/v1/users/alice/tasks").json()["tasks"] == []
        late = problem(h.put(URL, json={"state": STATE, "expires_at": until}), 422)
        assert late["field"] == "expires_at"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"state": [1, 2]}, "state"),
        ({"state": "报销单"}, "state"),
        ({}, "state"),
        ({"state": {"a": "x\u0000y"}}, "state.a"),
        ({"state": {"big": "字" * 30_000}}, "state"),
        ({"state": STATE, "expected_version": -1}, "expected_version"),
        ({"state": STATE, "expected_version": 1.5}, "expected_version"),
        ({"state": STATE, "status": "finished"}, "status"),
        ({"state": STATE, "expires_at": "tomorrow"}, "expires_at"),
        ({"state": STATE, "extra": 1}, "extra"),
    ],
)
def test_bad_puts_are_422_naming_the_field(
    srv: RunningServer, body: dict[str, Any], field: str
) -> None:
    with http(srv) as h:
        got = problem(h.put(URL, json=body), 422)
        assert got["field"] == field, got
        assert h.get(URL).status_code == 404  # nothing was written


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"state": {"x": NaN}}', "state.x"),
        (b'{"state": {"deep": {"list": ["ok", "bad\\ud800"]}}}', "state.deep.list[1]"),
    ],
)
def test_json_no_store_can_hold_is_422(srv: RunningServer, raw: bytes, field: str) -> None:
    with http(srv) as h:
        resp = h.put(URL, content=raw, headers={"content-type": "application/json"})
        assert problem(resp, 422)["field"] == field


def test_bad_keys_and_user_ids(srv: RunningServer) -> None:
    with http(srv) as h:
        assert problem(h.put(f"/v1/users/alice/tasks/{'k' * 201}", json={"state": {}}), 422)
        assert problem(h.get("/v1/users/alice/tasks/%20"), 422)["field"] == "key"
        # A user id with "/" is one user (sent as %2F); a key never contains "/".
        assert h.put("/v1/users/team%2Falice/tasks/k", json={"state": {"a": 1}}).status_code == 200
        assert h.get("/v1/users/team%2Falice/tasks/k").json()["user_id"] == "team/alice"
        assert h.get("/v1/users/team/tasks").json()["tasks"] == []
        assert problem(h.get("/v1/users/alice/tasks/a%2Fb"), 422)["field"] == "key"
        assert problem(h.delete("/v1/users/alice/tasks/a/b"), 422)["field"] == "key"


def test_no_task_crosses_tenants_or_users(srv: RunningServer) -> None:
    with http(srv) as a:
        a.put(URL, json={"state": {"secret": MARK}})
    with http(srv, "globex") as b:
        assert problem(b.get(URL), 404)
        assert b.get("/v1/users/alice/tasks").json()["tasks"] == []
        assert problem(b.delete(URL), 404)
        assert b.put(URL, json={"state": {"mine": 1}, "expected_version": 1}).status_code == 409
        assert b.put(URL, json={"state": {"mine": 1}}).json()["version"] == 1
        assert MARK not in b.get("/v1/users/alice/tasks").text
    with http(srv) as a:
        assert problem(a.get("/v1/users/bob/tasks/reimbursement"), 404)
        got = a.get(URL).json()
        assert (got["version"], got["state"]) == (1, {"secret": MARK})


def test_an_agent_bound_key_shares_the_users_tasks(srv: RunningServer) -> None:
    with http(srv) as a:
        a.put(URL, json={"state": STATE})
    with http(srv, agent="planner") as p:
        assert p.get(URL).json()["state"] == STATE
        assert p.put(URL, json={"state": {"step": 3}, "expected_version": 1}).status_code == 200


def test_the_context_shows_the_task_the_turn_resumes(srv: RunningServer) -> None:
    with http(srv) as h:
        h.post("/v1/memories", json={"messages": "我在杭州工作，是一名会计", "user_id": "alice"})
        h.put(URL, json={"state": STATE})
        h.put("/v1/users/alice/tasks/trip", json={"state": {"city": "成都", "days": 3}})
        body = {"query": "继续上次的报销单", "user_id": "alice"}
        ctx = h.post("/v1/context", json=body).json()
        assert [t["key"] for t in ctx["tasks"]] == ["reimbursement"]
        assert "三月差旅报销单" in ctx["text"] and "成都" not in ctx["text"]
        # A put shows at once: the cached block of this user was invalidated.
        h.put(URL, json={"state": {**STATE, "step": 4}, "expected_version": 1})
        again = h.post("/v1/context", json=body).json()
        assert again["tasks"][0]["version"] == 2 and '"step": 4' in again["text"]
        h.put(URL, json={"state": STATE, "status": "done"})
        assert h.post("/v1/context", json=body).json()["tasks"] == []


def test_deleting_the_user_takes_the_tasks_and_leaves_no_bytes(
    srv: RunningServer, tmp_path: Path
) -> None:
    with http(srv) as h:
        h.put(URL, json={"state": {"secret": MARK}})
        h.put("/v1/users/alice/tasks/other", json={"state": {"note": MARK + "2"}})
        h.put("/v1/users/bob/tasks/kept", json={"state": {"note": "bob"}})
        receipt = h.delete("/v1/users/alice").json()
        assert receipt["removed"]["tasks"] == 2
        assert h.get("/v1/users/alice/tasks").json()["tasks"] == []
        assert h.get("/v1/users/bob/tasks/kept").status_code == 200
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("jiyi.db*"))
    assert MARK.encode() not in raw
