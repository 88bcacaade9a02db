"""A corpus of hostile input against the real server: lone surrogates, NUL, extreme and
malformed dates, maximal sizes, path tricks. Every request must be answered (no hang), never
with a status ≥ 500, and a refused value must be named in the problem's ``field``.

Bodies are sent as raw bytes (``json.dumps`` with ``ensure_ascii``), so a lone surrogate
travels as the JSON escape ``\\ud800`` exactly as a buggy client would send it.
"""

from __future__ import annotations

import hashlib
import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

pytestmark = pytest.mark.integration
TIMEOUT = 30.0  # a hang shows up as a timeout, which fails the test

SURROGATE = "\ud800"
NUL = "\x00"
BAD_TEXT = {"surrogate": f"我\udc00对花生过敏{SURROGATE}", "nul": f"对花生{NUL}过敏"}
BAD_YEARS = {
    "year 1": "0001-01-01T00:00:00Z",
    "year 999": "0999-06-01T12:00:00Z",
    "year 9999": "9999-12-31T23:59:59Z",
    "year 10000": "10000-01-01T00:00:00Z",
    "Feb 30": "2026-02-30T00:00:00Z",
    "not a date": "next tuesday",
    "empty": "",
    "offset overflow": "0001-01-01T00:00:00+14:00",
}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("bad")) as s:
        yield s


@pytest.fixture(scope="module")
def http(srv: RunningServer) -> Iterator[httpx.Client]:
    headers = {"Authorization": f"Bearer {srv.key('acme')}", "content-type": "application/json"}
    with httpx.Client(base_url=srv.url, headers=headers, timeout=TIMEOUT) as h:
        yield h


def send(http: httpx.Client, method: str, path: str, body: Any = None) -> httpx.Response:
    content = None if body is None else json.dumps(body, ensure_ascii=True).encode()
    return http.request(method, path, content=content)


def refused(r: httpx.Response, field: str | None) -> None:
    assert r.status_code < 500, r.text
    assert r.headers["content-type"] == "application/problem+json", r.text
    assert r.status_code in (413, 422), r.text
    if field is not None:
        assert r.json()["field"] == field, r.text


