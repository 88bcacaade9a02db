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
from jiyi.core.reconcile import USER_CORRECTION, Decision, parts_news, reconcile
from jiyi.core.slots import (
    PARTS,
    alias_slots,
    carry_over,
    same_value,
)
from jiyi.core.text import to_simplified
from jiyi.pipeline.dependents import source_episodes
from jiyi.pipeline.families import (
    KEYED_VALUES,
    active_in_slot,
    also_retired,
    parts_slot,
    replaced_by,
    specialise,
)
from jiyi.pipeline.pending import Pending
from jiyi.pipeline.promotions import promoted, renamed_kept
from jiyi.pipeline.splits import split_off
from jiyi.pipeline.swaps import swap_in_routine, swap_in_text

__all__ = [
    "ACTIVE_MEMORIES",
    "KEYED_VALUES",
    "batch_episodes",
    "decide",
    "mark_outdated",
    "resolve_named",
    "specialise",
]

NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
ACTIVE_MEMORIES = SearchFilter(kinds=NON_EPISODE)


def _holds(m: MemoryItem, wrong: str) -> bool:
    """Does stored memory ``m`` hold the value the user named as wrong?"""
    if not m.topic or m.kind == MemoryKind.EPISODE:
        return False
    if m.value in KEYED_VALUES:  # health.allergy.peanut = yes holds "peanuts"
        return m.topic.rsplit(".", 1)[-1] == normalize_object(wrong)
    return same_value(m.value, wrong) or _short_for(wrong, m.value or "")


def _short_for(said: str, value: str) -> bool:
    """Is ``said`` the stored ``value`` by its first words (幸福印象 of 幸福印象婚纱, "Royal
    Caribbean" of "Royal Caribbean Cruises"), at least half of it?"""
    said, value = to_simplified(said).casefold().strip(), to_simplified(value).casefold()
    if len(said) < 2 or len(said) * 2 < len(value) or said == value:
        return False
    if said.isascii():
        return value.startswith(said + " ")
    return value.startswith(said)


def _swap(text: str, old: str, new: str) -> str:
    return re.sub(re.escape(old), lambda _: new, text, count=1, flags=re.IGNORECASE)


