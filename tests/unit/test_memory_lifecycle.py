"""The lifecycle through ``Memory``, the worker and the CLI: ``ttl=`` validation, restore,
maintenance jobs on a schedule, ``jiyi maintain``, and seven simulated years."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from tests.conftest import FakeClock
from typer.testing import CliRunner

from jiyi import Memory, MemoryConfig
from jiyi.cli import options
from jiyi.cli.main import app
from jiyi.core.ids import new_id
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.models import MemoryItem, MemoryKind, Origin, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed
from jiyi.core.text import keyword_text
from jiyi.embedders import HashingEmbedder
from jiyi.errors import InvalidInputError, NotFoundError
from jiyi.queue.sqlite import SqliteWorkQueue
from jiyi.worker import Worker, daily_maintenance

DAY = timedelta(days=1)


@pytest.mark.parametrize(
    "bad", [0, -5, True, "1d", float("nan"), float("inf"), timedelta(0), timedelta(days=40_000)]
)
def test_ttl_is_validated_and_the_error_names_the_field(mem: Memory, bad: object) -> None:
    with pytest.raises(InvalidInputError) as info:
        mem.add("我喜欢冷萃", user_id="u", ttl=bad)  # type: ignore[arg-type]
    assert info.value.field == "ttl"
    assert mem.list(user_id="u", include_episodes=True) == []  # nothing written


def test_ttl_as_seconds_stamps_everything_the_call_creates(mem: Memory, clock: FakeClock) -> None:
    res = mem.add("我喜欢喝冷萃咖啡", user_id="u", ttl=3600)
    rows = [e.memory for e in res.events] + res.episodes
    assert rows and all(m.expires_at == clock.now + timedelta(hours=1) for m in rows)
    stored = mem.list(user_id="u", include_episodes=True)
    assert {m.expires_at for m in stored} == {clock.now + timedelta(hours=1)}
    mem.add("我喜欢喝冷萃咖啡", user_id="u")  # said again: the refresh keeps the expiry
    assert {m.expires_at for m in mem.list(user_id="u")} == {clock.now + timedelta(hours=1)}


def test_restore_refuses_a_superseded_memory_and_an_unknown_id(mem: Memory) -> None:
    mem.add("我住在北京", user_id="u")
    res = mem.add("我搬到上海了", user_id="u")
    old = next(e.previous for e in res.events if e.previous is not None)
    with pytest.raises(InvalidInputError) as info:
        mem.restore(old.id)
    assert info.value.field == "memory_id"
    with pytest.raises(NotFoundError):
        mem.restore("no-such-id")
    current = next(e.memory for e in res.events if e.previous is not None)
    assert mem.restore(current.id).status == Status.ACTIVE  # active: returned unchanged


def test_a_worker_runs_the_scheduled_lifecycle_jobs(tmp_path: Path, clock: FakeClock) -> None:
    mem = Memory(tmp_path / "m.db", embedder=HashingEmbedder(), clock=clock)
    queue = SqliteWorkQueue(tmp_path / "q.db")
    try:
        mem.add("我喜欢喝冷萃咖啡", user_id="u", ttl=60)
        worker = Worker(
            queue,
            lambda tenant: mem,
            clock=clock,
            schedule=daily_maintenance(mem.engine, lambda: ["default"]),
            schedule_every=DAY,
        )
        assert worker.enqueue_due() == 0  # not before one period
        clock.advance(days=1)
        assert worker.enqueue_due() == 3  # the day's maintain, the week's rollup and reflect
        assert worker.enqueue_due() == 0  # scheduled already
        worker.run(threading.Event(), drain=True)
        assert queue.counts()["done"] == 3 and worker.failed == 0
        assert mem.list(user_id="u", include_episodes=True) == []
        assert {m.status for m in mem.list(user_id="u", include_archived=True)} == {Status.ARCHIVED}
        worker.scheduled_at = None  # again on the same day: the job id is taken
        assert worker.enqueue_due() == 0
    finally:
        queue.close()
        mem.close()


def test_jiyi_maintain_prints_what_it_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "load_embedder", HashingEmbedder)
    monkeypatch.setenv("JIYI_HOME", str(tmp_path / "home"))
    db = tmp_path / "m.db"
    past = datetime.now(UTC) - timedelta(days=3)
    with Memory(db, embedder=HashingEmbedder(), clock=lambda: past) as mem:
        mem.add("我喜欢喝冷萃咖啡", user_id="u1", ttl=60)  # expired three days ago
        mem.add("我住在杭州", user_id="u2")
    runner = CliRunner()
    dry = runner.invoke(app, ["maintain", "--dry-run", "--json", "--path", str(db)])
    assert dry.exit_code == 0, dry.output
    report = json.loads(dry.stdout)
    by_user = {r["user_id"]: r for r in report["users"]}
    assert report["dry_run"] and set(by_user) == {"u1", "u2"}
    assert sum(by_user["u1"]["archived"].values()) >= 1 and by_user["u2"]["archived"] == {}
    real = runner.invoke(app, ["maintain", "--user", "u1", "--path", str(db)])
    assert real.exit_code == 0, real.output
    assert "u1" in real.stdout and "expired" in real.stdout
    with Memory(db, embedder=HashingEmbedder()) as mem:
        assert mem.list(user_id="u1", include_episodes=True) == []


def test_jiyi_maintain_only_runs_the_named_steps_and_health_adds_up_a_tenant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JIYI_EMBEDDER", "hashing")  # the CLI embeds as the writer did
    monkeypatch.setenv("JIYI_HOME", str(tmp_path / "home"))
    db = tmp_path / "m.db"
    with Memory(db, embedder=HashingEmbedder()) as mem:
        for text in ("我今天联系了搬家公司", "今天在打包行李，准备搬家"):
            mem.add(text, user_id="u1")
        mem.add("我住在杭州", user_id="u2")
    runner = CliRunner()
    only = runner.invoke(app, ["maintain", "--only", "rollup,reflect", "--path", str(db)])
    assert only.exit_code == 0, only.output
    assert "rolled up" in only.stdout and "archived" not in only.stdout
    assert "steps rollup, reflect" in only.stdout
    bad = runner.invoke(app, ["maintain", "--only", "vacuum", "--path", str(db)])
    assert bad.exit_code != 0 and "vacuum" in bad.output
    with Memory(db, embedder=HashingEmbedder()) as mem:
        week = [m for m in mem.list(user_id="u1") if (m.topic or "").startswith("rollup.")]
        assert len(week) == 1 and "搬家" in week[0].content
        per_user = [mem.health(u) for u in ("u1", "u2")]
    tenant = runner.invoke(app, ["health", "--tenant", "default", "--json", "--path", str(db)])
    assert tenant.exit_code == 0, tenant.output
    total = json.loads(tenant.stdout)
    assert total["users"] == 2 and total["active"] == sum(h.active for h in per_user)
    assert total["last_rollup_at"] is not None and total["stale_vectors"] == 0
    table = runner.invoke(app, ["health", "--tenant", "default", "--path", str(db)])
    assert table.exit_code == 0 and "tenant default (2 users)" in table.stdout


def test_seven_simulated_years_change_importance_confidence_and_archive(
    tmp_path: Path,
) -> None:
    """Importance and confidence moved and memories were archived and purged after 7 years
    of daily maintenance: before the lifecycle all of them were exactly as written."""
    clock = FakeClock(datetime(2026, 1, 1, 9, tzinfo=UTC))
    mem = Memory(tmp_path / "m.db", embedder=HashingEmbedder(), clock=clock)
    try:
        added = mem.add("我对花生过敏。我喜欢喝冷萃咖啡。我喜欢听相声。我今天好累。", user_id="u")
        by_topic = {e.memory.topic: e.memory for e in added.events}
        allergy = next(m for t, m in by_topic.items() if t and "allergy" in t)
        coffee = next(m for t, m in by_topic.items() if t and "冷萃" in t)
        guess = MemoryItem(
            id=new_id(),
            user_id="u",
            kind=MemoryKind.SUMMARY,
            content="用户可能喜欢爵士乐",
            confidence=0.6,
            origin=Origin.INFERRED,
            created_at=clock.now,
            observed_at=clock.now,
            derived=True,
        )
        mem.store.apply(
            Scope(user_id="u"),
            ChangeSet(upserts=[Indexed(guess, keyword_text(guess.content), None)]),
        )
        first = {m.id: m for m in mem.list(user_id="u")}
        for day in range(7 * 365):
            clock.advance(days=1)
            if day % 7 == 0:  # the coffee preference is asked about every week
                mem.search("冷萃咖啡", user_id="u", kinds=["preference"], top_k=1)
            mem.maintain("u", now=clock.now) if day % 30 == 0 else None
        mem.maintain("u")
        now = {m.id: m for m in mem.list(user_id="u", include_archived=True)}
        assert now[allergy.id].status == Status.ACTIVE  # safety: never forgotten
        assert now[coffee.id].importance == pytest.approx(0.95)  # reinforced to the cap
        assert now[coffee.id].importance > first[coffee.id].importance
        assert guess.id not in now  # decayed, archived, then purged
        assert len(now) < len(first)  # the tired state and the unused preference went
        hits = mem.search("冷萃咖啡", user_id="u", kinds=["preference"], top_k=1)
        assert hits and hits[0].scores.get("decay", 1.0) > 0.9  # used a week ago
    finally:
        mem.close()


def test_lifecycle_config_reaches_the_engine(tmp_path: Path, clock: FakeClock) -> None:
    life = LifecycleConfig(ttl_days={"preference": 1})
    mem = Memory(
        tmp_path / "m.db",
        embedder=HashingEmbedder(),
        clock=clock,
        config=MemoryConfig(lifecycle=life),
    )
    try:
        mem.add("我喜欢喝冷萃咖啡", user_id="u")
        clock.advance(days=2)
        assert mem.maintain("u").archived.get("expired", 0) >= 1
    finally:
        mem.close()


def test_a_queued_add_carries_its_ttl_to_what_the_worker_extracts(
    tmp_path: Path, clock: FakeClock
) -> None:
    mem = Memory(tmp_path / "m.db", embedder=HashingEmbedder(), clock=clock)
    queue = SqliteWorkQueue(tmp_path / "q.db")
    try:
        res = mem.accept("我喜欢喝冷萃咖啡", queue=queue, user_id="u", ttl=600, grace=DAY)
        until = clock.now + timedelta(minutes=10)
        assert res.queued and all(ep.expires_at == until for ep in res.episodes)
        Worker(queue, lambda tenant: mem, clock=clock).run(threading.Event(), drain=True)
        stored = mem.list(user_id="u", include_episodes=True)
        assert {m.kind for m in stored} == {MemoryKind.EPISODE, MemoryKind.PREFERENCE}
        assert {m.expires_at for m in stored} == {until}
    finally:
        queue.close()
        mem.close()


def test_forgetting_by_name_also_deletes_an_archived_memory(mem: Memory, clock: FakeClock) -> None:
    res = mem.add("我住在杭州", user_id="u", ttl=60)
    home = next(e.memory for e in res.events)
    clock.advance(minutes=2)
    mem.maintain("u")
    assert mem.get(home.id) is not None and mem.get(home.id).status == Status.ARCHIVED  # type: ignore[union-attr]
    mem.add("别记我住在哪里了", user_id="u")
    assert mem.get(home.id) is None


def test_health_counts_by_kind_and_status_and_what_is_due(mem: Memory, clock: FakeClock) -> None:
    mem.add("我对花生过敏", user_id="u")
    mem.add("我喜欢喝冷萃咖啡", user_id="u", ttl=60)
    h = mem.health("u")
    assert h.active == 4 and h.archived == 0 and h.due_archive == 0
    assert h.counts["episode"] == {"active": 2} and h.expiring_soon == 2
    clock.advance(minutes=2)
    assert mem.health("u").due_archive == 2
    mem.maintain("u")
    after = mem.health("u")
    assert (after.active, after.archived, after.due_purge) == (2, 2, 0)
    clock.advance(days=31)
    assert mem.health("u").due_purge == 2


def test_jiyi_lifecycle_configures_servers_and_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    from jiyi.settings import Settings

    monkeypatch.setenv(
        "JIYI_LIFECYCLE", '{"retention_days": 7, "tenant_ttl_days": {"acme": {"preference": 30}}}'
    )
    life = Settings().lifecycle
    assert life.retention == 7 * DAY and life.ttl("preference", "acme") == 30 * DAY
    cfg = MemoryConfig.model_validate({"vector_budget_ms": 100, "lifecycle": life})
    assert cfg.lifecycle.ttl("preference", "acme") == 30 * DAY  # as services.py builds it
    monkeypatch.setenv("JIYI_LIFECYCLE", '{"ttl_days": {"mood": 1}}')
    with pytest.raises(ValueError, match="unknown TTL class"):
        Settings()
