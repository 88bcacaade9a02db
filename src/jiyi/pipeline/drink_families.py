"""Drink slot families: what a change of drink order makes untrue beyond its own slot — the
usual drink of a category a switch replaces, the black coffee a milk drink contradicts (and
the reverse), the order of a drink the user gave up. Found by slot, never by similarity
(:func:`jiyi.pipeline.families.replaced_by` and ``also_retired`` ask these)."""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.pipeline.pending import Pending
from jiyi.pipeline.slot_store import KEYED_VALUES, active_in_slot, family_topics

__all__ = ["GAVE_UP", "SWITCH", "drink_family", "milk_family", "quit_drink"]


# A drink order said as a switch ("改喝普洱了", "I've switched to matcha lattes", "…now").
SWITCH = re.compile(
    r"改喝|改点|换成|改成|换了|现在|最近|如今|\b(?:switch\w*|changed|moved (?:on|over)|instead|now|"
    r"these days|lately|nowadays)\b",
    re.IGNORECASE,
)


def drink_family(
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
        # "my usual is matcha latte": one usual order, whatever the category of the last one
        return _usual_of_another(c, said, scope, store, pending) if _ONE_USUAL.search(said) else []
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
        for topic in family_topics(c.topic or "")
        if topic != c.topic
        for m in active_in_slot(topic, scope, store, pending)
        if _names_another_type(m.quote or m.content, parts[1], c.value or "")
    ]
    return (
        orders
        + _usual_of_another(c, said, scope, store, pending)
        + [
            m
            for m in liked
            if m.status == Status.ACTIVE
            and DRINKS.get((m.topic or ".").split(".", 1)[1].replace("_", " "), ("", False))[0]
            == parts[1]
        ]
    )


# The one drink a user always orders, whatever its category: "my usual is matcha latte now"
# after "my usual order is an iced americano"; 现在只点柠檬茶 after 我只点生椰拿铁.
_USUAL = re.compile(
    r"\b(?:usual|go-to|regular order|my order|always order|always get)\b|只点|只喝|都点|一定点|"
    r"一定要|每次都?点|固定点|常点|必点",
    re.IGNORECASE,
)


_ONE_USUAL = re.compile(
    r"\bmy (?:usual|go-to)(?: order| drink)? (?:is|'s)\b|只点|只喝", re.IGNORECASE
)


def _usual_of_another(
    c: Candidate, said: str, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """The usual order of another category a new usual order replaces: only when both were
    said as the usual one and the user has exactly one such order."""
    if not _USUAL.search(said):
        return []
    category = (c.topic or "").split(".")[1]
    usual = [
        pending.current(m)
        for m in store.list(scope, SearchFilter(kinds=(MemoryKind.PREFERENCE, MemoryKind.FACT)))
        if (found := re.fullmatch(r"diet\.(\w+)\.type", m.topic or ""))
        and found.group(1) != category
        and _USUAL.search(m.quote or m.content)
    ]
    usual = [m for m in usual if m.status == Status.ACTIVE]
    return usual if len(usual) == 1 else []


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


def milk_family(
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


# Words that say a drink was given up, not merely disliked.
GAVE_UP = re.compile(
    r"不喝了|戒了|戒掉|不再喝|\b(?:quit|gave up|given up|give up|stopped|anymore|any more|"
    r"no longer|cut out)\b",
    re.IGNORECASE,
)


def quit_drink(
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
