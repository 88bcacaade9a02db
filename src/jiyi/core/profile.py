"""The user's structured profile (the design's second tier), derived from active memories.

Pure: :func:`derive_profile` reads a user's active memories and the fields the user or an
operator set (overrides) and returns a typed :class:`UserProfile`; nothing is stored but the
overrides and their history. Which slot feeds which field (``core/slots.py``,
``core/extraction``):

===============  ==========================================================
field            slots
===============  ==========================================================
name             identity.name
language         identity.language
timezone         (set through the API only: no message names one reliably)
city             location.home
hometown         location.hometown
occupation       work.role
employer         work.employer
school           education.school
family           family.* (relatives, their names, ages, birthdays …)
pets             pet.*
diet             diet.* (diet.style, the usual coffee …)
allergies        health.allergy.*
health           health.* other than allergies (conditions, medication …)
preferences      pref.*, favorite.* — by category (food, drink, music, …)
goals            memories of kind goal, with their status and target date
states           memories of kind state (recent emotional context), newest first
===============  ==========================================================

How sure a field is (:func:`field_confidence`, one rule for every field), in order:

1. **Set through the API** (an override): 1.0 — and it wins over any memory.
2. **Stated by the user directly**: a memory the user said outright (origin
   ``user_stated``, stored confidence at least 0.9, i.e. not hedged like "我好像对花生过敏"):
   1.0.
3. **Repeated or confirmed**: said in two or more messages (the memories' source message
   ids), or confirmed (origin ``confirmed``, or an inferred memory whose confidence rose to
   0.9 by confirmations, ``core/lifecycle.py``): 0.9.
4. **One mention** (a hedged statement, an inferred memory): 0.6.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, Field

from jiyi.core.models import GoalStatus, MemoryItem, MemoryKind, Origin, Status
from jiyi.core.slots import PARTS, normalize_value

__all__ = [
    "LIST_FIELDS",
    "SETTABLE_FIELDS",
    "SINGLE_FIELDS",
    "Evidence",
    "ProfileGoal",
    "ProfileOverride",
    "ProfileValue",
    "UserProfile",
    "derive_profile",
    "field_confidence",
]

OVERRIDE_CONFIDENCE = 1.0
DIRECT_CONFIDENCE = 1.0
REPEATED_CONFIDENCE = 0.9
ONE_MENTION_CONFIDENCE = 0.6
_STATED = 0.9  # the stored confidence of an unhedged statement (core/extraction/rules.py)
MAX_STATES = 5

#: Single-valued fields and the slot each is read from (None: set through the API only).
SINGLE_FIELDS: dict[str, str | None] = {
    "name": "identity.name",
    "language": "identity.language",
    "timezone": None,
    "city": "location.home",
    "hometown": "location.hometown",
    "occupation": "work.role",
    "employer": "work.employer",
    "school": "education.school",
}
#: List fields and the slot prefixes they collect (``health`` excludes allergies).
LIST_FIELDS: dict[str, tuple[str, ...]] = {
    "family": ("family.",),
    "pets": ("pet.",),
    "diet": ("diet.",),
    "allergies": ("health.allergy.",),
    "health": ("health.",),
}
#: Fields an override may set or clear: a list field's override replaces its whole list
#: with the one value given (or with nothing).
SETTABLE_FIELDS = frozenset(SINGLE_FIELDS) | frozenset(LIST_FIELDS)

_CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(words, re.IGNORECASE))
    for name, words in (
        ("drink", r"咖啡|茶|奶|酒|饮|汁|水|可乐|coffee|tea|latte|milk|beer|wine|juice|soda|drink"),
        ("music", r"音乐|歌|摇滚|爵士|古典|说唱|music|song|jazz|rock|pop|rap|band|classical"),
        ("film_books", r"电影|剧|动漫|动画|小说|书|综艺|movie|film|show|series|anime|book|novel"),
        ("sport", r"运动|球|跑步|游泳|健身|瑜伽|骑行|爬山|滑雪|sport|ball|run|swim|gym|yoga|hik"),
        ("travel", r"旅行|旅游|海边|出国|travel|trip|beach|abroad"),
        (
            "food",
            r"吃|菜|辣|甜|咸|酸|肉|鱼|面|饭|火锅|烧烤|海鲜|水果|蔬菜|素|food|spicy|sweet|meat|"
            r"fish|noodle|rice|pizza|sushi|burger|vegan|dessert|cake|chocolate|cuisine",
        ),
    )
)


class ProfileValue(BaseModel):
    """One value of a profile field, with where it comes from."""

    value: str | None  # what the field holds (上海, 王小明); None: the user cleared it
    confidence: float = Field(ge=0.0, le=1.0)
    sources: list[str] = Field(default_factory=list)  # the memory ids it was derived from
    updated_at: datetime  # when it was last said or set
    set_by_user: bool = False  # set through the API (an override): it wins over memories
    slot: str | None = None  # the memory slot it was read from (pet.cat.name)
    text: str | None = None  # the memory's sentence ("用户养了一只猫叫阿橘")


class ProfileGoal(ProfileValue):
    """A goal of the user, where it stands and when it is meant to be reached by."""

    status: GoalStatus = GoalStatus.ACTIVE
    target_date: datetime | None = None


class UserProfile(BaseModel):
    """Who the user is, as far as jiyi knows (``Memory.profile``)."""

    user_id: str
    name: ProfileValue | None = None
    language: ProfileValue | None = None
    timezone: ProfileValue | None = None
    city: ProfileValue | None = None
    hometown: ProfileValue | None = None
    occupation: ProfileValue | None = None
    employer: ProfileValue | None = None
    school: ProfileValue | None = None
    family: list[ProfileValue] = Field(default_factory=list)
    pets: list[ProfileValue] = Field(default_factory=list)
    diet: list[ProfileValue] = Field(default_factory=list)
    allergies: list[ProfileValue] = Field(default_factory=list)
    health: list[ProfileValue] = Field(default_factory=list)
    preferences: dict[str, list[ProfileValue]] = Field(default_factory=dict)  # by category
    goals: list[ProfileGoal] = Field(default_factory=list)
    states: list[ProfileValue] = Field(default_factory=list)  # newest first
    updated_at: datetime | None = None  # the newest update of any field

    def is_empty(self) -> bool:
        """No field holds a value."""
        singles = (getattr(self, f) for f in SINGLE_FIELDS)
        lists = (self.family, self.pets, self.diet, self.allergies, self.health)
        return not any(v is not None and v.value for v in singles) and not any(
            (*lists, self.goals, self.states, self.preferences)
        )


class ProfileOverride(BaseModel):
    """A field set (or, with ``value`` None, cleared) through the API; kept in history."""

    field: str
    value: str | None
    set_at: datetime
    set_by: str  # "key:<key id>" over REST, "library" in-process


@dataclass(frozen=True)
class Evidence:
    """What one memory says for a field's value: how it was said, and in how many messages."""

    origin: Origin
    confidence: float  # as stored on the memory
    mentions: int = 1

    @classmethod
    def of(cls, m: MemoryItem) -> Evidence:
        return cls(m.origin, m.confidence, max(1, len(set(m.source_message_ids))))


