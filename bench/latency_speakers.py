"""Search latency of the speaker-free second round (``unname_speakers``) on LoCoMo questions.

Run: ``.venv/bin/python bench/latency_speakers.py --store DIR/locomo.db --embed-cache
DIR/embeddings.sqlite`` on a LoCoMo store ingested by ``bench/retrieval_ablation.py``. Every
question is searched with the setting on and off, alternating which goes first, with the
query embedding included (query vectors are never cached); prints p50/p95 per setting and
for the questions the second round rewrites. With ``--lifebench DIR`` it first counts the
LifeBench questions the rewrite would touch (the speakers of each user's records; a Chinese
question never is). Writes nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from jiyi.config import MemoryConfig
from jiyi.core.retrieval import PRESETS
from jiyi.core.speakers import unnamed_query
from jiyi.embedders import default_embedder
from jiyi.evaluation.datasets import load_locomo
from jiyi.evaluation.embcache import DiskCachedEmbedder
from jiyi.evaluation.lifebench import load_lifebench
from jiyi.memory import Memory


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo_dev.json"))
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--embed-cache", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--lifebench", type=Path, default=None)
    args = ap.parse_args()
    for user in load_lifebench(args.lifebench) if args.lifebench else []:
        spk = {r.speaker for r in user.records if r.speaker}
        touched = sum(unnamed_query(q.text, spk) is not None for q in user.questions)
        print(f"LifeBench {user.user_id}: {touched} of {len(user.questions)} questions rewritten")
    emb = DiskCachedEmbedder(default_embedder(), args.embed_cache)  # documents only
    base = Memory(args.store, embedder=emb)
    views = {
        flag: Memory(
            store=base.store,
            embedder=emb,
            config=MemoryConfig(
                retrieval=PRESETS["balanced"].model_copy(update={"unname_speakers": flag})
            ),
        )
        for flag in (False, True)
    }
    both = (False, True)
    lat: dict[tuple[bool, bool], list[float]] = {(f, r): [] for f in both for r in both}
    convs = load_locomo(args.data)
    speakers = {c.user_id: {m["name"] for b in c.batches for m in b.messages} for c in convs}
    n = 0
    for rnd in range(args.rounds):
        for conv in convs:
            for q in conv.questions:
                rewritten = unnamed_query(q.text, speakers[conv.user_id]) is not None
                order = (False, True) if (n + rnd) % 2 == 0 else (True, False)
                n += 1
                for flag in order:
                    t = time.perf_counter()
                    views[flag].search(q.text, user_id=conv.user_id, top_k=25, now=conv.now)
                    lat[(flag, rewritten)].append((time.perf_counter() - t) * 1000)
    for flag in (False, True):
        every = lat[(flag, False)] + lat[(flag, True)]
        named = lat[(flag, True)]
        if not every or not named:
            continue  # --rounds 0: the LifeBench count alone
        print(
            f"unname_speakers={flag}: all {len(every)} p50/p95 "
            f"{statistics.median(every):.1f}/{_pct(every, 0.95):.1f} ms; rewritten {len(named)} "
            f"p50/p95 {statistics.median(named):.1f}/{_pct(named, 0.95):.1f} ms"
        )
    base.close()


if __name__ == "__main__":
    main()
