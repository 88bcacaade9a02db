"""The identity sections of an export (``jiyi.transfer``): who the user is rather than what
their memory holds — the login aliases (keyed digests and masked hints, never the alias
itself), the identity audit log, and the sessions the drift guard flagged. Each is a
:class:`~jiyi.transfer_sections.Section`, read out of the engine's ``IdentityTier`` and
written back through the shared SQL dialect inside the import's one transaction.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

from jiyi.core.identity import Alias, IdentityEvent, SuspectSession
from jiyi.core.models import Scope
from jiyi.errors import AliasTakenError
from jiyi.storage._identity import insert_event
from jiyi.storage._sql import Dialect, Run
from jiyi.transfer_sections import Plan

if TYPE_CHECKING:
    from jiyi.engine import Engine

__all__ = ["AliasesSection", "IdentityLogSection", "SuspectSessionsSection"]


class AliasesSection:
    name = "aliases"
    model = builtins.list[Alias]

    def dump(self, engine: Engine, scope: Scope) -> Any:
        found = engine.identity.aliases(scope.tenant, scope.user_id)
        return [a.model_dump(mode="json") for a in found]

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: builtins.list[Alias], validated against ``model``
        s = plan.scope

        def write(run: Run, d: Dialect) -> None:
            for a in data:
                run(
                    d.q(
                        "INSERT INTO {s}.aliases (tenant, kind, digest, user_id, hint, "
                        "created_at) VALUES (?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT (tenant, kind, digest) DO NOTHING"
                    ),
                    [s.tenant, a.kind.value, a.digest, s.user_id, a.hint, d.time(a.created_at)],
                )
                owner = run(
                    d.q(
                        "SELECT user_id FROM {s}.aliases "
                        "WHERE tenant = ? AND kind = ? AND digest = ?"
                    ),
                    [s.tenant, a.kind.value, a.digest],
                )
                if owner[0][0] != s.user_id:
                    raise AliasTakenError(
                        f"an alias of the document ({a.kind.value} {a.hint}) is linked to "
                        "another user here: nothing was imported",
                        field="sections.aliases",
                    )

        plan.writes.append(write)


class IdentityLogSection:
    name = "identity_log"
    model = builtins.list[IdentityEvent]

    def dump(self, engine: Engine, scope: Scope) -> Any:
        found = engine.identity.events(scope.tenant, scope.user_id, limit=100_000)
        return [e.model_dump(mode="json") for e in found]

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: builtins.list[IdentityEvent], validated against ``model``
        s = plan.scope

        def write(run: Run, d: Dialect) -> None:
            for e in reversed(data):  # oldest first
                seen = run(
                    d.q(
                        "SELECT 1 FROM {s}.identity_log WHERE tenant = ? AND user_id = ? "
                        "AND at = ? AND action = ?"
                    ),
                    [s.tenant, s.user_id, d.time(e.at), e.action],
                )
                if not seen:
                    insert_event(run, d, s.tenant, e.model_copy(update={"user_id": s.user_id}))

        plan.writes.append(write)


class SuspectSessionsSection:
    name = "suspect_sessions"
    model = builtins.list[SuspectSession]

    def dump(self, engine: Engine, scope: Scope) -> Any:
        found = engine.identity.suspects(scope.tenant, scope.user_id)
        return [f.model_dump(mode="json") for f in found]

    def plan(self, engine: Engine, data: Any, plan: Plan) -> None:
        # data: builtins.list[SuspectSession], validated against ``model``
        s = plan.scope

        def write(run: Run, d: Dialect) -> None:
            for f in data:
                run(
                    d.q(
                        "INSERT INTO {s}.identity_sessions (tenant, user_id, session_id, "
                        "flagged_at, slots, confirmed_at, confirmed_by) VALUES "
                        "(?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, user_id, session_id) DO "
                        "UPDATE SET flagged_at = EXCLUDED.flagged_at, slots = EXCLUDED.slots, "
                        "confirmed_at = EXCLUDED.confirmed_at, "
                        "confirmed_by = EXCLUDED.confirmed_by"
                    ),
                    [
                        s.tenant,
                        s.user_id,
                        f.session_id,
                        d.time(f.flagged_at),
                        d.json(f.slots),
                        d.time(f.confirmed_at),
                        f.confirmed_by,
                    ],
                )

        plan.writes.append(write)
