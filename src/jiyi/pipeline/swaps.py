"""A routine whose slot names the thing swapped out.

A routine's slot is its activity with what it is done with or where ("I sketch in Procreate
on my iPad every evening" is ``habit.sketch_procreate_ipad``, "I volunteer at the public
library on Mondays" ``habit.volunteer_public_library``). A swap of that thing ("ditched
Procreate for Clip Studio", "…at the food bank rather than the library") names a new slot
of the same activity, so the slot alone never finds the old one. Both steps below find it by
the slot's words — the same activity (the slot's first word) and every word of the thing
named as replaced — never by similarity, and only when exactly one routine fits.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.topics import slug
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.reconcile import CHANGES
from jiyi.pipeline.pending import Pending

__all__ = ["routine_naming", "swap_in_routine", "swap_in_text"]

_ACTIVE = SearchFilter(kinds=tuple(k for k in MemoryKind if k != MemoryKind.EPISODE))


def _words(slot: str) -> list[str]:
    return slot.split(".", 1)[1].split("_") if slot.startswith("habit.") else []


def _named(thing: str) -> set[str]:
    """The slot words of a thing as said ("the library" → {"library"})."""
    return set(slug(thing).split("_")) - {"unknown"}


def _routines(
    thing: str, scope: Scope, store: MemoryStore, pending: Pending | None = None
) -> list[MemoryItem]:
    said = _named(thing)
    found = [pending.current(m) if pending else m for m in store.list(scope, _ACTIVE)]
    return [
        m
        for m in found
        if m.status == Status.ACTIVE and m.topic and said and said <= set(_words(m.topic))
    ]


def routine_naming(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """The one other routine of ``c``'s activity whose slot names what ``c`` replaces."""
    if not c.topic or not c.replaces or not c.is_correction or not _words(c.topic):
        return []
    head = _words(c.topic)[0]
    found = [
        m
        for m in _routines(c.replaces, scope, store, pending)
        if m.topic != c.topic and _words(m.topic or "")[0] == head
    ]
    return found if len({m.topic for m in found}) == 1 else []


def swap_in_routine(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """A slot-less swap ("ditched Procreate for Clip Studio") as the one routine that names
    the old thing in its slot and its text, told with the new one (its own slot, which
    :func:`routine_naming` then finds the old routine from); None when no single one does."""
    if not c.replaces or not c.value:
        return None
    old_said = c.replaces.lower()
    found = [m for m in _routines(c.replaces, scope, store) if old_said in m.content.lower()]
    if len({m.topic for m in found}) != 1:
        return None
    old = max(found, key=lambda m: (m.created_at, m.id))
    gone, new = _named(c.replaces), slug(c.value)
    words: list[str] = []
    for w in _words(old.topic or ""):
        said = new if w in gone else w
        if not words or words[-1] != said:  # one new word for the old phrase's words
            words.append(said)
    content = re.sub(
        re.escape(c.replaces), lambda _: c.value or "", old.content, count=1, flags=re.I
    )
    return c.model_copy(
        update={
            "topic": "habit." + "_".join(words),
            "kind": old.kind,
            "value": old.value,
            "content": content,
            "is_correction": True,
        }
    )


# Slots whose memory may name the wrong value in its words only ("I'm a bartender for Royal
# Caribbean" is the role; the cruise line is said with it).
_TOLD_WITH = ("work.", "location.", "education.", "possession.", "favorite.")


def swap_in_text(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """ "I told you I work for Royal Caribbean, I meant Celebrity": the one memory of a job,
    place, school, car or favourite whose words name the wrong value, said again with the new
    one, marked as the memory it changes (its slot's value stays)."""
    wrong = c.replaces or ""
    if len(wrong) < 3 or not c.value:
        return None
    said = re.compile(rf"(?<![\w]){re.escape(wrong)}(?![\w])", re.IGNORECASE)
    held = [
        m
        for m in store.list(scope, _ACTIVE)
        if (m.topic or "").startswith(_TOLD_WITH) and said.search(m.content)
    ]
    if len(held) != 1:
        return None
    old = held[0]
    meta = {**c.metadata, CHANGES: old.id}
    return c.model_copy(
        update={
            "kind": old.kind,
            "topic": old.topic,
            "value": old.value,
            "is_correction": True,
            "content": said.sub(lambda _: c.value or "", old.content, count=1),
            "metadata": meta,
        }
    )
