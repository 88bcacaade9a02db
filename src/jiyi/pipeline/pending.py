"""One batch's write as it is being built, keyed by memory id.

Later steps (a supersede, a forget) revise rows of the same batch that are not stored yet;
the finished :class:`Pending` becomes ONE :class:`~jiyi.core.ports.ChangeSet`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from jiyi.core.models import Action, HistoryEntry, MemoryItem
from jiyi.core.ports import ChangeSet, Indexed, Vector
from jiyi.core.text import keyword_text

__all__ = ["Pending"]


@dataclass
class Pending:
    """The rows, marks, deletes and history lines of one write."""

    now: datetime
    rows: dict[str, Indexed] = field(default_factory=dict)
    updates: dict[str, MemoryItem] = field(default_factory=dict)
    deletes: list[str] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    evict: list[str] = field(default_factory=list)  # exact texts whose cached vectors must go
    embedded: dict[str, str] = field(default_factory=dict)  # memory id → the text embedded
    messages: list[str] = field(default_factory=list)  # caller message ids consumed
    removed: list[MemoryItem] = field(default_factory=list)  # what remove() took, as it was
    # slots a superseded memory held that still hold: (new memory, the superseded one's id),
    # embedded and added once the batch's decisions are made (see pipeline/decide._split_off)
    splits: list[tuple[MemoryItem, str]] = field(default_factory=list)

    def add(self, m: MemoryItem, text: str, vec: Vector, entry: HistoryEntry) -> None:
        """A new row; ``text`` is what was embedded and indexed for it."""
        self.rows[m.id] = Indexed(m, keyword_text(text), vec)
        self.embedded[m.id] = text
        self.history.append(entry)

    def add_episode(self, ep: MemoryItem, text: str, vec: Vector) -> None:
        self.add(ep, text, vec, HistoryEntry.of(ep, Action.ADD, self.now, reason="episode"))

    def reindex(self, m: MemoryItem, text: str, vec: Vector) -> None:
        """Replace a row's index entry (its text for keywords and its vector)."""
        old = self.embedded.get(m.id)
        if old is not None and old != text:
            self.evict.append(old)
        self.updates.pop(m.id, None)
        self.rows[m.id] = Indexed(self.current(m), keyword_text(text), vec)
        self.embedded[m.id] = text

    def replace_index(self, indexed: Indexed) -> None:
        """A stored row re-indexed elsewhere (its neighbour was deleted): keep this batch's
        changes to the row and take the new keywords and vector."""
        m = self.updates.pop(indexed.memory.id, indexed.memory)
        self.rows[m.id] = Indexed(m, indexed.keywords, indexed.vector)

    def change(self, m: MemoryItem, entry: HistoryEntry | None) -> None:
        """A changed row whose text is unchanged; ``entry`` None: no history line (a mark)."""
        if m.id in self.rows:  # not stored yet: revise the pending row in place
            old = self.rows[m.id]
            self.rows[m.id] = Indexed(m, old.keywords, old.vector)
        else:
            self.updates[m.id] = m
        if entry is not None:
            self.history.append(entry)

    def current(self, m: MemoryItem) -> MemoryItem:
        """``m`` as this batch has left it so far."""
        if m.id in self.rows:
            return self.rows[m.id].memory
        return self.updates.get(m.id, m)

    def remove(self, m: MemoryItem, reason: str, embedded: str | None = None) -> None:
        """Hard-delete ``m``; ``embedded`` is the text its vector was made from, if known."""
        if m.id in self.deletes or any(r.id == m.id for r in self.removed):
            return  # named twice (a forget target and a source episode)
        self.evict.append(self.embedded.get(m.id) or embedded or m.content)
        self.removed.append(m)
        if self.rows.pop(m.id, None) is not None:  # said and retracted in one batch
            self.history = [h for h in self.history if h.memory_id != m.id]
            return
        self.updates.pop(m.id, None)
        self.deletes.append(m.id)
        self.history.append(HistoryEntry.of(m, Action.DELETE, self.now, reason=reason))

    def changeset(self) -> ChangeSet:
        return ChangeSet(
            upserts=list(self.rows.values()),
            updates=list(self.updates.values()),
            deletes=self.deletes,
            history=self.history,
            messages=self.messages,
        )
