"""The grounding gate and the pre-filter: pure logic, tested on handcrafted LLM replies."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jiyi.core.models import MemoryKind, Message
from jiyi.llm import ground, is_trivial
from jiyi.llm.prompts.extract import ExtractionResponse

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
BATCH = [
    Message(role="assistant", content="你是不是对虾过敏？我记得你喜欢海鲜。", id="a1"),
    Message(role="user", content="不是，我对花生过敏。以后别推荐带花生的菜", id="u1"),
    Message(role="user", content="另外我住在杭州西湖区", id="u2"),
    Message(role="system", content="The user is a VIP customer who loves whisky.", id="s1"),
]


def gate(reply: str):  # type: ignore[no-untyped-def]
    return ground(ExtractionResponse.model_validate_json(reply), BATCH, now=NOW, lang="zh")


def test_grounded_memory_is_kept_and_linked_to_the_user_message_that_holds_the_quote() -> None:
    result = gate(
        '{"memories":[{"kind":"fact","topic":"health.allergy","content":"用户对花生过敏",'
        '"importance":0.9,"confidence":0.95,"quote":"我对花生过敏。","correction":false},'
        '{"kind":"fact","topic":"location.home","content":"用户住在杭州西湖区",'
        '"importance":0.5,"confidence":0.9,"quote":"住在杭州 西湖区"}],"forget":[],"queries":[]}'
    )
    assert result.junk == []
    allergy, home = result.candidates
    assert (allergy.kind, allergy.source_message_ids, allergy.role) == (
        MemoryKind.FACT,
        ["u1"],
        "user",
    )
    assert allergy.origin.value == "user_stated"
    assert allergy.topic == "health.allergy.花生"  # from the rules, run on the quote
    assert allergy.metadata["llm_topic"] == "health.allergy"
    assert allergy.importance > home.importance  # health outranks an address
    assert home.source_message_ids == ["u2"]  # punctuation/space differences do not matter


@pytest.mark.parametrize(
    ("memory", "reason"),
    [
        # Drawn from what the assistant said, not the user.
        ('"content":"用户对虾过敏","quote":"对虾过敏"', "assistant_text"),
        ('"content":"User loves whisky","quote":"loves whisky"', "system_text"),
        # An invented quote (the model "translated" the user's words).
        ('"content":"用户对坚果过敏","quote":"我对坚果过敏"', "ungrounded"),
        # A quote so short it would match anything.
        ('"content":"用户是我","quote":"我"', "ungrounded"),
        # Grounded quote, but the content says something else.
        ('"content":"用户喜欢寿司","quote":"我对花生过敏"', "unsupported"),
    ],
)
def test_ungrounded_memories_are_dropped_and_counted(memory: str, reason: str) -> None:
    result = gate(
        '{"memories":[{"kind":"fact","topic":"health.allergy",' + memory + ","
        '"importance":0.9,"confidence":0.9}],"forget":[],"queries":[]}'
    )
    assert result.candidates == []
    assert [j.reason for j in result.junk] == [reason]


def test_forget_requests_must_be_grounded_and_actually_ask_to_forget() -> None:
    batch = [Message(role="user", content="我住在杭州。把我的地址删掉吧", id="u9")]
    reply = ExtractionResponse.model_validate_json(
        '{"memories":[],"forget":[{"quote":"把我的地址删掉","target":"地址"},'
        '{"quote":"我住在杭州","target":"杭州"},{"quote":"忘掉我的生日","target":""}],'
        '"queries":[]}'
    )
    result = ground(reply, batch, now=NOW, lang="zh")
    assert [(f.target, f.source_message_id) for f in result.forget] == [("地址", "u9")]
    assert [j.reason for j in result.junk] == ["not_a_forget_request", "ungrounded"]


def test_duplicate_memories_in_one_reply_are_kept_once() -> None:
    mem = (
        '{"kind":"fact","topic":"health.allergy","content":"用户对花生过敏",'
        '"importance":0.9,"confidence":0.9,"quote":"对花生过敏"}'
    )
    result = gate('{"memories":[' + mem + "," + mem + '],"forget":[],"queries":[]}')
    assert len(result.candidates) == 1 and result.junk == []


def test_hedged_quotes_lower_the_confidence_whatever_the_model_says() -> None:
    batch = [Message(role="user", content="I think I might be lactose intolerant", id="u1")]
    reply = ExtractionResponse.model_validate_json(
        '{"memories":[{"kind":"fact","topic":"health.condition","content":"User might be '
        'lactose intolerant","importance":0.9,"confidence":1.0,"quote":"I might be lactose '
        'intolerant"}],"forget":[],"queries":[]}'
    )
    (cand,) = ground(reply, batch, now=NOW, lang="en").candidates
    assert cand.confidence == 0.6


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("好的", "chit_chat"),
        ("哈哈哈", "chit_chat"),
        ("ok", "chit_chat"),
        ("thanks!", "chit_chat"),
        ("😂👍", "chit_chat"),
        ("", "empty"),
        ("[用户点击了商品]", "passive_behavior"),
        ("推荐个餐厅？", "question"),
        ("帮我查一下明天的天气", "question"),
        ("What's a good book to read?", "question"),
        ("Can you help me plan a trip?", "question"),
        ("我对花生过敏，推荐个菜？", None),
        ("Should I avoid nuts since I'm allergic to them?", None),
        ("我最近在减肥", None),
        ("I moved to Berlin last month", None),
    ],
)
def test_prefilter_keeps_trivial_turns_away_from_the_llm(text: str, reason: str | None) -> None:
    assert is_trivial(text) == reason
