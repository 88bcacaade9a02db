"""Day evidence (jiyi.core.days): records of one day, added one by one, are one event's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration
from jiyi.core.days import day_evidence, relates_events
from jiyi.core.models import MemoryItem, MemoryKind, Scope
from jiyi.core.ports import SearchFilter
from jiyi.core.retrieval import PRESETS, RetrievalConfig, fuse, plan_query
from jiyi.embedders import HashingEmbedder
from jiyi.pipeline.recall import recall

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 12, 31, 23, 59, tzinfo=SHANGHAI)
CAL = Calibration(floor=0.76, ceiling=0.93, duplicate=0.965, related=0.88)
KEYWORD = PRESETS["keyword_only"]


def _item(mid: str, at: datetime, batch: str | None = None, position: int = 0) -> MemoryItem:
    return MemoryItem(
        id=mid,
        user_id="u",
        kind=MemoryKind.EPISODE,
        content=mid,
        created_at=at,
        observed_at=at,
        batch=batch if batch is not None else f"add-{mid}",
        position=position,
    )


def _others(n: int, first: datetime) -> dict[str, MemoryItem]:
    """``n`` weak candidates on ``n`` other days (a year of records: most days are others)."""
    return {f"z{i}": _item(f"z{i}", first - timedelta(days=100 + i)) for i in range(n)}


def _ids(
    plan_text: str, keyword: dict[str, float], items: dict[str, MemoryItem], **cfg: float
) -> list[str]:
    plan = plan_query(plan_text, NOW)
    ranking = KEYWORD.model_copy(update=cfg)
    return [h.memory.id for h in fuse(plan, {}, keyword, items, now=NOW, cfg=ranking, cal=CAL)]


def test_questions_that_relate_events_in_time_are_recognised() -> None:
    for q in (
        "宋雅静从收到包裹，到开始构思新品，中间间隔了多少天？",
        "宋雅静在敲定春季采购订单的那一天，还报名了什么课程？",
        "尹浩是先向维修师傅请教，还是先与钓友交流？",
        "你第一次参观博览会时和谁交流了？",
        "How long after the race did Jon open his studio?",
        "What did Melanie do after the camping trip?",
    ):
        assert relates_events(q), q
    for q in ("我住在哪里？", "宋雅静喜欢什么颜色？", "What is Caroline's job?"):
        assert not relates_events(q), q


def test_the_best_hits_day_lifts_records_added_apart_that_day() -> None:
    day = datetime(2025, 3, 25, 10, 0, tzinfo=SHANGHAI)
    items = {
        "order": _item("order", day),  # the best match: "敲定春季订单"
        "payment": _item("payment", day + timedelta(minutes=20)),  # the course payment notice
        "other": _item("other", day - timedelta(days=40)),  # a stronger match, another day
    } | _others(3, day)
    keyword = {"order": 10.0, "other": 6.0, "payment": 5.5, "z0": 1.0, "z1": 1.0, "z2": 1.0}
    q = "春季订单敲定时报名了什么课程"
    assert _ids(q, keyword, items)[:3] == ["order", "other", "payment"]
    assert _ids(q, keyword, items, w_top_day=0.1)[:3] == ["order", "payment", "other"]


def test_a_day_holding_most_candidates_lends_nothing() -> None:
    # Persona sentences added on one day in several batches: the day tells them not apart,
    # and lifting the other batches would only push the best hit's own batch down.
    day = datetime(2025, 3, 25, 10, 0, tzinfo=SHANGHAI)
    items = {
        "p1": _item("p1", day, batch="b1"),
        "p2": _item("p2", day, batch="b1", position=1),
        "q1": _item("q1", day, batch="b2"),
    }
    keyword = {"p1": 10.0, "p2": 6.0, "q1": 5.5}
    q = "我喜欢做什么运动"
    assert _ids(q, keyword, items, w_top_day=0.1) == _ids(q, keyword, items) == ["p1", "p2", "q1"]


def test_a_batch_already_linked_by_adjacency_gains_nothing_from_its_day() -> None:
    # One session added at once (a chat): its turns share the day but borrow from their
    # adjacent turns already, so only the best hit itself gains.
    day = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    items = {
        "t0": _item("t0", day, batch="s1"),
        "t9": _item("t9", day, batch="s1", position=9),
        "x": _item("x", day - timedelta(days=3), batch="s0"),
    } | _others(3, day)
    keyword = {"t0": 10.0, "x": 6.0, "t9": 5.5, "z0": 1.0, "z1": 1.0, "z2": 1.0}
    q = "what did she say about the course"
    assert _ids(q, keyword, items, w_top_day=0.1)[:3] == ["t0", "x", "t9"]


def test_the_days_next_to_the_best_hits_day_lift_that_events_records() -> None:
    # A class on the 12th: the costume bought the evening before, the note written the
    # morning after. A stronger match from months earlier stays below the best hit's
    # neighbours only when the near days count; a record three days off is not lifted.
    day = datetime(2025, 5, 12, 19, 30, tzinfo=SHANGHAI)
    items = {
        "class": _item("class", day),
        "costume": _item("costume", day - timedelta(hours=22)),
        "note": _item("note", day + timedelta(hours=15)),
        "later": _item("later", day + timedelta(days=3)),
        "older": _item("older", day - timedelta(days=90)),
    } | _others(4, day)
    keyword = {"class": 10.0, "older": 6.0, "later": 5.6, "note": 5.5, "costume": 5.4}
    keyword |= {f"z{i}": 1.0 for i in range(4)}
    q = "和女儿玩角色扮演游戏时扮演了什么"
    assert _ids(q, keyword, items)[:5] == ["class", "older", "later", "note", "costume"]
    ranked = _ids(q, keyword, items, w_near_day=0.1)
    assert ranked[:5] == ["class", "note", "costume", "older", "later"]
    assert _ids(q, keyword, items, w_near_day=0.1, near_days=3)[:4] == [
        "class", "later", "note", "costume",
    ]  # fmt: skip


def test_near_days_never_pass_the_best_hit_nor_lift_what_most_candidates_share() -> None:
    day = datetime(2025, 5, 12, 19, 30, tzinfo=SHANGHAI)
    items = {"best": _item("best", day), "next": _item("next", day + timedelta(days=1))}
    items |= _others(3, day)
    scores = {"best": 1.0, "next": 0.98, "z0": 0.3, "z1": 0.2, "z2": 0.2}
    got = day_evidence(
        scores, items, tz=SHANGHAI, w_top_day=0.0, w_same_day=0.0, relates=False, w_near_day=0.1
    )
    assert set(got) == {"next"} and 0.98 + got["next"] < 1.0
    # Most candidates a day away (a batch of persona lines the day after): no evidence.
    crowd = {f"c{i}": _item(f"c{i}", day + timedelta(days=1)) for i in range(4)}
    crowded = {"best": 1.0} | {c: 0.5 for c in crowd}
    got = day_evidence(
        crowded,
        {"best": items["best"]} | crowd,
        tz=SHANGHAI,
        w_top_day=0.0,
        w_same_day=0.0,
        relates=False,
        w_near_day=0.1,
    )
    assert got == {}


def test_each_event_of_a_question_relating_two_brings_its_days_records() -> None:
    first = datetime(2025, 5, 20, 9, 15, tzinfo=SHANGHAI)
    later = datetime(2025, 5, 25, 14, 30, tzinfo=SHANGHAI)
    items = {
        "parcel": _item("parcel", first),
        "parcel-call": _item("parcel-call", first + timedelta(hours=5)),
        "idea": _item("idea", later),
        "idea-note": _item("idea-note", later + timedelta(hours=20)),  # the next day's note
        "noise": _item("noise", first - timedelta(days=60)),
    }
    keyword = {"parcel": 10.0, "idea": 9.0, "noise": 5.0, "parcel-call": 4.0, "idea-note": 3.9}
    q = "从收到包裹到构思新品，中间间隔了多少天？"
    assert _ids(q, keyword, items)[2] == "noise"
    ranked = _ids(q, keyword, items, w_same_day=0.2)
    assert ranked[:3] == ["parcel", "idea", "parcel-call"]
    assert ranked.index("noise") < ranked.index("idea-note")  # another day: no lift
    # The same weight on a question that relates nothing changes nothing.
    assert _ids("收到了什么包裹", keyword, items, w_same_day=0.2) == _ids(
        "收到了什么包裹", keyword, items
    )


def test_days_are_the_callers_calendar_days() -> None:
    # 23:30 and 00:30 in Shanghai are two days there, one day in UTC.
    a = _item("a", datetime(2025, 3, 1, 23, 30, tzinfo=SHANGHAI))
    b = _item("b", datetime(2025, 3, 2, 0, 30, tzinfo=SHANGHAI))
    items = {"a": a, "b": b} | _others(3, a.observed_at)
    scores = {"a": 1.0, "b": 0.5, "z0": 0.1, "z1": 0.1, "z2": 0.1}
    for tz, lifted in ((SHANGHAI, {}), (UTC, {"b": 0.1})):
        got = day_evidence(scores, items, tz=tz, w_top_day=0.1, w_same_day=0.0, relates=False)
        assert got == lifted, tz


def test_the_top_day_never_lifts_a_record_past_the_best_hit() -> None:
    # The best hit's day-mates rise toward it but the first place is the channels' answer:
    # lifting the best hit as well turned a near-tie into a 0.16 lead (a corrected fact's
    # remainder kept first place over the correction).
    day = datetime(2025, 3, 25, 10, 0, tzinfo=SHANGHAI)
    items = {"best": _item("best", day), "mate": _item("mate", day + timedelta(hours=1))}
    items |= _others(3, day)
    scores = {"best": 1.0, "mate": 0.97, "z0": 0.99, "z1": 0.2, "z2": 0.2}
    got = day_evidence(scores, items, tz=SHANGHAI, w_top_day=0.15, w_same_day=0.0, relates=False)
    assert set(got) == {"mate"}
    assert 0.97 + got["mate"] < 1.0
    assert 0.97 + got["mate"] > 0.99  # past the other day's record, not past the best hit


def test_a_corrected_record_is_no_evidence_of_its_day() -> None:
    day = datetime(2025, 3, 25, 10, 0, tzinfo=SHANGHAI)
    old = _item("old", day + timedelta(hours=1)).model_copy(update={"valid_to": day})
    items = {"best": _item("best", day), "old": old} | _others(3, day)
    scores = {"best": 1.0, "old": 0.5, "z0": 0.6, "z1": 0.1, "z2": 0.1}
    for relates, w_top, w_same in ((False, 0.15, 0.0), (True, 0.0, 0.2)):
        got = day_evidence(
            scores, items, tz=SHANGHAI, w_top_day=w_top, w_same_day=w_same, relates=relates, now=NOW
        )
        assert "old" not in got
        # Without a clock nothing is known to be outdated: the same record is lifted.
        assert "old" in day_evidence(
            scores, items, tz=SHANGHAI, w_top_day=w_top, w_same_day=w_same, relates=relates
        )


def test_day_evidence_is_off_by_default() -> None:
    day = datetime(2025, 3, 25, 10, 0, tzinfo=SHANGHAI)
    items = {"a": _item("a", day), "b": _item("b", day), "c": _item("c", day - timedelta(1))}
    plan = plan_query("那一天之后做了什么", NOW)
    hits = fuse(plan, {}, {"a": 3.0, "c": 2.0, "b": 1.0}, items, now=NOW, cfg=KEYWORD, cal=CAL)
    assert [h.memory.id for h in hits] == ["a", "c", "b"]
    assert all(h.scores["day"] == 0.0 for h in hits)


def test_the_best_hits_day_is_searched_again_beyond_the_pools(tmp_path: Path) -> None:
    # The course payment shares no word with the question and ranks below the pools' cut
    # (pool 3, twenty records that share its words); searching the order's day again finds it.
    mem = Memory(
        tmp_path / "m.db", config=MemoryConfig(timezone="Asia/Shanghai"), embedder=HashingEmbedder()
    )
    day = datetime(2025, 3, 25, 10, 0, tzinfo=SHANGHAI)

    def add(mid: str, text: str, at: datetime) -> None:
        msg = {"role": "user", "content": text, "id": mid}
        mem.add([msg], user_id="u", timestamp=at, infer=False)

    add("order", "春季订单敲定了，定金已付", day)
    add("payment", "支付宝：课程支付成功，金额298元", day + timedelta(minutes=23))
    for i in range(20):
        add(f"f{i}", f"春季订单{i}号已发货，定金{i}", day - timedelta(days=3 + i))
    scope = Scope(tenant=mem.config.tenant, user_id="u")
    # A calibration that keeps every cosine (the hashing embedder's are near 0 for
    # unrelated texts): what is tested is which records become candidates.
    cal = Calibration(floor=-1.0, ceiling=1.0, duplicate=0.99, related=0.9)

    def found(**cfg: int) -> list[str]:
        ranking = RetrievalConfig(pool=3, **cfg)
        hits = recall(
            mem.store, mem.embedder, scope, "春季订单的定金付了吗",
            flt=SearchFilter(), now=NOW, top_k=25, cfg=ranking, cal=cal,
        ).hits  # fmt: skip
        return [h.memory.source_message_ids[0] for h in hits]

    plain = found()
    assert plain[0] == "order" and "payment" not in plain
    widened = found(day_expand=10)
    assert widened[0] == "order" and "payment" in widened
    assert found(day_expand=10, w_top_day=0) == plain  # no day evidence: nothing to widen
    mem.close()
