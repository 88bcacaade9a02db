"""Deferred extraction (server with a work queue): the write path in two halves.

:func:`stage` runs now — redact → skip re-deliveries → episodes → apply — and
:func:`extract_staged` runs later in ``jiyi worker``: extract → admit → embed → reconcile →
forget → apply, which also marks the batch's episodes ``metadata["extracted"] = True`` in that
same transaction. The mark is what makes a retried job idempotent: a batch whose episodes are
all marked is done.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from jiyi.core.ids import new_id
from jiyi.core.models import AddResult, Message, Scope, Skipped
from jiyi.core.ports import ChangeSet
from jiyi.errors import InvalidInputError
from jiyi.pipeline.ingest import (
    IngestOptions,
    drop_copies,
    extract_with_fallback,
    repeated_ids,
    with_ids,
)
from jiyi.pipeline.write import (
    Pending,
    Ports,
    build_episodes,
    decide_and_apply,
    forget_all,
    redact_messages,
    split_admitted,
)

__all__ = ["ExtractJob", "Staged", "extract_staged", "stage"]


class ExtractJob(BaseModel):
    """The payload of an ``extract`` job: what :func:`extract_staged` needs to finish a
    staged batch. Stored in the work queue as JSON; its messages are already redacted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    agent_id: str | None = None
    session_id: str | None = None
    now: datetime
    episodes: dict[str, str]  # message id → episode id
    messages: list[Message]

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> ExtractJob:
        """The job from a stored payload; InvalidInputError when it is malformed."""
        try:
            return cls.model_validate(payload)
        except ValidationError as exc:
            raise InvalidInputError(f"malformed extract job: {exc.errors()[0]['msg']}") from exc


@dataclass(frozen=True)
class Staged:
    """A batch accepted for extraction later: what to write now and what the job carries.

    ``messages`` are already redacted (the job payload is stored too, so it must not hold
    PII) and exclude re-delivered ones; ``episode_ids`` maps message id → episode id so a
    retried job finds the episodes it wrote, or rebuilds the ones that were never written."""

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
    messages, copies = drop_copies(messages)
    caller_ids = {m.id for m in messages if m.id}
    clean, skipped, redactions = redact_messages(with_ids(messages), opts.pii_policy)
    skipped = copies + skipped
    repeated = repeated_ids(clean, caller_ids, scope, ports)
    skipped += [
        Skipped(text=m.content, reason="duplicate_message") for m in clean if m.id in repeated
    ]
    episodes, texts = build_episodes(
        clean,
        set(repeated),
        scope=scope,
        session_id=session_id,
        now=now,
        batch=batch,
        importance=opts.episode_importance,
        context_turns=opts.episode_context_turns,
        extra={"extracted": False},
    )
    pending = Pending(now)
    pending.messages = sorted(caller_ids - repeated)
    for ep, text, vec in zip(episodes, texts, ports.embedder.embed_documents(texts), strict=True):
        pending.add_episode(ep, text, vec)
    ids = {ep.source_message_ids[0]: ep.id for ep in episodes}
    result = AddResult(redactions=redactions, skipped=skipped, episodes=episodes)
    fresh = [m for m in clean if m.id not in repeated]
    return Staged(batch, result, pending.changeset(), fresh, ids)


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
    store = ports.store
    stored = {m.id: m for m in store.get_many(scope, list(episode_ids.values()))}
    unwritten = {
        i for i in episode_ids.values() if i not in stored and not store.history(scope.tenant, i)
    }
    if not unwritten and all(m.metadata.get("extracted") for m in stored.values()):
        return None
    extraction = extract_with_fallback(ports, messages, now)
    admitted, rejected, transient = split_admitted(
        extraction.candidates, opts.min_confidence, dict(opts.admission_floors)
    )
    forget_ids = {f.source_message_id for f in extraction.forget}
    pending = Pending(now)
    for m in stored.values():
        if forget_ids & set(m.source_message_ids):  # "别记这个" is not kept as an episode
            pending.remove(m, reason="forget")
            continue
        expires = {now + opts.transient_ttl for i in m.source_message_ids if i in transient}
        mark: dict[str, object] = {"metadata": {**m.metadata, "extracted": True}}
        if expires:
            mark["expires_at"] = min(expires)
        pending.change(m.model_copy(update=mark), None)  # the text did not change
    todo = {m.id for m in messages if episode_ids.get(m.id or "") in unwritten}
    episodes, texts = build_episodes(
        messages,
        forget_ids | {m.id for m in messages if m.id not in todo},
        scope=scope,
        session_id=session_id,
        now=now,
        batch=batch,
        importance=opts.episode_importance,
        context_turns=opts.episode_context_turns,
        ids=episode_ids,
        extra={"extracted": True},
        expires={i: now + opts.transient_ttl for i in transient},
    )
    result = AddResult(skipped=list(extraction.skipped) + rejected)
    vectors = ports.embedder.embed_documents(texts + [c.content for c in admitted])
    for ep, text, vec in zip(episodes, texts, vectors, strict=False):
        pending.add_episode(ep, text, vec)
    decide_and_apply(
        admitted,
        vectors[len(episodes) :],
        scope=scope,
        session_id=session_id,
        batch=batch,
        store=store,
        cal=ports.cal,
        pending=pending,
        result=result,
    )
    forget_all(
        extraction.forget,
        messages,
        scope=scope,
        store=store,
        embedder=ports.embedder,
        cal=ports.cal,
        pending=pending,
        result=result,
        context_turns=opts.episode_context_turns,
    )
    result.episodes = [e for e in episodes if e.id in pending.rows]
    store.apply(scope, pending.changeset())
    return result, pending.evict
