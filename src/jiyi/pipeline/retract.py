"""Retire what a message explicitly retracts ("虾没事", "I gave up sugar", "不在信阳了").

Runs after every candidate of the batch was decided: a retraction often comes without the
new value landing in the old value's slot (我是对螃蟹过敏，虾没事 stores allergy.螃蟹 and says
nothing more about allergy.虾), so reconcile-by-slot cannot see it. For each retracted phrase
(:func:`jiyi.core.retract.find_retractions`) the stored, still active memories that literally
hold it in a slot the cue may touch (:func:`jiyi.core.retract_holds.holds`) are superseded, reason
``user_correction``, history kept, by the new memory of the same message in the same slot
group when there is one (the allergy the user named instead, the sport taken up instead);
with none they are closed (``valid_to``) without a successor. Never by similarity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from jiyi.core.extraction.lexicon import PETS_ZH
from jiyi.core.extraction.others_news import others_news
from jiyi.core.extraction.subject import Who, read_subject
from jiyi.core.extraction.topics import normalize_object
from jiyi.core.models import (
    Action,
    Candidate,
    HistoryEntry,
    MemoryEvent,
    MemoryItem,
    Message,
    Scope,
    Status,
)
from jiyi.core.ports import MemoryStore
from jiyi.core.reconcile import CHANGES, USER_CORRECTION
from jiyi.core.retract import Retraction, find_retractions
from jiyi.core.retract_holds import holds
from jiyi.core.slots import PARTS
from jiyi.core.text import as_said, has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES, KEYED_VALUES, mark_outdated
from jiyi.pipeline.pending import Pending
from jiyi.pipeline.restate import restated
from jiyi.pipeline.splits import split_off

__all__ = ["retire_retracted", "switched_values"]

# Slot areas that describe one thing, the user's tastes and habits: giving up running is
# answered by the swimming taken up instead, whether stored as a like or a habit.
_TASTES = frozenset({"pref", "habit", "diet", "favorite", "hobby"})


def _group(topic: str | None) -> str:
    parts = (topic or "").split(".")
    if parts[0] == "family" and len(parts) > 2:
        return ".".join(parts[:2])  # one relative's slots
    return "taste" if parts[0] in _TASTES else parts[0]


def _successor(old: MemoryItem, r: Retraction, made: Sequence[MemoryItem]) -> MemoryItem | None:
    """The new memory of the message that takes ``old``'s place: the same slot group, said
    in the retraction's clause if one was, else anywhere in the message."""
    fits = [m for m in made if _group(m.topic) == _group(old.topic)]
    same_clause = [m for m in fits if m.quote and to_simplified(m.quote).lower() in r.clause]
    best = same_clause or fits
    return best[0] if best else None


def retire_retracted(
    messages: Sequence[Message],
    events: Sequence[MemoryEvent],
    *,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
) -> list[MemoryEvent]:
    """Supersede the stored memories the user messages of this batch retract; returns one
    SUPERSEDE event per retired memory (``memory`` the successor, or the closed memory
    itself when the message named none)."""
    said_by = {m.id: m for m in messages if m.role == "user" and m.id and m.content}
    found = {m.id: find_retractions(m.content) for m in said_by.values() if m.id}
    # someone else's news from start to end: only a pet's end is read there (小虎过世了)
    found = {
        i: [r for r in rs if r.kind == "died"] if rs and others_news(said_by[i].content) else rs
        for i, rs in found.items()
    }
    if not any(found.values()):
        return []
    stored = [pending.current(m) for m in store.list(scope, ACTIVE_MEMORIES)]
    touched = {e.memory.id for e in events} | {e.previous.id for e in events if e.previous}
    out: list[MemoryEvent] = []
    for msg_id, retractions in found.items():
        made = [
            e.memory
            for e in events
            if e.event in (Action.ADD, Action.SUPERSEDE) and msg_id in e.memory.source_message_ids
        ]
        for r in retractions:
            for old in stored:
                old = pending.current(old)
                if old.status != Status.ACTIVE or old.id in touched:
                    continue
                if msg_id in old.source_message_ids or not holds(
                    r, old.topic, old.value, old.content
                ):
                    continue
                new = _successor(old, r, made)
                out.append(_retire(old, new, said_by[msg_id], scope, store, pending))
                touched.add(old.id)
                if new is None and (part := _retracted_part(r, old)):
                    # 不是理專了 of 在國泰世華銀行當理專: the bank stays, as a memory of its own
                    split_off(old, {part}, {}, pending)
    return out


