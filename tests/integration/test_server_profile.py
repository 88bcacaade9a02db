"""``/v1/users/{user_id}/profile``: the profile over HTTP on a real server — derived from
the memories, PATCH setting and clearing fields (logged with the key id), 401 without a
key, 422 naming the field, no leak across tenants or users, the context block opening
with the profile, and ``DELETE /v1/users/{id}`` taking the overrides (no bytes left)."""

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

MARK = "PROFILESECRET9"
URL = "/v1/users/alice/profile"


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path) as s:
        yield s


def http(srv: RunningServer, tenant: str = "acme") -> httpx.Client:
    key = srv.key(tenant)
    return httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def problem(resp: httpx.Response, status: int) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = resp.json()
    return body


def add(h: httpx.Client, text: str, user: str = "alice") -> None:
    assert h.post("/v1/memories", json={"messages": text, "user_id": user}).status_code == 200


def test_get_derives_and_patch_sets_and_clears(srv: RunningServer) -> None:
    with http(srv) as h:
        for text in ["我叫王小明", "我住在上海", "我对花生过敏", "我今年的目标是跑完马拉松"]:
            add(h, text)
        got = h.get(URL)
        assert got.status_code == 200, got.text
        p = got.json()
        assert p["user_id"] == "alice" and p["name"]["value"] == "王小明"
        assert p["city"]["value"] == "上海" and p["city"]["confidence"] == 1.0
        assert len(p["city"]["sources"]) == 1 and p["city"]["set_by_user"] is False
        assert [a["slot"] for a in p["allergies"]] == ["health.allergy.花生"]
        assert [(g["value"], g["status"]) for g in p["goals"]] == [("跑完马拉松", "active")]
        srv.clock.advance(minutes=1)
        patched = h.patch(URL, json={"city": "杭州", "timezone": "Asia/Shanghai", "name": None})
        assert patched.status_code == 200, patched.text
        p = patched.json()
        assert p["city"]["value"] == "杭州" and p["city"]["set_by_user"] is True
        assert p["timezone"]["value"] == "Asia/Shanghai" and p["name"] is None
        assert h.get(URL).json()["city"]["value"] == "杭州"
        history = h.get(f"{URL}/history").json()["changes"]
        assert sorted(c["field"] for c in history) == ["city", "name", "timezone"]
        assert all(c["set_by"].startswith("key:") for c in history)
        assert h.patch(URL, json={}).status_code == 200  # nothing to change


def test_the_context_opens_with_the_profile_and_sees_a_patch_at_once(srv: RunningServer) -> None:
    with http(srv) as h:
        add(h, "我住在上海")
        body = {"query": "周末去哪儿玩", "user_id": "alice"}
        text = h.post("/v1/context", json=body).json()["text"]
        assert text.splitlines()[1] == "[用户档案]" and "所在城市：上海" in text
        h.patch(URL, json={"city": "杭州"})  # the cached block of this user is invalidated
        text = h.post("/v1/context", json=body).json()["text"]
        assert "所在城市：杭州" in text and "所在城市：上海" not in text


def test_without_a_key_it_is_401(srv: RunningServer) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as anon:
        assert problem(anon.get(URL), 401)["code"] == "unauthenticated"
        assert problem(anon.patch(URL, json={"city": "杭州"}), 401)
        assert problem(anon.get(f"{URL}/history"), 401)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"favourite_colour": "蓝"}, "favourite_colour"),
        ({"city": 42}, "city"),
        ({"city": ""}, "city"),
        ({"city": "x" * 201}, "city"),
        ({"city": "上海\u0000"}, "city"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"allergies": "   "}, "allergies"),
    ],
)
def test_bad_patches_are_422_naming_the_field_and_write_nothing(
    srv: RunningServer, body: dict[str, Any], field: str
) -> None:
    with http(srv) as h:
        bad = problem(h.patch(URL, json={"school": "北大", **body}), 422)
        assert (bad["code"], bad["field"]) == ("invalid_input", field)
        assert h.get(f"{URL}/history").json()["changes"] == []  # not even the good field


