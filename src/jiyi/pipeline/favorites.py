"""A new favourite said without its category, in the one favourite slot it changes.

"刀郎的歌听腻了 现在最喜欢凤凰传奇", "我现在改挺中信兄弟了", "I've gone over to the Ospreys,
they're my team now": the rules read a liking (pref.凤凰传奇) or nothing, so the stored
favourite singer or team stayed. A message that says a favourite is now another
(:func:`jiyi.core.favorites.new_favourites`) names its slot by what it shares with one stored
``favorite.*`` fact of the user: the old value named in the message, or the kind of the cue
(挺 / 支持 / "my team now" → a team; 偶像 / 歌 / concert → a singer or band). Exactly one fact
must fit; the new value then takes that slot as the old sentence with the value swapped,
decided like any candidate (same slot, new value: SUPERSEDE). Never by similarity.
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.core.favorites import Favourite, fits, new_favourites
from jiyi.core.models import Candidate, MemoryItem, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.restate import restated

__all__ = ["favourite_swaps"]


def favourite_swaps(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the stored favourites the user messages name a new value of."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        for new in new_favourites(msg.content):
            if stored is None:
                stored = [
                    m
                    for m in store.list(scope, ACTIVE_MEMORIES)
                    if (m.topic or "").startswith("favorite.") and m.value
                ]
            held = [m for m in stored if fits(new, m.topic or "", m.value or "", msg.content)]
            if len({m.topic for m in held}) != 1:
                continue
            old = max(held, key=lambda m: (m.created_at, m.id))
            ours = [c for c in [*admitted, *out] if msg.id in c.source_message_ids]
            if any(c.topic == old.topic for c in ours) or _same(old, new):
                continue
            out.append(_candidate(old, new, msg))
    return out


def _same(old: MemoryItem, new: Favourite) -> bool:
    return (old.value or "").casefold() == new.value.casefold()


def _candidate(old: MemoryItem, new: Favourite, msg: Message) -> Candidate:
    said = old.value or ""
    at = old.content.find(said) if said else -1
    content = old.content[:at] + new.value + old.content[at + len(said) :] if at >= 0 else new.value
    return restated(
        old, msg, content=content, quote=new.clause, value=new.value,
        metadata={"rule": "favorite.swap"},
    )  # fmt: skip
