"""PII detection and redaction, applied before storage and before embedding.

Detected kinds: mainland resident ID numbers (checksum and birth date verified), bank card
numbers (Luhn-verified), mainland mobile numbers and e-mail addresses. Every numeric detector
refuses digits that are part of a longer digit run, so order numbers, timestamps and prices do
not trigger it; card and ID candidates must also pass their checksum.

Redaction replaces each span with a placeholder in the text's language and reports only counts
per kind: the values themselves are never kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Literal

from jiyi.core.models import Redaction
from jiyi.core.text import has_cjk

__all__ = ["PiiFinding", "PiiKind", "PiiPolicy", "find_pii", "redact_pii"]

PiiKind = Literal["id_card", "bank_card", "phone", "email"]


class PiiPolicy(StrEnum):
    """What the write path does with a message that contains PII."""

    REDACT = "redact"  # store with placeholders
    REJECT = "reject"  # refuse the message (InvalidInputError)
    ALLOW = "allow"  # store as is (the operator has consented)


@dataclass(frozen=True)
class PiiFinding:
    """One PII span ``text[start:end]``."""

    kind: PiiKind
    start: int
    end: int


_PLACEHOLDERS_ZH: dict[PiiKind, str] = {
    "id_card": "[身份证号]",
    "bank_card": "[银行卡号]",
    "phone": "[手机号]",
    "email": "[邮箱]",
}
_PLACEHOLDERS_EN: dict[PiiKind, str] = {
    "id_card": "[ID number]",
    "bank_card": "[card number]",
    "phone": "[phone]",
    "email": "[email]",
}
# When spans overlap the more specific detector wins: an 18-digit run with a valid ID checksum
# is an ID number even if it also happens to pass Luhn.
_PRIORITY: dict[PiiKind, int] = {"id_card": 0, "bank_card": 1, "phone": 2, "email": 3}

# ``(?<![\d.])`` / ``(?![\d])`` keep matches out of longer digit runs and decimals (prices).
_ID_RE = re.compile(r"(?<![\d.])\d{17}[\dXx](?![\dXx])")
_CARD_PLAIN_RE = re.compile(r"(?<![\d.])\d{16,19}(?![\d]|\.\d)")
# Cards printed in groups of four with one consistent separator; the tail group may be 1-3
# digits (19-digit UnionPay cards are often written 4-4-4-4-3).
_CARD_GROUPED_RE = re.compile(
    r"(?<![\d.])\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?(?![\d]|\.\d)"
)
_PHONE_RE = re.compile(
    r"(?:(?<![0-9A-Za-z+])\+?86[ -]?|(?<![0-9A-Za-z.]))"  # optional country code
    r"1[3-9]\d(?P<sep>[ -]?)\d{4}(?P=sep)\d{4}"
    r"(?![\d]|\.\d|[ -]\d)"
)
_EMAIL_RE = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])"
)

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"  # ISO 7064 MOD 11-2 check characters, indexed by sum % 11


def _valid_id_number(value: str) -> bool:
    if value[0] == "0":
        return False
    try:
        born = date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    # Oldest plausible holder; nobody is issued an ID for a future birth date.
    if born.year < 1900 or born > date.today():
        return False
    total = sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17].upper()


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _valid_card_number(digits: str) -> bool:
    # Runs of one repeated digit (0000…) pass Luhn but are filler, not cards.
    return digits[0] != "0" and len(set(digits)) > 1 and _luhn_ok(digits)


def find_pii(text: str) -> list[PiiFinding]:
    """Find PII spans in ``text``.

    Args:
        text: any text, Chinese, English or mixed.

    Returns:
        Non-overlapping findings sorted by start offset. Where detectors overlap, ID number
        beats bank card beats phone beats e-mail.
    """
    raw: list[PiiFinding] = []
    for m in _ID_RE.finditer(text):
        if _valid_id_number(m.group(0)):
            raw.append(PiiFinding("id_card", m.start(), m.end()))
    for pattern in (_CARD_PLAIN_RE, _CARD_GROUPED_RE):
        for m in pattern.finditer(text):
            digits = re.sub(r"\D", "", m.group(0))
            if 16 <= len(digits) <= 19 and _valid_card_number(digits):
                raw.append(PiiFinding("bank_card", m.start(), m.end()))
    for m in _PHONE_RE.finditer(text):
        raw.append(PiiFinding("phone", m.start(), m.end()))
    for m in _EMAIL_RE.finditer(text):
        raw.append(PiiFinding("email", m.start(), m.end()))

    accepted: list[PiiFinding] = []
    for f in sorted(raw, key=lambda f: (_PRIORITY[f.kind], f.start, -(f.end - f.start))):
        if all(f.end <= a.start or f.start >= a.end for a in accepted):
            accepted.append(f)
    return sorted(accepted, key=lambda f: f.start)


def redact_pii(text: str) -> tuple[str, list[Redaction]]:
    """Replace every PII span with a placeholder.

    Placeholders are Chinese (``[身份证号]`` ``[银行卡号]`` ``[手机号]`` ``[邮箱]``) when the text
    contains CJK characters, else English (``[ID number]`` ``[card number]`` ``[phone]``
    ``[email]``). Placeholders contain no digits or ``@``, so redacting twice is a no-op.

    Returns:
        The redacted text and one :class:`Redaction` per kind found, with its count, in order
        of first appearance. The values are not kept.
    """
    findings = find_pii(text)
    if not findings:
        return text, []
    labels = _PLACEHOLDERS_ZH if has_cjk(text) else _PLACEHOLDERS_EN
    parts: list[str] = []
    counts: dict[PiiKind, int] = {}
    pos = 0
    for f in findings:
        parts.append(text[pos : f.start])
        parts.append(labels[f.kind])
        counts[f.kind] = counts.get(f.kind, 0) + 1
        pos = f.end
    parts.append(text[pos:])
    return "".join(parts), [Redaction(kind=k, count=n) for k, n in counts.items()]
