"""Search latency of two versions of jiyi side by side: the same 10k-memory corpus, the same
queries, runs alternating A, B, A, B … so both see the same machine load.

Each version's store is built by its own ``bench/latency.py --db PATH`` (same corpus, seed 7);
then, for example, to compare the code of a commit with the working tree::

    git worktree add /tmp/jiyi-base <commit>
    (cd /tmp/jiyi-base && PYTHONPATH=src ../jiyi/.venv/bin/python bench/latency.py --db /tmp/a.db)
    .venv/bin/python bench/latency.py --db /tmp/b.db
    .venv/bin/python bench/latency_ab.py --a-src /tmp/jiyi-base/src --a-db /tmp/a.db \\
        --b-src src --b-db /tmp/b.db --rounds 5

Per run, query by query: ``embed`` is the query embedding alone, ``full`` a search with a new
query text (its embedding included), ``dense`` a dense-only search (preset ``dense_only``, its
own new text); then ``path`` is the same texts again with their query vectors cached (only the
search path). The medians over the rounds, the fused / dense-only ratio and the load average
are printed and written to bench/results/latency_ab.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import json, os, sys, time
from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.retrieval import PRESETS
try:
    from jiyi.embedders import default_embedder
    mem = Memory(sys.argv[1], embedder=default_embedder(threads=1))
except TypeError:  # an older jiyi: OMP_NUM_THREADS=1 keeps it to one thread
    mem = Memory(sys.argv[1])
dense = Memory(store=mem.store, embedder=mem.embedder,
               config=MemoryConfig(retrieval=PRESETS["dense_only"]))
inner = getattr(mem.embedder, "inner", mem.embedder)
QUERIES = ["上次和张医生聊了什么", "我的体检报告怎么样了", "what did Tom say about the gym",
           "周末露营的计划", "房租什么时候交", "Lily birthday party", "R04213 是什么",
           "最近在忙什么 Python project", "和妈妈去杭州", "钢琴课安排"]
for q in QUERIES:
    mem.search(q, user_id="bench", top_k=10)
    dense.search(q, user_id="bench", top_k=10)
texts = [f"{QUERIES[i % 10]} {sys.argv[2]}{i}" for i in range(int(sys.argv[3]))]
ms = {"full": [], "embed": [], "dense": [], "path": []}
load = os.getloadavg()[0]
def timed(name, fn, q):
    t = time.perf_counter()
    fn(q)
    ms[name].append((time.perf_counter() - t) * 1000)
for q in texts:  # query by query: the embedding alone, the search, dense-only (new texts)
    timed("embed", inner.embed_query, q + "~")
    timed("full", lambda x: mem.search(x, user_id="bench", top_k=10), q)
    timed("dense", lambda x: dense.search(x, user_id="bench", top_k=10), q + "!")
for q in texts:  # the same texts again, their query vectors cached: the search path alone
    timed("path", lambda x: mem.search(x, user_id="bench", top_k=10), q)
out = {"load_avg_1m": round((load + os.getloadavg()[0]) / 2, 2)}
for name, v in ms.items():
    v.sort()
    out[name + "_p50"], out[name + "_p95"] = v[len(v) // 2], v[int(len(v) * 0.95)]
print(json.dumps(out))
"""


def probe(src: str, db: str, tag: str, queries: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()), OMP_NUM_THREADS="1")
    run = subprocess.run(
        [sys.executable, "-c", PROBE, db, tag, str(queries)],
        env=env, capture_output=True, text=True, check=True, timeout=900,
    )  # fmt: skip
    return json.loads(run.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for side in ("a", "b"):
        ap.add_argument(f"--{side}-src", required=True, help="the version's src/ directory")
        ap.add_argument(f"--{side}-db", required=True, help="its store from bench/latency.py")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path, default=Path("bench/results/latency_ab.json"))
    args = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"a": [], "b": []}
    for r in range(args.rounds):
        for side in ("a", "b"):
            src, db = getattr(args, f"{side}_src"), getattr(args, f"{side}_db")
            runs[side].append(probe(src, db, f"r{r}{side}", args.queries))
            print(f"round {r + 1} {side}: {runs[side][-1]}", flush=True)
    keys = tuple(f"{n}_{p}" for n in ("full", "embed", "dense", "path") for p in ("p50", "p95"))
    med = {s: {k: round(statistics.median(x[k] for x in runs[s]), 2) for k in keys} for s in runs}
    print(f"{'median of rounds (ms)':<24}" + "".join(f"{k:>10}" for k in keys))
    for s in ("a", "b"):
        print(
            f"{s + ' ' + getattr(args, f'{s}_src'):<24}" + "".join(f"{med[s][k]:>10}" for k in keys)
        )
    print(f"{'b / a':<24}" + "".join(f"{med['b'][k] / med['a'][k]:>10.2f}" for k in keys))
    for s in ("a", "b"):  # what the fusion costs over one channel, in the same rounds
        for p in ("p50", "p95"):
            med[s][f"full_to_dense_{p}"] = round(med[s][f"full_{p}"] / med[s][f"dense_{p}"], 2)
    load = [x["load_avg_1m"] for side in runs.values() for x in side]
    for s in ("a", "b"):
        ratio = med[s]["full_to_dense_p50"], med[s]["full_to_dense_p95"]
        print(f"{s}: fused / dense-only {ratio[0]}× at p50, {ratio[1]}× at p95")
    print(f"load average (1 min) over the runs: {min(load)}–{max(load)}")
    report = {"rounds": args.rounds, "queries": args.queries, "median": med, "runs": runs}
    report |= {"a_src": args.a_src, "b_src": args.b_src}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
