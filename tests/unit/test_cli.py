"""The ``jiyi`` command line, driven through typer's CliRunner on temporary SQLite files.

The real (offline) embedder is used; it is loaded once for the whole module.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
import typer.main
from typer.testing import CliRunner

from jiyi.cli import options
from jiyi.cli.bench import print_retrieval
from jiyi.cli.main import app
from jiyi.cli.output import make_console
from jiyi.core.ports import Embedder

runner = CliRunner()


@functools.cache
def _shared_embedder() -> Embedder:
    from jiyi.embedders import default_embedder

    return default_embedder()


@pytest.fixture(autouse=True)
def _one_model_and_no_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(options, "load_embedder", _shared_embedder)
    # Nothing may land in ./.jiyi if a command forgets --path.
    monkeypatch.setenv("JIYI_HOME", str(tmp_path / "home"))


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "mem.db"
    path.touch()  # an empty SQLite file: the reading commands refuse a --path with none
    return str(path)


def jiyi(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def ok_json(*args: str) -> Any:
    result = jiyi(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_add_search_list_history_forget_round_trip(db: str) -> None:
    added = ok_json("add", "我对花生过敏，以后别推荐带花生的菜", "--user", "u1", "--path", db)
    assert added["events"], added
    memory_id = added["events"][0]["memory"]["id"]
    assert "花生" in added["events"][0]["memory"]["content"]

    hits = ok_json("search", "花生", "--user", "u1", "--path", db)
    assert memory_id in [h["memory"]["id"] for h in hits]

    listed = ok_json("list", "--user", "u1", "--path", db)
    assert [m["id"] for m in listed] == [e["memory"]["id"] for e in added["events"]]
    table = jiyi("list", "--user", "u1", "--path", db)
    assert table.exit_code == 0 and "花生" in table.stdout

    history = ok_json("history", memory_id, "--path", db)
    assert [h["action"] for h in history] == ["ADD"]

    forgot = jiyi("forget", memory_id, "--path", db)
    assert forgot.exit_code == 0, forgot.output
    assert memory_id not in [
        m["id"] for m in ok_json("list", "--user", "u1", "--all", "--path", db)
    ]
    history = ok_json("history", memory_id, "--path", db)
    assert history[-1]["action"] == "DELETE"
    assert all(h["content"] is None for h in history)  # erased by the hard delete


def test_search_filters_by_kind(db: str) -> None:
    ok_json("add", "我对花生过敏", "--user", "u1", "--path", db)
    hits = ok_json("search", "花生", "--user", "u1", "--kind", "episode", "--path", db)
    assert hits and all(h["memory"]["kind"] == "episode" for h in hits)


def test_no_infer_stores_only_the_episode(db: str) -> None:
    added = ok_json("add", "我对花生过敏", "--user", "u1", "--no-infer", "--path", db)
    assert added["events"] == [] and len(added["episodes"]) == 1
    assert ok_json("list", "--user", "u1", "--path", db) == []
    assert len(ok_json("list", "--user", "u1", "--all", "--path", db)) == 1


def test_context_prints_the_block(db: str) -> None:
    jiyi("add", "我对花生过敏，以后别推荐带花生的菜", "--user", "u1", "--path", db)
    result = jiyi("context", "推荐个菜", "--user", "u1", "--path", db)
    assert result.exit_code == 0, result.output
    assert "花生" in result.stdout
    block = ok_json("context", "推荐个菜", "--user", "u1", "--budget", "200", "--path", db)
    assert block["tokens"] <= 200 and "花生" in block["text"]


def test_forget_user_asks_first_unless_yes(db: str) -> None:
    ok_json("add", "我对花生过敏", "--user", "u1", "--path", db)
    declined = jiyi("forget", "--user", "u1", "--path", db, input="n\n")
    assert declined.exit_code == 1
    assert ok_json("list", "--user", "u1", "--path", db)

    receipt = ok_json("forget", "--user", "u1", "--yes", "--path", db)
    assert receipt["user_id"] == "u1" and receipt["removed"]
    assert ok_json("list", "--user", "u1", "--all", "--path", db) == []


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("add", "我对花生过敏", "--user", ""), "user_id"),
        (("add", "", "--user", "u1"), "text"),
        (("add", "  ", "--user", "u1"), "text"),
        (("search", "花生", "--user", "   "), "user_id"),
        (("search", "花生", "--user", "u1", "--top-k", "0"), "top_k"),
        (("search", "花生", "--user", "u1", "--kind", "nonsense"), "kinds"),
        (("add", "你好", "--user", "u1", "--role", "robot"), "role"),
        (("context", "花生", "--user", "u1", "--budget", "10"), "token_budget"),
        (("forget", "--path"), None),  # usage error from click, also exit 2
        (("forget",), "memory_id"),
        (("forget", "some-id", "--user", "u1"), "user_id"),
        (("forget", "no-such-id"), "memory_id"),
        (("history", ""), "memory_id"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_2(
    db: str, args: tuple[str, ...], field: str | None
) -> None:
    full = [*args] if args[-1] == "--path" else [*args, "--path", db]
    result = jiyi(*full)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.output
    if field is not None:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert "(field: " in lines[0] and field in lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("search", "花生", "--user", "u1"),
        ("list", "--user", "u1"),
        ("context", "推荐个菜", "--user", "u1"),
        ("history", "some-id"),
        ("forget", "some-id"),
        ("export", "--user", "u1"),
        ("health", "--user", "u1"),
        ("maintain", "--user", "u1"),
    ],
)
def test_reading_a_mistyped_path_is_refused_not_created(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    missing = tmp_path / "typo" / "mem.db"
    result = jiyi(*args, "--path", str(missing))
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (
        f"error: no memory store at {missing}; check --path "
        "('jiyi add' or 'jiyi import' creates one) (field: path)"
    )
    assert not missing.parent.exists()


def test_add_creates_the_store_a_path_names(tmp_path: Path) -> None:
    fresh = tmp_path / "new" / "mem.db"
    ok_json("add", "我对花生过敏", "--user", "u1", "--path", str(fresh))
    assert [m["content"] for m in ok_json("list", "--user", "u1", "--path", str(fresh))] == [
        "用户对花生过敏"
    ]


def _leaf_commands(command: Any, ctx: Any) -> Iterator[tuple[str, Any]]:
    """(name, command) of every leaf, fetched the way ``--help`` fetches them."""
    for name in command.list_commands(ctx):
        sub = command.get_command(ctx, name)
        if getattr(sub, "commands", None):
            yield from _leaf_commands(sub, ctx)
        else:
            yield name, sub


def test_help_texts_survive_rich_rendering() -> None:
    group = typer.main.get_command(app)
    with click.Context(group) as ctx:
        leaves = list(_leaf_commands(group, ctx))
    assert {"import", "rotate", "calibrate"} <= {n for n, _ in leaves}  # the walk works
    for name, command in leaves:
        # A docstring's line break stayed a line break: help broke mid-sentence.
        for paragraph in (command.help or "").split("\n\n"):
            assert "\n" not in paragraph, (name, paragraph)
        # Rich reads "[default: …]" as a markup tag and drops it.
        for param in command.params:
            assert not re.search(r"(?<!\\)\[\w[^\]]*\]", getattr(param, "help", "") or ""), (
                name,
                param.help,
            )
    shown = jiyi("calibrate", "--help")
    assert shown.exit_code == 0 and "calibration.json" in shown.stdout


def test_version() -> None:
    result = jiyi("--version")
    assert result.exit_code == 0 and result.stdout.startswith("jiyi ")


def test_demo_recalls_session_1_in_session_2(tmp_path: Path) -> None:
    result = jiyi("demo", "--path", str(tmp_path / "demo.db"))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "跳过了" in out and "脱敏" in out and "13812345678" not in out.split("[3]")[1]
    session_2_block = out.split("[6]")[1]
    for word in ("冷萃", "不加糖", "奶油"):
        assert word in session_2_block, out


def _locomo_results() -> dict[str, Any]:
    cfg = {
        "recall": {
            g: {"@5": 0.5, "@10": 0.6, "@25": 0.7}
            for g in ("all_1_4", "cat1", "cat2", "cat3", "cat4", "cat5")
        },
        "questions": {"all_1_4": 10, "cat1": 2, "cat2": 3, "cat3": 1, "cat4": 4, "cat5": 2},
        "session_recall@10": 0.8,
        "search_ms_p50": 9.1,
        "search_ms_p95": 20.2,
    }
    return {
        "dataset": "locomo",
        "messages": 100,
        "ingest_messages_per_s": 50.0,
        "mean_context_tokens": 300.0,
        "configs": {"jiyi": cfg, "bm25_only": cfg, "dense_only": cfg},
    }


def _dulemon_results() -> dict[str, Any]:
    cfg = {
        "recall": {"@1": 0.3, "@3": 0.5, "@5": 0.6, "@10": 0.7},
        "search_ms_p50": 5.0,
        "search_ms_p95": 8.0,
    }
    return {
        "dataset": "dulemon",
        "personas": 40,
        "queries": 30,
        "ingest_messages_per_s": 80.0,
        "configs": {"jiyi": cfg, "bm25_only": cfg},
    }


@pytest.mark.parametrize("results", [_locomo_results(), _dulemon_results()])
def test_bench_table_shows_every_config(
    results: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    print_retrieval(make_console(), results)
    out = capsys.readouterr().out
    for name in results["configs"]:
        assert name in out
    assert "70.0" in out  # recall is shown in percent


def test_bench_retrieval_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = jiyi("bench", "retrieval", "--dataset", "locomo", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_cli_works_without_the_server_extra() -> None:
    # As if fastapi (and so jiyi.cli.serve) could not be imported.
    code = (
        "import re, sys; sys.modules['jiyi.cli.serve'] = None\n"
        "from typer.testing import CliRunner\n"
        "from jiyi.cli.main import app\n"
        "r = CliRunner().invoke(app, ['--help'])\n"
        # No command named serve (other commands' help may say 'server').
        "assert r.exit_code == 0 and 'demo' in r.stdout\n"
        "assert not re.search(r'^\\W*serve\\b', r.stdout, re.M), r.stdout\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
