"""``/v1/users/{user_id}/aliases``, ``…/merge``, ``…/identity/…``, ``…/export`` and
``…/import`` on a real server: the alias only ever in bodies and the ``X-Jiyi-Alias``
header (``~`` in the URL), 401 without a key, 422 naming the field, 409 for another user's
alias, no resolution across tenants, the drift guard's confirmation, an export imported
into a fresh server, and ``DELETE /v1/users/{id}`` taking the aliases."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

PHONE = "+86 137 1122 3344"
DIGITS = "13711223344"
ALIAS = {"kind": "phone", "alias": PHONE}
BY_ALIAS = {"X-Jiyi-Alias": f"phone:{PHONE}"}


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path, alias_secret="server-secret") as s:
        yield s


def http(srv: RunningServer, tenant: str = "acme", agent: str | None = None) -> httpx.Client:
    key = srv.key(tenant, agent)
    return httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def problem(resp: httpx.Response, status: int) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = resp.json()
    return body


def test_link_list_use_and_unlink_an_alias(srv: RunningServer) -> None:
    with http(srv) as h:
        made = h.post("/v1/users/alice/aliases", json=ALIAS)
        assert made.status_code == 201, made.text
        assert made.json()["hint"] == "**********3344" and DIGITS not in made.text
        assert h.post("/v1/users/alice/aliases", json=ALIAS).status_code == 201  # idempotent
        listed = h.get("/v1/users/alice/aliases").json()["aliases"]
        assert [(a["kind"], a["hint"]) for a in listed] == [("phone", "**********3344")]
        # Every API that takes a user id takes the alias: ~ in the URL, alias in the header.
        h.post("/v1/memories", json={"messages": "我住在成都", "user_id": "alias:phone:" + PHONE})
        mine = h.get("/v1/memories", params={"user_id": "~"}, headers=BY_ALIAS).json()
        assert {m["user_id"] for m in mine["memories"]} == {"alice"} and mine["memories"]
        put = h.put("/v1/users/~/tasks/trip", json={"state": {"city": "成都"}}, headers=BY_ALIAS)
        assert put.json()["user_id"] == "alice"
        assert h.get("/v1/users/alice/tasks/trip").status_code == 200
        assert h.get("/v1/users/~/aliases", headers=BY_ALIAS).json()["aliases"] == listed
        assert problem(h.get("/v1/users/~/aliases"), 422)["field"] == "user_id"  # no header
        gone = h.request("DELETE", "/v1/users/alice/aliases", json=ALIAS)
        assert gone.status_code == 204
        assert problem(h.request("DELETE", "/v1/users/alice/aliases", json=ALIAS), 404)
        assert problem(h.get("/v1/users/~/tasks", headers=BY_ALIAS), 404)["field"] == "user_id"
        metrics = h.get("/metrics").text
        assert DIGITS not in metrics and "alias:" not in metrics


def test_without_a_key_every_route_is_401(srv: RunningServer) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as anon:
        for method, url, body in [
            ("POST", "/v1/users/alice/aliases", ALIAS),
            ("DELETE", "/v1/users/alice/aliases", ALIAS),
            ("GET", "/v1/users/alice/aliases", None),
            ("POST", "/v1/users/alice/merge", {"into": "bob"}),
            ("POST", "/v1/users/alice/identity/confirm", {"session_id": "s1"}),
            ("GET", "/v1/users/alice/identity/events", None),
            ("GET", "/v1/users/alice/export", None),
            ("POST", "/v1/users/alice/import", {}),
        ]:
            assert problem(anon.request(method, url, json=body), 401)["code"] == "unauthenticated"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "fax", "alias": PHONE}, "kind"),
        ({"kind": "phone"}, "alias"),
        ({"kind": "phone", "alias": "call me maybe"}, "alias"),
        ({"kind": "email", "alias": "not-an-email"}, "alias"),
        ({"kind": "phone", "alias": PHONE, "extra": 1}, "extra"),
    ],
)
def test_a_bad_alias_is_422_naming_the_field(srv: RunningServer, body: Any, field: str) -> None:
    with http(srv) as h:
        got = problem(h.post("/v1/users/alice/aliases", json=body), 422)
        assert got["field"] == field
        assert h.get("/v1/users/alice/aliases").json()["aliases"] == []


def test_another_users_alias_is_409_and_another_tenant_cannot_see_it(srv: RunningServer) -> None:
    with http(srv) as a:
        a.post("/v1/users/alice/aliases", json=ALIAS)
        a.post("/v1/memories", json={"messages": "我对花生过敏", "user_id": "alice"})
        taken = problem(a.post("/v1/users/bob/aliases", json=ALIAS), 409)
        assert (taken["code"], taken["field"]) == ("alias_taken", "alias")
        assert "alice" not in str(taken)
        assert problem(a.request("DELETE", "/v1/users/bob/aliases", json=ALIAS), 404)
    with http(srv, "globex") as b:
        # Tenant B cannot resolve tenant A's alias, nor learn that A holds it.
        assert problem(b.get("/v1/memories", params={"user_id": "~"}, headers=BY_ALIAS), 404)
        assert problem(b.get("/v1/users/~/export", headers=BY_ALIAS), 404)
        assert b.get("/v1/users/alice/aliases").json()["aliases"] == []
        assert b.post("/v1/users/mallory/aliases", json=ALIAS).status_code == 201
        assert "花生" not in b.get("/v1/users/~/export", headers=BY_ALIAS).text
    with http(srv) as a:
        assert a.get("/v1/memories", params={"user_id": "~"}, headers=BY_ALIAS).json()["memories"]


def test_merge_moves_everything_and_is_audited(srv: RunningServer) -> None:
    with http(srv) as h:
        h.post("/v1/memories", json={"messages": "我养了一只猫叫阿橘", "user_id": "wx-login"})
        h.post("/v1/users/wx-login/aliases", json={"kind": "wechat_openid", "alias": "oXy12345"})
        h.put("/v1/users/wx-login/tasks/报销", json={"state": {"step": 1}})
        done = h.post("/v1/users/wx-login/merge", json={"into": "alice"})
        assert done.status_code == 200, done.text
        assert done.json()["user_id"] == "alice" and done.json()["moved"]["memories"] >= 2
        items = h.get("/v1/memories", params={"user_id": "alice"}).json()["memories"]
        assert any("阿橘" in m["content"] for m in items)
        assert h.get("/v1/memories", params={"user_id": "wx-login"}).json()["memories"] == []
        openid = {"X-Jiyi-Alias": "wechat_openid:oXy12345"}
        assert h.get("/v1/users/~/tasks/报销", headers=openid).json()["user_id"] == "alice"
        events = h.get("/v1/users/alice/identity/events").json()["events"]
        assert events[0]["action"] == "merged_from" and events[0]["other_user"] == "wx-login"
        assert events[0]["actor"].startswith("key:")
        assert problem(h.post("/v1/users/alice/merge", json={"into": "alice"}), 422)
        assert problem(h.post("/v1/users/alice/merge", json={}), 422)["field"] == "into"
    with http(srv, "globex") as b:  # tenant B merges its own "alice": A's is untouched
        b.post("/v1/users/alice/merge", json={"into": "eve"})
    with http(srv) as h:
        assert h.get("/v1/memories", params={"user_id": "alice"}).json()["memories"]


def test_a_flagged_session_is_confirmed_over_rest(srv: RunningServer) -> None:
    me = "我叫王小明，今年30岁，住在上海。我的母语是中文。"
    other = "我叫李强。我今年52岁。我住在广州。我的母语是粤语。"
    with http(srv) as h:
        h.post("/v1/memories", json={"messages": me, "user_id": "alice", "session_id": "s1"})
        added = h.post(
            "/v1/memories", json={"messages": other, "user_id": "alice", "session_id": "s2"}
        ).json()
        assert {"name", "age", "city"} <= set(added["identity_suspect"])
        ctx = {"query": "我住在哪里", "user_id": "alice", "session_id": "s2"}
        assert h.post("/v1/context", json=ctx).json()["memories"] == []
        assert (
            problem(h.post("/v1/users/alice/identity/confirm", json={"session_id": "s1"}), 404)[
                "field"
            ]
            == "session_id"
        )
        with http(srv, "globex") as b:  # another tenant cannot confirm it
            assert problem(
                b.post("/v1/users/alice/identity/confirm", json={"session_id": "s2"}), 404
            )
        ok = h.post("/v1/users/alice/identity/confirm", json={"session_id": "s2"})
        assert ok.status_code == 200 and ok.json()["confirmed_by"].startswith("key:")
        assert h.post("/v1/context", json=ctx).json()["memories"]


def test_export_then_import_into_a_fresh_server(srv: RunningServer, tmp_path: Path) -> None:
    with http(srv) as h:
        h.post("/v1/memories", json={"messages": "我在杭州做会计，喜欢喝冷萃", "user_id": "alice"})
        h.post("/v1/users/alice/aliases", json=ALIAS)
        h.put("/v1/users/alice/tasks/报销", json={"state": {"step": 2}})
        doc = h.get("/v1/users/~/export", headers=BY_ALIAS).json()
        assert doc["user_id"] == "alice" and DIGITS not in str(doc)
        query = {"query": "我做什么工作", "user_id": "alice"}
        before = [
            x["memory"]["id"] for x in h.post("/v1/memories/search", json=query).json()["results"]
        ]
    with running_server(tmp_path / "two", alias_secret="server-secret") as two, http(two) as h2:
        bad = {**doc, "sections": {**doc["sections"], "memories": [{"memory": {"id": 1}}]}}
        got = problem(h2.post("/v1/users/alice/import", json=bad), 422)
        assert got["field"].startswith("sections.memories.0.memory")
        assert problem(h2.post("/v1/users/bob/import", json=doc), 422)["field"] == "user_id"
        assert h2.get("/v1/memories", params={"user_id": "alice"}).json()["memories"] == []
        done = h2.post("/v1/users/alice/import", json=doc)
        assert done.status_code == 200, done.text
        assert done.json()["imported"]["memories"] == len(doc["sections"]["memories"])
        after = h2.post("/v1/memories/search", json=query).json()["results"]
        assert [x["memory"]["id"] for x in after] == before and before
        assert h2.get("/v1/users/~/tasks/报销", headers=BY_ALIAS).json()["state"] == {"step": 2}
        remapped = h2.post("/v1/users/carol/import", params={"remap": "true"}, json=doc)
        # Ids are global: alice holds them here, so the remap is refused, nothing written.
        assert problem(remapped, 422)["field"] in ("id", "user_id")
        assert h2.get("/v1/memories", params={"user_id": "carol"}).json()["memories"] == []


def test_delete_user_takes_the_aliases(srv: RunningServer) -> None:
    with http(srv) as h:
        h.post("/v1/users/alice/aliases", json=ALIAS)
        h.post("/v1/memories", json={"messages": "我喜欢爬山", "user_id": "alice"})
        receipt = h.delete("/v1/users/~", headers=BY_ALIAS)
        assert receipt.status_code == 200, receipt.text
        assert receipt.json()["user_id"] == "alice" and receipt.json()["removed"]["aliases"] == 1
        assert problem(h.get("/v1/users/~/aliases", headers=BY_ALIAS), 404)
    raw = b"".join(p.read_bytes() for p in srv.store.path.parent.iterdir() if p.is_file())
    assert DIGITS.encode() not in raw


def test_the_sdk_names_users_by_alias_through_the_header(srv: RunningServer) -> None:
    import asyncio

    from jiyi.client import AsyncClient, Client

    key = srv.key("acme", None)
    by_alias = "alias:phone:" + PHONE
    with Client(srv.url, key) as c:
        assert c.link("alice", PHONE, kind="phone").hint == "**********3344"
        c.add("我住在成都，喜欢喝冷萃", user_id=by_alias)
        assert [a.kind for a in c.aliases(by_alias)] == ["phone"]
        doc = c.export(by_alias)
        assert doc["user_id"] == "alice" and doc["sections"]["memories"]
        assert c.import_(doc)["memories"] == len(doc["sections"]["memories"])  # idempotent
        assert c.merge_users("alice", "alice2").user_id == "alice2"
        assert c.unlink("alice2", PHONE, kind="phone") is True
        assert c.unlink("alice2", PHONE, kind="phone") is False

    async def events() -> list[str]:
        async with AsyncClient(srv.url, key) as a:
            return [e.action for e in await a.identity_events("alice2")]

    assert asyncio.run(events()) == ["alias_unlinked", "merged_from"]


def test_an_agent_bound_key_cannot_relink_merge_or_export(srv: RunningServer) -> None:
    with http(srv) as h:
        h.post("/v1/users/alice/aliases", json=ALIAS)
    with http(srv, agent="planner") as p:
        for method, url, body in [
            ("POST", "/v1/users/bob/aliases", {"kind": "device", "alias": "dev-123456"}),
            ("DELETE", "/v1/users/alice/aliases", ALIAS),
            ("POST", "/v1/users/alice/merge", {"into": "bob"}),
            ("GET", "/v1/users/alice/export", None),
            ("POST", "/v1/users/alice/import", {}),
        ]:
            assert problem(p.request(method, url, json=body), 403)["code"] == "forbidden"
        # Reading the aliases and naming the user by one stay open to it.
        assert p.get("/v1/users/alice/aliases").json()["aliases"]
        assert p.get("/v1/users/~/tasks", headers=BY_ALIAS).status_code == 200


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_no_log_record_holds_the_alias(srv: RunningServer) -> None:
    seen = _Records()
    root, access = logging.getLogger(), logging.getLogger("jiyi.access")
    levels = (root.level, access.level)
    root.addHandler(seen)
    root.setLevel(logging.DEBUG)
    access.setLevel(logging.INFO)
    try:
        with http(srv) as h:
            h.post("/v1/users/alice/aliases", json=ALIAS)
            h.post("/v1/users/bob/aliases", json=ALIAS)  # 409
            h.get("/v1/users/~/aliases", headers=BY_ALIAS)
            h.get("/v1/memories", params={"user_id": "~"}, headers=BY_ALIAS)
            h.get("/v1/users/~/tasks", headers={"X-Jiyi-Alias": "phone:+86 137 9999 0000"})  # 404
            h.post("/v1/memories", json={"messages": "hi", "user_id": "alias:phone:" + PHONE})
    finally:
        root.removeHandler(seen)
        root.setLevel(levels[0])
        access.setLevel(levels[1])
    assert any(r.name == "jiyi.access" for r in seen.records)  # the log was listened to
    text = "\n".join(f"{r.getMessage()} {r.__dict__!r}" for r in seen.records)
    for secret in (DIGITS, "13799990000", "alias:phone"):
        assert secret not in text, secret
