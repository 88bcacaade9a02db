"""PostgreSQL :class:`WorkQueue`: a table claimed with ``SELECT … FOR UPDATE SKIP LOCKED``.

The table lives in the store's schema (default ``jiyi``), so one database holds the
memories and the work still to be done on them. ``SKIP LOCKED`` lets any number of
workers claim concurrently without waiting on each other's rows; the claim is one
statement (``UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING``), so a
job is never handed out twice. One ``due_at`` column orders everything: pending jobs are
due when available, running ones when their lease ends (a dead worker's job comes back).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from jiyi.errors import InvalidInputError, MissingDependencyError, StorageUnavailableError
from jiyi.queue.base import STATES, Job, JobState, backoff

_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
_DDL = """
CREATE SCHEMA IF NOT EXISTS {s};
CREATE TABLE IF NOT EXISTS {s}.work_queue (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    kind text NOT NULL, tenant text NOT NULL, user_id text NOT NULL,
    payload jsonb NOT NULL, state text NOT NULL, attempts integer NOT NULL DEFAULT 0,
    last_error text, worker text,
    created_at timestamptz NOT NULL, due_at timestamptz NOT NULL, finished_at timestamptz
);
CREATE INDEX IF NOT EXISTS ix_work_queue_due ON {s}.work_queue (due_at, seq)
    WHERE state IN ('pending', 'running');
