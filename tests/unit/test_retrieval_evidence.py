"""Questions that need several pieces of evidence (jiyi.core.evidence): session spread and
sub-question keyword rounds."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration
from jiyi.core.evidence import (
    asks_for_several,
    merge_keyword_rounds,
    split_clauses,
    spread_sessions,
)
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.core.retrieval import PRESETS, fuse, plan_query
from jiyi.embedders import HashingEmbedder

NOW = datetime(2025, 12, 31, tzinfo=UTC)
CAL = Calibration(floor=0.76, ceiling=0.93, duplicate=0.965, related=0.88)


def _item(mid: str, session: str | None) -> MemoryItem:
    t = datetime(2025, 1, 1, tzinfo=UTC)
    return MemoryItem(
        id=mid,
        user_id="u",
        kind=MemoryKind.EPISODE,
        content=mid,
        created_at=t,
        observed_at=t,
        session_id=session,
    )


def test_a_question_of_several_clauses_is_split_at_its_clauses() -> None:
    q = "宋雅静的店铺在春节假期期间何时开始放假，并计划何时恢复营业？"
    assert split_clauses(q) == ["宋雅静的店铺在春节假期期间何时开始放假", "并计划何时恢复营业"]
    assert split_clauses("When did Melanie go on a hike after the roadtrip?") == [
        "When did Melanie go on a hike",
        "the roadtrip",
    ]


def test_things_joined_by_and_stay_one_clause() -> None:
    assert split_clauses("What do Jon and Gina both have in common?") == []
    assert split_clauses("宋雅静为店铺采购了沙袋和塑料布吗") == []
    assert split_clauses("我喜欢吃什么") == []


def test_a_long_question_costs_a_bounded_number_of_rounds() -> None:
    q = "一月做了什么，二月做了什么，三月做了什么，四月做了什么？"
    assert len(split_clauses(q, max_clauses=3)) == 3


def test_each_better_hit_of_the_same_session_costs_the_penalty() -> None:
    items = {m: _item(m, s) for m, s in [("a1", "A"), ("a2", "A"), ("a3", "A"), ("b1", "B")]}
    ranked = [(1.0, "a1"), (0.95, "a2"), (0.9, "a3"), (0.85, "b1")]
    assert [m for _, m in spread_sessions(ranked, items, 0.0)] == ["a1", "a2", "a3", "b1"]
    spread = spread_sessions(ranked, items, 0.1)
    # a2: 0.95 − 0.1 = 0.85 ties with b1 and keeps its place; a3: 0.9 − 0.2 = 0.7.
    assert spread == [(1.0, "a1"), (0.85, "a2"), (0.85, "b1"), (0.7, "a3")]


def test_memories_without_a_session_are_never_spread() -> None:
    # A batch of unrelated statements (a persona list) is not one conversation.
    items = {m: _item(m, None) for m in ("x", "y", "z")}
    ranked = [(1.0, "x"), (0.9, "y"), (0.8, "z")]
    assert spread_sessions(ranked, items, 0.5) == ranked


def test_fusion_spreads_its_top_over_sessions_when_asked() -> None:
    items = {m: _item(m, m[0]) for m in ("a1", "a2", "a3", "b1")}
    keyword = {"a1": 10.0, "a2": 9.0, "a3": 8.5, "b1": 8.0}
    plan = plan_query("What books has she read?", NOW)
    cfg = PRESETS["keyword_only"]
    plain = fuse(plan, {}, keyword, items, now=NOW, cfg=cfg, cal=CAL, limit=2)
    assert [h.memory.id for h in plain] == ["a1", "a2"]
    spread = cfg.model_copy(update={"session_spread": 0.2})
    hits = fuse(plan, {}, keyword, items, now=NOW, cfg=spread, cal=CAL, limit=2)
    assert [h.memory.id for h in hits] == ["a1", "b1"]
    # A question with one answer keeps its best session's turns together (single-hop
    # evidence is often a question turn and the reply next to it)…
    one = plan_query("What did she read last week?", NOW)
    hits = fuse(one, {}, keyword, items, now=NOW, cfg=spread, cal=CAL, limit=2)
    assert [h.memory.id for h in hits] == ["a1", "a2"]
    # …unless every question is to be spread.
    always = spread.model_copy(update={"spread_lists_only": False})
    hits = fuse(one, {}, keyword, items, now=NOW, cfg=always, cal=CAL, limit=2)
    assert [h.memory.id for h in hits] == ["a1", "b1"]


def test_questions_that_ask_for_several_things_are_recognised() -> None:
    several = [
        "What activities does Melanie partake in?",
        "Which cities has Jon visited?",
        "How many times has Melanie gone to the beach?",
        "宋雅静通过哪两项关键行动帮父母融入",
        "我这个月去了几次健身房",
    ]
    one = ["What is Caroline's identity?", "What does Melanie do to destress?", "我住在哪里"]
    assert all(asks_for_several(q) for q in several)
    assert not any(asks_for_several(q) for q in one)


def test_clause_rounds_are_rescaled_to_the_question_best() -> None:
    whole = {"a": 10.0, "b": 2.0}
    rounds = [{"b": 3.0, "c": 1.5}]
    # The round's best (b) scores like the question's best; c at half of it.
    assert merge_keyword_rounds(whole, rounds) == {"a": 10.0, "b": 10.0, "c": 5.0}
    assert merge_keyword_rounds(whole, [{}]) == whole


def _add(mem: Memory, mid: str, text: str) -> None:
    msg = {"role": "user", "content": text, "id": mid}
    mem.add([msg], user_id="u", timestamp=NOW, infer=False)


def test_the_second_clause_finds_its_own_evidence(tmp_path: Path) -> None:
    # The rare words of the first clause (台风, 沙袋) fill the keyword pool; the evidence of
    # the second clause (检查, 有效) only reaches the top through its own round.
    cfg = PRESETS["keyword_only"].model_copy(update={"pool": 3})
    mem = Memory(tmp_path / "m.db", config=MemoryConfig(retrieval=cfg), embedder=HashingEmbedder())
    for i in range(4):
        _add(mem, f"storm{i}", f"台风预警，采购沙袋{i}号，台风沙袋都备好了")
    for i in range(6):  # 检查 is a common word here
        _add(mem, f"other{i}", f"检查{i}号单据")
    filler = [{"role": "user", "content": f"今天喝了{i}杯咖啡", "id": f"f{i}"} for i in range(90)]
    mem.add(filler, user_id="u", timestamp=NOW, infer=False)
    _add(mem, "check", "检查过了，有效")
    q = "台风预警后采购了沙袋，事后检查措施是否有效？"

    def ids(c: MemoryConfig) -> list[str]:
        view = Memory(store=mem.store, embedder=mem.embedder, config=c)
        return [h.memory.source_message_ids[0] for h in view.search(q, user_id="u", top_k=5)]

    assert "check" not in ids(MemoryConfig(retrieval=cfg))
    subq = cfg.model_copy(update={"sub_questions": 3})
    assert "check" in ids(MemoryConfig(retrieval=subq))


def test_the_defaults_keep_both_off_until_cross_validation_keeps_them() -> None:
    b = PRESETS["balanced"]
    assert b.session_spread == 0.0 and b.sub_questions == 0 and b.spread_lists_only
