"""Which stored fact a message changes, when no rule said: a small learned score (pure).

The write rules place a change by its wording; each new writer brings wordings none of them
knows, so a told change ("we ended up in Hangzhou after all", "公司把我调去深圳了") can leave
the old fact active. This module scores each (message, active fact) pair of one user with a
logistic model over features that are properties of any conversation, not of one wording:

* how close the message is to the fact in meaning (its cosine, and its margin over the
  user's next-closest fact: a change is about *one* fact);
* the content words they share, and that margin;
* whether the message names the fact's value, says a change, a correction, a leaving, a
  restatement (还 / still), an addition (也 / also), the past, a wish or a question;
* whether the message is about the fact's subject (the user, a relative, a pet).

The weights are fitted by ``bench/change_model.py`` on the development correction sets only
(leave-one-set-out), never on the held-out ones; the step that uses them
(:mod:`jiyi.pipeline.learned_change`) fires only above a threshold chosen there for no
collateral, and only when the rules changed nothing.

Pure functions, no I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from jiyi.core.anaphora import USER, named_subjects, said_subjects, subject_of
from jiyi.core.changes import changed_clauses, content_words
from jiyi.core.extraction.lexicon_places import is_place_zh
from jiyi.core.models import MemoryItem
from jiyi.core.slots import is_timeline_slot, normalize_value
from jiyi.core.text import has_cjk, to_simplified, tokenize

__all__ = ["FEATURES", "WEIGHTS", "PairScore", "area", "changeable", "features", "score_pairs"]

# The median cosine of two unrelated texts under E5 (core/calibration.py, ``floor``).
_UNRELATED = 0.8
_KEYED = frozenset({"like", "dislike", "yes", "no"})
_CORRECTION = re.compile(
    r"记错|说错|搞错|弄错|写错|打错|更正|纠正|不对|其实是|应该是|不是\S{1,12}[，,]?(?:而)?是|"
    r"\b(?:i meant|correction|i was wrong|got it wrong|mixed up|misspoke|typo|"
    r"not \w+(?: \w+)? but|actually)\b",
    re.IGNORECASE,
)
_CHANGE_WORD = re.compile(
    r"现在|如今|目前|改|换|搬|调|转|跳槽|辞|离职|退|不再|已经|升|变|开始|而家|"
    r"\b(?:now|nowadays|these days|anymore|any more|no longer|instead|switch\w*|swap\w*|"
    r"chang\w*|mov\w*|relocat\w*|transferr\w*|left|quit|dropp\w*|stopp\w*|started|turned|"
    r"promot\w*|renam\w*)\b",
    re.IGNORECASE,
)
_LEAVES = re.compile(
    r"辞|离开|离职|退|不再|不\S{0,6}了|没再|戒|卖|从\S{1,8}(?:搬|调|转|换|改)|"
    r"\b(?:quit|left|leaving|no longer|anymore|stopped|gave up|dropped|sold|from)\b|n't",
    re.IGNORECASE,
)
_STILL = re.compile(
    r"还|仍|依然|依旧|照样|照旧|仲|继续|\b(?:still|remain\w*|stay\w*)\b", re.IGNORECASE
)
_ADDS = re.compile(r"也|又|另外|同时|\b(?:also|too|as well|another)\b", re.IGNORECASE)
_NOT_NOW = re.compile(
    r"以前|之前|曾经|当年|小时候|年轻时|年轻的时候|想|打算|如果|要是|假如|也许|可能|准备|计划|希望|考虑|"
    r"差点|从来没|从没|没有变|没变|\b(?:used to|back then|when i was|thinking|might|maybe|if|"
    r"would|wish|plan\w*|want\w*|ago|never|almost|nearly|turned (?:it|them|that) down|"
    r"nothing'?s changed)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[?？]|吗\s*$")

FEATURES = (
    "bias",
    "cos",
    "cos_margin",
    "cos_top",
    "shared",
    "shared_margin",
    "shared_top",
    "value_said",
    "changed_clause",
    "change_word",
    "correction",
    "leaves",
    "still",
    "adds",
    "not_now",
    "question",
    "subject_same",
    "subject_other",
    "fact_of_user",
    "zh",
    "said_same_area",
    "said_same_subject",
    "said_event",
    "value_still",
    "new_words",
    "new_of_kind",
)


@dataclass(frozen=True)
class PairScore:
    """One stored fact with its feature vector and the model's probability that the
    message changes it."""

    memory: MemoryItem
    x: tuple[float, ...]
    p: float


def changeable(topic: str | None) -> bool:
    """May the learned step change a fact of this slot? Never a health fact (an allergy
    lost to a guess is the worst error a memory can make), a name (renames have their own
    rules) or a timeline (events are appended, not replaced)."""
    if not topic or topic.endswith(".name") or is_timeline_slot(topic):
        return False
    return not (topic.startswith("health.") or ".health." in topic)


_NUMBER = re.compile(r"\d+|[零〇一二两三四五六七八九十百]+")
_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z0-9'&-]+")


def _new_of_kind(value: str, fact: str, message: str) -> bool:
    """Does ``message`` name a value of the fact value's kind that the fact does not hold: a
    different number, another place, another proper name?"""
    if not value:
        return False
    if _NUMBER.fullmatch(value) or any(c.isdigit() for c in value):
        return any(n not in fact for n in _NUMBER.findall(message))
    if has_cjk(value):
        if not is_place_zh(value):
            return False
        return any(is_place_zh(t) and t not in fact for t in tokenize(message) if len(t) > 1)
    if value[:1].isupper() or value[:1].isdigit():
        names = {w for w in _PROPER.findall(message) if w not in ("I", "I'm", "I've")}
        return any(w.lower() not in fact.lower() for w in names)
    return False


_TWO_PART = frozenset({"family", "pet", "location", "work"})


def area(topic: str) -> str:
    """The part of a slot a change stays inside: a relative's or pet's own slots
    (``family.son``), one kind of place (``location.home``; a new workplace is no new
    home), one side of work (``work.role``; a promotion keeps the employer), else the
    user's area (``diet``, ``habit``)."""
    parts = topic.split(".")
    return ".".join(parts[:2]) if parts[0] in _TWO_PART else parts[0]


