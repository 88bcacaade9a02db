"""``AsyncMemory``: the same methods as ``Memory``, awaited, run off the event loop.

Behaviour on the real default embedder (recall depends on similarity), several calls at
once through ``asyncio.gather``; the event loop must keep running while the engine works.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jiyi import AddResult, AsyncMemory, InvalidInputError, Memory, MemoryConfig, NotFoundError
from jiyi.aio import AsyncSwitches, AsyncTasks
from jiyi.embedders import HashingEmbedder
from jiyi.switch import MemorySwitches
from jiyi.tasks import Tasks

# Public names of Memory that AsyncMemory leaves as they are or replaces, documented in
# jiyi/aio.py: none — every public method and property has its counterpart.
EXCEPTIONS: set[str] = set()


def public(obj: object) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")}


def test_async_memory_has_every_public_name_of_memory(mem: Memory) -> None:
    # Instances: ``config``, ``engine``, ``tasks`` and ``switch`` are set in __init__.
    ours = AsyncMemory(memory=mem)
    assert public(mem) - EXCEPTIONS <= public(ours)
    assert {"tasks", "switch", "config", "engine", "add", "search"} <= public(ours)
    # and nothing a Memory user would not recognise, besides the wrapped Memory
    assert public(ours) - public(mem) == {"sync"}


def test_every_io_method_is_awaited_with_memorys_signature() -> None:
    plain = {"on", "now"}  # no I/O: as Memory's
    for name in public(Memory) - plain:
        attr = inspect.getattr_static(Memory, name)
        if isinstance(attr, property):
            assert isinstance(inspect.getattr_static(AsyncMemory, name), property), name
            continue
        ours = getattr(AsyncMemory, name)
        assert inspect.iscoroutinefunction(ours), name
        if name != "close":
            assert inspect.signature(ours) == inspect.signature(getattr(Memory, name)), name


@pytest.mark.parametrize(
    ("sync_cls", "async_cls"), [(Tasks, AsyncTasks), (MemorySwitches, AsyncSwitches)]
)
def test_tasks_and_switch_have_awaited_counterparts(sync_cls: type, async_cls: type) -> None:
    assert public(sync_cls) == public(async_cls)
    for name in public(async_cls):
        assert inspect.iscoroutinefunction(getattr(async_cls, name)), name
        sync_params = list(inspect.signature(getattr(sync_cls, name)).parameters)
        assert list(inspect.signature(getattr(async_cls, name)).parameters) == sync_params


@pytest.fixture
def amem(tmp_path: Path, clock: Any, e5: Any) -> Iterator[AsyncMemory]:
    m = AsyncMemory(tmp_path / "jiyi.db", embedder=e5, clock=clock, config=MemoryConfig())
    yield m
    asyncio.run(m.close())


def test_concurrent_adds_and_searches_keep_users_apart(amem: AsyncMemory) -> None:
    said = {
        "alice": "我对花生过敏，以后别推荐带花生的菜",
        "bob": "I live in Berlin and I work as a nurse",
        "chen": "我下周三去成都出差",
    }

    async def main() -> None:
        results = await asyncio.gather(*(amem.add(t, user_id=u) for u, t in said.items()))
        assert all(isinstance(r, AddResult) and r.events for r in results)
        hits = await asyncio.gather(
            amem.search("花生过敏", user_id="alice"),
            amem.search("where does the user live?", user_id="bob"),
            amem.search("出差去哪里", user_id="chen"),
            amem.search("花生过敏", user_id="bob"),
        )
        assert "花生" in hits[0][0].memory.content
        assert "Berlin" in hits[1][0].memory.content
        assert "成都" in hits[2][0].memory.content
        assert all("花生" not in h.memory.content for h in hits[3])  # bob's memories only
        block = await amem.context("推荐个菜", user_id="alice")
        assert "花生" in block.text

    asyncio.run(main())


def test_the_event_loop_runs_while_the_engine_works(tmp_path: Path, clock: Any) -> None:
    class Slow(HashingEmbedder):
        def embed_query(self, text: str) -> Any:
            time.sleep(0.3)
            return super().embed_query(text)

    async def main() -> None:
        async with AsyncMemory(tmp_path / "j.db", embedder=Slow(), clock=clock) as m:
            await m.add("I live in Berlin", user_id="u1", infer=False)
            ticks = 0

            async def heartbeat() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            beat = asyncio.create_task(heartbeat())
            start = time.perf_counter()
            found = await asyncio.gather(*(m.search("Berlin", user_id="u1") for _ in range(4)))
            took = time.perf_counter() - start
            beat.cancel()
            assert all(f for f in found)
            # four 0.3 s searches on four threads: together, not one after another
            assert took < 1.0, took
            assert ticks >= 10, ticks  # the loop kept turning meanwhile

    asyncio.run(main())


def test_writes_reads_and_deletes_round_trip(amem: AsyncMemory) -> None:
    async def main() -> None:
        await amem.add("我住在杭州西湖区", user_id="u1")
        (item,) = await amem.list(user_id="u1")
        assert await amem.get(item.id) == item
        updated = await amem.update(item.id, "我住在上海浦东")
        assert updated.version == item.version + 1
        trail = await amem.history(item.id)
        assert len(trail) >= 2
        users = await amem.users()
        assert [u.user_id for u in users] == ["u1"]
        task = await amem.tasks.put("u1", "report", {"step": 2})
        assert (await amem.tasks.get("u1", "report")) == task
        assert (await amem.switch.get("u1")).memory.value == "on"
        await amem.delete(item.id)
        assert await amem.get(item.id) is None
        with pytest.raises(NotFoundError):
            await amem.delete(item.id)
        receipt = await amem.delete_user("u1")
        assert receipt.user_id == "u1"

    asyncio.run(main())


def test_add_batch_returns_one_outcome_per_item(amem: AsyncMemory) -> None:
    async def main() -> None:
        out = await amem.add_batch(
            [
                {"messages": "我对猫毛过敏", "user_id": "a"},
                {"messages": [], "user_id": "b"},
                {"messages": "I am vegetarian", "user_id": "c", "colour": "red"},
                {"messages": "I am vegetarian", "user_id": "c"},
            ]
        )
        assert isinstance(out[0], AddResult) and isinstance(out[3], AddResult)
        assert isinstance(out[1], InvalidInputError) and out[1].field == "items[1].messages"
        assert isinstance(out[2], InvalidInputError) and out[2].field == "items[2].colour"
        assert await amem.list(user_id="b") == []
        assert [m.content for m in await amem.list(user_id="a")]

    asyncio.run(main())


def test_errors_are_those_of_memory(tmp_path: Path, clock: Any) -> None:
    async def main() -> None:
        async with AsyncMemory(tmp_path / "j.db", embedder=HashingEmbedder(), clock=clock) as m:
            with pytest.raises(InvalidInputError) as err:
                await m.search("", user_id="u1")
            assert err.value.field == "query"

    asyncio.run(main())
    with pytest.raises(InvalidInputError):
        AsyncMemory(tmp_path / "k.db", embedder=HashingEmbedder(), threads=0)
    sync = Memory(tmp_path / "m.db", embedder=HashingEmbedder())
    with pytest.raises(InvalidInputError) as both:
        AsyncMemory(tmp_path / "m.db", memory=sync)
    assert both.value.field == "memory"
    sync.close()


def test_wraps_and_closes_an_existing_memory(tmp_path: Path, clock: Any) -> None:
    sync = Memory(tmp_path / "j.db", embedder=HashingEmbedder(), clock=clock)
    sync.add("I live in Oslo", user_id="u1", infer=False)

    async def main() -> None:
        async with AsyncMemory(memory=sync) as m:
            assert m.sync is sync and m.now() == clock()
            assert len(await m.list(user_id="u1", include_episodes=True)) == 1
            view = AsyncMemory.on(m.engine, "other")
            assert await view.list(user_id="u1", include_episodes=True) == []  # tenant-bound
            await view.close()  # a view leaves the shared engine open
            assert len(await m.list(user_id="u1", include_episodes=True)) == 1

    asyncio.run(main())


def test_the_profile_is_awaited_like_the_rest(tmp_path: Path) -> None:
    async def run() -> None:
        async with AsyncMemory(tmp_path / "a.db", embedder=HashingEmbedder()) as mem:
            await mem.add("我住在上海", user_id="u1")
            p = await mem.set_profile("u1", "timezone", "Asia/Shanghai")
            assert p.city is not None and p.timezone is not None
            assert (await mem.profile("u1")).city == p.city
            assert [o.field for o in await mem.profile_history("u1")] == ["timezone"]
            assert (await mem.update_profile("u1", {"timezone": None})).timezone is None

    asyncio.run(run())
