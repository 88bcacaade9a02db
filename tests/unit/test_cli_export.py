"""``jiyi export --user U > f.json`` and ``jiyi import f.json``: one user out of one SQLite
file and into another, with the same memories and searches; a broken or foreign document is
one error line naming the field (exit 2), and nothing is written."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jiyi.cli import options
from jiyi.cli.main import app
from jiyi.core.ports import Embedder

runner = CliRunner()


@functools.cache
def _shared_embedder() -> Embedder:
    from jiyi.embedders import default_embedder

    return default_embedder()


@pytest.fixture(autouse=True)
def _one_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(options, "load_embedder", _shared_embedder)
    monkeypatch.setenv("JIYI_HOME", str(tmp_path / "home"))


def jiyi(*args: str) -> Any:
    return runner.invoke(app, list(args))


def ok_json(*args: str) -> Any:
    result = jiyi(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_export_then_import_into_another_file(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    jiyi("add", "我对花生过敏，住在杭州", "--user", "u1", "--path", a)
    jiyi("add", "I work at Globex as an accountant", "--user", "u1", "--path", a)
    out = jiyi("export", "--user", "u1", "--path", a)
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert (doc["format"], doc["user_id"]) == ("jiyi.export", "u1")
    file = tmp_path / "u1.json"
    file.write_text(out.stdout, encoding="utf-8")
    done = jiyi("import", str(file), "--path", b)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["imported"]["memories"] == len(doc["sections"]["memories"])
    assert ok_json("list", "--user", "u1", "--path", b) == ok_json(
        "list", "--user", "u1", "--path", a
    )
    for q in ("能吃花生吗", "where do I work"):
        want = [h["memory"]["id"] for h in ok_json("search", q, "--user", "u1", "--path", a)]
        assert want == [
            h["memory"]["id"] for h in ok_json("search", q, "--user", "u1", "--path", b)
        ]
    again = jiyi("import", str(file), "--path", b)  # twice is once
    assert again.exit_code == 0 and len(ok_json("list", "--user", "u1", "--path", b)) == len(
        ok_json("list", "--user", "u1", "--path", a)
    )


def test_a_broken_or_foreign_document_is_one_error_line(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    jiyi("add", "我养了一只猫叫阿橘", "--user", "u1", "--path", a)
    doc = json.loads(jiyi("export", "--user", "u1", "--path", a).stdout)
    cases = [
        ({**doc, "tenant": "globex"}, [], "tenant"),
        (doc, ["--user", "u2"], "user_id"),
        ({**doc, "sections": {"memories": [{"memory": {"id": "x"}}]}}, [], "sections.memories"),
    ]
    for n, (bad, extra, field) in enumerate(cases):
        file = tmp_path / f"bad{n}.json"
        file.write_text(json.dumps(bad), encoding="utf-8")
        result = jiyi("import", str(file), *extra, "--path", b)
        assert result.exit_code == 2, result.output
        line = result.stderr.strip()
        assert line.startswith("error: ") and f"(field: {field}" in line and "\n" not in line
    broken = tmp_path / "broken.json"
    broken.write_text('{"format":"jiyi.export", "version": 1, ', encoding="utf-8")
    result = jiyi("import", str(broken), "--path", b)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert ok_json("list", "--user", "u1", "--path", b) == []
    assert ok_json("list", "--user", "u2", "--path", b) == []
    remapped = jiyi("import", str(tmp_path / "bad1.json"), "--user", "u2", "--remap", "--path", b)
    assert remapped.exit_code == 0, remapped.output
    assert [m["user_id"] for m in ok_json("list", "--user", "u2", "--path", b)] == ["u2"]


def test_jsonl_export_then_import_and_a_bad_line(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    jiyi("add", "我对花生过敏，住在杭州", "--user", "u1", "--path", a)
    jiyi("add", "I work at Globex as an accountant", "--user", "u1", "--path", a)
    out = jiyi("export", "--user", "u1", "--format", "jsonl", "--path", a)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    header = json.loads(lines[0])
    assert (header["format"], header["user_id"]) == ("jiyi.export.jsonl", "u1")
    assert len(lines) == 1 + sum(header["counts"].values())
    # A broken line: one error line naming it, nothing written.
    bad = tmp_path / "bad.jsonl"
    record = json.loads(lines[1])
    record["record"]["memory"]["confidence"] = "very"
    bad.write_text("\n".join([lines[0], json.dumps(record), *lines[2:]]) + "\n", "utf-8")
    result = jiyi("import", str(bad), "--path", b)
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith("error: line 2") and "(field: lines.2.record.memory.confidence)" in line
    assert ok_json("list", "--user", "u1", "--path", b) == []
    file = tmp_path / "u1.jsonl"  # a .jsonl name: told from a chat log by its header
    file.write_text(out.stdout, encoding="utf-8")
    done = jiyi("import", str(file), "--path", b)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["imported"]["memories"] == header["counts"]["memories"]
    assert ok_json("list", "--user", "u1", "--path", b) == ok_json(
        "list", "--user", "u1", "--path", a
    )
    for q in ("能吃花生吗", "where do I work"):
        want = [
            (h["memory"]["id"], h["score"])
            for h in ok_json("search", q, "--user", "u1", "--path", a)
        ]
        assert want == [
            (h["memory"]["id"], h["score"])
            for h in ok_json("search", q, "--user", "u1", "--path", b)
        ]
    # A chat log in .jsonl is still a chat log.
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"user_id": "u3", "role": "user", "content": "我养了一只猫"}\n', "utf-8")
    imported = jiyi("import", str(chat), "--path", b, "--json")
    assert imported.exit_code == 0, imported.output
    assert json.loads(imported.stdout)["format"] == "jsonl"
