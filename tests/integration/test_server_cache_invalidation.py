"""Every committed write of a user invalidates that user's cached context block at once —
because the store says so (``NotifyingStore``, built in ``create_app``), not because each
route remembered to.

Each test caches a block, checks the next request is a hit, writes one way, and checks the
very next context is a miss that shows the write. The last one writes without any route at
all, through the engine the queue workers use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from server_harness import RunningServer, running_server

from jiyi.client import Client

QUERY = "推荐点音乐"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("cache"), queue="off") as s:
        yield s


@pytest.fixture(scope="module")
def client(srv: RunningServer) -> Iterator[Client]:
    with Client(srv.url, srv.key("acme")) as c:
        yield c


def hits(srv: RunningServer) -> float:
    return srv.services.metrics.value("jiyi_context_cache_total", result="hit")


def cached_then(srv: RunningServer, client: Client, user: str, write: Callable[[], object]) -> str:
    """The context text right after ``write``, having made sure it was cached before."""
    client.context(QUERY, user_id=user)
    before = hits(srv)
    client.context(QUERY, user_id=user)
    assert hits(srv) == before + 1, "the block was not cached to begin with"
    write()
    text = client.context(QUERY, user_id=user).text
    assert hits(srv) == before + 1, "a stale block was served after a write"
    return text


def test_an_add_invalidates(srv: RunningServer, client: Client) -> None:
    client.add("我喜欢爵士乐", user_id="c1")
    text = cached_then(srv, client, "c1", lambda: client.add("我也喜欢古典音乐", user_id="c1"))
    assert "古典" in text


def test_an_update_and_a_delete_invalidate(srv: RunningServer, client: Client) -> None:
    (fact,) = [e.memory for e in client.add("我喜欢爵士乐", user_id="c2").events]
    text = cached_then(srv, client, "c2", lambda: client.update(fact.id, "用户喜欢摇滚音乐"))
    assert "摇滚" in text
    text = cached_then(srv, client, "c2", lambda: client.delete(fact.id))
    assert "摇滚" not in text


def test_deleting_the_user_invalidates(srv: RunningServer, client: Client) -> None:
    client.add("我喜欢爵士乐", user_id="c3")
    assert "爵士" not in cached_then(srv, client, "c3", lambda: client.delete_user("c3"))


def test_a_session_written_in_the_background_invalidates(
    srv: RunningServer, client: Client
) -> None:
    client.add("我喜欢爵士乐", user_id="c4")

    def end_a_session() -> None:
        client.add_message("s-c4", "我最近迷上了古典音乐", user_id="c4")
        client.end_session("s-c4")
        srv.sweep()  # the flusher writes the transcript to long-term memory

    assert "古典" in cached_then(srv, client, "c4", end_a_session)


def test_a_write_through_the_engine_itself_invalidates(srv: RunningServer, client: Client) -> None:
    # What a queue worker does: no route, no flusher — only the tenant's engine and store.
    client.add("我喜欢爵士乐", user_id="c5")
    engine = srv.services.memory("acme")
    text = cached_then(srv, client, "c5", lambda: engine.add("我也喜欢古典音乐", user_id="c5"))
    assert "古典" in text


def test_reads_do_not_invalidate(srv: RunningServer, client: Client) -> None:
    # Searches record access counts in the store (``touch``): not a change of the block.
    client.add("我喜欢爵士乐", user_id="c6")
    cached = client.context(QUERY, user_id="c6")
    before = hits(srv)
    client.search("爵士", user_id="c6")
    client.list(user_id="c6")
    assert client.context(QUERY, user_id="c6").text == cached.text
    assert hits(srv) == before + 1
