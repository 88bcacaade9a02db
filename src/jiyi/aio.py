"""``AsyncMemory``: the embedded :class:`jiyi.Memory` for asyncio code, in process.

The engine is synchronous (SQLite, the embedding model), so every call runs the very same
``Memory`` method in a worker thread of a bounded pool owned by this object, and the event
loop stays free while it works. The server does the same (``Services.run``), so the engine
is built for concurrent calls from several threads.

Each method is made from ``Memory``'s by :func:`_in_thread`: its signature and docstring
are ``Memory``'s, so the two cannot drift apart (a test compares the public method sets).
Not awaited, because they do no I/O: ``on`` (a view of a shared engine), ``now`` and the
properties. ``close`` is awaited, and ``async with`` replaces ``with``.
"""

from __future__ import annotations

import asyncio
import builtins
import functools
from collections.abc import Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from jiyi.config import MemoryConfig
from jiyi.core.calibration import Calibration
from jiyi.core.ports import Clock, Embedder, Extractor, MemoryStore
from jiyi.core.users import SwitchChange, SwitchState, TaskState
from jiyi.engine import Engine
from jiyi.errors import InvalidInputError
from jiyi.memory import Memory
from jiyi.switch import MemorySwitches
from jiyi.tasks import Tasks

__all__ = ["AsyncMemory"]

P = ParamSpec("P")
T = TypeVar("T")
S = TypeVar("S")
#: Worker threads per AsyncMemory by default: SQLite reads and the embedder run in parallel
#: up to here; more calls wait their turn in the pool's queue.
DEFAULT_THREADS = 4


class _Pooled:
    """Something that runs blocking calls in a shared thread pool."""

    _pool: ThreadPoolExecutor

    async def _run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))


