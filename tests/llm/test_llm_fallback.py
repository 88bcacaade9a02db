"""Invalid JSON, a timeout, an HTTP error or a dead endpoint → rule fallback, nothing lost.

These run against deliberately broken servers started in-process (see conftest), never
against mocked responses on the happy path.
"""

from __future__ import annotations

from typing import Any

import pytest

from jiyi.errors import ExtractionError
from jiyi.llm import ChatClient, LLMExtractor, UsageMeter

SAID = [
    {"role": "assistant", "content": "有什么需要注意的饮食禁忌吗？"},
    {"role": "user", "content": "我对花生过敏，以后别推荐带花生的菜"},
]


def assert_nothing_lost(mem: Any, result: Any) -> None:
    # Both messages are kept as episodes, and the rules found the allergy.
    assert [e.role for e in result.episodes] == ["assistant", "user"]
    stored = mem.list(user_id="u1")
    assert any("花生" in m.content and m.topic.startswith("health.allergy") for m in stored)
    assert all(m.metadata.get("extractor") != "llm" for m in stored)


@pytest.mark.parametrize("broken_server", ["malformed"], indirect=True)
def test_invalid_json_gets_one_repair_then_the_rules(broken_server: Any, llm_mem: Any) -> None:
    meter = UsageMeter()
    client = ChatClient(broken_server.base_url, "m", timeout=5, tenant="acme", meter=meter)
    ext = LLMExtractor(client)
    mem = llm_mem(ext)
    result = mem.add(SAID, user_id="u1")
    assert_nothing_lost(mem, result)
    stats = ext.stats
    assert (stats.calls, stats.repairs, stats.fallbacks) == (2, 1, 1)
    # The repair call carried the bad output and the validation error back to the model.
    repair = broken_server.requests[1]["messages"]
    assert repair[-2]["role"] == "assistant" and repair[-2]["content"].startswith('{"memories"')
    assert "无效" in repair[-1]["content"]
    # Tokens are metered per tenant even for calls whose output was useless.
    usage = meter.snapshot()["acme"]
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (2, 642, 24)


@pytest.mark.parametrize("broken_server", ["sleep"], indirect=True)
def test_timeout_falls_back_to_rules(broken_server: Any, llm_mem: Any) -> None:
    ext = LLMExtractor(ChatClient(broken_server.base_url, "m", timeout=0.5))
    mem = llm_mem(ext)
    result = mem.add(SAID, user_id="u1")
    assert_nothing_lost(mem, result)
    assert (ext.stats.calls, ext.stats.fallbacks) == (1, 1)


def test_dead_endpoint_falls_back_to_rules(dead_url: str, llm_mem: Any) -> None:
    ext = LLMExtractor(ChatClient(dead_url, "m", timeout=2))
    mem = llm_mem(ext)
    result = mem.add(SAID, user_id="u1")
    assert_nothing_lost(mem, result)
    assert ext.stats.fallbacks == 1


@pytest.mark.parametrize("broken_server", ["http500"], indirect=True)
def test_http_errors_fall_back_after_retrying_without_the_schema(
    broken_server: Any, llm_mem: Any
) -> None:
    ext = LLMExtractor(ChatClient(broken_server.base_url, "m", timeout=5))
    mem = llm_mem(ext)
    assert_nothing_lost(mem, mem.add(SAID, user_id="u1"))
    formats = [r["response_format"] for r in broken_server.requests]
    assert "schema" in formats[0] and formats[1] == {"type": "json_object"}


@pytest.mark.parametrize("broken_server", ["schema500"], indirect=True)
def test_a_server_refusing_the_schema_key_is_used_without_it(broken_server: Any) -> None:
    client = ChatClient(broken_server.base_url, "m", timeout=5)
    ext = LLMExtractor(client, backfill=False)
    from datetime import UTC, datetime

    from jiyi.core.models import Message

    now = datetime(2026, 1, 1, tzinfo=UTC)
    for text in ("我喜欢爬山", "我住在成都"):
        out = ext.extract([Message(role="user", content=text, id="m")], now=now)
        assert out.skipped[0].reason == "no_personal_info"
    # Learned once: the second batch went straight to plain JSON mode.
    assert [("schema" in r["response_format"]) for r in broken_server.requests] == [
        True,
        False,
        False,
    ]
    assert ext.stats.fallbacks == 0


@pytest.mark.parametrize("broken_server", ["schema500"], indirect=True)
def test_turns_the_llm_leaves_empty_are_backfilled_by_the_rules(broken_server: Any) -> None:
    from datetime import UTC, datetime

    from jiyi.core.models import Message

    ext = LLMExtractor(ChatClient(broken_server.base_url, "m", timeout=5))
    out = ext.extract(
        [Message(role="user", content="我喜欢爬山", id="m1")], now=datetime(2026, 1, 1, tzinfo=UTC)
    )
    assert [c.topic for c in out.candidates] == ["pref.爬山"] and ext.stats.backfilled == 1


def test_without_fallback_the_extractor_raises_and_ingest_falls_back(
    dead_url: str, llm_mem: Any
) -> None:
    ext = LLMExtractor.without_fallback(ChatClient(dead_url, "m", timeout=2))
    from datetime import UTC, datetime

    from jiyi.core.models import Message

    with pytest.raises(ExtractionError) as info:
        ext.extract([Message(role="user", content="我住在成都")], now=datetime.now(UTC))
    assert "JIYI_LLM_BASE_URL" in info.value.message and info.value.__cause__ is not None
    mem = llm_mem(ext)
    assert_nothing_lost(mem, mem.add(SAID, user_id="u1"))


def test_trivial_turns_never_reach_the_llm(dead_url: str, llm_mem: Any) -> None:
    ext = LLMExtractor(ChatClient(dead_url, "m", timeout=2))
    mem = llm_mem(ext)
    result = mem.add(
        [
            {"role": "user", "content": "哈哈哈"},
            {"role": "assistant", "content": "有什么可以帮你？"},
            {"role": "user", "content": "好的谢谢"},
            {"role": "user", "content": "推荐个餐厅？"},
        ],
        user_id="u1",
    )
    assert ext.stats.calls == 0 and ext.stats.trivial == 3
    assert len(result.episodes) == 4 and result.events == []
    assert sorted(s.reason for s in result.skipped) == [
        "assistant_text",
        "chit_chat",
        "chit_chat",
        "question",
    ]


def test_rules_first_sends_only_what_the_rules_cannot_place(dead_url: str) -> None:
    from datetime import UTC, datetime

    from jiyi.core.models import Message

    ext = LLMExtractor(ChatClient(dead_url, "m", timeout=2), rules_first=True)
    out = ext.extract(
        [Message(role="user", content="我对花生过敏", id="m1")], now=datetime.now(UTC)
    )
    assert ext.stats.calls == 0 and out.candidates[0].topic == "health.allergy.花生"
