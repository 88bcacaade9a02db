"""Task state on the read and write paths: the store's task table, the tasks a query is
about (for the context block), and the cached vectors a changed or deleted task leaves.

The matching rules are in :mod:`jiyi.core.tasks`; this module only supplies what they need
from the ports — the user's active tasks and, for tasks that share no word with the query,
the calibrated similarity of the query to each task's words.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np

from jiyi.core.calibration import Calibration
from jiyi.core.models import Scope
from jiyi.core.ports import Embedder, MemoryStore, TaskStore, UserTier
from jiyi.core.tasks import content_terms, match_tasks, task_text
from jiyi.core.users import TaskState
from jiyi.errors import StorageUnavailableError

__all__ = ["MAX_CONTEXT_TASKS", "relevant_tasks", "resumed_tasks", "task_store"]

#: The most recently updated active tasks a context block considers.
MAX_CONTEXT_TASKS = 20


def task_store(store: MemoryStore) -> TaskStore:
    """The store's task table, or StorageUnavailableError for a store without one."""
    if isinstance(store, UserTier):
        return store.tasks
    raise StorageUnavailableError(
        f"{type(store).__name__} keeps no task state (jiyi's SQLite and PostgreSQL stores do)"
    )


def relevant_tasks(
    tasks: list[TaskState],
    query: str,
    *,
    embedder: Embedder,
    cal: Calibration,
    min_semantic: float,
) -> list[TaskState]:
    """The tasks among ``tasks`` (active, most recent first) that ``query`` is about, best
    first. Only tasks sharing no word with the query are embedded (their vectors are
    cached like any document's)."""
    if not tasks:
        return []
    words = content_terms(query)
    unmatched = [t for t in tasks if not words & content_terms(task_text(t))]
    semantic: dict[str, float] = {}
    if unmatched:
        q = embedder.embed_query(query)
        vectors = embedder.embed_documents([task_text(t) for t in unmatched])
        cosines = np.asarray(vectors, dtype=np.float32) @ np.asarray(q, dtype=np.float32)
        semantic = {t.key: cal.semantic(float(c)) for t, c in zip(unmatched, cosines, strict=True)}
    return match_tasks(query, tasks, semantic=semantic, min_semantic=min_semantic)


def resumed_tasks(
    store: MemoryStore,
    scope: Scope,
    query: str,
    *,
    now: datetime,
    embedder: Embedder,
    cal: Calibration,
    min_semantic: float,
) -> list[TaskState]:
    """The user's active tasks that ``query`` is about, best first: :func:`relevant_tasks`
    among the :data:`MAX_CONTEXT_TASKS` most recent. None for a store without a user tier."""
    if not isinstance(store, UserTier):
        return []
    active = store.tasks.list(scope.tenant, scope.user_id, now, active_only=True)
    return relevant_tasks(
        active[:MAX_CONTEXT_TASKS], query, embedder=embedder, cal=cal, min_semantic=min_semantic
    )
