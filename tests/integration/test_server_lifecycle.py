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


def test_maintain_runs_the_steps_asked_for_and_counts_them(
    srv: RunningServer, client: Client
) -> None:
    for text in ("我今天联系了搬家公司", "今天在打包行李，准备搬家", "明天要去新家看看，搬家好累"):
        client.add(text, user_id="life-week")
    report = client.maintain("life-week", steps=["rollup", "reflect"])
    assert report.steps == ["rollup", "reflect"] and report.rolled_up == 1
    assert report.reflected >= 1 and report.archived == {} and report.merged == 0
    again = client.maintain("life-week", steps=["rollup"])
    assert again.rolled_up == 0  # refreshed in place, never a second one
    week = [m for m in client.list(user_id="life-week") if (m.topic or "").startswith("rollup.")]
    assert len(week) == 1 and "搬家" in week[0].content and week[0].derived
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        metrics = h.get("/metrics").text
        bad = h.post(
            "/v1/users/life-week/maintain",
            json={"steps": ["rollup", "vacuum"]},
            headers={"Authorization": f"Bearer {srv.key('acme')}"},
        )
    assert 'jiyi_lifecycle_total{what="rolled_up"}' in metrics
    assert bad.status_code == 422 and bad.json()["field"] == "steps"
    assert "vacuum" in bad.json()["message"]


def test_tenant_health_adds_up_every_user_for_an_admin(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("health-co")) as c:
        c.add("我对花生过敏", user_id="h1")
        c.add("我住在杭州", user_id="h2")
        per_user = [c.memory_health(u) for u in ("h1", "h2")]
    admin_key = srv.keys.create("health-co", admin=True)[0]
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        r = h.get(
            "/v1/admin/tenants/health-co/health",
            headers={"Authorization": f"Bearer {admin_key}"},
        )
        plain = h.get(
            "/v1/admin/tenants/health-co/health",
            headers={"Authorization": f"Bearer {srv.key('health-co')}"},
        )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["tenant"] == "health-co" and body["users"] == 2
    assert body["active"] == sum(p.active for p in per_user) >= 4
    assert body["counts"]["episode"] == {"active": 2}
    assert set(body["largest_users"]) == {"h1", "h2"}
    assert plain.status_code == 403