CREATE INDEX IF NOT EXISTS ix_work_queue_user ON {s}.work_queue (tenant, user_id);
"""
_COLS = "id, kind, tenant, user_id, payload, state, attempts, last_error, created_at"
ERROR_CHARS = 500


def _job(row: tuple[Any, ...]) -> Job:
    jid, kind, tenant, user, payload, state, attempts, error, created = row
    return Job(
        id=jid,
        kind=kind,
        tenant=tenant,
        user_id=user,
        payload=payload,
        state=state,
        attempts=attempts,
        last_error=error,
        created_at=created.astimezone(UTC),
    )


class PostgresWorkQueue:
    """Jobs in ``<schema>.work_queue``; safe across threads and processes.

    Args:
        dsn: a libpq connection string or URL (``JIYI_STORE``).
        schema: where the table lives (created if missing).
        max_attempts: failed attempts before a job is dead.
        retry_base: first retry delay; doubles per attempt (capped at one hour).
        pool_size: the most connections this queue opens.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str = "jiyi",
        max_attempts: int = 5,
        retry_base: timedelta = timedelta(seconds=5),
        pool_size: int = 4,
    ) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError as exc:
            raise MissingDependencyError("psycopg", "postgres") from exc
        if not _SCHEMA_NAME.fullmatch(schema):
            raise InvalidInputError(
                "schema must be letters, digits and underscores (max 63)", field="schema"
            )
        self._psycopg = psycopg
        self._s = f'"{schema}"'
        self.max_attempts = max_attempts
        self.retry_base = retry_base
        try:
            with (
                psycopg.connect(dsn, connect_timeout=10, autocommit=True) as conn,
                conn.transaction(),
            ):
                # Concurrent first starts wait for each other instead of racing the DDL.
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('jiyi.work_queue'))")
                conn.execute(_DDL.replace("{s}", self._s))
        except psycopg.Error as exc:
            raise StorageUnavailableError(f"cannot prepare the work queue table: {exc}") from exc
        self._pool: ConnectionPool[Any] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            check=ConnectionPool.check_connection,
            timeout=10.0,
            name="jiyi-queue",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=10.0)
        except psycopg.Error as exc:
            self._pool.close()
            raise StorageUnavailableError(f"cannot connect to PostgreSQL: {exc}") from exc

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                yield cur
        except self._psycopg.Error as exc:
            raise StorageUnavailableError(f"work queue unavailable: {exc}") from exc

    def _q(self, sql: str) -> str:
        return sql.replace("{s}", self._s)

    def enqueue(self, job: Job, *, now: datetime, delay: timedelta = timedelta(0)) -> bool:
        from psycopg.types.json import Jsonb

        payload = json.loads(json.dumps(job.payload, ensure_ascii=False, default=str))
        with self._tx() as cur:
            cur.execute(
                self._q(
                    "INSERT INTO {s}.work_queue (id, kind, tenant, user_id, payload, state, "
                    "created_at, due_at) VALUES (%s, %s, %s, %s, %s, 'pending', %s, %s) "
                    "ON CONFLICT (id) DO NOTHING"
                ),
                (job.id, job.kind, job.tenant, job.user_id, Jsonb(payload), now, now + delay),
            )
            return bool(cur.rowcount == 1)

    def release(self, job_id: str, *, now: datetime) -> bool:
        with self._tx() as cur:
            cur.execute(
                self._q(
                    "UPDATE {s}.work_queue SET due_at = least(due_at, %s) "
                    "WHERE id = %s AND state = 'pending' AND attempts = 0"
                ),
                (now, job_id),
            )
            return bool(cur.rowcount == 1)

    def claim(self, worker: str, *, lease: timedelta, now: datetime) -> Job | None:
        with self._tx() as cur:
            cur.execute(
                self._q(
                    "UPDATE {s}.work_queue SET state = 'running', attempts = attempts + 1, "
                    "worker = %s, due_at = %s WHERE seq = ("
                    "  SELECT seq FROM {s}.work_queue WHERE state IN ('pending', 'running') "
                    "  AND due_at <= %s ORDER BY due_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED) "
                    f"RETURNING {_COLS}"
                ),
                (worker, now + lease, now),
            )
            row = cur.fetchone()
        return None if row is None else _job(row)

    def complete(self, job_id: str, *, now: datetime) -> bool:
        with self._tx() as cur:
            cur.execute(
                self._q(
                    "UPDATE {s}.work_queue SET state = 'done', finished_at = %s, "
                    "last_error = NULL WHERE id = %s AND state != 'done'"
                ),
                (now, job_id),
            )
            return bool(cur.rowcount == 1)

    def fail(self, job_id: str, error: str, *, now: datetime) -> JobState | None:
        with self._tx() as cur:
            cur.execute(
                self._q("SELECT attempts FROM {s}.work_queue WHERE id = %s FOR UPDATE"), (job_id,)
            )
            row = cur.fetchone()
            if row is None:
                return None
            attempts = int(row[0])
            state: JobState = "dead" if attempts >= self.max_attempts else "pending"
            cur.execute(
                self._q(
                    "UPDATE {s}.work_queue SET state = %s, last_error = %s, "
                    "due_at = %s, worker = NULL WHERE id = %s"
                ),
                (state, error[:ERROR_CHARS], now + backoff(attempts, self.retry_base), job_id),
            )
            return state

    def retry_dead(self, *, now: datetime) -> int:
        with self._tx() as cur:
            cur.execute(
                self._q(
                    "UPDATE {s}.work_queue SET state = 'pending', attempts = 0, "
                    "due_at = %s WHERE state = 'dead'"
                ),
                (now,),
            )
            return int(cur.rowcount)

    def purge_user(self, tenant: str, user_id: str) -> int:
        with self._tx() as cur:
            cur.execute(
                self._q("DELETE FROM {s}.work_queue WHERE tenant = %s AND user_id = %s"),
                (tenant, user_id),
            )
            return int(cur.rowcount)

    def counts(self) -> dict[str, int]:
        with self._tx() as cur:
            cur.execute(self._q("SELECT state, count(*) FROM {s}.work_queue GROUP BY state"))
            found = {str(s): int(n) for s, n in cur.fetchall()}
        return {s: found.get(s, 0) for s in STATES}

    def dead(self, limit: int = 100) -> list[Job]:
        with self._tx() as cur:
            cur.execute(
                self._q(
                    f"SELECT {_COLS} FROM {{s}}.work_queue WHERE state = 'dead' "
                    "ORDER BY seq LIMIT %s"
                ),
                (limit,),
            )
            return [_job(r) for r in cur.fetchall()]

    def prune(self, *, before: datetime) -> int:
        with self._tx() as cur:
            cur.execute(
                self._q("DELETE FROM {s}.work_queue WHERE state = 'done' AND finished_at < %s"),
                (before,),
            )
            return int(cur.rowcount)

    def drop(self) -> None:
        """Drop the table (tests)."""
        with self._tx() as cur:
            cur.execute(self._q("DROP TABLE IF EXISTS {s}.work_queue"))

    def close(self) -> None:
        self._pool.close()
