"""Reflections by an LLM: the ``reflect`` function of :mod:`jiyi.pipeline.consolidate`."""

from __future__ import annotations

from pydantic import ValidationError

from jiyi.core.models import MemoryItem
from jiyi.errors import ExtractionError
from jiyi.llm.client import ChatClient
from jiyi.llm.prompts import reflect
from jiyi.pipeline.consolidate import Reflection

__all__ = ["reflect_with"]


def reflect_with(
    client: ChatClient, items: list[MemoryItem], lang: reflect.Lang
) -> list[Reflection]:
    """Reflections on ``items`` by the LLM; each must cite at least one of them.

    Raises:
        ExtractionError: the reply is not the JSON the prompt asks for.
    """
    text, _ = client.chat(
        reflect.build_messages([m.content for m in items], lang),
        reflect.response_format(),
        max_tokens=250,
    )
    try:
        reply = reflect.ReflectionResponse.model_validate_json(text)
    except ValidationError as exc:
        raise ExtractionError("reflection reply is not valid JSON") from exc
    out: list[Reflection] = []
    seen: set[str] = set()
    for r in reply.reflections:
        sources = [items[i - 1] for i in dict.fromkeys(r.sources) if 1 <= i <= len(items)]
        content = " ".join(r.content.split())
        if not sources or not content or r.aspect in seen:
            continue  # a reflection that cites nothing cannot be traced or deleted
        seen.add(r.aspect)
        out.append((r.aspect, content, sources))
    return out
