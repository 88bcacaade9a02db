"""``jiyi import``: chat logs in three shapes, each message stored once however often the
file is imported (resumable), with the hashing embedder (JIYI_EMBEDDER=hashing) for speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jiyi.cli.main import app

runner = CliRunner()

CHAT = [
    {"role": "user", "content": "我对花生过敏，以后别推荐带花生的菜", "id": "m-1"},
    {"role": "assistant", "content": "好的，记住了。"},
    {"role": "user", "content": "我下周三去成都出差"},
    {"role": "tool", "content": '{"weather": "sunny"}'},
    {"role": "user", "content": ""},
    {"role": "user", "content": "I live in Berlin with my cat Mochi"},
    {"role": "assistant", "content": "Mochi is a lovely name."},
    {"role": "user", "content": "我最近在学弹钢琴"},
]


@pytest.fixture(autouse=True)
def _fast_embedder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JIYI_EMBEDDER", "hashing")
    monkeypatch.setenv("JIYI_HOME", str(tmp_path / "home"))


def jiyi(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    return result


def imported(*args: str) -> dict[str, Any]:
    result = jiyi("import", *args, "--json")
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def episodes(db: str, user: str) -> list[dict[str, Any]]:
    result = jiyi("list", "--user", user, "--all", "--path", db, "--json")
    assert result.exit_code == 0, result.output
    return [m for m in json.loads(result.stdout) if m["kind"] == "episode"]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return path


def test_jsonl_messages_are_imported_once_and_a_rerun_stores_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    log = write_jsonl(tmp_path / "chat.jsonl", CHAT)
    first = imported(str(log), "--user", "u", "--path", db, "--batch", "2")
    assert first["format"] == "jsonl"
    assert first["messages"] == 6 and first["skipped_in_file"] == 2  # tool output, empty
    assert first["stored"] == 6 and first["already_imported"] == 0
    assert first["memories"] >= 2  # the allergy, the trip …
    stored = episodes(db, "u")
    assert len(stored) == 6
    assert {e["source_message_ids"][0] for e in stored} >= {"m-1", "chat.jsonl:3"}
    again = imported(str(log), "--user", "u", "--path", db, "--batch", "2")
    assert again["stored"] == 0 and again["already_imported"] == 6 and again["memories"] == 0
    assert len(episodes(db, "u")) == 6


def test_an_interrupted_import_resumes_where_it_stopped(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    part = write_jsonl(tmp_path / "chat.jsonl", CHAT[:3])
    assert imported(str(part), "--user", "u", "--path", db)["stored"] == 3
    full = write_jsonl(tmp_path / "chat.jsonl", CHAT)  # the same log, grown
    rest = imported(str(full), "--user", "u", "--path", db, "--batch", "3")
    assert rest["already_imported"] == 3 and rest["stored"] == 3
    assert len(episodes(db, "u")) == 6


def test_batches_keep_the_previous_turn_as_context(tmp_path: Path) -> None:
    """Split into batches of one, the answer is still indexed with its question."""
    rows = [
        {"role": "user", "content": "你还记得我女儿的名字吗"},
        {"role": "assistant", "content": "记得，叫朵朵"},
    ]
    log = write_jsonl(tmp_path / "chat.jsonl", rows)
    found = []
    for batch in ("1", "64"):
        db = str(tmp_path / f"m{batch}.db")
        imported(str(log), "--user", "u", "--path", db, "--batch", batch, "--no-infer")
        hits = jiyi("search", "女儿", "--user", "u", "--path", db, "--json")
        found.append(
            sorted(
                h["memory"]["content"]
                for h in json.loads(hits.stdout)
                if h["scores"].get("keyword", 0) > 0  # the answer is indexed with "女儿"
            )
        )
    assert found[0] == found[1] and "记得，叫朵朵" in found[0]


def test_openai_messages_shape_one_or_many_conversations(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    one = tmp_path / "one.json"
    one.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "developer", "content": "You are helpful."},
                    {"role": "user", "content": [{"type": "text", "text": "我对芒果过敏"}]},
                    {"role": "assistant", "content": "好的"},
                    {"role": "tool", "content": "{}"},
                ]
            },
            ensure_ascii=False,
        )
    )
    r = imported(str(one), "--user", "u", "--path", db)
    assert (r["format"], r["stored"], r["skipped_in_file"]) == ("openai", 3, 1)
    many = tmp_path / "many.json"
    many.write_text(
        json.dumps(
            [
                {"user_id": "a", "messages": [{"role": "user", "content": "我住在杭州"}]},
                {"user_id": "b", "messages": [{"role": "user", "content": "I work at Siemens"}]},
            ]
        )
    )
    r = imported(str(many), "--path", db)
    assert r["users"] == ["a", "b"] and r["stored"] == 2
    assert episodes(db, "a")[0]["session_id"] == "many.json:0"


def test_a_locomo_style_file_is_one_user_per_sample_dated_by_session(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    sample = {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a puppy!"},
                {
                    "speaker": "Bo",
                    "dia_id": "D1:2",
                    "text": "Cute!",
                    "blip_caption": "a small brown dog",
                },
            ],
            "session_2_date_time": "9:00 am on 20 June, 2023",
            "session_2": [{"speaker": "Bo", "dia_id": "D2:1", "text": "How is the puppy?"}],
            "session_3_date_time": "10:00 am on 1 July, 2023",
        },
        "qa": [],
    }
    log = tmp_path / "locomo.json"
    log.write_text(json.dumps([sample]))
    r = imported(str(log), "--path", db)
    assert (r["format"], r["users"], r["stored"]) == ("locomo", ["conv-x"], 3)
    stored = {e["source_message_ids"][0]: e for e in episodes(db, "conv-x")}
    assert stored["D1:1"]["observed_at"].startswith("2023-05-08")
    assert stored["D2:1"]["observed_at"].startswith("2023-06-20")
    assert "small brown dog" in stored["D1:2"]["content"]
    assert stored["D1:1"]["speaker"] == "Ann"
    assert imported(str(log), "--path", db)["already_imported"] == 3


def test_bad_files_fail_with_one_line_that_names_the_place(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    no_user = write_jsonl(tmp_path / "a.jsonl", [{"role": "user", "content": "hi"}])
    r = jiyi("import", str(no_user), "--path", db)
    assert r.exit_code == 2 and "pass --user" in r.output and "(field: user_id)" in r.output
    broken = tmp_path / "b.jsonl"
    broken.write_text('{"role": "user", "content": "hi"}\n{oops\n')
    r = jiyi("import", str(broken), "--user", "u", "--path", db)
    assert r.exit_code == 2 and "b.jsonl line 2" in r.output
    bad_role = write_jsonl(tmp_path / "c.jsonl", [{"role": "robot", "content": "beep"}])
    r = jiyi("import", str(bad_role), "--user", "u", "--path", db)
    assert r.exit_code == 2 and "unknown role 'robot'" in r.output


def test_the_human_summary_is_a_table(tmp_path: Path) -> None:
    log = write_jsonl(tmp_path / "chat.jsonl", CHAT[:3])
    r = jiyi("import", str(log), "--user", "u", "--path", str(tmp_path / "m.db"))
    assert r.exit_code == 0, r.output
    assert "stored now" in r.stdout and "memories extracted" in r.stdout
