"""A stored pet's age or breed set right: the pet's memory told with the new one.

A vet's estimate, adoption papers or the user's own correction name the pet and a new age
("带团团去打疫苗，兽医…说它至少八岁了", "the vet figures she's actually closer to fifteen").
For the one stored pet name memory whose name the message says and whose words hold an age
(:func:`jiyi.core.pet_ages.held_age`), with the one other age the message gives
(:func:`jiyi.core.pet_ages.new_age`) and a word of finding or correcting, a candidate of that
memory's slot told with the new age and named as the memory it changes (``CHANGES``), so it
supersedes it with history. Never by similarity; another pet named in the message, or no word
of finding, changes nothing. A breed the message names as wrong (不是米克斯, "not beagle at
all") and the one found instead (根本是纯种台湾犬, "mostly basset hound") is swapped the same way
(:func:`jiyi.core.pet_ages.breed_swap`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.models import Candidate, MemoryItem, Message, Scope
from jiyi.core.pet_ages import breed_swap, held_age, new_age
from jiyi.core.ports import MemoryStore
from jiyi.core.reconcile import CHANGES
from jiyi.core.text import has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.restate import restated, swapped_in

__all__ = ["pet_ages"]

# Someone found it out or the user sets it right (not a birthday to come or a wish).
_FOUND = re.compile(
    r"兽医|医生|宠物医院|看了牙|检查|检测|结果|证件|证书|疫苗本|说|至少|起码|才|其实|不是|原来|搞错|"
    r"记错|打错|"
    r"\b(?:vet|doctor|papers|shelter|breeder|records?|figures|reckons|thinks|says|said|"
    r"closer to|more like|at least|actually|already|not|isn't|wasn't|wrong|mistake|dna|"
    r"turns out)\b",
    re.IGNORECASE,
)
_UNREAL = re.compile(r"如果|要是|会不会|吗|[?？]$|\b(?:if|will be|turns? \w+ next)\b", re.I)


_IT = re.compile(r"它|牠")
_SHE = re.compile(r"她|他")


def _clause(text: str, said: str) -> str:
    """The clause of ``text`` that gives the new age (as written: traditional stays)."""
    for part in re.split(r"[，,。.;；!！?？]+|\s{2,}", text):
        if said in to_simplified(part):
            return part.strip()
    return text


def _kin_aged(stored: Sequence[MemoryItem]) -> bool:
    """Has a relative an age stored? (兽医看了牙齿说她起码五岁了: "she" is the pet only if not)"""
    return any((m.topic or "").startswith("family.") and held_age(m.content) for m in stored)


def _name(m: MemoryItem) -> str:
    return (m.value or "").strip()


def pet_ages(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the stored pet whose age a message sets right (see the module doc)."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        text = to_simplified(msg.content) if has_cjk(msg.content) else msg.content
        if not _FOUND.search(text) or _UNREAL.search(text):
            continue
        stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
        pets = [
            m
            for m in stored
            if (m.topic or "").startswith("pet.") and (m.topic or "").endswith(".name")
        ]
        named = [
            m
            for m in pets
            if len(_name(m)) >= 2 and to_simplified(_name(m)).lower() in text.lower()
        ]
        aged = [m for m in stored if (m.topic or "").startswith("pet.") and held_age(m.content)]
        if len({_name(m).lower() for m in named}) == 1:
            pet = max(named, key=lambda m: (m.created_at, m.id))
            # the name memory that says the age (…叫团团，今年五岁) and the pet's age memory
            family = (pet.topic or "").rsplit(".", 1)[0] + "."
            mine = [m for m in stored if (m.topic or "").startswith(family)]
        elif (
            not named
            and len(aged) == 1
            and (_IT.search(text) or (_SHE.search(text) and not _kin_aged(stored)))
        ):
            mine = aged  # (…医生说)它起码有六岁了: the one pet stored with an age
        else:
            continue  # two pets named, or none and no pronoun: whose age it is is not said
        for old in mine:
            content = to_simplified(old.content)
            held = held_age(content)
            new = new_age(text, held) if held else None
            if not held or not new:  # not the age: a breed found wrong (不是米克斯, 根本是台湾犬)?
                breed = breed_swap(content, text)
                if breed is None:
                    continue
                held, new = breed
            if any(c.topic == old.topic and msg.id in c.source_message_ids for c in admitted):
                continue  # the message restates that memory itself
            said, told = swapped_in(old, held, new, msg)
            value = said if (old.topic or "").endswith((".age", ".breed")) else old.value
            if value and old.value and not old.value.endswith(("岁", "歲")):
                value = value.removesuffix("岁").removesuffix("歲")  # stored as 三, not 三岁
            out.append(
                restated(
                    old,
                    msg,
                    value=value,
                    content=told,
                    quote=_clause(msg.content, new),  # found by the simplified value
                    metadata={"rule": "pet.age", CHANGES: old.id},
                )
            )
    return out
