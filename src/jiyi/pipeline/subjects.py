"""Who a clause means when it calls its subject by a name alone.

"Luna turned four last week", "Bear is actually a golden retriever": extraction is pure and
does not know whose Luna is, so such a candidate carries the name (``metadata["subject"]``)
and a generic slot (``family.unknown.age``, ``pet.pet.breed``). Before reconciliation the
write path gives it the slot of the one pet or relative of the user stored under that name
(``pet.cat.name`` = Luna → ``pet.cat.age``): found by the stored name, never by similarity.
"""

from __future__ import annotations

import re

from jiyi.core.models import Candidate, MemoryKind, Scope
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.slots import PARTS

__all__ = ["SUBJECT", "resolve_subject"]

SUBJECT = "subject"
_ACTIVE = SearchFilter(kinds=tuple(k for k in MemoryKind if k != MemoryKind.EPISODE))


def _named(name: str, scope: Scope, store: MemoryStore) -> set[str]:
    """Subjects (``pet.cat``, ``family.son``) whose stored name slot holds ``name``."""
    found: set[str] = set()
    for m in store.list(scope, _ACTIVE):
        if not m.topic:
            continue
        slots = {m.topic: m.value, **(m.metadata.get(PARTS) or {})}
        for slot, value in slots.items():
            area, _, attr = slot.partition(".")
            if (
                area in ("pet", "family")
                and attr.endswith(".name")
                and attr.count(".") == 1
                and isinstance(value, str)
                and value.casefold() == name.casefold()
            ):
                found.add(slot.rsplit(".", 1)[0])
    return found


def resolve_subject(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """``c`` in the slot of the user's pet or relative it names, or as it was.

    Returns ``c`` unchanged when it names no subject; with that subject's slot and content
    ("User's cat Luna turned four last week") when exactly one stored pet or relative has
    that name; otherwise ``c`` itself for a relative's generic slot (reconciliation may still
    match it to the one compatible slot) and None for a pet's: a breed or age of an animal the
    user never named is not stored as a fact about their pet.
    """
    name = c.metadata.get(SUBJECT)
    if not name or not c.topic:
        return c
    holders = _named(name, scope, store)
    if len(holders) != 1:
        return None if c.topic.startswith("pet.") else c
    who = holders.pop()
    topic = f"{who}.{c.topic.rsplit('.', 1)[1]}"
    noun = who.split(".")[1].replace("_", " ")
    zh = c.metadata.get("lang") == "zh"
    said = f"用户的{name}" if zh else f"User's {noun} {name}"
    content = re.sub(
        rf"^{re.escape(name)}(?: \(user's family\))?", lambda _: said, c.content, count=1
    )
    return c.model_copy(update={"topic": topic, "content": content})
