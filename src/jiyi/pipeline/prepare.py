"""The first steps of a write: give messages ids, drop copies, redact PII, build episodes.

Pure functions over messages: nothing here reads or writes a store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Message, Origin, Redaction, Scope, Skipped
from jiyi.core.pii import PiiPolicy, find_pii, redact_pii

__all__ = ["build_episodes", "drop_copies", "episode_text", "redact_messages", "with_ids"]


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


def episode_text(messages: Sequence[Message], i: int, context_turns: int) -> str:
    """What an episode is embedded and indexed as: the speaker and the turn, preceded by up
    to ``context_turns`` earlier turns (a reply like "Yes, last Tuesday!" means nothing
    without the question before it)."""

    def said(m: Message) -> str:
        return f"{m.name or m.role}: {m.content}"

    return "\n".join(said(m) for m in messages[max(0, i - context_turns) : i + 1])


def build_episodes(
    messages: list[Message],
    store_ids: set[str],
    *,
    scope: Scope,
    session_id: str | None,
    now: datetime,
    batch: str,
    importance: float,
    context_turns: int,
    ids: Mapping[str, str] | None = None,
    extracted: bool | None = None,
    expires: Mapping[str, datetime] | None = None,
) -> list[tuple[MemoryItem, str]]:
    """Episodes of the messages whose id is in ``store_ids``, each with the text to embed
    for it (its turn and the turns before it in ``messages``). ``ids`` (message id → episode
    id) fixes their ids, ``extracted`` marks queued ones, ``expires`` (message id →
    time) gives transient remarks an expiry."""
    out: list[tuple[MemoryItem, str]] = []
    for i, m in enumerate(messages):
        if m.id not in store_ids or not m.content.strip():
            continue
        episode = MemoryItem(
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
            role=m.role,
            speaker=m.name,
            batch=batch,
            position=i,
            extracted=extracted,
        )
        out.append((episode, episode_text(messages, i, context_turns)))
    return out
