"""The pure lifecycle (jiyi.core.lifecycle) under a fake clock: decay, reinforcement, TTL per
kind, archive, the cap and purge — no store, no embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from jiyi.core import lifecycle as lc
from jiyi.core.ids import new_id
from jiyi.core.lifecycle import LifecycleConfig, plan_sweep
from jiyi.core.models import MemoryItem, MemoryKind, Origin, Status

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def mem(
    content: str = "用户住在上海",
    *,
    kind: MemoryKind = MemoryKind.FACT,
    topic: str | None = "location.home",
    at: datetime = T0,
    importance: float = 0.5,
    confidence: float = 0.9,
    origin: Origin = Origin.USER_STATED,
    sources: list[str] | None = None,
    tenant: str = "default",
    **more: object,
) -> MemoryItem:
    return MemoryItem(
        id=new_id(),
        tenant=tenant,
        user_id="u",
        kind=kind,
        topic=topic,
        content=content,
        importance=importance,
        confidence=confidence,
        origin=origin,
        source_message_ids=sources or [],
        created_at=at,
        observed_at=at,
        **more,  # type: ignore[arg-type]
    )


# -- the design numbers ---------------------------------------------------------------------


def test_the_design_numbers_are_the_defaults() -> None:
    cfg = LifecycleConfig()
    assert cfg.relevance_per_day == 0.995
    assert (cfg.reinforce_step, cfg.reinforce_cap, cfg.reinforce_every) == (0.1, 0.95, DAY)
    assert (cfg.inferred_confidence, cfg.decay_factor, cfg.decay_every_days) == (0.6, 0.95, 30)
    assert (cfg.archive_below, cfg.confirmed_confidence, cfg.stated_confidence) == (0.3, 0.9, 1.0)
    assert cfg.ttl("state") == DAY
    assert cfg.ttl("event") == 3 * DAY
    assert cfg.ttl("preference") == 180 * DAY
    assert cfg.ttl("identity") == 365 * DAY
    assert cfg.ttl("safety") is None and cfg.ttl("episode") is None
    assert cfg.max_active == 10_000 and cfg.retention == 30 * DAY


def test_ttl_overrides_per_config_and_per_tenant_name_unknown_classes() -> None:
    cfg = LifecycleConfig(ttl_days={"state": 2}, tenant_ttl_days={"acme": {"preference": 30}})
    assert cfg.ttl("state") == 2 * DAY and cfg.ttl("event") == 3 * DAY  # the rest default
    assert cfg.ttl("preference", "acme") == 30 * DAY
    assert cfg.ttl("preference", "other") == 180 * DAY
    with pytest.raises(ValidationError, match="unknown TTL class"):
        LifecycleConfig(ttl_days={"mood": 1})
    with pytest.raises(ValidationError, match="positive"):
        LifecycleConfig(tenant_ttl_days={"acme": {"state": 0}})


@pytest.mark.parametrize(
    ("kind", "topic", "cls"),
    [
        (MemoryKind.STATE, "state.tired", "state"),
        (MemoryKind.EVENT, "plan.trip", "event"),
        (MemoryKind.PREFERENCE, "pref.咖啡", "preference"),
        (MemoryKind.GOAL, "goal.marathon", "goal"),
        (MemoryKind.FACT, "location.home", "identity"),
        (MemoryKind.FACT, "health.allergy.花生", "safety"),
        (MemoryKind.PREFERENCE, "diet.allergy.shellfish", "safety"),
        (MemoryKind.FACT, "health.medication.insulin", "safety"),
        (MemoryKind.EPISODE, None, "episode"),
        (MemoryKind.SUMMARY, "reflection.cares_most", "summary"),
    ],
)
def test_ttl_class_of_each_kind(kind: MemoryKind, topic: str | None, cls: str) -> None:
    assert lc.ttl_class(mem(kind=kind, topic=topic)) == cls


# -- relevance and reinforcement ------------------------------------------------------------


def test_relevance_fades_by_0_995_per_day_since_the_last_use() -> None:
    m = mem()
    assert lc.relevance(m, T0) == 1.0
    assert lc.relevance(m, T0 + 100 * DAY) == pytest.approx(0.995**100)
    assert lc.relevance(m, T0 - DAY) == 1.0  # a use in the future is not an older one
    used = m.model_copy(update={"last_accessed_at": T0 + 90 * DAY})
    assert lc.relevance(used, T0 + 100 * DAY) == pytest.approx(0.995**10)


def test_reinforcement_adds_0_1_at_most_once_a_day_capped_at_0_95() -> None:
    m = mem(importance=0.7)
    assert lc.reinforce(m, T0 + timedelta(hours=23)) is m  # said today: no reinforcement yet
    once = lc.reinforce(m, T0 + DAY)
    assert once.importance == pytest.approx(0.8) and once.reinforced_at == T0 + DAY
    assert lc.reinforce(once, T0 + DAY + timedelta(hours=12)) is once  # same day again
    twice = lc.reinforce(once, T0 + 2 * DAY)
    capped = lc.reinforce(twice, T0 + 3 * DAY)
    assert twice.importance == pytest.approx(0.9) and capped.importance == 0.95
    assert lc.reinforce(capped, T0 + 9 * DAY).importance == 0.95
    high = mem(importance=0.98)
    assert lc.reinforce(high, T0 + DAY).importance == 0.98  # never lowered to the cap
    off = LifecycleConfig(reinforce=False)
    assert lc.reinforce(m, T0 + DAY, off) is m


# -- confidence -----------------------------------------------------------------------------


def test_inferred_confidence_decays_x0_95_per_30_days_and_is_idempotent() -> None:
    m = mem(origin=Origin.INFERRED, confidence=0.6)
    assert lc.decay(m, T0 + 29 * DAY).confidence == 0.6
    a = lc.decay(m, T0 + 95 * DAY)  # three whole periods
    assert a.confidence == pytest.approx(0.6 * 0.95**3)
    assert a.confidence_at == T0 + 90 * DAY
    # Daily sweeps or one sweep at the end: the same number.
    daily = m
    for day in range(1, 96):
        daily = lc.decay(daily, T0 + day * DAY)
    assert daily.confidence == pytest.approx(a.confidence)


def test_stated_facts_never_decay() -> None:
    m = mem(origin=Origin.USER_STATED, confidence=1.0)
    assert lc.decay(m, T0 + 3650 * DAY) is m


def test_confirming_an_inferred_memory_raises_it_to_0_9_and_restarts_its_clock() -> None:
    m = mem(origin=Origin.INFERRED, confidence=0.6)
    once = lc.confirm(m, T0 + DAY)
    assert once.confidence == pytest.approx(0.75) and once.confidence_at == T0 + DAY
    twice = lc.confirm(once, T0 + 2 * DAY)
    assert twice.confidence == pytest.approx(0.9)
    assert lc.confirm(twice, T0 + 3 * DAY).confidence == pytest.approx(0.9)
    assert lc.confirm(mem(), T0 + DAY).confidence == 0.9  # a stated one is left alone


# -- expiry ---------------------------------------------------------------------------------


def test_expiry_counts_the_kind_ttl_from_the_last_use() -> None:
    pref = mem("用户喜欢冷萃", kind=MemoryKind.PREFERENCE, topic="pref.冷萃")
    assert lc.expiry(pref) == T0 + 180 * DAY
    used = pref.model_copy(update={"reinforced_at": T0 + 100 * DAY})
    assert lc.expiry(used) == T0 + 280 * DAY
    assert lc.expiry(mem("对花生过敏", topic="health.allergy.花生")) is None


def test_an_explicit_expires_at_wins_and_an_event_counts_from_its_own_day() -> None:
    told = mem(expires_at=T0 + 2 * DAY)
    assert lc.expiry(told) == T0 + 2 * DAY
    trip = mem(kind=MemoryKind.EVENT, topic="plan.trip", valid_from=T0 + 10 * DAY)
    assert lc.expiry(trip) == T0 + 13 * DAY


# -- the sweep ------------------------------------------------------------------------------


def test_sweep_archives_what_expired_and_keeps_the_rest() -> None:
    state = mem("用户今天很累", kind=MemoryKind.STATE, topic="state.tired")
    allergy = mem("用户对花生过敏", topic="health.allergy.花生", importance=0.9)
    home = mem()
    plan = plan_sweep([state, allergy, home], T0 + 2 * DAY)
    assert plan.archived == {state.id: "expired"}
    archived = plan.updates[state.id]
    assert archived.status == Status.ARCHIVED and archived.archived_at == T0 + 2 * DAY
    assert plan.active == 2


def test_sweep_archives_an_inferred_memory_once_below_0_3() -> None:
    guess = mem(
        "用户可能喜欢爵士乐", kind=MemoryKind.SUMMARY, origin=Origin.INFERRED, confidence=0.6
    )
    # 0.6 × 0.95^13 = 0.308, × 0.95^14 = 0.293: archived in the 14th period (day 420).
    assert plan_sweep([guess], T0 + 419 * DAY).archived == {}
    plan = plan_sweep([guess], T0 + 420 * DAY)
    assert plan.archived == {guess.id: "decayed"}
    assert plan.updates[guess.id].confidence < 0.3


def test_episodes_follow_their_facts_only_when_all_of_them_went() -> None:
    state = mem("用户今天很累", kind=MemoryKind.STATE, topic="state.tired", sources=["m1"])
    home = mem(sources=["m2"])
    ep1 = mem("我今天好累", kind=MemoryKind.EPISODE, topic=None, sources=["m1"])
    ep2 = mem("我住上海，今天好累", kind=MemoryKind.EPISODE, topic=None, sources=["m2"])
    chat = mem("哈哈", kind=MemoryKind.EPISODE, topic=None, sources=["m3"])
    both = state.model_copy(update={"id": new_id(), "source_message_ids": ["m2"]})
    plan = plan_sweep([state, home, ep1, ep2, chat, both], T0 + 2 * DAY)
    assert plan.archived[ep1.id] == "episode"
    assert ep2.id not in plan.archived  # its fact "lives in Shanghai" is still active
    assert chat.id not in plan.archived  # no fact was made from it: nothing to follow


def test_the_cap_archives_the_least_valuable_first_and_safety_last() -> None:
    cfg = LifecycleConfig(max_active=3)
    allergy = mem("对花生过敏", topic="health.allergy.花生", importance=0.2)
    low = mem("低", topic="a", importance=0.3)
    old = mem("旧", topic="b", importance=0.9, at=T0 - 300 * DAY)
    high = mem("高", topic="c", importance=0.9)
    mid = mem("中", topic="d", importance=0.6)
    plan = plan_sweep([allergy, low, old, high, mid], T0, cfg)
    assert plan.archived == {low.id: "cap", old.id: "cap"}  # 0.9 × 0.995^300 ≈ 0.2
    assert plan.active == 3


def test_archived_memories_are_purged_after_the_retention_period() -> None:
    gone = lc.archive(mem("旧的"), T0)
    recent = lc.archive(mem("新的"), T0 + 20 * DAY)
    plan = plan_sweep([gone, recent], T0 + 31 * DAY)
    assert [m.id for m in plan.purge] == [gone.id]


def test_restore_makes_it_active_with_a_fresh_ttl() -> None:
    state = mem("很累", kind=MemoryKind.STATE, topic="state.tired", expires_at=T0 + DAY)
    guess = mem("也许", origin=Origin.INFERRED, confidence=0.25)
    now = T0 + 5 * DAY
    back = lc.restore(lc.archive(state, now), now)
    assert back.status == Status.ACTIVE and back.archived_at is None
    assert back.expires_at is None and lc.expiry(back) == now + DAY
    assert plan_sweep([back], now + timedelta(hours=1)).archived == {}
    g = lc.restore(lc.archive(guess, now), now)
    assert g.confidence == 0.6 and g.confidence_at == now


def test_seven_simulated_years_of_daily_sweeps() -> None:
    """Stated safety facts stay; an unused preference, a state and an unconfirmed guess go;
    a preference used every week is reinforced to the cap and stays."""
    allergy = mem("对花生过敏", topic="health.allergy.花生", importance=0.9, confidence=1.0)
    unused = mem("喜欢拿铁", kind=MemoryKind.PREFERENCE, topic="pref.拿铁")
    used = mem("喜欢冷萃", kind=MemoryKind.PREFERENCE, topic="pref.冷萃", importance=0.5)
    guess = mem("可能喜欢爵士", kind=MemoryKind.SUMMARY, origin=Origin.INFERRED, confidence=0.6)
    state = mem("在减肥", kind=MemoryKind.STATE, topic="state.减肥")
    rows = {m.id: m for m in (allergy, unused, used, guess, state)}
    gone: dict[str, str] = {}
    for day in range(1, 7 * 365 + 1):
        now = T0 + day * DAY
        if day % 7 == 0 and rows[used.id].status == Status.ACTIVE:
            rows[used.id] = lc.reinforce(rows[used.id], now)
        plan = plan_sweep(rows.values(), now)
        rows.update(plan.updates)
        gone.update(plan.archived)
        for p in plan.purge:
            del rows[p.id]
    assert gone == {
        state.id: "expired",
        unused.id: "expired",
        guess.id: "decayed",
    }
    assert set(rows) == {allergy.id, used.id}  # the archived ones were purged since
    assert rows[allergy.id].confidence == 1.0 and rows[allergy.id].status == Status.ACTIVE
    assert rows[used.id].importance == 0.95 and rows[used.id].status == Status.ACTIVE