def body_cases() -> Iterator[tuple[str, str, str, Any, str]]:
    """(name, method, path, body, the field the error must name)."""
    for kind, text in BAD_TEXT.items():
        yield (
            f"add content {kind}",
            "POST",
            "/v1/memories",
            {"messages": [{"content": text}], "user_id": "u1"},
            "messages[0].content",
        )
        yield (
            f"add string {kind}",
            "POST",
            "/v1/memories",
            {"messages": text, "user_id": "u1"},
            "messages[0].content",
        )
        for fld in ("name", "id"):
            yield (
                f"add {fld} {kind}",
                "POST",
                "/v1/memories",
                {"messages": [{"content": "hi", fld: text}], "user_id": "u1"},
                f"messages[0].{fld}",
            )
        for fld in ("user_id", "agent_id", "session_id"):
            body = {"messages": "我对花生过敏", "user_id": "u1", fld: text}
            yield (f"add {fld} {kind}", "POST", "/v1/memories", body, fld)
        yield (
            f"search query {kind}",
            "POST",
            "/v1/memories/search",
            {"query": text, "user_id": "u1"},
            "query",
        )
        yield (
            f"context user {kind}",
            "POST",
            "/v1/context",
            {"query": "吃什么", "user_id": text},
            "user_id",
        )
        yield (
            f"session content {kind}",
            "POST",
            "/v1/sessions/s1/messages",
            {"user_id": "u1", "content": text},
            "content",
        )
        yield (
            f"session name {kind}",
            "POST",
            "/v1/sessions/s1/messages",
            {"user_id": "u1", "content": "hi", "name": text},
            "name",
        )
        yield (f"update content {kind}", "PATCH", "/v1/memories/m1", {"content": text}, "content")
    for label, when in BAD_YEARS.items():
        yield (
            f"add timestamp {label}",
            "POST",
            "/v1/memories",
            {"messages": "hi", "user_id": "u1", "timestamp": when},
            "timestamp",
        )
        yield (
            f"message timestamp {label}",
            "POST",
            "/v1/memories",
            {"messages": [{"content": "hi", "timestamp": when}], "user_id": "u1"},
            "messages[0].timestamp",
        )
        for fld in ("since", "until", "now"):
            yield (
                f"search {fld} {label}",
                "POST",
                "/v1/memories/search",
                {"query": "hi", "user_id": "u1", fld: when},
                fld,
            )
        yield (
            f"context now {label}",
            "POST",
            "/v1/context",
            {"query": "hi", "user_id": "u1", "now": when},
            "now",
        )
    for label, value in {"huge": 10**30, "negative": -(10**20), "float": 1e308}.items():
        yield (
            f"timestamp number {label}",
            "POST",
            "/v1/memories",
            {"messages": "hi", "user_id": "u1", "timestamp": value},
            "timestamp",
        )
    yield (
        "top_k 0",
        "POST",
        "/v1/memories/search",
        {"query": "x", "user_id": "u", "top_k": 0},
        "top_k",
    )
    yield (
        "top_k huge",
        "POST",
        "/v1/memories/search",
        {"query": "x", "user_id": "u", "top_k": 10**40},
        "top_k",
    )
    yield (
        "token_budget float",
        "POST",
        "/v1/context",
        {"query": "x", "user_id": "u", "token_budget": 1e400},
        None,  # 1e400 is not even valid JSON for Python's parser: any 4xx will do
    )
    yield (
        "kinds bogus",
        "POST",
        "/v1/memories/search",
        {"query": "x", "user_id": "u", "kinds": ["x"]},
        "kinds[0]",
    )
    yield (
        "role bogus",
        "POST",
        "/v1/memories",
        {"messages": [{"role": "bot", "content": "x"}], "user_id": "u"},
        "messages[0].role",
    )
    yield (
        "id too long",
        "POST",
        "/v1/memories",
        {"messages": "hi", "user_id": "u" * 257},
        "user_id",
    )
    yield ("id blank", "POST", "/v1/memories", {"messages": "hi", "user_id": " \t"}, "user_id")
    yield ("no messages", "POST", "/v1/memories", {"messages": [], "user_id": "u"}, "messages")
    yield (
        "content over the limit",
        "POST",
        "/v1/memories",
        {"messages": "好" * 16_001, "user_id": "u"},
        None,  # 413 from the per-add character limit (admission) or the per-message one
    )


CASES = list(body_cases())


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_bad_bodies_are_refused_with_the_field_named(
    http: httpx.Client, method: str, path: str, body: Any, field: str | None
) -> None:
    refused(send(http, method, path, body), field)


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/v1/memories?user_id=%00", "user_id"),
        # UTF-8 of a lone surrogate: decoded with U+FFFD, a valid (empty) user
        ("/v1/memories?user_id=%ED%A0%80", None),
        ("/v1/memories?user_id=a&agent_id=%0A", "agent_id"),
        ("/v1/memories?user_id=a&include_episodes=maybe", "include_episodes"),
        (f"/v1/memories?user_id={'u' * 300}", "user_id"),
        ("/v1/memories/%00", "memory_id"),
        (f"/v1/memories/{'m' * 300}", "memory_id"),
        ("/v1/memories/%ED%A0%80/history", None),
        ("/v1/sessions/%09", "session_id"),
    ],
)
def test_bad_query_and_path_parameters_are_refused(
    http: httpx.Client, path: str, field: str | None
) -> None:
    r = http.get(path)
    assert r.status_code < 500, r.text
    assert r.status_code in ((404, 422) if field else (200, 404, 422)), r.text
    if field is not None:
        assert (r.status_code, r.json()["field"]) == (422, field), r.text


