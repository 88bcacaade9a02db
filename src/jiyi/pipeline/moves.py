"""A move to a new city takes the place of the city in the one fact of that person holding one.

公司把我调去苏州了 / 我姐嫁到深圳去了 / 女儿研究生考到了北京 name the new city and leave
the slot to the listener; the rules store such a clause as a free description of the
relative, or nothing, and the old city stayed active and first. For each move
(:func:`jiyi.core.moves.moves`: a person, a verb that takes them somewhere to stay, a known
city), the stored, active facts *of that person* that state a city are looked up: the
user's home (``location.home``), or the relative's slots (``family.<key>.*``). Exactly one
such slot, stating another city: a candidate of that slot, the old sentence with the city
swapped, decided like any other (same slot, new value: SUPERSEDE, history kept). Never by
similarity; a message whose own candidates already fill that slot or say the new city in
that person's slots, someone else's move, a trip or a plan changes nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.extraction.lexicon_places import CITIES_ZH
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.moves import Move, moves
from jiyi.core.ports import MemoryStore
from jiyi.core.text import has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES

__all__ = ["moved_cities"]


def _slots(who: str | None) -> tuple[str, ...]:
    return ("location.home",) if who is None else (f"family.{who}.",)


def _held_city(m: MemoryItem) -> str | None:
    """The one city ``m`` states (its value when that is the place), else None."""
    content = to_simplified(m.content)
    value = to_simplified(m.value or "")
    if value and value in content and any(value.startswith(c) for c in CITIES_ZH):
        return value
    found = {c for c in CITIES_ZH if len(c) > 1 and c in content}
    found = {c for c in found if not any(c != o and c in o for o in found)}  # 南京 in 南京路
    return found.pop() if len(found) == 1 else None


def _fits(m: MemoryItem, move: Move) -> str | None:
    """The city ``move`` replaces in ``m``, when ``m`` is a fact of the person who moved."""
    topic = m.topic or ""
    if m.kind != MemoryKind.FACT or not topic.startswith(_slots(move.who)):
        return None
    held = _held_city(m)
    if held is None or held == move.city or held.startswith(move.city):
        return None
    return held


def _still(text: str, held: str) -> bool:
    """Does ``text`` name the old city other than as the place left (从X / 离开X / 不在X)?"""
    at = text.find(held)
    while at >= 0:
        if not re.search(r"(?:从|离开|搬离|不在|不住|告别|回不去)$", text[max(0, at - 3) : at]):
            return True
        at = text.find(held, at + 1)
    return False


def _names(c: Candidate, move: Move) -> bool:
    """Does ``c`` hold the new city as the value of one of the mover's slots? (A free
    description, 用户的姐姐嫁到深圳去了, holds no value and leaves the slot to the move.)"""
    value = to_simplified(c.value or "")
    # the user's work city counts too: 公司把我调到佛山了 already placed as where they work
    slots = ("location.",) if move.who is None else _slots(move.who)
    return (c.topic or "").startswith(slots) and move.city in value


def _as_said(text: str, plain: str, move: Move) -> str:
    """The city as the user wrote it (traditional stays traditional)."""
    return text[move.start : move.end] if len(text) == len(plain) else move.city


def moved_cities(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the stored facts a message changes by telling a move to a city (see
    the module doc); [] when no move fits exactly one slot."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content or not has_cjk(msg.content):
            continue
        plain = to_simplified(msg.content)
        for move in moves(plain):
            stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
            fits = [(m, h) for m in stored if (h := _fits(m, move))]
            if len({m.topic for m, _ in fits}) != 1:
                continue
            old, held = max(fits, key=lambda f: (f[0].created_at, f[0].id))
            if _still(plain, held):
                continue  # 调到苏州了，还住在上海: the old city is still said to hold
            ours = [c for c in [*admitted, *out] if msg.id in c.source_message_ids]
            if any(c.topic == old.topic or _names(c, move) for c in ours):
                continue  # the message itself fills that slot, or names the city in another
            city = _as_said(msg.content, plain, move)
            at = to_simplified(old.content).find(held)
            content = old.content[:at] + city + old.content[at + len(held) :]
            out.append(
                Candidate(
                    kind=old.kind,
                    topic=old.topic,
                    value=city,
                    content=content,
                    importance=old.importance,
                    quote=move.clause,
                    source_message_ids=[msg.id],
                    is_correction=True,
                    observed_at=msg.timestamp,
                    metadata={"rule": "move.city", "lang": "zh"},
                )
            )
    return out
