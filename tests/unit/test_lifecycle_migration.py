"""A SQLite file written before the lifecycle (schema 3) opens, gains the lifecycle columns
and keeps its memories."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Scope
from jiyi.core.ports import ChangeSet, Indexed
from jiyi.storage.sqlite import SCHEMA_VERSION, SqliteMemoryStore

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_schema_3_file_is_migrated_to_4(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    store = SqliteMemoryStore(db)
    m = MemoryItem(
        id=new_id(), user_id="u", kind=MemoryKind.FACT, content="用户住在上海",
        created_at=T0, observed_at=T0,
    )  # fmt: skip
    store.apply(Scope(user_id="u"), ChangeSet(upserts=[Indexed(m, "用户 住在 上海", None)]))
    store.close()
    raw = sqlite3.connect(db)
    for column in ("reinforced_at", "archived_at", "confidence_at"):
        raw.execute(f"ALTER TABLE memories DROP COLUMN {column}")
    raw.execute("PRAGMA user_version = 3")
    raw.commit()
    raw.close()

    reopened = SqliteMemoryStore(db)
    try:
        got = reopened.get("default", m.id)
        assert got is not None and got.content == m.content and got.reinforced_at is None
        at = T0 + timedelta(days=2)
        step = dict(step=0.1, cap=0.95, every=timedelta(days=1))
        assert reopened.reinforce(Scope(user_id="u"), [m.id], at, **step) == [m.id]  # type: ignore[arg-type]
    finally:
        reopened.close()
    check = sqlite3.connect(db)
    # 4 added the lifecycle columns; later versions (5: the user tier's tables) come with it.
    assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 4
    check.close()
