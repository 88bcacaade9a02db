"""``jiyi.Client``: the blocking SDK. Requests are built in ``_ops`` and read and retried
per ``_call``; this file only sends them."""

from __future__ import annotations

import builtins
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

import httpx

from jiyi.client import _call, _identity, _ops
from jiyi.client.users import SwitchClient, TaskClient
from jiyi.core.audit import AuditPage
from jiyi.core.identity import Alias, IdentityEvent, SuspectSession
from jiyi.core.models import (
    AddResult,
    DeletionReceipt,
    HealthReport,
    HistoryEntry,
    MaintenanceReport,
    MemoryItem,
    SearchHit,
)
from jiyi.core.ports import UserSummary
from jiyi.core.profile import ProfileOverride, UserProfile
from jiyi.errors import JiyiError
from jiyi.sessions.base import SessionView
from jiyi.wire import ContextResponse, Health, MergeResult

T = TypeVar("T")


class Client:
    """A jiyi server, with the methods of :class:`jiyi.Memory`.

    Example:
        >>> with Client("http://127.0.0.1:8765", api_key="jy_…") as c:
        ...     c.add("我对花生过敏", user_id="u1")
        ...     print(c.context("推荐个菜", user_id="u1").text)

    Every method raises the :class:`jiyi.JiyiError` subclass matching the server's answer
    (NotFoundError for 404, InvalidInputError for 422, RateLimitedError for 429,
    OverloadedError for 503 at capacity …; ``.status`` holds the HTTP status and
    ``.retry_after`` the ``Retry-After``), and StorageUnavailableError when the server
    cannot be reached. A 429 or 503 with ``Retry-After`` is waited out and retried per
    ``retry`` for the calls that are safe to repeat: ``get``, ``list``, ``search``,
    ``context``, ``history``, ``get_session``, ``health``, ``delete``, ``delete_user`` and
    ``add`` / ``add_batch`` with an ``idempotency_key``. ``add`` without a key, ``update``,
    ``add_message`` and ``end_session`` raise at once.

    Args:
        base_url: e.g. ``http://127.0.0.1:8765``.
        api_key: a key from ``jiyi keys create``.
        timeout: seconds per request.
        transport: an httpx transport (tests, proxies).
        retry: how refusals are waited out; ``RetryPolicy(attempts=1)`` never retries.

    Attributes:
        tasks: keyed task state (:class:`~jiyi.client.users.TaskClient`), as ``Memory.tasks``.
        switch: the memory switches (:class:`~jiyi.client.users.SwitchClient`), as
            ``Memory.switch``.
    """

    tasks: TaskClient
    switch: SwitchClient

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        retry: _call.RetryPolicy | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.retry = retry or _call.RetryPolicy()
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=_call.headers(api_key),
            timeout=timeout,
            transport=transport,
        )
        self.tasks = TaskClient(self._do)
        self.switch = SwitchClient(self._do)

    def _do(self, call: _call.Call[T]) -> T:
        attempt = 1
        while True:
            try:
                resp = self._http.request(
                    call.method,
                    call.path,
                    json=call.json,
                    content=call.content,
                    params=call.params or None,
                    headers=call.headers or None,
                )
            except httpx.HTTPError as exc:
                raise _call.transport_error(exc, self.base_url) from exc
            delay = self.retry.delay(call, resp, attempt)
            if delay is None:
                return call.result(resp)
            time.sleep(delay)
            attempt += 1

    # -- Memory's methods --------------------------------------------------------------

    def add(
        self,
        messages: str | Sequence[dict[str, Any]],
        *,
        user_id: str,
        agent_id: str | None = None,
        session_id: str | None = None,
        timestamp: datetime | str | None = None,
        infer: bool = True,
        idempotency_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        ttl: float | None = None,
    ) -> AddResult:
        """Remember messages (see :meth:`jiyi.Memory.add`).

        ``idempotency_key`` (sent as the ``Idempotency-Key`` header) makes a retry safe:
        repeating the call with the same key and arguments stores nothing new; the same
        key with other arguments raises ConflictError. ``metadata`` is stored on every
        memory the call creates."""
        return self._do(
            _ops.add(
                messages,
                user_id=user_id,
                agent_id=agent_id,
                session_id=session_id,
                timestamp=timestamp,
                infer=infer,
                idempotency_key=idempotency_key,
                metadata=metadata,
                ttl=ttl,
            )
        )

    def add_batch(
        self, items: Sequence[Mapping[str, Any]], *, idempotency_key: str | None = None
    ) -> builtins.list[AddResult | JiyiError]:
        """Many adds in one request (see :meth:`jiyi.Memory.add_batch`): each item holds
        the arguments of :meth:`add`. Returns one entry per item, in order: its AddResult
        or the JiyiError it failed with (``field`` names the item: ``items[3].messages``);
        one bad item does not stop the others. ``idempotency_key`` as for :meth:`add`."""
        return self._do(_ops.add_batch(items, idempotency_key=idempotency_key))

    def search(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        top_k: int = 10,
        kinds: Sequence[str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        now: datetime | str | None = None,
        filters: Mapping[str, Any] | None = None,
    ) -> builtins.list[SearchHit]:
        """Hybrid search, best first (see :meth:`jiyi.Memory.search`; ``filters`` too)."""
        return self._do(
            _ops.search(
                query,
                user_id=user_id,
                agent_id=agent_id,
                top_k=top_k,
                kinds=kinds,
                since=since,
                until=until,
                now=now,
                filters=filters,
            )
        )

    def context(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        session_id: str | None = None,
        token_budget: int = 800,
        now: datetime | str | None = None,
    ) -> ContextResponse:
        """The system-prompt block: relevant memories plus the session window."""
        return self._do(
            _ops.context(
                query,
                user_id=user_id,
                agent_id=agent_id,
                session_id=session_id,
                token_budget=token_budget,
                now=now,
            )
        )

    def get(self, memory_id: str) -> MemoryItem | None:
        """The memory, or None if there is none the key may see."""
        return self._do(_ops.get(memory_id))

    def list(
        self,
        *,
        user_id: str,
        agent_id: str | None = None,
        include_superseded: bool = False,
        include_episodes: bool = False,
        filters: Mapping[str, Any] | None = None,
        limit: int | None = None,
        after: str | None = None,
        include_archived: bool = False,
    ) -> builtins.list[MemoryItem]:
        """The user's memories, oldest first (by id); ``filters``, ``limit`` and ``after``
        (the last id of the previous page) as for :meth:`jiyi.Memory.list`."""
        return self._do(
            _ops.list_(
                user_id=user_id,
                agent_id=agent_id,
                include_superseded=include_superseded,
                include_episodes=include_episodes,
                filters=filters,
                limit=limit,
                after=after,
                include_archived=include_archived,
            )
        )

    def users(self, *, after: str | None = None, limit: int = 100) -> builtins.list[UserSummary]:
        """The users of the key's tenant with stored memories, by user id; page with
        ``after`` (the last user id seen). Needs a tenant-wide key."""
        return self._do(_ops.users(after=after, limit=limit))

    def update(self, memory_id: str, content: str) -> MemoryItem:
        """Replace a memory's content; raises NotFoundError for an unknown id."""
        return self._do(_ops.update(memory_id, content))

    def delete(self, memory_id: str) -> None:
        """Hard-delete a memory; raises NotFoundError for an unknown id."""
        self._do(_ops.delete(memory_id))

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """A memory's audit trail, oldest first."""
        return self._do(_ops.history(memory_id))

    def restore(self, memory_id: str) -> MemoryItem:
        """Make an archived memory active again (see :meth:`jiyi.Memory.restore`)."""
        return self._do(_ops.restore(memory_id))

    def maintain(
        self, user_id: str, *, dry_run: bool = False, steps: Sequence[str] | None = None
    ) -> MaintenanceReport:
        """Run the lifecycle on one user now (see :meth:`jiyi.Memory.maintain`; ``steps``
        e.g. ``["rollup", "reflect"]``, default sweep, purge, merge); needs a tenant-wide
        key."""
        return self._do(_ops.maintain(user_id, dry_run=dry_run, steps=steps))

    def memory_health(self, user_id: str) -> HealthReport:
        """A user's memory health (see :meth:`jiyi.Memory.health`); tenant-wide key."""
        return self._do(_ops.user_health(user_id))

    def profile(self, user_id: str) -> UserProfile:
        """The user's profile derived from the memories (fields set through the API win)."""
        return self._do(_ops.profile(user_id))

    def set_profile(self, user_id: str, field: str, value: str | None) -> UserProfile:
        """Set a profile field (or clear it with None); returns the profile after it."""
        return self._do(_ops.update_profile(user_id, {field: value}))

    def update_profile(self, user_id: str, changes: Mapping[str, str | None]) -> UserProfile:
        """Set or clear several profile fields at once (``PATCH …/profile``)."""
        return self._do(_ops.update_profile(user_id, changes))

    def profile_history(self, user_id: str, *, limit: int = 100) -> builtins.list[ProfileOverride]:
        """The fields set or cleared through the API, newest first."""
        return self._do(_ops.profile_history(user_id, limit=limit))

    def delete_user(self, user_id: str) -> DeletionReceipt:
        """Hard-delete everything about a user; returns the deletion receipt."""
        return self._do(_ops.delete_user(user_id))

    # -- sessions --------------------------------------------------------------------------

    def add_message(
        self,
        session_id: str,
        content: str,
        *,
        user_id: str,
        role: str = "user",
        agent_id: str | None = None,
        name: str | None = None,
    ) -> SessionView:
        """Append to a session; returns the current window."""
        return self._do(
            _ops.add_message(
                session_id, content, user_id=user_id, role=role, agent_id=agent_id, name=name
            )
        )

    def get_session(self, session_id: str) -> SessionView | None:
        """The live session's window, or None."""
        return self._do(_ops.get_session(session_id))

    def end_session(self, session_id: str) -> SessionView | None:
        """End a session (extraction runs in the background); None if none was live."""
        return self._do(_ops.end_session(session_id))

    def health(self) -> Health:
        return self._do(_ops.health())

    # -- identity (aliases, merge, drift confirmation, export / import) -------------------

    def link(self, user_id: str, alias: str, *, kind: str) -> Alias:
        """Link a login alias to the user (see :meth:`jiyi.Memory.link`); the alias goes in
        the body, never in a URL."""
        return self._do(_identity.link(user_id, alias, kind))

    def unlink(self, user_id: str, alias: str, *, kind: str) -> bool:
        """Remove an alias from the user; False when the user had no such alias."""
        found = self._do(_identity.unlink(user_id, alias, kind))
        return found is True

    def aliases(self, user_id: str) -> builtins.list[Alias]:
        """The user's aliases (kind, masked hint, digest, when linked)."""
        return self._do(_identity.aliases(user_id))

    def merge_users(self, source: str, target: str) -> MergeResult:
        """Merge ``source`` into ``target`` (audited; see :meth:`jiyi.Memory.merge_users`)."""
        return self._do(_identity.merge(source, target))

    def confirm_identity(self, user_id: str, session_id: str) -> SuspectSession:
        """Confirm a session the drift guard flagged: its context gets memories again."""
        return self._do(_identity.confirm_identity(user_id, session_id))

    def identity_events(self, user_id: str, *, limit: int = 100) -> builtins.list[IdentityEvent]:
        """The user's identity audit log, newest first."""
        return self._do(_identity.identity_events(user_id, limit)).events

    def audit(
        self,
        user_id: str,
        *,
        since: datetime | str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> AuditPage:
        """The user's audit log, newest first (who, what, when, how many; no content);
        pass ``next_cursor`` as ``cursor`` for older rows. Needs a tenant-wide key."""
        return self._do(_identity.audit(user_id, since, limit, cursor))

    def export(self, user_id: str) -> dict[str, Any]:
        """The user's export document (JSON-ready; ``json.dump`` it to a file)."""
        return self._do(_identity.export(user_id))

    def export_lines(self, user_id: str) -> str:
        """The user's export in JSON Lines (``GET …/export?format=jsonl``): a header line,
        then one record a line; write the text to a ``.jsonl`` file."""
        return self._do(_identity.export_lines(user_id))

    def import_(
        self,
        document: dict[str, Any] | str | bytes,
        user_id: str | None = None,
        *,
        remap: bool = False,
    ) -> dict[str, int]:
        """Import an export as ``user_id`` (default: the one it names) in one transaction;
        counts per section. ``document`` is the dict of :meth:`export`, or export text as
        it is — JSON or JSON Lines (a bad line: InvalidInputError naming ``lines.<n>``)."""
        uid = user_id if user_id is not None else _identity.document_user(document)
        return self._do(_identity.import_(document, uid, remap))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
