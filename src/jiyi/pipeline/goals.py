"""The write path's goal step: a user's report on a goal ("我跑完马拉松了", "不想考研了",
"I gave up on learning Spanish") moves the matching goal's status (``jiyi.core.goals``).

Runs before reconciliation, so the goal words the report repeats ("不想考研了" also reads
as a goal about 考研) do not come back as a new or reactivated goal: candidates of kind goal
or preference from the reporting message that name the matched goal are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.core.goals import goal_outcome, goal_words, match_goal, said_words
from jiyi.core.models import Action, Candidate, HistoryEntry, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.pipeline.pending import Pending

__all__ = ["settle_goals"]

_GOALS = SearchFilter(kinds=(MemoryKind.GOAL,))
_RESTATED = (MemoryKind.GOAL, MemoryKind.PREFERENCE)


def settle_goals(
    messages: Sequence[Message],
    candidates: list[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
) -> list[Candidate]:
    """Apply the goal reports among ``messages`` (the batch's new user messages) to the
    user's stored goals in ``pending``; return the candidates still to reconcile."""
    reports = [(m, o) for m in messages if m.role == "user" and (o := goal_outcome(m.content))]
    if not reports:
        return candidates
    goals = store.list(scope, _GOALS)
    for m, outcome in reports:
        goal = match_goal(m.content, outcome, [pending.current(g) for g in goals])
        if goal is None:
            continue
        # Reporting on a goal is saying something about it: its observed_at moves, like a
        # restatement's, so the profile shows when the status last changed.
        said = max(goal.observed_at, m.timestamp or pending.now)
        moved = goal.model_copy(update={"goal_status": outcome, "observed_at": said})
        reason = f"goal_{outcome.value}"
        pending.change(moved, HistoryEntry.of(moved, Action.UPDATE, pending.now, reason=reason))
        words = goal_words(goal)
        candidates = [
            c
            for c in candidates
            if not (
                m.id in c.source_message_ids
                and c.kind in _RESTATED
                and said_words(c.content) & words
            )
        ]
    return candidates
