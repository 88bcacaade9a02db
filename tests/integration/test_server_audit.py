"""``GET /v1/users/{user_id}/audit`` on a real server: one row per read and write with the
calling key as actor and no content, paging with the cursor, 401 / 403 / 422 naming the
field, no leak across tenants or users, and only the erasure row after
``DELETE /v1/users/{id}``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import AsyncClient, Client
from jiyi.errors import InvalidInputError

MARK = "AUDITSECRET7"
SEARCH = "/v1/memories/search"
URL = "/v1/users/alice/audit"


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


def test_reads_and_writes_are_logged_without_content(srv: RunningServer) -> None:
    with http(srv) as h:
        said = {"messages": f"我对花生过敏，暗号是 {MARK}", "user_id": "alice"}
        assert h.post("/v1/memories", json=said).status_code == 200
        query = {"query": f"{MARK} 花生", "user_id": "alice"}
        hits = h.post(SEARCH, json=query)
        assert hits.status_code == 200, hits.text
        assert h.post("/v1/context", json=query).status_code == 200
        assert h.get("/v1/users/alice/profile").status_code == 200
        got = h.get(URL)
        assert got.status_code == 200, got.text
        rows = got.json()["entries"]
        assert [r["action"] for r in rows] == ["profile", "context", "search", "add"]
        assert rows[2]["count"] == len(hits.json()["results"])
        assert {r["user_id"] for r in rows} == {"alice"}
        assert len({r["actor"] for r in rows}) == 1 and rows[0]["actor"].startswith("key:")
        assert MARK not in got.text and "花生" not in got.text


def test_the_cursor_pages_and_since_filters(srv: RunningServer) -> None:
    with http(srv) as h:
        for _ in range(5):
            assert h.post(SEARCH, json={"query": "tea", "user_id": "alice"}).is_success
        first = h.get(URL, params={"limit": 3}).json()
        assert len(first["entries"]) == 3 and first["next_cursor"]
        rest = h.get(URL, params={"limit": 3, "cursor": first["next_cursor"]}).json()
        assert len(rest["entries"]) == 2 and rest["next_cursor"] is None
        ids = [r["id"] for r in first["entries"] + rest["entries"]]
        assert ids == sorted(ids, reverse=True) and len(set(ids)) == 5
        later = h.get(URL, params={"since": "2100-01-01T00:00:00Z"}).json()
        assert later["entries"] == []


def test_refusals_name_the_field(srv: RunningServer) -> None:
    assert httpx.get(f"{srv.url}{URL}", timeout=30).status_code == 401
    with http(srv, agent="planner") as p:
        problem(p.get(URL), 403)
    with http(srv) as h:
        for params, field in (
            ({"limit": 0}, "limit"),
            ({"cursor": "abc"}, "cursor"),
            ({"since": "not a time"}, "since"),
        ):
            assert problem(h.get(URL, params=params), 422)["field"] == field


def test_no_leak_across_tenants_or_users(srv: RunningServer) -> None:
    with http(srv) as h:
        assert h.post(SEARCH, json={"query": "tea", "user_id": "alice"}).is_success
        assert h.get("/v1/users/bob/audit").json()["entries"] == []
    with http(srv, tenant="globex") as g:
        assert g.get(URL).json()["entries"] == []  # the same user id in another tenant


def test_deleting_the_user_leaves_only_the_erasure_row(srv: RunningServer) -> None:
    with http(srv) as h:
        said = {"messages": "我住在杭州", "user_id": "alice"}
        assert h.post("/v1/memories", json=said).status_code == 200
        assert h.post(SEARCH, json={"query": "杭州", "user_id": "alice"}).is_success
        assert h.delete("/v1/users/alice").status_code == 200
        rows = h.get(URL).json()["entries"]
        assert [(r["action"], r["actor"][:4]) for r in rows] == [("delete_user", "key:")]


def test_a_context_served_from_the_cache_is_logged_too(srv: RunningServer) -> None:
    assert srv.services.settings.context_cache_seconds > 0  # the second is a hit
    with http(srv) as h:
        assert h.post(
            "/v1/memories", json={"messages": "我住在杭州", "user_id": "alice"}
        ).is_success
        body = {"query": "周末去哪儿", "user_id": "alice"}
        first = h.post("/v1/context", json=body).json()
        assert h.post("/v1/context", json=body).json()["text"] == first["text"]
        rows = h.get(URL).json()["entries"]
        assert [r["action"] for r in rows] == ["context", "context", "add"]
        assert rows[0]["count"] == rows[1]["count"] == len(first["memories"])


def test_the_sdk_pages_the_log(srv: RunningServer) -> None:
    key = srv.key("acme")
    with Client(srv.url, key) as c:
        c.add("我住在上海", user_id="sdk-u")
        c.search("上海", user_id="sdk-u")
        first = c.audit("sdk-u", limit=1)
        assert [e.action for e in first.entries] == ["search"] and first.next_cursor
        older = c.audit("sdk-u", limit=1, cursor=first.next_cursor)
        assert [e.action for e in older.entries] == ["add"]
        with pytest.raises(InvalidInputError) as bad:
            c.audit("sdk-u", since="yesterday-ish")
        assert bad.value.field == "since"

    async def run() -> None:
        async with AsyncClient(srv.url, key) as a:
            page = await a.audit("sdk-u", since=srv.clock())
            assert [e.action for e in page.entries] == ["search", "add"]

    asyncio.run(run())


def test_get_update_and_delete_of_a_memory_leave_one_row_each(srv: RunningServer) -> None:
    with http(srv) as h:
        said = {"messages": "我住在杭州", "user_id": "alice", "infer": False}
        episode = h.post("/v1/memories", json=said).json()["episodes"][0]["id"]
        assert h.get(f"/v1/memories/{episode}").status_code == 200
        assert h.patch(f"/v1/memories/{episode}", json={"content": "我住在上海"}).is_success
        assert h.delete(f"/v1/memories/{episode}").status_code == 204
        rows = h.get(URL).json()["entries"]
        assert [(r["action"], r["count"]) for r in rows] == [
            ("delete", 1),
            ("update", 1),
            ("get", 1),
            ("add", 1),
        ]
