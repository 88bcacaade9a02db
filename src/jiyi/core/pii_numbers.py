"""Number-shaped PII detectors: identity, card, bank, tax and telephone numbers, e-mail.

Every detector refuses digits that are part of a longer digit run or a decimal, so order
numbers, timestamps and prices do not trigger it, and wherever a checksum exists the candidate
must pass it: mainland resident IDs (ISO 7064), Hong Kong and Taiwan identity cards, cards
(Luhn), and through python-stdnum IBANs, US SSNs and tax numbers. Telephone numbers of any region
go through phonenumbers (default region CN, leniency VALID), plus patterns for the mainland and
Taiwan numbers it does not know (7-digit locals, ``(02)2345-6789``) and labelled numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from phonenumbers import (
    Leniency,
    NumberParseException,
    PhoneNumberMatcher,
    PhoneNumberType,
    is_valid_number,
    number_type,
    parse,
)
from stdnum import iban
from stdnum.cn import uscc
from stdnum.us import ein, itin, ssn

from jiyi.core.pii_kinds import CONNECT, UNITS, PiiKind, Span, View, scan

__all__ = ["find_numbers"]

_ID_RE = re.compile(r"(?<![\d.])\d{17}[\dXx](?![\dXx])")
_CARD_PLAIN_RE = re.compile(r"(?<![\d.])\d{16,19}(?![\d]|\.\d)")
# Cards printed in groups of four with one consistent separator; the tail group may be 1-3
# digits (19-digit UnionPay cards are often written 4-4-4-4-3).
_CARD_GROUPED_RE = re.compile(
    r"(?<![\d.])\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?(?![\d]|\.\d)"
)
_MOBILE_RE = re.compile(
    r"(?:(?<![0-9A-Za-z+])\+?86[ -]?|(?<![0-9A-Za-z.]))"  # optional country code
    r"1[3-9]\d(?P<sep>[ -]?)\d{4}(?P=sep)\d{4}"
    r"(?![\d]|\.\d|[ -]\d)"
    # Taiwan mobiles, only when written in groups (a bare 09… run may be anything).
    r"|(?<![0-9A-Za-z.+-])09\d{2}([ -])\d{3}\2\d{3}(?![\d-]|\.\d)"
)
_EMAIL_RE = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])"
)
_HKID_RE = re.compile(r"(?<![A-Za-z0-9])([A-Z]{1,2})(\d{6})\(([0-9A])\)")
_TWID_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z][1289]\d{8}(?![A-Za-z0-9])")
_IBAN_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,9}(?![a-z0-9])")
_SSN_RE = re.compile(
    r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])"
    r"|(?:(?<![A-Za-z])(?i:ssn|social security(?: number| no\.?)?)(?![A-Za-z])"
    r"|社会安全号码?|社會安全號碼?)" + CONNECT + r"(?P<v>\d{3}[ -]?\d{2}[ -]?\d{4})(?![\d-])"
)
_PASSPORT_RE = re.compile(
    r"(?:护照|護照|(?<![A-Za-z])(?i:passport))(?:号码|號碼|号|號|(?i: ?(?:number|no\.?)))?"
    + CONNECT
    + r"(?P<v>[A-Za-z]{0,2}\d{6,9}[A-Za-z]?)(?![A-Za-z0-9])"
)
# Mainland e-passports: E + 8 digits, or E + letter + 7 digits, recognisable unlabelled.
_E_PASSPORT_RE = re.compile(r"(?<![A-Za-z0-9])E(?:\d{8}|[A-HJ-NP-Z]\d{7})(?![A-Za-z0-9])")
_TAX_RE = re.compile(
    r"(?:统一社会信用代码|統一社會信用代碼|信用代码|信用代碼|纳税人识别号|納稅人識別號|税号|稅號"
    r"|(?<![A-Za-z])(?i:tax ?id|tax number|ein|itin)(?![A-Za-z]))"
    + CONNECT
    + r"(?P<v>[0-9A-Z][0-9A-Z-]{8,19})(?![A-Za-z0-9])"
)
# Mainland landlines with an area code (010, 02x, 0xxx) set off by a separator or brackets, and
# Taiwan numbers with a bracketed or dashed area code; phonenumbers rejects the 7-digit locals.
_LANDLINE_RE = re.compile(
    r"(?<![0-9A-Za-z.+-])"
    r"(?:(?:010|02\d|0[3-9]\d\d)[ -][1-9]\d{6,7}|\(0\d{1,3}\) ?[1-9]\d{2,3}[ -]?\d{4}"
    r"|0\d{1,2}-[1-9]\d{2,3}-\d{4})"
    r"(?:(?:-|转|轉|ext\.? ?)\d{1,5})?(?![\d-]|\.\d)"
)
_PHONE_LABEL = (
    r"(?:电话|電話|座机|座機|固话|固話|手机|手機|联系方式|聯絡方式|聯繫方式|传真|傳真"
    r"|(?<![A-Za-z])(?i:tel|phone|telephone|mobile|cell|fax|whatsapp|call me at|call me on"
    r"|reach me at)(?![A-Za-z]))(?:号码|號碼|号|號|(?i: ?(?:number|no\.?)))?"
)
_LABELLED_PHONE_RE = re.compile(
    _PHONE_LABEL + CONNECT + r"(?P<v>\+?\(?\d[\d ().-]{5,20}\d)(?![\d.]|[" + UNITS + "])"
)
# A stretch of digits and phone punctuation: the only text phonenumbers is shown.
_PHONE_CANDIDATE_RE = re.compile(r"[+(]?\d[\d ().\-/]{5,}\d")
_MATCHER_BUDGET = 16  # phonenumbers calls per message for numbers without a +
_DATE_RE = re.compile(r"(\d{4})[-./ ]?(\d{2})[-./ ]?(\d{2})")
_DATE_INSIDE_RE = re.compile(
    r"(?<!\d)(?:19|20)\d\d[-./](?:0?[1-9]|1[0-2])[-./](?:[0-2]?\d|3[01])(?!\d)"
)
_CN_MOBILE_DIGITS_RE = re.compile(r"(?:86)?1[3-9]\d{9}")
_PHONE_LABEL_RE = re.compile(_PHONE_LABEL + r"[^\d]{0,6}$")
_NOT_A_PHONE_AFTER_RE = re.compile(r"[.:/-]\d|[元块塊%]")  # a decimal, a time, a price
# Cheap pre-checks: a labelled detector runs only when one of its labels is in the text.
_SSN_WORDS = ("ssn", "social security", "社会安全", "社會安全")
_PASSPORT_WORDS = ("护照", "護照", "passport")
_TAX_WORDS = ("信用代", "纳税人", "納稅人", "税号", "稅號", "tax", "ein", "itin")
_PHONE_WORDS = (
    *("电话", "電話", "座机", "座機", "固话", "固話", "手机", "手機", "联系方式", "聯絡方式"),
    *("聯繫方式", "传真", "傳真", "tel", "phone", "mobile", "cell", "fax", "whatsapp"),
    *("call me", "reach me"),
)
_PHONE_TYPES = {
    PhoneNumberType.FIXED_LINE,
    PhoneNumberType.MOBILE,
    PhoneNumberType.FIXED_LINE_OR_MOBILE,
    PhoneNumberType.VOIP,
    PhoneNumberType.PERSONAL_NUMBER,
    PhoneNumberType.PAGER,
}  # not toll-free, premium, shared-cost or company (UAN) numbers: those are no one's PII

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"  # ISO 7064 MOD 11-2 check characters, indexed by sum % 11
_TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"  # A=10, B=11, … in the Taiwan ID's own order


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


def _valid_hkid(letters: str, digits: str, check: str) -> bool:
    values = [36] * (2 - len(letters)) + [ord(c) - 55 for c in letters] + [int(d) for d in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    return "0123456789A"[-total % 11] == check


def _valid_twid(value: str) -> bool:
    code = _TW_LETTERS.index(value[0]) + 10
    digits = [code // 10, code % 10] + [int(d) for d in value[1:]]
    weights = (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1)
    return sum(d * w for d, w in zip(digits, weights, strict=True)) % 10 == 0


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


def _is_date(value: str) -> bool:
    m = _DATE_RE.fullmatch(value)
    if m is None:
        return False
    try:
        date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return False
    return True


def _labelled_phone_kind(value: str, digits: str) -> PiiKind:
    if not value.startswith("+"):
        if _CN_MOBILE_DIGITS_RE.fullmatch(digits):
            return "phone"
        value = value.lstrip("(")
    try:
        number = parse(value, "CN")
    except NumberParseException:
        return "landline"
    valid = is_valid_number(number) and number_type(number) == PhoneNumberType.MOBILE
    return "phone" if valid else "landline"


def _valid_tax_number(m: re.Match[str]) -> bool:
    value = m["v"].rstrip("-")
    return bool(uscc.is_valid(value) or ein.is_valid(value) or itin.is_valid(value))


def _plausible_labelled_phone(m: re.Match[str]) -> bool:
    value = m["v"]
    digits = re.sub(r"\D", "", value)
    return 7 <= len(digits) <= 15 and not _is_date(value) and len(set(digits)) > 2


def _identity_numbers(v: View) -> Iterator[Span]:
    text = v.text
    if v.run >= 17:
        for m in _ID_RE.finditer(text):
            if _valid_id_number(m.group(0)):
                yield "id_card", m.start(), m.end()
    if v.run >= 6 and "(" in text:
        for m in _HKID_RE.finditer(text):
            if _valid_hkid(m[1], m[2], m[3]):
                yield "id_card", m.start(), m.end()
    if v.run >= 9:
        for m in _TWID_RE.finditer(text):
            if _valid_twid(m.group(0)):
                yield "id_card", m.start(), m.end()
    if v.mentions(_SSN_WORDS) or "-" in text:
        for m in scan(_SSN_RE, text, lambda m: ssn.is_valid(m["v"] or m.group(0))):
            yield "ssn", m.start("v") if m["v"] else m.start(), m.end()
    if v.run >= 6 and v.mentions(_PASSPORT_WORDS):
        for m in scan(_PASSPORT_RE, text, lambda m: not _is_date(m["v"])):
            yield "passport", m.start("v"), m.end()
    if v.run >= 7 and "E" in text:
        for m in _E_PASSPORT_RE.finditer(text):
            yield "passport", m.start(), m.end()
    if v.mentions(_TAX_WORDS):
        for m in scan(_TAX_RE, text, _valid_tax_number):
            yield "tax_id", m.start("v"), m.start("v") + len(m["v"].rstrip("-"))


def _bank_numbers(v: View) -> Iterator[Span]:
    text = v.text
    patterns = (_CARD_PLAIN_RE, _CARD_GROUPED_RE) if v.run >= 16 else (_CARD_GROUPED_RE,)
    for pattern in patterns:
        for m in pattern.finditer(text):
            digits = re.sub(r"\D", "", m.group(0))
            if 16 <= len(digits) <= 19 and _valid_card_number(digits):
                yield "bank_card", m.start(), m.end()
    for m in _IBAN_RE.finditer(text):
        # The pattern may run on into following capitals: try the longest valid prefix.
        found = m.group(0)
        ends = [len(found)] + [i for i in range(len(found) - 1, 0, -1) if found[i] == " "]
        for end in ends:
            if iban.is_valid(found[:end]):
                yield "iban", m.start(), m.start() + end
                break


def _phone_candidates(text: str, found: list[Span]) -> list[tuple[int, str]]:
    """Stretches worth showing phonenumbers: 7-16 digits that no cheaper detector has claimed.

    Every international (``+…``) one, and at most :data:`_MATCHER_BUDGET` others, so a message
    that is a table of numbers stays cheap (the cheaper detectors still see all of them).
    """
    out: list[tuple[int, str]] = []
    for c in _PHONE_CANDIDATE_RE.finditer(text):
        n = sum(ch.isdigit() for ch in c.group(0))
        if not 7 <= n <= 16:  # longer: a run of several numbers, not one phone
            continue
        start, end = c.start(), c.end()
        if any(s <= start + 1 and end <= e for _, s, e in found):
            continue
        out.append((start, c.group(0)))
    wide = [c for c in out if c[1][0] == "+"]
    return wide + [c for c in out if c[1][0] != "+"][:_MATCHER_BUDGET]


def _phonenumbers(text: str, found: list[Span]) -> Iterator[Span]:
    for offset, candidate in _phone_candidates(text, found):
        for m in PhoneNumberMatcher(candidate, "CN", leniency=Leniency.VALID):
            start, end = offset + m.start, offset + m.end
            before, after = text[start - 1 : start], text[end : end + 2]
            if (before and ((before.isalnum() and before.isascii()) or before in ".-+")) or (
                after[:1].isdigit()
                or (after[:1].isascii() and after[:1].isalpha())
                or _NOT_A_PHONE_AFTER_RE.match(after)
                or text[max(0, start - 2) : start].strip()[-1:] in ("¥", "$", "€", "£")
                or _DATE_INSIDE_RE.search(m.raw_string)
            ):
                continue
            kind = number_type(m.number)
            if kind not in _PHONE_TYPES:
                continue
            # A bare national digit run may be an order number: only a label makes it a phone.
            bare = kind != PhoneNumberType.MOBILE and m.raw_string.isdigit()
            if bare and not _PHONE_LABEL_RE.search(text[max(0, start - 16) : start]):
                continue
            yield ("phone" if kind == PhoneNumberType.MOBILE else "landline"), start, end


def _phones(v: View, found: list[Span]) -> Iterator[Span]:
    text = v.text
    own: list[Span] = [("phone", m.start(), m.end()) for m in _MOBILE_RE.finditer(text)]
    if "-" in text or "(" in text:
        own.extend(("landline", m.start(), m.end()) for m in _LANDLINE_RE.finditer(text))
    if v.mentions(_PHONE_WORDS):
        for m in scan(_LABELLED_PHONE_RE, text, _plausible_labelled_phone):
            kind = _labelled_phone_kind(m["v"], re.sub(r"\D", "", m["v"]))
            own.append((kind, m.start("v"), m.end("v")))
    yield from own
    yield from _phonenumbers(text, found + own)


def find_numbers(v: View) -> Iterator[Span]:
    """Number-shaped PII in the NFKC view ``v``."""
    if "@" in v.text:
        for m in _EMAIL_RE.finditer(v.text):
            yield "email", m.start(), m.end()
    if v.digits < 5:
        return
    found = [*_identity_numbers(v), *_bank_numbers(v)]
    yield from found
    if v.digits >= 7:
        yield from _phones(v, found)
