"""The audit log of a user's data: who read or changed it, how, when and how many items —
never what (no memory text, no query, no profile value).

Pure value objects, no I/O. One :class:`AuditEntry` per call of the library (a search that
returned 5 memories is one row with ``count`` 5). The actor is the API key id over REST
(``key:<id>``), the agent id when the call named one, else ``"library"``.

**Retention.** Rows older than ``LifecycleConfig.audit_retention_days`` (180 by default)
are purged by the maintenance sweep.

**Erasure.** ``delete_user`` removes every audit row of the user with the rest of their data,
then one ``delete_user`` row is appended (actor, time, how many memories went): the proof
that the erasure happened, holding nothing about what was erased.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AUDIT_ACTIONS", "AuditAction", "AuditEntry", "AuditPage"]

AuditAction = Literal[
    "search",
    "context",
    "export",
    "profile",
    "list",
    "get",
    "add",
    "update",
    "delete",
    "delete_user",
    "import",
]
AUDIT_ACTIONS: tuple[str, ...] = AuditAction.__args__  # type: ignore[attr-defined]


class AuditEntry(BaseModel):
    """One audited call on one user's data."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    at: datetime
    actor: str = Field(description="`key:<id>`, the agent id, or `library`")
    action: AuditAction
    count: int = Field(ge=0, description="how many items the call returned or changed")
    id: int | None = Field(default=None, description="set once stored; the order of the log")


class AuditPage(BaseModel):
    """A page of the log, newest first; ``next_cursor`` fetches the older rows."""

    entries: list[AuditEntry]
    next_cursor: str | None = None
