"""``jiyi calibrate``: measure how the configured embedder's cosines read, on the dev sets.

It embeds the development data the way jiyi stores and queries it (episodes as passages with
their previous turn, questions as queries) and collects four cosine samples:

- LoCoMo question ↔ its evidence turns (relevant) and ↔ every other turn of the
  conversation (irrelevant); categories 1–4, as in the retrieval benchmark;
- DuLeMon (Chinese) context ↔ the persona sentence it relies on, and ↔ the other personas;
- LoCoMo annotator observation ↔ the turn it was drawn from (same) and ↔ the other turns
  (different).

:func:`jiyi.core.calibration.fit_calibration` turns them into a Calibration, written as JSON
(default ``$JIYI_HOME/calibration.json``), which ``jiyi serve`` and the CLI then use for that
embedder.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
import typer

from jiyi.cli.options import JsonOpt, cli_embedder, echo_json
from jiyi.cli.output import make_console, make_table
from jiyi.core.calibration import Calibration, calibration_of, fit_calibration
from jiyi.core.models import Message
from jiyi.core.ports import Embedder
from jiyi.errors import InvalidInputError
from jiyi.evaluation.datasets import load_dulemon, load_locomo, normalise_evidence
from jiyi.pipeline.write import episode_text
from jiyi.settings import load_settings

Samples = dict[str, list[float]]


def _cos(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    out: npt.NDArray[np.float32] = a @ b.T
    return out


def locomo_samples(path: Path, embedder: Embedder) -> Samples:
    """Question ↔ turn and observation ↔ turn cosines of every LoCoMo conversation."""
    out: Samples = {"relevant": [], "irrelevant": [], "same": [], "different": []}
    raw = {s["sample_id"]: s for s in json.loads(path.read_text(encoding="utf-8"))}
    for conv in load_locomo(path):
        ids: list[str] = []
        texts: list[str] = []
        for b in conv.batches:
            msgs = [Message.model_validate({**m, "timestamp": b.timestamp}) for m in b.messages]
            for i, m in enumerate(msgs):
                ids.append(str(m.id))
                texts.append(episode_text(msgs, i, 1))
        turns = embedder.embed_documents(texts)
        where = {tid: i for i, tid in enumerate(ids)}
        questions = [q for q in conv.questions if q.category in (1, 2, 3, 4)]
        qv = np.stack([embedder.embed_query(q.text) for q in questions])
        sims = _cos(qv, turns)
        for row, q in zip(sims, questions, strict=True):
            gold = [where[e] for e in q.evidence if e in where]
            mask = np.ones(len(ids), dtype=bool)
            mask[gold] = False
            out["relevant"] += [float(row[g]) for g in gold]
            out["irrelevant"] += row[mask].tolist()
        obs = [
            (text, dia)
            for per_session in raw[conv.user_id].get("observation", {}).values()
            for facts in per_session.values()
            for text, *rest in facts
            for dia in normalise_evidence([str(rest[0]) if rest else ""])[:1]
            if dia in where
        ]
        if obs:
            ov = embedder.embed_documents([t for t, _ in obs])
            for row, (_, dia) in zip(_cos(ov, turns), obs, strict=True):
                mask = np.ones(len(ids), dtype=bool)
                mask[where[dia]] = False
                out["same"].append(float(row[where[dia]]))
                out["different"] += row[mask].tolist()
    return out


def dulemon_samples(path: Path, embedder: Embedder) -> Samples:
    """Context ↔ persona cosines (Chinese), personas of all sessions pooled."""
    personas, queries = load_dulemon(path)
    pid = list(personas)
    pv = embedder.embed_documents([personas[p] for p in pid])
    where = {p: i for i, p in enumerate(pid)}
    out: Samples = {"relevant": [], "irrelevant": []}
    for q in queries:
        row = _cos(embedder.embed_query(q.context)[None, :], pv)[0]
        g = where[q.gold]
        out["relevant"].append(float(row[g]))
        out["irrelevant"] += [float(v) for i, v in enumerate(row) if i != g]
    return out


def _summary(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    p = np.percentile(values, [1, 50, 95, 99, 99.9, 100])
    return {
        "n": len(values),
        **{
            k: round(float(v), 4)
            for k, v in zip(("p1", "p50", "p95", "p99", "p99.9", "max"), p, strict=True)
        },
    }


def calibrate(
    locomo: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="LoCoMo dev file (locomo_dev.json)."),
    ] = None,
    dulemon: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="DuLeMon samples (samples.jsonl)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            dir_okay=False,
            show_default=False,
            help="Where to write it (default: $JIYI_HOME/calibration.json).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Measure the embedder's score calibration on the development sets.

    Embeds --locomo and/or --dulemon, measures the cosine floor, ceiling, related and
    duplicate thresholds, and writes them where jiyi will use them."""
    if locomo is None and dulemon is None:
        raise InvalidInputError(
            "give --locomo and/or --dulemon (e.g. ../shared/data/locomo/locomo_dev.json)",
            field="locomo",
        )
    settings = load_settings()
    embedder = cli_embedder()
    samples: Samples = {"relevant": [], "irrelevant": [], "same": [], "different": []}
    per_set: dict[str, dict[str, Any]] = {}
    for name, path, fn in (
        ("locomo", locomo, locomo_samples),
        ("dulemon", dulemon, dulemon_samples),
    ):
        if path is None:
            continue
        got = fn(path, embedder)
        per_set[name] = {k: _summary(v) for k, v in got.items()}
        for k, v in got.items():
            samples[k] += v
    if not samples["different"]:
        raise InvalidInputError(
            "the duplicate threshold needs LoCoMo observations: give --locomo", field="locomo"
        )
    before = calibration_of(embedder)
    cal: Calibration = fit_calibration(**samples)
    target = out or settings.calibration_path
    result = {
        "embedder": embedder.name,
        "calibration": cal.as_dict(),
        "previous": before.as_dict(),
        "samples": {k: _summary(v) for k, v in samples.items()},
        "per_set": per_set,
        "data": {
            "locomo": str(locomo) if locomo else None,
            "dulemon": str(dulemon) if dulemon else None,
        },
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if as_json:
        echo_json(result)
        return
    console = make_console()
    table = make_table(title=f"calibration of {embedder.name}")
    for col in ("", "measured", "was", "rule"):
        table.add_column(col, justify="left" if col in ("", "rule") else "right")
    rules = {
        "floor": "median question ↔ unrelated turn",
        "ceiling": "p95 question ↔ evidence turn",
        "related": "p99 question ↔ unrelated turn",
        "duplicate": "max statement ↔ other statement",
    }
    for key, rule in rules.items():
        table.add_row(key, f"{getattr(cal, key):.3f}", f"{getattr(before, key):.3f}", rule)
    console.print(table)
    n = {k: len(v) for k, v in samples.items()}
    console.print(f"pairs: {n}; written to {target}", markup=False)
