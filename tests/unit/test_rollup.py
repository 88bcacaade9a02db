"""The weekly roll-up: one cited, inferred summary per ISO week of a user's events, refreshed
in place and never duplicated; it outlives the housekeeping purge of its events."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from tests.conftest import FakeClock

from jiyi import Memory
from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Origin, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed
from jiyi.core.text import keyword_text
from jiyi.embedders.hashing import HashingEmbedder
from jiyi.errors import InvalidInputError
from jiyi.pipeline.rollup import iso_week, rule_summary

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # ISO week 2026-W48


def said(mem: Memory, clock: FakeClock, day: int, text: str, user: str = "u") -> None:
    clock.now = MONDAY + timedelta(days=day)
    mem.add(text, user_id=user)


def rollups(mem: Memory, user: str = "u", **kw: bool) -> list[MemoryItem]:
    return [
        m
        for m in mem.list(user_id=user, **kw)
        if m.kind == MemoryKind.SUMMARY and (m.topic or "").startswith("rollup.")
    ]


@pytest.fixture
def moving(mem: Memory, clock: FakeClock) -> Memory:
    said(mem, clock, 0, "我今天联系了搬家公司")
    said(mem, clock, 1, "今天在打包行李，准备搬家")
    said(mem, clock, 2, "明天要去新家看看，搬家好累")
    return mem


def test_a_week_of_events_becomes_one_cited_inferred_summary(moving: Memory) -> None:
    report = moving.maintain("u", steps="rollup")
    assert report.steps == ["rollup"] and report.rolled_up == 1
    (week,) = rollups(moving)
    assert week.content.startswith("这周（11月23日起）在忙搬家：")
    assert "搬家公司" in week.content and "打包行李" in week.content
    assert week.derived and week.origin == Origin.INFERRED and week.confidence == 0.6
    assert week.topic == "rollup.2026-W48" and week.metadata["week"] == "2026-W48"
    cited = moving.store.get_many(Scope(user_id="u"), week.sources)
    assert len(cited) == len(week.sources) >= 3
    assert {m.kind for m in cited} <= {MemoryKind.EVENT, MemoryKind.GOAL, MemoryKind.STATE}
    assert moving.search("这周在忙什么 搬家", user_id="u", top_k=3)[0].memory.id == week.id


def test_rolling_up_again_refreshes_in_place_and_never_duplicates(
    moving: Memory, clock: FakeClock
) -> None:
    first = moving.maintain("u", steps="rollup").rollup_ids
    again = moving.maintain("u", steps="rollup")
    assert again.rolled_up == 0 and [m.id for m in rollups(moving)] == first
    said(moving, clock, 3, "我今天把旧沙发卖了")  # the week goes on
    refreshed = moving.maintain("u", steps="rollup")
    (week,) = rollups(moving)
    assert refreshed.rollup_ids == first == [week.id]
    assert week.version == 2 and "旧沙发" in week.content


def test_each_week_gets_its_own_and_a_quiet_week_none(mem: Memory, clock: FakeClock) -> None:
    said(mem, clock, -7, "我今天去医院体检了")
    said(mem, clock, -6, "今天拿到了体检报告")
    said(mem, clock, 0, "我今天联系了搬家公司")  # one event only: below rollup_min_items
    assert mem.maintain("u", steps="rollup").rolled_up == 1
    (week,) = rollups(mem)
    assert week.topic == "rollup.2026-W47" and "体检" in week.content


def test_archived_events_still_roll_up_and_the_summary_outlives_their_purge(
    moving: Memory, clock: FakeClock
) -> None:
    clock.now = MONDAY + timedelta(days=6)
    swept = moving.maintain("u", steps="sweep,rollup")  # events expire after a few days
    assert sum(swept.archived.values()) >= 2 and swept.rolled_up == 1
    (week,) = rollups(moving)
    clock.now += timedelta(days=45)  # past the 30-day retention: the events are purged
    purged = moving.maintain("u", steps="sweep,purge")
    assert set(week.sources) & set(purged.purged_ids)
    assert week.id not in purged.purged_ids
    assert [m.id for m in rollups(moving, include_archived=True)] == [week.id]
    left = moving.list(user_id="u", include_episodes=True, include_archived=True)
    # The raw words went with the events: only those a kept memory (the goal) rests on stay.
    kept = {
        i
        for m in left
        if m.kind != MemoryKind.EPISODE and not m.derived
        for i in m.source_message_ids
    }
    episodes = [m for m in left if m.kind == MemoryKind.EPISODE]
    assert len(episodes) == 1 and all(set(e.source_message_ids) <= kept for e in episodes)


def test_deleting_a_source_deletes_the_roll_up(moving: Memory) -> None:
    (rid,) = moving.maintain("u", steps="rollup").rollup_ids
    source = moving.get(moving.get(rid).sources[0])
    moving.delete(source.id)
    assert moving.get(rid) is None


def test_a_dry_run_writes_nothing(moving: Memory) -> None:
    assert moving.maintain("u", steps=["rollup"], dry_run=True).rolled_up == 1
    assert rollups(moving) == []


def test_an_unknown_step_is_a_clear_error(mem: Memory) -> None:
    with pytest.raises(InvalidInputError) as err:
        mem.maintain("u", steps="rollup,vacuum")
    assert err.value.field == "steps" and "vacuum" in err.value.message


def test_english_weeks_name_their_theme(tmp_path: Path, clock: FakeClock) -> None:
    emb = HashingEmbedder()
    with Memory(tmp_path / "en.db", embedder=emb, clock=clock) as mem:
        rows = [
            ("User started packing boxes for the move", 0),
            ("User booked the movers for the move", 1),
            ("User is exhausted from the move", 2),
        ]
        for text, day in rows:
            at = MONDAY + timedelta(days=day)
            m = MemoryItem(
                id=new_id(),
                user_id="en",
                kind=MemoryKind.EVENT,
                content=text,
                importance=0.5,
                created_at=at,
                observed_at=at,
            )
            vec = emb.embed_documents([text])[0]
            mem.store.apply(
                Scope(user_id="en"),
                ChangeSet(upserts=[Indexed(m, keyword_text(text), vec)], embedder=emb.name),
            )
        clock.now = MONDAY + timedelta(days=3)
        mem.maintain("en", steps="rollup")
        (week,) = rollups(mem, "en")
        assert week.content.startswith("Week of 2026-11-23: mostly move — User started packing")


def test_rule_summary_lists_at_most_six_items() -> None:
    items = [
        MemoryItem(
            id=str(i),
            user_id="u",
            kind=MemoryKind.EVENT,
            content=f"用户第{i}次跑步",
            created_at=MONDAY,
            observed_at=MONDAY,
        )
        for i in range(8)
    ]
    text = rule_summary(items, "zh", date(2026, 11, 23))
    assert text.endswith("；另有 2 件") and text.count("；") == 6
    assert iso_week(MONDAY) == "2026-W48" and Status.ACTIVE
