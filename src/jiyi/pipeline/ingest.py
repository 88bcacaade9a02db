"""Write path: redact → skip re-deliveries → extract → episodes → admit → embed → reconcile →
forget → apply.

The order matters: PII is removed before anything is extracted, embedded or stored, so no
store, index or cache ever sees it; a message whose id was already consumed for this user is
skipped before anything is written (a re-delivered message is stored once); forget requests
run last so they can also retract what was said earlier in the same batch; everything lands in
ONE ChangeSet, applied atomically.

Served with a work queue the same path runs in two halves (:mod:`jiyi.pipeline.deferred`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from jiyi.core.ids import new_id
from jiyi.core.models import (
    AddResult,
    Extraction,
    Message,
    Scope,
    Skipped,
)
from jiyi.core.pii import PiiPolicy
from jiyi.errors import ExtractionError
from jiyi.pipeline.write import (
    ADMISSION_FLOORS,
    Pending,
    Ports,
    build_episodes,
    decide_and_apply,
    forget_all,
    redact_messages,
    split_admitted,
)

log = logging.getLogger(__name__)

__all__ = ["IngestOptions", "Ports", "extract_with_fallback", "ingest", "repeated_ids", "with_ids"]


@dataclass(frozen=True)
class IngestOptions:
    """Write-path settings (see :class:`jiyi.config.MemoryConfig`)."""

    pii_policy: PiiPolicy = PiiPolicy.REDACT
    min_confidence: float = 0.5
    episode_importance: float = 0.3
    episode_context_turns: int = 1  # earlier turns prepended to an episode's embedding text
    # Long-term memories need at least this importance for their kind; below it a remark
    # stays an episode only ("今天好热想喝冰咖啡"), and that episode expires after
    # ``transient_ttl``.
    admission_floors: tuple[tuple[str, float], ...] = tuple(ADMISSION_FLOORS.items())
    transient_ttl: timedelta = timedelta(days=7)


def extract_with_fallback(ports: Ports, messages: list[Message], now: datetime) -> Extraction:
    """The configured extractor, or the rules when it raises ExtractionError."""
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


def with_ids(messages: list[Message]) -> list[Message]:
    """Every message with an id: the caller's, or a new one."""
    return [m if m.id else m.model_copy(update={"id": f"msg-{new_id()}"}) for m in messages]


def drop_copies(messages: list[Message]) -> tuple[list[Message], list[Skipped]]:
    """The batch without later copies of a message id given twice in it (a client that
    sent the same turn twice): the first copy stays."""
    kept: list[Message] = []
    skipped: list[Skipped] = []
    ids: set[str] = set()
    for m in messages:
        if m.id is not None and m.id in ids:
            skipped.append(Skipped(text=m.content, reason="duplicate_message"))
            continue
        if m.id is not None:
            ids.add(m.id)
        kept.append(m)
    return kept, skipped


def repeated_ids(
    messages: list[Message], caller_ids: set[str], scope: Scope, ports: Ports
) -> set[str]:
    """Caller-given ids an earlier write already consumed for this user."""
    return ports.store.seen_messages(scope, sorted(caller_ids)) if caller_ids else set()


def _without(extraction: Extraction, ids: set[str]) -> Extraction:
    """The extraction minus what came only from the messages ``ids``."""
    if not ids:
        return extraction
    return extraction.model_copy(
        update={
            "candidates": [
                c for c in extraction.candidates if not set(c.source_message_ids) <= ids
            ],
            "forget": [f for f in extraction.forget if f.source_message_id not in ids],
        }
    )


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
    messages, copies = drop_copies(messages)
    caller_ids = {m.id for m in messages if m.id}
    messages = with_ids(messages)
    clean, skipped, redactions = redact_messages(messages, opts.pii_policy)
    skipped = copies + skipped
    repeated = repeated_ids(clean, caller_ids, scope, ports)
    skipped += [
        Skipped(text=m.content, reason="duplicate_message") for m in clean if m.id in repeated
    ]
    # Extraction sees the whole batch (a repeated turn is context for the next one), but
    # nothing that came only from a repeated message is kept.
    extraction = (
        _without(extract_with_fallback(ports, clean, now), repeated) if infer else Extraction()
    )
    skipped += extraction.skipped
    admitted, rejected, transient = split_admitted(
        extraction.candidates, opts.min_confidence, dict(opts.admission_floors)
    )
    # "别记这个" is not itself remembered, not even as an episode.
    forget_ids = {f.source_message_id for f in extraction.forget}
    episodes, episode_texts = build_episodes(
        clean,
        forget_ids | repeated,
        scope=scope,
        session_id=session_id,
        now=now,
        batch=batch,
        importance=opts.episode_importance,
        context_turns=opts.episode_context_turns,
        expires={i: now + opts.transient_ttl for i in transient},
    )
    pending = Pending(now)
    pending.messages = sorted(caller_ids - repeated)
    result = AddResult(redactions=redactions, skipped=skipped + rejected)
    vectors = ports.embedder.embed_documents(episode_texts + [c.content for c in admitted])
    for ep, text, vec in zip(episodes, episode_texts, vectors, strict=False):
        pending.add_episode(ep, text, vec)
    decide_and_apply(
        admitted,
        vectors[len(episodes) :],
        scope=scope,
        session_id=session_id,
        batch=batch,
        store=ports.store,
        cal=ports.cal,
        pending=pending,
        result=result,
    )
    forget_all(
        extraction.forget,
        clean,
        scope=scope,
        store=ports.store,
        embedder=ports.embedder,
        cal=ports.cal,
        pending=pending,
        result=result,
        context_turns=opts.episode_context_turns,
    )
    result.episodes = [e for e in episodes if e.id in pending.rows]
    ports.store.apply(scope, pending.changeset())
    return result, pending.evict
