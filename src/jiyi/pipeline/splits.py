"""What a superseded memory that held several slots still says: each slot the new memory
does not replace becomes a memory of its own (在人民医院当护士 → 跳槽到市一院 keeps the role),
its text restated where it named a replaced value, so no active memory goes on saying an old
value and nothing true is lost silently."""

from __future__ import annotations

from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, Status
from jiyi.core.slots import PART_TEXTS, PARTS, alias_slots, remainder, restated_part
from jiyi.pipeline.pending import Pending

__all__ = ["split_off"]


def split_off(old: MemoryItem, said: set[str], now: dict[str, object], pending: Pending) -> None:
    """The slots of ``old`` (its own and its parts) that ``said`` does not replace, each as a
    memory of its own, its text restated with the new values ``now`` (slot → value) where it
    named an old one (:func:`jiyi.core.slots.restated_part`)."""
    parts = old.metadata.get(PARTS) or {}
    if not parts:
        return
    held = {**parts, **({old.topic: old.value} if old.topic and old.value else {})}
    kept = said | {a for s in said for a in alias_slots(s)}  # a new home replaces the city
    meta = {k: v for k, v in old.metadata.items() if k not in (PARTS, PART_TEXTS)}
    was = {s: str(v) for s, v in held.items() if s in said and v}
    new_values = {s: str(v) for s, v in now.items() if v}
    texts = dict(old.metadata.get(PART_TEXTS) or {})
    if old.topic and old.topic not in texts:  # its own slot said only in its whole text
        texts[old.topic] = _named(old) or old.content
    for slot, value, text in remainder(held, texts, kept):
        text = restated_part(text, was, new_values)
        split = old.model_copy(
            update={
                "id": new_id(),
                "topic": slot,
                "value": value,
                "content": text,
                "metadata": meta,
                "version": 1,
                "supersedes": None,
                "superseded_by": None,
                "status": Status.ACTIVE,
                "valid_to": None,
                "created_at": pending.now,
            }
        )
        pending.splits.append((split, old.id))


def _named(m: MemoryItem) -> str | None:
    """A pet's or relative's name slot told on its own ("User's dog is called Ollie"), for a
    memory that said it with other slots; None for other slots."""
    parts = (m.topic or "").split(".")
    if len(parts) != 3 or parts[0] not in ("pet", "family") or parts[2] != "name" or not m.value:
        return None
    if m.metadata.get("lang") == "zh":
        return f"用户的{_ZH_WHO.get(parts[1], '')}叫{m.value}" if parts[1] in _ZH_WHO else None
    return f"User's {parts[1].replace('_', ' ')} is called {m.value}"


_ZH_WHO = {"dog": "狗", "cat": "猫", "son": "儿子", "daughter": "女儿", "pet": "宠物"}
