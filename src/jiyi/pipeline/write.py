"""One write path: :func:`write_batch` turns a planned batch into one change set.

Both :func:`jiyi.pipeline.ingest.ingest` (everything now) and the two halves of the queued
path (:mod:`jiyi.pipeline.deferred`: episodes now, extraction later) describe what they want
as a :class:`BatchPlan` and call it; the steps, in order:

    admit → episodes → goal reports → embed (one call) → decide each candidate → forget
    → ChangeSet

Each step is a function returning values (``admit``, ``build_episodes``, ``decide``,
``forget``); the only state is the :class:`Pending` write they fill.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from jiyi.core.calibration import Calibration
from jiyi.core.extraction.importance import is_momentary
from jiyi.core.extraction.others_news import others_news
from jiyi.core.extraction.quoted import own_messages
from jiyi.core.lifecycle import DEFAULT as DEFAULT_LIFECYCLE
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.models import (
    Action,
    AddResult,
    Candidate,
    Extraction,
    HistoryEntry,
    MemoryEvent,
    MemoryItem,
    MemoryKind,
    Message,
    Origin,
    Redaction,
    Scope,
    Skipped,
)
from jiyi.core.ports import ChangeSet, Embedder, Extractor, MemoryStore, Vector
from jiyi.pipeline.anaphora import changed_facts, without_vague
from jiyi.pipeline.answers import answered_swaps
from jiyi.pipeline.decide import KEYED_VALUES, decide, resolve_named, resolve_negated
from jiyi.pipeline.dose_swap import dose_swaps, switched_alone
from jiyi.pipeline.favorites import favourite_swaps
from jiyi.pipeline.forget import forget
from jiyi.pipeline.fromto import from_to_swaps
from jiyi.pipeline.goals import settle_goals
from jiyi.pipeline.kin_news import kin_news
from jiyi.pipeline.learned_change import learned_changes
from jiyi.pipeline.left_for import left_for_swaps
from jiyi.pipeline.pending import Pending
from jiyi.pipeline.pet_age import pet_ages
from jiyi.pipeline.prepare import build_episodes, episode_text
from jiyi.pipeline.pronoun_names import pronoun_names
from jiyi.pipeline.retract import retire_retracted, switched_values
from jiyi.pipeline.subjects import resolve_kin_side, resolve_routine, resolve_subject, resolve_time
from jiyi.pipeline.typed_swap import typed_swaps

__all__ = [
    "ADMISSION_FLOORS",
    "KEYED_VALUES",
    "BatchPlan",
    "Outcome",
    "Ports",
    "WriteOptions",
    "admit",
    "episode_text",
    "split_admitted",
    "write_batch",
]

# The least importance a long-term memory of each kind needs (0..1, from
# jiyi.core.extraction.importance). A stated fact or preference scores 0.5-0.6 before any
# boost and a dated plan 0.3-0.35; a momentary remark ("今天好热想喝冰咖啡", "I'm starving")
# is marked down below its kind's floor and stays an episode only.
ADMISSION_FLOORS: dict[str, float] = {
    MemoryKind.FACT: 0.45,
    MemoryKind.PREFERENCE: 0.4,
    MemoryKind.GOAL: 0.4,
    MemoryKind.STATE: 0.3,
    MemoryKind.EVENT: 0.25,
    MemoryKind.SUMMARY: 0.0,
}


@dataclass(frozen=True)
class Ports:
    """What the write path talks to."""

    store: MemoryStore
    embedder: Embedder
    extractor: Extractor
    fallback: Extractor | None
    cal: Calibration


@dataclass(frozen=True)
class BatchPlan:
    """What one write should do.

    Attributes:
        messages: the whole batch, redacted, with ids (context for episodes and forgets).
        extraction: what was extracted from it (empty when nothing is extracted now).
        store_ids: message ids whose episode this write adds.
        episode_ids: message id → fixed episode id (a queued batch knows them in advance).
        episode_extracted: the ``extracted`` mark of new episodes (queued path), else None.
        marks: stored episodes of the batch to mark ``extracted`` (the queued second half).
        consumed: caller message ids this write consumes (re-deliveries are skipped).
        skipped, redactions: what the earlier steps already decided, for the result.
    """

    scope: Scope
    session_id: str | None
    batch: str
    now: datetime
    messages: list[Message]
    extraction: Extraction = field(default_factory=Extraction)
    store_ids: frozenset[str] = frozenset()
    episode_ids: Mapping[str, str] = field(default_factory=dict)
    episode_extracted: bool | None = None
    marks: list[MemoryItem] = field(default_factory=list)
    consumed: list[str] = field(default_factory=list)
    extracted: bool = False  # extraction ran on this batch (else nothing is judged transient)
    skipped: list[Skipped] = field(default_factory=list)
    redactions: list[Redaction] = field(default_factory=list)


@dataclass(frozen=True)
class WriteOptions:
    """Write-path settings (see :class:`jiyi.config.MemoryConfig`)."""

    min_confidence: float = 0.5
    episode_importance: float = 0.3
    episode_context_turns: int = 1
    admission_floors: Mapping[str, float] = field(default_factory=lambda: dict(ADMISSION_FLOORS))
    transient_ttl: timedelta = timedelta(days=7)
    lifecycle: LifecycleConfig = DEFAULT_LIFECYCLE  # restating reinforces (and confirms)
    change_threshold: float | None = None  # the learned change step (None: off)


@dataclass(frozen=True)
class Outcome:
    """What a write did (``result``), what to apply (``changes``, one transaction) and the
    exact texts whose cached embeddings must go (``evict``)."""

    result: AddResult
    changes: ChangeSet
    evict: list[str]


def admit(
    candidates: list[Candidate], min_confidence: float, floors: Mapping[str, float]
) -> tuple[list[Candidate], list[Skipped], set[str]]:
    """Only user-stated or confirmed, confident, important-enough candidates; never
    assistant/system text. Returns the admitted, the skipped (with reasons) and the ids of
    messages whose only candidates were transient remarks (their episodes get a TTL)."""
    admitted: list[Candidate] = []
    skipped: list[Skipped] = []
    transient: set[str] = set()
    for c in candidates:
        if c.role != "user" or c.origin == Origin.INFERRED:
            skipped.append(Skipped(text=c.quote or c.content, reason="not_user_stated"))
        elif c.confidence < min_confidence:
            skipped.append(Skipped(text=c.quote or c.content, reason="low_confidence"))
        elif c.importance < floors.get(c.kind, 0.0):
            skipped.append(Skipped(text=c.quote or c.content, reason="transient"))
            transient.update(c.source_message_ids)
        else:
            admitted.append(c)
    for c in admitted:
        transient -= set(c.source_message_ids)
    return admitted, skipped, transient


split_admitted = admit  # the name the extraction tests use


def _mark(m: MemoryItem, transient: set[str], plan: BatchPlan, opts: WriteOptions) -> MemoryItem:
    update: dict[str, object] = {"extracted": True}
    if transient & set(m.source_message_ids):
        update["expires_at"] = plan.now + opts.transient_ttl
    return m.model_copy(update=update)


def _unplaced_remarks(plan: BatchPlan) -> set[str]:
    """Passing remarks no rule placed ("I'm starving right now"): their episodes expire too."""
    if not plan.extracted:
        return set()
    placed = {i for c in plan.extraction.candidates for i in c.source_message_ids}
    return {
        m.id
        for m in plan.messages
        if m.id and m.role == "user" and m.id not in placed and is_momentary(m.content)
    }


def _episodes(
    plan: BatchPlan, opts: WriteOptions, forget_ids: set[str | None], transient: set[str]
) -> list[tuple[MemoryItem, str]]:
    """The batch's episodes and the text each is embedded as ("别记这个" turns left out;
    passing remarks get the transient TTL)."""
    return build_episodes(
        plan.messages,
        {i for i in plan.store_ids if i not in forget_ids},
        scope=plan.scope,
        session_id=plan.session_id,
        now=plan.now,
        batch=plan.batch,
        importance=opts.episode_importance,
        context_turns=opts.episode_context_turns,
        ids=plan.episode_ids,
        extracted=plan.episode_extracted,
        expires={i: plan.now + opts.transient_ttl for i in transient},
    )


def _add_splits(pending: Pending, embedder: Embedder) -> None:
    """The slots superseded memories still hold, as memories of their own (decide._split_off)."""
    if not pending.splits:
        return
    vectors = embedder.embed_documents([m.content for m, _ in pending.splits])
    for (m, old_id), vec in zip(pending.splits, vectors, strict=True):
        entry = HistoryEntry.of(m, Action.ADD, pending.now, related=old_id, reason="split")
        pending.add(m, m.content, vec, entry)


def _settle(
    admitted: list[Candidate],
    fresh: list[Message],
    plan: BatchPlan,
    ports: Ports,
    pending: Pending,
) -> list[Candidate]:
    """The candidates once the batch settled what it says about stored memories, before
    embedding: a goal reported done ("我跑完马拉松了": completed, not restated), the slot of a
    correction that names the wrong value ("I meant cashews, not peanuts"), and the
    replacement of a retracted value ("switched from green tea to rooibos": the tea's slot), and
    a new value of a typed kind in the one fact of that kind (游泳挪到周五了: the swim's slot),
    and a change no rule made a fact of in the slot of the one fact it is about."""
    scope, store = plan.scope, ports.store
    if plan.extracted:
        admitted = settle_goals(fresh, admitted, scope=scope, store=store, pending=pending)
    # "Luna turned four": the slot of the pet or relative of that name; a new time for the
    # one routine; "I meant cashews, not peanuts": the slot holding the named value
    admitted = [r for c in admitted if (r := resolve_subject(c, scope, store)) is not None]
    admitted = [resolve_kin_side(c, scope, store) for c in admitted]  # 我家那位 → the wife
    admitted = [r for c in admitted if (r := resolve_time(c, scope, store)) is not None]
    # "basketball's on Saturdays now": the one routine whose slot names it (pickup basketball)
    admitted = [resolve_routine(c, scope, store) for c in admitted]
    admitted = [r for c in admitted if (r := resolve_named(c, scope, store)) is not None]
    # 我不在腾讯了 beside 用户在阿里工作: a leaving of what the slot never held changes nothing
    admitted = [r for c in admitted if (r := resolve_negated(c, scope, store)) is not None]
    if plan.extracted:
        admitted += switched_values(fresh, admitted, scope=scope, store=store)
        # 现在最喜欢凤凰传奇 / "switched to the Browns": the one favourite of that kind
        admitted += favourite_swaps(fresh, admitted, scope=scope, store=store)
        # 从土木转到计算机了: the new value in the one fact that holds the old one
        admitted = from_to_swaps(fresh, admitted, scope=scope, store=store)
        # 游泳挪到周五了: a new weekday / time / count in the one fact holding that kind
        admitted += typed_swaps(fresh, admitted, scope=scope, store=store)
        # 二甲双胍加到一次八百五 / "bumped my metformin up to a thousand mg": the dose
        admitted += dose_swaps(fresh, admitted, scope=scope, store=store)
        # 给我换成缬沙坦了: the user's one other medicine stopped
        admitted += switched_alone(fresh, admitted, scope=scope, store=store)
        # 兽医说它至少八岁了 / "the vet figures she's closer to fifteen": the named pet's age
        admitted += pet_ages(fresh, admitted, scope=scope, store=store)
        # 羽毛球场地换到奥森了, no fact of its own: said in the one badminton fact's slot,
        # found by a shared word, never by similarity
        changes = changed_facts(admitted, fresh, scope=scope, store=store)
        admitted = without_vague(admitted, changes) + changes
        # 她现在改名叫朵儿了 / "he's Oliver": the one name a pronoun can stand for
        admitted += pronoun_names(fresh, admitted, scope=scope, store=store)
        # "left shopify in august, been at stripe since": the one fact holding the old value
        admitted = left_for_swaps(fresh, admitted, scope=scope, store=store)
        # "he moved to Sydney last month" kept as what the son did: the son's one city
        admitted = kin_news(fresh, admitted, scope=scope, store=store)
        # "Do you still live in Denver?" — "nope, Austin now": the value the question named
        admitted = answered_swaps(
            plan.messages, fresh, admitted, scope=scope, store=store, now=plan.now
        )
    # "Chai, Emeka don resign from GTBank o! He's moved to Abuja now": someone else's news
    # from start to end changes nothing of the user's own (a relative's or pet's fact stays)
    if not any(_users(c) for c in admitted):
        return admitted
    news = {m.id or "" for m in fresh if m.role == "user" and m.content and others_news(m.content)}
    return [c for c in admitted if not (news and _from(c, news) and _users(c))]


def _from(c: Candidate, ids: set[str]) -> bool:
    return bool(c.source_message_ids) and set(c.source_message_ids) <= ids


def _users(c: Candidate) -> bool:
    return not (c.topic or "").startswith(("family.", "pet."))


def _decide_all(
    found: list[Candidate],
    vectors: Vector,  # one row per candidate
    plan: BatchPlan,
    ports: Ports,
    pending: Pending,
    opts: WriteOptions,
) -> list[MemoryEvent]:
    """Reconcile each candidate with its vector, in order (:func:`decide`); their events."""
    events: list[MemoryEvent] = []
    for c, vec in zip(found, vectors, strict=True):
        events += decide(
            c,
            vec,
            scope=plan.scope,
            session_id=plan.session_id,
            batch=plan.batch,
            store=ports.store,
            cal=ports.cal,
            pending=pending,
            life=opts.lifecycle,
            embedder=ports.embedder.name,
            embed=lambda text: ports.embedder.embed_documents([text])[0],
        )
    return events


def write_batch(plan: BatchPlan, *, ports: Ports, opts: WriteOptions) -> Outcome:
    """Run the steps for ``plan`` and return the outcome; nothing is written here."""
    ex = plan.extraction
    admitted, rejected, transient = admit(ex.candidates, opts.min_confidence, opts.admission_floors)
    transient |= _unplaced_remarks(plan)
    forget_ids = {f.source_message_id for f in ex.forget}  # "别记这个" is not itself kept
    pending = Pending(plan.now, messages=list(plan.consumed))
    for m in plan.marks:
        if forget_ids & set(m.source_message_ids):
            pending.remove(m, reason="forget")
        else:  # a row update without a history line: the text did not change
            pending.change(_mark(m, transient, plan, opts), None)
    episodes = _episodes(plan, opts, forget_ids, transient)
    fresh = [m for m in plan.messages if m.id in plan.store_ids or m.id in plan.episode_ids]
    fresh = own_messages(fresh)  # the steps below never read someone else's quoted words
    admitted = _settle(admitted, fresh, plan, ports, pending)
    texts = [t for _, t in episodes] + [c.content for c in admitted]
    vectors = ports.embedder.embed_documents(texts)  # one call for the whole batch
    for (ep, text), vec in zip(episodes, vectors, strict=False):
        pending.add_episode(ep, text, vec)
    result = AddResult(
        redactions=list(plan.redactions), skipped=[*plan.skipped, *ex.skipped, *rejected]
    )
    result.events += _decide_all(admitted, vectors[len(episodes) :], plan, ports, pending, opts)
    if plan.extracted:  # "虾没事" / "I gave up sugar": what the messages explicitly retract
        result.events += retire_retracted(
            fresh, result.events, scope=plan.scope, store=ports.store, pending=pending
        )
        # a told change no rule placed (opt-in): the fact the learned score picks
        found = learned_changes(
            fresh,
            result.events,
            admitted,
            scope=plan.scope,
            store=ports.store,
            embedder=ports.embedder,
            threshold=opts.change_threshold,
        )
        if found:
            vecs = ports.embedder.embed_documents([c.content for c in found])
            result.events += _decide_all(found, vecs, plan, ports, pending, opts)
    _add_splits(pending, ports.embedder)
    deleted, unmatched = forget(
        ex.forget,
        plan.messages,
        scope=plan.scope,
        store=ports.store,
        embedder=ports.embedder,
        pending=pending,
        context_turns=opts.episode_context_turns,
    )
    gone = {e.memory.id for e in deleted}
    result.events = [e for e in result.events if e.memory.id not in gone] + deleted
    result.skipped += unmatched
    result.episodes = [ep for ep, _ in episodes if ep.id in pending.rows]
    return Outcome(result, pending.changeset(), pending.evict)
