"""A change said "from X to Y" replaces X in the one stored fact that literally holds it.

从土木转到计算机了 after 我在南京大学读大一，学土木; 科室从儿科调到急诊了 after 我是护士，在
儿科: the rules store such a clause as a description of the change in a slot of its own
(用户从土木转到计算机了), or nothing, and the old value stayed active beside it. Here each pair
of :func:`jiyi.core.fromto.from_to` looks for the stored, active facts of the clause's
subject (the user, or the relative the clause opens with) whose text holds the old value.
Exactly one slot: a candidate of that slot, the old sentence with the new value in place of
the old one, decided like any other — SUPERSEDE with history, the value swapped too when the
slot's value held the old one, else marked as the one memory it changes (``CHANGES``). The
message's own description of the change (holding both values) gives way to it. Never by
similarity; someone else's change, or a value held by no fact or by several, changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from jiyi.core.extraction.subject import Who, named_first, read_subject, someone_else_leads
from jiyi.core.fromto import FromTo, from_to, relative_of
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.reconcile import CHANGES
from jiyi.core.retract import find_retractions
from jiyi.core.text import FACTS_CACHED, as_said, find_word, has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES

__all__ = ["from_to_swaps", "place_swap", "plain_text"]


@lru_cache(maxsize=FACTS_CACHED)
def plain_text(text: str) -> str:
    return to_simplified(text).lower()


def _pairs(text: str) -> list[FromTo]:
    """The from → to pairs of ``text``: said as such (从X转到Y), or as a stop and what took
    its place (钢琴不学了，改学画画了: its bare value and the replacement)."""
    said = from_to(plain_text(text) if has_cjk(text) else text)
    stopped = [
        FromTo(r.phrases[0], r.replacement, r.clause, free=True)
        for r in find_retractions(text)
        if r.replacement and r.phrases and r.kind in ("stopped", "wrong")
    ]
    return said + [p for p in stopped if p.old.lower() != p.new.lower()]


def _owner(clause: str, message: str) -> str | None:
    """``user``, ``family.<key>.``, ``pet.`` or None (someone else's change), of ``clause``
    said in ``message`` (simplified)."""
    who = read_subject(clause)
    if who in (Who.FAMILY, Who.UNSAID) and (key := relative_of(clause)):
        return f"family.{key}."
    if who in (Who.HE_SHE, Who.THEY):  # "he reckons she's more like thirteen, not ten": a
        return "pet."  # pet's age or breed, never what a person "she" has or does
    if who is Who.UNSAID and named_first(clause):
        return "pet."  # 李老师调去北京了 / "Marcus left Delta for United": theirs, or a pet's
    if who not in (Who.USER, Who.UNSAID):
        return None
    # 我们科主任刚搬家，从太原搬到北京了: a clause without a subject after someone else's
    return "pet." if someone_else_leads(message, clause) else "user"


def _theirs(m: MemoryItem, owner: str) -> bool:
    topic = m.topic or ""
    if m.kind not in (MemoryKind.FACT, MemoryKind.PREFERENCE) or not topic:
        return False
    if owner == "user":
        return not topic.startswith("family.")  # the user's pets are theirs to rename
    return topic.startswith(owner)


def _swap(old: MemoryItem, plain: str, pair: FromTo) -> Candidate | None:
    """``old`` (``plain``: its text simplified, lower-cased) told with ``pair.new`` in place
    of ``pair.old``."""
    at = find_word(plain, pair.old.lower())
    if at < 0 or len(plain) != len(old.content):
        return None
    content = old.content[:at] + pair.new + old.content[at + len(pair.old) :]
    value = old.value or ""
    meta: dict[str, object] = {"rule": "fromto.swap", "lang": "zh" if has_cjk(content) else "en"}
    i = find_word(plain_text(value), pair.old.lower())
    if i >= 0:
        new_value: str | None = value[:i] + pair.new + value[i + len(pair.old) :]
    else:  # 读大一，学土木 holds the major beside the stage it is the value of: the slot's
        # value stays, the memory is said again with the new word (reconcile: CHANGES)
        new_value = old.value
        meta[CHANGES] = old.id
    return Candidate(
        kind=old.kind,
        topic=old.topic,
        value=new_value,
        content=content,
        importance=old.importance,
        quote=pair.clause,
        is_correction=True,
        metadata=meta,
    )


def from_to_swaps(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """``admitted`` with each stated from → to change placed in the fact holding the old
    value (see the module doc), and the message's descriptions of that change dropped."""
    out = list(admitted)
    stored: list[tuple[MemoryItem, str]] | None = None  # each with its plain text, once
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        for pair in _pairs(msg.content):
            pair = replace(pair, new=as_said(msg.content, pair.new))  # 牙醫系, not 牙医系
            owner = _owner(pair.clause, to_simplified(msg.content))
            if owner is None:
                continue
            if stored is None:
                stored = [(m, plain_text(m.content)) for m in store.list(scope, ACTIVE_MEMORIES)]
            was, now = pair.old.lower(), pair.new.lower()
            held = [
                (m, plain)
                for m, plain in stored
                if _theirs(m, owner)
                and (not pair.free or m.value is None)  # 小名改成了豆包: 小名 is no value
                and find_word(plain, was) >= 0
                and find_word(plain, now) < 0
            ]
            out = place_swap(pair, held, msg, out)
    return out


def place_swap(
    pair: FromTo, held: list[tuple[MemoryItem, str]], msg: Message, out: list[Candidate]
) -> list[Candidate]:
    """``out`` with ``pair`` swapped into the one slot of ``held`` (unchanged otherwise)."""
    if len({m.topic for m, _ in held}) != 1:
        return out
    was, now = pair.old.lower(), pair.new.lower()
    old, plain = max(held, key=lambda h: (h[0].created_at, h[0].id))
    said = [(c, plain_text(c.content)) for c in out if msg.id in c.source_message_ids]
    if any(c.topic == old.topic and was not in text for c, text in said):
        return out  # the message fills that slot itself (not by naming what it stopped)
    if any(c.metadata.get("rule") == "fromto.swap" and c.topic == old.topic for c, _ in said):
        return out  # already swapped by a pair said as such
    told = [c for c, text in said if was in text and now in text]
    new = _swap(old, plain, pair)
    if new is None:
        return out
    new = new.model_copy(update={"source_message_ids": [msg.id], "observed_at": msg.timestamp})
    return [c for c in out if c not in told] + [new]