def test_bad_limits_and_bodies(srv: RunningServer) -> None:
    with http(srv) as h:
        assert problem(h.get(f"{URL}/history", params={"limit": 0}), 422)["field"] == "limit"
        not_json = h.patch(URL, content=b"{", headers={"content-type": "application/json"})
        assert problem(not_json, 422)["code"] == "invalid_input"
        assert problem(h.patch(URL, json=["city"]), 422)


def test_no_profile_crosses_tenants_or_users(srv: RunningServer) -> None:
    with http(srv) as a:
        add(a, "我住在上海")
        a.patch(URL, json={"allergies": MARK})
    with http(srv, "globex") as b:
        theirs = b.get(URL)
        assert theirs.status_code == 200 and MARK not in theirs.text and "上海" not in theirs.text
        assert b.get(f"{URL}/history").json()["changes"] == []
        b.patch(URL, json={"city": "Boston"})  # their alice is another user
    with http(srv) as a:
        bob = a.get("/v1/users/bob/profile")
        assert MARK not in bob.text and "上海" not in bob.text
        assert a.get("/v1/users/bob/profile/history").json()["changes"] == []
        mine = a.get(URL).json()
        assert mine["city"]["value"] == "上海" and mine["allergies"][0]["value"] == MARK


def test_a_switched_off_user_serves_no_profile_and_takes_no_value(srv: RunningServer) -> None:
    with http(srv) as h:
        add(h, "我住在上海")
        h.put("/v1/users/alice/memory-switch", json={"memory": "off"})
        assert h.get(URL).json()["city"] is None
        refused = problem(h.patch(URL, json={"city": "杭州"}), 409)
        assert refused["field"] == "memory"


def test_deleting_the_user_takes_the_overrides_and_leaves_no_bytes(
    srv: RunningServer, tmp_path: Path
) -> None:
    with http(srv) as h:
        h.patch(URL, json={"allergies": MARK, "city": MARK + "城"})
        h.patch(URL, json={"allergies": None})  # history rows hold the value too
        h.patch("/v1/users/bob/profile", json={"city": "成都"})
        receipt = h.delete("/v1/users/alice").json()
        assert receipt["removed"]["profile_overrides"] == 3
        assert h.get(f"{URL}/history").json()["changes"] == []
        assert h.get("/v1/users/bob/profile").json()["city"]["value"] == "成都"
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("jiyi.db*"))
    assert MARK.encode() not in raw


def test_the_sdk_reads_sets_and_clears_the_profile(srv: RunningServer) -> None:
    key = srv.key("acme")
    with Client(srv.url, key) as c:
        c.add("我住在上海", user_id="sdk-u")
        assert c.profile("sdk-u").city is not None
        p = c.set_profile("sdk-u", "city", "杭州")
        assert p.city is not None and p.city.value == "杭州" and p.city.set_by_user
        p = c.update_profile("sdk-u", {"city": None, "diet": "素食"})
        assert p.city is None and [v.value for v in p.diet] == ["素食"]
        assert [o.field for o in c.profile_history("sdk-u", limit=2)] in (
            ["city", "diet"],
            ["diet", "city"],
        )
        with pytest.raises(InvalidInputError) as bad:
            c.set_profile("sdk-u", "favourite_colour", "蓝")
        assert bad.value.field == "favourite_colour"

    async def run() -> None:
        async with AsyncClient(srv.url, key) as a:
            p = await a.set_profile("sdk-a", "name", "小明")
            assert p.name is not None and p.name.value == "小明"
            assert (await a.profile("sdk-a")).name == p.name
            assert len(await a.profile_history("sdk-a")) == 1
            assert (await a.update_profile("sdk-a", {"name": None})).name is None

    asyncio.run(run())
