"""``Memory``'s identity operations (issue 13, item 3): login aliases of a user, merging two
users, confirming a session the drift guard flagged, and export / import of one user.

Private: a base of :class:`jiyi.Memory`, like :mod:`jiyi._memory_reads`. Every user id here
may also be an alias reference ``alias:<kind>:<value>`` (``jiyi.core.identity``).
"""

from __future__ import annotations

import builtins
from typing import Any

from jiyi._memory_base import MemoryBase
from jiyi.core.identity import Alias, IdentityEvent, SuspectSession, check_kind
from jiyi.core.inputs import check_id
from jiyi.errors import InvalidInputError
from jiyi.transfer import ExportDocument, export_user, import_user
from jiyi.transfer_lines import is_lines, read_lines

__all__ = ["MemoryIdentity"]


def _actor(actor: object) -> str:
    who = check_id(actor, "actor")
    assert who is not None
    return who


class MemoryIdentity(MemoryBase):
    """Aliases, merge, identity confirmation, export and import."""

    def resolve_user(self, user_id: str) -> str:
        """The user id ``user_id`` names: itself, or for ``alias:<kind>:<value>`` the user
        that alias is linked to.

        Raises:
            NotFoundError: no user of this tenant has the alias (``field`` "user_id").
        """
        return self._user(user_id)

    def link(self, user_id: str, alias: str, *, kind: str, actor: str = "library") -> Alias:
        """Link a login alias (phone, wechat_openid, email, device, login) to the user; from
        then on ``alias:<kind>:<alias>`` names the user wherever a user id is accepted.
        Only a keyed digest and a masked hint are stored, never the alias. Linking it again
        changes nothing.

        Raises:
            InvalidInputError: a bad kind or alias (``field`` "kind" / "alias"), or no
                ``alias_secret`` configured.
            AliasTakenError: the alias is another user's (409, code ``alias_taken``).
        """
        uid = self._user(user_id)
        return self.engine.link(
            self.config.tenant, uid, check_kind(kind), alias, actor=_actor(actor)
        )

    def unlink(self, user_id: str, alias: str, *, kind: str, actor: str = "library") -> bool:
        """Remove an alias from the user; True if the user had it."""
        uid = self._user(user_id)
        return self.engine.unlink(
            self.config.tenant, uid, check_kind(kind), alias, actor=_actor(actor)
        )

    def aliases(self, user_id: str) -> builtins.list[Alias]:
        """The user's aliases: kind, masked hint, digest and when linked."""
        return self.engine.identity.aliases(self.config.tenant, self._user(user_id))

    def merge_users(self, source: str, target: str, *, actor: str = "library") -> dict[str, int]:
        """Move every memory, history line, task and alias of ``source`` to ``target`` in
        one transaction and audit it on both users; returns counts per table. Same-slot facts
        of the two are reconciled by the next ``maintain``.

        Raises:
            ConflictError: both users hold a task with the same key (``field`` "tasks").
            InvalidInputError: ``source`` and ``target`` are one user.
        """
        src = self._user(source, "source")
        dst = self._user(target, "target")
        return self.engine.merge(self.config.tenant, src, dst, actor=_actor(actor))

    def confirm_identity(
        self, user_id: str, session_id: str, *, actor: str = "library"
    ) -> SuspectSession:
        """Confirm that a session the drift guard flagged is the user: its context gets the
        user's memories again. Audited; confirming twice keeps the first confirmation.

        Raises:
            NotFoundError: the session was never flagged for this user.
        """
        sid = check_id(session_id, "session_id")
        assert sid is not None
        return self.engine.confirm(
            self.config.tenant, self._user(user_id), sid, actor=_actor(actor)
        )

    def identity_suspect(self, user_id: str, session_id: str) -> SuspectSession | None:
        """The session's drift flag (confirmed or not), or None if it was never flagged."""
        sid = check_id(session_id, "session_id")
        assert sid is not None
        return self.engine.identity.suspect(self.config.tenant, self._user(user_id), sid)

    def identity_events(self, user_id: str, *, limit: int = 100) -> builtins.list[IdentityEvent]:
        """The user's identity audit log, newest first: aliases linked and unlinked, merges,
        drifts and confirmations (never an alias or any content)."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        return self.engine.identity.events(self.config.tenant, self._user(user_id), limit=limit)

    def export(self, user_id: str) -> ExportDocument:
        """Everything stored about the user as one versioned document (``jiyi.transfer``);
        ``.model_dump_json()`` writes it."""
        scope = self._scope(user_id)
        doc = export_user(self.engine, scope)
        rows = sum(len(v) for v in doc.sections.values() if isinstance(v, list | dict))
        self._audited("export", scope.user_id, rows)
        return doc

    def import_(
        self,
        document: ExportDocument | dict[str, Any] | str | bytes,
        user_id: str | None = None,
        *,
        remap: bool = False,
    ) -> dict[str, int]:
        """Import an export in one transaction (all or nothing): a document (object, JSON
        text) or the JSON Lines layout (``jiyi.transfer_lines``, told by its header line);
        ``user_id`` defaults to the document's. Returns counts per section.

        Raises:
            InvalidInputError: the document is malformed (``field`` names the place; in
                JSON Lines ``lines.<n>…``, the line), or is another tenant's or user's and
                ``remap`` is not set.
            AliasTakenError: one of its aliases is another user's here.
        """
        if not isinstance(remap, bool):
            raise InvalidInputError("remap must be true or false", field="remap")
        doc: ExportDocument | dict[str, Any] | str | bytes = document
        if isinstance(document, str | bytes) and is_lines(document):
            doc = read_lines(document)  # every line checked; its records already validated
        elif isinstance(document, ExportDocument):
            doc = document.model_dump(mode="json")
        if user_id is None:
            from jiyi.transfer import parse_document

            user_id = parse_document(doc).user_id
        scope = self._scope(user_id)
        counts = import_user(self.engine, doc, scope, remap=remap)
        self._audited("import", scope.user_id, sum(counts.values()))
        return counts
