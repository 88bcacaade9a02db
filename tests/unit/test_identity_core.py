"""The pure identity rules: alias normalisation, keyed digests per tenant, masked hints,
alias references, and the drift test on identity slots (compared as slot values, never by
similarity)."""

from __future__ import annotations

import pytest

from jiyi.core.identity import (
    AliasKind,
    alias_digest,
    alias_hint,
    drifted_slots,
    normalize_alias,
    parse_alias_ref,
    tenant_key,
)
from jiyi.errors import InvalidInputError

PHONE = AliasKind.PHONE


def test_one_phone_written_three_ways_is_one_alias() -> None:
    forms = ["+86 138-0013-8000", "+86 (138) 0013 8000", "+8613800138000"]
    assert {normalize_alias(PHONE, f) for f in forms} == {"+8613800138000"}
    assert normalize_alias(AliasKind.EMAIL, " Zhang.San@Example.COM ") == "zhang.san@example.com"


@pytest.mark.parametrize(
    ("kind", "value"),
    [(PHONE, "not a phone"), (AliasKind.EMAIL, "no-at-sign"), (PHONE, ""), (PHONE, 13800138000)],
)
def test_a_bad_alias_is_refused_without_echoing_it(kind: AliasKind, value: object) -> None:
    with pytest.raises(InvalidInputError) as err:
        normalize_alias(kind, value)
    assert err.value.field == "alias"
    assert str(value) not in str(err.value) or str(value) == ""


def test_digests_are_keyed_per_tenant_and_per_kind() -> None:
    secret = b"s3cret"
    a, b = tenant_key(secret, "acme"), tenant_key(secret, "globex")
    d = alias_digest(a, PHONE, "+8613800138000")
    assert d == alias_digest(a, PHONE, "+8613800138000")  # stable
    assert d != alias_digest(b, PHONE, "+8613800138000")  # another tenant cannot match it
    assert d != alias_digest(a, AliasKind.DEVICE, "+8613800138000")
    assert d != alias_digest(tenant_key(b"other", "acme"), PHONE, "+8613800138000")
    assert "13800138000" not in d


def test_hints_never_hold_the_alias() -> None:
    assert alias_hint(PHONE, "+8613800138000") == "**********8000"
    assert alias_hint(AliasKind.EMAIL, "zhang.san@example.com") == "z***@***.com"
    assert alias_hint(AliasKind.WECHAT_OPENID, "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o") == "***S6o"
    assert alias_hint(AliasKind.LOGIN, "bob") == "***"


def test_alias_references() -> None:
    assert parse_alias_ref("alice") is None
    assert parse_alias_ref("alias:phone:+86 138") == (PHONE, "+86 138")
    assert parse_alias_ref("alias:login:a:b") == (AliasKind.LOGIN, "a:b")
    for bad in ("alias:fax:123", "alias:phone"):
        with pytest.raises(InvalidInputError) as err:
            parse_alias_ref(bad)
        assert err.value.field == "user_id"


STORED = {
    "identity.name": "王小明",
    "identity.age": "30",
    "identity.language": "中文",
    "location.home": "上海市",
}


def test_three_changed_identity_slots_are_a_drift() -> None:
    said = {
        "identity.name": "李强",
        "identity.age": "52",
        "identity.language": "粤语",
        "location.home": "广州",
    }
    assert drifted_slots(STORED, said) == ["name", "age", "language", "city"]


def test_same_values_said_differently_are_no_change() -> None:
    said = {"identity.name": "王小明", "identity.age": "三十", "location.home": "上海"}
    assert drifted_slots(STORED, said) == []


def test_a_move_alone_is_one_slot_and_unknown_slots_do_not_count() -> None:
    assert drifted_slots(STORED, {"location.home": "杭州"}) == ["city"]
    # Nothing stored to contradict: a first introduction is never a drift.
    assert drifted_slots({}, {"identity.name": "李强", "identity.age": "52"}) == []