def field_confidence(evidence: Iterable[Evidence], *, set_by_user: bool = False) -> float:
    """How sure a profile value is (the rules in the module docstring, in their order)."""
    if set_by_user:
        return OVERRIDE_CONFIDENCE
    said = list(evidence)
    if any(e.origin == Origin.USER_STATED and e.confidence >= _STATED for e in said):
        return DIRECT_CONFIDENCE
    confirmed = any(
        e.origin == Origin.CONFIRMED or e.confidence >= REPEATED_CONFIDENCE for e in said
    )
    if confirmed or sum(e.mentions for e in said) >= 2:
        return REPEATED_CONFIDENCE
    return ONE_MENTION_CONFIDENCE if said else 0.0


def _value(group: Sequence[MemoryItem]) -> ProfileValue:
    """The value a group of memories agreeing on one slot value gives (newest first)."""
    newest = group[0]
    return ProfileValue(
        value=newest.value or newest.content,
        confidence=field_confidence(Evidence.of(m) for m in group),
        sources=[m.id for m in group],
        updated_at=max(m.observed_at for m in group),
        slot=newest.topic,
        text=newest.content,
    )


def _by_slot(memories: Iterable[MemoryItem]) -> list[list[MemoryItem]]:
    """Memories grouped by slot and value (a memory without a slot stands alone), each group
    newest first, groups newest first."""
    groups: dict[tuple[str, str], list[MemoryItem]] = {}
    for m in sorted(memories, key=lambda m: (m.observed_at, m.id), reverse=True):
        value = normalize_value(m.value) if m.value else m.content
        groups.setdefault((m.topic or m.id, value), []).append(m)
    return list(groups.values())


