"""What a slot rule found in one clause, before it becomes a :class:`Candidate`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from jiyi.core.models import MemoryKind

# How long transient memories stay useful. An event matters until a few days after its day;
# a state ("最近在减肥", "I'm sick") for about a month, or a few days if said of today.
EVENT_TTL = timedelta(days=3)
STATE_TTL = timedelta(days=30)
SHORT_STATE_TTL = timedelta(days=3)


@dataclass
class Hit:
    kind: MemoryKind
    topic: str
    rule: str
    content: str | None = None  # None: the clause rewritten in the third person
    correction: bool = False  # the clause itself replaces an earlier value (搬到, no longer)
    when: datetime | None = None  # the day the memory is about (valid_from)
    ttl: timedelta | None = None  # expiry counted from ``when`` (or from observation)
    polarity: str | None = None  # "like" / "dislike" for preferences
    obj: str | None = None  # the object as said, for metadata
    value: str | None = None  # the slot's value (上海, 1989, 阿橘); None: judged by content
    drop: str | None = None  # an earlier hit of this message it replaces (不能吃花生，会过敏)
    # the name the clause calls its subject by ("Luna turned four"): the write path gives
    # the candidate the slot of the user's pet or relative of that name (pipeline/subjects.py)
    subject: str | None = None
    # other slots the same words fill (slot → (value, text)): "My husband Tom is allergic to
    # shellfish" also names him, so "Tom's birthday …" later finds whose Tom it is
    parts: dict[str, tuple[str, str]] | None = None


@dataclass
class Context:
    """What later clauses of one message inherit from earlier ones."""

    ref: datetime  # the message's time; relative dates resolve against it
    drink: str | None = None  # category named earlier: 我喝咖啡…，只喝冷萃 → "coffee"
    drink_word: str | None = None  # the word the user used for it (咖啡 / coffee)
    follows: bool = False  # a clause with content came before: this one may be its consequence
    name_en: str | None = None  # the name the last English clause opened with ("Mike retired")
    kin_swap: bool = False  # a relative's message said again as the user's (kin_swap.py)
    extra: dict[str, str] = field(default_factory=dict)
