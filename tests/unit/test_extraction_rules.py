"""The offline rule extractor: behaviours, plus precision/recall on the labelled sets."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jiyi.core.extraction import RuleExtractor, is_chitchat, score_importance
from jiyi.core.models import Candidate, Extraction, MemoryKind, Message

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
RESULTS = ROOT / "bench" / "results" / "extraction_rules.json"
NOW = datetime(2024, 5, 15, 14, 30, tzinfo=ZoneInfo("Asia/Shanghai"))  # a Wednesday
EXTRACTOR = RuleExtractor()


def run(text: str, role: str = "user", **kw: Any) -> Extraction:
    return EXTRACTOR.extract([Message(role=role, content=text, id="m1", **kw)], now=NOW)  # type: ignore[arg-type]


def by_topic(extraction: Extraction) -> dict[str | None, Candidate]:
    return {c.topic: c for c in extraction.candidates}


# ------------------------------------------------------------------ behaviours


def test_one_utterance_can_carry_several_memories() -> None:
    got = by_topic(run("我喝咖啡不加糖，只喝冷萃，最近在减肥，别推荐带奶油的"))
    # the coffee order is one memory: its type, with the sugar kept as a part of it
    assert set(got) == {"diet.coffee.type", "state.减肥", "pref.奶油"}
    assert got["diet.coffee.type"].metadata["parts"] == {"diet.coffee.sugar": "不加糖"}
    assert got["diet.coffee.type"].kind is MemoryKind.PREFERENCE
    assert got["state.减肥"].kind is MemoryKind.STATE
    assert got["pref.奶油"].metadata["polarity"] == "dislike"
    assert all(c.content.startswith("用户") for c in got.values())


def test_correction_keeps_the_topic_and_carries_the_new_value() -> None:
    (cand,) = run("其实我不住北京了，搬到上海了").candidates
    assert (cand.topic, cand.is_correction) == ("location.home", True)
    assert "上海" in cand.content and "北京" not in cand.content


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Actually, my daughter's name is Lily", "family.daughter.name"),
        ("I don't work at Google anymore", "work.employer"),
        ("我说错了，我女儿叫小美，不是小丽", "family.daughter.name"),
    ],
)
def test_corrections_are_flagged(text: str, topic: str) -> None:
    (cand,) = run(text).candidates
    assert cand.topic == topic and cand.is_correction


def test_like_and_dislike_of_one_object_share_a_topic() -> None:
    assert run("我喜欢吃辣的").candidates[0].topic == run("我现在不吃辣了").candidates[0].topic
    assert run("I love peanuts").candidates[0].topic == run("I hate peanuts").candidates[0].topic


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("别记我的生日", "我的生日"),
        ("删掉刚才那条", None),
        ("这个不用记", None),
        ("forget what I said about my job", "my job"),
        ("Please don't remember that", None),
    ],
)
def test_forget_requests_name_their_target_and_store_nothing(text: str, target: str | None) -> None:
    result = run(text)
    assert result.candidates == [] and result.skipped == []
    assert [(f.target, f.source_message_id) for f in result.forget] == [(target, "m1")]


@pytest.mark.parametrize("text", ["别忘了提醒我开会", "我忘了带钥匙", "don't forget my umbrella"])
def test_forgetting_things_is_not_a_forget_request(text: str) -> None:
    assert run(text).forget == []


@pytest.mark.parametrize(
    ("role", "text", "reason"),
    [
        ("assistant", "好的，我记住了，你喜欢拿铁", "assistant_text"),
        ("system", "You are a helpful assistant.", "system_text"),
        ("user", "哈哈", "chit_chat"),
        ("user", "好的，谢谢", "chit_chat"),
        ("user", "今天好热", "chit_chat"),
        ("user", "thanks! lol", "chit_chat"),
        ("user", "👍🎉", "chit_chat"),
        ("user", "帮我挑杯咖啡吧", "no_personal_info"),
        ("user", "what's the weather", "no_personal_info"),
        ("user", "[用户点击了商品]", "passive_behavior"),
        ("user", "user viewed item 123", "passive_behavior"),
        ("user", "我朋友喜欢养猫", "no_personal_info"),
        ("user", "", "empty"),
    ],
)
def test_skips_with_a_reason(role: str, text: str, reason: str) -> None:
    result = run(text, role=role)
    assert result.candidates == []
    assert [s.reason for s in result.skipped] == [reason]


def test_dated_plans_are_events_that_expire_a_few_days_after_the_day() -> None:
    said = datetime(2024, 5, 13, 9, 0, tzinfo=NOW.tzinfo)  # Monday, two days before NOW
    (cand,) = run("下周三我要去上海出差", timestamp=said).candidates
    assert cand.kind is MemoryKind.EVENT and cand.topic is not None
    assert cand.topic.startswith("plan.")
    # relative to the message time, not to ``now``
    assert cand.valid_from == datetime(2024, 5, 22, tzinfo=NOW.tzinfo)
    assert cand.expires_at == cand.valid_from + timedelta(days=3)
    assert cand.observed_at == said


def test_states_expire_after_about_a_month_and_goals_do_not() -> None:
    state = run("最近工作压力很大").candidates[0]
    assert state.kind is MemoryKind.STATE and state.expires_at == NOW + timedelta(days=30)
    sick = run("I'm sick today").candidates[0]
    assert sick.kind is MemoryKind.STATE and sick.expires_at is not None
    assert sick.expires_at - NOW <= timedelta(days=3)
    goal = run("My goal is to learn Spanish").candidates[0]
    assert goal.kind is MemoryKind.GOAL and goal.expires_at is None


def test_health_is_important_and_hedges_lower_confidence() -> None:
    sure = run("我对花生过敏").candidates[0]
    hedged = run("我好像对芒果过敏").candidates[0]
    assert sure.topic == "health.allergy.花生" and sure.importance >= 0.8
    assert sure.confidence > hedged.confidence


def test_one_topic_per_allergen() -> None:
    topics = [c.topic for c in run("I'm allergic to peanuts and shellfish").candidates]
    assert topics == ["health.allergy.peanut", "health.allergy.shellfish"]


def test_candidates_carry_provenance() -> None:
    (cand,) = run("我的猫叫阿橘").candidates
    assert cand.source_message_ids == ["m1"]
    assert cand.quote == "我的猫叫阿橘"
    assert cand.observed_at == NOW and cand.role == "user"
    assert (cand.topic, cand.content) == ("pet.cat.name", "用户的猫叫阿橘")


@pytest.mark.parametrize(
    ("text", "topic", "content"),
    [
        ("我在Google工作", "work.employer", "用户在Google工作"),
        ("I love 火锅", "pref.火锅", "User loves 火锅"),
    ],
)
def test_mixed_chinese_and_english(text: str, topic: str, content: str) -> None:
    (cand,) = run(text).candidates
    assert (cand.topic, cand.content) == (topic, content)


def test_pii_never_reaches_content_or_quote() -> None:
    result = run("我住在成都，手机13812345678，身份证110101199003074514")
    assert [c.topic for c in result.candidates] == ["location.home"]
    for cand in result.candidates:
        assert "138" not in cand.content + (cand.quote or "")
    assert all("13812345678" not in s.text for s in result.skipped)


def test_the_current_question_becomes_a_query() -> None:
    result = EXTRACTOR.extract(
        [
            Message(role="user", content="我对花生过敏"),
            Message(role="user", content="推荐个零食？"),
        ],
        now=NOW,
    )
    assert result.queries == ["推荐个零食？"]


def test_importance_ranks_health_over_preferences_over_events() -> None:
    health = score_importance("我对花生过敏", MemoryKind.FACT)
    pref = score_importance("我喜欢爵士乐", MemoryKind.PREFERENCE)
    event = score_importance("我去了超市", MemoryKind.EVENT)
    strong = score_importance("I must never eat shellfish", MemoryKind.PREFERENCE)
    assert health > pref > event and strong > pref
    assert all(0.0 <= s <= 1.0 for s in (health, pref, event, strong))


def test_chitchat_detection() -> None:
    for text in ["哈哈哈", "嗯嗯", "在吗", "谢谢", "ok", "thanks", "lol", "😂", "今天好热"]:
        assert is_chitchat(text), text
    for text in ["我叫小王", "I love sushi", "我怕热", "what's the weather"]:
        assert not is_chitchat(text), text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_every_user_message_is_either_remembered_or_skipped(text: str) -> None:
    result = run(text)
    assert result.candidates or result.forget or len(result.skipped) == 1


# ------------------------------------------------------------------ labelled sets


def load(lang: str) -> list[dict[str, Any]]:
    with (DATA / f"extraction_{lang}.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision/recall of (kind, topic prefix); each forget request counts as ("forget", "")."""
    tp = fp = fn = 0
    misses: list[str] = []
    for row in rows:
        result = run(row["text"], role=row["role"])
        predicted = [(c.kind.value, c.topic or "") for c in result.candidates]
        predicted += [("forget", "")] * len(result.forget)
        expected = [(e["kind"], e["topic"]) for e in row["expect"]]
        expected += [("forget", "")] if row["forget"] else []
        # Most specific labels first, so "pet.cat" cannot steal the match of "pet.cat.name".
        for kind, prefix in sorted(expected, key=lambda e: -len(e[1])):
            hit = next((p for p in predicted if p[0] == kind and p[1].startswith(prefix)), None)
            if hit is None:
                fn += 1
                misses.append(f"missed {kind}:{prefix} in {row['text']!r}")
            else:
                tp += 1
                predicted.remove(hit)
        fp += len(predicted)
        misses += [f"extra {k}:{t} in {row['text']!r}" for k, t in predicted]
    return {
        "utterances": len(rows),
        "precision": round(tp / max(1, tp + fp), 3),
        "recall": round(tp / max(1, tp + fn), 3),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "errors": misses,
    }


