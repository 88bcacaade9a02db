"""``jiyi.AsyncClient``: the asyncio SDK; same methods as :class:`jiyi.Client`, awaited."""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

import httpx

from jiyi.client import _call, _identity, _ops
from jiyi.client.users import AsyncSwitchClient, AsyncTaskClient
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


class AsyncClient:
    """A jiyi server, awaited. See :class:`jiyi.Client` for the methods, the errors and
    which calls are retried after a 429 or 503; ``tasks`` and ``switch`` are
    :class:`~jiyi.client.users.AsyncTaskClient` and
    :class:`~jiyi.client.users.AsyncSwitchClient`."""

    tasks: AsyncTaskClient
    switch: AsyncSwitchClient

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: _call.RetryPolicy | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.retry = retry or _call.RetryPolicy()
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=_call.headers(api_key),
            timeout=timeout,
            transport=transport,
        )
        self.tasks = AsyncTaskClient(self._do)
        self.switch = AsyncSwitchClient(self._do)

    async def _do(self, call: _call.Call[T]) -> T:
        attempt = 1
        while True:
            try:
                resp = await self._http.request(
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
            await asyncio.sleep(delay)
            attempt += 1

    async def add(
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
        """As :meth:`jiyi.client.Client.add` (``idempotency_key`` makes a retry safe)."""
        return await self._do(
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

    async def add_batch(
        self, items: Sequence[Mapping[str, Any]], *, idempotency_key: str | None = None
    ) -> builtins.list[AddResult | JiyiError]:
        """Many adds in one request (see :meth:`jiyi.Memory.add_batch`): each item holds
        the arguments of :meth:`add`. Returns one entry per item, in order: its AddResult
        or the JiyiError it failed with (``field`` names the item: ``items[3].messages``);
        one bad item does not stop the others. ``idempotency_key`` as for :meth:`add`."""
        return await self._do(_ops.add_batch(items, idempotency_key=idempotency_key))

    async def search(
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
        return await self._do(
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

    async def context(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        session_id: str | None = None,
        token_budget: int = 800,
        now: datetime | str | None = None,
    ) -> ContextResponse:
        return await self._do(
            _ops.context(
                query,
                user_id=user_id,
                agent_id=agent_id,
                session_id=session_id,
                token_budget=token_budget,
                now=now,
            )
        )

    async def get(self, memory_id: str) -> MemoryItem | None:
        return await self._do(_ops.get(memory_id))

    async def list(
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
        return await self._do(
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

    async def users(
        self, *, after: str | None = None, limit: int = 100
    ) -> builtins.list[UserSummary]:
        return await self._do(_ops.users(after=after, limit=limit))

    async def update(self, memory_id: str, content: str) -> MemoryItem:
        return await self._do(_ops.update(memory_id, content))

    async def delete(self, memory_id: str) -> None:
        await self._do(_ops.delete(memory_id))

    async def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        return await self._do(_ops.history(memory_id))

    async def restore(self, memory_id: str) -> MemoryItem:
        """Make an archived memory active again (see :meth:`jiyi.Memory.restore`)."""
        return await self._do(_ops.restore(memory_id))

    async def maintain(
        self, user_id: str, *, dry_run: bool = False, steps: Sequence[str] | None = None
    ) -> MaintenanceReport:
        """Run the lifecycle on one user now (see :meth:`jiyi.Memory.maintain`; ``steps``
        e.g. ``["rollup", "reflect"]``, default sweep, purge, merge); needs a tenant-wide
        key."""
        return await self._do(_ops.maintain(user_id, dry_run=dry_run, steps=steps))

    async def memory_health(self, user_id: str) -> HealthReport:
        """A user's memory health (see :meth:`jiyi.Memory.health`); tenant-wide key."""
        return await self._do(_ops.user_health(user_id))

    async def profile(self, user_id: str) -> UserProfile:
        """The user's profile derived from the memories (fields set through the API win)."""
        return await self._do(_ops.profile(user_id))

    async def set_profile(self, user_id: str, field: str, value: str | None) -> UserProfile:
        """Set a profile field (or clear it with None); returns the profile after it."""
        return await self._do(_ops.update_profile(user_id, {field: value}))

    async def update_profile(self, user_id: str, changes: Mapping[str, str | None]) -> UserProfile:
        """Set or clear several profile fields at once (``PATCH …/profile``)."""
        return await self._do(_ops.update_profile(user_id, changes))

    async def profile_history(
        self, user_id: str, *, limit: int = 100
    ) -> builtins.list[ProfileOverride]:
        """The fields set or cleared through the API, newest first."""
        return await self._do(_ops.profile_history(user_id, limit=limit))

    async def delete_user(self, user_id: str) -> DeletionReceipt:
        return await self._do(_ops.delete_user(user_id))

    async def add_message(
        self,
        session_id: str,
        content: str,
        *,
        user_id: str,
        role: str = "user",
        agent_id: str | None = None,
        name: str | None = None,
    ) -> SessionView:
        return await self._do(
            _ops.add_message(
                session_id, content, user_id=user_id, role=role, agent_id=agent_id, name=name
            )
        )

    async def get_session(self, session_id: str) -> SessionView | None:
        return await self._do(_ops.get_session(session_id))

    async def end_session(self, session_id: str) -> SessionView | None:
        return await self._do(_ops.end_session(session_id))

    async def health(self) -> Health:
        return await self._do(_ops.health())

    # -- identity (aliases, merge, drift confirmation, export / import) -------------------

    async def link(self, user_id: str, alias: str, *, kind: str) -> Alias:
        """Link a login alias to the user (see :meth:`jiyi.Memory.link`); the alias goes in
        the body, never in a URL."""
        return await self._do(_identity.link(user_id, alias, kind))

    async def unlink(self, user_id: str, alias: str, *, kind: str) -> bool:
        """Remove an alias from the user; False when the user had no such alias."""
        found = await self._do(_identity.unlink(user_id, alias, kind))
        return found is True

    async def aliases(self, user_id: str) -> builtins.list[Alias]:
        """The user's aliases (kind, masked hint, digest, when linked)."""
        return await self._do(_identity.aliases(user_id))

    async def merge_users(self, source: str, target: str) -> MergeResult:
        """Merge ``source`` into ``target`` (audited; see :meth:`jiyi.Memory.merge_users`)."""
        return await self._do(_identity.merge(source, target))

    async def confirm_identity(self, user_id: str, session_id: str) -> SuspectSession:
        """Confirm a session the drift guard flagged: its context gets memories again."""
        return await self._do(_identity.confirm_identity(user_id, session_id))

    async def identity_events(
        self, user_id: str, *, limit: int = 100
    ) -> builtins.list[IdentityEvent]:
        """The user's identity audit log, newest first."""
        return (await self._do(_identity.identity_events(user_id, limit))).events

    async def audit(
        self,
        user_id: str,
        *,
        since: datetime | str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> AuditPage:
        """The user's audit log, newest first (who, what, when, how many; no content);
        pass ``next_cursor`` as ``cursor`` for older rows. Needs a tenant-wide key."""
        return await self._do(_identity.audit(user_id, since, limit, cursor))

    async def export(self, user_id: str) -> dict[str, Any]:
        """The user's export document (JSON-ready; ``json.dump`` it to a file)."""
        return await self._do(_identity.export(user_id))

    async def export_lines(self, user_id: str) -> str:
        """The user's export in JSON Lines (``GET …/export?format=jsonl``): a header line,
        then one record a line; write the text to a ``.jsonl`` file."""
        return await self._do(_identity.export_lines(user_id))

    async def import_(
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
        return await self._do(_identity.import_(document, uid, remap))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