def features(
    message: str,
    stored: Sequence[MemoryItem],
    cosines: Sequence[float],
    said: Sequence[tuple[str, str | None]] = (),
) -> list[tuple[float, ...]]:
    """The feature vector (:data:`FEATURES`) of ``message`` with each of ``stored`` (the
    user's active facts), given the message's cosine with each and the (slot, value) of
    what the rules extracted from the message (``said``)."""
    plain = to_simplified(message) if has_cjk(message) else message
    low = plain.lower()
    words = content_words(plain)
    shared = [len(words & content_words(to_simplified(m.content))) for m in stored]
    subjects = said_subjects(plain, named_subjects(stored))
    cues = (
        1.0 if changed_clauses(message) else 0.0,
        1.0 if _CHANGE_WORD.search(plain) else 0.0,
        1.0 if _CORRECTION.search(plain) else 0.0,
        1.0 if _LEAVES.search(plain) else 0.0,
        1.0 if _STILL.search(plain) else 0.0,
        1.0 if _ADDS.search(plain) else 0.0,
        1.0 if _NOT_NOW.search(plain) else 0.0,
        1.0 if _QUESTION.search(plain) else 0.0,
    )
    out: list[tuple[float, ...]] = []
    for i, m in enumerate(stored):
        # a user with one fact has no rival: the margin is over an unrelated sentence's cosine
        others_cos = [c for j, c in enumerate(cosines) if j != i] + [_UNRELATED]
        others_shared = [s for j, s in enumerate(shared) if j != i] or [0]
        value = normalize_value(m.value) if m.value and m.value not in _KEYED else ""
        topic = m.topic or ""
        who = subject_of(topic)
        other_value = [(t, v) for t, v in said if not v or not value or normalize_value(v) != value]
        fact_words = content_words(to_simplified(m.content))
        out.append(
            (
                1.0,
                (cosines[i] - 0.8) * 10,
                (cosines[i] - max(others_cos)) * 10,
                1.0 if cosines[i] >= max(others_cos) else 0.0,
                float(min(shared[i], 3)),
                float(max(-3, min(3, shared[i] - max(others_shared)))),
                1.0 if shared[i] > 0 and shared[i] >= max(others_shared) else 0.0,
                1.0 if value and value in low else 0.0,
                *cues,
                1.0 if who in subjects else 0.0,
                1.0 if subjects and who not in subjects else 0.0,
                1.0 if who == USER else 0.0,
                1.0 if has_cjk(message) else 0.0,
                1.0 if any(area(t) == area(topic) for t, _ in other_value) else 0.0,
                1.0
                if any(subject_of(t) == who and not t.startswith("event") for t, _ in said)
                else 0.0,
                1.0 if any(t.startswith("event") for t, _ in said) else 0.0,
                1.0 if value and value in low and cues[4] else 0.0,
                float(min(len(words - fact_words), 4)) / 2,
                1.0 if m.value and _new_of_kind(m.value, m.content, plain) else 0.0,
            )
        )
    return out


# Fitted by bench/change_model.py (see bench/README.md); one weight per FEATURES entry.
WEIGHTS: dict[str, float] = {
    "bias": -6.976,
    "cos": 2.510,
    "cos_margin": 2.766,
    "cos_top": 1.169,
    "shared": 0.425,
    "shared_margin": -0.013,
    "shared_top": -0.294,
    "value_said": -0.095,
    "changed_clause": 2.087,
    "change_word": 0.449,
    "correction": -0.688,
    "leaves": 0.488,
    "still": -0.562,
    "adds": -1.071,
    "not_now": -1.850,
    "question": -0.005,
    "subject_same": 0.828,
    "subject_other": 0.479,
    "fact_of_user": -0.008,
    "zh": -2.554,
    "said_same_area": 3.106,
    "said_same_subject": 0.782,
    "said_event": 1.025,
    "value_still": -0.157,
    "new_words": 0.225,
    "new_of_kind": 1.218,
}


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def score_pairs(
    message: str,
    stored: Sequence[MemoryItem],
    cosines: Sequence[float],
    said: Sequence[tuple[str, str | None]] = (),
    weights: Mapping[str, float] = WEIGHTS,
) -> list[PairScore]:
    """Each of ``stored`` that may change (:func:`changeable`) and that the message is tied
    to by more than meaning (the rules read a value of its area from the message, the
    message names a new value of its value's kind, or they share a content word), with its
    probability of being what ``message`` changes, best first (the features compare it
    with all of ``stored``). Similarity alone never picks a fact."""
    rows = features(message, stored, cosines, said)
    w = [weights[name] for name in FEATURES]
    tied = [FEATURES.index(n) for n in ("said_same_area", "new_of_kind", "shared")]
    scored = [
        PairScore(m, x, _sigmoid(sum(a * b for a, b in zip(w, x, strict=True))))
        for m, x in zip(stored, rows, strict=True)
        if changeable(m.topic) and any(x[i] > 0 for i in tied)
    ]
    return sorted(scored, key=lambda s: -s.p)
