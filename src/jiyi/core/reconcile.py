"""Reconcile a candidate memory against what is already stored.

Rules, in order (first match wins):
1. Timeline kinds (state, event): append, never overwrite — unless the same content was
   already recorded (NOOP), so repeating "我在减肥" does not grow the timeline.
2. The same content already active (same topic and same normalised content, or a cosine at
   or above the calibrated duplicate threshold) → NOOP: refresh observed time, keep the
   higher importance and confidence; no new row.
3. Same topic, different content (a changed preference or corrected fact) → SUPERSEDE: the
   new memory is added and the old one becomes ``superseded`` with ``superseded_by``.
4. A correction without a topic match supersedes the most similar active memory if it is
   at least ``related``.
5. Otherwise ADD.
"""

from __future__ import annotations

from dataclasses import dataclass

from jiyi.core.calibration import Calibration
from jiyi.core.models import Action, Candidate, MemoryItem, MemoryKind
from jiyi.core.text import normalize

TIMELINE_KINDS = frozenset({MemoryKind.STATE, MemoryKind.EVENT})


@dataclass(frozen=True)
class Decision:
    """What to do with one candidate; ``target`` is the stored memory it refers to."""

    action: Action
    candidate: Candidate
    target: MemoryItem | None = None


def _same_text(a: str, b: str) -> bool:
    strip = "。.!！ "
    return normalize(a).strip(strip) == normalize(b).strip(strip)


def reconcile(
    candidate: Candidate,
    same_topic: list[MemoryItem],
    similar: list[tuple[MemoryItem, float]],
    cal: Calibration,
) -> Decision:
    """Decide ADD / NOOP / SUPERSEDE for ``candidate``.

    Args:
        candidate: the admitted, redacted candidate.
        same_topic: active memories of the same user/agent with the candidate's topic.
        similar: active non-episode memories with their cosine to the candidate, best first.
        cal: the embedder's calibration (duplicate and related thresholds).
    """
    for m in same_topic:
        if _same_text(m.content, candidate.content):
            return Decision(Action.NOOP, candidate, m)
    for m, cos in similar:
        if cos >= cal.duplicate and m.kind == candidate.kind:
            return Decision(Action.NOOP, candidate, m)
    if candidate.kind in TIMELINE_KINDS:
        return Decision(Action.ADD, candidate)
    if same_topic and candidate.topic:
        # Newest first: the chain's head is the one to supersede.
        head = max(same_topic, key=lambda m: m.id)
        return Decision(Action.SUPERSEDE, candidate, head)
    if candidate.is_correction:
        for m, cos in similar:
            if cos >= cal.related and m.kind not in TIMELINE_KINDS:
                return Decision(Action.SUPERSEDE, candidate, m)
    return Decision(Action.ADD, candidate)
