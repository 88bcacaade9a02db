"""The rule extractor on a second, broader labelled set (tests/data/extraction_more_*.jsonl).

The sets were written to cover how people really talk about every slot of the taxonomy in
bench/data/LABELS.md — colloquial, traditional and mixed-language Chinese, long messages with
several facts, corrections and changes — and the junk that must stay out (questions, requests,
other people, hypotheticals, momentary remarks, assistant text). They are scored on what the
write path would admit (the importance floors of jiyi.pipeline.write), by (kind, topic prefix).

The correction cases replay the corrections benchmark at the slot level: background facts,
then a correction (or a "其实 / actually" remark that corrects nothing). A correction must land
in the slot of the fact it corrects with the new value; nothing may land in another fact's
slot with a different value (that would retire it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.unit.test_extraction_rules import run

from jiyi.core.extraction.lexicon import DRINKS
from jiyi.core.extraction.topics import normalize_object
from jiyi.core.models import Candidate
from jiyi.core.slots import compatible, is_timeline_slot, normalize_value, same_value
from jiyi.pipeline.families import GAVE_UP
from jiyi.pipeline.write import ADMISSION_FLOORS, KEYED_VALUES, split_admitted

DATA = Path(__file__).resolve().parents[1] / "data"
MIN_CONFIDENCE = 0.5  # jiyi.pipeline.ingest's default


def load(name: str) -> list[dict[str, Any]]:
    with (DATA / f"extraction_more_{name}.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def admitted(text: str, role: str = "user") -> list[Candidate]:
    kept, _, _ = split_admitted(run(text, role=role).candidates, MIN_CONFIDENCE, ADMISSION_FLOORS)
    return kept


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    tp = fp = fn = 0
    errors: list[str] = []
    for row in rows:
        result = run(row["text"], role=row["role"])
        kept, _, _ = split_admitted(result.candidates, MIN_CONFIDENCE, ADMISSION_FLOORS)
        predicted = [(c.kind.value, c.topic or "") for c in kept]
        predicted += [("forget", "")] * len(result.forget)
        expected = [(e["kind"], e["topic"]) for e in row["expect"]]
        expected += [("forget", "")] if row["forget"] else []
        for kind, prefix in sorted(expected, key=lambda e: -len(e[1])):
            hit = next((p for p in predicted if p[0] == kind and p[1].startswith(prefix)), None)
            if hit is None:
                fn += 1
                errors.append(f"{row['id']} missed {kind}:{prefix} in {row['text']!r}")
            else:
                tp += 1
                predicted.remove(hit)
        fp += len(predicted)
        errors += [f"{row['id']} extra {k}:{t} in {row['text']!r}" for k, t in predicted]
    return {
        "precision": round(tp / max(1, tp + fp), 3),
        "recall": round(tp / max(1, tp + fn), 3),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "errors": errors,
    }


def test_the_sets_cover_the_taxonomy() -> None:
    zh, en = load("zh"), load("en")
    assert len(zh) >= 150 and len(en) >= 120
    assert sum(1 for r in zh if r.get("trad")) >= 25
    for rows in (zh, en):
        areas = {e["topic"].split(".", 1)[0] for r in rows for e in r["expect"]}
        assert areas >= {
            "identity", "birthday", "location", "work", "education", "family", "pet", "health",
            "habit", "pref", "diet", "favorite", "goal", "plan", "event", "state",
        }  # fmt: skip
        assert {r["role"] for r in rows} == {"user", "assistant", "system"}


# zh / en: the first batch; zh_b / en_b: a second one, written later to check that the rules
# generalise beyond the first (its first score, before any change for it: zh P .92 R .71,
# en P .90 R .65).
SETS = [
    *("zh", "en", "zh_b", "en_b", "zh_c", "en_c", "zh_d", "en_d"),
    *("zh_e", "en_e", "zh_f", "en_g", "zh_h", "en_i", "zh_j", "en_k", "zh_l", "en_m"),
]


@pytest.mark.parametrize("lang", SETS)
def test_precision_and_recall_on_the_broader_set(lang: str) -> None:
    r = score(load(lang))
    print(f"\nextraction_more[{lang}]: P={r['precision']} R={r['recall']} "
          f"(tp={r['tp']} fp={r['fp']} fn={r['fn']})")  # fmt: skip
    for line in r["errors"]:
        print("   ", line)
    assert r["precision"] >= 0.9, r["errors"]
    assert r["recall"] >= 0.85, r["errors"]


@pytest.mark.parametrize("lang", SETS)
def test_junk_is_never_admitted(lang: str) -> None:
    for row in load(lang):
        if not row["expect"] and not row["forget"]:
            assert admitted(row["text"], row["role"]) == [], (row["id"], row["text"])


# ------------------------------------------------------------------ corrections by slot


def _sibling(c: Candidate) -> str | None:
    """The slot of the value a keyed candidate says was wrong (as jiyi.pipeline.write)."""
    if not c.topic or not c.replaces or c.value not in KEYED_VALUES or "." not in c.topic:
        return None
    obj = normalize_object(c.replaces)
    return f"{c.topic.rsplit('.', 1)[0]}.{obj}" if obj else None


def _retires(said: Candidate, stored: Candidate, slots: list[str]) -> bool:
    """Would reconciling ``said`` retire ``stored``? Same slot with another value; the
    sibling slot a correction names; or, for a correction that matches no stored slot, the
    one compatible slot that similarity could propose (assumed similar enough)."""
    if not said.topic or not stored.topic or is_timeline_slot(said.topic):
        return False
    if said.topic == stored.topic:
        if said.value is not None and stored.value is not None:
            return not same_value(said.value, stored.value)
        return said.content != stored.content
    held, holds = stored.metadata.get("parts") or {}, said.metadata.get("parts") or {}
    if said.topic in held or stored.topic in holds:  # one memory, several slots (fold_parts)
        part = held.get(said.topic)
        return part is None or not same_value(part, said.value)
    if said.topic in slots:
        return False
    if _sibling(said) == stored.topic:
        return said.kind == stored.kind
    gave_up = (said.topic or "").split(".")
    if (
        len(gave_up) == 2
        and gave_up[0] == "pref"
        and said.value == "dislike"
        and GAVE_UP.search(said.quote or said.content)
    ):
        category, specific = DRINKS.get(gave_up[1].replace("_", " "), ("", True))
        if not specific and stored.topic.startswith(f"diet.{category}."):
            return True  # "I quit coffee" takes the coffee order with it (as pipeline.families)
    if not said.is_correction or said.kind != stored.kind:
        return False
    proposals = {s for s in slots if s != said.topic and compatible(s, said.topic)}
    return proposals == {stored.topic}


def _states(cand: Candidate, value: str) -> bool:
    return normalize_value(value) in normalize_value(cand.content) or same_value(cand.value, value)


def replay(case: dict[str, Any]) -> dict[str, Any]:
    facts = [admitted(f) for f in case["facts"]]
    said = admitted(case["say"])
    stored = [c for cands in facts for c in cands]
    slots = [c.topic for c in stored if c.topic]
    lost = [
        f"{c.topic}={c.value}"
        for i, cands in enumerate(facts)
        if i != case["target"]
        for c in cands
        if any(_retires(s, c, slots) for s in said)
    ]
    out: dict[str, Any] = {"lost": lost, "said": [(c.topic, c.value) for c in said]}
    if case["type"] == "correction":
        target = facts[case["target"]]
        old = [c for c in target if _states(c, case["old_value"])] or target
        out["applied"] = (
            bool(old)
            and all(any(_retires(s, c, slots) for s in said) for c in old)
            and any(_states(s, case["new_value"]) for s in said)
        )
        out["old"] = [(c.topic, c.value) for c in old]
    return out


CORRECTION_BATCHES = [
    "corrections",
    "corrections_c",
    "corrections_d",
    "corrections_e",
    "corrections_f",
    "corrections_g",
]


# Corrections the rules cannot land, and why; any other miss fails the test.
KNOWN_MISSES = {
    # A keyed slot corrected without naming the old key: nothing tells which allergy it was.
    "zh-mcd-033": "说错了，我是吃菠萝会过敏 after 我吃芒果会过敏",
    "zh-mcf-005": "我搞错了，我过敏的是菠萝 after 我对芒果过敏",
    # A pet or one's studies told in one message are one memory (its first slot), so a later
    # correction of another detail (the age, the major) has no slot of its own to land in.
    "zh-mce-005": "狗狗今年四岁了 after 我家狗是金毛，今年三岁",
    "en-mce-005": "my dog is 4 after My dog is a husky, he's 3",
    "zh-mce-006": "我转专业了，现在读金融 after 我在读研，专业是计算机",
    "en-mce-006": "I switched my master's to data science after a master's in computer science",
    # A drink type liked (pref.绿茶) is not the order slot a later preference lands in.
    "zh-mce-017": "我现在更喜欢喝红茶 after 我喜欢喝绿茶",
    "en-mce-016": "These days I prefer black tea after I love green tea",
    # A matcha latte is tea (diet.tea.type); an oat latte coffee: a switch across drink
    # categories retires nothing, since a user may keep both a tea and a coffee order.
    "en-mcd-018": "I'm more of an oat latte person these days after I'm a matcha latte person",
    # A dated engagement is labelled an event (like en-d-035), not a change of marital status.
    "en-mce-011": "I got engaged last month! after I'm single",
    # A nickname that "stuck" is told as a story, not as the pet's name now.
    "en-mcg-004": "We started calling Pepper 'Pepe' and it stuck, so Pepe now",
    # A spelling names no slot: whose name is Kris?
    "en-mcf-012": "Sorry, it's Kris with a K after My husband's name is Chris",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_corrections_land_in_the_slot_they_correct(lang: str) -> None:
    """Over all correction batches: every correction lands in its slot except the known misses
    above (together ≤ 8%), and no other fact is touched."""
    cases = [c for batch in CORRECTION_BATCHES for c in load(batch) if c["lang"] == lang]
    failed, damage = [], []
    for case in cases:
        out = replay(case)
        if out["lost"]:
            damage.append((case["id"], case["say"], out["lost"], out["said"]))
        if case["type"] == "correction" and not out["applied"]:
            failed.append((case["id"], case["say"], out["old"], out["said"]))
    corrections = sum(1 for c in cases if c["type"] == "correction")
    print(f"\ncorrections[{lang}]: applied {corrections - len(failed)}/{corrections}")
    for line in failed + damage:
        print("   ", line)
    assert damage == [], damage
    assert [f for f in failed if f[0] not in KNOWN_MISSES] == []
    assert len(failed) <= 0.08 * corrections, failed
