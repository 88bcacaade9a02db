"""After reconciliation: a told change no rule placed, in the slot of the fact the learned
score picks (:mod:`jiyi.core.change_model`). Opt-in: ``MemoryConfig(change_threshold=0.98)``.

Runs last, only for a batch in which no rule superseded or retired anything: each user
message that says a change (a change or correction word) is scored against the user's
active facts and preferences. When the best fact scores at least ``threshold`` and clearly
above the next, the message does not merely name that fact's value as it stands, and any
lasting fact the rules read from the message is of the same area, the message is stored in
that fact's slot as what the user said, naming the fact it changes (``CHANGES``), so
:func:`jiyi.pipeline.decide.decide` supersedes it with history.

:data:`THRESHOLD` is the one bench/change_model.py chose on the development sets (the lowest
with no wrong fact picked in leave-one-set-out, plus 0.02). It is off by default because on
held-out sets it also retired background facts the rules keep (bench/README.md, "A learned
change step").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from jiyi.core.change_model import FEATURES, area, score_pairs
from jiyi.core.models import (
    Action,
    Candidate,
    MemoryEvent,
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
)
from jiyi.core.ports import Embedder, MemoryStore
from jiyi.core.slots import is_timeline_slot
from jiyi.core.text import to_simplified
from jiyi.pipeline.anaphora import said_in_slot
from jiyi.pipeline.decide import ACTIVE_MEMORIES

__all__ = ["THRESHOLD", "learned_changes"]

THRESHOLD = 0.98
_MARGIN = 0.2
_TARGETS = (MemoryKind.FACT, MemoryKind.PREFERENCE)
_CUE = re.compile(
    r"现在|如今|目前|改|换|搬|调|转|辞|离职|不再|已经|升|其实|记错|说错|更正|不是|而家|"
    r"\b(?:now|nowadays|these days|anymore|any more|no longer|instead|actually|meant|"
    r"switch\w*|swap\w*|chang\w*|mov\w*|relocat\w*|transferr\w*|left|quit|stopp\w*|"
    r"turned|promot\w*|renam\w*|correction|wrong)\b",
    re.IGNORECASE,
)


_VALUE_SAID, _LEAVES, _CORRECTION = (
    FEATURES.index(n) for n in ("value_said", "leaves", "correction")
)


def _restates(x: Sequence[float]) -> bool:
    """The message names the fact's value with no leaving (left / 从…搬 / 不再) and no fix of a
    mistake (不是…是 / I meant): it speaks of the value as it stands ("I visited my sister in
    Chicago", 其实我挺喜欢成都的)."""
    return bool(x[_VALUE_SAID]) and not x[_LEAVES] and not x[_CORRECTION]


def _changed_something(events: Sequence[MemoryEvent]) -> bool:
    return any(e.event in (Action.SUPERSEDE, Action.DELETE) for e in events)


def learned_changes(
    messages: Sequence[Message],
    events: Sequence[MemoryEvent],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
    embedder: Embedder,
    threshold: float | None = THRESHOLD,
) -> list[Candidate]:
    """Candidates in the slot of the fact each change-telling user message changes, when
    the rules changed nothing in this batch; [] otherwise (and when ``threshold`` is None)."""
    if threshold is None or _changed_something(events):
        return []
    out: list[Candidate] = []
    taken: set[str] = set()
    facts: list[MemoryItem] | None = None  # the user's facts, read once for the batch
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        plain = to_simplified(msg.content)
        if not _CUE.search(plain):
            continue
        if facts is None:
            held = store.list(scope, ACTIVE_MEMORIES)
            facts = [m for m in held if m.kind in _TARGETS and m.topic]
        stored = [m for m in facts if m.id not in taken]
        if not stored:
            continue
        vec = np.asarray(embedder.embed_documents([msg.content])[0], dtype=np.float32)
        near = dict(store.vector_search(scope, vec, ACTIVE_MEMORIES, limit=len(stored) + 50))
        stored = [m for m in stored if m.id in near]
        if not stored:
            continue
        said = [(c.topic or "", c.value) for c in admitted if msg.id in c.source_message_ids]
        scored = score_pairs(msg.content, stored, [near[m.id] for m in stored], said)
        if not scored:
            continue
        best = scored[0]
        second = scored[1].p if len(scored) > 1 else 0.0
        if best.p < threshold or best.p - second < _MARGIN:
            continue
        if _restates(best.x):
            continue  # names the fact's own value, leaving nothing and fixing nothing
        old = best.memory
        lasting = [t for t, _ in said if not is_timeline_slot(t)]
        if lasting and all(area(t) != area(old.topic or "") for t in lasting):
            continue  # the message's own facts are what it tells: new, not a change of this
        taken.add(old.id)
        out.append(said_in_slot(old, msg.content, msg, "learned.change"))
    return out
