"""Goals with a lifecycle, in the pure core: what a message says about a goal, which stored
goal it is about, and the day a goal is meant to be reached by.

A goal memory (``kind`` goal) carries ``goal_status`` — ``active`` when said, then
``completed``, ``abandoned`` or ``paused`` when the user says so — and an optional
``target_date``. Both are typed columns of the memory, so a status change is an update of
the goal's row with a history line ("goal completed"), and the goal keeps its words.

How a message changes a goal (:func:`goal_outcome`, then :func:`match_goal`), in order:

1. **What it says.** The whole message must report an outcome of the user's own: done
   ("我跑完马拉松了", "我考上研究生了", "I finished the marathon", "I passed the CFA", "I quit
   smoking"), given up ("不想考研了", "我放弃学日语了", "I gave up on learning Spanish", "I quit
   piano") or on hold ("考研的事先放一放", "I'm putting the marathon on hold"). A negated
   report ("还没跑完", "I haven't finished"), a question, or a one-off ("I'm not going to
   the gym today", "今天不跑了") says nothing.
2. **Which goal.** A content word of the message, outcome words aside, must be a word of
   the goal's slot or value (``goal.考研``, ``goal.main`` = "跑完马拉松",
   ``goal.learn_spanish``): never similarity alone — E5 puts "我放弃学日语了" close to any
   language goal. Chinese counts two-character runs too (考研 in 不想考研了); time words
   (明年, next year) and verbs most goals share (learn, run, 学, 考) are not goal words.
   The goal sharing the most words wins, then the one said last; a goal already in the
   reported state is left alone, and only an active goal can be paused.
3. **Reactivation.** Saying a completed, abandoned or paused goal again as a goal makes it
   active again (the write path does that when reconciliation finds the same goal).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from jiyi.core.models import GoalStatus, MemoryItem, MemoryKind
from jiyi.core.tasks import content_terms
from jiyi.core.timewords import find_date

__all__ = ["goal_outcome", "goal_target", "goal_words", "match_goal", "said_words"]

I_ = re.IGNORECASE
_NEGATED_ZH = re.compile(r"还没|没有|没能|没[跑考读写做学拿完]|未能|尚未|[吗吧呢？?]$")
_NEGATED_EN = re.compile(
    r"\b(?:not|n't|never|haven't|hasn't|didn't|couldn't|yet to|almost|nearly)\b|\?$", I_
)
_ZH_DONE = re.compile(
    r"(?:终于|已经|总算|刚刚?|成功)?(?:完成|实现|达成|做到|搞定|拿到|考上|考过|考完|通过|学会|"
    r"减掉|瘦了|戒掉|[跑读写做学看爬骑游走练背]完)(?:了)?.*了$|"
    r"(?:完成|实现|达成|做到|搞定)(?:了)?(?:这个)?目标|目标(?:已经)?(?:完成|实现|达成)"
)
_ZH_ABANDON = re.compile(
    r"放弃|(?:不想|不打算|不准备|不再|不会再|不用再?|没必要)(?:再)?.{1,12}了$|"
    r"^(?:我)?不[考学跑练读做搞去](?:.{1,10})了$|算了$|不(?:搞|弄|考|学|练)了$"
)
_ZH_PAUSE = re.compile(
    r"先放(?:一)?放|暂停|搁置|先缓(?:一)?缓|往后(?:放|推)|以后再说|先不[考学跑练搞弄做](?:.{0,10})了"
)
_EN_DONE = re.compile(
    r"^(?:so |well |yay |finally |guess what,? )?(?:i|we)(?:'ve| have)? "
    r"(?:finally |just |actually |already |successfully )*"
    r"(?:finished|completed|ran|passed|achieved|reached|hit|made it|did it|got into|got|"
    r"learned|learnt|earned|accomplished|landed|beat|quit smoking|lost)\b",
    I_,
)
_EN_ABANDON = re.compile(
    r"\b(?:gave up|given up|giving up|give up|quit|quitting|abandoned|dropped|dropping|"
    r"stopped (?:trying|training|learning|studying|preparing)|"
    r"(?:no longer|not) (?:going to|gonna|planning to|trying to|want to|doing)|"
    r"changed my mind about|forget about)\b",
    I_,
)
_EN_PAUSE = re.compile(
    r"\bon hold\b|\bpaus(?:e|ed|ing)\b|\btaking a break from\b|\bput(?:ting)? .{1,30} aside\b|"
    r"\bpostpon(?:e|ed|ing)\b|\bshelv(?:e|ed|ing)\b",
    I_,
)
_EN_NEG_FOR_ABANDON = re.compile(r"\b(?:never|didn't|won't|haven't) (?:give|gave|quit)\b", I_)
# Words that report the outcome (or are about time), not what the goal is.
_OUTCOME_WORDS = frozenset(
    """
    完成 实现 达成 做到 搞定 拿到 考上 考过 考完 通过 学会 跑完 读完 写完 做完 学完 终于 已经 总算
    放弃 不想 想考 想学 不打 打算 不准 准备 不再 再说 以后 暂停 搁置 先放 放一 一放 放放 算了 目标
    今年 明年 去年 年底 年初 月底 下个 个月 这个 上个 以前 之前 之后 现在 最近 用户
    finished finish completed complete ran passed pass achieved reached hit made did got earned
    accomplished landed beat gave give giving given up quit quitting abandoned dropped
    dropping stopped stop trying going gonna planning want longer hold paused pause pausing
    taking break aside postponed postpone shelved finally just actually already successfully
    year years month months week weeks next this last end today tomorrow goal goals user
    january february march april may june july august september october november december
    """.split()
)
# Verbs most goals share: alone they say nothing about which goal ("I gave up on learning
# French" is not about the goal "learn Spanish").
_WEAK_WORDS = frozenset(
    """
    learn learning run running get getting take taking start starting do doing make making
    go going be become becoming try work working study studying practice practicing
    学 学习 考 跑 做 去 练 练习 开始 成为
    """.split()
)
# A one-off ("I'm not going to the gym today", "今天不跑了") is not giving a goal up.
_ONE_OFF = re.compile(
    r"今天|今晚|明天|这周|本周|这次|这回|\b(?:today|tonight|tomorrow|this (?:morning|evening|"
    r"afternoon|week|time))\b",
    I_,
)
# Quitting a habit is reaching the goal of quitting it.
_EN_QUIT_HABIT = re.compile(r"\bquit (?:smoking|drinking|vaping|sugar|caffeine|alcohol)\b", I_)
_YEAR_END = re.compile(r"年底|年末|end of (?:the |this )?year", I_)


def goal_outcome(text: str) -> GoalStatus | None:
    """The status a whole user message reports for one of the user's goals (rule 1):
    ``completed``, ``abandoned``, ``paused``, or None when it reports none."""
    t = text.strip().rstrip("。.!！~～ ")
    if not t or len(t) > 80:
        return None
    if _ONE_OFF.search(t) and not (_ZH_DONE.search(t) or _EN_DONE.search(t)):
        return None
    if _EN_QUIT_HABIT.search(t) and not _NEGATED_EN.search(t):
        return GoalStatus.COMPLETED
    if re.search(r"[\u4e00-\u9fff]", t):
        if _ZH_PAUSE.search(t):
            return GoalStatus.PAUSED
        if _ZH_ABANDON.search(t) and not re.search(r"没放弃|不放弃|不会放弃|别放弃", t):
            return GoalStatus.ABANDONED
        if _ZH_DONE.search(t) and not _NEGATED_ZH.search(t):
            return GoalStatus.COMPLETED
        return None
    if _EN_PAUSE.search(t):
        return GoalStatus.PAUSED
    if _EN_ABANDON.search(t) and not _EN_NEG_FOR_ABANDON.search(t) and not t.endswith("?"):
        return GoalStatus.ABANDONED
    if _EN_DONE.search(t) and not _NEGATED_EN.search(t):
        return GoalStatus.COMPLETED
    return None


def said_words(text: str) -> set[str]:
    """The words of ``text`` that can name a goal: content words, outcome and time words
    aside (rule 2)."""
    found = {w for w in content_terms(text) if w.lower() not in _OUTCOME_WORDS}
    # English stems, crudely: "learning" ~ "learn", "marathons" ~ "marathon".
    found |= {re.sub(r"(?:ing|ed|s)$", "", w) for w in found if w.isascii() and len(w) > 4}
    return found - _WEAK_WORDS


def goal_words(goal: MemoryItem) -> set[str]:
    """The words that name a goal: its slot's key and its value (rule 2), not its sentence."""
    key = (goal.topic or "").split(".", 1)[-1]
    said = " ".join(x for x in (key.replace("_", " ") if key != "main" else "", goal.value) if x)
    return said_words(said or goal.content)


def match_goal(text: str, outcome: GoalStatus, goals: Sequence[MemoryItem]) -> MemoryItem | None:
    """The goal among ``goals`` (the user's active goal memories) that ``text`` reports
    ``outcome`` for (rule 2), or None."""
    said = said_words(text)
    best: tuple[int, datetime, MemoryItem] | None = None
    for g in goals:
        if g.kind != MemoryKind.GOAL:
            continue
        status = g.goal_status or GoalStatus.ACTIVE
        if status == outcome or (outcome == GoalStatus.PAUSED and status != GoalStatus.ACTIVE):
            continue
        shared = len(said & goal_words(g))
        if shared and (best is None or (shared, g.observed_at) > best[:2]):
            best = (shared, g.observed_at, g)
    return best[2] if best else None


def goal_target(text: str, said_at: datetime) -> datetime | None:
    """The day a goal is meant to be reached by, when its words name one in the future
    ("年底前考过雅思" → Dec 31; "明年考研" → the first day of next year); else None."""
    if _YEAR_END.search(text):
        return datetime(said_at.year, 12, 31, tzinfo=UTC)
    found = find_date(text, said_at)
    if found is None or found[0] <= said_at:
        return None
    return found[0]
