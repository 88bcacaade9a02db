"""The weekly roll-up and the profile reflection by an LLM: the makers
:mod:`jiyi.pipeline.maintain` uses when the tenant's extractor is an LLM one
(:meth:`jiyi.llm.LLMExtractor.makers`)."""

from __future__ import annotations

from datetime import date
from functools import partial

from pydantic import ValidationError

from jiyi.core.models import MemoryItem
from jiyi.core.text import query_terms
from jiyi.errors import ExtractionError
from jiyi.llm.client import ChatClient
from jiyi.llm.prompts import rollup
from jiyi.llm.reflect import reflect_with
from jiyi.pipeline.maintain import StepOptions

__all__ = ["makers", "summarize_with"]

MAX_CHARS = 120  # one sentence; a longer reply is rambling, not a summary


def summarize_with(client: ChatClient, items: list[MemoryItem], lang: str, monday: date) -> str:
    """One sentence on what the week of ``items`` was about, by the LLM.

    Raises:
        ExtractionError: the reply is not the JSON asked for, is empty or too long, or shares
            no word with the items (a sentence not grounded in them is not kept).
    """
    text, _ = client.chat(
        rollup.build_messages([m.content for m in items], "zh" if lang == "zh" else "en", monday),
        rollup.response_format(),
        max_tokens=80,
    )
    try:
        reply = rollup.RollupResponse.model_validate_json(text)
    except ValidationError as exc:
        raise ExtractionError("roll-up reply is not valid JSON") from exc
    summary = " ".join(reply.summary.split())
    if not summary or len(summary) > MAX_CHARS:
        raise ExtractionError("roll-up reply is empty or too long")
    said = {t for m in items for t in query_terms(m.content)}
    if not any(t in said or any(t in s for s in said) for t in query_terms(summary)):
        raise ExtractionError("roll-up reply shares no word with the week's items")
    return summary


def makers(client: ChatClient) -> StepOptions:
    """The reflection and roll-up makers on ``client`` (each falls back to the rules when
    the model fails)."""
    return StepOptions(
        reflect=partial(reflect_with, client), summarize=partial(summarize_with, client)
    )