def test_labelled_sets_have_enough_coverage() -> None:
    for lang in ("zh", "en"):
        rows = load(lang)
        assert len(rows) >= 45
        assert {r["role"] for r in rows} == {"user", "assistant", "system"}
        assert any(r["forget"] for r in rows) and any(r["pii"] for r in rows)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labelled_pii_matches_the_detector(lang: str) -> None:
    from jiyi.core.pii import find_pii

    for row in load(lang):
        assert sorted(f.kind for f in find_pii(row["text"])) == sorted(row["pii"]), row["text"]


def write_report() -> dict[str, Any]:
    """Score both languages and save the JSON (``python -m tests.unit.test_extraction_rules``;
    the test itself never writes into the repository)."""
    report = {lang: score(load(lang)) for lang in ("zh", "en")}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return report


def test_precision_and_recall_per_language() -> None:
    report = {lang: score(load(lang)) for lang in ("zh", "en")}
    for lang, r in report.items():
        print(
            f"\nextraction_rules[{lang}]: precision={r['precision']} recall={r['recall']} "
            f"(tp={r['tp']} fp={r['fp']} fn={r['fn']}, n={r['utterances']})"
        )
        for line in r["errors"]:
            print("   ", line)
    for lang, r in report.items():
        assert r["precision"] >= 0.9, (lang, r["errors"])
        assert r["recall"] >= 0.85, (lang, r["errors"])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chitchat_assistant_and_system_text_are_never_stored(lang: str) -> None:
    for row in load(lang):
        if row["role"] != "user" or (not row["expect"] and not row["forget"]):
            result = run(row["text"], role=row["role"])
            assert result.candidates == [], row["text"]


if __name__ == "__main__":
    for lang, r in write_report().items():
        print(f"{lang}: precision={r['precision']} recall={r['recall']} -> {RESULTS}")
