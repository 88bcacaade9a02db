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
from jiyi.core.models import Scope
from jiyi.core.ports import Embedder
from jiyi.core.retrieval import PRESETS, RetrievalConfig
from jiyi.evaluation.datasets import load_dulemon, load_locomo
from jiyi.evaluation.lifebench import UNANSWERABLE, LifeUser, load_lifebench
from jiyi.memory import Memory

KS = (1, 5, 10, 25)  # @1: the fused ranking must beat each channel at the very top too
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


def still(config: MemoryConfig) -> MemoryConfig:
    """``config`` with reads and reinforcement off: a benchmark's questions must not change
    the store they are scored on (a read keeps a memory fresh in the ranking; written back
    on a timer, it made the next question's ranking depend on timing and on earlier runs
    of a kept store)."""
    life = config.lifecycle.model_copy(update={"track_reads": False, "reinforce": False})
    return config.model_copy(update={"lifecycle": life})


def _default_configs() -> dict[str, RetrievalConfig]:
    return {
        "jiyi": PRESETS["balanced"],
        "bm25_only": PRESETS["keyword_only"],
        "dense_only": PRESETS["dense_only"],
    }


def run_locomo(
    path: Path,
    configs: dict[str, RetrievalConfig] | None = None,
    *,
    memory_config: MemoryConfig | None = None,
    with_context: bool = True,
    embedder: Embedder | None = None,
    store_path: Path | None = None,
    progress: Progress = _noop,
) -> dict[str, Any]:
    """Ingest each conversation (one add per session) and score every question.

    Returns a JSON-ready dict: per config, recall@k for categories 1–4 together and each,
    category 5 apart, per conversation too (``conv-26/all_1_4``), session recall@10, search
    p50/p95 ms; plus ingest messages/s and mean context tokens (for the first config).
    ``store_path``: keep the ingested store there and reuse it when it exists.
    """
    configs = configs or _default_configs()
    convs = load_locomo(path)
    base_cfg = still(memory_config or MemoryConfig())
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(store_path) if store_path else Path(tmp) / "bench.db"
        reuse = db.exists()
        mem = Memory(db, config=base_cfg, embedder=embedder)
        n_msgs = sum(len(b.messages) for c in convs for b in c.batches)
        done = 0
        t0 = time.perf_counter()
        for conv in [] if reuse else convs:
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
            "ingest_messages_per_s": None if reuse else round(n_msgs / ingest_s, 1),
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
                    groups += [f"{conv.user_id}/{g}" for g in groups]  # for cross-validation
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
    embedder: Embedder | None = None,
    progress: Progress = _noop,
) -> dict[str, Any]:
    """Persona-sentence recall@k: all sessions' persona sentences in one user scope, each
    query the turns before an utterance that relies on a persona."""
    configs = configs or _default_configs()
    personas, queries = load_dulemon(path)
    results: dict[str, Any] = {
        "dataset": "dulemon",
        "personas": len(personas),
        "queries": len(queries),
        "configs": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(
            Path(tmp) / "bench.db",
            config=still(MemoryConfig(episode_context_turns=0)),
            embedder=embedder,
        )
        msgs = [{"role": "user", "content": t, "id": pid} for pid, t in personas.items()]
        t0 = time.perf_counter()
        for i in range(0, len(msgs), 50):
            mem.add(msgs[i : i + 50], user_id="dulemon", infer=False)
        results["ingest_messages_per_s"] = round(len(msgs) / (time.perf_counter() - t0), 1)
        for name, rcfg in configs.items():
            view = Memory(
                store=mem.store,
                embedder=mem.embedder,
                config=still(MemoryConfig(retrieval=rcfg, episode_context_turns=0)),
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


LIFEBENCH_KS = (1, 5, 10, 25)


def ingest_lifebench(mem: Memory, user: LifeUser, progress: Progress = _noop) -> dict[str, Any]:
    """One ``add`` per record (episodes only: phone records are observations, not things the
    user told the assistant), message id = record id, timestamp = record time, session = the
    contact an SMS or call is with (a phone's thread). Records already in the store (by id)
    are skipped by ``add`` itself, so an interrupted ingest resumes where it stopped."""
    total = len(user.records)
    t0 = time.perf_counter()
    for done, r in enumerate(user.records, 1):
        msg = {"role": "user", "content": r.content, "name": r.speaker, "id": r.id}
        mem.add(
            [msg], user_id=user.user_id, session_id=r.thread, timestamp=r.timestamp, infer=False
        )
        if done % 50 == 0 or done == total:
            progress(f"ingest {user.user_id}", done, total)
    return {"records": total, "ingest_messages_per_s": round(total / (time.perf_counter() - t0), 1)}


def _complete(mem: Memory, user: LifeUser) -> bool:
    """Does the store already hold every record of ``user``?"""
    ids = [r.id for r in user.records]
    scope = Scope(tenant=mem.config.tenant, user_id=user.user_id)
    return len(mem.store.seen_messages(scope, ids)) == len(set(ids))


def run_lifebench(
    path: Path,
    configs: dict[str, RetrievalConfig] | None = None,
    *,
    embedder: Embedder | None = None,
    store_path: Path | None = None,
    progress: Progress = _noop,
) -> dict[str, Any]:
    """Record recall@1/5/10/25 per question type and per user; Unanswerable questions (no
    evidence) apart, by the score of their best hit.

    Args:
        path: one user's directory or the directory holding the users.
        store_path: a directory that keeps one store per user (``<user>.db``), reused when
            it holds every record and completed otherwise (ablations re-rank the same
            stores; the renderings must not have changed in between).
    """
    configs = configs or _default_configs()
    users = load_lifebench(path)
    results: dict[str, Any] = {
        "dataset": "lifebench",
        "users": [u.user_id for u in users],
        "records": sum(len(u.records) for u in users),
        "evidence_missing_from_data": sum(q.missing for u in users for q in u.questions),
        "configs": {},
    }
    rec: dict[str, dict[str, dict[int, list[float]]]] = {n: {} for n in configs}
    unans: dict[str, list[float]] = {n: [] for n in configs}
    lat: dict[str, list[float]] = {n: [] for n in configs}
    ingest_s, ingested = 0.0, 0
    n_q = sum(len(u.questions) for u in users)
    done = dict.fromkeys(configs, 0)
    with tempfile.TemporaryDirectory() as tmp:
        for u in users:
            folder = Path(store_path) if store_path else Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            mem = Memory(
                folder / f"{u.user_id}.db",
                config=still(MemoryConfig(timezone="Asia/Shanghai")),
                embedder=embedder,
            )
            if not _complete(mem, u):
                t0 = time.perf_counter()
                ingest_lifebench(mem, u, progress)
                ingest_s += time.perf_counter() - t0
                ingested += len(u.records)
            for name, rcfg in configs.items():
                view = Memory(
                    store=mem.store,
                    embedder=mem.embedder,
                    config=mem.config.model_copy(update={"retrieval": rcfg}),
                )
                for q in u.questions:
                    evict = getattr(view.embedder, "evict", None)
                    if callable(evict):
                        evict([q.text])
                    t = time.perf_counter()
                    hits = view.search(
                        q.text, user_id=u.user_id, top_k=max(LIFEBENCH_KS), now=u.now
                    )
                    lat[name].append((time.perf_counter() - t) * 1000)
                    done[name] += 1
                    progress(name, done[name], n_q)
                    if q.qtype == UNANSWERABLE or not q.evidence:
                        unans[name].append(hits[0].score if hits else 0.0)
                        continue
                    ranked = ranked_sources(hits)
                    ev = set(q.evidence)
                    for g in ("all", q.qtype, f"{u.user_id}/all", f"{u.user_id}/{q.qtype}"):
                        for k in LIFEBENCH_KS:
                            r = len(ev & set(ranked[:k])) / len(ev)
                            rec[name].setdefault(g, {}).setdefault(k, []).append(r)
            mem.close()
    results["ingest_messages_per_s"] = round(ingested / ingest_s, 1) if ingested else None
    for name in configs:
        results["configs"][name] = {
            "recall": {
                g: {f"@{k}": round(statistics.fmean(v), 4) for k, v in ks.items()}
                for g, ks in sorted(rec[name].items())
            },
            "questions": {g: len(ks[1]) for g, ks in sorted(rec[name].items())},
            "unanswerable": {
                "questions": len(unans[name]),
                "mean_top_score": round(statistics.fmean(unans[name]), 4) if unans[name] else None,
            },
            "search_ms_p50": round(statistics.median(lat[name]), 2),
            "search_ms_p95": round(_pct(lat[name], 0.95), 2),
        }
    return results


def merge_lifebench(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One result from runs over disjoint users (e.g. one process per user on a busy
    machine): recall groups are means over questions, so they merge weighted by their
    question counts; latencies stay per run (percentiles do not merge)."""
    out: dict[str, Any] = {
        "dataset": "lifebench",
        "users": [u for p in parts for u in p["users"]],
        "records": sum(p["records"] for p in parts),
        "evidence_missing_from_data": sum(p["evidence_missing_from_data"] for p in parts),
        "runs": [
            {k: p.get(k) for k in ("users", "records", "ingest_messages_per_s")} for p in parts
        ],
        "configs": {},
    }
    for name in parts[0]["configs"]:
        cs = [p["configs"][name] for p in parts]
        counts: dict[str, int] = {}
        sums: dict[str, dict[str, float]] = {}
        for c in cs:
            for g, ks in c["recall"].items():
                n = c["questions"][g]
                counts[g] = counts.get(g, 0) + n
                for k, v in ks.items():
                    sums.setdefault(g, {})[k] = sums.get(g, {}).get(k, 0.0) + v * n
        un = [c["unanswerable"] for c in cs]
        n_un = sum(u["questions"] for u in un)
        out["configs"][name] = {
            "recall": {
                g: {k: round(v / counts[g], 4) for k, v in ks.items()}
                for g, ks in sorted(sums.items())
            },
            "questions": dict(sorted(counts.items())),
            "unanswerable": {
                "questions": n_un,
                "mean_top_score": round(
                    sum((u["mean_top_score"] or 0.0) * u["questions"] for u in un) / n_un, 4
                )
                if n_un
                else None,
            },
            "search_ms_p50": max(c["search_ms_p50"] for c in cs),
            "search_ms_p95": max(c["search_ms_p95"] for c in cs),
        }
    return out
