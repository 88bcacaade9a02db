"""Deferred extraction (server with a work queue): the write path in two halves.

:func:`stage` runs now — redact → skip re-deliveries → episodes → apply — and
:func:`extract_staged` runs later in ``jiyi worker``: extract → admit → embed → reconcile →
forget → apply, which also marks the batch's episodes ``extracted = True`` in that
same transaction. The mark is what makes a retried job idempotent: a batch whose episodes are
all marked is done. Both halves are :func:`~jiyi.pipeline.write.write_batch` with a different
:class:`~jiyi.pipeline.write.BatchPlan`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from jiyi.core.ids import new_id
from jiyi.core.models import AddResult, Message, Scope
from jiyi.core.ports import ChangeSet
from jiyi.errors import InvalidInputError
from jiyi.pipeline.ingest import IngestOptions, extract_with_fallback, prepared
from jiyi.pipeline.read_once import read_once
from jiyi.pipeline.write import BatchPlan, Outcome, Ports, write_batch

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
    expires_at: datetime | None = None  # the caller's ttl: what the job creates expires then

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
    ports = read_once(ports)
    p = prepared(messages, scope, ports, opts.pii_policy)
    plan = BatchPlan(
        scope=scope,
        session_id=session_id,
        batch=batch or new_id(),
        now=now,
        messages=p.messages,
        store_ids=p.fresh,
        episode_extracted=False,
        consumed=p.consumed,
        skipped=p.skipped,
        redactions=p.redactions,
    )
    out = write_batch(plan, ports=ports, opts=opts.write)
    ids = {ep.source_message_ids[0]: ep.id for ep in out.result.episodes}
    fresh = [m for m in p.messages if m.id in p.fresh]
    return Staged(plan.batch, out.result, out.changes, fresh, ids)


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
) -> Outcome | None:
    """The second half, for a staged batch: extract, reconcile and mark its episodes
    extracted, in one transaction. None when there was nothing to do: every surviving
    episode is already marked (a retry after the commit), or all were deleted since.

    An episode that is missing and has no history was never written (the producer died
    between enqueueing and writing it): it is written now. One that is missing but has
    history was deleted (forget, delete) and stays deleted.
    """
    ports = read_once(ports)
    store = ports.store
    stored = {m.id: m for m in store.get_many(scope, list(episode_ids.values()))}
    unwritten = {
        i for i in episode_ids.values() if i not in stored and not store.history(scope.tenant, i)
    }
    if not unwritten and all(m.extracted for m in stored.values()):
        return None
    plan = BatchPlan(
        scope=scope,
        session_id=session_id,
        batch=batch,
        now=now,
        messages=messages,
        extraction=extract_with_fallback(ports, messages, now, scope),
        extracted=True,
        store_ids=frozenset(m for m, e in episode_ids.items() if e in unwritten),
        episode_ids=episode_ids,
        episode_extracted=True,
        marks=list(stored.values()),
    )
    return write_batch(plan, ports=ports, opts=opts.write)
