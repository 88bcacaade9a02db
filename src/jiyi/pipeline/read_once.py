"""One write reads the user's stored memories once.

The write path plans a batch without writing (the caller applies the one ChangeSet after),
yet a dozen of its steps look at "every active memory of the user": names of relatives,
the fact a clause changes, the value a message tells as over, drink families, doses. Each
asked the store again, and some asked once per message, so an ``add`` at 10k memories
decoded the same rows up to a dozen times (~30 µs a row).

:class:`ReadOnce` wraps the store for one plan: ``list`` answers each filter from one read
of the scope's active memories that are not episodes (kept in id order, so every answer is
what the store would have returned); any other ``list`` is read once too. Nothing
is written while a plan runs; ``apply`` would be a bug, so it is refused."""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, MemoryStore, SearchFilter

if TYPE_CHECKING:
    from jiyi.pipeline.write import Ports

_NOT_EPISODES = frozenset(k for k in MemoryKind if k != MemoryKind.EPISODE)
_EVERY_FACT = SearchFilter(kinds=tuple(k for k in MemoryKind if k != MemoryKind.EPISODE))


def _served(flt: SearchFilter, topic: str | None, limit: int | None) -> bool:
    """Whether the one read of active non-episodes holds every row ``flt`` admits."""
    return (
        topic is None
        and limit is None
        and flt.statuses == (Status.ACTIVE,)
        and flt.kinds is not None
        and set(flt.kinds) <= _NOT_EPISODES
        and flt == SearchFilter(statuses=flt.statuses, kinds=flt.kinds)
    )


class ReadOnce:
    """A :class:`MemoryStore` for one plan: each ``list`` reads the store once (active
    non-episode memories once for all their filters); every other call goes to the store."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._facts: dict[Scope, builtins.list[MemoryItem]] = {}
        self._other: dict[tuple[Any, ...], builtins.list[MemoryItem]] = {}

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        if not _served(flt, topic, limit):
            key = (scope, flt, topic, limit)
            if key not in self._other:
                self._other[key] = self._store.list(scope, flt, topic=topic, limit=limit)
            return list(self._other[key])
        if scope not in self._facts:
            self._facts[scope] = self._store.list(scope, _EVERY_FACT)
        kinds = set(flt.kinds or ())
        return [m for m in self._facts[scope] if m.kind in kinds]

    def apply(self, scope: Scope, changes: ChangeSet) -> None:
        raise RuntimeError("a write plan does not write; the caller applies its changes")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def read_once(ports: Ports) -> Ports:
    """``ports`` whose store reads the user's facts once (see the module doc)."""
    if isinstance(ports.store, ReadOnce):
        return ports
    store: Any = ReadOnce(ports.store)
    return replace(ports, store=store)
