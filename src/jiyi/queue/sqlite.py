"""SQLite :class:`WorkQueue` for the embedded / single-node default (``$JIYI_HOME/queue.db``).

A file of its own next to ``jiyi.db``: claims take SQLite's write lock for a moment, and
that must not queue behind a long memory write. SQLite has no ``SKIP LOCKED``; a claim is
one ``BEGIN IMMEDIATE`` transaction (select the oldest due row, mark it running), which
serialises claimers across threads and processes — fine for the handful of workers one
node runs. One ``due_at`` column orders everything: pending jobs are due when available,
running ones when their lease ends.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from jiyi.errors import StorageUnavailableError
from jiyi.queue.base import STATES, Job, JobState, backoff

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL, tenant TEXT NOT NULL, user_id TEXT NOT NULL,
    payload TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT, worker TEXT,
    created_at INTEGER NOT NULL, due_at INTEGER NOT NULL, finished_at INTEGER
);
CREATE INDEX IF NOT EXISTS ix_jobs_due ON jobs (due_at) WHERE state IN ('pending', 'running');
CREATE INDEX IF NOT EXISTS ix_jobs_user ON jobs (tenant, user_id);
"""
_COLS = "id, kind, tenant, user_id, payload, state, attempts, last_error, created_at"
ERROR_CHARS = 500


def _ms(t: datetime) -> int:
    return int(t.timestamp() * 1000)


def _job(row: tuple[Any, ...]) -> Job:
    jid, kind, tenant, user, payload, state, attempts, error, created = row
    return Job(
        id=jid,
        kind=kind,
        tenant=tenant,
        user_id=user,
        payload=json.loads(payload),
        state=state,
        attempts=attempts,
        last_error=error,
        created_at=datetime.fromtimestamp(created / 1000, UTC),
    )


class SqliteWorkQueue:
    """Jobs in a SQLite file; safe across threads and processes.

    Args:
        path: the queue file (created with its directory).
        max_attempts: failed attempts before a job is dead.
        retry_base: first retry delay; doubles per attempt (capped at one hour).
        timeout: seconds to wait for another process's write lock.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        max_attempts: int = 5,
        retry_base: timedelta = timedelta(seconds=5),
        timeout: float = 10.0,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.max_attempts = max_attempts
        self.retry_base = retry_base
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            self.path, timeout=timeout, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a process crash
        with self._lock:
            self._db.executescript(_SCHEMA)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                raise StorageUnavailableError(
                    f"work queue {self.path} is unavailable: {exc}"
                ) from exc

    def enqueue(self, job: Job, *, now: datetime, delay: timedelta = timedelta(0)) -> bool:
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO jobs (id, kind, tenant, user_id, payload, state, created_at, "
                "due_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (id) DO NOTHING",
                (
                    job.id,
                    job.kind,
                    job.tenant,
                    job.user_id,
                    json.dumps(job.payload, ensure_ascii=False, default=str),
                    _ms(now),
                    _ms(now + delay),
                ),
            )
            return cur.rowcount == 1

    def release(self, job_id: str, *, now: datetime) -> bool:
        with self._tx() as db:
            return (
                db.execute(
                    "UPDATE jobs SET due_at = min(due_at, ?) WHERE id = ? "
                    "AND state = 'pending' AND attempts = 0",
                    (_ms(now), job_id),
                ).rowcount
                == 1
            )

    def claim(self, worker: str, *, lease: timedelta, now: datetime) -> Job | None:
        with self._tx() as db:
            row = db.execute(
                f"SELECT {_COLS} FROM jobs WHERE state IN ('pending', 'running') "
                "AND due_at <= ? ORDER BY due_at, seq LIMIT 1",
                (_ms(now),),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE jobs SET state = 'running', attempts = attempts + 1, worker = ?, "
                "due_at = ? WHERE id = ?",
                (worker, _ms(now + lease), row[0]),
            )
        job = _job(row)
        return job.model_copy(update={"state": "running", "attempts": job.attempts + 1})

    def complete(self, job_id: str, *, now: datetime) -> bool:
        with self._tx() as db:
            cur = db.execute(
                "UPDATE jobs SET state = 'done', finished_at = ?, last_error = NULL "
                "WHERE id = ? AND state != 'done'",
                (_ms(now), job_id),
            )
            return cur.rowcount == 1

    def fail(self, job_id: str, error: str, *, now: datetime) -> JobState | None:
        with self._tx() as db:
            row = db.execute("SELECT attempts FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if row is None:
                return None
            attempts = int(row[0])
            state: JobState = "dead" if attempts >= self.max_attempts else "pending"
            db.execute(
                "UPDATE jobs SET state = ?, last_error = ?, due_at = ?, worker = NULL WHERE id = ?",
                (state, error[:ERROR_CHARS], _ms(now + backoff(attempts, self.retry_base)), job_id),
            )
            return state

    def retry_dead(self, *, now: datetime) -> int:
        with self._tx() as db:
            return db.execute(
                "UPDATE jobs SET state = 'pending', attempts = 0, due_at = ? WHERE state = 'dead'",
                (_ms(now),),
            ).rowcount

    def purge_user(self, tenant: str, user_id: str) -> int:
        with self._tx() as db:
            return db.execute(
                "DELETE FROM jobs WHERE tenant = ? AND user_id = ?", (tenant, user_id)
            ).rowcount

    def counts(self) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute("SELECT state, count(*) FROM jobs GROUP BY state").fetchall()
        found = {cast(str, s): int(n) for s, n in rows}
        return {s: found.get(s, 0) for s in STATES}

    def prune(self, *, before: datetime) -> int:
        with self._tx() as db:
            return db.execute(
                "DELETE FROM jobs WHERE state = 'done' AND finished_at < ?", (_ms(before),)
            ).rowcount

    def dead(self, limit: int = 100) -> list[Job]:
        """Dead jobs, oldest first (for ``jiyi worker --dead``)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLS} FROM jobs WHERE state = 'dead' ORDER BY seq LIMIT ?", (limit,)
            ).fetchall()
        return [_job(r) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
