"""Properties of PII redaction over generated text: idempotent, no detected digits survive,
full-width text behaves like its ASCII twin, digit-free text is left alone."""

from __future__ import annotations

import unicodedata
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from jiyi.core.pii import find_pii, redact_pii

# Pieces that sit at detector boundaries: labels, number fragments, units, separators.
PIECES = [
    *"QQ号 微信 微信號 是 ： : ， 电话 手机 tel 护照 passport 车牌 plate SSN 账号 telegram".split(),
    *"+86 +1 +44 +852 138 1234 5678 12345678 010- 0755- (02) 2345-6789 - ( ) . @".split(),
    *"88号 3号楼 3栋 2单元 501 室 建国路 中山 路 小区 阳光 北京市 朝阳区 5月 20号 元".split(),
    *"3号线 年 E E12345678 京A 12345 沪B·D12345 ABC 7ABC123 zhang_san88 @handle".split(),
    *"536-22-1234 x@y.cn wxid_abcdefgh12 A123456(3) A123456789 110101199003074514".split(),
    *"6222021234567890128 １３８ １２３４５６７８ Ｅ ＱＱ １ 号 楼 a Z".split(),
    " ",
    "123 Main Street",
    "Apt 4",
    "DE89 3704 0044 0532 0130 00",
    "user id ",
]
soup = st.lists(
    st.one_of(
        st.sampled_from(PIECES),
        st.text(alphabet="0123456789０１２３４５６７８９-+() .号楼栋室路ＡA", max_size=6),
    ),
    max_size=10,
).map("".join)


def digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def is_subsequence(small: str, big: str) -> bool:
    it = iter(big)
    return all(ch in it for ch in small)


@settings(max_examples=300)
@given(soup)
def test_redaction_is_idempotent(text: str) -> None:
    once, _ = redact_pii(text)
    assert redact_pii(once) == (once, [])


@settings(max_examples=300)
@given(soup)
def test_no_digit_of_a_detected_span_survives(text: str) -> None:
    findings = find_pii(text)
    for a, b in pairwise(findings):
        assert a.end <= b.start
    assert all(0 <= f.start < f.end <= len(text) for f in findings)
    outside, pos = [], 0
    for f in findings:
        outside.append(text[pos : f.start])
        pos = f.end
    outside.append(text[pos:])
    out, redactions = redact_pii(text)
    # Every digit left is one that no detector claimed, in its original order.
    assert is_subsequence(digits(out), digits("".join(outside)))
    assert sum(r.count for r in redactions) >= len(findings)


FULL_WIDTH = {i: i + 0xFEE0 for i in range(0x21, 0x7F)} | {0x20: 0x3000}


@settings(max_examples=300)
@given(st.lists(st.sampled_from([p for p in PIECES if p.isascii()]), max_size=10).map("".join))
def test_full_width_text_is_found_like_its_ascii_twin(text: str) -> None:
    wide = text.translate(FULL_WIDTH)
    assert find_pii(wide) == find_pii(text)


no_digits = st.text(
    alphabet=st.characters(
        blacklist_categories=("Nd", "No", "Nl", "Cs"), blacklist_characters="@＠"
    ),
    max_size=40,
)
LABEL_WORDS = [*"微信 微信号是 用户名 路 小区 ： abc_def zhangsan".split(), "wechat id: ", " "]
labelled_words = st.lists(
    st.one_of(
        st.sampled_from(LABEL_WORDS),
        no_digits,
    ),
    max_size=6,
).map("".join)


def has_digit_or_at(text: str) -> bool:
    folded = unicodedata.normalize("NFKC", text)
    return "@" in folded or any(ch.isdigit() for ch in folded)


@settings(max_examples=300)
@given(labelled_words.filter(lambda t: not has_digit_or_at(t)))
def test_text_without_digits_is_only_touched_for_labelled_ids_and_addresses(text: str) -> None:
    out, redactions = redact_pii(text)
    assert out == text or {r.kind for r in redactions} <= {"account", "address"}


values = st.sampled_from(
    [
        ("13812345678", "phone"),
        ("+44 20 7946 0958", "landline"),
        ("010-12345678", "landline"),
        ("E12345678", "passport"),
        ("536-22-1234", "ssn"),
        ("京A12345", "plate"),
        ("建国路88号3号楼501", "address"),
        ("ＱＱ号１２３４５６７８９", "account"),
    ]
)
filler = st.text(alphabet=st.sampled_from(list("我住在上海，谢谢。 hello")), max_size=10)


@settings(max_examples=200)
@given(filler, values, filler)
def test_generated_values_are_redacted_wherever_they_stand(
    before: str, value: tuple[str, str], after: str
) -> None:
    text, kind = value
    out, redactions = redact_pii(f"{before} {text} {after}")
    assert digits(out) == ""  # the filler has none
    assert kind in {r.kind for r in redactions}
