"""Remarks in other users' lives: each studied set's remarks said by a fresh user holding the
background facts of another case (same language), on the real default embedder.

A remark written for one background can meet a fact its writer never thought of; any
background fact it retires is listed, to be read: some are true contradictions (the remark
says 还住天津 to a user who lives in 北京), the others are collateral damage (issue 8: "I
also have a dog named Max" retired Biscuit the pug). Held-out sets are never used.

    python bench/remarks_cross.py --pairs 800 --seed 1 --out bench/results/remarks_cross.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track

sys.path.insert(0, str(Path(__file__).parent))
import corrections
from jiyi import Memory
from jiyi.config import MemoryConfig

STUDIED = "a b c d e f g h i l m p q t u v w x y".split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="")
    ap.add_argument("--change-threshold", type=float, default=None, help="learned step on")
    args = ap.parse_args()
    cases = [c for h in STUDIED for c in corrections.load(h)]
    remarks = [c for c in cases if c["type"] != "correction"]
    backgrounds = [c for c in cases if c["type"] == "correction"]
    rng, lost, start = random.Random(args.seed), [], time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        config = MemoryConfig(change_threshold=args.change_threshold)
        mem = Memory(Path(tmp) / "cross.db", config=config)
        for k in track(range(args.pairs), description="pairs"):
            remark = rng.choice(remarks)
            other = rng.choice([b for b in backgrounds if b["lang"] == remark["lang"]])
            facts = [f for i, f in enumerate(other["facts"]) if i != other["target"]]
            case = {"id": f"x{k}", "lang": remark["lang"], "type": "remark", "facts": facts,
                    "say": remark["say"], "target": -1}  # fmt: skip
            if (got := corrections.run_case(mem, case))["collateral"]:
                lost.append({"remark": remark["id"], "background": other["id"], "say":
                             remark["say"], "facts": facts, "lost": got["collateral"]})  # fmt: skip
        mem.close()
    console = Console()
    for row in lost:
        console.print(f"[red]lost {row['lost']}[/] {row['remark']} on {row['background']}: "
                      f"{row['say']} | {row['facts']}")  # fmt: skip
    console.print(f"{args.pairs} pairs, {len(lost)} with a background fact retired "
                  f"({time.perf_counter() - start:.0f} s)")  # fmt: skip
    if args.out:
        result = {"pairs": args.pairs, "seed": args.seed, "sets": STUDIED, "lost": lost}
        result["change_threshold"] = args.change_threshold
        Path(args.out).write_text(json.dumps(result, ensure_ascii=False, indent=2), "utf-8")


if __name__ == "__main__":
    main()
