"""The reconcile step of a write: each admitted candidate against what is stored.

:func:`decide` gathers what :func:`jiyi.core.reconcile.reconcile` needs (the slot's active
memories, the sibling slot a correction names, similar memories only when a rule consults
them) and turns its decision into rows of the :class:`Pending` write: a refresh, a new memory,
or a new memory that supersedes an old one — whose source episodes are marked outdated.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from jiyi.core import lifecycle
from jiyi.core.calibration import Calibration
from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS
from jiyi.core.extraction.topics import normalize_object
from jiyi.core.goals import goal_target
from jiyi.core.ids import new_id
from jiyi.core.models import (
    Action,
    Candidate,
    GoalStatus,
    HistoryEntry,
    MemoryEvent,
    MemoryItem,
    MemoryKind,
    Scope,
    Status,
)
from jiyi.core.ports import MemoryStore, SearchFilter, Vector
from jiyi.core.reconcile import Decision, reconcile
from jiyi.core.slots import (
    GENERIC_SUBJECTS,
    PART_TEXTS,
    PARTS,
    compatible,
    is_timeline_slot,
    remainder,
    same_value,
)
from jiyi.pipeline.dependents import source_episodes
from jiyi.pipeline.pending import Pending

__all__ = [
    "ACTIVE_MEMORIES",
    "KEYED_VALUES",
    "SWITCH",
    "batch_episodes",
    "decide",
    "resolve_named",
    "specialise",
]

NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
ACTIVE_MEMORIES = SearchFilter(kinds=NON_EPISODE)
# Values of slots keyed by their object (pref.茶 = like, health.allergy.花生 = yes).
KEYED_VALUES = frozenset({"like", "dislike", "yes", "no"})


def _active_in_slot(
    slot: str, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Active memories of ``slot``, stored or earlier in this batch, as this batch left them."""
    stored = [pending.current(m) for m in store.list(scope, ACTIVE_MEMORIES, topic=slot)]
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
    if not (c.is_correction or SWITCH.search(c.quote or c.content)):
        return []
    liked = [
        pending.current(m)
        for m in store.list(scope, SearchFilter(kinds=(MemoryKind.PREFERENCE,)))
        if m.topic and m.topic.startswith("pref.") and m.value == "like"
    ]
    # 点拿铁要换燕麦奶 → 改喝冷萃了: an order told by the type it was for goes with that type
    orders = [
        m
        for topic in _family_topics(c.topic or "")
        if topic != c.topic
        for m in _active_in_slot(topic, scope, store, pending)
        if _names_another_type(m.quote or m.content, parts[1], c.value or "")
    ]
    return orders + [
        m
        for m in liked
        if m.status == Status.ACTIVE
        and DRINKS.get((m.topic or ".").split(".", 1)[1].replace("_", " "), ("", False))[0]
        == parts[1]
    ]


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


