"""The steps of the write path, shared by :func:`~jiyi.pipeline.ingest.ingest` and the
deferred (queued) extraction in :mod:`jiyi.pipeline.deferred`.

Each step either returns values or adds to a :class:`Pending` change set, keyed by memory id
so later steps (a supersede, a forget) can revise rows that are not stored yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from jiyi.core.calibration import Calibration
from jiyi.core.extraction.topics import normalize_object
from jiyi.core.ids import new_id
from jiyi.core.models import (
    Action,
    AddResult,
    Candidate,
    ForgetRequest,
    HistoryEntry,
    MemoryEvent,
    MemoryItem,
    MemoryKind,
    Message,
    Origin,
    Redaction,
    Scope,
    Skipped,
    Status,
)
from jiyi.core.pii import PiiPolicy, find_pii, redact_pii
from jiyi.core.ports import (
    ChangeSet,
    Embedder,
    Extractor,
    Indexed,
    MemoryStore,
    SearchFilter,
    Vector,
)
from jiyi.core.reconcile import reconcile
from jiyi.core.text import keyword_text, query_terms
from jiyi.pipeline.dependents import dependents, source_episodes
from jiyi.pipeline.edit import reindex_neighbours

NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
# Values of slots keyed by their object (pref.茶 = like, health.allergy.花生 = yes).
KEYED_VALUES = frozenset({"like", "dislike", "yes", "no"})
ACTIVE_MEMORIES = SearchFilter(kinds=NON_EPISODE)

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


@dataclass
class Pending:
    """One batch's write, keyed by memory id."""

    now: datetime
    rows: dict[str, Indexed] = field(default_factory=dict)
    updates: dict[str, MemoryItem] = field(default_factory=dict)
    deletes: list[str] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    evict: list[str] = field(default_factory=list)  # exact texts whose cached vectors must go
    embedded: dict[str, str] = field(default_factory=dict)  # memory id → the text embedded
    messages: list[str] = field(default_factory=list)  # caller message ids consumed
    removed: list[MemoryItem] = field(default_factory=list)  # what remove() took, as it was

    def add(self, m: MemoryItem, text: str, vec: Vector, entry: HistoryEntry) -> None:
        """A new row; ``text`` is what was embedded and indexed for it."""
        self.rows[m.id] = Indexed(m, keyword_text(text), vec)
        self.embedded[m.id] = text
        self.history.append(entry)

    def add_episode(self, ep: MemoryItem, text: str, vec: Vector) -> None:
        self.add(ep, text, vec, HistoryEntry.of(ep, Action.ADD, self.now, reason="episode"))

    def change(self, m: MemoryItem, entry: HistoryEntry | None) -> None:
        """A changed row whose text is unchanged; ``entry`` None: no history line (a mark)."""
        if m.id in self.rows:  # not stored yet: revise the pending row in place
            old = self.rows[m.id]
            self.rows[m.id] = Indexed(m, old.keywords, old.vector)
        else:
            self.updates[m.id] = m
        if entry is not None:
            self.history.append(entry)

    def current(self, m: MemoryItem) -> MemoryItem:
        """``m`` as this batch has left it so far."""
        if m.id in self.rows:
            return self.rows[m.id].memory
        return self.updates.get(m.id, m)

    def remove(self, m: MemoryItem, reason: str, embedded: str | None = None) -> None:
        """Hard-delete ``m``; ``embedded`` is the text its vector was made from, if known."""
        if m.id in self.deletes:  # named twice (a forget target and a source episode)
            return
        self.evict.append(self.embedded.get(m.id) or embedded or m.content)
        self.removed.append(m)
        if self.rows.pop(m.id, None) is not None:  # said and retracted in one batch
            self.history = [h for h in self.history if h.memory_id != m.id]
            return
        self.updates.pop(m.id, None)
        self.deletes.append(m.id)
        self.history.append(HistoryEntry.of(m, Action.DELETE, self.now, reason=reason))

    def changeset(self) -> ChangeSet:
        return ChangeSet(
            upserts=list(self.rows.values()),
            updates=list(self.updates.values()),
            deletes=self.deletes,
            history=self.history,
            messages=self.messages,
        )


# -- redact ---------------------------------------------------------------------------------


