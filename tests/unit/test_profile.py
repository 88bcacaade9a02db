"""The profile's pure rules (``jiyi.core.profile`` and ``profile_lines``): confidence from
evidence, overrides winning, and the compact, budgeted lines that open a context block."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi.core.models import GoalStatus, MemoryItem, MemoryKind, Origin, Status
from jiyi.core.profile import Evidence, ProfileOverride, derive_profile, field_confidence
from jiyi.core.profile_lines import profile_lines
from jiyi.core.text import estimate_tokens

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
STATED, INFERRED, CONFIRMED = Origin.USER_STATED, Origin.INFERRED, Origin.CONFIRMED


@pytest.mark.parametrize(
    ("evidence", "expected"),
    [
        ([Evidence(STATED, 0.9)], 1.0),  # said outright
        ([Evidence(STATED, 0.6)], 0.6),  # hedged, once
        ([Evidence(STATED, 0.6, mentions=2)], 0.9),  # hedged, repeated
        ([Evidence(STATED, 0.6), Evidence(STATED, 0.6)], 0.9),  # two memories agree
        ([Evidence(INFERRED, 0.6)], 0.6),  # one inference
        ([Evidence(INFERRED, 0.9)], 0.9),  # an inference confirmed up to 0.9
        ([Evidence(CONFIRMED, 0.75)], 0.9),
        ([], 0.0),
    ],
)
def test_confidence_builds_with_evidence(evidence: list[Evidence], expected: float) -> None:
    assert field_confidence(evidence) == expected


def test_a_value_set_through_the_api_is_certain() -> None:
    assert field_confidence([Evidence(INFERRED, 0.3)], set_by_user=True) == 1.0


def memory(
    topic: str, value: str | None, content: str, kind: MemoryKind = MemoryKind.FACT, **kw: object
) -> MemoryItem:
    return MemoryItem(
        id=f"m-{topic}-{value}",
        user_id="u",
        kind=kind,
        topic=topic,
        value=value,
        content=content,
        created_at=T0,
        observed_at=T0,
        **kw,  # type: ignore[arg-type]
    )


MEMORIES = [
    memory("identity.name", "王小明", "用户名叫王小明"),
    memory("location.home", "上海", "用户住在上海"),
    memory("location.home", "北京", "用户住在北京", status=Status.SUPERSEDED),
    memory("pet.cat.name", "阿橘", "用户养了一只猫叫阿橘"),
    memory("health.allergy.花生", "yes", "用户对花生过敏"),
    memory("health.condition.hypertension", "yes", "用户有高血压"),
    memory("pref.冷萃咖啡", "like", "用户喜欢喝冷萃咖啡", MemoryKind.PREFERENCE),
    memory("goal.main", "跑完马拉松", "用户今年的目标是跑完马拉松", MemoryKind.GOAL),
    memory(
        "goal.考研",
        None,
        "用户打算明年考研",
        MemoryKind.GOAL,
        goal_status=GoalStatus.ABANDONED,
    ),
    memory("state.压力大", None, "用户最近压力很大", MemoryKind.STATE),
]


def test_fields_come_from_their_slots_and_superseded_values_do_not_count() -> None:
    p = derive_profile("u", MEMORIES)
    assert (
        p.city is not None and p.city.value == "上海" and p.city.sources == ["m-location.home-上海"]
    )
    assert [v.slot for v in p.allergies] == ["health.allergy.花生"]
    assert [v.slot for v in p.health] == ["health.condition.hypertension"]  # not the allergy
    assert list(p.preferences) == ["drink"]
    assert {(g.slot, g.status) for g in p.goals} == {
        ("goal.main", GoalStatus.ACTIVE),
        ("goal.考研", GoalStatus.ABANDONED),
    }
    assert p.updated_at == T0 and not p.is_empty()


def test_overrides_win_and_a_cleared_field_is_empty() -> None:
    at = T0.replace(hour=10)
    overrides = {
        "city": ProfileOverride(field="city", value="杭州", set_at=at, set_by="library"),
        "allergies": ProfileOverride(field="allergies", value=None, set_at=at, set_by="library"),
    }
    p = derive_profile("u", MEMORIES, overrides)
    assert p.city is not None and (p.city.value, p.city.set_by_user, p.city.confidence) == (
        "杭州",
        True,
        1.0,
    )
    assert p.allergies == [] and p.updated_at == at


def test_the_lines_are_compact_localised_and_show_only_active_goals() -> None:
    p = derive_profile("u", MEMORIES)
    zh = profile_lines(p, "zh", 120)
    assert zh[0] == "- 称呼：王小明；所在城市：上海"
    assert "- 宠物：养了一只猫叫阿橘" in zh
    assert "- 过敏：对花生过敏；健康：有高血压" in zh
    assert "- 进行中的目标：今年的目标是跑完马拉松" in zh and "考研" not in "".join(zh)
    en = profile_lines(p, "en", 120)
    assert en[0] == "- Name: 王小明; City: 上海"


@pytest.mark.parametrize("budget", [0, 8, 20, 40])
def test_the_lines_keep_to_their_budget(budget: int) -> None:
    lines = profile_lines(derive_profile("u", MEMORIES), "zh", budget)
    assert sum(estimate_tokens(line) + 1 for line in lines) <= budget


def test_an_expired_state_not_yet_archived_is_not_in_the_profile() -> None:
    tired = memory(
        "state.累", None, "用户最近很累", MemoryKind.STATE, expires_at=T0.replace(hour=12)
    )
    assert [v.slot for v in derive_profile("u", [tired], now=T0).states] == ["state.累"]
    assert derive_profile("u", [tired], now=T0.replace(hour=13)).states == []


def test_a_list_item_a_later_one_says_changed_is_labelled() -> None:
    """表哥住在青岛 beside the later 表哥现在调去深圳了: both stay (nothing placed the change in
    the first one's slot), the older one labelled as the context block labels it."""
    from datetime import timedelta

    later = T0 + timedelta(days=9)
    p = derive_profile(
        "u",
        [
            memory("family.cousin.home", "青岛", "用户的表哥住在青岛"),
            memory("family.cousin.about", None, "用户的表哥现在调去深圳了").model_copy(
                update={"observed_at": later}
            ),
            memory("family.daughter.name", "朵朵", "用户的女儿叫朵朵"),
        ],
    )
    (family,) = [line for line in profile_lines(p, "zh", 200) if line.startswith("- 家人")]
    assert "表哥住在青岛（后来可能已变）" in family, family
    assert "表哥现在调去深圳了（" not in family and "女儿叫朵朵（" not in family, family
