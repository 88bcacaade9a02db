"""The edits of :class:`jiyi.Memory` (update, delete, delete_user) and its audit log
(``audit``): who read or changed a user's data, when, how many items — never content.

Private: ``Memory`` inherits them (``from jiyi import Memory``).
"""

from __future__ import annotations

import builtins
import re
from datetime import datetime

from jiyi._memory_base import MemoryBase
from jiyi.core.audit import AuditEntry, AuditPage
from jiyi.core.inputs import as_utc
from jiyi.core.models import DeletionReceipt, MemoryItem
from jiyi.core.ports import AuditTier
from jiyi.errors import InvalidInputError

__all__ = ["MemoryEdits"]


class MemoryEdits(MemoryBase):
    """Update, delete and delete_user of a ``Memory``, and its audit log."""

    def update(self, memory_id: str, content: str) -> MemoryItem:
        """Replace a memory's content (redacted, re-embedded); the version goes up and the
        old content stays in history.

        Raises:
            NotFoundError: unknown id. InvalidInputError: empty or oversize content.
        """
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError("content must be a non-empty string", field="content")
        if len(content) > self.config.max_message_chars:
            raise InvalidInputError("content is too long", field="content")
        new = self.engine.update(self._find(memory_id), content)
        self._audited("update", new.user_id, 1, new.agent_id)
        return new

    def delete(self, memory_id: str) -> None:
        """Hard-delete one memory: row, keyword index, vector, cached embedding and the
        content in its history. An extracted memory also takes its older versions, the
        episodes they came from (the user's original words — leaving those would undo the
        deletion) and any derived reflection (kind summary) that cites them; episodes that
        carried a deleted turn as context are re-indexed without it.

        Raises:
            NotFoundError: unknown id.
        """
        found = self._find(memory_id)
        self.engine.delete(found)
        self._audited("delete", found.user_id, 1, found.agent_id)

    def delete_user(self, user_id: str) -> DeletionReceipt:
        """Hard-delete everything stored about a user (all agents, history, task state and
        audit rows included). One ``delete_user`` audit row is written afterwards: who
        erased the user and when, with how many memories — the proof of the erasure,
        holding nothing of what was erased."""
        receipt = self.engine.delete_user(self._scope(user_id))
        self._audited("delete_user", receipt.user_id, receipt.removed.get("memories", 0))
        return receipt

    def audit(
        self,
        user_id: str,
        *,
        since: datetime | str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> AuditPage:
        """The user's audit log, newest first: each search, context, profile, export, list,
        get, add, update, delete and import of the user's data — who (``key:<id>``,
        ``agent:<id>`` or ``library``), when, what and how many items, never the content.
        Rows older than ``config.lifecycle.audit_retention_days`` are purged by maintenance.

        Args:
            since: only rows at or after this time. limit: 1..1000.
            cursor: ``next_cursor`` of the previous page.

        Raises:
            InvalidInputError: naming the bad field.
        """
        uid = self._user(user_id)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        after = as_utc(since, "since")
        if cursor is not None and (
            not isinstance(cursor, str) or not re.fullmatch(r"[0-9]{1,18}", cursor)
        ):
            raise InvalidInputError("cursor must be a next_cursor of this log", field="cursor")
        store = self.engine.store
        if not isinstance(store, AuditTier):
            return AuditPage(entries=[])
        self.engine.reads.settle()  # the caller's own calls are in the log they read
        rows: builtins.list[AuditEntry] = store.audit.list(
            self.config.tenant,
            uid,
            since=after,
            limit=limit,
            cursor=int(cursor) if cursor is not None else None,
        )
        last = rows[-1].id if len(rows) == limit else None
        return AuditPage(entries=rows, next_cursor=str(last) if last is not None else None)