def resolve_negated(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """A value said to hold no longer ("not 老师" of 我不当老师了, "not Tencent" of 我不在腾讯了)
    concerns its slot only if the slot holds it: beside another value (用户在阿里做产品经理) it
    says nothing about what is stored, and None (not stored as a fact) keeps it from
    superseding a value it never named."""
    value = c.value or ""
    if not c.topic or not value.startswith("not ") or c.topic.startswith(("family.", "pet.")):
        return c
    left = to_simplified(value[4:]).casefold().strip()
    # the slot's values, held by a memory of its own or as a part ("我在阿里做产品经理")
    held = [
        (str(v), m.content)
        for m in store.list(scope, ACTIVE_MEMORIES)
        if (v := m.value if m.topic == c.topic else (m.metadata.get(PARTS) or {}).get(c.topic))
    ]
    if not left or not held:
        return c
    for value, content in held:
        said = to_simplified(value).casefold()
        if left in said or said in left or left in to_simplified(content).casefold():
            return c
    return None


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
    # an unknown thing swapped ("ditched Procreate for Clip Studio") counts only where a
    # routine names it: the value of another slot is no Procreate
    routine = c.metadata.get("object") == "routine"
    held = (
        [] if routine else [m for m in store.list(scope, ACTIVE_MEMORIES) if _holds(m, c.replaces)]
    )
    if not held:
        return swap_in_routine(c, scope, store) or swap_in_text(c, scope, store)
    if len({m.topic for m in held}) != 1:
        return None
    old = max(held, key=lambda m: (m.created_at, m.id))
    # the whole stored value goes when it was named by its first words (幸福印象 → 花漾婚纱)
    wrong = old.value if old.value and _short_for(c.replaces, old.value) else c.replaces
    said = old.content if wrong.lower() in old.content.lower() else None
    update: dict[str, object] = {"kind": old.kind, "is_correction": True}
    if old.value in KEYED_VALUES:
        obj = normalize_object(c.value)
        if not obj or old.topic is None:
            return None
        update |= {"topic": f"{old.topic.rsplit('.', 1)[0]}.{obj}", "value": old.value}
    else:
        update |= {"topic": old.topic}
    if said:
        update["content"] = _swap(said, wrong, c.value)
    return c.model_copy(update=update)


def _decision(
    c: Candidate,
    vec: Vector,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
    cal: Calibration,
    embedder: str | None,
) -> Decision:
    same = active_in_slot(c.topic, scope, store, pending) if c.topic else []
    for other in alias_slots(c.topic) if c.topic and not same else ():
        same = same or active_in_slot(other, scope, store, pending)  # 调到成都 vs 住在西安
    mine = c.metadata.get(PARTS) or {}
    held = [  # (冻柠茶，少甜 said again beside 少甜 stored alone: that memory stays as it is)
        m
        for m in (parts_slot(c, scope, store, pending) if not same else [])
        if not (
            m.topic in mine
            and m.value
            and same_value(str(mine[m.topic]), str(m.value))
            and c.topic not in (m.metadata.get(PARTS) or {})  # (nor a part it holds changed)
        )
    ]
    if held:
        part = (held[0].metadata.get(PARTS) or {}).get(c.topic)
        says = {held[0].topic: held[0].value, **(held[0].metadata.get(PARTS) or {})}
        # 实验中学上初二 → 现在在外国语学校上初二: the same grade, another school
        if part is not None and same_value(part, c.value) and not parts_news(c, says):
            return Decision(Action.NOOP, c, held[0])  # said again: refresh the whole memory
        same = held  # another value of the slot (or of a slot the candidate now holds)
    replaced = replaced_by(c, scope, store, pending)
    if c.topic and (same or replaced or not c.is_correction):
        return reconcile(c, same, [], cal, replaced)  # decided by slot alone
    # Only vectors of the embedder that made ``vec`` are comparable with it (see
    # pipeline/backfill.py); until the backfill ran, the slot rules above still decide.
    hits = store.vector_search(scope, vec, replace(ACTIVE_MEMORIES, embedder=embedder), 5)
    cos = dict(hits)
    similar = [(pending.current(m), cos[m.id]) for m in store.get_many(scope, [i for i, _ in hits])]
    active = [(m, s) for m, s in similar if m.status == Status.ACTIVE]
    return reconcile(c, same, active, cal, replaced)


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
) -> list[MemoryEvent]:
    """Reconcile one admitted candidate, record the outcome in ``pending`` and return its
    events: the candidate's own first, then one SUPERSEDE per memory that went with what it
    replaced (:func:`jiyi.pipeline.families.also_retired`). Saying a stored memory again
    reinforces it (and confirms an inferred one). ``embed`` re-embeds a candidate whose
    content :func:`specialise` rewrote."""
    now = pending.now
    decision = _decision(c, vec, scope, store, pending, cal, embedder)
    target = decision.target
    if decision.action == Action.SUPERSEDE and target is not None:
        spec = specialise(c, target)
        named = promoted(spec, target)  # 提成值班主管: the employer stays
        named = renamed_kept(named, target)  # Theo is 6 → seven: Theo's name stays
        # "I'm a junior now" keeps "in college"; a new gym or doctor keeps nothing of the old
        # one's place ("Bannatyne's" is not "on Union Street"); a candidate told as the old
        # memory with its value swapped (just above) has its words already
        if (
            named.topic == target.topic
            and named is spec
            and not (named.topic or "").startswith("service.")
        ):
            text = carry_over(target.content, target.value, named.content, named.value)
            named = named.model_copy(update={"content": text})
        if named.content != c.content and embed is not None:
            vec = embed(named.content)
        c = named
    if decision.action == Action.NOOP and target is not None:
        used = lifecycle.confirm(lifecycle.reinforce(target, now, life), now, life)
        refreshed = _refresh(used, c, now)
        pending.change(refreshed, HistoryEntry.of(refreshed, Action.NOOP, now, reason="duplicate"))
        return [MemoryEvent(event=Action.NOOP, memory=refreshed)]
    new = _new_memory(c, scope, session_id, batch, now)
    said = c.observed_at or now
    if decision.action != Action.SUPERSEDE or target is None:
        pending.add(new, new.content, vec, HistoryEntry.of(new, Action.ADD, now))
        gone = also_retired(c, None, scope, store, pending)
        extra = _retire(gone, new, said, USER_CORRECTION, scope, store, pending)
        return [MemoryEvent(event=Action.ADD, memory=new), *extra]
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
    mark_outdated(old, new, scope, store, pending)
    _split_off(target, new, pending)
    gone = also_retired(c, target, scope, store, pending)
    extra = _retire(gone, new, said, reason, scope, store, pending)
    return [MemoryEvent(event=Action.SUPERSEDE, memory=new, previous=old), *extra]


