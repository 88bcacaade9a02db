"""Backends the contract suite runs against.

SQLite always runs. PostgreSQL runs when JIYI_TEST_PG_DSN points at a server (scripts/
services.sh up provides one; CI always sets it); otherwise it is skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from jiyi.core.ports import MemoryStore

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    if request.param == "sqlite":
        from jiyi.storage.sqlite import SqliteMemoryStore

        s: MemoryStore = SqliteMemoryStore(tmp_path / "contract.db")
    else:
        dsn = os.environ.get("JIYI_TEST_PG_DSN")
        if not dsn:
            pytest.skip(
                "PostgreSQL not configured: run `scripts/services.sh up` and export "
                "JIYI_TEST_PG_DSN (CI always does)"
            )
        try:
            from jiyi.storage.postgres import PostgresMemoryStore
        except ImportError as exc:
            pytest.skip(f"PostgreSQL backend unavailable: {exc}")
        s = PostgresMemoryStore(dsn, schema=f"t_{os.getpid()}_{abs(hash(tmp_path)) % 10**8}")
    yield s
    drop = getattr(s, "drop_schema", None)
    if callable(drop):
        drop()
    s.close()