def _in_slot(slot: str, memories: Sequence[MemoryItem]) -> list[MemoryItem]:
    """Memories of ``slot``, and those holding it as a part (在腾讯做产品经理: the employer's
    memory holds the role too), seen as memories of that slot."""
    out = [m for m in memories if m.topic == slot]
    for m in memories:
        part = (m.metadata.get(PARTS) or {}).get(slot)
        if m.topic != slot and part is not None:
            out.append(m.model_copy(update={"topic": slot, "value": part}))
    return out


def _single(slot: str, memories: Sequence[MemoryItem]) -> ProfileValue | None:
    groups = _by_slot(_in_slot(slot, memories))
    return _value(groups[0]) if groups else None


def _list_field(name: str, memories: Sequence[MemoryItem]) -> list[ProfileValue]:
    prefixes = LIST_FIELDS[name]

    def belongs(slot: str) -> bool:
        if name == "health" and slot.startswith("health.allergy."):
            return False
        return slot.startswith(prefixes)

    return [_value(g) for g in _by_slot(m for m in memories if m.topic and belongs(m.topic))]


def preference_category(m: MemoryItem) -> str:
    """The category a preference is listed under: ``favorite.<category>`` names its own;
    otherwise the first of drink, music, film_books, sport, travel, food whose words the
    preference's object or sentence has, else ``other``."""
    slot = m.topic or ""
    if slot.startswith("favorite."):
        return slot.split(".", 1)[1] or "other"
    said = f"{slot.split('.', 1)[-1]} {m.content}"
    return next((name for name, words in _CATEGORIES if words.search(said)), "other")


def _overridden(o: ProfileOverride) -> ProfileValue:
    return ProfileValue(
        value=o.value, confidence=OVERRIDE_CONFIDENCE, updated_at=o.set_at, set_by_user=True
    )


def derive_profile(
    user_id: str,
    memories: Iterable[MemoryItem],
    overrides: Mapping[str, ProfileOverride] | None = None,
    *,
    now: datetime | None = None,
) -> UserProfile:
    """The profile of ``user_id`` from its memories (active ones count; episodes, archived
    and superseded memories do not, nor — given ``now`` — those expired and not yet
    archived, which the read path hides too) and the fields set through the API
    (``overrides``: the latest per field; a value of None clears the field)."""
    active = [
        m
        for m in memories
        if m.status == Status.ACTIVE
        and m.kind != MemoryKind.EPISODE
        and (now is None or m.expires_at is None or m.expires_at > now)
    ]
    slotted = [m for m in active if m.topic]
    profile = UserProfile(user_id=user_id)
    for name, slot in SINGLE_FIELDS.items():
        if slot is not None:
            setattr(profile, name, _single(slot, slotted))
    for name in LIST_FIELDS:
        setattr(profile, name, _list_field(name, slotted))
    prefs = [m for m in slotted if m.topic and m.topic.startswith(("pref.", "favorite."))]
    for group in _by_slot(prefs):
        profile.preferences.setdefault(preference_category(group[0]), []).append(_value(group))
    for group in _by_slot(m for m in active if m.kind == MemoryKind.GOAL):
        v, newest = _value(group), group[0]
        profile.goals.append(
            ProfileGoal(
                **v.model_dump(),
                status=newest.goal_status or GoalStatus.ACTIVE,
                target_date=newest.target_date,
            )
        )
    states = _by_slot(m for m in active if m.kind == MemoryKind.STATE)
    profile.states = [_value(g) for g in states[:MAX_STATES]]
    for name, o in (overrides or {}).items():
        if name in SINGLE_FIELDS:
            setattr(profile, name, None if o.value is None else _overridden(o))
        elif name in LIST_FIELDS:
            setattr(profile, name, [] if o.value is None else [_overridden(o)])
    times = [v.updated_at for v in _values(profile)]
    profile.updated_at = max(times) if times else None
    return profile


def _values(p: UserProfile) -> list[ProfileValue]:
    out: list[ProfileValue] = [v for f in SINGLE_FIELDS if (v := getattr(p, f)) is not None]
    for f in LIST_FIELDS:
        out += getattr(p, f)
    for values in p.preferences.values():
        out += values
    return out + list(p.goals) + p.states
