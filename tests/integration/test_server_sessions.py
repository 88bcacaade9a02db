"""Session memory over HTTP: atomic appends, the window, ending and TTL expiry writing to
long-term memory in the background, retries after a failed write, context."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import Client
from jiyi.errors import ConflictError

WINDOW = 10


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("sessions"), session_window=WINDOW, session_ttl_seconds=600
    ) as s:
        yield s


@pytest.fixture(scope="module")
def client(srv: RunningServer) -> Iterator[Client]:
    with Client(srv.url, srv.key("acme")) as c:
        yield c


def episodes(client: Client, user: str) -> list[str]:
    return [
        m.content
        for m in client.list(user_id=user, include_episodes=True)
        if m.kind.value == "episode"
    ]


def test_50_concurrent_appends_keep_the_last_n_in_order(srv: RunningServer, client: Client) -> None:
    key = srv.key("acme")

    def post(i: int) -> dict[str, Any]:
        with httpx.Client(
            base_url=srv.url, timeout=30, headers={"Authorization": f"Bearer {key}"}
        ) as h:
            r = h.post(
                "/v1/sessions/conc/messages",
                json={"user_id": "conc-u", "role": "user", "content": f"消息{i:02d}"},
            )
            assert r.status_code == 200, r.text
            body: dict[str, Any] = r.json()
            return body

    with ThreadPoolExecutor(max_workers=50) as pool:
        replies = list(pool.map(post, range(50)))
    # Each reply's window ends with the message it appended.
    for i, r in enumerate(replies):
        assert r["messages"][-1]["content"] == f"消息{i:02d}"
    view = client.get_session("conc")
    assert view is not None and view.total == 50
    assert [m.seq for m in view.messages] == list(range(41, 51))
    by_seq = {r["messages"][-1]["seq"]: r["messages"][-1]["content"] for r in replies}
    assert sorted(by_seq) == list(range(1, 51))  # every append got its own place
    assert [m.content for m in view.messages] == [by_seq[s] for s in range(41, 51)]
    client.end_session("conc")
    srv.sweep()
    assert sorted(episodes(client, "conc-u")) == sorted(f"消息{i:02d}" for i in range(50))


def test_end_writes_episodes_and_extractions_in_the_background(
    srv: RunningServer, client: Client
) -> None:
    client.add_message("s-end", "我对花生过敏", user_id="end-u")
    client.add_message("s-end", "好的，记住了", user_id="end-u", role="assistant")
    view = client.end_session("s-end")
    assert view is not None and view.ended and view.total == 2
    assert client.end_session("s-end") is None  # ending twice is harmless
    srv.sweep()
    items = client.list(user_id="end-u", include_episodes=True)
    assert {"我对花生过敏", "好的，记住了"} <= {m.content for m in items}
    assert any(m.kind.value == "fact" and "花生" in m.content for m in items)
    assert all(m.session_id == "s-end" for m in items)


def test_ttl_expiry_flushes_without_a_request(srv: RunningServer, client: Client) -> None:
    client.add_message("s-ttl", "我下个月搬去深圳", user_id="ttl-u")
    srv.clock.advance(seconds=601)
    srv.sweep()
    assert client.get_session("s-ttl") is None
    assert "我下个月搬去深圳" in episodes(client, "ttl-u")


def test_failed_write_is_retried_and_loses_nothing(
    srv: RunningServer, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = srv.services.memory("acme").engine  # one engine behind every tenant's view
    real_add = engine.add
    calls: list[bool] = []

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["infer"])
        if len(calls) == 1:
            raise RuntimeError("disk on fire")
        return real_add(*args, **kwargs)

    monkeypatch.setattr(engine, "add", flaky)
    client.add_message("s-retry", "我每天早上跑步", user_id="retry-u")
    client.end_session("s-retry")
    srv.sweep()
    assert calls == [True] and episodes(client, "retry-u") == []
    srv.clock.advance(seconds=31)  # past the first lease
    srv.sweep()
    assert calls == [True, True]
    assert episodes(client, "retry-u") == ["我每天早上跑步"]
    failures = srv.services.metrics.value("jiyi_extraction_failures_total")
    assert failures >= 1


def test_extraction_that_keeps_failing_still_stores_episodes(
    srv: RunningServer, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = srv.services.memory("acme").engine  # one engine behind every tenant's view
    real_add = engine.add

    def no_infer(*args: Any, **kwargs: Any) -> Any:
        if kwargs["infer"]:
            raise RuntimeError("extractor broken")
        return real_add(*args, **kwargs)

    monkeypatch.setattr(engine, "add", no_infer)
    client.add_message("s-broken", "我女儿叫小雨", user_id="broken-u")
    client.end_session("s-broken")
    for _ in range(4):  # three tries with extraction, then episodes only
        srv.sweep()
        srv.clock.advance(seconds=300)
    assert episodes(client, "broken-u") == ["我女儿叫小雨"]


def test_session_owner_is_fixed(client: Client) -> None:
    client.add_message("s-own", "hi", user_id="owner-u")
    with pytest.raises(ConflictError):
        client.add_message("s-own", "hi", user_id="someone-else")


def test_context_combines_memories_and_window(client: Client) -> None:
    client.add("我对海鲜过敏", user_id="ctx-u")
    cold = client.context("推荐个菜", user_id="ctx-nobody")
    assert cold.memories == [] and "没有" in cold.text
    for i in range(15):
        client.add_message("s-ctx", f"第{i}句：想吃点清淡的", user_id="ctx-u")
    ctx = client.context("推荐个菜", user_id="ctx-u", session_id="s-ctx", token_budget=200)
    assert "海鲜" in ctx.text and "第14句" in ctx.text and "第0句" not in ctx.text
    assert ctx.tokens <= 200 and ctx.session and ctx.session[-1].content.startswith("第14句")
    # Someone else's session id adds nothing.
    other = client.context("推荐个菜", user_id="ctx-nobody", session_id="s-ctx")
    assert other.session == [] and "第14句" not in other.text


def test_delete_user_also_drops_pending_sessions(srv: RunningServer, client: Client) -> None:
    client.add_message("s-del", "我的车牌是浙A12345", user_id="del-u")
    client.end_session("s-del")  # pending or being written right now: either way it goes
    client.add_message("s-del-live", "我住在西湖区", user_id="del-u")
    receipt = client.delete_user("del-u")
    assert receipt.removed["session_messages"] >= 1  # at least the live session
    srv.sweep()
    assert client.list(user_id="del-u", include_episodes=True) == []
    assert client.get_session("s-del-live") is None
