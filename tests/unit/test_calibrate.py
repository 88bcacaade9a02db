"""Calibrations are measured: the rules of fit_calibration, and ``jiyi calibrate`` writing a
file that the entry points then hand to the embedder it was measured for."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from jiyi import backends
from jiyi.cli.main import app
from jiyi.core.calibration import Calibration, calibration_for, calibration_of, fit_calibration
from jiyi.settings import Settings

runner = CliRunner()


def test_fit_reads_the_four_thresholds_off_their_percentiles() -> None:
    irrelevant = list(np.linspace(0.70, 0.90, 1001))  # median 0.80, p99 0.898
    relevant = list(np.linspace(0.80, 0.95, 101))  # p95 0.9425
    different = list(np.linspace(0.70, 0.95, 1001))  # max 0.95
    cal = fit_calibration(relevant, irrelevant, [0.9], different)
    assert cal == Calibration(floor=0.8, ceiling=0.943, duplicate=0.951, related=0.898)
    assert cal.semantic(0.8) == 0.0 and cal.semantic(0.943) == 1.0


def test_fit_refuses_an_embedder_that_cannot_tell_relevant_from_unrelated() -> None:
    with pytest.raises(ValueError, match="cannot separate"):
        fit_calibration([0.5, 0.52], [0.6, 0.7, 0.8], [], [0.5])
    with pytest.raises(ValueError, match="at least one"):
        fit_calibration([], [0.5], [], [0.5])


def test_a_calibration_round_trips_and_validates() -> None:
    cal = Calibration(floor=0.7, ceiling=0.9, duplicate=0.95, related=0.85)
    assert Calibration.from_dict({**cal.as_dict(), "extra": 1}) == cal
    with pytest.raises(ValueError, match="below ceiling"):
        Calibration.from_dict({**cal.as_dict(), "floor": 0.95})
    with pytest.raises(KeyError):
        Calibration.from_dict({"floor": 0.1})


def test_an_embedders_own_calibration_wins_over_the_built_in_one() -> None:
    class Own:
        name = "hashing"
        calibration = Calibration(floor=0.3, ceiling=0.6, duplicate=0.9, related=0.5)

    class Plain:
        name = "hashing"

    assert calibration_of(Own()) == Own.calibration
    assert calibration_of(Plain()) == calibration_for("hashing")


def _dev_files(tmp_path: Path) -> tuple[Path, Path]:
    """Tiny LoCoMo- and DuLeMon-shaped files (the real ones are in ../shared/data)."""
    turns = [
        ("Ann", "D1:1", "I adopted a puppy named Rex last week"),
        ("Bo", "D1:2", "Congrats! What breed is Rex?"),
        ("Ann", "D1:3", "Rex is a beagle and loves the park"),
        ("Bo", "D1:4", "I started a new job at the bakery"),
        ("Ann", "D1:5", "How is the bakery job going?"),
        ("Bo", "D1:6", "The bakery job is great, I bake bread every morning"),
    ]
    sample = {
        "sample_id": "conv-t",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": s, "dia_id": d, "text": t} for s, d, t in turns],
        },
        "qa": [
            {"question": "What breed is Rex?", "evidence": ["D1:3"], "category": 1, "answer": "x"},
            {"question": "Where does Bo work?", "evidence": ["D1:4"], "category": 4, "answer": "x"},
        ],
        "observation": {
            "session_1_observation": {
                "Ann": [["Ann adopted a beagle puppy named Rex.", "D1:1"]],
                "Bo": [["Bo works at a bakery and bakes bread.", "D1:6"]],
            }
        },
    }
    locomo = tmp_path / "locomo.json"
    locomo.write_text(json.dumps([sample]))
    dulemon = tmp_path / "dulemon.jsonl"
    row = {
        "user_said_persona": ["U1: 我 喜欢 运动", "U2: 我 有 一 条 狗"],
        "user_no_said_persona": [],
        "conversation": [
            "Bot: 你 周末 做 什么",
            "Usr: 我 周末 去 打 篮球 运动\tU1",
            "Bot: 你 家 有 宠物 吗",
            "Usr: 我 的 狗 叫 旺财\tU2",
        ],
    }
    dulemon.write_text(json.dumps(row, ensure_ascii=False) + "\n")
    return locomo, dulemon


def test_jiyi_calibrate_writes_what_the_embedder_then_carries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JIYI_EMBEDDER", "hashing")
    monkeypatch.setenv("JIYI_HOME", str(tmp_path / "home"))
    locomo, dulemon = _dev_files(tmp_path)
    result = runner.invoke(
        app, ["calibrate", "--locomo", str(locomo), "--dulemon", str(dulemon), "--json"]
    )
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "home" / "calibration.json").read_text())
    assert written == json.loads(result.stdout)
    assert written["embedder"] == "hashing"
    samples = written["samples"]
    assert samples["relevant"]["n"] == 2 + 2  # two LoCoMo questions, two DuLeMon queries
    assert samples["same"]["n"] == 2 and samples["different"]["n"] == 2 * 5
    cal = Calibration.from_dict(written["calibration"])
    assert cal.floor < cal.ceiling
    emb = backends.open_embedder(Settings(home=tmp_path / "home", embedder="hashing"))
    assert calibration_of(emb) == cal
    human = runner.invoke(app, ["calibrate", "--locomo", str(locomo), "-o", str(tmp_path / "c")])
    assert human.exit_code == 0 and "p95 question ↔ evidence turn" in human.stdout


def test_jiyi_calibrate_needs_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_EMBEDDER", "hashing")
    monkeypatch.setenv("JIYI_HOME", str(tmp_path))
    result = runner.invoke(app, ["calibrate"])
    assert result.exit_code == 2 and "--locomo" in result.output
    _, dulemon = _dev_files(tmp_path)
    result = runner.invoke(app, ["calibrate", "--dulemon", str(dulemon)])
    assert result.exit_code == 2 and "observations" in result.output
