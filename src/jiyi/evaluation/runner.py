"""Run retrieval benchmarks through the public ``Memory`` API and report recall and speed.

Both baselines and jiyi's fused ranking are measured in one run over the same store, so
their numbers are comparable side by side.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jiyi.config import MemoryConfig
from jiyi.core.retrieval import PRESETS, RetrievalConfig
from jiyi.evaluation.datasets import load_dulemon, load_locomo
from jiyi.memory import Memory

KS = (5, 10, 25)
Progress = Callable[[str, int, int], None]


def _noop(_: str, __: int, ___: int) -> None:
    return None


def ranked_sources(hits: Sequence[Any]) -> list[str]:
    """Source message ids of the hits in rank order, deduplicated."""
    out: dict[str, None] = {}
    for h in hits:
        for sid in h.memory.source_message_ids:
            out.setdefault(sid, None)
    return list(out)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def run_locomo(
    path: Path,
    configs: dict[str, RetrievalConfig] | None = None,
    *,
    memory_config: MemoryConfig | None = None,
    with_context: bool = True,
    progress: Progress = _noop,
) -> dict[str, Any]:
    """Ingest each conversation (one add per session) and score every question.

    Returns a JSON-ready dict: per config, recall@k for categories 1–4 together and each,
    category 5 apart, session recall@10, search p50/p95 ms; plus ingest messages/s and
    mean context tokens (for the first config).
    """
    configs = configs or {
        "jiyi": PRESETS["balanced"],
        "bm25_only": PRESETS["keyword_only"],
        "dense_only": PRESETS["dense_only"],
    }
    convs = load_locomo(path)
    base_cfg = memory_config or MemoryConfig()
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(Path(tmp) / "bench.db", config=base_cfg)
        n_msgs = sum(len(b.messages) for c in convs for b in c.batches)
        done = 0
        t0 = time.perf_counter()
        for conv in convs:
            for b in conv.batches:
                mem.add(
                    b.messages, user_id=conv.user_id, session_id=b.session_id, timestamp=b.timestamp
                )
                done += len(b.messages)
                progress("ingest", done, n_msgs)
        ingest_s = time.perf_counter() - t0
        results: dict[str, Any] = {
            "dataset": "locomo",
            "conversations": [c.user_id for c in convs],
            "messages": n_msgs,
            "ingest_messages_per_s": round(n_msgs / ingest_s, 1),
            "configs": {},
        }
        n_q = sum(len(c.questions) for c in convs)
        for name, rcfg in configs.items():
            view = Memory(
                store=mem.store,
                embedder=mem.embedder,
                config=base_cfg.model_copy(update={"retrieval": rcfg}),
            )
            per_cat: dict[str, dict[int, list[float]]] = {}
            sess_rec: list[float] = []
            lat: list[float] = []
            ctx_tokens: list[int] = []
            done = 0
            for conv in convs:
                for q in conv.questions:
                    # Every config pays for its own query embedding (no warm cache).
                    evict = getattr(view.embedder, "evict", None)
                    if callable(evict):
                        evict([q.text])
                    t = time.perf_counter()
                    hits = view.search(q.text, user_id=conv.user_id, top_k=max(KS), now=conv.now)
                    lat.append((time.perf_counter() - t) * 1000)
                    ranked = ranked_sources(hits)
                    ev = set(q.evidence)
                    groups = ["all_1_4", f"cat{q.category}"] if q.category != 5 else ["cat5"]
                    for g in groups:
                        for k in KS:
                            rec = len(ev & set(ranked[:k])) / len(ev)
                            per_cat.setdefault(g, {}).setdefault(k, []).append(rec)
                    if q.category != 5:
                        ev_s = {e.split(":")[0] for e in ev}
                        top_s = {r.split(":")[0] for r in ranked[:10]}
                        sess_rec.append(len(ev_s & top_s) / len(ev_s))
                    if with_context and name == next(iter(configs)):
                        ctx = view.context(q.text, user_id=conv.user_id, now=conv.now)
                        ctx_tokens.append(ctx.tokens)
                    done += 1
                    progress(name, done, n_q)
            results["configs"][name] = {
                "recall": {
                    g: {f"@{k}": round(statistics.fmean(v), 4) for k, v in ks.items()}
                    for g, ks in sorted(per_cat.items())
                },
                "questions": {g: len(ks[KS[0]]) for g, ks in sorted(per_cat.items())},
                "session_recall@10": round(statistics.fmean(sess_rec), 4),
                "search_ms_p50": round(statistics.median(lat), 2),
                "search_ms_p95": round(_pct(lat, 0.95), 2),
            }
            if ctx_tokens:
                results["mean_context_tokens"] = round(statistics.fmean(ctx_tokens), 1)
        mem.close()
    return results


def run_dulemon(
    path: Path,
    configs: dict[str, RetrievalConfig] | None = None,
    *,
    progress: Progress = _noop,
) -> dict[str, Any]:
    """Persona-sentence recall@k: all sessions' persona sentences in one user scope, each
    query the turns before an utterance that relies on a persona."""
    configs = configs or {
        "jiyi": PRESETS["balanced"],
        "bm25_only": PRESETS["keyword_only"],
        "dense_only": PRESETS["dense_only"],
    }
    personas, queries = load_dulemon(path)
    results: dict[str, Any] = {
        "dataset": "dulemon",
        "personas": len(personas),
        "queries": len(queries),
        "configs": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(Path(tmp) / "bench.db", config=MemoryConfig(episode_context_turns=0))
        msgs = [{"role": "user", "content": t, "id": pid} for pid, t in personas.items()]
        t0 = time.perf_counter()
        for i in range(0, len(msgs), 50):
            mem.add(msgs[i : i + 50], user_id="dulemon", infer=False)
        results["ingest_messages_per_s"] = round(len(msgs) / (time.perf_counter() - t0), 1)
        for name, rcfg in configs.items():
            view = Memory(
                store=mem.store,
                embedder=mem.embedder,
                config=MemoryConfig(retrieval=rcfg, episode_context_turns=0),
            )
            rec: dict[int, list[float]] = {k: [] for k in (1, 3, 5, 10)}
            lat: list[float] = []
            for n, q in enumerate(queries):
                t = time.perf_counter()
                hits = view.search(q.context, user_id="dulemon", top_k=10)
                lat.append((time.perf_counter() - t) * 1000)
                ranked = ranked_sources(hits)
                for k in rec:
                    rec[k].append(1.0 if q.gold in ranked[:k] else 0.0)
                progress(name, n + 1, len(queries))
            results["configs"][name] = {
                "recall": {f"@{k}": round(statistics.fmean(v), 4) for k, v in rec.items()},
                "search_ms_p50": round(statistics.median(lat), 2),
                "search_ms_p95": round(_pct(lat, 0.95), 2),
            }
        mem.close()
    return results
