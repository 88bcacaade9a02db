"""The sections of an export document (``jiyi.transfer``), one class each: how a section
reads a user out of the engine, checks its part of a document, and writes it back inside
the import's one transaction.

A section is pluggable: anything with the :class:`Section` shape registered in
``jiyi.transfer.SECTIONS`` is exported and imported (another table of the user tier adds
one class here). The identity sections (aliases, identity log, flagged sessions) are in
:mod:`jiyi.transfer_identity`. Memories go through the store's own write
(``ChangeSet``: rows, keyword index and vectors together); every other section writes its
rows through the shared SQL dialect (``SqlWrite``).
"""

from __future__ import annotations

import base64
import builtins
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from pydantic import BaseModel

from jiyi.core.models import HistoryEntry, MemoryItem, Scope
from jiyi.core.ports import ChangeSet, IdentityTier, Indexed, SqlWrite, UserTier
from jiyi.core.profile import ProfileOverride
from jiyi.core.users import SwitchChange, SwitchState, TaskState
from jiyi.storage._sql import Dialect, Run, chunks, insert_history

if TYPE_CHECKING:
    from jiyi.engine import Engine

__all__ = [
    "MemoriesSection",
    "Plan",
    "ProfileSection",
    "Section",
    "SwitchSection",
    "TasksSection",
]


@dataclass
class Plan:
    """What an import writes, in one transaction: the memories' change set and the other
    sections' SQL writes. ``embed`` is called for memories whose vector must be rebuilt."""

    scope: Scope
    carry_vectors: bool
    changes: ChangeSet = field(default_factory=ChangeSet)
    writes: builtins.list[SqlWrite] = field(default_factory=list)


class Section(Protocol):
    """One part of an export document."""

    @property
    def name(self) -> str:
        """The key of the section in ``sections``."""
        ...

    @property
    def model(self) -> Any:
        """The type (a TypeAdapter target) the section's JSON must match."""
        ...

    def dump(self, engine: Engine, scope: Scope) -> Any:
        """The section's content for the user (JSON-ready), or None to leave it out."""
        ...

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        """Add the writes of ``data`` (already validated against ``model``) to ``plan``,
        rewritten for ``plan.scope`` (the import's tenant and user)."""
        ...


# -- memories ---------------------------------------------------------------------------------


class ExportedMemory(BaseModel):
    memory: MemoryItem
    keywords: str = ""
    vector: str | None = None  # base64 of little-endian float32
    history: builtins.list[HistoryEntry] = []


def _vector_text(vec: np.ndarray[Any, Any] | None) -> str | None:
    if vec is None:
        return None
    return base64.b64encode(np.asarray(vec, dtype="<f4").tobytes()).decode()


class MemoriesSection:
    name = "memories"
    model = builtins.list[ExportedMemory]

    def dump(self, engine: Engine, scope: Scope) -> Any:
        assert isinstance(engine.store, IdentityTier)
        return [
            ExportedMemory(
                memory=i.memory,
                keywords=i.keywords,
                vector=_vector_text(i.vector),
                history=engine.store.history(scope.tenant, i.memory.id),
            ).model_dump(mode="json")
            for i in engine.store.indexed(scope.tenant, scope.user_id)
        ]

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: builtins.list[ExportedMemory], validated against ``model``
        s = plan.scope
        items = [
            e.memory.model_copy(update={"tenant": s.tenant, "user_id": s.user_id}) for e in data
        ]
        embedder = engine.embedder_for(s.tenant)
        rebuilt: dict[int, np.ndarray[Any, Any]] = {}
        todo = [n for n, e in enumerate(data) if e.vector is not None and not plan.carry_vectors]
        if todo:
            vectors = embedder.embed_documents([items[n].content for n in todo])
            rebuilt = dict(zip(todo, vectors, strict=True))
        for n, (e, m) in enumerate(zip(data, items, strict=True)):
            vec = rebuilt.get(n)
            if vec is None and e.vector is not None:
                vec = np.frombuffer(base64.b64decode(e.vector), dtype="<f4").astype(np.float32)
            plan.changes.upserts.append(Indexed(m, e.keywords, vec))
        ids = [m.id for m in items]
        history = [h.model_copy(update={"id": None}) for e in data for h in e.history]

        def write(run: Run, d: Dialect) -> None:
            # Replace, not add to, the history of the imported ids: importing twice is
            # importing once.
            for chunk in chunks(ids):
                part, args = d.any_of("memory_id", chunk)
                run(
                    d.q(f"DELETE FROM {{s}}.history WHERE tenant = ? AND user_id = ? AND {part}"),
                    [s.tenant, s.user_id, *args],
                )
            sql, rows = insert_history(d, s, history)
            for row in rows:
                run(sql, list(row))

        plan.writes.append(write)


