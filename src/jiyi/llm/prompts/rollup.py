"""The weekly roll-up prompt: one sentence saying what a week of the user's events was about.

The caller keeps the citations (every item of the week) and checks the sentence shares a word
with them (:func:`jiyi.llm.rollup.summarize_with`); the rule text is the fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from jiyi.llm.prompts.extract import Lang, _inline_refs

__all__ = ["Lang", "RollupResponse", "build_messages", "response_format"]


class RollupResponse(BaseModel):
    """The whole reply."""

    summary: str = Field(
        description="one short sentence in the user's language saying what the week was "
        "mostly about, e.g. 这周在准备搬家 / This week: preparing the move"
    )


_INSTRUCTIONS: dict[Lang, str] = {
    "zh": "\n".join(
        (
            "下面是用户在 {monday} 开始的这一周里的编号记录。",
            '用一句简短的中文总结这周主要在忙什么，以"这周"开头，只根据记录，不要编造。',
            '只输出 JSON。示例：{{"summary":"这周在准备搬家"}}',
        )
    ),
    "en": "\n".join(
        (
            "Below are numbered notes about the user's week starting {monday}.",
            'Write one short sentence saying what the week was mostly about, starting "This '
            'week", using only the notes. Output JSON only.',
            'Example: {{"summary":"This week: preparing the move"}}',
        )
    ),
}


def build_messages(items: Sequence[str], lang: Lang, monday: date) -> list[dict[str, str]]:
    """Chat messages for one roll-up call over the week's ``items`` (numbered from 1)."""
    body = "\n".join(f"[{i}] {' '.join(t.split())[:200]}" for i, t in enumerate(items, 1))
    return [
        {"role": "system", "content": _INSTRUCTIONS[lang].format(monday=monday.isoformat())},
        {"role": "user", "content": body},
    ]


def response_format() -> dict[str, Any]:
    """JSON mode plus the inlined schema of :class:`RollupResponse`."""
    raw = RollupResponse.model_json_schema()
    schema: dict[str, Any] = _inline_refs(raw, raw.get("$defs", {}))
    schema["required"] = ["summary"]
    return {"type": "json_object", "schema": schema}
