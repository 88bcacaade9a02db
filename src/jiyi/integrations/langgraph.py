"""jiyi as a LangGraph store: :class:`JiyiStore` (``pip install 'jiyi[langgraph]'``).

A LangGraph ``BaseStore`` keeps JSON documents under a namespace and a key, and searches
them; :class:`JiyiStore` keeps them as jiyi memories, so a graph's long-term memory gets
jiyi's hybrid recall (keywords, meaning, identifiers, time words; Chinese and English),
tenant isolation and hard deletes, and what an agent stored this way is visible to every
other way of reading jiyi (REST, MCP, the CLI).

How a namespace maps onto jiyi: ``(*prefix, user_id)`` is a user's shared memory and
``(*prefix, user_id, agent_id)`` that agent's private memory; the tenant is the one of the
:class:`~jiyi.Memory` given (``Memory.on(engine, tenant)`` for another). With the default
prefix ``("memories",)``, ``("memories", "alice")`` is user ``alice``.

An item is one memory (an episode, stored as it is: no extraction): its text, what search
matches, is the value's ``content``/``text``/``data``/``memory`` field (or the fields the
``index`` argument names), else the whole value as JSON; the value itself, key and times
ride in the memory's metadata under ``langgraph``. Values are stored as given (the indexed
text is PII-redacted like every memory; the value returned by ``get`` is not).

Filters on values (``{"status": "active"}``, ``{"score": {"$gt": 4}}``) are applied to what
jiyi returns; searches with a query rank by jiyi's recall score (``SearchItem.score``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from jiyi.core.models import MemoryItem
from jiyi.errors import MissingDependencyError
from jiyi.memory import Memory

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingDependencyError(exc.name or "langgraph", "langgraph") from exc

__all__ = ["JiyiStore"]

TEXT_FIELDS = ("content", "text", "data", "memory")
MAX_SEARCH = 200  # jiyi's top_k ceiling: a filtered or offset search looks this far at most
_MARK = {"metadata.langgraph.key": {"gte": ""}}  # memories written through a JiyiStore


class JiyiStore(BaseStore):
    """A LangGraph ``BaseStore`` on a jiyi :class:`~jiyi.Memory`.

    Example:
        >>> store = JiyiStore(Memory())
        >>> store.put(("memories", "alice"), "diet", {"content": "Alice is vegetarian"})
        >>> store.search(("memories", "alice"), query="what does she eat?")[0].value

    Args:
        memory: the jiyi memory (one tenant) the items live in; closed by :meth:`close`
            only if ``owns_memory``.
        prefix: the namespace labels before the user id.
        owns_memory: close ``memory`` in :meth:`close`.
    """

    supports_ttl = False

    def __init__(
        self,
        memory: Memory,
        *,
        prefix: Sequence[str] = ("memories",),
        owns_memory: bool = False,
    ) -> None:
        self.memory = memory
        self.prefix = tuple(prefix)
        self._owns = owns_memory

    # -- the two methods LangGraph needs; the rest of BaseStore is built on them ----------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # jiyi is synchronous (SQLite, the embedder): the batch runs in a worker thread.
        return await asyncio.to_thread(self.batch, list(ops))

    def close(self) -> None:
        if self._owns:
            self.memory.close()

    def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    # -- namespaces ------------------------------------------------------------------------

    def _scope(self, namespace: tuple[str, ...]) -> tuple[str, str | None]:
        """(user_id, agent_id) of a full namespace."""
        n = len(self.prefix)
        if namespace[:n] != self.prefix or len(namespace) not in (n + 1, n + 2):
            raise InvalidNamespaceError(
                f"a jiyi namespace is {(*self.prefix, 'user_id')} or "
                f"{(*self.prefix, 'user_id', 'agent_id')}; got {namespace}"
            )
        return namespace[n], namespace[n + 1] if len(namespace) == n + 2 else None

    def _namespace(self, m: MemoryItem) -> tuple[str, ...]:
        tail = (m.user_id,) if m.agent_id is None else (m.user_id, m.agent_id)
        return (*self.prefix, *tail)

    # -- operations ------------------------------------------------------------------------

    def _find(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        user, agent = self._scope(namespace)
        found = self.memory.list(
            user_id=user,
            include_episodes=True,
            filters={"metadata.langgraph.key": key, "agent_id": agent},
        )
        return found[0] if found else None

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        found = self._find(namespace, key)
        return _item(found, self._namespace(found)) if found is not None else None

    def _put(self, op: PutOp) -> None:
        old = self._find(op.namespace, op.key)
        if op.value is None:
            if old is not None:
                self.memory.delete(old.id)
            return
        user, agent = self._scope(op.namespace)
        created = old.metadata["langgraph"]["created_at"] if old is not None else None
        value = dict(op.value)
        text = _text(value, op.index)[: self.memory.config.max_message_chars]
        now = self.memory.now().isoformat()
        meta = {
            "langgraph": {
                "key": op.key,
                "value": json.dumps(value, ensure_ascii=False, default=str),
                "created_at": created or now,
                "updated_at": now,
            }
        }
        # The new version first, then the old one goes: a failed write leaves the old.
        self.memory.add(
            [{"role": "user", "content": text}],
            user_id=user,
            agent_id=agent,
            infer=False,
            metadata=meta,
        )
        if old is not None:
            self.memory.delete(old.id)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        user, agent, exact = self._search_scope(op.namespace_prefix)
        wanted = op.offset + op.limit
        users = [user] if user is not None else self._users()
        hits: list[SearchItem] = []
        for u in users:
            flt = dict(_MARK) | ({"agent_id": agent} if exact else {})
            pairs: list[tuple[MemoryItem, float | None]]
            if op.query:
                look = MAX_SEARCH if op.filter else min(MAX_SEARCH, max(wanted, 1))
                found = self.memory.search(op.query, user_id=u, top_k=look, filters=flt)
                pairs = [(h.memory, h.score) for h in found]
            else:
                items = self.memory.list(user_id=u, include_episodes=True, filters=flt)
                pairs = [(m, None) for m in items]
            for m, score in pairs:
                item = _item(m, self._namespace(m), score)
                if _matches(item.value, op.filter):
                    hits.append(item)
        if op.query and len(users) > 1:
            hits.sort(key=lambda h: h.score or 0.0, reverse=True)
        return hits[op.offset : wanted]

    def _search_scope(self, prefix: tuple[str, ...]) -> tuple[str | None, str | None, bool]:
        """(user, agent, whether the agent is exact) of a namespace prefix."""
        n = len(self.prefix)
        common = min(len(prefix), n)
        if prefix[:common] != self.prefix[:common] or len(prefix) > n + 2:
            raise InvalidNamespaceError(f"no jiyi namespace starts with {prefix}")
        user = prefix[n] if len(prefix) > n else None
        agent = prefix[n + 1] if len(prefix) > n + 1 else None
        return user, agent, len(prefix) == n + 2

    def _users(self) -> list[str]:
        users: list[str] = []
        after: str | None = None
        while True:
            page = self.memory.users(after=after, limit=1000)
            users += [u.user_id for u in page]
            if len(page) < 1000:
                return users
            after = page[-1].user_id

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        for user in self._users():
            for m in self.memory.list(user_id=user, include_episodes=True, filters=_MARK):
                ns = self._namespace(m)
                if all(_holds(c, ns) for c in op.match_conditions or ()):
                    found.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        return sorted(found)[op.offset : op.offset + op.limit]


def _text(value: Mapping[str, Any], index: Any) -> str:
    """The text jiyi indexes for a value."""
    if isinstance(index, list) and index:
        from langgraph.store.base.embed import get_text_at_path

        parts = [t for path in index for t in get_text_at_path(value, path)]
        if parts:
            return "\n".join(parts)
    for name in TEXT_FIELDS:
        if isinstance(value.get(name), str) and value[name].strip():
            return str(value[name])
    return json.dumps(value, ensure_ascii=False, default=str)


def _item(m: MemoryItem, namespace: tuple[str, ...], score: float | None = None) -> SearchItem:
    lg = m.metadata["langgraph"]
    return SearchItem(
        namespace=namespace,
        key=lg["key"],
        value=json.loads(lg["value"]),
        created_at=datetime.fromisoformat(lg["created_at"]),
        updated_at=datetime.fromisoformat(lg["updated_at"]),
        score=score,
    )


def _matches(value: Mapping[str, Any], flt: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter rule: every key equals, or meets each ``$op`` of a mapping."""
    for key, want in (flt or {}).items():
        have = value.get(key)
        if isinstance(want, Mapping) and want and all(str(k).startswith("$") for k in want):
            if not all(_compare(have, op, arg) for op, arg in want.items()):
                return False
        elif have != want:
            return False
    return True


def _compare(have: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(have == arg)
    if op == "$ne":
        return bool(have != arg)
    try:
        if op == "$gt":
            return bool(have > arg)
        if op == "$gte":
            return bool(have >= arg)
        if op == "$lt":
            return bool(have < arg)
        if op == "$lte":
            return bool(have <= arg)
    except TypeError:  # None or mismatched types never compare
        return False
    raise ValueError(f"unsupported filter operator {op!r}")


def _holds(c: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(c.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if c.match_type == "prefix" else namespace[-len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
