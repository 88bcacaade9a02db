"""Write path: redact → extract → episodes → admit → embed → reconcile → forget → apply.

The order matters: PII is removed before anything is extracted, embedded or stored, so no
store, index or cache ever sees it; forget requests run last so they can also retract what was
said earlier in the same batch; everything lands in ONE ChangeSet, applied atomically.

Served with a work queue the same path runs in two halves (:func:`stage` now, then
:func:`extract_staged` in ``jiyi worker``): redact → episodes → apply, and later extract →
admit → embed → reconcile → forget → apply, which also marks the batch's episodes
``metadata["extracted"] = True`` in that same transaction. The mark is what makes a retried
job idempotent: a batch whose episodes are all marked is done.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from jiyi.core.calibration import Calibration
from jiyi.core.ids import new_id
from jiyi.core.models import (
    Action,
    AddResult,
    Candidate,
    Extraction,
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
from jiyi.core.reconcile import Decision, reconcile
from jiyi.core.text import keyword_text, query_terms
from jiyi.errors import ExtractionError
from jiyi.pipeline.dependents import dependents

log = logging.getLogger(__name__)
NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)
ACTIVE_MEMORIES = SearchFilter(kinds=NON_EPISODE)


@dataclass(frozen=True)
class IngestOptions:
    """Write-path settings (see :class:`jiyi.config.MemoryConfig`)."""

    pii_policy: PiiPolicy = PiiPolicy.REDACT
    min_confidence: float = 0.5
    episode_importance: float = 0.3
    episode_context_turns: int = 1  # earlier turns prepended to an episode's embedding text


@dataclass(frozen=True)
class Ports:
    """What the write path talks to."""

    store: MemoryStore
    embedder: Embedder
    extractor: Extractor
    fallback: Extractor | None
    cal: Calibration


def _history(
    m: MemoryItem, action: Action, at: datetime, related: str | None = None, reason: str = ""
) -> HistoryEntry:
    return HistoryEntry.of(m, action, at, related=related, reason=reason)


@dataclass
class _Pending:
    """The batch's write, keyed by memory id so later steps (supersede, forget) can revise
    rows that are not stored yet."""

    now: datetime
    rows: dict[str, Indexed] = field(default_factory=dict)
    updates: dict[str, MemoryItem] = field(default_factory=dict)
    deletes: list[str] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    evict: list[str] = field(default_factory=list)  # texts whose cached vectors must go

    def add(self, m: MemoryItem, keywords: str, vec: Vector, entry: HistoryEntry) -> None:
        self.rows[m.id] = Indexed(m, keywords, vec)
        self.history.append(entry)

    def change(self, m: MemoryItem, entry: HistoryEntry) -> None:
        if m.id in self.rows:  # not stored yet: revise the pending row in place
            old = self.rows[m.id]
            self.rows[m.id] = Indexed(m, old.keywords, old.vector)
        else:
            self.updates[m.id] = m
        self.history.append(entry)

    def remove(self, m: MemoryItem, reason: str) -> None:
        if m.id in self.deletes:  # named twice (a forget target and a source episode)
            return
        self.evict.append(m.content)
        if self.rows.pop(m.id, None) is not None:  # said and retracted in one batch
            self.history = [h for h in self.history if h.memory_id != m.id]
            return
        self.updates.pop(m.id, None)
        self.deletes.append(m.id)
        self.history.append(_history(m, Action.DELETE, self.now, reason=reason))

    def changeset(self) -> ChangeSet:
        return ChangeSet(
            upserts=list(self.rows.values()),
            updates=list(self.updates.values()),
            deletes=self.deletes,
            history=self.history,
        )


def redact_messages(
    messages: list[Message], policy: PiiPolicy
) -> tuple[list[Message], list[Skipped], list[Redaction]]:
    """Apply the PII policy; return kept messages, skipped ones and redaction counts."""
    kept: list[Message] = []
    skipped: list[Skipped] = []
    totals: dict[str, int] = {}
    for m in messages:
        if policy is PiiPolicy.ALLOW:
            kept.append(m)
        elif policy is PiiPolicy.REJECT:
            kinds = sorted({f.kind for f in find_pii(m.content)})
            if kinds:
                reason = f"pii_rejected:{','.join(kinds)}"
                skipped.append(Skipped(text="[withheld: contains PII]", reason=reason))
            else:
                kept.append(m)
        else:
            text, found = redact_pii(m.content)
            for r in found:
                totals[r.kind] = totals.get(r.kind, 0) + r.count
            kept.append(m.model_copy(update={"content": text}))
    redactions = [Redaction(kind=k, count=n) for k, n in sorted(totals.items())]
    return kept, skipped, redactions


def episode_text(messages: Sequence[Message], i: int, context_turns: int) -> str:
    """What an episode is embedded and indexed as: the speaker and the turn, preceded by up
    to ``context_turns`` earlier turns (a reply like "Yes, last Tuesday!" means nothing
    without the question before it)."""

    def said(m: Message) -> str:
        return f"{m.name or m.role}: {m.content}"

    return "\n".join(said(m) for m in messages[max(0, i - context_turns) : i + 1])


def _extract(ports: Ports, messages: list[Message], now: datetime) -> Extraction:
    try:
        return ports.extractor.extract(messages, now=now)
    except ExtractionError as exc:
        if ports.fallback is None:
            raise
        log.warning(
            "extractor %s failed (%s); falling back to %s",
            ports.extractor.name,
            exc.code,
            ports.fallback.name,
        )
        return ports.fallback.extract(messages, now=now)


def _episodes(
    clean: list[Message],
    skip_ids: set[str | None],
    scope: Scope,
    session_id: str | None,
    now: datetime,
    batch: str,
    opts: IngestOptions,
    ids: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> tuple[list[MemoryItem], list[str]]:
    """Episodes of the kept messages; ``ids`` (message id → episode id) fixes their ids,
    ``extra`` is added to their metadata."""
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
                importance=opts.episode_importance,
                confidence=1.0,
                origin=Origin.USER_STATED if m.role == "user" else Origin.INFERRED,
                source_message_ids=[m.id] if m.id else [],
                session_id=session_id,
                created_at=now,
                observed_at=m.timestamp or now,
                metadata={
                    "role": m.role,
                    "name": m.name,
                    "batch": batch,
                    "pos": i,
                    **(extra or {}),
                },
            )
        )
        texts.append(episode_text(clean, i, opts.episode_context_turns))
    return episodes, texts


def _admit(
    candidates: list[Candidate], opts: IngestOptions
) -> tuple[list[Candidate], list[Skipped]]:
    """Only user-stated or confirmed, confident candidates; never assistant/system text."""
    admitted: list[Candidate] = []
    skipped: list[Skipped] = []
    for c in candidates:
        if c.role != "user" or c.origin == Origin.INFERRED:
            skipped.append(Skipped(text=c.quote or c.content, reason="not_user_stated"))
        elif c.confidence < opts.min_confidence:
            skipped.append(Skipped(text=c.quote or c.content, reason="low_confidence"))
        else:
            admitted.append(c)
    return admitted, skipped


def _decide(c: Candidate, vec: Vector, scope: Scope, ports: Ports, pending: _Pending) -> Decision:
    stored = ports.store.list(scope, ACTIVE_MEMORIES, topic=c.topic) if c.topic else []
    in_batch = [
        i.memory
        for i in pending.rows.values()
        if c.topic and i.memory.topic == c.topic and i.memory.status == Status.ACTIVE
    ]
    hits = ports.store.vector_search(scope, vec, ACTIVE_MEMORIES, 5)
    cos = dict(hits)
    similar = [(m, cos[m.id]) for m in ports.store.get_many(scope, [i for i, _ in hits])]
    return reconcile(c, stored + in_batch, similar, ports.cal)


def ingest(
    messages: list[Message],
    *,
    scope: Scope,
    session_id: str | None,
    infer: bool,
    now: datetime,
    ports: Ports,
    opts: IngestOptions,
) -> tuple[AddResult, list[str]]:
    """Run the write pipeline for one batch and apply it in one transaction.

    Returns the result and the texts whose cached embeddings must be evicted (deleted)."""
    batch = new_id()
    messages = _with_ids(messages)
    clean, skipped, redactions = redact_messages(messages, opts.pii_policy)
    extraction = _extract(ports, clean, now) if infer else Extraction()
    skipped += extraction.skipped
    # "别记这个" is not itself remembered, not even as an episode.
    forget_ids = {f.source_message_id for f in extraction.forget}
    episodes, episode_texts = _episodes(clean, forget_ids, scope, session_id, now, batch, opts)
    pending = _Pending(now)
    result = AddResult(redactions=redactions, skipped=skipped)
    _reconcile_batch(
        extraction,
        clean,
        episodes,
        episode_texts,
        scope=scope,
        session_id=session_id,
        batch=batch,
        ports=ports,
        opts=opts,
        pending=pending,
        result=result,
    )
    result.episodes = [e for e in episodes if e.id in pending.rows]
    ports.store.apply(scope, pending.changeset())
    return result, pending.evict


def _with_ids(messages: list[Message]) -> list[Message]:
    return [m if m.id else m.model_copy(update={"id": f"msg-{new_id()}"}) for m in messages]


def _reconcile_batch(
    extraction: Extraction,
    clean: list[Message],
    episodes: list[MemoryItem],
    episode_texts: list[str],
    *,
    scope: Scope,
    session_id: str | None,
    batch: str,
    ports: Ports,
    opts: IngestOptions,
    pending: _Pending,
    result: AddResult,
) -> None:
    """Admit → embed (the new episodes too, in one call) → reconcile → forget, into
    ``pending`` and ``result``."""
    now = pending.now
    admitted, rejected = _admit(extraction.candidates, opts)
    result.skipped += rejected

    vectors = ports.embedder.embed_documents(episode_texts + [c.content for c in admitted])
    for ep, text, vec in zip(episodes, episode_texts, vectors, strict=False):
        pending.add(ep, keyword_text(text), vec, _history(ep, Action.ADD, now, reason="episode"))

    for c, vec in zip(admitted, vectors[len(episodes) :], strict=True):
        decision = _decide(c, vec, scope, ports, pending)
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
            pending.change(refreshed, _history(refreshed, Action.NOOP, now, reason="duplicate"))
            result.events.append(MemoryEvent(event=Action.NOOP, memory=refreshed))
            continue
        new = MemoryItem(
            id=new_id(),
            tenant=scope.tenant,
            user_id=scope.user_id,
            agent_id=scope.agent_id,
            kind=c.kind,
            topic=c.topic,
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
        if decision.action == Action.SUPERSEDE and target is not None:
            old = target.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": new.id, "valid_to": now}
            )
            new = new.model_copy(
                update={
                    "version": old.version + 1,
                    "metadata": {**new.metadata, "supersedes": old.id},
                }
            )
            pending.change(old, _history(old, Action.SUPERSEDE, now, related=new.id))
            pending.add(
                new, keyword_text(new.content), vec, _history(new, Action.ADD, now, related=old.id)
            )
            result.events.append(MemoryEvent(event=Action.SUPERSEDE, memory=new, previous=old))
        else:
            pending.add(new, keyword_text(new.content), vec, _history(new, Action.ADD, now))
            result.events.append(MemoryEvent(event=Action.ADD, memory=new))

    for req in extraction.forget:
        targets = _forget_targets(req, scope, ports, pending, clean)
        if not targets:
            result.skipped.append(Skipped(text=req.text, reason="forget_no_match"))
        for t in targets:
            pending.remove(t, reason="forget")
            result.events = [e for e in result.events if e.memory.id != t.id]
            result.events.append(MemoryEvent(event=Action.DELETE, memory=t))
            # The user's own words go too (episodes of this batch or stored), and any
            # reflection derived from them.
            for dep in _pending_episodes(t, pending) + dependents(ports.store, scope, t):
                pending.remove(dep, reason="forget")


# -- deferred extraction (server with a work queue) ----------------------------------------


@dataclass(frozen=True)
class Staged:
    """A batch accepted for extraction later: what to write now and what the job carries.

    ``messages`` are already redacted (the job payload is stored too, so it must not hold
    PII); ``episode_ids`` maps message id → episode id so a retried job finds the episodes
    it wrote, or rebuilds the ones that were never written."""

    batch: str
    result: AddResult
    changes: ChangeSet
    messages: list[Message]
    episode_ids: dict[str, str]


def stage(
    messages: list[Message],
    *,
    scope: Scope,
    session_id: str | None,
    now: datetime,
    ports: Ports,
    opts: IngestOptions,
    batch: str | None = None,
) -> Staged:
    """The first half: redact and build the episodes (marked not yet extracted). Writes
    nothing; the caller enqueues the job, then applies ``changes``."""
    batch = batch or new_id()
    clean, skipped, redactions = redact_messages(_with_ids(messages), opts.pii_policy)
    episodes, texts = _episodes(
        clean, set(), scope, session_id, now, batch, opts, extra={"extracted": False}
    )
    pending = _Pending(now)
    for ep, text, vec in zip(episodes, texts, ports.embedder.embed_documents(texts), strict=True):
        pending.add(ep, keyword_text(text), vec, _history(ep, Action.ADD, now, reason="episode"))
    ids = {ep.source_message_ids[0]: ep.id for ep in episodes}
    result = AddResult(redactions=redactions, skipped=skipped, episodes=episodes)
    return Staged(batch, result, pending.changeset(), clean, ids)


def extract_staged(
    messages: list[Message],
    *,
    scope: Scope,
    session_id: str | None,
    batch: str,
    episode_ids: dict[str, str],
    now: datetime,
    ports: Ports,
    opts: IngestOptions,
) -> tuple[AddResult, list[str]] | None:
    """The second half, for a staged batch: extract, reconcile and mark its episodes
    extracted, in one transaction. None when there was nothing to do: every surviving
    episode is already marked (a retry after the commit), or all were deleted since.

    An episode that is missing and has no history was never written (the producer died
    between enqueueing and writing it): it is written now. One that is missing but has
    history was deleted (forget, delete) and stays deleted.
    """
    stored = {m.id: m for m in ports.store.get_many(scope, list(episode_ids.values()))}
    unwritten = {
        i
        for i in episode_ids.values()
        if i not in stored and not ports.store.history(scope.tenant, i)
    }
    if not unwritten and all(m.metadata.get("extracted") for m in stored.values()):
        return None
    extraction = _extract(ports, messages, now)
    forget_ids = {f.source_message_id for f in extraction.forget}
    pending = _Pending(now)
    for m in stored.values():
        if forget_ids & set(m.source_message_ids):  # "别记这个" is not kept as an episode
            pending.remove(m, reason="forget")
        else:  # a row update without a history line: the text did not change
            pending.updates[m.id] = m.model_copy(
                update={"metadata": {**m.metadata, "extracted": True}}
            )
    todo = [m for m in messages if episode_ids.get(m.id or "") in unwritten]
    episodes, texts = _episodes(
        messages,
        forget_ids,
        scope,
        session_id,
        now,
        batch,
        opts,
        ids=episode_ids,
        extra={"extracted": True},
    )
    keep = [
        (e, t)
        for e, t in zip(episodes, texts, strict=True)
        if e.source_message_ids and e.source_message_ids[0] in {m.id for m in todo}
    ]
    result = AddResult(skipped=list(extraction.skipped))
    _reconcile_batch(
        extraction,
        messages,
        [e for e, _ in keep],
        [t for _, t in keep],
        scope=scope,
        session_id=session_id,
        batch=batch,
        ports=ports,
        opts=opts,
        pending=pending,
        result=result,
    )
    result.episodes = [e for e, _ in keep if e.id in pending.rows]
    ports.store.apply(scope, pending.changeset())
    return result, pending.evict


def _pending_episodes(m: MemoryItem, pending: _Pending) -> list[MemoryItem]:
    """Episodes of this batch carrying any of ``m``'s source message ids."""
    src = set(m.source_message_ids)
    return [
        i.memory for i in pending.rows.values()
        if i.memory.kind == MemoryKind.EPISODE and src & set(i.memory.source_message_ids)
    ]


def _forget_targets(
    req: ForgetRequest, scope: Scope, ports: Ports, pending: _Pending, messages: list[Message]
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
        store = ports.store
        kw = store.keyword_search(scope, terms, ACTIVE_MEMORIES, 10)
        qv = ports.embedder.embed_query(req.target)
        close = {
            i
            for i, s in store.vector_search(scope, qv, ACTIVE_MEMORIES, 5)
            if s >= ports.cal.related
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
    stored = ports.store.list(scope, ACTIVE_MEMORIES)
    if not stored:
        return []
    latest_batch = max(stored, key=lambda m: m.id).metadata.get("batch")
    return [m for m in stored if m.metadata.get("batch") == latest_batch]
