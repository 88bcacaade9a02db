"""The labelled sets in bench/data are well formed (bench/data/LABELS.md).

A malformed line would make a benchmark crash or, worse, score a case that can never pass
(a ``new_value`` the message never says), so every set is checked here, old and new.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
CORRECTION_SETS = sorted(DATA.glob("corrections_*.jsonl"))
BLIND_SETS = sorted(DATA.glob("extraction_blind*_*.jsonl")) + sorted(
    DATA.glob("extraction_dev*_*.jsonl")
)

CORRECTION_KEYS = {
    "id", "lang", "type", "facts", "target", "say", "query", "new_value", "old_value", "note",
}  # fmt: skip
BLIND_KEYS = {"id", "role", "text", "expect", "forget", "note"}
# The kind → topic areas table of LABELS.md.
AREAS = {
    "fact": {
        "identity", "birthday", "location", "work", "education", "family", "pet", "health",
        "habit",
    },
    "preference": {"pref", "diet", "favorite", "family"},
    "goal": {"goal"},
    "event": {"plan", "event"},
    "state": {"state"},
}  # fmt: skip


def _rows(path: Path) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"{path.name}:{n} is blank"
        row = json.loads(line)
        assert isinstance(row, dict), f"{path.name}:{n} is not an object"
        rows.append(row)
    assert rows, f"{path.name} is empty"
    return rows


def test_the_sets_are_found() -> None:
    names = {p.name for p in CORRECTION_SETS + BLIND_SETS}
    assert {"corrections_h.jsonl", "corrections_i.jsonl"} <= names
    assert {"extraction_blind3_zh.jsonl", "extraction_blind3_en.jsonl"} <= names


def test_correction_ids_are_unique_across_sets() -> None:
    seen: dict[str, str] = {}
    for path in CORRECTION_SETS:
        for row in _rows(path):
            assert row["id"] not in seen, f"{row['id']} in {path.name} and {seen[row['id']]}"
            seen[row["id"]] = path.name


@pytest.mark.parametrize("path", CORRECTION_SETS, ids=lambda p: p.stem)
def test_correction_cases_are_well_formed(path: Path) -> None:
    for row in _rows(path):
        cid = row.get("id")
        assert row.keys() >= CORRECTION_KEYS, f"{cid}: missing {CORRECTION_KEYS - row.keys()}"
        assert row["lang"] in ("zh", "en"), cid
        facts = row["facts"]
        assert facts and all(isinstance(f, str) and f.strip() for f in facts), cid
        assert isinstance(row["say"], str) and row["say"].strip(), cid
        if row["type"] == "correction":
            target = row["target"]
            assert isinstance(target, int) and 0 <= target < len(facts), cid
            assert isinstance(row["query"], str) and row["query"].strip(), cid
            new, old = row["new_value"], row["old_value"]
            assert isinstance(new, str) and isinstance(old, str) and new and old, cid
            # The bench matches values as lower-cased substrings of memory texts: a value
            # the user never wrote can only be matched when worked out (an age advanced by a
            # birthday), which the writer marks ("derived": true, or in the note).
            derived = row.get("derived") is True or "derived" in (row.get("note") or "").lower()
            assert derived or new.lower() in row["say"].lower(), f"{cid}: new_value not in say"
            assert old.lower() in facts[target].lower(), f"{cid}: old_value not in its fact"
            assert new.lower() != old.lower(), cid
        else:
            assert row["type"] == "remark", f"{cid}: type {row['type']!r}"
            assert row["target"] is None, cid
            assert row["new_value"] is None and row["old_value"] is None, cid


@pytest.mark.parametrize("path", BLIND_SETS, ids=lambda p: p.stem)
def test_blind_utterances_are_well_formed(path: Path) -> None:
    rows = _rows(path)
    ids = [r.get("id") for r in rows]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate ids"
    for row in rows:
        uid = row.get("id")
        assert row.keys() >= BLIND_KEYS, f"{uid}: missing {BLIND_KEYS - row.keys()}"
        assert row["role"] in ("user", "assistant", "system"), uid
        assert isinstance(row["text"], str) and row["text"].strip(), uid
        assert isinstance(row["forget"], bool), uid
        if row["role"] != "user":
            assert row["expect"] == [], f"{uid}: an {row['role']} line stores nothing"
        for item in row["expect"]:
            assert {"kind", "topic", "value"} <= item.keys(), uid
            area = item["topic"].split(".", 1)[0]
            assert area in AREAS.get(item["kind"], set()), f"{uid}: {item['kind']}/{area}"