def _retire(
    old: MemoryItem,
    new: MemoryItem | None,
    msg: Message,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
) -> MemoryEvent:
    said = msg.timestamp or pending.now
    gone = old.model_copy(
        update={
            "status": Status.SUPERSEDED,
            "superseded_by": new.id if new is not None else None,
            "valid_to": said,
        }
    )
    related = new.id if new is not None else None
    entry = HistoryEntry.of(
        gone, Action.SUPERSEDE, pending.now, related=related, reason=USER_CORRECTION
    )
    pending.change(gone, entry)
    mark_outdated(gone, new, scope, store, pending, said)
    return MemoryEvent(event=Action.SUPERSEDE, memory=new or gone, previous=gone)


def _swapped(old: MemoryItem, phrase: str, new: str) -> tuple[str, str, str] | None:
    """(topic, value, content) of ``old`` with ``new`` in place of what it holds: the value of
    a valued slot, the object of a keyed one (pref.跑步 = like → pref.游泳 = like; its head
    only when that is what was named: pref.画水彩 → pref.画油画)."""
    if not old.topic or not old.value:
        return None
    keyed = old.value in KEYED_VALUES or _habit_of(old, phrase)
    said = old.topic.rsplit(".", 1)[-1].replace("_", " ") if keyed else old.value
    if keyed and said != phrase and said.endswith(phrase):
        said, new = phrase, new  # only the named head changes: 画水彩 → 画油画
    at = old.content.lower().find(said.lower())
    obj = normalize_object(old.topic.rsplit(".", 1)[-1].replace(said, new) if keyed else new)
    if at < 0 or not obj:
        return None
    content = old.content[:at] + new + old.content[at + len(said) :]
    if keyed:
        return f"{old.topic.rsplit('.', 1)[0]}.{obj}", old.value, content
    return old.topic, new, content


def _habit_of(m: MemoryItem, phrase: str) -> bool:
    """Is ``m`` a habit keyed by ``phrase`` (habit.奶茶 = 每天下午: its value says when)?"""
    topic = m.topic or ""
    return topic.startswith("habit.") and normalize_object(topic.rsplit(".", 1)[-1]) == (
        normalize_object(phrase)
    )


def _retracted_part(r: Retraction, m: MemoryItem) -> str | None:
    """The one slot among ``m``'s parts whose value ``r`` retracts, when it is not ``m``'s
    own value (the role 理專 of 在國泰世華銀行當理專); None otherwise."""
    said = {normalize_object(p) for p in r.phrases}
    if m.value and normalize_object(m.value) in said:
        return None
    hit = [
        slot
        for slot, value in (m.metadata.get(PARTS) or {}).items()
        if value and normalize_object(str(value)) in said
    ]
    return hit[0] if len(hit) == 1 else None


def _exactly(r: Retraction, m: MemoryItem) -> str | None:
    """The phrase of ``r`` that ``m`` holds exactly — or, for a keyed slot, as the head of
    its object (水彩 of pref.画水彩) — None when only a value's head matches (美式 of 热美式:
    the rest of the order is unknown)."""
    if not m.topic or not m.value:
        return None
    for p in r.phrases:
        if _habit_of(m, p):
            return p
    keyed = m.value in KEYED_VALUES
    held = normalize_object(m.topic.rsplit(".", 1)[-1] if keyed else m.value)
    for p in r.phrases:
        said = normalize_object(p)
        if said == held or (keyed and len(said) >= 2 and held.endswith(said)):
            return p
    return None


