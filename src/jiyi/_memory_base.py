"""What every part of :class:`jiyi.Memory` shares: the tenant-bound config, the engine,
and the checks that turn what callers pass into validated values (errors name the field).

Private: ``Memory`` is assembled from this base, :mod:`jiyi._memory_reads` and
:mod:`jiyi.memory` (the writes, the lifecycle and the constructor).
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from jiyi.config import MemoryConfig
from jiyi.core.audit import AuditAction, AuditEntry
from jiyi.core.inputs import as_utc, check_id, parse_messages, require_id, zone
from jiyi.core.models import MemoryItem, Message, Scope
from jiyi.engine import Engine
from jiyi.errors import InvalidInputError, NotFoundError

__all__ = ["MemoryBase", "add_arguments"]


class MemoryBase:
    """The config (its ``tenant`` binds every call) and engine of a ``Memory``, and the
    validation helpers its methods share."""

    config: MemoryConfig
    engine: Engine
    #: Who the audit log names for this view's calls (``key:<id>`` over REST); None: the
    #: call's agent (``agent:<id>``) or ``library``.
    _actor: str | None = None

    def _audited(
        self, action: AuditAction, user_id: str, count: int, agent_id: str | None = None
    ) -> None:
        """Queue the audit row of one call (no content: who, what, when, how many)."""
        who = self._actor or (f"agent:{agent_id}" if agent_id else "library")
        entry = AuditEntry(
            user_id=user_id, at=self.engine.clock(), actor=who, action=action, count=count
        )
        self.engine.reads.audit(self.config.tenant, entry)

    def _user(self, user_id: object, field: str = "user_id") -> str:
        """A checked user id; an alias reference (``alias:<kind>:<value>``) is resolved to
        the user it names (NotFoundError when none has it) — the one resolver
        (``IdentityOps.resolve_user``) behind every user id the library and server accept."""
        return self.engine.resolve_user(self.config.tenant, require_id(user_id, field))

    def _scope(self, user_id: object, agent_id: object = None) -> Scope:
        aid = check_id(agent_id, "agent_id", required=False)
        return Scope(tenant=self.config.tenant, user_id=self._user(user_id), agent_id=aid)

    def _now(self, value: object = None, field: str = "now") -> datetime:
        return as_utc(value, field) or self.engine.clock()

    def _localized(
        self, messages: object, timestamp: object, timezone: object
    ) -> tuple[datetime, builtins.list[Message]]:
        """Now and the validated messages, their times in the user's timezone (relative
        dates such as 明天 / next Friday resolve against the user's calendar day)."""
        tz = zone(timezone if timezone is not None else self.config.timezone, "timezone")
        now = self.engine.clock().astimezone(tz)
        when = as_utc(timestamp, "timestamp") or now
        msgs = parse_messages(messages, default_time=when, max_chars=self.config.max_message_chars)
        local = [
            m.model_copy(update={"timestamp": (m.timestamp or when).astimezone(tz)}) for m in msgs
        ]
        return now, local

    def _check_query(self, query: object) -> None:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query must be a non-empty string", field="query")
        if len(query) > self.config.max_message_chars:
            raise InvalidInputError("query is too long", field="query")

    def _find(self, memory_id: object) -> MemoryItem:
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        found = self.engine.get(self.config.tenant, mid)
        if found is None:
            raise NotFoundError(f"no memory with id {mid}", field="memory_id")
        return found


_ADD_ARGUMENTS = frozenset(
    "messages user_id agent_id session_id timestamp infer timezone metadata ttl".split()
)


def add_arguments(item: object) -> dict[str, Any]:
    """One item of :meth:`Memory.add_batch` as keyword arguments of :meth:`Memory.add`."""
    if not isinstance(item, Mapping):
        raise InvalidInputError("an item must be a mapping of add arguments")
    for name in ("messages", "user_id"):
        if name not in item:
            raise InvalidInputError(f"{name} is required", field=name)
    unknown = sorted(str(k) for k in item if k not in _ADD_ARGUMENTS)
    if unknown:
        raise InvalidInputError(f"unknown argument {unknown[0]!r}", field=unknown[0])
    return {str(k): v for k, v in item.items()}
