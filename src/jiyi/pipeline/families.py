"""Slot families: which stored memories a candidate replaces beyond its own slot.

:func:`jiyi.core.reconcile.reconcile` decides by slot; these find the memories of *other*
slots that one statement still makes untrue (or that hold its slot as a part), each by a
property of the slots, never by embedding similarity: the sibling a correction names, the
drink a switch replaces, the black coffee milk contradicts, the one specific slot a generic
correction fits, the one allergy on record when a correction names another as the one meant,
the slots one memory holds together, the add-ins of a replaced order, the like of an activity
the user stopped, the order of a drink given up, the routine whose slot names the thing
swapped out (pipeline/swaps.py).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.topics import normalize_object
from jiyi.core.life_stages import ended_slots
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.slots import GENERIC_SUBJECTS, PARTS, compatible, is_timeline_slot
from jiyi.pipeline.drink_families import (
    GAVE_UP,
    SWITCH,
    drink_family,
    milk_family,
    quit_drink,
)
from jiyi.pipeline.pending import Pending
from jiyi.pipeline.slot_store import ACTIVE, KEYED_VALUES, active_in_slot, family_topics
from jiyi.pipeline.swaps import routine_naming

__all__ = [
    "GAVE_UP",
    "KEYED_VALUES",
    "SWITCH",
    "active_in_slot",
    "also_retired",
    "parts_slot",
    "replaced_by",
    "specialise",
]

# Values of slots keyed by their object (pref.茶 = like, health.allergy.花生 = yes).
_ALLERGY_SAID = re.compile(r"(?:对)?(.+?)过敏", re.IGNORECASE)


def _sibling_slot(c: Candidate) -> str | None:
    """For a keyed slot (the object is the last segment and the value a polarity:
    ``health.allergy.almond`` = yes), the slot of the object ``c.replaces`` names."""
    if not c.topic or not c.replaces or c.value not in KEYED_VALUES or "." not in c.topic:
        return None
    if said := _ALLERGY_SAID.fullmatch(c.replaces.strip()):
        # 不是牛奶过敏，只是乳糖不耐受: the phrase taken back names its own slot
        obj = normalize_object(said.group(1))
        return f"health.allergy.{obj}" if obj else None
    obj = normalize_object(c.replaces)
    return f"{c.topic.rsplit('.', 1)[0]}.{obj}" if obj else None


def _generic_family(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """A correction that names its subject generically (``family.child.grade`` from "she's
    a junior now", ``pet.pet.name``) replaces the one specific slot it is compatible with
    (``family.daughter.grade``) — found by slot, not by similarity; none when zero or several
    slots fit (two children with a grade: which one is unknowable)."""
    if not c.is_correction or not c.topic or is_timeline_slot(c.topic):
        return []
    parts = c.topic.split(".")
    if not any(p in GENERIC_SUBJECTS for p in parts[1:-1]):
        return []
    fits = [
        pending.current(m)
        for m in store.list(scope, SearchFilter(kinds=(c.kind,)))
        if m.topic and m.topic != c.topic and compatible(m.topic, c.topic)
    ]
    fits = [m for m in fits if m.status == Status.ACTIVE]
    return fits if len({m.topic for m in fits}) == 1 else []


def parts_slot(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Active memories that hold ``c.topic`` as a part (在美团做骑手 holds the role 骑手), or —
    when ``c`` itself holds parts — memories of those slots. Either way the same slot."""
    if not c.topic:
        return []
    found: list[MemoryItem] = []
    for topic in family_topics(c.topic):
        if topic == c.topic:
            continue
        for m in active_in_slot(topic, scope, store, pending):
            if c.topic in (m.metadata.get(PARTS) or {}) or topic in (c.metadata.get(PARTS) or {}):
                found.append(m)
    return found


# How a generic subject is named in English content: "Theo (user's family) …", "User's child …"
_GENERIC_WORDS = {"unknown": "family", "relative": "family"}


def specialise(c: Candidate, target: MemoryItem) -> Candidate:
    """A correction said of nobody in particular ("Theo's eight now" → ``family.unknown.age``)
    that supersedes one subject's slot (``family.son.age``) takes that slot — the next
    correction then finds it by slot — and its English content names the subject ("user's
    family" → "user's son"), so a search for "my son" finds the current value."""
    if not c.topic or not target.topic or c.topic == target.topic:
        return c
    if not compatible(c.topic, target.topic):
        return c
    content = c.content
    for g, s in zip(c.topic.split("."), target.topic.split("."), strict=True):
        if g != s and g in GENERIC_SUBJECTS:
            word, name = _GENERIC_WORDS.get(g, g), s.replace("_", " ")
            pattern = re.compile(rf"\b(user's) {re.escape(word)}\b", re.I)
            content = pattern.sub(rf"\1 {name}", content)
    return c.model_copy(update={"topic": target.topic, "content": content})


def _order_parts(
    c: Candidate, old: MemoryItem, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """A drink order is one unit: when its type is replaced ("My usual is a flat white with
    oat milk" → "I've switched to a cortado"), how the old drink was taken, said in the same
    message (``diet.coffee.milk`` = with oat milk), goes with it. Add-ins said on their own
    ("I take oat milk in my coffee") are kept: they are about the category, not that drink."""
    parts = (old.topic or "").split(".")
    src = set(old.source_message_ids)
    if len(parts) != 3 or parts[0] != "diet" or parts[2] != "type" or not src:
        return []
    if not (c.is_correction or SWITCH.search(c.quote or c.content)):
        return []  # a type said again differently is no switch of the whole order
    stored = store.list(scope, SearchFilter(kinds=(MemoryKind.PREFERENCE,)))
    return [
        m
        for m in (pending.current(x) for x in stored)
        if m.status == Status.ACTIVE
        and m.topic
        and m.topic.startswith(f"diet.{parts[1]}.")
        and m.topic != old.topic
        and src & set(m.source_message_ids)
    ]


def _stopped_likes(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """An activity the user stopped (``habit.birdwatch`` = no, "I don't birdwatch anymore")
    is no longer one they like (``pref.birdwatching`` = like): the like of the same verb."""
    parts = (c.topic or "").split(".")
    if len(parts) != 2 or parts[0] != "habit" or c.value != "no":
        return []
    stem = parts[1].rstrip("e")  # hike → hik(ing), swim → swim(ming)
    liked = store.list(scope, SearchFilter(kinds=(MemoryKind.PREFERENCE,)))
    return [
        m
        for m in (pending.current(x) for x in liked)
        if m.status == Status.ACTIVE
        and m.value == "like"
        and (key := (m.topic or "").removeprefix("pref."))
        and (m.topic or "").startswith("pref.")
        and (key == parts[1] or (key.startswith(stem) and key.endswith("ing")))
        and len(key) - len(stem) <= 4
    ]


def replaced_by(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Memories of another slot that ``c`` replaces (reconcile rule 3), first family found."""
    sibling = _sibling_slot(c)
    replaced = active_in_slot(sibling, scope, store, pending) if sibling else []
    if sibling and not replaced:  # "…birch pollen I react to, not grass": grass pollen
        family, obj = sibling.rsplit(".", 1)
        near = [
            m
            for m in store.list(scope, ACTIVE)
            if (m.topic or "").startswith(family + ".")
            and m.topic != c.topic
            and m.status == Status.ACTIVE
            and obj in (m.topic or "").rsplit(".", 1)[1].split("_")
        ]
        replaced = near if len({m.topic for m in near}) == 1 else []
    replaced = replaced or drink_family(c, scope, store, pending)
    replaced = replaced or milk_family(c, scope, store, pending)
    replaced = replaced or _the_allergy_meant(c, scope, store)
    replaced = replaced or routine_naming(c, scope, store, pending)
    return replaced or _generic_family(c, scope, store, pending)


# "Correction: it's penicillin I'm allergic to" / "my mistake, it's X I react to": the allergy
# named is the one meant instead of the one on record; "too / also / another" adds one.
_MEANT = re.compile(
    r"\b(?:it's|it is|it was) (?:actually |really )?[a-z][a-z -]{1,30}? (?:that )?"
    r"(?:i'm|i am) allergic to\b|\bcorrection\b|\bi meant\b|\bmixed (?:it|that|them) up\b|"
    r"\bmy (?:bad|mistake)\b|\bi misspoke\b|\bgot (?:it|that) wrong\b",
    re.IGNORECASE,
)
_ADDED = re.compile(r"\b(?:too|also|as well|another|other|new|more|plus|and|either)\b", re.I)


def _the_allergy_meant(c: Candidate, scope: Scope, store: MemoryStore) -> list[MemoryItem]:
    """The user's one allergy on record, when a correction says another allergen is the one
    (never when two are on record: which one was meant is unknown)."""
    said = c.quote or ""
    if not (c.topic or "").startswith("health.allergy.") or c.value != "yes":
        return []
    if not (c.is_correction and _MEANT.search(said)) or _ADDED.search(said):
        return []
    held = [
        m
        for m in store.list(scope, ACTIVE)
        if (m.topic or "").startswith("health.allergy.")
        and m.value == "yes"
        and m.status == Status.ACTIVE
    ]
    return held if len(held) == 1 and held[0].topic != c.topic else []


# A relative's move: where they work (family.X.city) and where they live (family.X.home) are
# two slots, but a move to another city ends both ("我姐去年调到成都工作，现在一家人都在成都").
_MOVED = re.compile(
    r"调到|调去|派到|外派到|搬到|搬去|搬回|迁到|(?:一家人|全家|一家)都(?:在|搬)|"
    r"\b(?:moved|relocated|transferred) (?:back |over )?to\b",
    re.IGNORECASE,
)
_WHERE = ("city", "home")


def _relative_moved(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """A relative who moved (``family.sister.city`` = 成都, said with 调到 / moved to) no longer
    lives in the city of their other place slot (``family.sister.home`` = 西安)."""
    parts = (c.topic or "").split(".")
    if len(parts) != 3 or parts[0] != "family" or parts[2] not in _WHERE or not c.value:
        return []
    if not _MOVED.search(c.quote or c.content):
        return []
    other = f"family.{parts[1]}.{_WHERE[1 - _WHERE.index(parts[2])]}"
    return [
        m
        for m in active_in_slot(other, scope, store, pending)
        if m.value and m.value.casefold() != c.value.casefold()
    ]


def also_retired(
    c: Candidate, old: MemoryItem | None, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Memories that go with what ``c`` replaced: the add-ins of a replaced drink order
    (``old``), and the like of an activity ``c`` says the user stopped. Unlike
    :func:`replaced_by` these do not decide ``c``'s own action."""
    parts = _order_parts(c, old, scope, store, pending) if old is not None else []
    return (
        parts
        + _stopped_likes(c, scope, store, pending)
        + quit_drink(c, scope, store, pending)
        + _relative_moved(c, scope, store, pending)
        # 我妈退休了 / 我今年毕业了: the employer, the year of study that stage left behind
        + [m for slot in ended_slots(c) for m in active_in_slot(slot, scope, store, pending)]
    )
