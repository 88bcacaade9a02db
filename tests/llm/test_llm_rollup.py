"""The weekly roll-up and the reflection by an LLM, when the tenant's extractor is one: the
real local model writes a grounded sentence; a broken endpoint falls back to the rule text
and nothing is lost."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.errors import ExtractionError
from jiyi.llm import ChatClient, LLMExtractor
from jiyi.llm.prompts import rollup
from jiyi.llm.rollup import summarize_with

WEEK = ["我今天联系了搬家公司", "今天在打包行李，准备搬家", "明天要去新家看看，搬家好累"]


def add_week(mem: Any, clock: Any) -> None:
    for text in WEEK:
        mem.add(text, user_id="u1")
        clock.advance(days=1)


def rollup_text(mem: Any) -> str:
    (week,) = [m for m in mem.list(user_id="u1") if (m.topic or "").startswith("rollup.")]
    return str(week.content)


def test_the_prompt_numbers_the_items_and_names_the_week() -> None:
    msgs = rollup.build_messages(["用户联系了搬家公司", "用户在打包"], "zh", date(2026, 11, 23))
    assert "2026-11-23" in msgs[0]["content"] and "这周" in msgs[0]["content"]
    assert msgs[1]["content"] == "[1] 用户联系了搬家公司\n[2] 用户在打包"
    fmt = rollup.response_format()
    assert fmt["type"] == "json_object" and fmt["schema"]["required"] == ["summary"]


@pytest.mark.parametrize("broken_server", ["malformed"], indirect=True)
def test_a_broken_model_falls_back_to_the_rule_text(
    broken_server: Any, llm_mem: Any, clock: Any
) -> None:
    client = ChatClient(broken_server.base_url, "m", timeout=5, tenant="acme")
    mem = llm_mem(LLMExtractor(client))
    add_week(mem, clock)
    before = len(broken_server.requests)
    report = mem.maintain("u1", steps="rollup,reflect")
    assert report.rolled_up == 1 and report.reflected == 1
    assert len(broken_server.requests) > before  # the model was asked …
    assert rollup_text(mem).startswith("这周（")  # … and the rules answered
    client.close()


@pytest.mark.llm
def test_the_real_model_sums_up_the_week(llm_client: ChatClient, clock: Any) -> None:
    items = [
        MemoryItem(
            id=str(i),
            user_id="u1",
            kind=MemoryKind.EVENT,
            content=f"用户{text}",
            created_at=clock.now + timedelta(days=i),
            observed_at=clock.now + timedelta(days=i),
        )
        for i, text in enumerate(WEEK)
    ]
    try:
        summary = summarize_with(llm_client, items, "zh", date(2026, 11, 23))
    except ExtractionError as exc:  # the 0.5B model may wander: then the rules answer
        pytest.xfail(f"the small model's summary was refused: {exc.message}")
    assert 0 < len(summary) <= 120 and ("搬" in summary or "家" in summary), summary
