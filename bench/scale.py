"""Scale benchmark: ingest rate and per-user search latency of the storage backends.

Data is SYNTHETIC: random 384-dim unit vectors (no embedding model runs) and short texts
drawn from a fixed bilingual vocabulary, already segmented. N rows = N/M users × M memories
(``--per-user``, default 100), so 1M rows is 10k users × 100 memories.

Per size, a fresh PostgreSQL schema / SQLite file is filled, then ``--queries`` searches of
each channel (vector_search and keyword_search, limit 10) run on random users:

* ingest ``apply``: the real write path — one ChangeSet per user (its memories + ADD history
  rows) through ``MemoryStore.apply()``.
* ingest ``copy`` (PostgreSQL, default above 100k rows): binary COPY of the same rows, then
  ``VACUUM ANALYZE``; only used where ``apply()`` would take too long on this machine.
* ``--pg-hnsw after`` (default): the HNSW index is built once after the load (its time is
  reported separately); ``live`` maintains it during ``apply()`` (measured at 10k rows: ~400
  rows/s falling below 150 rows/s by 20k on 2 shared cores — hours at 1M); ``none`` skips it.
  With 100 memories per user every search takes the exact per-user path, so the index does
  not change the search numbers; it is there so the store is measured in its served shape.

Run: ``.venv/bin/python bench/scale.py --sizes 10000,100000 [--backends postgres,sqlite]``
(PostgreSQL needs JIYI_TEST_PG_DSN, see scripts/services.sh). Results merge into
bench/results/scale.json (keyed by backend and size) and bench/results/scale.png.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from jiyi.core.ids import content_hash, new_id
from jiyi.core.models import Action, HistoryEntry, MemoryItem, MemoryKind, Scope
from jiyi.core.ports import ChangeSet, Indexed, MemoryStore, SearchFilter

DIM = 384
T0 = datetime(2026, 1, 1, tzinfo=UTC)
_ZH = "咖啡 冷萃 花生 过敏 北京 上海 杭州 成都 跑步 游泳 钢琴 吉他 医生 体检 房租 搬家 女儿 儿子 妈妈 同事 老板 项目 会议 周末 露营 火锅 旅行 机场 高铁 生日 礼物 猫 狗 电影 小说 考试 面试 工资 预算 基金 股票 牙医 健身 瑜伽 咳嗽 感冒 眼镜 手机 电脑"  # noqa: E501
_EN = "coffee peanut allergy gym piano guitar doctor rent move daughter son meeting weekend camping hotpot travel airport birthday gift cat dog movie novel exam interview salary budget fund dentist yoga glasses phone laptop python project deadline"  # noqa: E501
VOCAB = _ZH.split() + _EN.split()
console = Console()


def unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


def user_changes(rng: np.random.Generator, pyrng: random.Random, scope: Scope, m: int) -> ChangeSet:
    vecs = unit_vectors(rng, m)
    upserts, history = [], []
    for i in range(m):
        words = pyrng.sample(VOCAB, 6)
        at = T0 + timedelta(minutes=pyrng.randrange(500_000))
        content = " ".join(words)
        item = MemoryItem(
            id=new_id(),
            tenant=scope.tenant,
            user_id=scope.user_id,
            kind=pyrng.choice((MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.EVENT)),
            content=content,
            created_at=at,
            observed_at=at,
        )
        upserts.append(Indexed(item, content, vecs[i]))
        history.append(
            HistoryEntry(
                memory_id=item.id,
                action=Action.ADD,
                at=at,
                content=content,
                content_hash=content_hash(content),
            )
        )
    return ChangeSet(upserts=upserts, history=history)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p * (len(s) - 1)))]


def ingest_apply(store: MemoryStore, users: int, per_user: int, seed: int) -> float:
    rng, pyrng = np.random.default_rng(seed), random.Random(seed)
    t0 = time.perf_counter()
    last = t0
    for u in range(users):
        scope = Scope(tenant="bench", user_id=f"u{u}")
        store.apply(scope, user_changes(rng, pyrng, scope, per_user))
        if time.perf_counter() - last > 30:
            last = time.perf_counter()
            done = (u + 1) * per_user
            console.log(f"  {done:,} rows, {done / (last - t0):,.0f} rows/s")
    return time.perf_counter() - t0


def ingest_copy(store: Any, dsn: str, users: int, per_user: int, seed: int) -> float:
    """Binary COPY of what apply() would write (no HNSW index during the load); seconds."""
    import psycopg
    from pgvector.psycopg import register_vector

    from jiyi.storage._rows import COLUMNS
    from jiyi.storage.postgres import _to_row

    s = f'"{store.schema}"'
    types = [
        "text", "text", "text", "text", "text", "text", "text", "float8", "float8", "text",
        "jsonb", "text", "text", "timestamptz", "timestamptz", "timestamptz", "timestamptz",
        "timestamptz", "int4", "timestamptz", "text", "text", "int4", "jsonb", "text", "vector",
    ]  # fmt: skip
    rng, pyrng = np.random.default_rng(seed), random.Random(seed)
    with psycopg.connect(dsn, autocommit=True) as conn:
        register_vector(conn)
        conn.execute(f"DROP INDEX IF EXISTS {s}.ix_memories_embedding")
        t0 = time.perf_counter()
        last = t0
        batch = max(1, 20_000 // per_user)
        for start in range(0, users, batch):
            with conn.transaction(), conn.cursor() as cur:
                with cur.copy(
                    f"COPY {s}.memories ({', '.join(COLUMNS)}, keywords, embedding) "
                    "FROM STDIN WITH (FORMAT BINARY)"
                ) as cp:
                    cp.set_types(types)
                    hist = []
                    for u in range(start, min(users, start + batch)):
                        scope = Scope(tenant="bench", user_id=f"u{u}")
                        cs = user_changes(rng, pyrng, scope, per_user)
                        for i in cs.upserts:
                            cp.write_row((*_to_row(i.memory), i.keywords, i.vector))
                        hist += [(scope.user_id, h) for h in cs.history]
                with cur.copy(
                    f"COPY {s}.history (tenant, user_id, memory_id, action, at, content, "
                    "content_hash, version) FROM STDIN WITH (FORMAT BINARY)"
                ) as cp:
                    cp.set_types(["text"] * 4 + ["timestamptz", "text", "text", "int4"])
                    for uid, h in hist:
                        cp.write_row(
                            ("bench", uid, h.memory_id, h.action.value, h.at, h.content,
                             h.content_hash, h.version)
                        )  # fmt: skip
            if time.perf_counter() - last > 30:
                last = time.perf_counter()
                done = min(users, start + batch) * per_user
                console.log(f"  {done:,} rows, {done / (last - t0):,.0f} rows/s")
        conn.execute(f"VACUUM ANALYZE {s}.memories")
        conn.execute(f"VACUUM ANALYZE {s}.history")
        return time.perf_counter() - t0


def build_hnsw(store: Any, dsn: str) -> float:
    """Build the HNSW index after the load (what the store creates up front); seconds."""
    import psycopg

    from jiyi.storage.postgres import HNSW_INDEX

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'ANALYZE "{store.schema}".memories')
        t0 = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '6GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        conn.execute("SET statement_timeout = 0")
        conn.execute(HNSW_INDEX.replace("{s}", f'"{store.schema}"'))
        return time.perf_counter() - t0


def measure_search(store: MemoryStore, users: int, queries: int, seed: int) -> dict[str, float]:
    rng, pyrng = np.random.default_rng(seed + 1), random.Random(seed + 1)
    flt = SearchFilter()
    runs: dict[str, Callable[[Scope], object]] = {
        "vector": lambda sc: store.vector_search(sc, unit_vectors(rng, 1)[0], flt, 10),
        "keyword": lambda sc: store.keyword_search(sc, pyrng.sample(VOCAB, 2), flt, 10),
    }
    out: dict[str, float] = {}
    for name, run in runs.items():
        for _ in range(20):  # warm up pools, caches and plans outside the timing
            run(Scope(tenant="bench", user_id=f"u{pyrng.randrange(users)}"))
        times = []
        for _ in range(queries):
            scope = Scope(tenant="bench", user_id=f"u{pyrng.randrange(users)}")
            t = time.perf_counter()
            hits = run(scope)
            times.append((time.perf_counter() - t) * 1000)
            assert hits, f"{name} search found nothing for {scope.user_id}"
        out[f"{name}_p50_ms"] = round(statistics.median(times), 2)
        out[f"{name}_p95_ms"] = round(pct(times, 0.95), 2)
    return out


def run_one(backend: str, size: int, args: argparse.Namespace) -> dict[str, Any]:
    users = max(1, size // args.per_user)
    rows = users * args.per_user
    seed = 1000 + size
    result: dict[str, Any] = {"backend": backend, "rows": rows, "users": users}
    console.rule(f"{backend}: {rows:,} rows ({users:,} users × {args.per_user})")
    if backend == "postgres":
        from jiyi.storage.postgres import PostgresMemoryStore

        dsn = os.environ.get("JIYI_TEST_PG_DSN")
        if not dsn:
            raise SystemExit("set JIYI_TEST_PG_DSN (bash scripts/services.sh up)")
        live = args.pg_hnsw == "live"
        store: Any = PostgresMemoryStore(dsn, schema=f"bench_{rows}", dim=DIM)
        store.drop_schema()  # leftovers of an interrupted run
        store.close()
        store = PostgresMemoryStore(dsn, schema=f"bench_{rows}", dim=DIM, hnsw_index=live)
        path = args.pg_ingest
        if path == "auto":
            path = "apply" if rows <= 100_000 else "copy"
        try:
            if path == "apply":
                load_s = ingest_apply(store, users, args.per_user, seed)
            else:
                load_s = ingest_copy(store, dsn, users, args.per_user, seed)
            index_s = 0.0 if live or args.pg_hnsw == "none" else build_hnsw(store, dsn)
            result |= {"ingest_path": path, "hnsw": args.pg_hnsw, "ingest_s": round(load_s, 2),
                       "ingest_rows_per_s": round(rows / load_s),
                       "hnsw_build_s": round(index_s, 1)}  # fmt: skip
            result |= measure_search(store, users, args.queries, seed)
        finally:
            if not args.keep:
                store.drop_schema()
            store.close()
    else:
        from jiyi.storage.sqlite import SqliteMemoryStore

        with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
            store = SqliteMemoryStore(Path(tmp) / "scale.db")
            try:
                load_s = ingest_apply(store, users, args.per_user, seed)
                result |= {"ingest_path": "apply", "hnsw": "-", "ingest_s": round(load_s, 2),
                           "ingest_rows_per_s": round(rows / load_s),
                           "hnsw_build_s": 0.0}  # fmt: skip
                result |= measure_search(store, users, args.queries, seed)
            finally:
                store.close()
    console.log(result)
    return result


def save(results: list[dict[str, Any]], out: Path) -> None:
    old = json.loads(out.read_text()) if out.exists() else {}
    merged = {(r["backend"], r["rows"]): r for r in old.get("results", [])}
    merged |= {(r["backend"], r["rows"]): r for r in results}
    doc = {
        "data": f"synthetic: random {DIM}-dim unit vectors, 6-word texts from a fixed "
        "bilingual vocabulary; 100 memories per user unless per_user says otherwise",
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), "
        f"{platform.python_implementation()} {platform.python_version()}",
        "search": "limit 10, one random user scope per query, status=active filter",
        "results": sorted(merged.values(), key=lambda r: (r["backend"], r["rows"])),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    plot(doc["results"], out.with_suffix(".png"))


def plot(results: list[dict[str, Any]], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for backend, color in (("postgres", "tab:blue"), ("sqlite", "tab:orange")):
        rs = [r for r in results if r["backend"] == backend]
        if not rs:
            continue
        xs = [r["rows"] for r in rs]
        for channel, style in (("vector", "-"), ("keyword", "--")):
            ax.plot(xs, [r[f"{channel}_p95_ms"] for r in rs], style, marker="o", color=color,
                    label=f"{backend} {channel} p95")  # fmt: skip
            ax.plot(xs, [r[f"{channel}_p50_ms"] for r in rs], style, marker=".", color=color,
                    alpha=0.4, label=f"{backend} {channel} p50")  # fmt: skip
    ax.axhline(50, color="grey", lw=0.8, ls=":", label="target p95 50 ms")
    ax.set_xscale("log")
    ax.set_xlabel("rows in the store (100 per user)")
    ax.set_ylabel("search latency per user scope (ms)")
    ax.set_title(f"jiyi storage search latency vs size (synthetic {DIM}-dim vectors)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated row counts")
    ap.add_argument("--backends", default="postgres,sqlite")
    ap.add_argument("--sqlite-max", type=int, default=1_000_000, help="skip SQLite above this")
    ap.add_argument("--per-user", type=int, default=100)
    ap.add_argument("--queries", type=int, default=300, help="per channel and size")
    ap.add_argument("--pg-ingest", choices=("auto", "apply", "copy"), default="auto")
    ap.add_argument(
        "--pg-hnsw",
        choices=("after", "live", "none"),
        default="after",
        help="build the HNSW index after the load, maintain it during the load, or skip it",
    )
    ap.add_argument("--keep", action="store_true", help="keep the PostgreSQL schemas")
    ap.add_argument("--tmp", default=None, help="directory for the SQLite files")
    ap.add_argument("--out", type=Path, default=Path("bench/results/scale.json"))
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    console.print(f"synthetic data: random {DIM}-dim unit vectors, {args.per_user} memories/user")
    results: list[dict[str, Any]] = []
    for size in sizes:
        for backend in args.backends.split(","):
            if backend == "sqlite" and size > args.sqlite_max:
                continue
            results.append(run_one(backend, size, args))
            save(results, args.out)
    table = Table(title=f"jiyi scale benchmark (synthetic {DIM}-dim unit vectors)")
    for col in ("backend", "rows", "ingest", "rows/s", "HNSW build s", "vector p50/p95 ms",
                "keyword p50/p95 ms"):  # fmt: skip
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(
            r["backend"], f"{r['rows']:,}", f"{r['ingest_path']} (hnsw {r.get('hnsw', '-')})",
            f"{r['ingest_rows_per_s']:,}",
            str(r["hnsw_build_s"]), f"{r['vector_p50_ms']} / {r['vector_p95_ms']}",
            f"{r['keyword_p50_ms']} / {r['keyword_p95_ms']}",
        )  # fmt: skip
    console.print(table)
    console.print(f"JSON: {args.out}  plot: {args.out.with_suffix('.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