def test_path_tricks_never_redirect_or_reach_another_user(http: httpx.Client) -> None:
    assert send(http, "POST", "/v1/memories", {"messages": "我对花生过敏", "user_id": "alice"})
    before = http.get("/v1/memories", params={"user_id": "alice", "include_episodes": True})
    assert before.json()["memories"]
    for path in (
        "/v1/users/alice%2F",
        "/v1/users/alice%2F..",
        "/v1/users/..%2Falice",
        "/v1/users/alice%2F%2E%2E%2Fbob",
    ):
        r = http.delete(path)
        assert r.status_code == 200 and r.json()["user_id"] != "alice", (path, r.text)
    for path in ("/v1/memories/", "/v1/sessions/", "/v1/memories/search/"):
        r = http.get(path)
        assert r.status_code in (404, 405, 422) and "location" not in r.headers, (path, r.text)
    after = http.get("/v1/memories", params={"user_id": "alice", "include_episodes": True})
    assert after.json() == before.json()


def test_a_very_long_url_is_answered(srv: RunningServer, http: httpx.Client) -> None:
    r = http.get(f"/v1/memories/{'x' * 60_000}")
    assert r.status_code < 500


def test_raw_protocol_abuse_is_answered(srv: RunningServer) -> None:
    """Bytes no client library would send: invalid UTF-8 in the body, a truncated body."""
    host, port = srv.url.removeprefix("http://").split(":")
    key = srv.key("acme")
    for body in (b'{"messages": "\xff\xfe", "user_id": "u"}', b'{"messages": "x", "user'):
        with socket.create_connection((host, int(port)), timeout=TIMEOUT) as sock:
            head = (
                f"POST /v1/memories HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n"
            )
            sock.sendall(head.encode() + body)
            status = sock.recv(65536).split(b"\r\n", 1)[0]
        assert status.startswith(b"HTTP/1.1 4"), status


def test_maximal_requests_are_served_or_refused_cleanly(http: httpx.Client) -> None:
    r = send(http, "POST", "/v1/memories", {"messages": "好" * 16_000, "user_id": "big"})
    assert r.status_code == 200, r.text
    # Many messages: within the server's per-add limits they are stored, beyond them the
    # answer is a 413 that says so — never an error or a hang.
    many = [{"content": f"第{i}条消息"} for i in range(2_000)]
    r = send(http, "POST", "/v1/memories", {"messages": many, "user_id": "big", "infer": False})
    assert r.status_code in (200, 413), r.text
    if r.status_code == 200:
        assert len(r.json()["episodes"]) == 2_000
    else:
        assert r.json()["code"] == "payload_too_large"
    # Just over JIYI_MAX_REQUEST_BYTES (1 MiB): refused before parsing.
    r = send(http, "POST", "/v1/memories", {"messages": "x" * 1_100_000, "user_id": "big"})
    assert r.status_code == 413 and r.json()["code"] == "payload_too_large"
    r = send(http, "POST", "/v1/memories/search", {"query": "好" * 16_000, "user_id": "big"})
    assert r.status_code == 200, r.text
    r = send(
        http, "POST", "/v1/context", {"query": "消息", "user_id": "big", "token_budget": 100_000}
    )
    assert r.status_code == 200, r.text


ADD_CASES = [c for c in CASES if c[1:3] == ("POST", "/v1/memories")]


@pytest.mark.parametrize("keyed", [False, True], ids=["plain", "idempotency-key"])
@pytest.mark.parametrize(
    ("body", "field"), [c[3:] for c in ADD_CASES], ids=[c[0] for c in ADD_CASES]
)
def test_the_same_bodies_as_batch_items_are_refused_item_by_item(
    http: httpx.Client, body: Any, field: str | None, keyed: bool
) -> None:
    good = {"messages": "I live in Oslo", "user_id": "batch-good"}
    raw = json.dumps({"items": [body, good]}, ensure_ascii=True).encode()
    headers = {"Idempotency-Key": hashlib.sha256(raw).hexdigest()} if keyed else {}
    r = http.post("/v1/memories/batch", content=raw, headers=headers)
    assert r.status_code < 500, r.text
    if r.status_code == 413:  # over the batch's total size: refused as a whole
        refused(r, None)
        return
    assert r.status_code == 200, r.text
    bad, ok = r.json()["results"]
    assert bad["status"] in (413, 422) and ok["status"] == 200, r.text
    if field is not None:
        assert bad["error"]["field"] == f"items[0].{field}", r.text
