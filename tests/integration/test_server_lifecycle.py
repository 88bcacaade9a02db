"""The lifecycle over REST and the SDK: ``ttl`` on add (validated, field named), archived
memories listed on request and restored, ``POST /v1/users/{id}/maintain``."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import Client
from jiyi.core.models import Status
from jiyi.errors import NotFoundError, PermissionDeniedError


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("life")) as s:
        yield s


@pytest.fixture()
def client(srv: RunningServer) -> Iterator[Client]:
    with Client(srv.url, srv.key("acme")) as c:
        yield c


@pytest.mark.parametrize("bad", [0, -1, "a day", 1e12, True])
def test_a_bad_ttl_is_a_422_naming_the_field(srv: RunningServer, bad: object) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        r = h.post(
            "/v1/memories",
            json={"messages": "我喜欢冷萃", "user_id": "bad-ttl", "ttl": bad},
            headers={"Authorization": f"Bearer {srv.key('acme')}"},
        )
    assert r.status_code == 422, r.text
    assert r.json()["field"] == "ttl"


def test_ttl_archive_list_restore_and_maintain_through_the_sdk(
    srv: RunningServer, client: Client
) -> None:
    added = client.add("我喜欢喝冷萃咖啡", user_id="life-u", ttl=120)
    (pref,) = [e.memory for e in added.events]
    assert pref.expires_at is not None
    srv.clock.advance(seconds=121)
    dry = client.maintain("life-u", dry_run=True)
    assert dry.dry_run and dry.archived == {"expired": 2}
    assert client.list(user_id="life-u")  # a dry run wrote nothing
    report = client.maintain("life-u")
    assert report.archived == {"expired": 2} and report.user_id == "life-u"
    assert client.list(user_id="life-u", include_episodes=True) == []
    archived = client.list(user_id="life-u", include_episodes=True, include_archived=True)
    assert {m.status for m in archived} == {Status.ARCHIVED}
    back = client.restore(pref.id)
    assert back.status == Status.ACTIVE and back.expires_at is None
    assert [m.id for m in client.list(user_id="life-u")] == [pref.id]
    with pytest.raises(NotFoundError):
        client.restore("no-such-memory")


def test_maintain_needs_a_tenant_key_and_restore_respects_agents(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme", agent="other")) as other:
        mine = other.add("我喜欢喝乌龙茶", user_id="life-agent", ttl=60)
    bot_key = srv.key("acme", agent="bot")
    with Client(srv.url, bot_key) as bot, pytest.raises(PermissionDeniedError):
        bot.maintain("life-agent")
    # Another agent's memory: as if it did not exist.
    with Client(srv.url, bot_key) as bot, pytest.raises(NotFoundError):
        bot.restore(mine.events[0].memory.id)


def test_user_ids_with_a_slash_reach_their_own_user(srv: RunningServer, client: Client) -> None:
    client.add("我住在杭州", user_id="team/a")
    assert client.maintain("team/a").examined >= 1
    assert client.maintain("team").examined == 0


def test_health_over_rest(client: Client, srv: RunningServer) -> None:
    client.add("我对花生过敏", user_id="life-h")
    h = client.memory_health("life-h")
    assert h.user_id == "life-h" and h.active >= 2 and h.counts["episode"] == {"active": 1}
    with Client(srv.url, srv.key("acme", agent="bot")) as bot, pytest.raises(PermissionDeniedError):
        bot.memory_health("life-h")
