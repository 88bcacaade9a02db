"""One memory candidate from one rule hit: the third-person content, the value (a birth year
said short as four digits), importance, confidence and the message it came from. Pure."""

from __future__ import annotations

import re
from datetime import datetime

from jiyi.core.extraction.en import third_person_en
from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.importance import score_importance
from jiyi.core.extraction.lexicon import HEDGE_RE
from jiyi.core.extraction.zh_common import third_person_zh
from jiyi.core.models import Candidate, MemoryKind, Message
from jiyi.core.slots import PART_TEXTS, PARTS, normalize_value

__all__ = ["CONFIDENCE_HEDGED", "CONFIDENCE_STATED", "make_candidate"]

CONFIDENCE_STATED = 0.9
CONFIDENCE_HEDGED = 0.6


def _full_year(value: str, now: datetime) -> str:
    """88 / 八八 / '91 → 1988 / 1988 / 1991; a four-digit year as it is."""
    digits = normalize_value(value).lstrip("'")
    if not re.fullmatch(r"\d{2}", digits):
        return value
    century = 2000 if int(digits) <= now.year % 100 else 1900
    return str(century + int(digits))


def make_candidate(
    hit: Hit, quote: str, clause: str, lang: str, msg: Message, observed: datetime, correction: bool
) -> Candidate:
    content = hit.content or (third_person_zh(clause) if lang == "zh" else third_person_en(clause))
    expires = None
    if hit.ttl is not None:
        # Events count from their own day (when in the future); states from when said.
        base = (
            hit.when
            if hit.kind is MemoryKind.EVENT and hit.when and hit.when > observed
            else (observed)
        )
        expires = base + hit.ttl
    metadata: dict[str, object] = {
        "rule": hit.rule,
        "lang": lang,
        "polarity": hit.polarity,
        "object": hit.obj,
    }
    metadata["subject"] = hit.subject
    if hit.parts:
        metadata[PARTS] = {slot: value for slot, (value, _) in hit.parts.items()}
        metadata[PART_TEXTS] = {slot: text for slot, (_, text) in hit.parts.items()}
    # Keyed slots (pref.茶, health.allergy.花生) hold a polarity; others say their value.
    value = hit.value if hit.value is not None else hit.polarity
    if hit.topic == "identity.birth_year" and value:
        said, value = value, _full_year(value, observed)  # 88年的 = 1988: one value
        if hit.content and lang == "en" and said != value:  # "an '87 baby": born in 1987
            short = re.escape(said.lstrip("'"))
            content = re.sub(rf"(?<!\d){short}(?!\d)", value, content, count=1)
    if hit.rule == "bare.replaces":  # admitted as a correction; its slot is resolved on write
        content = third_person_zh(clause) if lang == "zh" else third_person_en(clause)
    return Candidate(
        kind=hit.kind,
        topic=hit.topic or None,
        value=value,
        content=content,
        # What was understood counts too: "Peanuts make me break out" is an allergy.
        # (a rule that reads the clause as how today is going weighs the whole message)
        importance=max(
            score_importance(
                f"{quote} {content}" + (f" {msg.content}" if hit.rule.endswith(".today") else ""),
                hit.kind,
            ),
            0.6 if hit.rule in ("bare.replaces", "bare.time") else 0.0,
        )
        * (0.0 if hit.rule == "plan.moment" else 1.0),  # bound to this moment: transient
        confidence=CONFIDENCE_HEDGED if HEDGE_RE.search(quote) else CONFIDENCE_STATED,
        quote=quote,
        source_message_ids=[msg.id] if msg.id else [],
        role="user",
        is_correction=correction,
        valid_from=hit.when,
        expires_at=expires,
        observed_at=observed,
        metadata={k: v for k, v in metadata.items() if v is not None},
    )
