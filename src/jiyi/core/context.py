"""Assemble the natural-language memory block an agent puts in its system prompt.

What earns a line (in this order of checks):

1. Only what the user said: assistant and system turns are never presented as the user's
   words, and a message that is nothing but PII placeholders ("我的手机号是[手机号]") says
   nothing worth a line.
2. Episodes whose memories are already in the block add nothing; an outdated episode (its
   fact was corrected) is left out when the current value is in the block, else labelled.
3. Current values come first; a corrected fact carries its history as a label
   ("用户住在上海（以前：用户住在北京）"), never as a second current fact.
4. Dates are the day a thing happens, in the user's timezone: "明天去上海出差" said on 11-29
   shows 11-30, and when it was said.
5. Active tasks the query is about (``jiyi.core.tasks.match_tasks``) come first, in a group
   of their own, and are budgeted first: "继续上次的报销单" is answered by the task's state.
6. Before them, when the user has a profile (``jiyi.core.profile``), the block opens with a
   few profile lines (``jiyi.core.profile_lines``): who the user is, family and pets, diet
   and health, active goals, recent state — at most ``PROFILE_MAX_TOKENS`` and a third of
   what the tasks leave, so the memories the turn is about still fit. A goal line says
   when the goal is no longer pursued ("用户今年的目标是跑完马拉松（已完成）").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, tzinfo

from jiyi.core.extraction.segment import is_chitchat
from jiyi.core.models import ContextBlock, MemoryItem, MemoryKind, SearchHit
from jiyi.core.newer import CHANGED_LABEL
from jiyi.core.profile import UserProfile
from jiyi.core.profile_lines import PROFILE_LABEL, profile_lines
from jiyi.core.tasks import task_line
from jiyi.core.text import estimate_tokens, has_cjk, query_terms
from jiyi.core.users import TaskState

LABELS = {
    "zh": {
        MemoryKind.PREFERENCE: "偏好",
        MemoryKind.FACT: "事实",
        MemoryKind.EVENT: "事件",
        MemoryKind.GOAL: "目标",
        MemoryKind.STATE: "近况",
        MemoryKind.SUMMARY: "总结",
        MemoryKind.EPISODE: "用户说过",
    },
    "en": {
        MemoryKind.PREFERENCE: "Preference",
        MemoryKind.FACT: "Fact",
        MemoryKind.EVENT: "Event",
        MemoryKind.GOAL: "Goal",
        MemoryKind.STATE: "State",
        MemoryKind.SUMMARY: "Summary",
        MemoryKind.EPISODE: "The user said",
    },
}
TASKS_LABEL = {"zh": "进行中的任务", "en": "Tasks in progress"}
PROFILE_MAX_TOKENS = 120
HEADER = {
    "zh": "关于这位用户，你记得以下内容（按相关性排序）：",
    "en": "What you remember about this user (most relevant first):",
}
FOOTER = {
    "zh": "只依据以上记忆谈论用户的过去；记忆里没有的，不要编造，可以直接询问用户。",
    "en": "Rely only on these memories when referring to the user's past; do not invent "
    "anything they do not say — ask the user instead.",
}
COLD = {
    "zh": "你还没有关于这位用户的相关记忆。不要假设或编造用户的经历和偏好；需要时直接询问。",
    "en": "You have no relevant memories of this user yet. Do not assume or invent their "
    "history or preferences; ask when you need to know.",
}
_WORDS = {
    "zh": {
        "before": "以前：",
        "outdated": "已过时",
        "said": "说于",
        "on": "日期",
        "changed": CHANGED_LABEL["zh"],
    },
    "en": {
        "before": "previously: ",
        "outdated": "outdated",
        "said": "said",
        "on": "on",
        "changed": CHANGED_LABEL["en"],
    },
}
# A goal that is no longer pursued says so on its line (core/goals.py).
_GOAL_STATUS = {
    "zh": {"completed": "已完成", "abandoned": "已放弃", "paused": "已暂停"},
    "en": {"completed": "completed", "abandoned": "abandoned", "paused": "paused"},
}
_PLACEHOLDER = re.compile(r"\[[^\[\]\d@]{1,16}\]")
# Words that only name the kind of PII that was removed ("my phone number is [phone]").
_PII_WORDS = frozenset(
    "手机 手机号 手机号码 电话 号码 电话号码 邮箱 身份证 身份证号 银行卡 卡号 地址 住址 护照 "
    "微信 微信号 qq 账号 车牌 车牌号 phone number email address card id passport account "
    "plate mobile cell contact".split()
)


def pick_language(query: str, memories: Sequence[MemoryItem]) -> str:
    """zh if the query is Chinese, else en — unless the memories themselves are mostly
    Chinese and the query has no letters to go by."""
    if has_cjk(query):
        return "zh"
    if not any(c.isalpha() for c in query) and memories:
        zh = sum(has_cjk(m.content) for m in memories)
        return "zh" if zh * 2 >= len(memories) else "en"
    return "en"


def placeholder_only(text: str) -> bool:
    """Is ``text`` nothing but redacted PII and words naming it?"""
    if not _PLACEHOLDER.search(text):
        return False
    rest = _PLACEHOLDER.sub(" ", text)
    return not [t for t in query_terms(rest) if t not in _PII_WORDS]


def _day(t: datetime, tz: tzinfo) -> str:
    return t.astimezone(tz).strftime("%Y-%m-%d")


def _outdated(m: MemoryItem, now: datetime) -> bool:
    return m.valid_to is not None and m.valid_to <= now


def _line(
    m: MemoryItem,
    lang: str,
    tz: tzinfo,
    now: datetime,
    previous: Mapping[str, MemoryItem],
    followed: bool = False,
) -> str:
    """One line; ``followed``: the user said later that this changed (core/newer.py)."""
    w = _WORDS[lang]
    said = _day(m.observed_at, tz)
    if m.kind == MemoryKind.EPISODE:
        who = m.speaker
        who = f"{who}: " if who else ""
        flag = f", {w['outdated']}" if _outdated(m, now) else ""
        flag = flag or (f", {w['changed']}" if followed else "")
        return f"- ({said}{flag}) {who}{m.content}"
    notes: list[str] = []
    old = previous.get(m.supersedes or "")
    if old is not None and old.content != m.content:
        notes.append(f"{w['before']}{old.content}")
    if followed:
        notes.append(w["changed"])
    status = _GOAL_STATUS[lang].get(m.goal_status or "")
    if m.kind == MemoryKind.GOAL and status:
        notes.append(status)
    text = m.content
    if notes:  # one bracket, however many notes: "（以前：…；后来可能已变）"
        text += f"（{'；'.join(notes)}）" if lang == "zh" else f" ({'; '.join(notes)})"
    if m.kind in (MemoryKind.EVENT, MemoryKind.STATE, MemoryKind.GOAL):
        when = m.valid_from if m.kind != MemoryKind.STATE and m.valid_from else None
        if when is not None and _day(when, tz) != said:
            return f"- {text} ({w['on']} {_day(when, tz)}; {w['said']} {said})"
        return f"- {text} ({said})"
    return f"- {text}"


def _worth_showing(m: MemoryItem, covered: set[str], shown: set[str], now: datetime) -> bool:
    if m.kind != MemoryKind.EPISODE:
        return True
    if (m.role or "user") != "user" or is_chitchat(m.content):
        return False
    if placeholder_only(m.content):
        return False
    if _outdated(m, now) and m.superseded_by in shown:
        return False  # the correction is in the block; the old words add only confusion
    return not (set(m.source_message_ids) & covered)


def assemble_context(
    hits: Sequence[SearchHit],
    *,
    query: str,
    token_budget: int,
    now: datetime | None = None,
    tz: tzinfo = UTC,
    previous: Mapping[str, MemoryItem] | None = None,
    tasks: Sequence[TaskState] = (),
    profile: UserProfile | None = None,
) -> ContextBlock:
    """Group hits by kind (groups ordered by their best hit), most relevant first within a
    group, and stop before ``token_budget`` (estimated tokens) is exceeded.

    Args:
        hits: best first; pinned safety facts included.
        now: for outdated labels (default: the newest time seen among the hits).
        tz: the user's timezone, for the dates shown.
        previous: superseded versions by id, to label a corrected fact with its history.
        tasks: the active tasks the query is about, best first; they go first.
        profile: the user's profile; its lines open the block (rule 6).

    With nothing worth showing, returns a cold-start line that tells the model not to invent
    history.
    """
    ref = now or datetime.now(UTC)
    covered = {
        sid
        for h in hits
        if h.memory.kind != MemoryKind.EPISODE
        for sid in h.memory.source_message_ids
    }
    shown = {h.memory.id for h in hits if h.memory.kind != MemoryKind.EPISODE}
    hits = [h for h in hits if _worth_showing(h.memory, covered, shown, ref)]
    lang = pick_language(query, [h.memory for h in hits])
    fixed = estimate_tokens(HEADER[lang]) + estimate_tokens(FOOTER[lang]) + 2
    used = fixed
    task_lines: list[tuple[TaskState, str]] = []
    for t in tasks:  # before the memories: resuming work is what the turn asks for
        line = task_line(t, lang)
        cost = estimate_tokens(line) + 1
        if used + cost + 4 <= token_budget:
            task_lines.append((t, line))
            used += cost
    if task_lines:
        used += estimate_tokens(TASKS_LABEL[lang]) + 3
    # The profile opens the block but is budgeted after the tasks the turn resumes.
    who: list[str] = []
    if profile is not None:
        room = min(PROFILE_MAX_TOKENS, (token_budget - used) // 3)
        who = profile_lines(profile, lang, room - estimate_tokens(PROFILE_LABEL[lang]) - 1)
        if who:
            used += (
                estimate_tokens(PROFILE_LABEL[lang]) + 1 + sum(estimate_tokens(x) + 1 for x in who)
            )
    before = previous or {}
    chosen: list[tuple[SearchHit, str]] = []
    seen_lines: set[str] = set()
    for h in hits:  # hits arrive best first
        line = _line(h.memory, lang, tz, ref, before, bool(h.scores.get("followed")))
        cost = estimate_tokens(line) + 1
        if line in seen_lines:
            continue
        if used + cost + 4 > token_budget:  # 4: a group label line may be needed
            continue
        seen_lines.add(line)
        chosen.append((h, line))
        used += cost
    if not chosen and not task_lines and not who:
        text = COLD[lang]
        return ContextBlock(text=text, memories=[], tokens=estimate_tokens(text))
    order: list[MemoryKind] = []
    groups: dict[MemoryKind, list[str]] = {}
    for h, line in chosen:
        kind = h.memory.kind
        if kind not in groups:
            order.append(kind)
            groups[kind] = []
        groups[kind].append(line)
    parts = [HEADER[lang]]
    if who:
        parts.append(f"[{PROFILE_LABEL[lang]}]")
        parts.extend(who)
    if task_lines:
        parts.append(f"[{TASKS_LABEL[lang]}]")
        parts.extend(line for _, line in task_lines)
    for kind in order:
        parts.append(f"[{LABELS[lang][kind]}]")
        parts.extend(groups[kind])
    parts.append(FOOTER[lang])
    text = "\n".join(parts)
    return ContextBlock(
        text=text,
        memories=[h.memory for h, _ in chosen],
        tasks=[t for t, _ in task_lines],
        tokens=estimate_tokens(text),
    )
