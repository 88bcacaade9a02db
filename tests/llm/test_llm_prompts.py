"""The extraction and reflection prompts: token budget, schema and golden renderings.

Set JIYI_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate prompt change (and
review the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jiyi.core.text import estimate_tokens
from jiyi.llm.prompts import extract, reflect

GOLDEN = Path(__file__).parent / "golden"
TURNS = [
    extract.Turn(n=1, role="assistant", text="你平时喝咖啡吗？"),
    extract.Turn(n=2, role="user", text="喝，  只喝冷萃\n不加糖"),
]


def check_golden(name: str, value: object) -> None:
    text = json.dumps(value, ensure_ascii=False, indent=1) + "\n"
    path = GOLDEN / name
    if os.environ.get("JIYI_UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_instructions_stay_within_600_tokens(lang: extract.Lang) -> None:
    assert extract.instruction_tokens(lang) <= extract.INSTRUCTION_BUDGET
    fixed = estimate_tokens(extract.build_messages([], lang)[0]["content"])
    assert fixed == extract.instruction_tokens(lang)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_extraction_messages_golden(lang: extract.Lang) -> None:
    check_golden(f"extract_{lang}.json", extract.build_messages(TURNS, lang))


def test_repair_messages_carry_the_bad_output_and_the_error() -> None:
    msgs = extract.build_repair_messages(TURNS, "en", '{"memories": [', "reply: invalid JSON")
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert msgs[2]["content"] == '{"memories": ['
    assert "reply: invalid JSON" in msgs[3]["content"]


def test_response_schema_is_inlined_and_requires_every_field() -> None:
    schema = extract.response_schema()
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text and "description" not in text
    assert schema["required"] == ["memories", "forget", "queries"]
    item = schema["properties"]["memories"]["items"]
    assert set(item["required"]) == set(item["properties"])
    assert item["properties"]["kind"]["enum"] == ["fact", "preference", "event", "goal", "state"]
    check_golden("extract_schema.json", extract.response_format())


def test_the_worked_example_validates_against_the_schema() -> None:
    for lang in ("zh", "en"):
        example = extract.instructions(lang).rsplit("\n", 1)[-1]  # type: ignore[arg-type]
        reply = extract.ExtractionResponse.model_validate_json(example)
        assert len(reply.memories) == 2 and reply.queries


def test_every_schema_field_is_described() -> None:
    for model in (extract.ExtractedMemory, extract.ExtractedForget, reflect.Reflection):
        for name, f in model.model_fields.items():
            assert f.description, f"{model.__name__}.{name}"


def test_reflection_messages_golden() -> None:
    msgs = reflect.build_messages(["用户对花生过敏", "用户喜欢爬山"], "zh")
    assert estimate_tokens(msgs[0]["content"]) <= 300
    check_golden("reflect_zh.json", msgs)
