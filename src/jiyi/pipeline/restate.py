"""A stored memory said again by a user message: the candidate a write-time step proposes.

Several steps place a change no rule made a fact of in the slot of the stored memory it
changes (a swapped value, a renamed pet, a new favourite, a breed set right): each makes the
same candidate — the old memory's kind and importance, the message as its source, marked as a
correction — and differs only in the topic, value, words and rule. Pure.
"""

from __future__ import annotations

from typing import Any

from jiyi.core.models import Candidate, MemoryItem, Message
from jiyi.core.slots import PART_TEXTS, PARTS, restated_part, swapped_words
from jiyi.core.text import as_said, to_simplified

__all__ = ["restated", "swapped_in"]


def _parts_kept(old: MemoryItem, content: str) -> dict[str, Any]:
    """``old``'s parts and their texts as ``content`` says them (see :func:`restated`)."""
    was, now = swapped_words(old.content, content)
    parts: dict[str, Any] = {}
    texts = dict(old.metadata.get(PART_TEXTS) or {})
    for slot, value in (old.metadata.get(PARTS) or {}).items():
        held = str(value or "")
        if held and was and now and (held.lower() in was.lower() or was in held):
            # (a labrador → a staffy; 中华田园犬 → 柴犬: the words around it stay)
            parts[slot] = now if held.lower() in was.lower() else held.replace(was, now)
            texts[slot] = restated_part(texts.get(slot, ""), {slot: held}, {slot: parts[slot]})
        else:
            parts[slot] = value
    return {PARTS: parts, PART_TEXTS: texts}


def swapped_in(old: MemoryItem, held: str, new: str, msg: Message) -> tuple[str, str]:
    """(``new`` as ``msg`` wrote it, ``old``'s words with it in place of ``held``): both values
    are read in simplified script, the words keep the user's (五歲 for a traditional user)."""
    at = to_simplified(old.content).find(held)
    said = as_said(msg.content or "", new)
    return said, old.content[:at] + said + old.content[at + len(held) :]


def restated(
    old: MemoryItem,
    msg: Message,
    *,
    content: str,
    quote: str,
    value: str | None,
    metadata: dict[str, Any],
    topic: str | None = None,
) -> Candidate:
    """``old`` said again by ``msg`` as ``content`` (in ``topic``, by default ``old``'s).
    Said in ``old``'s own slot, it keeps ``old``'s other slots (its parts), the one whose
    value the new words swapped with the new value (a labrador called Max → a staffy called
    Max: the breed is staffy), so none is split off with its old value."""
    if (topic is None or topic == old.topic) and old.metadata.get(PARTS):
        metadata = {**metadata, **_parts_kept(old, content)}
    return Candidate(
        kind=old.kind,
        topic=old.topic if topic is None else topic,
        value=value,
        content=content,
        importance=old.importance,
        quote=quote,
        source_message_ids=[msg.id] if msg.id else [],
        is_correction=True,
        observed_at=msg.timestamp,
        metadata=metadata,
    )
