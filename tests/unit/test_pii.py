"""PII detection and redaction: what is caught, what is left alone, what comes out."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jiyi.core.pii import PiiPolicy, find_pii, redact_pii

ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def make_id(region: str, born: date, seq: str) -> str:
    body = f"{region}{born:%Y%m%d}{seq}"
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, ID_WEIGHTS, strict=True)) % 11]


def luhn_complete(prefix: str) -> str:
    """Append the check digit that makes ``prefix`` Luhn-valid."""
    for check in "0123456789":
        digits = prefix + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch) * (2 if i % 2 else 1)
            total += d - 9 if d > 9 else d
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


VALID_ID = make_id("110101", date(1990, 3, 7), "451")
VALID_CARD = luhn_complete("622202123456789")  # 16 digits


def kinds(text: str) -> list[str]:
    return [f.kind for f in find_pii(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的手机号13812345678", ["phone"]),
        ("call me at +86 138-1234-5678", ["phone"]),
        ("电话 86 139 1234 5678 谢谢", ["phone"]),
        (f"身份证{VALID_ID}", ["id_card"]),
        (f"ID {VALID_ID[:-1]}X" if VALID_ID.endswith("X") else f"id {VALID_ID}", ["id_card"]),
        (f"卡号{VALID_CARD}", ["bank_card"]),
        (
            f"card {VALID_CARD[:4]} {VALID_CARD[4:8]} {VALID_CARD[8:12]} {VALID_CARD[12:]}",
            ["bank_card"],
        ),
        (
            f"card {VALID_CARD[:4]}-{VALID_CARD[4:8]}-{VALID_CARD[8:12]}-{VALID_CARD[12:]}",
            ["bank_card"],
        ),
        ("邮箱是wang.lei@example.com", ["email"]),
        ("write to a.b+tag@mail.example.co.uk please", ["email"]),
        ("手机13812345678，邮箱x@y.cn", ["phone", "email"]),
    ],
)
def test_finds_each_kind_of_pii(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


def test_id_number_with_x_check_character_is_found() -> None:
    for seq in range(100, 1000):
        number = make_id("440305", date(1985, 12, 31), str(seq))
        if number.endswith("X"):
            assert kinds(f"身份证号{number.lower()}") == ["id_card"]
            return
    raise AssertionError("no X checksum in range")


@pytest.mark.parametrize(
    "text",
    [
        "订单号1234567812345678",  # fails Luhn
        "order 4111111111111112 shipped",  # fails Luhn
        "流水号202403151381234567890",  # a phone-like run inside a longer digit run
        "tracking 9138123456789",  # phone digits preceded by another digit
        "日期20240315，时间143000",
        "价格13812345678.50元",  # a price, not a phone
        "¥1380.00 or 3.1415926535897932",
        "110101199002304514",  # 30 Feb is not a birth date
        "0000000000000000",  # Luhn-valid filler
        "12345678901",  # 11 digits but not a mobile prefix
    ],
)
def test_leaves_lookalike_numbers_alone(text: str) -> None:
    assert find_pii(text) == []


def test_id_number_with_wrong_checksum_is_not_an_id() -> None:
    for wrong in "0123456789X":
        if wrong != VALID_ID[-1]:
            assert "id_card" not in kinds(VALID_ID[:-1] + wrong)


def test_redacts_with_chinese_placeholders_when_text_has_cjk() -> None:
    text, redactions = redact_pii(
        f"我的手机13812345678，身份证{VALID_ID}，邮箱a@b.com，手机13900001111"
    )
    assert text == "我的手机[手机号]，身份证[身份证号]，邮箱[邮箱]，手机[手机号]"
    assert {r.kind: r.count for r in redactions} == {"phone": 2, "id_card": 1, "email": 1}


def test_redacts_with_english_placeholders_otherwise() -> None:
    text, redactions = redact_pii(f"card {VALID_CARD}, mail me at sam@example.com")
    assert text == "card [card number], mail me at [email]"
    assert [r.kind for r in redactions] == ["bank_card", "email"]


def test_redaction_is_idempotent_and_reports_nothing_when_clean() -> None:
    once, _ = redact_pii("我的手机13812345678")
    assert redact_pii(once) == (once, [])


def test_policy_values_are_stable_strings() -> None:
    assert [p.value for p in PiiPolicy] == ["redact", "reject", "allow"]


cards = st.builds(
    lambda head, body: luhn_complete(str(head) + body),
    st.integers(min_value=1, max_value=9),
    st.text(alphabet="0123456789", min_size=14, max_size=17),
).filter(lambda c: len(set(c)) > 1)
ids = st.builds(
    make_id,
    st.sampled_from(["110101", "310104", "440305", "510107", "330106"]),
    st.dates(min_value=date(1920, 1, 1), max_value=date.today() - timedelta(days=1)),
    st.text(alphabet="0123456789", min_size=3, max_size=3),
)
filler = st.text(alphabet=st.sampled_from(list("我住在上海 hello,。abc")), max_size=12)


@given(filler, cards, filler)
def test_redacted_output_never_contains_a_luhn_valid_card(
    before: str, card: str, after: str
) -> None:
    out, redactions = redact_pii(before + card + after)
    assert card not in out
    assert sum(r.count for r in redactions) >= 1


@given(filler, ids, filler)
def test_redacted_output_never_contains_a_valid_id_number(
    before: str, number: str, after: str
) -> None:
    out, redactions = redact_pii(before + number + after)
    assert number not in out
    assert [r.kind for r in redactions] == ["id_card"]


@given(st.text(alphabet=st.sampled_from(list("0123456789 -+@.abcX我")), max_size=60))
def test_findings_never_overlap_and_stay_in_bounds(text: str) -> None:
    findings = find_pii(text)
    for a, b in pairwise(findings):
        assert a.end <= b.start
    assert all(0 <= f.start < f.end <= len(text) for f in findings)
