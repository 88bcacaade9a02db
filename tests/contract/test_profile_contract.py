"""Contract: the profile (``Memory.profile``) derived from memories on every store, and the
profile overrides (``UserTier.profiles``): latest wins, history kept, scoped by tenant and
user, PII redacted, goals with a status, and ``delete_user`` taking every override row.

The profile is derived by slot, never by similarity, so the hashing embedder is enough."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from tests.conftest import FakeClock

from jiyi import Memory, MemoryConfig
from jiyi.core.models import GoalStatus, Scope
from jiyi.core.ports import MemoryStore, ProfileStore, UserTier
from jiyi.core.profile import ProfileOverride
from jiyi.embedders import HashingEmbedder
from jiyi.errors import ConflictError, InvalidInputError

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
ACME, OTHER = "acme", "globex"


def profiles_of(store: MemoryStore) -> ProfileStore:
    assert isinstance(store, UserTier)
    return store.profiles


def override(field: str, value: str | None, minutes: int = 0) -> ProfileOverride:
    return ProfileOverride(
        field=field, value=value, set_at=T0 + timedelta(minutes=minutes), set_by="key:k1"
    )


@pytest.fixture
def mem(store: MemoryStore) -> Iterator[Memory]:
    m = Memory(
        store=store,
        embedder=HashingEmbedder(),
        clock=FakeClock(T0),
        config=MemoryConfig(tenant=ACME),
    )
    yield m  # the store fixture closes the store


# -- the port ------------------------------------------------------------------------------


def test_the_latest_override_per_field_is_in_force_and_history_keeps_all(
    store: MemoryStore,
) -> None:
    p = profiles_of(store)
    assert p.current(ACME, "alice") == {}
    p.set(ACME, "alice", override("city", "上海", 0))
    p.set(ACME, "alice", override("city", "杭州", 1))
    p.set(ACME, "alice", override("name", None, 2))
    now = p.current(ACME, "alice")
    assert now["city"].value == "杭州" and now["city"].set_by == "key:k1"
    assert now["city"].set_at == T0 + timedelta(minutes=1)
    assert now["name"].value is None  # cleared
    assert [(o.field, o.value) for o in p.history(ACME, "alice")] == [
        ("name", None),
        ("city", "杭州"),
        ("city", "上海"),
    ]
    assert len(p.history(ACME, "alice", limit=1)) == 1
    assert [o.value for o in p.dump(ACME, "alice")] == ["上海", "杭州", None]  # oldest first


@pytest.mark.parametrize(
    ("tenant", "user"),
    [
        pytest.param(ACME, "bob", id="another-user"),
        pytest.param(OTHER, "alice", id="another-tenant"),
    ],
)
def test_overrides_never_cross_users_or_tenants(store: MemoryStore, tenant: str, user: str) -> None:
    p = profiles_of(store)
    p.set(ACME, "alice", override("city", "上海"))
    assert p.current(tenant, user) == {} and p.history(tenant, user) == []
    p.set(tenant, user, override("city", "Boston"))
    assert p.current(ACME, "alice")["city"].value == "上海"


def test_restore_replaces_the_users_rows_and_is_idempotent(store: MemoryStore) -> None:
    p = profiles_of(store)
    p.set(ACME, "alice", override("city", "北京"))
    p.set(ACME, "bob", override("city", "成都"))
    rows = [override("city", "上海", 0), override("city", "杭州", 1)]
    p.restore(ACME, "alice", rows)
    p.restore(ACME, "alice", rows)
    assert p.dump(ACME, "alice") == rows
    assert p.current(ACME, "bob")["city"].value == "成都"


def test_delete_user_takes_every_override_row_and_nobody_elses(store: MemoryStore) -> None:
    p = profiles_of(store)
    p.set(ACME, "alice", override("city", "上海", 0))
    p.set(ACME, "alice", override("city", "杭州", 1))
    p.set(ACME, "bob", override("city", "成都"))
    p.set(OTHER, "alice", override("city", "Boston"))
    removed = store.delete_user(Scope(tenant=ACME, user_id="alice"))
    assert removed["profile_overrides"] == 2
    assert p.history(ACME, "alice") == []
    assert p.current(ACME, "bob")["city"].value == "成都"
    assert p.current(OTHER, "alice")["city"].value == "Boston"
    assert store.delete_user(Scope(tenant=ACME, user_id="alice"))["profile_overrides"] == 0


# -- derivation through the engine, on each store ------------------------------------------


def test_the_profile_is_derived_from_the_users_memories(mem: Memory) -> None:
    for text in [
        "我叫王小明",
        "我住在上海",
        "我在腾讯做产品经理",
        "我养了一只猫叫阿橘",
        "我对花生过敏",
        "我吃素",
        "我喜欢喝冷萃咖啡",
        "我今年的目标是跑完马拉松",
    ]:
        mem.add(text, user_id="alice")
    p = mem.profile("alice")
    assert p.name is not None and p.name.value == "王小明"
    assert p.city is not None and p.city.value == "上海" and p.city.slot == "location.home"
    assert p.occupation is not None and p.occupation.value == "产品经理"
    assert p.employer is not None and p.employer.value == "腾讯"
    assert [v.text for v in p.pets] == ["用户养了一只猫叫阿橘"]
    assert [v.slot for v in p.allergies] == ["health.allergy.花生"]
    assert [v.value for v in p.diet] == ["素食"]
    assert [v.text for v in p.preferences["drink"]] == ["用户喜欢喝冷萃咖啡"]
    assert [(g.value, g.status) for g in p.goals] == [("跑完马拉松", GoalStatus.ACTIVE)]
    # every value names the memories it came from, and they are the user's
    sources = {i for v in (p.name, p.city, *p.pets) for i in v.sources}
    assert sources and all(m is not None and m.user_id == "alice" for m in map(mem.get, sources))
    assert p.city.confidence == 1.0  # said outright (core/profile.py rule 2)
    assert mem.profile("bob").is_empty()  # another user's memories are not bob's


def test_confidence_builds_with_evidence(mem: Memory) -> None:
    mem.add("我好像对花生过敏", user_id="alice")  # hedged: one mention
    assert [v.confidence for v in mem.profile("alice").allergies] == [0.6]
    mem.add("我好像对花生过敏", user_id="alice")  # said again
    assert [v.confidence for v in mem.profile("alice").allergies] == [0.9]
    mem.add("我对花生过敏", user_id="alice")  # said outright
    assert [v.confidence for v in mem.profile("alice").allergies] == [1.0]


def test_an_override_wins_is_redacted_and_a_clear_empties_the_field(mem: Memory) -> None:
    mem.add("我住在上海", user_id="alice")
    city = mem.set_profile("alice", "city", "杭州").city
    assert city is not None and city.value == "杭州" and city.set_by_user
    assert city.confidence == 1.0 and city.sources == []
    mem.add("我住在上海", user_id="alice")  # memories do not beat the user's own setting
    p = mem.set_profile("alice", "allergies", "青霉素 手机13812345678")
    assert p.city is not None and p.city.value == "杭州"
    assert [v.value for v in p.allergies] == ["青霉素 手机[手机号]"]  # PII redacted
    assert mem.set_profile("alice", "city", None).city is None
    assert [(o.field, o.value) for o in mem.profile_history("alice")] == [
        ("city", None),
        ("allergies", "青霉素 手机[手机号]"),
        ("city", "杭州"),
    ]
    assert mem.profile_history("bob") == []


def test_bad_fields_and_values_name_the_field_and_write_nothing(mem: Memory) -> None:
    with pytest.raises(InvalidInputError) as bad:
        mem.set_profile("alice", "favourite_colour", "蓝")
    assert bad.value.field == "field"
    with pytest.raises(InvalidInputError) as bad:
        mem.set_profile("alice", "timezone", "Mars/Olympus")
    assert bad.value.field == "timezone"
    with pytest.raises(InvalidInputError) as bad:
        mem.set_profile("alice", "city", "x" * 201)
    assert bad.value.field == "city"
    assert mem.profile_history("alice") == []
    assert mem.set_profile("alice", "timezone", "Asia/Shanghai").timezone is not None


def test_switched_off_memory_serves_no_profile_and_takes_no_new_value(mem: Memory) -> None:
    mem.add("我住在上海", user_id="alice")
    mem.switch.set("alice", "off")
    assert mem.profile("alice").is_empty()
    with pytest.raises(ConflictError):
        mem.set_profile("alice", "city", "杭州")
    mem.set_profile("alice", "city", None)  # clearing is always allowed
    mem.switch.set("alice", "on")
    assert mem.profile("alice").city is None  # the clear holds


def test_goal_reports_move_the_goal_status_on_every_store(mem: Memory) -> None:
    mem.add("我打算明年考研", user_id="alice")
    mem.add("我想学日语", user_id="alice")
    mem.add("不想考研了", user_id="alice")
    goals = {g.slot: g for g in mem.profile("alice").goals}
    assert goals["goal.考研"].status == GoalStatus.ABANDONED
    assert goals["goal.考研"].target_date == datetime(2027, 1, 1, tzinfo=UTC)
    assert goals["goal.学日语"].status == GoalStatus.ACTIVE
    [goal] = [m for m in mem.list(user_id="alice") if m.topic == "goal.考研"]
    assert [h.reason for h in mem.history(goal.id)][-1] == "goal_abandoned"
    mem.add("我打算明年考研", user_id="alice")  # said again: pursued again
    goals = {g.slot: g for g in mem.profile("alice").goals}
    assert goals["goal.考研"].status == GoalStatus.ACTIVE


def test_a_rejected_value_refuses_the_whole_change(store: MemoryStore) -> None:
    strict = Memory(
        store=store,
        embedder=HashingEmbedder(),
        clock=FakeClock(T0),
        config=MemoryConfig(tenant=ACME, pii_policy="reject"),
    )
    with pytest.raises(InvalidInputError) as refused:
        strict.update_profile("alice", {"city": "杭州", "name": "电话13812345678"})
    assert refused.value.field == "name"
    assert strict.profile_history("alice") == []  # not even the city


def test_the_context_opens_with_the_profile_lines_on_every_store(mem: Memory) -> None:
    for text in ["我叫王小明", "我吃素", "我喜欢喝冷萃咖啡", "我对花生过敏", "我打算明年考研"]:
        mem.add(text, user_id="alice")
    lines = mem.context("周末去哪儿玩", user_id="alice").text.split("\n[")[1].splitlines()
    assert lines[0] == "用户档案]" and lines[1] == "- 称呼：王小明"
    assert "- 过敏：对花生过敏；饮食：吃素" in lines  # a diet preference, read by slot range
    assert "- 进行中的目标：打算明年考研（目标日期 2027-01-01）" in lines
    assert not [line for line in lines if "冷萃" in line]  # likes are memories, not profile lines
