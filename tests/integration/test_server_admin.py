"""``/v1/keys`` and ``/v1/admin`` on a real server: only an admin key manages keys; a
revoked, rotated or expired key is refused within one second; an admin key acts on another
tenant through ``X-Jiyi-Tenant`` and no other key can.

(The same on two PostgreSQL nodes: ``test_server_keys.py``.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.wire import TENANT_HEADER

REFUSED_WITHIN = 1.0  # seconds: the promise of server/keycache.py


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("admin")) as s:
        yield s


@pytest.fixture(scope="module")
def admin(srv: RunningServer) -> Iterator[httpx.Client]:
    key, _ = srv.keys.create("ops", admin=True)
    with as_key(srv, key) as h:
        yield h


def as_key(srv: RunningServer, key: str, **headers: str) -> httpx.Client:
    return httpx.Client(
        base_url=srv.url, headers={"Authorization": f"Bearer {key}", **headers}, timeout=30
    )


def works(srv: RunningServer, key: str) -> int:
    with as_key(srv, key) as h:
        return h.get("/v1/memories", params={"user_id": "u"}).status_code


def seconds_until_refused(srv: RunningServer, key: str) -> float:
    """From now until the server answers ``key`` with 401 (asserting it does within 5 s)."""
    started = time.monotonic()
    while works(srv, key) != 401:
        assert time.monotonic() - started < 5, "the key is still accepted"
        time.sleep(0.02)
    return time.monotonic() - started


def test_only_an_admin_key_manages_keys(srv: RunningServer, admin: httpx.Client) -> None:
    with as_key(srv, srv.key("acme")) as plain:
        for method, path in (
            ("GET", "/v1/keys"),
            ("POST", "/v1/keys"),
            ("DELETE", "/v1/keys/abcdef012345"),
            ("POST", "/v1/keys/abcdef012345/rotate"),
            ("GET", "/v1/admin/tenants"),
        ):
            r = plain.request(method, path, json={} if method == "POST" else None)
            assert r.status_code == 403, (method, path, r.text)
            assert r.headers["content-type"] == "application/problem+json"
    assert admin.get("/v1/keys").status_code == 200
    with as_key(srv, "jy_nobody") as nobody:
        assert nobody.get("/v1/keys").status_code == 401


def test_an_admin_key_lists_makes_and_revokes_keys(srv: RunningServer, admin: httpx.Client) -> None:
    r = admin.post("/v1/keys", json={"tenant": "shop", "agent_id": "cashier"})
    assert r.status_code == 201
    made = r.json()
    key, info = made["key"], made["info"]
    assert key.startswith("jy_") and info["tenant"] == "shop" and info["agent_id"] == "cashier"
    assert info["admin"] is False and info["revoked_at"] is None
    assert works(srv, key) == 200
    listed = admin.get("/v1/keys", params={"tenant": "shop"}).json()["keys"]
    assert [k["key_id"] for k in listed] == [info["key_id"]]
    assert all("key" not in k and "key_hash" not in k for k in listed)
    everyone = {k["tenant"] for k in admin.get("/v1/keys").json()["keys"]}
    assert {"ops", "shop"} <= everyone
    assert {"ops", "shop"} <= set(admin.get("/v1/admin/tenants").json()["tenants"])

    r = admin.delete(f"/v1/keys/{info['key_id']}")
    assert r.status_code == 204
    assert seconds_until_refused(srv, key) < REFUSED_WITHIN
    assert admin.delete(f"/v1/keys/{info['key_id']}").status_code == 404  # already revoked
    again = admin.get("/v1/keys", params={"tenant": "shop"}).json()["keys"]
    assert again[0]["revoked_at"] is not None


def test_a_rotated_key_gives_way_to_its_successor_within_a_second(
    srv: RunningServer, admin: httpx.Client
) -> None:
    expires = datetime.now(UTC) + timedelta(days=30)
    made = admin.post("/v1/keys", json={"tenant": "shop", "expires_at": expires.isoformat()})
    old, old_id = made.json()["key"], made.json()["info"]["key_id"]
    assert works(srv, old) == 200  # now cached by the server
    r = admin.post(f"/v1/keys/{old_id}/rotate")
    assert r.status_code == 200
    new, info = r.json()["key"], r.json()["info"]
    assert info["key_id"] != old_id and info["tenant"] == "shop"
    assert abs(datetime.fromisoformat(info["expires_at"]) - expires) < timedelta(seconds=1)
    assert works(srv, new) == 200
    assert seconds_until_refused(srv, old) < REFUSED_WITHIN
    assert admin.post(f"/v1/keys/{old_id}/rotate").status_code == 404
    assert admin.post("/v1/keys/0123456789ab/rotate").status_code == 404


def test_a_key_stops_working_when_it_expires(srv: RunningServer, admin: httpx.Client) -> None:
    expires = datetime.now(UTC) + timedelta(seconds=1.5)
    made = admin.post("/v1/keys", json={"tenant": "shop", "expires_at": expires.isoformat()})
    assert made.status_code == 201, made.text
    key = made.json()["key"]
    assert works(srv, key) == 200
    while datetime.now(UTC) < expires:
        time.sleep(0.05)
    assert seconds_until_refused(srv, key) < REFUSED_WITHIN


def test_bad_key_requests_are_422_naming_the_field(admin: httpx.Client) -> None:
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    for body, field in (
        ({"expires_at": past}, "expires_at"),
        ({"agent_id": "bot", "admin": True}, "admin"),
        ({"tenant": " "}, "tenant"),
        ({"tenant": "shop", "colour": "red"}, "colour"),
    ):
        r = admin.post("/v1/keys", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["field"] == field
    assert admin.delete("/v1/keys/NOT-HEX").status_code == 422


def test_an_admin_key_acts_on_the_tenant_it_names(srv: RunningServer) -> None:
    admin_key, _ = srv.keys.create("ops", admin=True)
    with as_key(srv, admin_key, **{TENANT_HEADER: "acme"}) as as_acme:
        r = as_acme.post(
            "/v1/memories", json={"messages": "I like green tea.", "user_id": "hx", "infer": False}
        )
        assert r.status_code == 200
        mid = r.json()["episodes"][0]["id"]
        assert "hx" in [u["user_id"] for u in as_acme.get("/v1/users").json()["users"]]
    with as_key(srv, srv.key("acme")) as acme:
        assert acme.get(f"/v1/memories/{mid}").status_code == 200  # written into acme
    with as_key(srv, admin_key) as as_ops:
        assert as_ops.get(f"/v1/memories/{mid}").status_code == 404  # not into ops

    # Another key may not name a tenant; naming its own is harmless; a bad name is a 422.
    with as_key(srv, srv.key("evil"), **{TENANT_HEADER: "acme"}) as stranger:
        r = stranger.get(f"/v1/memories/{mid}")
        assert r.status_code == 403 and r.json()["field"] == TENANT_HEADER
    with as_key(srv, srv.key("acme"), **{TENANT_HEADER: "acme"}) as own:
        assert own.get(f"/v1/memories/{mid}").status_code == 200
    with as_key(srv, admin_key, **{TENANT_HEADER: "x" * 300}) as bad:
        r = bad.get("/v1/memories", params={"user_id": "hx"})
        assert r.status_code == 422 and r.json()["field"] == TENANT_HEADER
