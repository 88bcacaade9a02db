"""Write path, all at once: redact → skip re-deliveries → extract → :func:`write_batch`.

The order matters: PII is removed before anything is extracted, embedded or stored, so no
store, index or cache ever sees it; a message whose id was already consumed for this user is
skipped before anything is written (a re-delivered message is stored once); forget requests
run last (inside ``write_batch``) so they can also retract what was said earlier in the same
batch; everything lands in ONE ChangeSet, applied atomically by the caller.

Served with a work queue the same steps run in two halves (:mod:`jiyi.pipeline.deferred`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from jiyi.core.extraction.quoted import own_messages
from jiyi.core.ids import new_id
from jiyi.core.models import Extraction, Message, Redaction, Scope, Skipped
from jiyi.core.pii import PiiPolicy
from jiyi.errors import ExtractionError
from jiyi.pipeline.prepare import drop_copies, redact_messages, with_ids
from jiyi.pipeline.pronoun_kin import pronoun_opened
from jiyi.pipeline.read_once import read_once
from jiyi.pipeline.subjects import name_led
from jiyi.pipeline.write import BatchPlan, Outcome, Ports, WriteOptions, write_batch

log = logging.getLogger(__name__)

__all__ = ["IngestOptions", "Ports", "extract_with_fallback", "ingest", "prepared"]


@dataclass(frozen=True)
class IngestOptions:
    """Write-path settings: the PII policy and the steps' options."""

    pii_policy: PiiPolicy = PiiPolicy.REDACT
    write: WriteOptions = field(default_factory=WriteOptions)


def extract_with_fallback(
    ports: Ports, messages: list[Message], now: datetime, scope: Scope | None = None
) -> Extraction:
    """The configured extractor, or the rules when it raises ExtractionError. With ``scope``,
    a message that opens with a stored relative's name is read as said of them
    (:func:`~jiyi.pipeline.subjects.name_led`), and one that opens with 他 / "she" as said of
    the one relative of that sex (:func:`~jiyi.pipeline.pronoun_kin.pronoun_opened`)."""
    messages = own_messages(messages)  # 'Jake told me "I quit Google"': Jake's, not the user's
    if scope is not None:
        messages = name_led(messages, scope, ports.store)
        messages = pronoun_opened(messages, scope, ports.store)
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


@dataclass(frozen=True)
class Prepared:
    """A batch after the message-level steps: redacted, with ids, re-deliveries known."""

    messages: list[Message]
    fresh: frozenset[str]  # ids of the messages this write may store
    consumed: list[str]  # caller ids to record as consumed
    skipped: list[Skipped]
    redactions: list[Redaction]


def prepared(messages: list[Message], scope: Scope, ports: Ports, policy: PiiPolicy) -> Prepared:
    """Drop copies within the batch, give every message an id, redact, and find the caller
    ids an earlier write already consumed (kept as context, never stored again)."""
    messages, copies = drop_copies(messages)
    caller = {m.id for m in messages if m.id}
    clean, skipped, redactions = redact_messages(with_ids(messages), policy)
    seen = ports.store.seen_messages(scope, sorted(caller)) if caller else set()
    again = [Skipped(text=m.content, reason="duplicate_message") for m in clean if m.id in seen]
    fresh = frozenset(m.id for m in clean if m.id and m.id not in seen)
    return Prepared(clean, fresh, sorted(caller - seen), copies + skipped + again, redactions)


def ingest(
    messages: list[Message],
    *,
    scope: Scope,
    session_id: str | None,
    infer: bool,
    now: datetime,
    ports: Ports,
    opts: IngestOptions,
) -> Outcome:
    """Plan one batch and run :func:`write_batch`; the caller applies ``changes``."""
    ports = read_once(ports)
    p = prepared(messages, scope, ports, opts.pii_policy)
    extraction = extract_with_fallback(ports, p.messages, now, scope) if infer else Extraction()
    # Extraction sees the whole batch (a repeated turn is context for the next one), but
    # nothing that came only from a repeated message is kept.
    extraction = extraction.model_copy(
        update={
            "candidates": [c for c in extraction.candidates if set(c.source_message_ids) & p.fresh],
            "forget": [f for f in extraction.forget if f.source_message_id in p.fresh],
        }
    )
    plan = BatchPlan(
        scope=scope,
        session_id=session_id,
        batch=new_id(),
        now=now,
        messages=p.messages,
        extraction=extraction,
        extracted=infer,
        store_ids=p.fresh,
        consumed=p.consumed,
        skipped=p.skipped,
        redactions=p.redactions,
    )
    return write_batch(plan, ports=ports, opts=opts.write)
