"""Linked records (jiyi.core.links): the best hits' rare words find the rest of their event."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.links import feedback_terms, fold_linked
from jiyi.core.retrieval import PRESETS
from jiyi.embedders import HashingEmbedder

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 12, 31, 23, 59, tzinfo=SHANGHAI)


def test_feedback_terms_are_the_top_hits_rare_words_beyond_the_question() -> None:
    top = ["周六在老王车行修好了自行车，换了刹车片", "老王车行说刹车片要半年一换"]
    pool = top + [f"周六骑自行车去公园第{i}次" for i in range(10)]
    terms = feedback_terms(["周六", "修", "自行车"], top, pool, 4)
    # Words both best hits hold come first (the shop, its owner, the part).
    assert set(terms) == {"老王", "车行", "刹车", "刹车片"}
    assert not {"周六", "自行车"} & set(terms)  # the question's own words
    assert all(len(t) > 1 and not t.isdigit() for t in terms)


def test_a_word_most_candidates_hold_is_no_link() -> None:
    # Every notice names the app: the app says nothing about which notice is the event's.
    top = ["支付宝：向老王车行付款85元"]
    pool = top + [f"支付宝：第{i}笔账单已出" for i in range(8)]
    assert "支付宝" not in feedback_terms(["付款"], top, pool, 5)
    assert "车行" in feedback_terms(["付款"], top, pool, 5)


def test_the_linked_round_ranks_below_the_questions_best_and_keeps_better_scores() -> None:
    keyword = {"a": 10.0, "b": 4.0}
    linked = {"b": 8.0, "c": 4.0}
    got = fold_linked(keyword, linked, 0.2)
    assert got["a"] == 10.0  # not in the round: unchanged
    assert got["b"] == 4.0  # 0.2 × 10 × 8/8 = 2.0 < its own 4.0
    assert abs(got["c"] - 1.0) < 1e-9  # 0.2 × 10 × 4/8
    assert fold_linked(keyword, linked, 0.0) == keyword
    assert fold_linked(keyword, {}, 0.2) == keyword


def test_a_record_sharing_no_word_with_the_question_is_found_through_the_best_hit(
    tmp_path: Path,
) -> None:
    # The payment notice names the shop, not the repair; the repair record names both.
    mem = Memory(
        tmp_path / "m.db", config=MemoryConfig(timezone="Asia/Shanghai"), embedder=HashingEmbedder()
    )
    day = datetime(2025, 6, 14, 10, 0, tzinfo=SHANGHAI)

    def add(mid: str, text: str, at: datetime) -> None:
        msg = {"role": "user", "content": text, "id": mid}
        mem.add([msg], user_id="u", timestamp=at, infer=False)

    add("repair", "周六在老王车行修自行车花了120元，换了刹车片", day)
    add("pay", "支付宝：向老王车行付款85元", day + timedelta(days=40))
    for i in range(12):
        add(f"ride{i}", f"骑自行车去湖边第{i}圈，刹车有点松", day - timedelta(days=3 + i))
    keyword_side = PRESETS["balanced"].model_copy(update={"use_dense": False})

    def found(**cfg: float) -> list[str]:
        view = Memory(
            store=mem.store,
            embedder=mem.embedder,
            config=mem.config.model_copy(update={"retrieval": keyword_side.model_copy(update=cfg)}),
        )
        hits = view.search("换刹车片花了多少钱", user_id="u", top_k=10, now=NOW)
        return [h.memory.source_message_ids[0] for h in hits]

    assert found()[0] == "repair"
    assert "pay" not in found()
    assert "pay" in found(w_linked=0.2)[:10]
