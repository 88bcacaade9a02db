"""PII detection and redaction, applied before storage and before embedding.

Detected kinds (see :data:`PiiKind`): identity numbers (mainland resident IDs, Hong Kong and
Taiwan identity cards, US SSNs, passports), card, IBAN and tax numbers, telephone numbers of any
region (mobile and other), e-mail addresses, labelled account ids (QQ, WeChat, Telegram, …),
licence plates and street addresses. Checksums are verified wherever a number has one:
:mod:`jiyi.core.pii_numbers` uses python-stdnum and phonenumbers besides the mainland validators;
:mod:`jiyi.core.pii_labels` and :mod:`jiyi.core.pii_address` hold the pattern detectors.

Detection runs on an NFKC view of the text, so full-width digits and letters (１３８…, ＡＢＣ)
are caught, and spans are mapped back to the original: the stored text keeps its full-width
punctuation. Numeric detectors refuse digits that are part of a longer digit run or a decimal,
so order numbers, timestamps and prices do not trigger them.

Redaction replaces each span with a placeholder in the text's language and reports only counts
per kind: the values themselves are never kept. Whether a message is redacted, rejected or kept
as is, is the caller's :class:`PiiPolicy`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from jiyi.core.models import Redaction
from jiyi.core.pii_address import find_addresses
from jiyi.core.pii_kinds import (
    PLACEHOLDERS_EN,
    PLACEHOLDERS_ZH,
    PRIORITY,
    UNITS,
    PiiKind,
    Span,
    View,
)
from jiyi.core.pii_labels import find_accounts, find_plates
from jiyi.core.pii_numbers import find_numbers
from jiyi.core.text import has_cjk

__all__ = ["PiiFinding", "PiiKind", "PiiPolicy", "find_pii", "redact_pii"]


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


# Characters NFKC may change: everything but ASCII and the common CJK ideographs, which it
# keeps as they are.
_MAX_PASSES = 4
# Characters next to a finding that some detector's boundary check looks at.
_GLUE_RE = re.compile(rf"[0-9A-Za-z._%+\-@/:#()'{UNITS}]")
_UNSTABLE_RE = re.compile(r"[^\x00-\x7f\u3400-\u4dbf\u4e00-\u9fff]+")


def _nfkc_view(text: str) -> tuple[str, list[int] | None]:
    """NFKC view of ``text`` and, if it differs, the original offset of each view character.

    Each character is normalised on its own, so a view character always comes from exactly one
    original character and every view span maps back to whole original characters.
    """
    if text.isascii():
        return text, None
    parts: list[str] = []
    origin: list[int] = []
    pos = 0
    changed = False
    for m in _UNSTABLE_RE.finditer(text):
        parts.append(text[pos : m.start()])
        origin.extend(range(pos, m.start()))
        for i in range(m.start(), m.end()):
            folded = unicodedata.normalize("NFKC", text[i])
            changed = changed or folded != text[i]
            parts.append(folded)
            origin.extend([i] * len(folded))
        pos = m.end()
    if not changed:
        return text, None
    parts.append(text[pos:])
    origin.extend(range(pos, len(text)))
    return "".join(parts), origin


def _detect(text: str) -> list[Span]:
    view = View(text)
    spans: list[Span] = []
    spans.extend(find_numbers(view))
    spans.extend(find_accounts(view))
    spans.extend(find_plates(view))
    spans.extend(find_addresses(view))
    return spans


def _find(text: str) -> tuple[list[PiiFinding], bool]:
    """Findings, and whether redacting them could let a refused span through on a rescan.

    That can happen when a dropped span only partly overlapped a winner, or when a finding is
    glued to a character some detector's boundary check looks at (``123 Main Street`` right
    before an ID number); text whose PII stands between CJK, spaces or punctuation needs one
    pass.
    """
    view, origin = _nfkc_view(text)
    spans = _detect(view)
    if not spans:
        return [], False
    accepted: list[Span] = []
    again = False
    for span in sorted(spans, key=lambda s: (PRIORITY[s[0]], s[1], -(s[2] - s[1]))):
        _, start, end = span
        clash = [a for a in accepted if start < a[2] and a[1] < end]
        if not clash:
            accepted.append(span)
        elif not any(a[1] <= start and end <= a[2] for a in clash):
            again = True
    findings = []
    for kind, start, end in sorted(accepted, key=lambda s: s[1]):
        glued = _GLUE_RE.match(view, start - 1) if start else None
        again = again or glued is not None or _GLUE_RE.match(view, end) is not None
        if origin is not None:
            start, end = origin[start], origin[end - 1] + 1
        findings.append(PiiFinding(kind, start, end))
    return findings, again


def find_pii(text: str) -> list[PiiFinding]:
    """Find PII spans in ``text``.

    Args:
        text: any text, Chinese, English or mixed; full-width characters are folded first.

    Returns:
        Non-overlapping findings with offsets into ``text``, sorted by start offset. Where
        detectors overlap the more specific kind wins, in the order of
        :data:`jiyi.core.pii_kinds.PRIORITY` (ID number first, address last), then the longer
        span.
    """
    return _find(text)[0]


def redact_pii(text: str) -> tuple[str, list[Redaction]]:
    """Replace every PII span with a placeholder.

    Placeholders are Chinese (``[身份证号]`` ``[手机号]`` ``[电话]`` ``[护照号]`` ``[账号]``
    ``[车牌号]`` ``[地址]`` …) when the text contains CJK characters, else English
    (``[ID number]`` ``[phone]`` ``[passport]`` ``[account]`` ``[plate]`` ``[address]`` …).
    Placeholders contain no digits or ``@``, so redacting twice is a no-op.

    A span that a detector refused only because of what stood next to it (``123 Main Street``
    glued to an ID number) may stand alone once its neighbour is a placeholder, so the text is
    scanned again until nothing more is found (one pass in practice, two at most).

    Returns:
        The redacted text and one :class:`Redaction` per kind found, with its count, in order
        of first appearance. The values are not kept.
    """
    labels = PLACEHOLDERS_ZH if has_cjk(text) else PLACEHOLDERS_EN
    counts: dict[PiiKind, int] = {}
    for _ in range(_MAX_PASSES):
        findings, again = _find(text)
        if not findings:
            break
        parts: list[str] = []
        pos = 0
        for f in findings:
            parts.append(text[pos : f.start])
            parts.append(labels[f.kind])
            counts[f.kind] = counts.get(f.kind, 0) + 1
            pos = f.end
        parts.append(text[pos:])
        text = "".join(parts)
        if not again:
            break
    return text, [Redaction(kind=k, count=n) for k, n in counts.items()]
