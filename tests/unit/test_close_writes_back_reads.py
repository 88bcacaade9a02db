"""Closing a Memory writes back every counted read on its store first, its own and those of
any Memory built on the same store with another config (the benchmarks' pattern): no read
is lost, and nothing is written to the closed store ("could not record access")."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jiyi import AsyncMemory, Memory, MemoryConfig
from jiyi.core.models import Scope
from jiyi.embedders import HashingEmbedder
from jiyi.evaluation.runner import still
from jiyi.storage.sqlite import SqliteMemoryStore

QUERIES = ["peanuts", "where do I live", "allergy", "Berlin"]


def recorded(path: Path, returned: Counter[str]) -> dict[str, int]:
    """access_count of each returned memory, read back from the closed store's file."""
    with Memory(path, embedder=HashingEmbedder()) as again:
        return {i: again.get(i).access_count for i in returned}  # type: ignore[union-attr]


def no_write_back_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("flush_seconds", [3600.0, 0.0], ids=["never-due", "always-due"])
def test_closing_the_owner_writes_back_a_views_reads(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    flush_seconds: float,
) -> None:
    # never-due: the view's reads are only pending at close; always-due: every search starts
    # a write-back, and a slow one is still running when the owner closes the store.
    monkeypatch.setattr("jiyi.engine.READ_FLUSH_SECONDS", flush_seconds)
    touch = SqliteMemoryStore.touch

    def slow_touch(self: SqliteMemoryStore, *args: Any) -> None:
        time.sleep(0.2)
        touch(self, *args)

    monkeypatch.setattr(SqliteMemoryStore, "touch", slow_touch)
    path = tmp_path / "m.db"
    mem = Memory(path, embedder=HashingEmbedder())
    mem.add("I'm allergic to peanuts and I live in Berlin", user_id="u")
    view = Memory(store=mem.store, embedder=mem.embedder, config=MemoryConfig())
    returned: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, logger="jiyi"):
        for q in QUERIES * 3:
            returned.update(h.memory.id for h in view.search(q, user_id="u"))
        mem.close()
    assert returned and no_write_back_warnings(caplog) == []
    assert recorded(path, returned) == dict(returned)


def test_a_search_then_close_at_once_keeps_its_reads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "m.db"
    mem = Memory(path, embedder=HashingEmbedder())
    mem.add("I'm allergic to peanuts and I live in Berlin", user_id="u")
    with caplog.at_level(logging.WARNING, logger="jiyi"):
        returned = Counter(h.memory.id for h in mem.search("peanuts", user_id="u"))
        mem.close()
    assert returned and no_write_back_warnings(caplog) == []
    assert recorded(path, returned) == dict(returned)


def test_a_read_counted_after_close_is_dropped_without_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "m.db"
    mem = Memory(path, embedder=HashingEmbedder())
    mem.add("I live in Berlin", user_id="u")
    returned = Counter(h.memory.id for h in mem.search("Berlin", user_id="u"))
    mem.close()
    hit = next(iter(returned))
    with caplog.at_level(logging.WARNING, logger="jiyi"):
        mem.engine.reads.record(Scope(tenant="default", user_id="u"), [hit])  # a straggler
        mem.engine.reads.settle()  # nothing pending: no write to the closed store
        mem.close()  # idempotent
    assert no_write_back_warnings(caplog) == []
    assert recorded(path, returned) == dict(returned)


def test_async_close_writes_back_a_views_reads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("jiyi.engine.READ_FLUSH_SECONDS", 3600.0)
    path = tmp_path / "m.db"
    returned: Counter[str] = Counter()

    async def main() -> None:
        amem = AsyncMemory(path, embedder=HashingEmbedder())
        await amem.add("I'm allergic to peanuts and I live in Berlin", user_id="u")
        view = AsyncMemory(store=amem.sync.store, embedder=amem.sync.embedder)
        found = await asyncio.gather(*(view.search(q, user_id="u") for q in QUERIES))
        returned.update(h.memory.id for hits in found for h in hits)
        await amem.close()

    with caplog.at_level(logging.WARNING, logger="jiyi"):
        asyncio.run(main())
    assert returned and no_write_back_warnings(caplog) == []
    assert recorded(path, returned) == dict(returned)


def test_a_benchmark_view_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    # evaluation.runner.still: reads and reinforcement off, so a question's reads cannot
    # move the next question's ranking (nor a kept store's next run).
    path = tmp_path / "m.db"
    mem = Memory(path, embedder=HashingEmbedder())
    mem.add("I'm allergic to peanuts and I live in Berlin", user_id="u")
    before = {m.id: m for m in mem.list(user_id="u", include_episodes=True, limit=100)}
    view = Memory(store=mem.store, embedder=mem.embedder, config=still(MemoryConfig()))
    returned = Counter(h.memory.id for q in QUERIES for h in view.search(q, user_id="u"))
    view.context("where do I live", user_id="u")
    mem.close()
    with Memory(path, embedder=HashingEmbedder()) as again:
        after = {m.id: m for m in again.list(user_id="u", include_episodes=True, limit=100)}
    assert returned and set(returned) <= set(after)
    assert after == before
