"""The grounding gate of LLM extraction: what an LLM proposes is kept only when a user said it.

A memory survives if its ``quote`` occurs (after light normalisation) in a USER message of the
batch and its content shares a content word with that quote; forget requests must be grounded
and carry a forget verb. Trivial turns (chit-chat, bare questions) never reach the model.
Slots and values come from the rule extractor run on the quote, never from the LLM's topic."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from jiyi.core.extraction import RuleExtractor, is_chitchat, score_importance
from jiyi.core.extraction.candidate import CONFIDENCE_HEDGED, CONFIDENCE_STATED
from jiyi.core.extraction.lexicon import HEDGE_RE
from jiyi.core.extraction.segment import is_passive, is_request_or_question, split_clauses
from jiyi.core.models import (
    Candidate,
    ForgetRequest,
    MemoryKind,
    Message,
    Origin,
    Skipped,
)
from jiyi.core.pii import redact_pii
from jiyi.core.text import has_cjk, query_terms
from jiyi.llm.prompts.extract import (
    ExtractedMemory,
    ExtractionResponse,
    Lang,
)

__all__ = [
    "CONFIDENCE_HEDGED",
    "CONFIDENCE_STATED",
    "GateResult",
    "ground",
    "is_trivial",
    "lang_of",
]

# Words of a content that say nothing about what it is about ("用户…" / "User …").
_GENERIC = frozenset({"用户", "user", "users", "s"})
_FORGET_VERB = re.compile(
    r"忘|删|别记|不要记|不用记|别存|不要存|别保存|不要保存|\bforget\b|\bdelete\b|\berase\b|"
    r"\bremove\b|\bwipe\b|\bunlearn\b|(?:don't|do not|dont|never)\s+(?:remember|save|store|keep|"
    r"record|memori[sz]e)",
    re.IGNORECASE,
)
# A question that still tells something about the user ("should I eat nuts if I'm allergic?").
_ASKING_ZH = re.compile(r"帮我|给我|替我|告诉我|提醒我|请问|问我")
_ASKING_EN = re.compile(
    r"\b(?:should|can|could|do|am|did|have|may|shall|would|will|where|what|how|when)\s+i\b|"
    r"\b(?:help|give|show|tell|remind|find|let)\s+me\b|\bi wonder\b|\bi'?d like\b|"
    r"\bi would like\b|\bi need you\b",
    re.IGNORECASE,
)
_SELF_ZH = re.compile(r"我(?!们)")
_SELF_EN = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine)\b", re.IGNORECASE)


def _norm(text: str) -> str:
    """Light normalisation for grounding: NFKC, lower case, letters and digits only (so
    punctuation, spaces and full-width forms never decide whether a quote matches)."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in "LN")


def _discloses(clause: str) -> bool:
    """Does a question clause also say something about the speaker?"""
    if has_cjk(clause):
        return bool(_SELF_ZH.search(_ASKING_ZH.sub("", clause)))
    return bool(_SELF_EN.search(_ASKING_EN.sub("", clause)))


def is_trivial(text: str) -> str | None:
    """Why a user turn is not worth an LLM call, or None if it is.

    Returns ``"empty"``, ``"passive_behavior"`` (click logs), ``"chit_chat"`` (好的 / 哈哈 /
    ok / thanks / emoji only) or ``"question"`` (every clause asks or requests something and
    none says anything about the user).
    """
    text = text.strip()
    if not text:
        return "empty"
    if is_passive(text):
        return "passive_behavior"
    if is_chitchat(text):
        return "chit_chat"
    clauses = split_clauses(text)
    if clauses and all(is_request_or_question(c) and not _discloses(c) for c in clauses):
        return "question"
    return None


@dataclass(frozen=True)
class GateResult:
    """The grounding gate's verdict on one LLM response."""

    candidates: list[Candidate]
    forget: list[ForgetRequest]
    junk: list[Skipped]  # reason: assistant_text / system_text / ungrounded / unsupported


