"""The user's newer word on a topic ranks above the older one (read path, pure).

Reconciling by slot (core/reconcile.py) retires an old value only when the correction is
placed in the old fact's slot. Phrasings no rule knows ("周三老加班，游泳就挪到周五晚上了",
"my sister packed up and went to Tucson") leave the old fact active, and it outranks the
newer message: the agent answers with the outdated value. This step does not decide that
anything is outdated, and it changes nothing stored; among the hits of one search it puts a
later statement of the user *about the same thing* and *saying that it changed* directly
above the earlier hits it follows:

- **same thing**: the two share a content word (not a function word, not a single Chinese
  character, not a short English word) in one clause of the newer message: 游泳, sister,
  多肉葡萄, Phoenix (the old value, named as left behind);
- **changed**: that clause carries a change marker (现在, 改成, 挪到, 不…了, now, instead,
  switched, left, no longer, these days …) and is not a question, a wish, a plan being
  weighed, a memory of the past ("以前", "used to") or said of someone else ("my buddy
  moved to Seattle");
- **close enough**: the newer hit already scores at least ``ratio`` of the older one, so a
  barely related message is never lifted.

The older hits keep their place relative to each other, one below the newer hit; the
newer hit's score becomes the older one's (the order stays sorted by score) and its
components gain ``newer`` (1.0), the older ones' ``followed`` (1.0). What counts as a change
and as a content word is :mod:`jiyi.core.changes`, shared with the write path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from jiyi.core.changes import clause_words, content_words
from jiyi.core.extraction.markers import STRONG_MARKER
from jiyi.core.models import MemoryItem, MemoryKind, SearchHit

__all__ = ["CHANGED_LABEL", "newer_first", "says_changed"]

# How a context block labels what the user's newer word says has changed.
CHANGED_LABEL = {"zh": "后来可能已变", "en": "may have changed since"}

_QUESTION = re.compile(r"[?？]|吗")  # a correction asked, not told

# A later message must be this much later to count as newer: not a fact and the message it
# came from, nor two messages of one batch without their own times (they share one time).
_LATER = timedelta(seconds=1)


def newer_first(hits: Sequence[SearchHit], ratio: float, window: int) -> list[SearchHit]:
    """``hits`` (best first) with each qualifying newer statement moved directly above the
    first older hit about the same thing, among the first ``window`` hits. ``ratio`` 0: off."""
    out = list(hits)
    if ratio <= 0 or len(out) < 2:
        return out
    told = _told(out[:window])
    for j in range(1, min(window, len(out))):
        newer = out[j]
        clauses = _changed_clauses(newer.memory)
        if not clauses:
            continue
        same = [i for i in range(j) if _follows(newer, out[i], clauses, ratio)]
        # Only past a stored fact (or a corrected message) on the same thing: between raw
        # messages a later "now" is a conversation going on (LoCoMo R@1 48.3 → 38.5).
        if same and any(_settled(out[i].memory) or out[i].memory.id in told for i in same):
            i = same[0]
            out[i : j + 1] = [_lifted(newer, out[i].score), *map(_followed, out[i:j])]
    _label_below(out, min(window, len(out)), told, ratio)
    return out


def _label_below(hits: list[SearchHit], window: int, told: set[str], ratio: float) -> None:
    """Label a stored fact the user's newer word already outranks on its own, as a lifted one
    is labelled: the block must not show "表哥住在青岛" as current below "表哥现在调去深圳了"."""
    for i, older in enumerate(hits[:window]):
        m = older.memory
        if "followed" in older.scores or not (_settled(m) or m.id in told):
            continue
        for k in range(i):
            newer = hits[k]
            clauses = _changed_clauses(newer.memory)
            if clauses and _follows(newer, older, clauses, ratio):
                hits[k] = _lifted(newer, newer.score)
                hits[i] = _followed(older)
                break


def says_changed(older: str, newer: str) -> bool:
    """Does ``newer`` say, in a clause of now, that the thing ``older`` is about changed
    (the test :func:`newer_first` applies to two hits, on two texts)?"""
    words = content_words(older)
    return any(words & c for c in clause_words(newer))


def _told(hits: Sequence[SearchHit]) -> set[str]:
    """The messages among ``hits`` that a stored fact or preference among them came from
    ("I go to the gym every day at 6am" beside "User goes to the gym every day at 6am")."""
    sources = {i for h in hits if _settled(h.memory) for i in h.memory.source_message_ids}
    return {
        h.memory.id
        for h in hits
        if h.memory.kind == MemoryKind.EPISODE and sources & set(h.memory.source_message_ids)
    }


def _settled(m: MemoryItem) -> bool:
    """A stored fact or preference, or a message whose fact was corrected. Not a plan, goal or
    event: "I went to the conference" later tells what became of a plan, it changes nothing."""
    if m.kind == MemoryKind.EPISODE:
        return m.valid_to is not None
    return m.kind in (MemoryKind.FACT, MemoryKind.PREFERENCE)


def _follows(
    newer: SearchHit, older: SearchHit, clauses: list[frozenset[str]], ratio: float
) -> bool:
    a, b = older.memory, newer.memory
    if b.observed_at - a.observed_at < _LATER or newer.score < ratio * older.score:
        return False
    if a.role not in (None, "user") or (a.speaker and b.speaker and a.speaker != b.speaker):
        return False
    words = content_words(a.content)
    return any(words & c for c in clauses)


def _changed_clauses(m: MemoryItem) -> list[frozenset[str]]:
    """The content words of each clause of ``m`` that says something changed (none for an
    assistant's turn, a question, the past, a plan or someone else's news); a message that
    says an earlier value was wrong (记错了 / 说错了 / "I meant", extraction's
    ``STRONG_MARKER``) changes what it names, all of it."""
    if m.role not in (None, "user"):
        return []
    said = list(clause_words(m.content))
    if not said and _corrects(m.content) and not _QUESTION.search(m.content):
        said = [content_words(m.content)]
    return said


# Marker words that also open chat that fixes nothing ("sorry, long day", "I mean, Boston is
# great", "quick update: …").
_LOOSE = frozenset({"sorry", "update", "i mean"})


def _corrects(text: str) -> bool:
    """Does ``text`` say an earlier value was wrong (记错了, "I meant", "my mistake")?"""
    return any(m.group().lower() not in _LOOSE for m in STRONG_MARKER.finditer(text))


def _lifted(hit: SearchHit, score: float) -> SearchHit:
    return SearchHit.model_construct(
        memory=hit.memory, score=max(hit.score, score), scores=hit.scores | {"newer": 1.0}
    )


def _followed(hit: SearchHit) -> SearchHit:
    return SearchHit.model_construct(
        memory=hit.memory, score=hit.score, scores=hit.scores | {"followed": 1.0}
    )
