"""Corrections and harmless remarks, each in a fresh user, on the real default embedder.

    .venv/bin/python bench/corrections.py                 # halves a (dev) and b (held out)
    .venv/bin/python bench/corrections.py --embedder hashing

Every case of bench/data/corrections_{a,b}.jsonl is one user: its background facts are said
one message a day, then the correction (or the "其实 / actually" remark) a week later, then
the query is searched. Reported per half, language and type:

  applied     corrections where every memory made from the corrected fact that states the old
              value is inactive and an active memory holds the new value;
  top-1       corrections whose first search hit states the new value (and is not outdated);
  collateral  memories of the *other* facts that the correction or remark deactivated or
              deleted (target: 0);
  extracted   corrections whose old fact had been stored at all (a miss here is an extraction
              gap, not a reconciliation error);
  why not applied  among corrections whose old fact was stored but that were not applied: how
              many left a long-term memory (not only the episode) holding the new value
              ("new fact", so the old one was not retired: a slot that did not match) and how
              many did not ("no new fact": the correction's value was never extracted);
  applied, not top-1  applied corrections whose first hit is still not the current value (a
              ranking miss, not a write miss);
  remark first  remarks with a query whose first search hit is the remark itself (the
              newer-word step must not make a remark the answer; ``--no-newer`` ranks without
              that step, for comparison).
Writes bench/results/corrections.json.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.models import MemoryKind
from jiyi.core.retrieval import PRESETS

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
OUT = ROOT / "bench" / "results" / "corrections.json"
START = datetime(2026, 10, 1, 1, 0, tzinfo=UTC)


def load(half: str) -> list[dict[str, Any]]:
    path = DATA / f"corrections_{half}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _made(result: Any) -> set[str]:
    """Ids of the long-term memories an add created or refreshed."""
    return {e.memory.id for e in result.events if e.memory.kind != MemoryKind.EPISODE}


def store_facts(mem: Memory, case: dict[str, Any]) -> tuple[list[set[str]], dict[str, str]]:
    """Say the case's background facts one a day: the memory ids each made, and every
    memory's text by id."""
    made: list[set[str]] = []
    contents: dict[str, str] = {}
    for i, fact in enumerate(case["facts"]):
        res = mem.add(fact, user_id=case["id"], timestamp=START + timedelta(days=i))
        made.append(_made(res))
        contents |= {e.memory.id: e.memory.content for e in res.events}
    return made, contents


