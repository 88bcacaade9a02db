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

from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS
from jiyi.core.extraction.topics import normalize_object
from jiyi.core.life_stages import ended_slots
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.slots import GENERIC_SUBJECTS, PARTS, compatible, is_timeline_slot
from jiyi.pipeline.pending import Pending
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
KEYED_VALUES = frozenset({"like", "dislike", "yes", "no"})
_NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
_ACTIVE = SearchFilter(kinds=_NON_EPISODE)


def active_in_slot(
    slot: str, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Active memories of ``slot``, stored or earlier in this batch, as this batch left them."""
    stored = [pending.current(m) for m in store.list(scope, _ACTIVE, topic=slot)]
    batch = [i.memory for i in pending.rows.values() if i.memory.topic == slot]
    return [m for m in stored + batch if m.status == Status.ACTIVE and m.kind != MemoryKind.EPISODE]


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


# A drink order said as a switch ("改喝普洱了", "I've switched to matcha lattes", "…now").
SWITCH = re.compile(
    r"改喝|改点|换成|改成|换了|现在|最近|如今|\b(?:switch\w*|changed|moved (?:on|over)|instead|now|"
    r"these days|lately|nowadays)\b",
    re.IGNORECASE,
)


def _drink_family(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """A new drink of a category (``diet.tea.type`` = 普洱) said as a switch replaces the drink
    of that category the user said they liked (``pref.茉莉花茶``): one slot family, the
    category's usual drink, whether it was stored as an order or as a like."""
    parts = (c.topic or "").split(".")
    if len(parts) != 3 or parts[0] != "diet" or parts[2] != "type" or c.value in KEYED_VALUES:
        return []
    said = c.quote or c.content
    switched = SWITCH.search(said)
    if not (c.is_correction or switched):
        return []
    if not switched and _SITUATION.search(said):
        return []  # 其实上班的时候我都喝速溶: the drink of a time or a place, the like stays
    liked = [
        pending.current(m)
        for m in store.list(scope, SearchFilter(kinds=(MemoryKind.PREFERENCE,)))
        if m.topic
        and m.topic.startswith("pref.")
        and m.value == "like"
        # 其实我早上喝美式，下午才喝拿铁: a like the message names again is not replaced
        and (switched or m.topic.split(".", 1)[1].replace("_", " ") not in said.lower())
    ]
    # 点拿铁要换燕麦奶 → 改喝冷萃了: an order told by the type it was for goes with that type
    orders = [
        m
        for topic in _family_topics(c.topic or "")
        if topic != c.topic
        for m in active_in_slot(topic, scope, store, pending)
        if _names_another_type(m.quote or m.content, parts[1], c.value or "")
    ]
    return orders + [
        m
        for m in liked
        if m.status == Status.ACTIVE
        and DRINKS.get((m.topic or ".").split(".", 1)[1].replace("_", " "), ("", False))[0]
        == parts[1]
    ]


# A drink said for a time of day, a season, a place or now and then, not as the usual one.
_SITUATION = re.compile(
    r"时候|早上|上午|中午|下午|晚上|夜里|冬天|夏天|春天|秋天|周末|工作日|上班|在家|在公司|出差|"
    r"偶尔|有时|更常|\b(?:at (?:work|home|the office)|in (?:the )?(?:winter|summer|spring|fall|"
    r"autumn|mornings?|afternoons?|evenings?)|on (?:weekends|weekdays|(?:night )?shifts?)|"
    r"sometimes|occasionally|once in a while)\b",
    re.IGNORECASE,
)


def _names_another_type(text: str, category: str, now: str) -> bool:
    """Does ``text`` name a type of ``category`` (拿铁 for coffee) other than ``now``?"""
    for m in DRINK_RE.finditer(text):
        word = m.group(0).lower()
        cat, is_type = DRINKS[word]
        if is_type and cat == category and word not in now.lower():
            return True
    return False


# Drinks that say there is no milk in them: milk added later contradicts them.
_BLACK = re.compile(r"^(?:黑咖啡|清咖|纯黑咖啡|black(?: coffee)?|black americano)$", re.IGNORECASE)


_MILKY = re.compile(
    r"latte|flat white|cappuccino|cortado|macchiato|mocha|拿铁|卡布奇诺|澳白|馥芮白", re.I
)


def _milk_family(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Milk now taken in a drink (``diet.coffee.milk`` = 加燕麦奶) contradicts the order that
    said it had none (``diet.coffee.type`` = 黑咖啡): a value of one slot implies another's."""
    parts = (c.topic or "").split(".")
    if (
        len(parts) == 3
        and parts[0] == "diet"
        and parts[2] == "type"
        and _MILKY.search(c.value or "")
    ):
        # "I'm on triple shot lattes now" after "I take my coffee black": a milk drink now
        return [
            m
            for m in active_in_slot(f"diet.{parts[1]}.milk", scope, store, pending)
            if m.value and _BLACK.match(m.value.strip())
        ]
    if len(parts) != 3 or parts[0] != "diet" or parts[2] != "milk":
        return []
    if c.metadata.get("polarity") != "like":
        return []
    return [
        m
        for m in active_in_slot(f"diet.{parts[1]}.type", scope, store, pending)
        if m.value and _BLACK.match(m.value.strip())
    ]


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


def _family_topics(topic: str) -> list[str]:
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


def parts_slot(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Active memories that hold ``c.topic`` as a part (在美团做骑手 holds the role 骑手), or —
    when ``c`` itself holds parts — memories of those slots. Either way the same slot."""
    if not c.topic:
        return []
    found: list[MemoryItem] = []
    for topic in _family_topics(c.topic):
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


# Words that say a drink was given up, not merely disliked.
GAVE_UP = re.compile(
    r"不喝了|戒了|戒掉|不再喝|\b(?:quit|gave up|given up|give up|stopped|anymore|any more|"
    r"no longer|cut out)\b",
    re.IGNORECASE,
)


def _quit_drink(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """A drink the user gave up ("I quit coffee", "I don't drink tea anymore": ``pref.coffee``
    = dislike, said as a change) takes that drink's order with it (``diet.coffee.*``)."""
    parts = (c.topic or "").split(".")
    if len(parts) != 2 or parts[0] != "pref" or c.value != "dislike":
        return []
    if not GAVE_UP.search(c.quote or c.content):
        return []  # "Actually, I don't like coffee that much": a taste, not a change
    category, specific = DRINKS.get(parts[1].replace("_", " "), ("", True))
    if specific:
        return []  # "no more vanilla lattes": one drink, not the whole category
    orders = store.list(scope, SearchFilter(kinds=(MemoryKind.PREFERENCE,)))
    return [
        m
        for m in (pending.current(x) for x in orders)
        if m.status == Status.ACTIVE and (m.topic or "").startswith(f"diet.{category}.")
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
            for m in store.list(scope, _ACTIVE)
            if (m.topic or "").startswith(family + ".")
            and m.topic != c.topic
            and m.status == Status.ACTIVE
            and obj in (m.topic or "").rsplit(".", 1)[1].split("_")
        ]
        replaced = near if len({m.topic for m in near}) == 1 else []
    replaced = replaced or _drink_family(c, scope, store, pending)
    replaced = replaced or _milk_family(c, scope, store, pending)
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
        for m in store.list(scope, _ACTIVE)
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
        + _quit_drink(c, scope, store, pending)
        + _relative_moved(c, scope, store, pending)
        # 我妈退休了 / 我今年毕业了: the employer, the year of study that stage left behind
        + [m for slot in ended_slots(c) for m in active_in_slot(slot, scope, store, pending)]
    )
