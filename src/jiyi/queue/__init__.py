"""Durable background work: the WorkQueue port and its backends (SQLite, PostgreSQL)."""

from jiyi.queue.base import STATES, Job, JobKind, JobState, WorkQueue, backoff
from jiyi.queue.sqlite import SqliteWorkQueue

__all__ = ["STATES", "Job", "JobKind", "JobState", "SqliteWorkQueue", "WorkQueue", "backoff"]