def redact_messages(
    messages: list[Message], policy: PiiPolicy
) -> tuple[list[Message], list[Skipped], list[Redaction]]:
    """Apply the PII policy to every text field of every message (content and speaker
    name); return kept messages, skipped ones and redaction counts."""
    kept: list[Message] = []
    skipped: list[Skipped] = []
    totals: dict[str, int] = {}
    for m in messages:
        texts = [m.content] + ([m.name] if m.name else [])
        if policy is PiiPolicy.ALLOW:
            kept.append(m)
        elif policy is PiiPolicy.REJECT:
            kinds = sorted({f.kind for t in texts for f in find_pii(t)})
            if kinds:
                reason = f"pii_rejected:{','.join(kinds)}"
                skipped.append(Skipped(text="[withheld: contains PII]", reason=reason))
            else:
                kept.append(m)
        else:
            content, found = redact_pii(m.content)
            name, found_in_name = redact_pii(m.name) if m.name else (None, [])
            for r in [*found, *found_in_name]:
                totals[r.kind] = totals.get(r.kind, 0) + r.count
            kept.append(m.model_copy(update={"content": content, "name": name}))
    redactions = [Redaction(kind=k, count=n) for k, n in sorted(totals.items())]
    return kept, skipped, redactions


# -- episodes -------------------------------------------------------------------------------


def episode_text(messages: Sequence[Message], i: int, context_turns: int) -> str:
    """What an episode is embedded and indexed as: the speaker and the turn, preceded by up
    to ``context_turns`` earlier turns (a reply like "Yes, last Tuesday!" means nothing
    without the question before it)."""

    def said(m: Message) -> str:
        return f"{m.name or m.role}: {m.content}"

    return "\n".join(said(m) for m in messages[max(0, i - context_turns) : i + 1])


def build_episodes(
    clean: list[Message],
    skip_ids: set[str | None],
    *,
    scope: Scope,
    session_id: str | None,
    now: datetime,
    batch: str,
    importance: float,
    context_turns: int,
    ids: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | None = None,
    expires: Mapping[str, datetime] | None = None,
) -> tuple[list[MemoryItem], list[str]]:
    """Episodes of the kept messages and the texts to embed for them. ``ids`` (message id →
    episode id) fixes their ids, ``extra`` is added to their metadata, ``expires`` (message
    id → time) gives transient remarks an expiry."""
    episodes: list[MemoryItem] = []
    texts: list[str] = []
    for i, m in enumerate(clean):
        if m.id in skip_ids or not m.content.strip():
            continue
        episodes.append(
            MemoryItem(
                id=(ids or {}).get(m.id or "") or new_id(),
                tenant=scope.tenant,
                user_id=scope.user_id,
                agent_id=scope.agent_id,
                kind=MemoryKind.EPISODE,
                content=m.content,
                importance=importance,
                confidence=1.0,
                origin=Origin.USER_STATED if m.role == "user" else Origin.INFERRED,
                source_message_ids=[m.id] if m.id else [],
                session_id=session_id,
                created_at=now,
                observed_at=m.timestamp or now,
                expires_at=(expires or {}).get(m.id or ""),
                metadata={
                    "role": m.role,
                    "name": m.name,
                    "batch": batch,
                    "pos": i,
                    **(extra or {}),
                },
            )
        )
        texts.append(episode_text(clean, i, context_turns))
    return episodes, texts


# -- admit ----------------------------------------------------------------------------------


def split_admitted(
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


# -- reconcile ------------------------------------------------------------------------------


def _active_in_slot(
    slot: str, scope: Scope, store: MemoryStore, pending: Pending
) -> list[MemoryItem]:
    """Active memories of ``slot``, stored or earlier in this batch, as this batch left them."""
    stored = [pending.current(m) for m in store.list(scope, ACTIVE_MEMORIES, topic=slot)]
    batch = [i.memory for i in pending.rows.values() if i.memory.topic == slot]
    return [m for m in stored + batch if m.status == Status.ACTIVE and m.kind != MemoryKind.EPISODE]


def _sibling_slot(c: Candidate) -> str | None:
    """For a keyed slot (the object is the last segment and the value a polarity:
    ``health.allergy.almond`` = yes), the slot of the object ``c.replaces`` names."""
    if not c.topic or not c.replaces or c.value not in KEYED_VALUES or "." not in c.topic:
        return None
    obj = normalize_object(c.replaces)
    return f"{c.topic.rsplit('.', 1)[0]}.{obj}" if obj else None


def _candidates_for(
    c: Candidate, vec: Vector, scope: Scope, store: MemoryStore, pending: Pending
) -> tuple[list[MemoryItem], list[tuple[MemoryItem, float]], list[MemoryItem]]:
    """Active memories of ``c``'s slot, of the slot of the value it says was wrong, and —
    only when the rules need them — similar memories with their cosines."""
    same = _active_in_slot(c.topic, scope, store, pending) if c.topic else []
    sibling = _sibling_slot(c)
    replaced = _active_in_slot(sibling, scope, store, pending) if sibling else []
    if c.topic and (same or replaced or not c.is_correction):
        return same, [], replaced  # reconcile() decides by slot alone
    hits = store.vector_search(scope, vec, ACTIVE_MEMORIES, 5)
    cos = dict(hits)
    similar = [(pending.current(m), cos[m.id]) for m in store.get_many(scope, [i for i, _ in hits])]
    return same, [(m, s) for m, s in similar if m.status == Status.ACTIVE], replaced


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
        metadata={**c.metadata, "batch": batch},
    )