def run_case(mem: Memory, case: dict[str, Any]) -> dict[str, Any]:
    user = case["id"]
    made, contents = store_facts(mem, case)
    said_at = START + timedelta(days=len(case["facts"]) + 7)
    before = {m.id for m in mem.list(user_id=user)}
    mem.add(case["say"], user_id=user, timestamp=said_at)
    after = {m.id: m for m in mem.list(user_id=user)}
    target = case["target"]
    others = set().union(*(ids for i, ids in enumerate(made) if i != target)) & before
    lost = sorted(others - set(after))
    out: dict[str, Any] = {"id": case["id"], "lang": case["lang"], "type": case["type"]}
    out["collateral"] = len(lost)
    # background memories a later background message retired (none expected)
    out["setup_lost"] = len(set().union(*made) - before)
    if case["type"] != "correction":
        if case.get("query"):  # a remark must not become the answer to its slot's question
            hits = mem.search(case["query"], user_id=user, top_k=1, now=said_at + timedelta(days=1))
            out["remark_first"] = bool(hits) and hits[0].memory.observed_at >= said_at
        return out
    new_value = case["new_value"].lower()
    # The old value must be gone: the target's memories that state it (a target such as
    # "我在腾讯做产品经理" also made a role memory that a change of employer leaves true).
    old_value = case["old_value"].lower()
    stating = {i for i in made[target] if old_value in contents.get(i, "").lower()}
    old_ids = stating or made[target]
    new_active = any(new_value in m.content.lower() for m in after.values())
    out["new_fact"] = any(
        new_value in m.content.lower() for m in after.values() if m.kind != MemoryKind.EPISODE
    )
    out["extracted"] = bool(old_ids)
    out["applied"] = bool(old_ids) and not (old_ids & set(after)) and new_active
    hits = mem.search(case["query"], user_id=user, top_k=5, now=said_at + timedelta(days=1))
    top = hits[0].memory if hits else None
    outdated = top is not None and top.valid_to is not None and top.valid_to <= said_at
    out["top1"] = bool(top and new_value in top.content.lower() and not outdated)
    out["top1_text"] = top.content if top else None
    if not out["applied"]:
        out["old_still_active"] = [after[i].content for i in old_ids if i in after]
        out["active"] = [(m.topic, m.content) for m in after.values()]
    return out


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    corr = [r for r in rows if r["type"] == "correction"]
    rem = [r for r in rows if r["type"] != "correction"]

    def rate(key: str) -> float:
        return round(sum(r[key] for r in corr) / max(1, len(corr)), 3)

    stuck = [r for r in corr if r["extracted"] and not r["applied"]]
    return {
        "corrections": len(corr),
        "remarks": len(rem),
        "applied": rate("applied"),
        "top1": rate("top1"),
        "extracted": rate("extracted"),
        "not_applied_new_fact": sum(bool(r.get("new_fact")) for r in stuck),
        "not_applied_no_new_fact": sum(not r.get("new_fact") for r in stuck),
        "applied_not_top1": sum(r["applied"] and not r["top1"] for r in corr),
        "collateral_facts_lost": sum(r["collateral"] for r in rows),
        "remarks_asked": sum("remark_first" in r for r in rem),
        "remark_first": sum(bool(r.get("remark_first")) for r in rem),
        "collateral_in_remarks": sum(r["collateral"] for r in rem),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--halves", default="a,b")
    ap.add_argument("--embedder", choices=["default", "hashing"], default="default")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument(
        "--no-newer", action="store_true", help="rank without the newer-word step (newer_ratio 0)"
    )
    ap.add_argument(
        "--change-threshold",
        default="default",
        help="the learned change step's threshold ('off' for none; default: the config's)",
    )
    args = ap.parse_args()

    console = Console()
    report: dict[str, Any] = {"embedder": args.embedder, "halves": {}, "cases": []}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        embedder = None
        if args.embedder == "hashing":
            from jiyi.embedders import HashingEmbedder

            embedder = HashingEmbedder()
        config = MemoryConfig()
        if args.no_newer:
            config = MemoryConfig(
                retrieval=PRESETS["balanced"].model_copy(update={"newer_ratio": 0})
            )
        report["newer"] = not args.no_newer
        if args.change_threshold != "default":
            off = args.change_threshold == "off"
            config = config.model_copy(
                update={"change_threshold": None if off else float(args.change_threshold)}
            )
        report["change_threshold"] = config.change_threshold
        mem = Memory(Path(tmp) / "corrections.db", embedder=embedder, config=config)
        report["embedder_name"] = mem.embedder.name
        cases = [(h, c) for h in args.halves.split(",") for c in load(h)]
        rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("cases", total=len(cases))
            for half, case in cases:
                row = run_case(mem, case)
                row["half"] = half
                rows[half].append(row)
                report["cases"].append(row)
                bar.advance(task)
        mem.close()
    for half, part in rows.items():
        report["halves"][half] = {"all": summarize(part)} | {
            lang: summarize([r for r in part if r["lang"] == lang]) for lang in ("zh", "en")
        }
    report["seconds"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    table = Table(title=f"corrections ({report['embedder_name']})")
    for col in (
        "half",
        "lang",
        "corrections",
        "applied",
        "top-1",
        "extracted",
        "new fact / none",
        "applied, not top-1",
        "remarks",
        "remark first",
        "collateral lost",
    ):
        table.add_column(col, justify="left" if col in ("half", "lang") else "right")
    for half, parts in report["halves"].items():
        for lang, s in parts.items():
            table.add_row(
                half,
                lang,
                str(s["corrections"]),
                f"{s['applied']:.1%}",
                f"{s['top1']:.1%}",
                f"{s['extracted']:.1%}",
                f"{s['not_applied_new_fact']}/{s['not_applied_no_new_fact']}",
                str(s["applied_not_top1"]),
                str(s["remarks"]),
                f"{s['remark_first']}/{s['remarks_asked']}",
                str(s["collateral_facts_lost"]),
            )
    console.print(table)
    if args.show_failures:
        for r in report["cases"]:
            bad = r["collateral"] or (
                r["type"] == "correction" and not (r["applied"] and r["top1"])
            )
            if bad:
                console.print(json.dumps(r, ensure_ascii=False))
    console.print(f"{report['seconds']} s; written to {args.out}")


if __name__ == "__main__":
    main()
