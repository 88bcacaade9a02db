"""Start the real jiyi server (uvicorn on a free loopback port, in a thread) for tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from jiyi.core.ports import Embedder
from jiyi.embedders import HashingEmbedder
from jiyi.keys import KeyStore, SqliteKeyStore
from jiyi.server.app import create_app
from jiyi.server.services import Services
from jiyi.settings import Settings
from jiyi.storage.sqlite import SqliteMemoryStore


class FakeClock:
    """A settable, thread-safe clock; starts at a fixed instant."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, **kw: float) -> None:
        with self._lock:
            self._now += timedelta(**kw)


@dataclass
class RunningServer:
    url: str
    app: FastAPI
    keys: KeyStore
    clock: FakeClock
    store: SqliteMemoryStore

    @property
    def services(self) -> Services:
        services: Services = self.app.state.services
        return services

    def key(self, tenant: str, agent: str | None = None) -> str:
        return self.keys.create(tenant, agent)[0]

    def sweep(self, timeout: float = 10.0) -> None:
        """Run the background flusher now and wait until it is idle again."""
        flusher = self.app.state.flusher
        flusher.idle.clear()
        flusher.kick()
        deadline = time.monotonic() + timeout
        while not flusher.idle.is_set():
            if time.monotonic() > deadline:
                raise TimeoutError("flusher did not finish")
            time.sleep(0.01)


def wait_for(check, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    """``check()``'s first truthy result, polled every 50 ms; TimeoutError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not (got := check()):
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(0.05)
    return got


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Run ``app`` under uvicorn on a free loopback port (in a thread); yields its URL."""
    # Port 0: the kernel picks a free port; we read it back once uvicorn is listening.
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def running_server(
    tmp_path: Path, *, embedder: Embedder | None = None, **settings: Any
) -> Iterator[RunningServer]:
    clock = FakeClock()
    # Functional tests check answers, not latency bounds: a busy CI machine must not turn
    # them into 503s. The overload tests pass their own admission settings.
    settings.setdefault("max_queue_wait_ms", 60_000)
    cfg = Settings(home=tmp_path, embedder="hashing", **settings)
    store = SqliteMemoryStore(tmp_path / "jiyi.db")
    keys = SqliteKeyStore(tmp_path / "keys.db")
    app = create_app(
        cfg, store=store, embedder=embedder or HashingEmbedder(), keys=keys, clock=clock
    )
    try:
        with serving(app) as url:
            yield RunningServer(url, app, keys, clock, store)
    finally:
        store.close()
        keys.close()
