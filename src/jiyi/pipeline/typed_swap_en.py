"""English: a new grade or town said with a change cue takes the place of the one it changes.

"I'm actually a junior now" / "Now I work from Portland" name the new value and leave the
slot to the listener; the rules store nothing. With a change said
(:func:`jiyi.core.typed_values_en.change_said_en`: a cue, no one else as the subject, no
wish, visit or question), each value looks for the stored, active user fact of its kind: a
grade, the one school stage holding a grade; a town, the one place fact holding a town that
shares a content word with the message ("work" of "I work in Seattle"). Exactly one such
slot: a candidate of it, the old sentence with the value swapped, decided like any other.
Never by similarity; a relative's or a friend's move, a trip, or a slot the message fills
itself changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.extraction.lexicon_places import is_town_en
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.text import has_cjk
from jiyi.core.typed_values_en import (
    EnValue,
    change_said_en,
    content_words_en,
    en_values,
    grade_en,
)
from jiyi.pipeline.decide import ACTIVE_MEMORIES

__all__ = ["typed_swaps_en"]


def _held(m: MemoryItem, new: EnValue, text: str) -> str:
    """The value ``new`` replaces in ``m`` (as ``m`` says it), "" when ``m`` is not the fact."""
    topic = m.topic or ""
    if m.kind != MemoryKind.FACT or topic.startswith(("family.", "pet.")):
        return ""
    value = m.value or ""
    if new.kind == "grade":
        held = grade_en(value) if topic == "education.stage" else ""
        return held if held and held != new.surface else ""
    if not topic.startswith("location.") or not is_town_en(value) or value == new.surface:
        return ""
    # the message must repeat a word of the fact besides the towns: "work" of "works in X"
    rest = content_words_en(text.replace(new.surface, " "))
    return value if rest & content_words_en(m.content.replace(value, " ")) else ""


def _swapped(m: MemoryItem, held: str, new: EnValue) -> tuple[str, str] | None:
    """(value, content) of ``m`` told with ``new`` in place of ``held``."""
    said = re.compile(re.escape(held), re.IGNORECASE)
    if not said.search(m.content):
        return None
    told = said.sub(new.surface, m.content, count=1)
    return said.sub(new.surface, m.value or held, count=1), told


def typed_swaps_en(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the stored facts an English message changes by naming a new grade or
    town (see the module doc); [] when nothing fits exactly one slot."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content or has_cjk(msg.content):
            continue
        if not change_said_en(msg.content):
            continue
        for new in en_values(msg.content):
            stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
            fits = [(m, h) for m in stored if (h := _held(m, new, msg.content))]
            if len({m.topic for m, _ in fits}) != 1:
                continue
            old, held = max(fits, key=lambda f: (f[0].created_at, f[0].id))
            ours = [c for c in [*admitted, *out] if msg.id in c.source_message_ids]
            swap = _swapped(old, held, new)
            if swap is None or any(c.topic == old.topic for c in ours):
                continue
            out.append(
                Candidate(
                    kind=old.kind,
                    topic=old.topic,
                    value=swap[0],
                    content=swap[1],
                    importance=old.importance,
                    quote=msg.content,
                    source_message_ids=[msg.id],
                    is_correction=True,
                    observed_at=msg.timestamp,
                    metadata={"rule": "typed.swap", "lang": "en"},
                )
            )
    return out
