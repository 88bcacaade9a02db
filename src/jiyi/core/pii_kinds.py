"""PII kinds, their placeholders and precedence, and regex pieces shared by the detectors.

Detectors run on an NFKC view of the text (full-width digits and letters folded to ASCII, ``：``
to ``:``) and yield ``(kind, start, end)`` spans in that view; :mod:`jiyi.core.pii` maps them
back to the original text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

PiiKind = Literal[
    "id_card",  # mainland resident ID (checksum), Hong Kong / Taiwan identity card (checksum)
    "bank_card",  # Luhn-valid card number
    "iban",  # IBAN (python-stdnum)
    "ssn",  # US social security number (python-stdnum)
    "passport",  # passport number (labelled, or a mainland E-series number)
    "tax_id",  # labelled tax number: unified social credit code, EIN, ITIN (python-stdnum)
    "phone",  # mobile number (mainland pattern, or a mobile per phonenumbers)
    "landline",  # any other telephone number: fixed line, or a plan that mixes both (+1)
    "email",
    "account",  # a labelled QQ / WeChat / Telegram / … id or user name
    "plate",  # vehicle licence plate
    "address",  # street address or building / unit / room details
]
Span = tuple[PiiKind, int, int]

PLACEHOLDERS_ZH: dict[PiiKind, str] = {
    "id_card": "[身份证号]",
    "bank_card": "[银行卡号]",
    "iban": "[银行账号]",
    "ssn": "[社会安全号]",
    "passport": "[护照号]",
    "tax_id": "[税号]",
    "phone": "[手机号]",
    "landline": "[电话]",
    "email": "[邮箱]",
    "account": "[账号]",
    "plate": "[车牌号]",
    "address": "[地址]",
}
PLACEHOLDERS_EN: dict[PiiKind, str] = {
    "id_card": "[ID number]",
    "bank_card": "[card number]",
    "iban": "[IBAN]",
    "ssn": "[SSN]",
    "passport": "[passport]",
    "tax_id": "[tax ID]",
    "phone": "[phone]",
    "landline": "[phone]",
    "email": "[email]",
    "account": "[account]",
    "plate": "[plate]",
    "address": "[address]",
}
# Where spans overlap the more specific detector wins: a checksum-validated number beats a
# pattern, a pattern beats a label, and addresses (the loosest) come last.
_ORDER: tuple[PiiKind, ...] = (
    "id_card",
    "bank_card",
    "iban",
    "ssn",
    "passport",
    "tax_id",
    "email",  # 13812345678@qq.com is an e-mail address, not a phone number
    "phone",
    "landline",
    "account",
    "plate",
    "address",
)
PRIORITY: dict[PiiKind, int] = {kind: rank for rank, kind in enumerate(_ORDER)}

# What may stand between a label and its value: spaces, ``:`` ``=`` ``#``, 是/为/is.
CONNECT = r"(?:[ \t:=#]|是|为|為|(?<![A-Za-z])is(?![A-Za-z]))*"
# Units that follow a number which is therefore not an identifier (5月, 88元, 3号线, 20分钟, …).
UNITS = "年月日号號元块塊角分秒天周週个個次点點时時岁歲斤米克度层層楼樓线線路位人名件%"


_DIGIT_RUN_RE = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class View:
    """The NFKC view a detector scans, with what the cheap pre-checks need."""

    text: str
    lower: str = field(init=False)
    digits: int = field(init=False)  # ASCII digits in the text
    run: int = field(init=False)  # the longest run of ASCII digits

    def __post_init__(self) -> None:
        digits = sum(self.text.count(d) for d in "0123456789")
        run = max(map(len, _DIGIT_RUN_RE.findall(self.text)), default=0) if digits else 0
        object.__setattr__(self, "lower", self.text.lower())
        object.__setattr__(self, "digits", digits)
        object.__setattr__(self, "run", run)

    def mentions(self, words: tuple[str, ...]) -> bool:
        """True if the text holds any of ``words`` (lower case), case-insensitively."""
        return any(w in self.lower for w in words)


def scan(
    pattern: re.Pattern[str], text: str, ok: Callable[[re.Match[str]], bool]
) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` in ``text`` that pass ``ok``.

    Unlike ``finditer``, a refused match does not hide what it spanned: the scan resumes at its
    value (group ``v``, when the pattern has one) or one character on, so in ``telegram
    telegram @bob`` the second label still gets its turn.
    """
    pos = 0
    has_value = "v" in pattern.groupindex
    while pos <= len(text) and (m := pattern.search(text, pos)) is not None:
        if ok(m):
            yield m
            pos = max(m.end(), m.start() + 1)
        else:
            value = m.start("v") if has_value else -1
            pos = value if value > m.start() else m.start() + 1
