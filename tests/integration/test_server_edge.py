"""The edge of the real server: request ids on every response, one access-log line per
request (route templates, never keys, ids or bodies), and CORS off unless origins are
configured — then only for those origins."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError
from server_harness import RunningServer, running_server, wait_for

from jiyi.server.requestlog import ACCESS_LOG
from jiyi.settings import Settings

pytestmark = pytest.mark.integration
APP = "https://app.example.com"


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def access() -> Iterator[Lines]:
    lines = Lines()
    ACCESS_LOG.addHandler(lines)
    level = ACCESS_LOG.level
    ACCESS_LOG.setLevel(logging.INFO)
    yield lines
    ACCESS_LOG.removeHandler(lines)
    ACCESS_LOG.setLevel(level)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # A small body limit, so a 413 from the body-limit middleware is cheap to provoke.
    with running_server(tmp_path_factory.mktemp("edge"), max_request_bytes=4096) as s:
        yield s


def test_every_response_carries_a_request_id(srv: RunningServer) -> None:
    key = srv.key("acme")
    auth = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        answers = [
            h.get("/healthz"),
            h.get("/v1/memories", params={"user_id": "u1"}, headers=auth),
            h.get("/v1/memories", params={"user_id": "u1"}),  # 401
            h.get("/v1/memories/nope", headers=auth),  # 404
            h.post("/v1/memories", json={"user_id": "u1"}, headers=auth),  # 422
            h.post("/v1/memories", content=b"x" * 5000, headers=auth),  # 413, body limit
            h.get("/no/such/route"),
        ]
        ids = [r.headers.get("x-request-id") for r in answers]
        assert all(i is not None and re.fullmatch(r"[0-9a-f]{32}", i) for i in ids), ids
        assert len(set(ids)) == len(ids)
        assert [r.status_code for r in answers] == [200, 200, 401, 404, 422, 413, 404]
        for r in answers[2:]:  # problem documents repeat the id in their body
            assert r.json()["request_id"] == r.headers["x-request-id"]


def test_a_sane_client_id_is_kept_and_any_other_replaced(srv: RunningServer) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        mine = "trace-42.retry_1"
        r = h.get("/v1/memories", params={"user_id": "u"}, headers={"X-Request-Id": mine})
        assert r.status_code == 401
        assert r.headers["x-request-id"] == mine and r.json()["request_id"] == mine
        for bad in ("a" * 129, "has space", "semi;colon", "中文".encode(), b"\xff\xfe", ""):
            r = h.get("/healthz", headers={"X-Request-Id": bad})
            assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"]), bad


def test_one_access_line_per_request_without_keys_ids_or_bodies(
    srv: RunningServer, access: Lines
) -> None:
    key = srv.key("acme")
    auth = {"Authorization": f"Bearer {key}", "X-Request-Id": "rid-1"}
    with httpx.Client(base_url=srv.url, timeout=30, headers=auth) as h:
        added = h.post("/v1/memories", json={"user_id": "secret-user", "messages": "我叫王小明"})
        mid = added.json()["episodes"][0]["id"]
        h.get(f"/v1/memories/{mid}", headers={"X-Request-Id": "rid-2"})
        h.get("/v1/memories/no-such-id", headers={"X-Request-Id": "rid-3"})
    h2 = httpx.get(f"{srv.url}/healthz", headers={"X-Request-Id": "rid-4"})
    assert h2.status_code == 200
    # the server writes its access line once the response is sent: under load the client can
    # read the answer first (a CI run saw rid-4 missing), so wait for the lines, briefly
    want = {"rid-1", "rid-2", "rid-3", "rid-4"}

    def logged() -> dict[str, logging.LogRecord] | None:
        by_id = {r.__dict__["access"]["request_id"]: r for r in access.records}
        return by_id if set(by_id) >= want else None

    by_id = wait_for(logged, timeout=5)
    assert set(by_id) >= want
    add, get, missing, health = (by_id[f"rid-{i}"] for i in (1, 2, 3, 4))
    assert add.name == "jiyi.access" and add.levelno == logging.INFO
    line = add.getMessage()
    assert line.startswith("method=POST route=/v1/memories status=200 duration_ms=")
    assert line.endswith("tenant=acme request_id=rid-1")
    assert get.__dict__["access"]["route"] == "/v1/memories/{memory_id}"
    assert (missing.__dict__["access"]["status"], missing.__dict__["access"]["tenant"]) == (
        404,
        "acme",
    )
    assert health.__dict__["access"]["tenant"] == "-"
    text = "\n".join(r.getMessage() + repr(r.__dict__["access"]) for r in access.records)
    for secret in (key, "secret-user", "王小明", mid, "no-such-id", "Bearer"):
        assert secret not in text
    assert sum(r.__dict__["access"]["request_id"] == "rid-2" for r in access.records) == 1


def test_the_access_log_can_be_turned_off(tmp_path: Path, access: Lines) -> None:
    with running_server(tmp_path, access_log=False) as s:
        r = httpx.get(f"{s.url}/healthz")
        assert r.headers["x-request-id"]  # ids stay
    assert access.records == []


def test_cors_is_off_by_default(srv: RunningServer) -> None:
    preflight = httpx.options(
        f"{srv.url}/v1/memories/search",
        headers={"Origin": APP, "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in preflight.headers
    r = httpx.get(f"{srv.url}/healthz", headers={"Origin": APP})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_cors_allows_exactly_the_configured_origins(tmp_path: Path) -> None:
    with running_server(tmp_path, cors_origins=[APP, "http://localhost:3000"]) as s:
        preflight = httpx.options(
            f"{s.url}/v1/memories/search",
            headers={
                "Origin": APP,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            },
        )
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == APP
        assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
        assert "access-control-allow-credentials" not in preflight.headers
        key = s.key("acme")
        r = httpx.post(
            f"{s.url}/v1/memories/search",
            json={"query": "x", "user_id": "u"},
            headers={"Origin": APP, "Authorization": f"Bearer {key}"},
        )
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == APP
        exposed = r.headers["access-control-expose-headers"].lower()
        assert "x-request-id" in exposed and "retry-after" in exposed
        evil = httpx.options(
            f"{s.url}/v1/memories/search",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert evil.status_code == 400 and "access-control-allow-origin" not in evil.headers
        r = httpx.get(f"{s.url}/healthz", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


def test_wildcards_and_non_origins_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_CORS_ORIGINS", f"{APP}, http://localhost:3000/")
    assert Settings().cors_origins == [APP, "http://localhost:3000"]
    for bad in ("*", "https://*.example.com", "app.example.com", "https://a.com/path"):
        monkeypatch.setenv("JIYI_CORS_ORIGINS", bad)
        with pytest.raises(ValidationError, match="cors_origins"):
            Settings()


def test_an_unexpected_error_still_names_its_request(tmp_path: Path, access: Lines) -> None:
    with running_server(tmp_path) as s:

        async def boom() -> None:
            raise RuntimeError("a bug")

        # A route added to the running app: the one way to reach the 500 handler for real.
        s.app.add_api_route("/boom", boom)
        r = httpx.get(f"{s.url}/boom", headers={"X-Request-Id": "rid-500"})
    assert r.status_code == 500 and r.json()["code"] == "internal_error"
    assert r.headers["x-request-id"] == "rid-500" and r.json()["request_id"] == "rid-500"
    (line,) = [x for x in access.records if x.__dict__["access"]["request_id"] == "rid-500"]
    assert line.__dict__["access"]["status"] == 500
