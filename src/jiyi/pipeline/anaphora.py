"""Before reconciliation: a change no rule made a fact of, in the slot of the fact it changes.

A user message that yielded no fact (a one-off event aside) but says, in a clause, that the
one fact of its subject sharing a word with it changed, naming a new word
("羽毛球场地换到奥森了"), is stored
as that clause in the fact's slot (:func:`changed_facts`; when, :mod:`jiyi.core.anaphora`):
what the user said, in place of the value it replaced. :func:`jiyi.pipeline.decide.decide`
then supersedes the old fact with history (``CHANGES`` names it, so a free description is
replaced, not added to).
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.core.anaphora import clause_targets
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.reconcile import CHANGES
from jiyi.core.text import has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES

__all__ = ["changed_facts", "said_in_slot", "without_vague"]


def _as_said(clause: str, text: str) -> str:
    """``clause`` (simplified) in the script the user wrote it in."""
    plain = to_simplified(text)
    at = plain.find(clause)
    if at < 0 or len(plain) != len(text):
        return clause
    return text[at : at + len(clause)]


def changed_facts(
    admitted: Sequence[Candidate],
    messages: Sequence[Message],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the clauses of messages without any fact that change the one fact of
    their subject (:func:`jiyi.core.anaphora.clause_targets`); [] when none."""
    # a one-off event beside the change ("雅阁上个月卖了，换了台比亚迪汉") places nothing
    # lasting, nor does a vague "about" fact of a relative ("Mia switched over to Birch")
    placed = {
        i
        for c in admitted
        if c.kind != MemoryKind.EVENT and not (c.topic or "").endswith(".about")
        for i in c.source_message_ids
    }
    # a vague "about" candidate of the slot does not take it (without_vague drops it after)
    taken = {c.topic for c in admitted if not (c.topic or "").endswith(".about")}
    stored: list[MemoryItem] | None = None
    out: list[Candidate] = []
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content or msg.id in placed:
            continue
        stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
        for clause, old in clause_targets(msg.content, stored):
            if old.topic in taken:
                continue
            taken.add(old.topic)
            out.append(said_in_slot(old, _as_said(clause, msg.content), msg, "anaphora.clause"))
    return out


def said_in_slot(old: MemoryItem, said: str, msg: Message, rule: str) -> Candidate:
    """What the user said (``said``, from ``msg``) as a candidate of ``old``'s slot naming
    ``old`` as the memory it changes, so :func:`jiyi.pipeline.decide.decide` supersedes it."""
    zh = has_cjk(said)
    return Candidate(
        kind=old.kind,
        topic=old.topic,
        content=f"用户说：{said}" if zh else f"User said: {said}",
        importance=old.importance,
        quote=said,
        source_message_ids=[msg.id] if msg.id else [],
        observed_at=msg.timestamp,
        metadata={"rule": rule, "lang": "zh" if zh else "en", CHANGES: old.id},
    )


def without_vague(admitted: Sequence[Candidate], changes: Sequence[Candidate]) -> list[Candidate]:
    """``admitted`` without the vague "about" facts of a subject whose slot a message's
    change was placed in (:func:`changed_facts`): the same statement, now said where it
    belongs."""
    placed = {(i, (c.topic or "").rsplit(".", 1)[0]) for c in changes for i in c.source_message_ids}
    return [
        c
        for c in admitted
        if not (
            (c.topic or "").endswith(".about")
            and any((i, (c.topic or "").rsplit(".", 1)[0]) in placed for i in c.source_message_ids)
        )
    ]
