"""A change the rules cannot place still answers first, on the real default embedder.

When no rule puts the newer message in the old fact's slot, the old fact stays active (the
store decides nothing it cannot place) but the search answers with the user's later word
on the same thing (jiyi.core.newer); the older hits follow it. Worded unlike the benchmark
cases that motivated it. One Memory per module; every test has its own user.
"""

from __future__ import annotations

import pytest
from _writes import say

from jiyi import Memory


@pytest.mark.parametrize(
    ("facts", "change", "query", "new", "old"),
    [
        (
            ["我对芒果过敏", "我表哥住在青岛", "我喜欢钓鱼"],
            "我表哥去年年底带着全家去了烟台，不回青岛了",
            "我表哥住在哪",
            "烟台",
            "青岛",
        ),
        (
            ["我对海鲜过敏", "我每天早上喝豆浆", "我住在长沙"],
            "早餐现在改喝牛奶了，豆浆喝多了胀气",
            "我早上喝什么",
            "牛奶",
            "豆浆",
        ),
        (
            ["I'm allergic to kiwi", "My son's school is Oak Hill Primary", "I like jazz"],
            "my son switched schools, he's at Riverside Academy now",
            "what school does my son go to",
            "riverside",
            "oak hill",
        ),
    ],
)
def test_the_later_change_is_the_first_answer(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    query: str,
    new: str,
    old: str,
) -> None:
    mem, user = shared_real_mem, f"newer-{change}"
    say(mem, module_clock, user, *facts, change)
    hits = mem.search(query, user_id=user, top_k=5)
    texts = [h.memory.content.lower() for h in hits]
    assert new in texts[0], texts
    assert any(old in t for t in texts[1:]), texts  # the older word follows, not dropped


def test_a_remark_about_a_neighbour_does_not_go_first(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    user = "newer-neighbour"
    say(shared_real_mem, module_clock, user, "我住在绍兴", "我对门的李阿姨现在搬去绍兴城里住了")
    hits = shared_real_mem.search("我住在哪", user_id=user, top_k=3)
    assert hits[0].memory.content == "用户住在绍兴", [h.memory.content for h in hits]


def test_the_context_says_the_older_word_may_have_changed(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    mem, user = shared_real_mem, "newer-context"
    say(mem, module_clock, user, "我堂姐住在无锡", "我堂姐前阵子带着孩子去了常州，不回无锡了")
    text = mem.context("我堂姐住在哪", user_id=user).text
    lines = text.splitlines()
    first = next(i for i, t in enumerate(lines) if "常州" in t)
    older = next(i for i, t in enumerate(lines) if "无锡" in t and "常州" not in t)
    assert first < older, text
    assert "后来可能已变" in lines[older], text


@pytest.mark.parametrize(
    ("fact", "change", "query", "new", "old", "label"),
    [  # README's examples, said casually: no rule places them, the old fact stays
        (
            "我表哥住在青岛",
            "对了，我表哥现在基本待在深圳了",
            "我表哥在哪",
            "深圳",
            "青岛",
            "（后来可能已变）",
        ),
        (
            "My brother lives in Boston",
            "oh btw my brother's in Denver now",
            "where does my brother live",
            "Denver",
            "Boston",
            " (may have changed since)",
        ),
    ],
)
def test_a_casual_change_reads_above_the_labelled_older_line(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    fact: str,
    change: str,
    query: str,
    new: str,
    old: str,
    label: str,
) -> None:
    mem, user = shared_real_mem, f"newer-casual-{old}"
    say(mem, module_clock, user, fact, change)
    text = mem.context(query, user_id=user).text
    # The memory lines: after the profile lines, which the query does not rank.
    memories = text.split("\n[", 2)[-1].splitlines()
    first = next(i for i, t in enumerate(memories) if new in t)
    older = next(i for i, t in enumerate(memories) if old in t)
    assert first < older, text
    assert memories[older].endswith(label), text
    assert memories[first].count("（") + memories[first].count("(may") == 0, text


@pytest.mark.parametrize(
    ("fact", "change", "query", "new", "old"),
    [  # the later word shares no keyword with the turn and is not close enough on its own
        (
            "我每天晚上跑步",
            "跑步最近改成早上了，晚上太热",
            "我一般什么时候运动",
            "改成早上",
            "晚上跑步",
        ),
        (
            "I work at Deloitte",
            "quit deloitte in the spring, freelancing now",
            "where do I work",
            "freelancing",
            "at Deloitte",
        ),
    ],
)
def test_the_context_shows_the_change_its_label_speaks_of(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    fact: str,
    change: str,
    query: str,
    new: str,
    old: str,
) -> None:
    mem, user = shared_real_mem, f"newer-shown-{old}"
    say(mem, module_clock, user, fact, change)
    lines = mem.context(query, user_id=user).text.splitlines()
    first = [i for i, t in enumerate(lines) if new in t]
    older = [i for i, t in enumerate(lines) if old in t]
    assert first and older and first[0] < older[-1], lines


@pytest.mark.parametrize(
    ("facts", "change", "query", "new"),
    [
        (
            ["我对芒果过敏", "我表哥住在青岛"],
            "哦对了，我表哥现在调去深圳了",
            "我表哥住在哪",
            "深圳",
        ),
        (
            ["I'm allergic to kiwi", "My daughter's school is Elm Park Primary"],
            "oh wait, she switched schools, she's at Hillcrest Academy now",
            "what school does my daughter go to",
            "hillcrest",
        ),
    ],
)
def test_a_change_said_seconds_after_the_fact_still_answers_first(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    query: str,
    new: str,
) -> None:
    """In a live chat the change can follow within the same minute (20 s here)."""
    mem, user = shared_real_mem, f"newer-soon-{new}"
    say(mem, module_clock, user, *facts, days=0, hours=20 / 3600)
    say(mem, module_clock, user, change, days=0, hours=20 / 3600)
    texts = [h.memory.content.lower() for h in mem.search(query, user_id=user, top_k=5)]
    assert new in texts[0], texts