def decide_and_apply(
    admitted: list[Candidate],
    vectors: npt.NDArray[np.float32],
    *,
    scope: Scope,
    session_id: str | None,
    batch: str,
    store: MemoryStore,
    cal: Calibration,
    pending: Pending,
    result: AddResult,
) -> None:
    """Reconcile each admitted candidate (in order) and record the outcome: a refresh, a
    new memory, or a new memory that supersedes an old one — whose source episodes are then
    marked outdated (``valid_to`` and ``superseded_by``) so reads can rank and label them."""
    now = pending.now
    for c, vec in zip(admitted, vectors, strict=True):
        same, similar, replaced = _candidates_for(c, vec, scope, store, pending)
        decision = reconcile(c, same, similar, cal, replaced)
        target = decision.target
        if decision.action == Action.NOOP and target is not None:
            refreshed = target.model_copy(
                update={
                    "observed_at": max(target.observed_at, c.observed_at or now),
                    "importance": max(target.importance, c.importance),
                    "confidence": max(target.confidence, c.confidence),
                    "source_message_ids": list(
                        dict.fromkeys(target.source_message_ids + c.source_message_ids)
                    ),
                }
            )
            pending.change(
                refreshed, HistoryEntry.of(refreshed, Action.NOOP, now, reason="duplicate")
            )
            result.events.append(MemoryEvent(event=Action.NOOP, memory=refreshed))
            continue
        new = _new_memory(c, scope, session_id, batch, now)
        if decision.action == Action.SUPERSEDE and target is not None:
            said = c.observed_at or now
            old = target.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": new.id, "valid_to": said}
            )
            new = new.model_copy(
                update={
                    "version": old.version + 1,
                    "valid_from": new.valid_from or said,
                    "metadata": {**new.metadata, "supersedes": old.id},
                }
            )
            entry = HistoryEntry.of(
                old, Action.SUPERSEDE, now, related=new.id, reason=decision.reason
            )
            pending.change(old, entry)
            pending.add(
                new, new.content, vec, HistoryEntry.of(new, Action.ADD, now, related=old.id)
            )
            _mark_outdated(old, new, scope, store, pending)
            result.events.append(MemoryEvent(event=Action.SUPERSEDE, memory=new, previous=old))
        else:
            pending.add(new, new.content, vec, HistoryEntry.of(new, Action.ADD, now))
            result.events.append(MemoryEvent(event=Action.ADD, memory=new))


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
        pending.change(
            ep.model_copy(update={"valid_to": new.valid_from, "superseded_by": new.id}), None
        )


def batch_episodes(m: MemoryItem, pending: Pending) -> list[MemoryItem]:
    """Episodes of this batch carrying any of ``m``'s source message ids."""
    src = set(m.source_message_ids)
    return [
        i.memory
        for i in pending.rows.values()
        if i.memory.kind == MemoryKind.EPISODE and src & set(i.memory.source_message_ids)
    ]


# -- forget ---------------------------------------------------------------------------------


