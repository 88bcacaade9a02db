"""The read methods of :class:`jiyi.Memory`: search, context, get, list and users — each
validates what the caller passes, binds the tenant and calls the engine.

Private: ``Memory`` inherits them (``from jiyi import Memory``).
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from jiyi._memory_base import MemoryBase
from jiyi.core.filters import parse_filters
from jiyi.core.inputs import as_utc, check_id, zone
from jiyi.core.models import ContextBlock, MemoryItem, MemoryKind, SearchHit, Status
from jiyi.core.ports import SearchFilter, UserSummary
from jiyi.errors import InvalidInputError
from jiyi.pipeline.recall import Recalled

__all__ = ["MemoryReads"]


class MemoryReads(MemoryBase):
    """Search, context, get, list and users of a ``Memory``."""

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
    ) -> list[SearchHit]:
        """Hybrid search (BM25 + dense + exact identifiers + time words), best first.

        (:meth:`search_result` also says whether the results are degraded.)

        Args:
            query: what to look for, in any language.
            top_k: 1..200. kinds: restrict to these kinds. since/until: observed_at window.
            now: reference time for words like 昨天 / last week (default: now).
            filters: conditions on columns and metadata (``jiyi.core.filters``), e.g.
                ``{"metadata.project": "alpha", "importance": {"gte": 0.6}}``.

        Returns:
            Hits with ``memory``, ``score`` and ``scores`` (the components). Superseded
            memories are left out; reading updates last_accessed_at and access_count.
        """
        return self.search_result(
            query,
            user_id=user_id,
            agent_id=agent_id,
            top_k=top_k,
            kinds=kinds,
            since=since,
            until=until,
            now=now,
            filters=filters,
        ).hits

    def search_result(
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
    ) -> Recalled:
        """:meth:`search` plus ``degraded``: True when semantic search missed
        ``config.vector_budget_ms`` and the hits come from keywords alone."""
        scope = self._scope(user_id, agent_id)
        self._check_query(query)
        if not isinstance(top_k, int) or isinstance(top_k, bool) or not 1 <= top_k <= 200:
            raise InvalidInputError("top_k must be an integer from 1 to 200", field="top_k")
        kind_t: tuple[MemoryKind, ...] | None = None
        if kinds is not None:
            try:
                kind_t = tuple(MemoryKind(k) for k in kinds)
            except ValueError as exc:
                raise InvalidInputError(
                    f"kinds must be drawn from {[k.value for k in MemoryKind]}", field="kinds"
                ) from exc
        flt = SearchFilter(
            kinds=kind_t,
            since=as_utc(since, "since"),
            until=as_utc(until, "until"),
            where=parse_filters(filters),
        )
        found = self.engine.search(scope, query, flt=flt, now=self._now(now), top_k=top_k)
        self._audited("search", scope.user_id, len(found.hits), scope.agent_id)
        return found

    def context(
        self,
        query: str,
        *,
        user_id: str,
        agent_id: str | None = None,
        token_budget: int = 800,
        now: datetime | str | None = None,
        timezone: str | None = None,
        session_id: str | None = None,
    ) -> ContextBlock:
        """A system-prompt block of the memories relevant to ``query``, within
        ``token_budget`` tokens; says so when nothing relevant is known.

        Only relevant hits are shown (a keyword, identifier or slot match, or semantic
        relevance of at least ``config.context_min_semantic``); safety-critical facts are
        always included; corrected facts carry their history as a label; dates are shown in
        ``timezone`` (IANA name, default ``config.timezone``). The user's active tasks that
        the query is about come first (``ContextBlock.tasks``): "继续上次的报销单" brings the
        reimbursement task's state (``jiyi.core.tasks`` says which tasks match).

        With ``session_id``, a session the identity guard flagged (another name, age,
        language and city said at once) gets no memories until :meth:`confirm_identity`.
        """
        if not isinstance(token_budget, int) or token_budget < 50:
            raise InvalidInputError("token_budget must be an integer ≥ 50", field="token_budget")
        tz = zone(timezone if timezone is not None else self.config.timezone, "timezone")
        scope = self._scope(user_id, agent_id)
        self._check_query(query)
        sid = check_id(session_id, "session_id", required=False)
        block = self.engine.context(
            scope, query, now=self._now(now), tz=tz, token_budget=token_budget, session_id=sid
        )
        self._audited("context", scope.user_id, len(block.memories), scope.agent_id)
        return block

    def get(self, memory_id: str) -> MemoryItem | None:
        """The memory with this id (any status), or None if there is none."""
        mid = check_id(memory_id, "memory_id")
        assert mid is not None
        found = self.engine.get(self.config.tenant, mid)
        if found is not None:
            self._audited("get", found.user_id, 1, found.agent_id)
        return found

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
        """The user's memories, oldest first (by id); episodes, superseded and archived
        ones (forgotten by the lifecycle, restorable) only on request. ``filters`` as for
        :meth:`search`; ``limit`` (1-1000) and ``after`` (the last id of the previous page)
        page through them."""
        scope = self._scope(user_id, agent_id)
        for name, flag in (
            ("include_superseded", include_superseded),
            ("include_episodes", include_episodes),
            ("include_archived", include_archived),
        ):
            if not isinstance(flag, bool):
                raise InvalidInputError(f"{name} must be true or false", field=name)
        statuses: tuple[Status, ...] = (Status.ACTIVE,)
        statuses += (Status.SUPERSEDED,) if include_superseded else ()
        statuses += (Status.ARCHIVED,) if include_archived else ()
        kinds = (
            None if include_episodes else tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
        )
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000
        ):
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        flt = SearchFilter(
            statuses=statuses,
            kinds=kinds,
            where=parse_filters(filters),
            after_id=check_id(after, "cursor", required=False),
        )
        items = self.engine.list(scope, flt, limit)
        self._audited("list", scope.user_id, len(items), scope.agent_id)
        return items

    def users(self, *, after: str | None = None, limit: int = 100) -> builtins.list[UserSummary]:
        """The users of this tenant with stored memories, by user id; page with ``after``
        (the last user id seen). Empty for a store that cannot list users."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be an integer from 1 to 1000", field="limit")
        return self.engine.users(
            self.config.tenant, after=check_id(after, "cursor", required=False), limit=limit
        )
