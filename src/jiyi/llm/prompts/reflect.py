"""The reflection prompt: a few derived ``summary`` memories over what is stored.

Each reflection must cite the numbered items it rests on; the caller drops any that cite
nothing valid, so a reflection can always be traced to (and deleted with) its sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from jiyi.llm.prompts.extract import Lang, _inline_refs

__all__ = ["Lang", "Reflection", "ReflectionResponse", "build_messages", "response_format"]

Aspect = Literal["cares_most", "advice_worked", "refused"]


class Reflection(BaseModel):
    """One derived observation about the user."""

    aspect: Aspect = Field(
        description="cares_most: what matters most to the user; advice_worked: advice the "
        "user accepted or liked; refused: what the user declined or disliked"
    )
    content: str = Field(description="one short third-person sentence in the user's language")
    sources: list[int] = Field(description="numbers of the items it is based on")


class ReflectionResponse(BaseModel):
    """The whole reply: at most one reflection per aspect."""

    reflections: list[Reflection] = Field(default_factory=list)


_INSTRUCTIONS: dict[Lang, str] = {
    "zh": "\n".join(
        (
            "下面是关于用户的编号记录。写出最多 3 条总结，每个 aspect 最多一条：",
            "cares_most：用户最在意什么；advice_worked：用户接受或喜欢的建议；"
            "refused：用户拒绝或不喜欢的东西。",
            'content 是一句以"用户"开头的中文；sources 写所依据记录的编号。没有依据就不写。'
            "只输出 JSON。",
            '示例：{"reflections":[{"aspect":"cares_most","content":"用户最在意健康饮食",'
            '"sources":[1,3]}]}',
        )
    ),
    "en": "\n".join(
        (
            "Below are numbered notes about the user. Write at most 3 reflections, one per aspect:",
            "cares_most: what matters most to the user; advice_worked: advice the user "
            "accepted or liked; refused: what the user declined or disliked.",
            'content is one sentence starting with "User"; sources are the numbers of the '
            "notes it rests on. No support, no reflection. Output JSON only.",
            'Example: {"reflections":[{"aspect":"cares_most",'
            '"content":"User cares most about eating healthily","sources":[1,3]}]}',
        )
    ),
}


def build_messages(items: Sequence[str], lang: Lang) -> list[dict[str, str]]:
    """Chat messages for one reflection call over numbered ``items`` (1-based)."""
    body = "\n".join(f"[{i}] {' '.join(t.split())[:200]}" for i, t in enumerate(items, 1))
    return [
        {"role": "system", "content": _INSTRUCTIONS[lang]},
        {"role": "user", "content": body},
    ]


def response_format() -> dict[str, Any]:
    """JSON mode plus the inlined schema of :class:`ReflectionResponse`."""
    raw = ReflectionResponse.model_json_schema()
    schema: dict[str, Any] = _inline_refs(raw, raw.get("$defs", {}))
    schema["required"] = ["reflections"]
    schema["properties"]["reflections"]["items"]["required"] = ["aspect", "content", "sources"]
    return {"type": "json_object", "schema": schema}