def _find_source(quote: str, messages: Sequence[Message]) -> tuple[Message | None, str]:
    """The user message containing ``quote``, or None and why not."""
    q = _norm(quote)
    # Too short to identify anything: "我" or "I" occurs in every message.
    if len(q) < 2 or (not has_cjk(q) and len(q) < 4):
        return None, "ungrounded"
    for m in messages:
        if m.role == "user" and q in _norm(m.content):
            return m, ""
    for m in messages:
        if m.role != "user" and q in _norm(m.content):
            return None, f"{m.role}_text"
    return None, "ungrounded"


def _supported(content: str, quote: str) -> bool:
    """Does the content share at least one content word with its quote?"""
    words = {w for w in query_terms(content) if w not in _GENERIC}
    if not words:
        return False
    quoted = _norm(quote)
    return any(_norm(w) and _norm(w) in quoted for w in words)


def _slot_from_rules(quote: str, now: datetime) -> tuple[str | None, str | None]:
    """The slot and value the rules give the quoted words, when they give exactly one: the
    model's own topic is free text and never decides a supersede (core.reconcile)."""
    found = _RULES.extract([Message(role="user", content=quote)], now=now).candidates
    slots = {(c.topic, c.value) for c in found if c.topic}
    return slots.pop() if len(slots) == 1 else (None, None)


def _clamp(x: float) -> float:
    return 0.0 if x != x else min(1.0, max(0.0, float(x)))  # NaN → 0


def _candidate(mem: ExtractedMemory, source: Message, now: datetime, lang: Lang) -> Candidate:
    kind = MemoryKind(mem.kind)
    quote = redact_pii(mem.quote.strip())[0]
    stated = CONFIDENCE_HEDGED if HEDGE_RE.search(quote) else CONFIDENCE_STATED
    topic, value = _slot_from_rules(quote, now)
    return Candidate(
        kind=kind,
        topic=topic,
        value=value,
        content=redact_pii(" ".join(mem.content.split()))[0],
        # The model's guess is averaged with the rules' scorer: a small model rates almost
        # everything 0.9, and the scorer knows that health outranks taste.
        importance=round((_clamp(mem.importance) + score_importance(quote, kind)) / 2, 2),
        confidence=round(min(_clamp(mem.confidence), stated), 2),
        origin=Origin.USER_STATED,
        quote=quote,
        source_message_ids=[source.id] if source.id else [],
        role="user",
        is_correction=mem.correction,
        observed_at=source.timestamp or now,
        metadata={"extractor": "llm", "lang": lang, "llm_topic": mem.topic[:60]},
    )


def ground(
    response: ExtractionResponse, messages: Sequence[Message], *, now: datetime, lang: Lang
) -> GateResult:
    """The grounding gate: keep what a user message of the batch supports, drop the rest.

    Pure logic (no model, no I/O), so it is tested on handcrafted responses.

    Args:
        response: the validated LLM reply.
        messages: the batch as sent (redacted), with ids.
        now: when the batch was said, for messages without a timestamp.
        lang: the prompt language (recorded in metadata).
    """
    candidates: list[Candidate] = []
    junk: list[Skipped] = []
    seen: set[str] = set()
    for mem in response.memories:
        source, why = _find_source(mem.quote, messages)
        if source is None:
            junk.append(Skipped(text=mem.quote or mem.content, reason=why))
            continue
        if not _supported(mem.content, mem.quote):
            junk.append(Skipped(text=mem.quote, reason="unsupported"))
            continue
        key = _norm(mem.content)
        if key in seen:  # the same memory twice in one reply is not junk, just once
            continue
        seen.add(key)
        candidates.append(_candidate(mem, source, now, lang))
    forget: list[ForgetRequest] = []
    for req in response.forget:
        source, why = _find_source(req.quote, messages)
        if source is None or not _FORGET_VERB.search(req.quote):
            junk.append(Skipped(text=req.quote, reason=why or "not_a_forget_request"))
            continue
        target = req.target.strip() or None
        forget.append(ForgetRequest(text=req.quote, target=target, source_message_id=source.id))
    return GateResult(candidates, forget, junk)


def lang_of(messages: Sequence[Message]) -> Lang:
    user = [m.content for m in messages if m.role == "user"]
    cjk = sum(1 for t in user if has_cjk(t))
    return "zh" if cjk * 2 >= max(1, len(user)) else "en"


_RULES = RuleExtractor()