def forget_all(
    requests: list[ForgetRequest],
    messages: list[Message],
    *,
    scope: Scope,
    store: MemoryStore,
    embedder: Embedder,
    cal: Calibration,
    pending: Pending,
    result: AddResult,
    context_turns: int,
) -> None:
    """Hard-delete what each forget request names, with its older versions, the episodes
    they came from (the user's own words) and reflections derived from them — and re-index
    the episodes that carried a deleted turn as context (this batch's and stored ones)."""
    _forget(requests, messages, scope, store, embedder, cal, pending, result)
    gone = [m for m in pending.removed if m.kind == MemoryKind.EPISODE]
    if not gone or context_turns <= 0:
        return
    _rebuild_batch(
        messages, {i for m in gone for i in m.source_message_ids}, pending, embedder, context_turns
    )
    stored = [m for m in gone if m.id in pending.deletes]
    fix = reindex_neighbours(store, embedder, scope, stored, context_turns)
    for up in fix.changes.upserts:
        if up.memory.id in pending.deletes or up.memory.id in pending.rows:
            continue
        current = pending.updates.pop(up.memory.id, up.memory)
        pending.rows[up.memory.id] = Indexed(current, up.keywords, up.vector)
    pending.evict += fix.evict


def _rebuild_batch(
    messages: list[Message],
    gone_ids: set[str],
    pending: Pending,
    embedder: Embedder,
    context_turns: int,
) -> None:
    """Episodes of this batch whose context window held a removed turn, embedded again
    without it."""
    kept = [m for m in messages if m.id not in gone_ids]
    pos = {m.id: i for i, m in enumerate(kept)}
    for mid, row in list(pending.rows.items()):
        ep = row.memory
        if ep.kind != MemoryKind.EPISODE or not ep.source_message_ids:
            continue
        i = pos.get(ep.source_message_ids[0])
        if i is None:
            continue
        text = episode_text(kept, i, context_turns)
        if text == pending.embedded.get(mid):
            continue
        pending.evict.append(pending.embedded.get(mid, ""))
        pending.rows[mid] = Indexed(ep, keyword_text(text), embedder.embed_documents([text])[0])
        pending.embedded[mid] = text


def _forget(
    requests: list[ForgetRequest],
    messages: list[Message],
    scope: Scope,
    store: MemoryStore,
    embedder: Embedder,
    cal: Calibration,
    pending: Pending,
    result: AddResult,
) -> None:
    for req in requests:
        targets = _forget_targets(req, scope, store, embedder, cal, pending, messages)
        if not targets:
            result.skipped.append(Skipped(text=req.text, reason="forget_no_match"))
        for t in targets:
            pending.remove(t, reason="forget")
            result.events = [e for e in result.events if e.memory.id != t.id]
            result.events.append(MemoryEvent(event=Action.DELETE, memory=t))
            for dep in batch_episodes(t, pending) + dependents(store, scope, t):
                pending.remove(dep, reason="forget")


def _forget_targets(
    req: ForgetRequest,
    scope: Scope,
    store: MemoryStore,
    embedder: Embedder,
    cal: Calibration,
    pending: Pending,
    messages: list[Message],
) -> list[MemoryItem]:
    """The memories a forget request names: those matching its target, or — with no target —
    those from the user's previous message (in this batch, else the latest stored batch)."""
    new = [i.memory for i in pending.rows.values() if i.memory.kind != MemoryKind.EPISODE]
    if req.target:
        terms = query_terms(req.target)

        def names(m: MemoryItem) -> bool:
            toks = set(keyword_text(m.content).split())
            return bool(terms) and all(t in toks for t in terms)

        found = {m.id: m for m in new if names(m)}
        kw = store.keyword_search(scope, terms, ACTIVE_MEMORIES, 10)
        qv = embedder.embed_query(req.target)
        close = {
            i for i, s in store.vector_search(scope, qv, ACTIVE_MEMORIES, 5) if s >= cal.related
        }
        for m in store.get_many(scope, [i for i, _ in kw] + sorted(close)):
            if m.id in close or names(m):
                found.setdefault(m.id, m)
        return list(found.values())
    ids = [m.id for m in messages]
    pos = ids.index(req.source_message_id) if req.source_message_id in ids else len(ids)
    earlier = [m for m in messages[:pos] if m.role == "user"]
    if earlier:
        said = [m for m in new if earlier[-1].id in m.source_message_ids]
        if said:
            return said
    stored = store.list(scope, ACTIVE_MEMORIES)
    if not stored:
        return []
    latest_batch = max(stored, key=lambda m: m.id).metadata.get("batch")
    return [m for m in stored if m.metadata.get("batch") == latest_batch]