def _names_in_area(c: Candidate, r: Retraction, old: MemoryItem) -> bool:
    """Does candidate ``c`` of the message hold ``r``'s replacement in ``old``'s area
    (美式戒了，改喝大麦茶 → diet.tea.type 大麦茶 beside diet.coffee.type 美式)?"""
    area = (old.topic or "").split(".", 1)[0]
    said = r.replacement or ""
    return (
        (c.topic or "").split(".", 1)[0] == area
        and bool(said)
        and (said in (c.value or "") or said in c.content)
    )


def switched_values(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """ "I switched from green tea to rooibos" / 从美式换成拿铁: the value named as the
    replacement of a retracted one takes the retracted memory's slot, as the old sentence with
    the value swapped — unless a candidate of the message already fills that slot. Only when
    exactly one stored slot holds the retracted value; decided like any candidate afterwards
    (same slot, new value: SUPERSEDE)."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        for r in find_retractions(msg.content):
            if not r.replacement:
                continue
            stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
            held = [m for m in stored if _exactly(r, m) and holds(r, m.topic, m.value, m.content)]
            said = replace(r, replacement=as_said(msg.content, r.replacement))  # 獅子兔, not 狮子兔
            if not held and not _someone_elses(msg.content) and (d := _described(said, stored)):
                out.append(_redescribed(*d, said, msg))
                continue
            if len({m.topic for m in held}) != 1:
                continue
            old = max(held, key=lambda m: (m.created_at, m.id))
            new = _swapped(old, _exactly(r, old) or "", r.replacement)
            ours = [c for c in [*admitted, *out] if msg.id in c.source_message_ids]
            if new is None or any(c.topic == new[0] or _names_in_area(c, r, old) for c in ours):
                continue  # the message itself fills the slot, or says the new value there
            topic, value, content = new
            out.append(
                restated(
                    old,
                    msg,
                    topic=topic,
                    value=value,
                    content=content,
                    quote=r.clause,
                    metadata={"rule": "retract.switch"},
                )
            )
    return out


_PET_NAME = re.compile(r"^pet\.[^.]+\.(?:name|breed)$")  # (a breed named with the pet)
_PARTS = re.compile(r"[,.!?;，。！？；]+")


def _someone_elses(text: str) -> bool:
    """Does a clause of ``text`` speak of someone else ("my neighbour's dog turns out …")?"""
    return any(read_subject(c) is Who.OTHER for c in _PARTS.split(to_simplified(text)))


_BREEDS_ZH = sorted(PETS_ZH, key=len, reverse=True)


def _described(r: Retraction, stored: Sequence[MemoryItem]) -> tuple[MemoryItem, str] | None:
    """The one pet whose name memory describes it as what ``r`` says it is not (兽医说它不是
    田园犬，是柴犬 / "he's not a lab mix, he's 70% pit bull"), with the new description."""
    if r.kind != "wrong" or not r.replacement or r.subject is not None:
        return None
    found: list[tuple[MemoryItem, str]] = []
    for m in stored:
        if not _PET_NAME.match(m.topic or ""):
            continue
        text = to_simplified(m.content)
        if len(text) != len(m.content):
            continue  # positions in the simplified text would not be the user's
        for phrase in r.phrases:
            if len(phrase) < 2:
                continue
            if has_cjk(phrase):  # the whole breed word that holds it: 中华田园犬 of 田园犬
                word = next((b for b in _BREEDS_ZH if phrase in b and b in text), phrase)
                at = text.find(word)
            else:
                # the whole word said shorter: "lab" of "Labrador cross"
                hit = re.search(rf"\b{re.escape(phrase)}(?:rador|radoodle)?\b", m.content, re.I)
                word, at = (hit.group(0), hit.start()) if hit else (phrase, -1)
            if at >= 0:
                found.append((m, m.content[:at] + r.replacement + m.content[at + len(word) :]))
                break
    return found[0] if len(found) == 1 else None


def _redescribed(old: MemoryItem, content: str, r: Retraction, msg: Message) -> Candidate:
    """The pet's name memory said again with the right description, superseding it."""
    breed = r.replacement if (old.topic or "").endswith(".breed") else None
    return restated(
        old, msg, value=breed.lower() if breed else old.value, content=content,
        quote=r.clause, metadata={"rule": "retract.described", CHANGES: old.id},
    )  # fmt: skip
