"""A row that cannot be decoded must not poison its user's reads.

Rows are written straight into the server's SQLite file, as another tool or an older jiyi
might have left them: an unpadded year, garbage timestamps, an unknown kind, broken JSON,
bytes that are not UTF-8, a number that is text. Every read of that user (list, get,
search, context, history) and ``DELETE /v1/users/{id}`` must still answer < 500; the good
rows stay readable, the bad ones are skipped and counted on ``/metrics``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.storage._rows import COLUMNS
from jiyi.storage.sqlite import scope_token

pytestmark = pytest.mark.integration
USER = "poisoned"
# column → a value no reader can decode (SQLite's dynamic types accept all of them)
POISON: dict[str, str] = {
    "created_at": "'not a time'",
    "observed_at": "'2026-13-45T99:99:99Z'",
    "valid_to": "'0000-00-00'",
    "kind": "'bogus'",
    "status": "'zombie'",
    "metadata": "'{not json'",
    "source_message_ids": "'[1, 2'",
    "importance": "'very'",
    "content": "CAST(x'e6889148ff6f' AS TEXT)",  # invalid UTF-8 in a TEXT column
    "version": "'v2'",
}


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path) as s:
        yield s


def poison(db_path: Path, good_id: str) -> list[str]:
    """Copies of the good row with one broken column each (plus one unpadded legacy year,
    which must still read); returns the new ids."""
    ids = []
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        cols = ", ".join(COLUMNS)
        for n, (col, bad) in enumerate([*POISON.items(), ("observed_at", None)]):
            new_id = f"poison-{n}-{col}"
            values = ", ".join(
                "?"
                if c == "id"
                else (bad if c == col and bad else "'999-01-01T00:00:00.000000Z'")
                if c == col
                else c
                for c in COLUMNS
            )
            cur = db.execute(
                f"INSERT INTO memories ({cols}) SELECT {values} FROM memories WHERE id = ?",
                (new_id, good_id),
            )
            db.execute(
                "INSERT INTO memory_fts (rowid, scope, tokens) VALUES (?, ?, ?)",
                (cur.lastrowid, scope_token("acme", USER), "花生 过敏 peanut"),
            )
            db.execute(
                "INSERT INTO history (tenant, user_id, memory_id, action, at, content, "
                "content_hash, version) VALUES ('acme', ?, ?, 'ADD', ?, 'x', 'h', 1)",
                (USER, new_id, "garbage" if n % 2 else "0999-01-01T00:00:00.000000Z"),
            )
            ids.append(new_id)
        # What any writer does: readers holding a cache of this user reload it.
        db.execute(
            "UPDATE scope_versions SET version = version + 1 WHERE tenant = 'acme' AND user_id = ?",
            (USER,),
        )
        db.execute("COMMIT")
    finally:
        db.close()
    return ids


def test_bad_rows_are_skipped_counted_and_deleted(srv: RunningServer) -> None:
    key = srv.key("acme")
    with httpx.Client(
        base_url=srv.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
    ) as h:
        added = h.post("/v1/memories", json={"messages": "我对花生过敏", "user_id": USER})
        assert added.status_code == 200
        good = [e["memory"]["id"] for e in added.json()["events"]]
        assert good
        # Warm the server's caches first, so the poison must be noticed through a reload.
        assert h.post("/v1/memories/search", json={"query": "花生", "user_id": USER}).json()
        bad = poison(srv.store.path, good[0])

        listed = h.get("/v1/memories", params={"user_id": USER, "include_superseded": True})
        assert listed.status_code == 200
        ids = {m["id"] for m in listed.json()["memories"]}
        assert set(good) <= ids
        # Two rows are readable: the legacy unpadded year, and the non-UTF-8 content (its
        # bytes replaced by U+FFFD). Every other poisoned row is skipped.
        mojibake = "poison-8-content"
        assert ids & set(bad) == {bad[-1], mojibake}, ids
        legacy = h.get(f"/v1/memories/{bad[-1]}").json()
        assert legacy["observed_at"].startswith("0999-01-01")
        assert "\ufffd" in h.get(f"/v1/memories/{mojibake}").json()["content"]

        for memory_id in [*good, *bad]:
            got = h.get(f"/v1/memories/{memory_id}")
            assert got.status_code in (200, 404), got.text
            hist = h.get(f"/v1/memories/{memory_id}/history")
            assert hist.status_code in (200, 404), hist.text
        found = h.post("/v1/memories/search", json={"query": "花生过敏", "user_id": USER})
        assert found.status_code == 200
        assert {r["memory"]["id"] for r in found.json()["results"]} & set(good)
        ctx = h.post("/v1/context", json={"query": "推荐个菜", "user_id": USER})
        assert ctx.status_code == 200 and "花生" in ctx.json()["text"]

        metrics = h.get("/metrics").text
        skipped = [
            line
            for line in metrics.splitlines()
            if line.startswith('jiyi_bad_rows_skipped_total{table="memories"}')
        ]
        assert skipped and float(skipped[0].split()[-1]) >= len(POISON) - 3  # kind, status,
        # content: the first two never pass the list's SQL filter, the third is readable

        gone = h.delete(f"/v1/users/{USER}")
        assert gone.status_code == 200, gone.text
        assert gone.json()["removed"]["memories"] == len(good) + len(bad) + len(
            added.json()["episodes"]
        )
        after = h.get("/v1/memories", params={"user_id": USER, "include_episodes": True})
        assert after.json()["memories"] == []
    db = sqlite3.connect(srv.store.path)
    try:
        left = db.execute("SELECT count(*) FROM memories WHERE user_id = ?", (USER,)).fetchone()
        assert left == (0,)
    finally:
        db.close()