def _milk_family(
    c: Candidate, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Milk now taken in a drink (``diet.coffee.milk`` = 加燕麦奶) contradicts the order that
    said it had none (``diet.coffee.type`` = 黑咖啡): a value of one slot implies another's."""
    parts = (c.topic or "").split(".")
    if len(parts) != 3 or parts[0] != "diet" or parts[2] != "milk":
        return []
    if c.metadata.get("polarity") != "like":
        return []
    return [
        m
        for m in _active_in_slot(f"diet.{parts[1]}.type", scope, store, pending)
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


def _holds(m: MemoryItem, wrong: str) -> bool:
    """Does stored memory ``m`` hold the value the user named as wrong?"""
    if not m.topic or m.kind == MemoryKind.EPISODE:
        return False
    if m.value in KEYED_VALUES:  # health.allergy.peanut = yes holds "peanuts"
        return m.topic.rsplit(".", 1)[-1] == normalize_object(wrong)
    return same_value(m.value, wrong)


def _swap(text: str, old: str, new: str) -> str:
    return re.sub(re.escape(old), lambda _: new, text, count=1, flags=re.IGNORECASE)


def resolve_named(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """A slot-less correction that names the wrong value ("I meant cashews, not peanuts")
    takes the slot of the one stored memory holding that value: the same slot with the new
    value, or for a keyed slot (``health.allergy.peanut`` = yes) its sibling
    (``health.allergy.cashew``). Found by value, never by similarity; None when no single
    slot holds it (the correction is then not stored as a fact)."""
    if c.topic or c.metadata.get("rule") != "bare.replaces":
        return c
    if not c.replaces or not c.value:
        return None
    held = [m for m in store.list(scope, ACTIVE_MEMORIES) if _holds(m, c.replaces)]
    if len({m.topic for m in held}) != 1:
        return None
    old = max(held, key=lambda m: (m.created_at, m.id))
    said = old.content if c.replaces.lower() in old.content.lower() else None
    update: dict[str, object] = {"kind": old.kind, "is_correction": True}
    if old.value in KEYED_VALUES:
        obj = normalize_object(c.value)
        if not obj or old.topic is None:
            return None
        update |= {"topic": f"{old.topic.rsplit('.', 1)[0]}.{obj}", "value": old.value}
    else:
        update |= {"topic": old.topic}
    if said:
        update["content"] = _swap(said, c.replaces, c.value)
    return c.model_copy(update=update)


def _family_topics(topic: str) -> list[str]:
    """The slots that may be stored together with ``topic`` in one memory (merge.fold_parts)."""
    for family in (("work.employer", "work.role"), ("identity.birth_year", "identity.zodiac")):
        if topic in family:
            return list(family)
    head = topic.rpartition(".")[0]
    if topic.startswith("diet.") and head.count(".") == 1:
        return [f"{head}.{a}" for a in ("type", "sugar", "milk", "ice", "size", "temperature")]
    return []


def _parts_slot(
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
        for m in _active_in_slot(topic, scope, store, pending):
            if c.topic in (m.metadata.get(PARTS) or {}) or topic in (c.metadata.get(PARTS) or {}):
                found.append(m)
    return found


def _decision(
    c: Candidate,
    vec: Vector,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
    cal: Calibration,
    embedder: str | None,
) -> Decision:
    same = _active_in_slot(c.topic, scope, store, pending) if c.topic else []
    if not same and (held := _parts_slot(c, scope, store, pending)):
        part = (held[0].metadata.get(PARTS) or {}).get(c.topic)
        if part is not None and same_value(part, c.value):
            return Decision(Action.NOOP, c, held[0])  # said again: refresh the whole memory
        same = held  # another value of the slot (or of a slot the candidate now holds)
    sibling = _sibling_slot(c)
    replaced = _active_in_slot(sibling, scope, store, pending) if sibling else []
    replaced = replaced or _drink_family(c, scope, store, pending)
    replaced = replaced or _milk_family(c, scope, store, pending)
    replaced = replaced or _generic_family(c, scope, store, pending)
    if c.topic and (same or replaced or not c.is_correction):
        return reconcile(c, same, [], cal, replaced)  # decided by slot alone
    # Only vectors of the embedder that made ``vec`` are comparable with it (see
    # pipeline/backfill.py); until the backfill ran, the slot rules above still decide.
    hits = store.vector_search(scope, vec, replace(ACTIVE_MEMORIES, embedder=embedder), 5)
    cos = dict(hits)
    similar = [(pending.current(m), cos[m.id]) for m in store.get_many(scope, [i for i, _ in hits])]
    active = [(m, s) for m, s in similar if m.status == Status.ACTIVE]
    return reconcile(c, same, active, cal, replaced)


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


def _new_memory(
    c: Candidate, scope: Scope, session_id: str | None, batch: str, now: datetime
) -> MemoryItem:
    return MemoryItem(
        id=new_id(),
        tenant=scope.tenant,
        user_id=scope.user_id,
        agent_id=scope.agent_id,
        kind=c.kind,
        topic=c.topic,
        value=c.value,
        content=c.content,
        importance=c.importance,
        confidence=c.confidence,
        origin=c.origin,
        source_message_ids=c.source_message_ids,
        session_id=session_id,
        quote=c.quote,
        created_at=now,
        observed_at=c.observed_at or now,
        valid_from=c.valid_from,
        valid_to=c.valid_to,
        expires_at=c.expires_at,
        metadata=dict(c.metadata),
        batch=batch,
        goal_status=GoalStatus.ACTIVE if c.kind == MemoryKind.GOAL else None,
        target_date=goal_target(c.content, c.observed_at or now)
        if c.kind == MemoryKind.GOAL
        else None,
    )


def _refresh(target: MemoryItem, c: Candidate, now: datetime) -> MemoryItem:
    return target.model_copy(
        update={
            "observed_at": max(target.observed_at, c.observed_at or now),
            "importance": max(target.importance, c.importance),
            "confidence": max(target.confidence, c.confidence),
            "source_message_ids": list(
                dict.fromkeys(target.source_message_ids + c.source_message_ids)
            ),
            # a goal said again is pursued again (core/goals.py rule 3)
            "goal_status": GoalStatus.ACTIVE
            if target.kind == MemoryKind.GOAL
            else target.goal_status,
        }
    )


def decide(
    c: Candidate,
    vec: Vector,
    *,
    scope: Scope,
    session_id: str | None,
    batch: str,
    store: MemoryStore,
    cal: Calibration,
    pending: Pending,
    life: lifecycle.LifecycleConfig = lifecycle.DEFAULT,
    embedder: str | None = None,
    embed: Callable[[str], Vector] | None = None,
) -> MemoryEvent:
    """Reconcile one admitted candidate, record the outcome in ``pending`` and return it.
    Saying a stored memory again reinforces it (and confirms an inferred one). ``embed``
    re-embeds a candidate whose content :func:`specialise` rewrote."""
    now = pending.now
    decision = _decision(c, vec, scope, store, pending, cal, embedder)
    target = decision.target
    if decision.action == Action.SUPERSEDE and target is not None:
        named = specialise(c, target)
        if named.content != c.content and embed is not None:
            vec = embed(named.content)
        c = named
    if decision.action == Action.NOOP and target is not None:
        used = lifecycle.confirm(lifecycle.reinforce(target, now, life), now, life)
        refreshed = _refresh(used, c, now)
        pending.change(refreshed, HistoryEntry.of(refreshed, Action.NOOP, now, reason="duplicate"))
        return MemoryEvent(event=Action.NOOP, memory=refreshed)
    new = _new_memory(c, scope, session_id, batch, now)
    if decision.action != Action.SUPERSEDE or target is None:
        pending.add(new, new.content, vec, HistoryEntry.of(new, Action.ADD, now))
        return MemoryEvent(event=Action.ADD, memory=new)
    said = c.observed_at or now
    old = target.model_copy(
        update={"status": Status.SUPERSEDED, "superseded_by": new.id, "valid_to": said}
    )
    new = new.model_copy(
        update={
            "version": old.version + 1,
            "valid_from": new.valid_from or said,
            "supersedes": old.id,
        }
    )
    reason = decision.reason
    pending.change(old, HistoryEntry.of(old, Action.SUPERSEDE, now, related=new.id, reason=reason))
    pending.add(new, new.content, vec, HistoryEntry.of(new, Action.ADD, now, related=old.id))
    _mark_outdated(old, new, scope, store, pending)
    _split_off(target, new, pending)
    for part in _order_parts(old, scope, store, pending):
        part = part.model_copy(
            update={"status": Status.SUPERSEDED, "superseded_by": new.id, "valid_to": said}
        )
        entry = HistoryEntry.of(part, Action.SUPERSEDE, now, related=new.id, reason=reason)
        pending.change(part, entry)
    return MemoryEvent(event=Action.SUPERSEDE, memory=new, previous=old)


def _order_parts(
    old: MemoryItem, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """A drink order is one unit: when its type is replaced ("My usual is a flat white with
    oat milk" → "I've switched to a cortado"), how the old drink was taken, said in the same
    message (``diet.coffee.milk`` = with oat milk), goes with it. Add-ins said on their own
    ("I take oat milk in my coffee") are kept: they are about the category, not that drink."""
    parts = (old.topic or "").split(".")
    src = set(old.source_message_ids)
    if len(parts) != 3 or parts[0] != "diet" or parts[2] != "type" or not src:
        return []
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


def _split_off(old: MemoryItem, new: MemoryItem, pending: Pending) -> None:
    """A superseded memory that held several slots (在人民医院当护士) keeps what the new one
    does not replace: 跳槽到市一院 retires the hospital, not the role. Each slot still true
    becomes a memory of its own with the text it was said with; never a silent loss."""
    parts = old.metadata.get(PARTS) or {}
    if not parts:
        return
    held = {**parts, **({old.topic: old.value} if old.topic and old.value else {})}
    kept = {new.topic or "", *(new.metadata.get(PARTS) or {})}
    meta = {k: v for k, v in old.metadata.items() if k not in (PARTS, PART_TEXTS)}
    for slot, value, text in remainder(held, old.metadata.get(PART_TEXTS) or {}, kept):
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


def _mark_outdated(
    old: MemoryItem, new: MemoryItem, scope: Scope, store: MemoryStore, pending: Pending
) -> None:
    """The episodes ``old`` came from say what is no longer true: give them ``valid_to`` and
    point them at the memory that replaced it (the user's words stay; reads rank them below
    the current value and label them)."""
    keep = set(new.source_message_ids)
    for ep in source_episodes(store, scope, old) + batch_episodes(old, pending):
        ep = pending.current(ep)
        if keep & set(ep.source_message_ids):
            continue  # the message that says the new value
        mark = {"valid_to": new.valid_from, "superseded_by": new.id}
        pending.change(ep.model_copy(update=mark), None)


def batch_episodes(m: MemoryItem, pending: Pending) -> list[MemoryItem]:
    """Episodes of this batch carrying any of ``m``'s source message ids."""
    src = set(m.source_message_ids)
    return [
        i.memory
        for i in pending.rows.values()
        if i.memory.kind == MemoryKind.EPISODE and src & set(i.memory.source_message_ids)
    ]
