"""Goals with a lifecycle, the pure rules (``jiyi.core.goals``): what a message reports,
which goal it is about (by the goal's words, never similarity) and the target date."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi.core.goals import goal_outcome, goal_target, match_goal
from jiyi.core.models import GoalStatus, MemoryItem, MemoryKind

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
DONE, GAVE_UP, PAUSED = GoalStatus.COMPLETED, GoalStatus.ABANDONED, GoalStatus.PAUSED


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("我跑完马拉松了", DONE),
        ("我终于考上研究生了", DONE),
        ("我考过雅思了！", DONE),
        ("不想考研了", GAVE_UP),
        ("我放弃学日语了", GAVE_UP),
        ("考研的事先放一放", PAUSED),
        ("I finished the marathon", DONE),
        ("I passed the CFA!", DONE),
        ("I gave up on learning Spanish", GAVE_UP),
        ("I quit piano", GAVE_UP),
        ("I'm putting the marathon on hold", PAUSED),
        # no report: negated, a question, or nothing about an outcome
        ("我还没跑完马拉松", None),
        ("我吃完饭了", None),
        ("我不会放弃考研的", None),
        ("I haven't finished the marathon yet", None),
        ("Did you finish the marathon?", None),
        ("I never gave up on Spanish", None),
        ("我住在上海", None),
        # a one-off is not giving up; quitting a habit is reaching the goal
        ("I'm not going to the gym today", None),
        ("今天不跑了", None),
        ("I finally quit smoking", DONE),
        ("我终于戒掉烟了", DONE),
    ],
)
def test_what_a_message_reports(text: str, status: GoalStatus | None) -> None:
    assert goal_outcome(text) == status


def goal(topic: str, value: str | None, content: str, minutes: int = 0, **kw: object) -> MemoryItem:
    return MemoryItem(
        id=topic,
        user_id="u",
        kind=MemoryKind.GOAL,
        topic=topic,
        value=value,
        content=content,
        created_at=T0,
        observed_at=T0.replace(minute=minutes),
        goal_status=GoalStatus.ACTIVE,
        **kw,  # type: ignore[arg-type]
    )


GOALS = [
    goal("goal.main", "跑完马拉松", "用户今年的目标是跑完马拉松"),
    goal("goal.考研", None, "用户打算明年考研"),
    goal("goal.学日语", None, "用户想学日语"),
    goal("goal.learn_spanish", None, "User wants to learn Spanish"),
    goal("goal.lose_weight", None, "User is trying to lose weight"),
]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("我跑完马拉松了", "goal.main"),
        ("不想考研了", "goal.考研"),
        ("我放弃学日语了", "goal.学日语"),
        ("I gave up on learning Spanish", "goal.learn_spanish"),
        ("I finally lost the weight", "goal.lose_weight"),
        # close in meaning, no goal word shared: no goal is touched
        ("我放弃学法语了", None),
        ("I gave up on learning French", None),
        ("我跑完半程了", None),
    ],
)
def test_the_goal_a_report_is_about_shares_its_words(text: str, slot: str | None) -> None:
    outcome = goal_outcome(text)
    assert outcome is not None
    found = match_goal(text, outcome, GOALS)
    assert (found.topic if found else None) == slot


def test_a_goal_in_the_reported_state_is_left_alone_and_only_active_ones_pause() -> None:
    done = goal("goal.main", "跑完马拉松", "用户的目标是跑完马拉松").model_copy(
        update={"goal_status": GoalStatus.COMPLETED}
    )
    assert match_goal("我跑完马拉松了", DONE, [done]) is None
    assert match_goal("马拉松的事先放一放", PAUSED, [done]) is None
    assert match_goal("不想跑马拉松了", GAVE_UP, [done]) is done  # a done goal can be dropped


def test_the_latest_of_two_equally_named_goals_is_the_one_meant() -> None:
    old = goal("goal.考研", None, "用户打算考研", minutes=0)
    new = goal("goal.明年考研", None, "用户打算明年考研", minutes=5)
    assert match_goal("不想考研了", GAVE_UP, [old, new]) is new


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("用户打算年底前考过雅思", datetime(2026, 12, 31, tzinfo=UTC)),
        ("用户打算明年考研", datetime(2027, 1, 1, tzinfo=UTC)),
        ("User wants to run a marathon by the end of the year", datetime(2026, 12, 31, tzinfo=UTC)),
        ("User wants to learn Spanish", None),
        ("用户去年想学日语", None),  # a date in the past is no target
    ],
)
def test_the_target_date_a_goal_names(text: str, day: datetime | None) -> None:
    assert goal_target(text, T0) == day
