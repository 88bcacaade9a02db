"""Query planning and the conversation signals of the fusion (jiyi.core.retrieval)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.core.retrieval import PRESETS, fuse, plan_query
from jiyi.embedders import HashingEmbedder

CN = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 12, 31, 23, 0, tzinfo=CN)
B = PRESETS["balanced"]


def test_a_year_is_a_time_not_an_identifier() -> None:
    on = B.model_copy(update={"dates_as_time": True})
    q = "2025年3月，刘太太的丈夫因为什么获得了表彰？"
    plan = plan_query(q, NOW, on)
    assert plan.exact == []
    assert plan.window is not None and plan.window.start == datetime(2025, 3, 1, tzinfo=CN)
    assert plan_query("订单 A1234 到了吗", NOW, on).exact == ["A1234"]
    assert plan_query(q, NOW, B.model_copy(update={"dates_as_time": False})).exact == ["2025"]


def test_the_numbers_of_a_date_are_not_keywords() -> None:
    q = "宋雅静在1月12日早上开始晨间快走的原因"
    terms = plan_query(q, NOW, B.model_copy(update={"dates_as_time": True})).terms
    assert "1" not in terms and "12" not in terms and "晨间" in terms
    assert "12" in plan_query(q, NOW, B.model_copy(update={"dates_as_time": False})).terms


def test_words_for_the_same_relative_are_searched_together() -> None:
    q = "妈妈打电话提醒了我什么"
    terms = plan_query(q, NOW, B.model_copy(update={"kin_synonyms": True})).terms
    assert "妈妈" in terms and "母亲" in terms
    assert "母亲" not in plan_query(q, NOW, B.model_copy(update={"kin_synonyms": False})).terms


def test_a_range_in_the_query_keeps_every_day() -> None:
    q = "1月6日至9日我去了哪里"
    wide = plan_query(q, NOW, B.model_copy(update={"time_ranges": True})).window
    assert wide is not None and wide.start is not None and wide.end is not None
    assert (wide.end - wide.start).days == 4


# Every signal under test switched on (the defaults keep the ones not yet validated off).
ALL_ON = B.model_copy(
    update={
        "w_time_text": 0.2,
        "thread_gap_minutes": 60.0,
        "time_ranges": True,
        "speaker_in_text": True,
    }
)


@pytest.fixture
def mem(tmp_path: Path) -> Memory:
    return Memory(
        tmp_path / "m.db",
        config=MemoryConfig(timezone="Asia/Shanghai", retrieval=ALL_ON),
        embedder=HashingEmbedder(),
    )


def _one(mem: Memory, text: str, when: datetime, *, mid: str, name: str = "我",
         session: str | None = None) -> None:  # fmt: skip
    msg = {"role": "user", "content": text, "name": name, "id": mid}
    mem.add([msg], user_id="u", session_id=session, timestamp=when, infer=False)


def _hits(mem: Memory, query: str) -> dict[str, dict[str, float]]:
    hits = mem.search(query, user_id="u", top_k=20, now=NOW)
    return {h.memory.source_message_ids[0]: h.scores for h in hits}


def test_an_appointment_counts_on_the_day_it_is_for(mem: Memory) -> None:
    written = datetime(2025, 3, 2, 20, tzinfo=CN)
    _one(mem, "[日程 2025-03-24 周一 09:00–11:00] 体检：年度体检，空腹", written, mid="cal")
    _one(mem, "体检报告的事改天再说", written, mid="other")
    hits = _hits(mem, "3月24日的体检安排")
    assert hits["cal"]["time_text"] == 1.0 and hits["cal"]["time"] == 0.0
    assert hits["other"]["time_text"] == 0.0


def test_messages_of_one_thread_lend_each_other_evidence(mem: Memory) -> None:
    t = datetime(2025, 3, 15, 14, 22, tzinfo=CN)
    _one(mem, "最近做了个抹茶千层，抹茶粉很关键", t, mid="a", name="刘太太", session="c:刘")
    _one(mem, "抹茶我用的是日本那款", t + timedelta(minutes=8), mid="b", session="c:刘")
    _one(mem, "抹茶我用的是日本那款", t + timedelta(hours=5), mid="late", session="c:刘")
    _one(mem, "抹茶我用的是日本那款", t + timedelta(minutes=9), mid="else", session="c:王")
    hits = _hits(mem, "抹茶千层")
    assert hits["b"]["neighbor"] > 0  # the same exchange
    assert hits["late"]["neighbor"] == 0.0  # the same contact, hours later
    assert hits["else"]["neighbor"] == 0.0  # another thread


def test_a_chinese_speaker_is_recognised_inside_the_question(mem: Memory) -> None:
    when = datetime(2025, 3, 15, 14, 22, tzinfo=CN)
    _one(mem, "插画接了个小单子，不急", when, mid="a", name="刘太太")
    _one(mem, "插画的事我也想学", when, mid="b", name="王佳")
    hits = _hits(mem, "刘太太最近在忙插画吗")
    assert hits["a"]["speaker"] == 1.0 and hits["b"]["speaker"] == 0.0


def _item(mid: str) -> MemoryItem:
    t = datetime(2025, 1, 1, tzinfo=UTC)
    return MemoryItem(
        id=mid, user_id="u", kind=MemoryKind.EPISODE, content=mid, created_at=t, observed_at=t
    )


def test_dense_only_ranks_by_cosine_above_the_calibrated_ceiling() -> None:
    # Chinese cosines often exceed E5's calibrated ceiling, where the calibrated score is 1.0
    # for all of them; the dense baseline must still order them by cosine.
    cal = Calibration(floor=0.76, ceiling=0.93, duplicate=0.965, related=0.88)
    dense = {"low": 0.935, "high": 0.962, "mid": 0.948}
    items = {k: _item(k) for k in dense}
    plan = plan_query("随便问问", NOW)
    hits = fuse(plan, dense, {}, items, now=NOW, cfg=PRESETS["dense_only"], cal=cal)
    assert [h.memory.id for h in hits] == ["high", "mid", "low"]


def test_the_defaults_are_the_signals_cross_validation_kept(tmp_path: Path) -> None:
    # Kept (bench/results/retrieval_ablation.json): ranges, dates as time, kin words, dates
    # written in the text. Off: a Chinese speaker inside the query, thread neighbours.
    assert B.time_ranges and B.dates_as_time and B.kin_synonyms and B.w_time_text > 0
    assert not B.speaker_in_text and B.thread_gap_minutes == 0.0
    plain = Memory(
        tmp_path / "d.db", config=MemoryConfig(timezone="Asia/Shanghai"), embedder=HashingEmbedder()
    )
    t = datetime(2025, 3, 15, 14, 22, tzinfo=CN)
    _one(plain, "[日程 2025-03-24 周一 09:00] 体检", t, mid="cal", name="刘太太", session="c")
    _one(plain, "体检要空腹", t + timedelta(minutes=5), mid="b", session="c")
    hits = _hits(plain, "刘太太3月24日的体检")
    assert hits["cal"]["time_text"] == 1.0 and hits["cal"]["speaker"] == 0.0
    assert hits["b"]["neighbor"] == 0.0
