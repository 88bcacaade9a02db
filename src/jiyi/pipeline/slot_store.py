"""Slots as stored: the active memories of one slot (stored or earlier in this batch), and
the slots one memory may hold together (``extraction/merge.fold_parts``). Shared by the slot
families (:mod:`jiyi.pipeline.families`, :mod:`jiyi.pipeline.drink_families`)."""

from __future__ import annotations

from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.pipeline.pending import Pending

__all__ = ["ACTIVE", "KEYED_VALUES", "active_in_slot", "family_topics"]

KEYED_VALUES = frozenset({"like", "dislike", "yes", "no"})
NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
ACTIVE = SearchFilter(kinds=NON_EPISODE)


def active_in_slot(
    slot: str, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Active memories of ``slot``, stored or earlier in this batch, as this batch left them."""
    stored = [pending.current(m) for m in store.list(scope, ACTIVE, topic=slot)]
    batch = [i.memory for i in pending.rows.values() if i.memory.topic == slot]
    return [m for m in stored + batch if m.status == Status.ACTIVE and m.kind != MemoryKind.EPISODE]


def family_topics(topic: str) -> list[str]:
    """The slots that may be stored together with ``topic`` in one memory (merge.fold_parts)."""
    for family in (
        ("work.employer", "work.role"),
        ("identity.birth_year", "identity.zodiac"),
        (
            "education.stage",
            "education.grade",
            "education.school",
            "education.major",
        ),  # 我在复旦读大三
    ):
        if topic in family:
            return list(family)
    head = topic.rpartition(".")[0]
    if topic.startswith("diet.") and head.count(".") == 1:
        return [f"{head}.{a}" for a in ("type", "sugar", "milk", "ice", "size", "temperature")]
    if topic.startswith("pet.") and head.count(".") == 1:  # "My cat Luna is 3 years old"
        return [f"{head}.{a}" for a in ("name", "age", "breed")]
    if topic.startswith("family.") and head.count(".") == 1:
        if topic.endswith((".job", ".employer", ".city")):  # 我老公是程序员，在腾讯上班
            return [f"{head}.job", f"{head}.employer", f"{head}.city"]
        if topic.endswith((".grade", ".school")):  # 我儿子在曲江幼儿园上中班
            return [f"{head}.grade", f"{head}.school"]
    return []
