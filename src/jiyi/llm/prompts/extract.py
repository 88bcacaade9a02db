"""The extraction prompt: what to remember from a batch of turns, in one call.

The response schema sits beside the function that builds the messages, so a change to one
shows up next to the other in a diff. The prompt is written for small models (a 0.5B Qwen
passes the tests): short imperative rules, one worked example, JSON only. Instructions plus
the example stay under :data:`INSTRUCTION_BUDGET` tokens in both languages (tested).

One call yields both what to store (``memories``, ``forget``) and what to look up for the
latest turn (``queries``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from jiyi.core.text import estimate_tokens

__all__ = [
    "INSTRUCTION_BUDGET",
    "ExtractedForget",
    "ExtractedMemory",
    "ExtractionResponse",
    "Lang",
    "Turn",
    "build_messages",
    "build_repair_messages",
    "instruction_tokens",
    "instructions",
    "render_turns",
    "response_format",
    "response_schema",
]

INSTRUCTION_BUDGET = 600  # tokens of instructions + example, besides the turns themselves

Lang = Literal["zh", "en"]
LlmKind = Literal["fact", "preference", "event", "goal", "state"]


class ExtractedMemory(BaseModel):
    """One thing worth remembering about the user."""

    kind: LlmKind = Field(
        description="fact (stable: identity, family, health), preference (likes/dislikes), "
        "event (something that happened or will happen), goal (what the user wants to "
        "achieve), state (temporary condition)"
    )
    topic: str = Field(
        description="area.detail, area one of identity location work family pet health diet "
        "pref goal plan habit state event; e.g. health.allergy, location.home"
    )
    content: str = Field(
        description='one short third-person sentence in the user\'s language: "用户…" / "User …"'
    )
    importance: float = Field(description="0..1: how much forgetting it would hurt the user")
    confidence: float = Field(description="0..1: how sure the user sounded")
    quote: str = Field(description="the user's exact words supporting it, copied verbatim")
    correction: bool = Field(
        False, description="true when the user corrects something said earlier"
    )


class ExtractedForget(BaseModel):
    """A request by the user to forget something."""

    quote: str = Field(description="the user's exact words asking to forget, copied verbatim")
    target: str = Field("", description="what to forget, empty for 'the last thing I said'")


class ExtractionResponse(BaseModel):
    """The whole reply of the extraction prompt."""

    memories: list[ExtractedMemory] = Field(
        default_factory=list, description="memories about the user; [] when there are none"
    )
    forget: list[ExtractedForget] = Field(
        default_factory=list, description="forget requests; [] when there are none"
    )
    queries: list[str] = Field(
        default_factory=list,
        description="search queries for answering the latest user turn; [] if none needed",
    )


class Turn(BaseModel):
    """One message as shown to the model: ``[n] role: text``."""

    n: int
    role: Literal["user", "assistant"]
    text: str


def _example(lang: Lang) -> str:
    """The worked example, built from the schema so it always validates."""
    if lang == "zh":
        said = "[1] user: 我叫李娜，对猫毛过敏，推荐个宠物？"
        name = ("用户叫李娜", "我叫李娜")
        allergy = ("用户对猫毛过敏", "对猫毛过敏")
        query = "宠物 过敏"
    else:
        said = "[1] user: I'm Lina and I'm allergic to cat hair. Any pet ideas?"
        name = ("User's name is Lina", "I'm Lina")
        allergy = ("User is allergic to cat hair", "allergic to cat hair")
        query = "pet allergy"
    reply = ExtractionResponse(
        memories=[
            ExtractedMemory(
                kind="fact",
                topic="identity.name",
                content=name[0],
                importance=0.6,
                confidence=0.9,
                quote=name[1],
            ),
            ExtractedMemory(
                kind="fact",
                topic="health.allergy",
                content=allergy[0],
                importance=0.9,
                confidence=0.9,
                quote=allergy[1],
            ),
        ],
        queries=[query],
    )
    return f"{said}\n{reply.model_dump_json()}"


_AREAS = "identity location work family pet health diet pref goal plan habit state event"
_RULES: dict[Lang, tuple[str, ...]] = {
    "zh": (
        "你从对话中提取关于用户的长期记忆。规则：",
        "1. 只记用户自己说的关于本人或家人、宠物的信息："
        "身份、住址、工作、家庭、健康、饮食、喜好、目标、计划、习惯、状态。",
        "2. 不记：提问、请求、寒暄、助手说的话、别人的事。",
        '3. content：一句简短的第三人称中文，以"用户"开头。',
        "4. quote：从用户消息中原样复制支持这条记忆的文字，不改一个字。",
        "5. kind 只能是 fact / preference / event / goal / state。",
        f"6. topic 写成 领域.细节，领域为 {_AREAS} 之一。",
        "7. 用户纠正之前的说法时 correction 为 true。",
        "8. 用户要求忘掉或删除某事时写入 forget，不写 memories。",
        "9. queries：回答最后一条用户消息需要查的记忆，没有就写 []。",
        "只输出 JSON。",
        "示例：",
    ),
    "en": (
        "You extract long-term memories about the user from a chat. Rules:",
        "1. Only what the user says about themselves, their family or pets: identity, home, "
        "work, family, health, diet, likes and dislikes, goals, plans, habits, states.",
        "2. Never: questions, requests, small talk, what the assistant says, other people's lives.",
        '3. content: one short third-person sentence in English starting with "User".',
        "4. quote: copy the user's exact words that support the memory, unchanged.",
        "5. kind is one of fact / preference / event / goal / state.",
        f"6. topic is area.detail, area one of {_AREAS}.",
        "7. correction is true when the user corrects something said before.",
        "8. When the user asks to forget or delete something, put it in forget, not memories.",
        "9. queries: what to look up to answer the latest user message, [] if nothing.",
        "Output JSON only.",
        "Example:",
    ),
}


def instructions(lang: Lang) -> str:
    """The system message: rules, then the worked example."""
    return "\n".join((*_RULES[lang], _example(lang)))


_REPAIR: dict[Lang, str] = {
    "zh": "你上面的输出无效：{error}\n请只输出修正后的完整 JSON，字段与示例相同。",
    "en": "Your output above is invalid: {error}\nReply with the corrected, complete JSON "
    "only, with the same fields as the example.",
}


def instruction_tokens(lang: Lang) -> int:
    """Estimated tokens of the instructions and example (the fixed part of every call)."""
    return estimate_tokens(instructions(lang))


def render_turns(turns: Sequence[Turn]) -> str:
    """The batch as the model sees it: one ``[n] role: text`` line per turn."""
    return "\n".join(f"[{t.n}] {t.role}: {' '.join(t.text.split())}" for t in turns)


def build_messages(turns: Sequence[Turn], lang: Lang) -> list[dict[str, str]]:
    """The chat messages for one extraction call.

    Args:
        turns: the batch, already redacted and filtered (user turns, plus assistant turns
            for context).
        lang: ``zh`` when the user writes Chinese, else ``en``.
    """
    return [
        {"role": "system", "content": instructions(lang)},
        {"role": "user", "content": render_turns(turns)},
    ]


def build_repair_messages(
    turns: Sequence[Turn], lang: Lang, bad_output: str, error: str
) -> list[dict[str, str]]:
    """The one repair call: the original request, the invalid reply, what was wrong."""
    return [
        *build_messages(turns, lang),
        {"role": "assistant", "content": bad_output[:2000]},
        {"role": "user", "content": _REPAIR[lang].format(error=error[:300])},
    ]


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """Resolve ``$ref``s and drop titles/descriptions/defaults: a small schema makes a small
    grammar, and some servers' converters do not follow ``$ref``."""
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline_refs(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {
            k: _inline_refs(v, defs)
            for k, v in node.items()
            if k not in ("title", "description", "default", "$defs")
        }
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def response_schema() -> dict[str, Any]:
    """The JSON schema of :class:`ExtractionResponse`, inlined, every field required."""
    raw = ExtractionResponse.model_json_schema()
    schema: dict[str, Any] = _inline_refs(raw, raw.get("$defs", {}))

    def require_all(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["required"] = list(node["properties"])
            for v in node.values():
                require_all(v)
        elif isinstance(node, list):
            for v in node:
                require_all(v)

    require_all(schema)
    return schema


def response_format() -> dict[str, Any]:
    """``response_format`` for the call: JSON mode plus the schema (llama.cpp constrains
    generation with it; servers that refuse the key are retried without it)."""
    return {"type": "json_object", "schema": response_schema()}


def schema_summary() -> str:
    """A compact JSON rendering of the schema (for docs and debugging)."""
    return json.dumps(response_schema(), ensure_ascii=False, separators=(",", ":"))
