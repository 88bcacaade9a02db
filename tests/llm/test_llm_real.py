"""The LLM path against a REAL local model (Qwen2.5-Coder-0.5B-Instruct via llama.cpp).

No mocked responses here. A 0.5B model is weak, so each test asserts the outcome the
system guarantees whichever path ran — a grounded LLM memory, or the rule fallback after
invalid output — and records the path taken. About 8 small calls in all.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from jiyi.llm import ChatClient, LLMExtractor, consolidate

pytestmark = pytest.mark.llm
log = logging.getLogger(__name__)


def path(ext: LLMExtractor) -> str:
    s = ext.stats
    taken = "rules-fallback" if s.fallbacks else "llm"
    print(
        f"\npath={taken} calls={s.calls} repairs={s.repairs} kept={s.kept} junk={s.junk} "
        f"prompt_tokens={s.prompt_tokens} completion_tokens={s.completion_tokens}"
    )
    return taken


def test_a_clear_allergy_is_remembered(llm_client: ChatClient, llm_mem: Any) -> None:
    ext = LLMExtractor(llm_client)
    mem = llm_mem(ext)
    result = mem.add("我对花生过敏", user_id="u1")
    taken = path(ext)
    assert len(result.episodes) == 1
    (allergy,) = [m for m in mem.list(user_id="u1") if "花生" in m.content]
    assert allergy.quote and "花生" in allergy.quote
    assert allergy.importance >= 0.7 and allergy.source_message_ids == [
        result.episodes[0].source_message_ids[0]
    ]
    if taken == "llm":
        assert allergy.metadata["extractor"] == "llm" and allergy.topic == "health.allergy.花生"
    # The prompt stays small: instructions + the turn, well under 700 tokens per call.
    assert 0 < ext.stats.prompt_tokens <= 700 * ext.stats.calls


def test_english_work_facts(llm_client: ChatClient, llm_mem: Any) -> None:
    ext = LLMExtractor(llm_client)
    mem = llm_mem(ext)
    mem.add("I work at Microsoft as a data scientist", user_id="u1")
    path(ext)
    stored = mem.list(user_id="u1")
    assert any("Microsoft" in m.content for m in stored)
    assert all(
        m.quote and m.quote.lower() in "i work at microsoft as a data scientist" for m in stored
    )


def test_assistant_and_system_text_never_become_memories(
    llm_client: ChatClient, llm_mem: Any
) -> None:
    ext = LLMExtractor(llm_client)
    mem = llm_mem(ext)
    result = mem.add(
        [
            {"role": "system", "content": "The user is a VIP who loves whisky."},
            {"role": "assistant", "content": "你是不是对虾过敏？"},
            {"role": "user", "content": "我喜欢喝冷萃咖啡"},
        ],
        user_id="u1",
    )
    path(ext)
    assert len(result.episodes) == 3
    stored = mem.list(user_id="u1")
    assert not any(w in m.content.lower() for m in stored for w in ("虾", "whisky", "vip"))
    assert all(m.quote and m.quote in "我喜欢喝冷萃咖啡" for m in stored)
    # Every proposal was either kept (grounded in the user turn) or counted as junk.
    s = ext.stats
    assert s.kept + s.junk == s.proposed


def test_token_usage_is_metered_per_tenant(llm_client: ChatClient) -> None:
    before = llm_client.meter.snapshot().get("llm-tier")
    _text, usage = llm_client.chat(
        [{"role": "user", "content": 'Reply with {"ok": true}'}],
        {"type": "json_object"},
        max_tokens=20,
    )
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
    after = llm_client.meter.snapshot()["llm-tier"]
    assert after.calls == (before.calls if before else 0) + 1


def test_reflection_by_the_real_model_cites_its_sources(
    llm_client: ChatClient, llm_mem: Any
) -> None:
    mem = llm_mem(None)  # rules write the memories; the LLM only reflects
    mem.add("我对花生过敏。我喜欢爬山。我在学日语", user_id="u1")
    ids = {m.id for m in mem.list(user_id="u1")}
    assert len(ids) >= 2
    result = consolidate(mem, "u1", client=llm_client)
    print(f"\nreflection llm_used={result.llm_used}: {[r.content for r in result.reflections]}")
    assert result.reflections
    for r in result.reflections:
        assert r.derived is True and set(r.sources) <= ids