# -- task state -------------------------------------------------------------------------------


class TasksSection:
    name = "tasks"
    model = builtins.list[TaskState]

    def dump(self, engine: Engine, scope: Scope) -> Any:
        if not isinstance(engine.store, UserTier):
            return None
        found = engine.store.tasks.list(
            scope.tenant, scope.user_id, engine.clock(), active_only=False
        )
        return [t.model_dump(mode="json") for t in found]

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: builtins.list[TaskState], validated against ``model``
        s = plan.scope

        def write(run: Run, d: Dialect) -> None:
            for t in data:
                run(
                    d.q(
                        "INSERT INTO {s}.tasks (tenant, user_id, task_key, state, status, "
                        "version, created_at, updated_at, expires_at) VALUES "
                        "(?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, user_id, task_key) "
                        "DO UPDATE SET state = EXCLUDED.state, status = EXCLUDED.status, "
                        "version = EXCLUDED.version, created_at = EXCLUDED.created_at, "
                        "updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at"
                    ),
                    [
                        s.tenant,
                        s.user_id,
                        t.key,
                        d.json(t.state),
                        t.status.value,
                        t.version,
                        d.time(t.created_at),
                        d.time(t.updated_at),
                        d.time(t.expires_at),
                    ],
                )

        plan.writes.append(write)


# -- the memory switch ------------------------------------------------------------------------


class ExportedSwitch(BaseModel):
    state: SwitchState
    log: builtins.list[SwitchChange] = []  # newest first, as the switch reports it


class SwitchSection:
    name = "switch"
    model = ExportedSwitch

    def dump(self, engine: Engine, scope: Scope) -> Any:
        if not isinstance(engine.store, UserTier):
            return None
        sw = engine.store.switches
        return ExportedSwitch(
            state=sw.get(scope.tenant, scope.user_id),
            log=sw.changes(scope.tenant, scope.user_id, limit=100_000),
        ).model_dump(mode="json")

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: ExportedSwitch, validated against ``model``
        s = plan.scope

        def write(run: Run, d: Dialect) -> None:
            st = data.state
            if st.changed_at is not None:
                run(
                    d.q(
                        "INSERT INTO {s}.memory_switches (tenant, user_id, memory, changed_at, "
                        "changed_by) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant, user_id) DO "
                        "UPDATE SET memory = EXCLUDED.memory, changed_at = EXCLUDED.changed_at, "
                        "changed_by = EXCLUDED.changed_by"
                    ),
                    [
                        s.tenant,
                        s.user_id,
                        st.memory.value,
                        d.time(st.changed_at),
                        st.changed_by or "import",
                    ],
                )
            for c in reversed(data.log):  # oldest first, so ids keep the order
                at = d.time(c.at)
                run(
                    d.q(
                        "INSERT INTO {s}.memory_switch_log (tenant, user_id, at, before, after, "
                        "actor, via) SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM "
                        "{s}.memory_switch_log WHERE tenant = ? AND user_id = ? AND at = ? "
                        "AND after = ?)"
                    ),
                    [
                        s.tenant,
                        s.user_id,
                        at,
                        c.before.value,
                        c.after.value,
                        c.actor,
                        c.via,
                        s.tenant,
                        s.user_id,
                        at,
                        c.after.value,
                    ],
                )

        plan.writes.append(write)


class ProfileSection:
    """The profile fields users or operators set, with their history (the derived profile
    itself is not exported: it is read out of the memories again)."""

    name = "profile_overrides"
    model = builtins.list[ProfileOverride]

    def dump(self, engine: Engine, scope: Scope) -> Any:
        if not isinstance(engine.store, UserTier):
            return None
        found = engine.store.profiles.dump(scope.tenant, scope.user_id)
        return [o.model_dump(mode="json") for o in found]

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: builtins.list[ProfileOverride] (oldest first), validated against ``model``
        s = plan.scope

        def write(run: Run, d: Dialect) -> None:
            # Replace the user's overrides: importing twice is importing once.
            run(
                d.q("DELETE FROM {s}.profile_overrides WHERE tenant = ? AND user_id = ?"),
                [s.tenant, s.user_id],
            )
            for o in data:
                run(
                    d.q(
                        "INSERT INTO {s}.profile_overrides (tenant, user_id, field, value, "
                        "set_at, set_by) VALUES (?, ?, ?, ?, ?, ?)"
                    ),
                    [s.tenant, s.user_id, o.field, o.value, d.time(o.set_at), o.set_by],
                )

        plan.writes.append(write)