def _in_thread(
    method: Callable[Concatenate[S, P], T], target: Callable[[Any], S]
) -> Callable[Concatenate[Any, P], Coroutine[Any, Any, T]]:
    """An async method that runs ``method`` on ``target(self)`` in the pool."""

    @functools.wraps(method)
    async def call(self: _Pooled, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._run(method, target(self), *args, **kwargs)

    return call


def _memory(view: AsyncMemory) -> Memory:
    return view.sync


class AsyncMemory(_Pooled):
    """:class:`jiyi.Memory` with every I/O method awaited.

    Example:
        >>> async with AsyncMemory() as mem:
        ...     await mem.add("我对花生过敏", user_id="u1")
        ...     block = await mem.context("推荐个菜", user_id="u1")

    Args:
        path, config, store, embedder, extractor, clock: as for :class:`jiyi.Memory`.
        threads: worker threads that run the calls (calls beyond them wait in turn).
        memory: wrap this ``Memory`` instead of opening one (the others must be unset);
            closing the AsyncMemory closes it.

    Attributes:
        sync: the ``Memory`` underneath (for code that is not async).
        tasks, switch: ``Memory.tasks`` and ``Memory.switch`` with awaited methods.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        config: MemoryConfig | None = None,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        clock: Clock | None = None,
        threads: int = DEFAULT_THREADS,
        memory: Memory | None = None,
    ) -> None:
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise InvalidInputError("threads must be an integer ≥ 1", field="threads")
        given = (path, config, store, embedder, extractor, clock)
        if memory is not None and any(v is not None for v in given):
            raise InvalidInputError(
                "pass either memory or the arguments to open one, not both", field="memory"
            )
        if memory is None:
            memory = Memory(
                path,
                config=config,
                store=store,
                embedder=embedder,
                extractor=extractor,
                clock=clock,
            )
        self.sync = memory
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="jiyi-async")
        self.tasks = AsyncTasks(memory.tasks, self._pool)
        self.switch = AsyncSwitches(memory.switch, self._pool)

    @classmethod
    def on(cls, engine: Engine, tenant: str, *, threads: int = DEFAULT_THREADS) -> AsyncMemory:
        """A view of a shared ``engine`` bound to ``tenant`` (closing it leaves the engine
        open, but stops the view's own thread pool)."""
        return cls(memory=Memory.on(engine, tenant), threads=threads)

    @property
    def config(self) -> MemoryConfig:
        return self.sync.config

    @property
    def engine(self) -> Engine:
        return self.sync.engine

    @property
    def store(self) -> MemoryStore:
        return self.sync.store

    @property
    def embedder(self) -> Embedder:
        return self.sync.embedder

    @property
    def extractor(self) -> Extractor:
        return self.sync.extractor

    @property
    def calibration(self) -> Calibration:
        return self.sync.calibration

    def now(self) -> datetime:
        """The current time by this memory's clock (injected in tests)."""
        return self.sync.now()

    add = _in_thread(Memory.add, _memory)
    add_batch = _in_thread(Memory.add_batch, _memory)
    accept = _in_thread(Memory.accept, _memory)
    process = _in_thread(Memory.process, _memory)
    update = _in_thread(Memory.update, _memory)
    delete = _in_thread(Memory.delete, _memory)
    delete_user = _in_thread(Memory.delete_user, _memory)
    restore = _in_thread(Memory.restore, _memory)
    maintain = _in_thread(Memory.maintain, _memory)
    health = _in_thread(Memory.health, _memory)
    tenant_health = _in_thread(Memory.tenant_health, _memory)
    history = _in_thread(Memory.history, _memory)
    search = _in_thread(Memory.search, _memory)
    search_result = _in_thread(Memory.search_result, _memory)
    context = _in_thread(Memory.context, _memory)
    get = _in_thread(Memory.get, _memory)
    list = _in_thread(Memory.list, _memory)
    users = _in_thread(Memory.users, _memory)
    profile = _in_thread(Memory.profile, _memory)
    set_profile = _in_thread(Memory.set_profile, _memory)
    update_profile = _in_thread(Memory.update_profile, _memory)
    profile_history = _in_thread(Memory.profile_history, _memory)
    # identity (aliases, merge, drift confirmation, export / import)
    resolve_user = _in_thread(Memory.resolve_user, _memory)
    link = _in_thread(Memory.link, _memory)
    unlink = _in_thread(Memory.unlink, _memory)
    aliases = _in_thread(Memory.aliases, _memory)
    merge_users = _in_thread(Memory.merge_users, _memory)
    confirm_identity = _in_thread(Memory.confirm_identity, _memory)
    identity_suspect = _in_thread(Memory.identity_suspect, _memory)
    identity_events = _in_thread(Memory.identity_events, _memory)
    export = _in_thread(Memory.export, _memory)
    import_ = _in_thread(Memory.import_, _memory)
    audit = _in_thread(Memory.audit, _memory)

    async def close(self) -> None:
        """Wait for running calls, then release the engine (as :meth:`jiyi.Memory.close`)."""
        await asyncio.to_thread(self._pool.shutdown, wait=True)
        self.sync.close()

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class AsyncTasks(_Pooled):
    """:class:`jiyi.tasks.Tasks`, awaited (``AsyncMemory.tasks``)."""

    def __init__(self, tasks: Tasks, pool: ThreadPoolExecutor) -> None:
        self._tasks = tasks
        self._pool = pool

    async def put(
        self,
        user_id: str,
        key: str,
        state: Mapping[str, Any],
        *,
        expires_at: datetime | str | None = None,
        expected_version: int | None = None,
        status: str = "active",
    ) -> TaskState:
        """As :meth:`jiyi.tasks.Tasks.put`."""
        return await self._run(
            self._tasks.put,
            user_id,
            key,
            state,
            expires_at=expires_at,
            expected_version=expected_version,
            status=status,
        )

    async def get(self, user_id: str, key: str) -> TaskState | None:
        return await self._run(self._tasks.get, user_id, key)

    async def list(self, user_id: str, *, active_only: bool = False) -> builtins.list[TaskState]:
        return await self._run(self._tasks.list, user_id, active_only=active_only)

    async def delete(self, user_id: str, key: str) -> bool:
        return await self._run(self._tasks.delete, user_id, key)


class AsyncSwitches(_Pooled):
    """:class:`jiyi.switch.MemorySwitches`, awaited (``AsyncMemory.switch``)."""

    def __init__(self, switches: MemorySwitches, pool: ThreadPoolExecutor) -> None:
        self._switches = switches
        self._pool = pool

    async def get(self, user_id: str) -> SwitchState:
        return await self._run(self._switches.get, user_id)

    async def set(self, user_id: str, memory: str, *, actor: str = "library") -> SwitchState:
        return await self._run(self._switches.set, user_id, memory, actor=actor)

    async def history(self, user_id: str, *, limit: int = 100) -> builtins.list[SwitchChange]:
        return await self._run(self._switches.history, user_id, limit=limit)
