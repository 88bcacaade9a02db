"""Tenant isolation: another tenant's keys, forging ids of every kind, never see or change
tenant A's data. Randomised (seeded) so many request shapes are covered."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import Client

MARK = "ACMESECRET"
N_REQUESTS = 1200


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("iso")) as s:
        yield s


def seed_tenant_a(srv: RunningServer) -> dict[str, Any]:
    users = ["alice", "bob", "u-1"]
    agents = ["planner", "coach"]
    ids: list[str] = []
    sessions: list[str] = []
    with Client(srv.url, srv.key("acme")) as a:
        for i, u in enumerate(users):
            for j, agent in enumerate([None, *agents]):
                r = a.add(
                    f"我对{MARK}{i}{j}过敏。我住在{MARK}城{i}{j}。",
                    user_id=u,
                    agent_id=agent,
                    session_id=f"sess-{i}{j}",
                )
                ids += [e.memory.id for e in r.events] + [ep.id for ep in r.episodes]
            sid = f"live-{u}"
            a.add_message(sid, f"{MARK} 会话内容 {i}", user_id=u)
            sessions.append(sid)
        snapshot = {
            u: sorted(
                (m.id, m.content, m.version)
                for m in a.list(user_id=u, include_episodes=True, include_superseded=True)
            )
            for u in users
        }
        windows = {s: a.get_session(s) for s in sessions}
    return {
        "users": users,
        "agents": agents,
        "ids": ids,
        "sessions": sessions,
        "snapshot": snapshot,
        "windows": windows,
    }


def forged_request(rng: random.Random, a: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    user = rng.choice([*a["users"], "nobody"])
    agent = rng.choice([None, *a["agents"]])
    mid = rng.choice(a["ids"])
    sid = rng.choice([*a["sessions"], *(f"sess-{i}{j}" for i in range(3) for j in range(3))])
    body: dict[str, Any] = {"user_id": user}
    if agent is not None:
        body["agent_id"] = agent
    choice = rng.randrange(14)
    if choice == 0:
        return "GET", f"/v1/memories/{mid}", {}
    if choice == 1:
        return "GET", f"/v1/memories/{mid}/history", {}
    if choice == 2:
        return "PATCH", f"/v1/memories/{mid}", {"json": {"content": "forged"}}
    if choice == 3:
        return "DELETE", f"/v1/memories/{mid}", {}
    if choice == 4:
        params = {"user_id": user, "include_superseded": "true", "include_episodes": "true"}
        if agent:
            params["agent_id"] = agent
        return "GET", "/v1/memories", {"params": params}
    if choice == 5:
        return (
            "POST",
            "/v1/memories/search",
            {"json": {**body, "query": rng.choice([MARK, "过敏", "住在哪里", mid]), "top_k": 50}},
        )
    if choice == 6:
        return "POST", "/v1/context", {"json": {**body, "query": "我对什么过敏", "session_id": sid}}
    if choice == 7:
        return "GET", f"/v1/sessions/{sid}", {}
    if choice == 8:
        return "POST", f"/v1/sessions/{sid}/end", {}
    if choice == 9:
        return (
            "POST",
            f"/v1/sessions/{sid}/messages",
            {"json": {**body, "role": "user", "content": "forged message"}},
        )
    if choice == 10:  # a tenant field in the body is refused, not obeyed
        return "POST", "/v1/memories/search", {"json": {**body, "query": MARK, "tenant": "acme"}}
    if choice == 11:  # headers cannot pick a tenant either
        return (
            "GET",
            "/v1/memories",
            {"params": {"user_id": user}, "headers": {"X-Tenant": "acme", "X-Jiyi-Tenant": "acme"}},
        )
    if choice == 12:
        return "DELETE", f"/v1/users/{user}", {}
    return "POST", "/v1/memories", {"json": {**body, "messages": "我喜欢喝茶", "session_id": sid}}


def test_forged_requests_return_no_foreign_data(srv: RunningServer) -> None:
    a = seed_tenant_a(srv)
    rng = random.Random(20261129)
    b_keys = [
        srv.key("globex"),
        srv.key("globex", agent="planner"),
        srv.key("globex", agent="coach"),
    ]
    foreign_ids = set(a["ids"])
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        for n in range(N_REQUESTS):
            method, path, kw = forged_request(rng, a)
            headers = {"Authorization": f"Bearer {rng.choice(b_keys)}", **kw.pop("headers", {})}
            r = h.request(method, path, headers=headers, **kw)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            assert r.status_code < 500, (n, method, path, r.text)
            assert MARK not in r.text, (n, method, path, r.text)
            assert "acme" not in r.text, (n, method, path, r.text)
            if r.status_code < 300 and r.content:
                returned = _memory_ids(r.json())
                assert not (returned & foreign_ids), (n, method, path)
            if "/v1/memories/" in path and method != "POST":
                assert r.status_code == 404, (n, method, path, r.status_code)
    assert sum(statuses.values()) == N_REQUESTS
    assert statuses.get(200, 0) > 100 and statuses.get(404, 0) > 100

    # Tenant A is exactly as it was.
    with Client(srv.url, srv.key("acme")) as c:
        for u in a["users"]:
            now = sorted(
                (m.id, m.content, m.version)
                for m in c.list(user_id=u, include_episodes=True, include_superseded=True)
            )
            assert now == a["snapshot"][u]
        for sid, before in a["windows"].items():
            after = c.get_session(sid)
            assert after is not None and after.messages == before.messages


def _memory_ids(obj: Any) -> set[str]:
    """Every "id" value of a memory-like object anywhere in a JSON body."""
    found: set[str] = set()
    if isinstance(obj, dict):
        if "id" in obj and "content" in obj:
            found.add(str(obj["id"]))
        for v in obj.values():
            found |= _memory_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= _memory_ids(v)
    return found


def test_missing_or_other_tenant_key_never_reaches_data(srv: RunningServer) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        for headers in (
            {},
            {"Authorization": "Bearer"},
            {"Authorization": "Bearer acme"},
            {"Authorization": "Token jy_x"},
        ):
            r = h.get("/v1/memories", params={"user_id": "alice"}, headers=headers)
            assert r.status_code == 401 and json.loads(r.text)["code"] == "unauthenticated"