def _retire(
    gone: list[MemoryItem],
    new: MemoryItem,
    said: datetime,
    reason: str,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
) -> list[MemoryEvent]:
    """Supersede ``gone`` by ``new`` (history kept, source episodes marked outdated)."""
    events = []
    for m in gone:
        if m.id == new.id:
            continue  # what the message says now is never retired by its own words
        m = m.model_copy(
            update={"status": Status.SUPERSEDED, "superseded_by": new.id, "valid_to": said}
        )
        entry = HistoryEntry.of(m, Action.SUPERSEDE, pending.now, related=new.id, reason=reason)
        pending.change(m, entry)
        mark_outdated(m, new, scope, store, pending, said)
        events.append(MemoryEvent(event=Action.SUPERSEDE, memory=new, previous=m))
    return events


def _split_off(old: MemoryItem, new: MemoryItem, pending: Pending) -> None:
    """A superseded memory that held several slots (在人民医院当护士) keeps what the new one
    does not replace: 跳槽到市一院 retires the hospital, not the role. Each slot still true
    becomes a memory of its own with the text it was said with; never a silent loss."""
    now = {**(new.metadata.get(PARTS) or {}), **({new.topic: new.value} if new.topic else {})}
    said = {new.topic or "", *(new.metadata.get(PARTS) or {})}
    if str(new.metadata.get("rule", "")).endswith("employer.own") and new.topic:
        # 开了自己的店 / "running her own shop": the old job goes with the old employer
        said |= {new.topic.replace(".employer", f".{attr}") for attr in ("job", "role")}
    if new.topic and re.search(r"retired|退休", str(new.value or ""), re.I):
        # "Papa took VRS, he's retired now": no employer any more either
        said |= {new.topic.rsplit(".", 1)[0] + ".employer", "work.employer"}
    split_off(old, said, now, pending)


def mark_outdated(
    old: MemoryItem,
    new: MemoryItem | None,
    scope: Scope,
    store: MemoryStore,
    pending: Pending,
    said: datetime | None = None,
) -> None:
    """The episodes ``old`` came from say what is no longer true: give them ``valid_to`` and
    point them at the memory that replaced it, if any (the user's words stay; reads rank them
    below the current value and label them)."""
    keep = set(new.source_message_ids) if new is not None else set()
    for ep in source_episodes(store, scope, old) + batch_episodes(old, pending):
        ep = pending.current(ep)
        if keep & set(ep.source_message_ids):
            continue  # the message that says the new value
        since = new.valid_from if new is not None else None
        mark = {"valid_to": since or said, "superseded_by": new.id if new is not None else None}
        pending.change(ep.model_copy(update=mark), None)


def batch_episodes(m: MemoryItem, pending: Pending) -> list[MemoryItem]:
    """Episodes of this batch carrying any of ``m``'s source message ids."""
    src = set(m.source_message_ids)
    return [
        i.memory
        for i in pending.rows.values()
        if i.memory.kind == MemoryKind.EPISODE and src & set(i.memory.source_message_ids)
    ]
