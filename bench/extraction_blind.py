"""What jiyi stores from single messages, on the blind labelled sets (bench/data).

Each utterance is sent through ``Memory.add`` for a fresh user (rule extraction, admission,
PII, reconciliation: the whole write path), and the long-term memories it leaves active are
compared with the labels on (kind, topic area) — the first dotted segment of the topic.

    .venv/bin/python bench/extraction_blind.py            # both languages, table + JSON
    .venv/bin/python bench/extraction_blind.py --split    # also the two halves (odd/even ids)
    .venv/bin/python bench/extraction_blind.py --set 2    # the second blind set (blind2_*)
    .venv/bin/python bench/extraction_blind.py --set 3    # the third blind set (blind3_*)
    .venv/bin/python bench/extraction_blind.py --set dev5 --langs en   # extraction_dev5_en
    .venv/bin/python bench/extraction_blind.py --set dev5 --langs zh   # dev set extraction_dev5_zh

Reported per language (and for the traditional-Chinese lines alone):
  precision / recall  over expected vs stored (kind, area) items;
  junk stored         stored items on utterances that expect none;
  forget found        forget requests recognised / forget requests labelled.
The sets were written from bench/data/LABELS.md and committed before any tuning; the first
score (before the rules saw them) is kept in bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from jiyi import Memory
from jiyi.embedders import HashingEmbedder

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
OUT = ROOT / "bench" / "results" / "extraction_blind.json"
NOW = datetime(2026, 5, 15, 6, 30, tzinfo=UTC)  # 14:30 in Shanghai, a weekday


def load(lang: str, name: str = "") -> list[dict[str, Any]]:
    # A set named by digits is a blind set; any other name (dev5) is extraction_{name}_*.
    stem = f"blind{name}" if name.isdigit() or not name else name
    path = DATA / f"extraction_{stem}_{lang}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def stored_items(
    mem: Memory, row: dict[str, Any], user: str
) -> tuple[list[tuple[str, str]], bool, list[str]]:
    """Run one utterance for a fresh user; return its active (kind, area) items, whether
    a forget request was recognised, and each stored memory as ``kind topic: content``."""
    res = mem.add([{"role": row["role"], "content": row["text"]}], user_id=user, timestamp=NOW)
    forgot = any(s.reason.startswith("forget") for s in res.skipped) or any(
        e.event.value == "DELETE" for e in res.events
    )
    active = mem.list(user_id=user)
    items = [(m.kind.value, (m.topic or "").split(".", 1)[0]) for m in active]
    return items, forgot, [f"{m.kind.value} {m.topic}: {m.content}" for m in active]


def score(
    rows: list[dict[str, Any]], got: dict[str, tuple[list[tuple[str, str]], bool, list[str]]]
) -> dict[str, Any]:
    tp = fp = fn = junk = forget_want = forget_hit = 0
    misses: list[dict[str, Any]] = []
    for row in rows:
        items, forgot, stored = got[row["id"]]
        pred = Counter(items)
        want = Counter((e["kind"], e["topic"].split(".", 1)[0]) for e in row["expect"])
        hit = sum((pred & want).values())
        tp += hit
        fp += sum(pred.values()) - hit
        fn += sum(want.values()) - hit
        if not want:
            junk += sum(pred.values())
        if row.get("forget"):
            forget_want += 1
            forget_hit += forgot
        if pred != want:
            misses.append(
                {
                    "id": row["id"],
                    "text": row["text"],
                    "want": sorted(want.elements()),
                    "got": sorted(pred.elements()),
                    "stored": stored,
                }
            )
    return {
        "utterances": len(rows),
        "precision": round(tp / max(1, tp + fp), 3),
        "recall": round(tp / max(1, tp + fn), 3),
        "junk_stored": junk,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "forget_found": f"{forget_hit}/{forget_want}",
        "misses": misses,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--set",
        default="",
        dest="name",
        help="which blind set: '' = extraction_blind_{zh,en}.jsonl, any other name N ="
        " extraction_blindN_{zh,en}.jsonl ('2', '3' held out), a non-numeric name such as dev5 ="
        " extraction_dev5_{zh,en}.jsonl",
    )
    ap.add_argument("--langs", default="zh,en")
    ap.add_argument("--split", action="store_true", help="also score odd and even ids apart")
    ap.add_argument(
        "--show-misses",
        "--show-failures",
        action="store_true",
        help="per utterance that differs from its label: expected vs stored (kind, area), "
        "and each stored memory's topic and content",
    )
    args = ap.parse_args()
    if args.out is None:
        stem = args.name if args.name and not args.name.isdigit() else f"blind{args.name}"
        args.out = OUT.with_name(f"extraction_{stem}.json")  # dev5 → extraction_dev5.json

    report: dict[str, Any] = {"now": NOW.isoformat(), "results": {}}
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        # Every user is fresh, so nothing is reconciled against stored memories: the outcome
        # cannot depend on similarity, and the hashing embedder keeps the run fast.
        mem = Memory(Path(tmp) / "blind.db", embedder=HashingEmbedder())
        for lang in args.langs.split(","):
            rows = load(lang, args.name)
            got = {r["id"]: stored_items(mem, r, f"u-{r['id']}") for r in rows}
            groups = {lang: rows}
            if lang == "zh":
                groups["zh-traditional"] = [r for r in rows if r.get("trad")]
            if args.split:
                groups[f"{lang}-odd"] = [r for r in rows if int(r["id"].split("-")[-1]) % 2]
                groups[f"{lang}-even"] = [r for r in rows if not int(r["id"].split("-")[-1]) % 2]
            for name, part in groups.items():
                report["results"][name] = score(part, got)
        mem.close()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    table = Table(title="blind extraction through Memory.add (rules)")
    for col in ("set", "n", "P", "R", "junk stored", "forget found"):
        table.add_column(col, justify="left" if col == "set" else "right")
    for name, r in report["results"].items():
        table.add_row(
            name,
            str(r["utterances"]),
            f"{r['precision']:.3f}",
            f"{r['recall']:.3f}",
            str(r["junk_stored"]),
            r["forget_found"],
        )
    console.print(table)
    if args.show_misses:
        for name in args.langs.split(","):
            for m in report["results"][name]["misses"]:
                console.print(f"{m['id']} {m['text']}\n    want {m['want']}\n    got  {m['got']}")
                for line in m["stored"]:
                    console.print(f"      · {line}", markup=False)
    console.print(f"written to {args.out}")


if __name__ == "__main__":
    main()
