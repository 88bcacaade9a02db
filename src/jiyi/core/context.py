"""Assemble the natural-language memory block an agent puts in its system prompt."""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.core.extraction.segment import is_chitchat
from jiyi.core.models import ContextBlock, MemoryItem, MemoryKind, SearchHit
from jiyi.core.text import estimate_tokens, has_cjk

LABELS = {
    "zh": {
        MemoryKind.PREFERENCE: "偏好",
        MemoryKind.FACT: "事实",
        MemoryKind.EVENT: "事件",
        MemoryKind.GOAL: "目标",
        MemoryKind.STATE: "近况",
        MemoryKind.SUMMARY: "总结",
        MemoryKind.EPISODE: "对话",
    },
    "en": {
        MemoryKind.PREFERENCE: "Preference",
        MemoryKind.FACT: "Fact",
        MemoryKind.EVENT: "Event",
        MemoryKind.GOAL: "Goal",
        MemoryKind.STATE: "State",
        MemoryKind.SUMMARY: "Summary",
        MemoryKind.EPISODE: "Conversation",
    },
}
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


def pick_language(query: str, memories: Sequence[MemoryItem]) -> str:
    """zh if the query is Chinese, else en — unless the memories themselves are mostly
    Chinese and the query has no letters to go by."""
    if has_cjk(query):
        return "zh"
    if not any(c.isalpha() for c in query) and memories:
        zh = sum(has_cjk(m.content) for m in memories)
        return "zh" if zh * 2 >= len(memories) else "en"
    return "en"


def _line(m: MemoryItem, lang: str) -> str:
    when = m.observed_at.strftime("%Y-%m-%d")
    if m.kind == MemoryKind.EPISODE:
        who = m.metadata.get("name") or m.metadata.get("role") or ""
        who = f"{who}: " if who else ""
        return f"- ({when}) {who}{m.content}"
    if m.kind in (MemoryKind.EVENT, MemoryKind.STATE, MemoryKind.GOAL):
        return f"- {m.content} ({when})"
    return f"- {m.content}"


def _worth_showing(m: MemoryItem, covered: set[str]) -> bool:
    """Episodes earn a line only when they add something: not small talk, not system text,
    and not a message whose extracted memories are already in the block."""
    if m.kind != MemoryKind.EPISODE:
        return True
    if m.metadata.get("role") == "system" or is_chitchat(m.content):
        return False
    return not (set(m.source_message_ids) & covered)


def assemble_context(hits: Sequence[SearchHit], *, query: str, token_budget: int) -> ContextBlock:
    """Group hits by kind (groups ordered by their best hit), most relevant first within a
    group, and stop before ``token_budget`` (estimated tokens) is exceeded.

    With no hits, returns a cold-start line that tells the model not to invent history.
    """
    covered = {
        sid
        for h in hits
        if h.memory.kind != MemoryKind.EPISODE
        for sid in h.memory.source_message_ids
    }
    hits = [h for h in hits if _worth_showing(h.memory, covered)]
    lang = pick_language(query, [h.memory for h in hits])
    if not hits:
        text = COLD[lang]
        return ContextBlock(text=text, memories=[], tokens=estimate_tokens(text))
    fixed = estimate_tokens(HEADER[lang]) + estimate_tokens(FOOTER[lang]) + 2
    used = fixed
    chosen: list[SearchHit] = []
    seen_lines: set[str] = set()
    for h in hits:  # hits arrive best first
        line = _line(h.memory, lang)
        cost = estimate_tokens(line) + 1
        if line in seen_lines:
            continue
        if used + cost + 4 > token_budget:  # 4: a group label line may be needed
            continue
        seen_lines.add(line)
        chosen.append(h)
        used += cost
    if not chosen:
        text = COLD[lang]
        return ContextBlock(text=text, memories=[], tokens=estimate_tokens(text))
    order: list[MemoryKind] = []
    groups: dict[MemoryKind, list[str]] = {}
    for h in chosen:
        kind = h.memory.kind
        if kind not in groups:
            order.append(kind)
            groups[kind] = []
        groups[kind].append(_line(h.memory, lang))
    parts = [HEADER[lang]]
    for kind in order:
        parts.append(f"[{LABELS[lang][kind]}]")
        parts.extend(groups[kind])
    parts.append(FOOTER[lang])
    text = "\n".join(parts)
    return ContextBlock(
        text=text, memories=[h.memory for h in chosen], tokens=estimate_tokens(text)
    )
