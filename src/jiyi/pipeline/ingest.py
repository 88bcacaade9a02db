"""Write path: redact → extract → admit → embed → reconcile → forget → one atomic write.

The order matters: PII is removed before anything is extracted, embedded or stored, so no
store, index or cache ever sees it; forget requests are resolved last so they can remove
memories written earlier in the same batch.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from jiyi.core.calibration import Calibration
from jiyi.core.ids import content_hash, new_id
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
from jiyi.core.ports import ChangeSet, Embedder, Extractor, Indexed, MemoryStore, SearchFilter
from jiyi.core.reconcile import reconcile
from jiyi.core.text import keyword_text, query_terms
from jiyi.errors import ExtractionError

log = logging.getLogger(__name__)
NON_EPISODE = tuple(k for k in MemoryKind if k != MemoryKind.EPISODE)


@dataclass(frozen=True)
class IngestOptions:
    """Write-path settings (see :class:`jiyi.config.MemoryConfig`)."""

    pii_policy: PiiPolicy = PiiPolicy.REDACT
    min_confidence: float = 0.5
    episode_importance: float = 0.3
    episode_context_turns: int = 1  # earlier turns prepended to an episode's embedding text


def _redact(
    messages: list[Message], policy: PiiPolicy
) -> tuple[list[Message], list[Skipped], list[Redaction]]:
    kept: list[Message] = []
    skipped: list[Skipped] = []
    totals: dict[str, int] = {}
    for m in messages:
        if policy is PiiPolicy.ALLOW:
            kept.append(m)
            continue
        if policy is PiiPolicy.REJECT:
            kinds = sorted({f.kind for f in find_pii(m.content)})
            if kinds:
                skipped.append(
                    Skipped(
                        text="[withheld: contains PII]", reason=f"pii_rejected:{','.join(kinds)}"
                    )
                )
                continue
            kept.append(m)
            continue
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
        who = m.name or m.role
        return f"{who}: {m.content}"

    parts = [said(m) for m in messages[max(0, i - context_turns) : i]]
    parts.append(said(messages[i]))
    return "\n".join(parts)


def _extract(
    extractor: Extractor, fallback: Extractor | None, messages: list[Message], now: datetime
) -> Extraction:
    try:
        return extractor.extract(messages, now=now)
    except ExtractionError as exc:
        if fallback is None:
            raise
        log.warning(
            "extractor %s failed (%s); falling back to %s", extractor.name, exc.code, fallback.name
        )
        return fallback.extract(messages, now=now)


def _history(
    m: MemoryItem,
    action: Action,
    at: datetime,
    related: str | None = None,
    reason: str | None = None,
) -> HistoryEntry:
    return HistoryEntry(
        memory_id=m.id,
        action=action,
        at=at,
        content=m.content,
        content_hash=content_hash(m.content),
        version=m.version,
        related_id=related,
        reason=reason,
    )


def ingest(
    messages: list[Message],
    *,
    scope: Scope,
    session_id: str | None,
    infer: bool,
    now: datetime,
    store: MemoryStore,
    embedder: Embedder,
    extractor: Extractor,
    fallback: Extractor | None,
    cal: Calibration,
    opts: IngestOptions,
) -> tuple[AddResult, list[str]]:
    """Run the write pipeline for one batch. Returns the result and the texts whose cached
    embeddings must be evicted (deleted memories)."""
    batch = new_id()
    for i, m in enumerate(messages):
        if m.id is None:
            messages[i] = m.model_copy(update={"id": f"msg-{new_id()}"})
    clean, skipped, redactions = _redact(messages, opts.pii_policy)
    extraction = _extract(extractor, fallback, clean, now) if infer else Extraction()
    skipped += extraction.skipped
    forget_ids = {f.source_message_id for f in extraction.forget}

    # Episodes: every kept message except forget requests ("别记这个" is not itself a memory).
    episodes: list[MemoryItem] = []
    episode_texts: list[str] = []
    for i, m in enumerate(clean):
        if m.id in forget_ids or not m.content.strip():
            continue
        episodes.append(
            MemoryItem(
                id=new_id(),
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
                metadata={"role": m.role, "name": m.name, "batch": batch, "pos": i},
            )
        )
        episode_texts.append(episode_text(clean, i, opts.episode_context_turns))

    # Admission: user-stated or confirmed, confident enough, never from assistant/system text.
    admitted: list[Candidate] = []
    for c in extraction.candidates:
        if c.role != "user" or c.origin == Origin.INFERRED:
            skipped.append(Skipped(text=c.quote or c.content, reason="not_user_stated"))
        elif c.confidence < opts.min_confidence:
            skipped.append(Skipped(text=c.quote or c.content, reason="low_confidence"))
        else:
            admitted.append(c)

    vectors = embedder.embed_documents(episode_texts + [c.content for c in admitted])
    ep_vecs, cand_vecs = vectors[: len(episodes)], vectors[len(episodes) :]
    changes = ChangeSet()
    result = AddResult(redactions=redactions, skipped=skipped, episodes=episodes)
    for ep, text, vec in zip(episodes, episode_texts, ep_vecs, strict=True):
        changes.upserts.append(Indexed(ep, keyword_text(text), vec))
        changes.history.append(_history(ep, Action.ADD, now, reason="episode"))

    active = SearchFilter(kinds=NON_EPISODE)
    written: list[MemoryItem] = []  # this batch's new memories, for in-batch reconcile
    for c, vec in zip(admitted, cand_vecs, strict=True):
        same_topic = store.list(scope, active, topic=c.topic) if c.topic else []
        same_topic += [
            w for w in written if c.topic and w.topic == c.topic and w.status == Status.ACTIVE
        ]
        sims = store.vector_search(scope, vec, active, 5)
        similar = [
            (m, s)
            for m, s in zip(
                store.get_many(scope, [i for i, _ in sims]), [s for _, s in sims], strict=False
            )
        ]
        decision = reconcile(c, same_topic, similar, cal)
        if decision.action == Action.NOOP and decision.target is not None:
            t = decision.target
            refreshed = t.model_copy(
                update={
                    "observed_at": max(t.observed_at, c.observed_at or now),
                    "importance": max(t.importance, c.importance),
                    "confidence": max(t.confidence, c.confidence),
                    "source_message_ids": list(
                        dict.fromkeys(t.source_message_ids + c.source_message_ids)
                    ),
                }
            )
            changes.updates.append(refreshed)
            changes.history.append(_history(refreshed, Action.NOOP, now, reason="duplicate"))
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
        changes.upserts.append(Indexed(new, keyword_text(new.content), vec))
        written.append(new)
        if decision.action == Action.SUPERSEDE and decision.target is not None:
            old = decision.target.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": new.id, "valid_to": now}
            )
            new = new.model_copy(
                update={
                    "version": old.version + 1,
                    "metadata": {**new.metadata, "supersedes": old.id},
                }
            )
            changes.upserts[-1] = Indexed(new, changes.upserts[-1].keywords, vec)
            written[-1] = new
            if any(w.id == old.id for w in written):  # superseded within this batch
                written[:] = [old if w.id == old.id else w for w in written]
                changes.upserts = [
                    Indexed(old, i.keywords, i.vector) if i.memory.id == old.id else i
                    for i in changes.upserts
                ]
            else:
                changes.updates.append(old)
            changes.history.append(_history(old, Action.SUPERSEDE, now, related=new.id))
            changes.history.append(_history(new, Action.ADD, now, related=old.id))
            result.events.append(MemoryEvent(event=Action.SUPERSEDE, memory=new, previous=old))
        else:
            changes.history.append(_history(new, Action.ADD, now))
            result.events.append(MemoryEvent(event=Action.ADD, memory=new))

    evict: list[str] = []
    for req in extraction.forget:
        targets = _forget_targets(req, store, embedder, scope, cal, written, clean)
        for t in targets:
            evict.append(t.content)
            if any(w.id == t.id for w in written):  # said and retracted in one batch
                changes.upserts = [i for i in changes.upserts if i.memory.id != t.id]
                changes.history = [h for h in changes.history if h.memory_id != t.id]
                result.events = [e for e in result.events if e.memory.id != t.id]
            else:
                changes.deletes.append(t.id)
                changes.history.append(
                    HistoryEntry(
                        memory_id=t.id,
                        action=Action.DELETE,
                        at=now,
                        content_hash=content_hash(t.content),
                        version=t.version,
                        reason="forget",
                    )
                )
            result.events.append(MemoryEvent(event=Action.DELETE, memory=t))
            # The user's own words go too: drop the episodes the memory came from.
            src = set(t.source_message_ids)
            for ep in episodes:
                if src & set(ep.source_message_ids):
                    changes.upserts = [i for i in changes.upserts if i.memory.id != ep.id]
                    changes.history = [h for h in changes.history if h.memory_id != ep.id]
                    evict.append(ep.content)
            for ep in _stored_episodes(store, scope, src):
                changes.deletes.append(ep.id)
                evict.append(ep.content)
        if not targets:
            skipped.append(Skipped(text=req.text, reason="forget_no_match"))
    result.episodes = [e for e in episodes if any(i.memory.id == e.id for i in changes.upserts)]
    store.apply(scope, changes)
    return result, evict


def _stored_episodes(store: MemoryStore, scope: Scope, message_ids: set[str]) -> list[MemoryItem]:
    if not message_ids:
        return []
    eps = store.list(scope, SearchFilter(kinds=(MemoryKind.EPISODE,)))
    return [e for e in eps if message_ids & set(e.source_message_ids)]


def _forget_targets(
    req: ForgetRequest,
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    cal: Calibration,
    written: list[MemoryItem],
    messages: list[Message],
) -> list[MemoryItem]:
    """Which memories a forget request names: the ones matching its target, or — with no
    target — those from the user's previous message (in this batch, else the latest batch)."""
    active = SearchFilter(kinds=NON_EPISODE)
    if req.target:
        terms = query_terms(req.target)
        found: dict[str, MemoryItem] = {}
        for w in written:
            if terms and all(t in keyword_text(w.content).split() for t in terms):
                found[w.id] = w
        kw = store.keyword_search(scope, terms, active, 10)
        vec = store.vector_search(scope, embedder.embed_query(req.target), active, 5)
        close = {i for i, s in vec if s >= cal.related}
        for m in store.get_many(scope, [i for i, _ in kw] + list(close)):
            toks = set(keyword_text(m.content).split())
            if m.id in close or (terms and all(t in toks for t in terms)):
                found[m.id] = m
        return list(found.values())
    ids = [m.id for m in messages]
    pos = ids.index(req.source_message_id) if req.source_message_id in ids else len(ids)
    earlier = [m for m in messages[:pos] if m.role == "user"]
    if earlier:
        last = earlier[-1].id
        in_batch = [w for w in written if last in w.source_message_ids]
        if in_batch:
            return in_batch
    stored = store.list(scope, active)
    if not stored:
        return []
    latest_batch = max(stored, key=lambda m: m.id).metadata.get("batch")
    return [m for m in stored if m.metadata.get("batch") == latest_batch]
