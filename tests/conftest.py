"""Shared fixtures: an injectable clock and fast, deterministic embedders."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from jiyi import Memory, MemoryConfig
from jiyi.core.ports import Vector
from jiyi.embedders import HashingEmbedder


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 11, 29, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def mem(tmp_path: Path, clock: FakeClock) -> Iterator[Memory]:
    """A Memory on a temp SQLite file with the hashing embedder (fast, no model)."""
    m = Memory(tmp_path / "jiyi.db", embedder=HashingEmbedder(), clock=clock)
    yield m
    m.close()


@pytest.fixture(scope="session")
def e5():  # type: ignore[no-untyped-def]
    """The real default embedder, loaded once per test session."""
    from jiyi.embedders import default_embedder

    return default_embedder()


@pytest.fixture
def real_mem(tmp_path: Path, clock: FakeClock, e5) -> Iterator[Memory]:  # type: ignore[no-untyped-def]
    m = Memory(tmp_path / "jiyi.db", embedder=e5, clock=clock, config=MemoryConfig())
    yield m
    m.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """In CI (JIYI_REQUIRE_SERVICES=1) a test skipped because a server is not configured
    (its reason names a JIYI_TEST_* variable) is a failure: no silent skips there."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("JIYI_REQUIRE_SERVICES") == "1":
        reason = str(report.longrepr)
        if "JIYI_TEST_" in reason:
            report.outcome = "failed"
            report.longrepr = f"required service missing in CI: {reason}"


class SlowQueries:
    """The hashing embedder whose query embeddings take ``delay`` seconds: a semantic
    search channel over its time budget."""

    name = "hashing-slow"

    def __init__(self, delay: float = 0.0) -> None:
        self.inner = HashingEmbedder()
        self.dim = self.inner.dim
        self.delay = delay

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> Vector:
        time.sleep(self.delay)
        return self.inner.embed_query(text)


@pytest.fixture
def slow_embedder() -> SlowQueries:
    return SlowQueries()


@pytest.fixture(scope="module")
def module_clock() -> FakeClock:
    """A clock shared by the tests of one module (see ``shared_real_mem``)."""
    return FakeClock()


@pytest.fixture(scope="module")
def shared_real_mem(
    tmp_path_factory: pytest.TempPathFactory,
    module_clock: FakeClock,
    e5,  # type: ignore[no-untyped-def]
) -> Iterator[Memory]:
    """One Memory on the real default embedder for a whole test module: tests that share
    it must each use their own user_id. Repeated texts hit the embedder's cache, so a
    module of behaviour tests embeds each sentence once."""
    path = tmp_path_factory.mktemp("shared") / "jiyi.db"
    m = Memory(path, embedder=e5, clock=module_clock, config=MemoryConfig())
    yield m
    m.close()
