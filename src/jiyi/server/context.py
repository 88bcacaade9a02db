"""Context for a turn: long-term memories plus the live session window, one prompt block.

The session window goes last (it is the most recent thing the model should read) and is
budgeted first, so recent turns are never crowded out by older memories: it may take up
to half of the budget, newest messages kept when it must be cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.core.context import pick_language
from jiyi.core.models import ContextBlock
from jiyi.core.text import estimate_tokens, has_cjk
from jiyi.sessions.base import SessionMessage

WINDOW_HEADER = {"zh": "本次对话最近的消息：", "en": "Recent messages in this conversation:"}
MIN_MEMORY_BUDGET = 50  # Memory.context refuses smaller budgets


def window_lines(messages: Sequence[SessionMessage], budget: int) -> list[str]:
    """Newest messages that fit ``budget`` tokens, oldest first."""
    lines: list[str] = []
    used = 0
    for m in reversed(messages):
        line = f"{m.name or m.role}: {m.content}"
        cost = estimate_tokens(line) + 1
        if used + cost > budget:
            break
        lines.append(line)
        used += cost
    return lines[::-1]


def session_budget(
    messages: Sequence[SessionMessage], query: str, token_budget: int
) -> tuple[list[str], str, int]:
    """(window lines, language, tokens they take) for the session part of a context."""
    if not messages:
        return [], "zh" if has_cjk(query) else "en", 0
    lang = (
        "zh"
        if has_cjk(query) or any(has_cjk(m.content) for m in messages[-3:])
        else pick_language(query, [])
    )
    header_cost = estimate_tokens(WINDOW_HEADER[lang]) + 1
    cap = max(0, min(token_budget // 2, token_budget - MIN_MEMORY_BUDGET) - header_cost)
    lines = window_lines(messages, cap)
    used = header_cost + sum(estimate_tokens(s) + 1 for s in lines) if lines else 0
    return lines, lang, used


def combine(block: ContextBlock, lines: Sequence[str], lang: str) -> tuple[str, int]:
    """The final text and its token estimate."""
    if not lines:
        return block.text, block.tokens
    text = block.text + "\n\n" + WINDOW_HEADER[lang] + "\n" + "\n".join(lines)
    return text, estimate_tokens(text)
