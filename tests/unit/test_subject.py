"""The person lexicon and the subject reader: whose clause is it — the user's, their family's
or pet's, or someone else's — in both languages and scripts, past the words that open it."""

from __future__ import annotations

import pytest

from jiyi.core.extraction.lexicon_people import person_kind
from jiyi.core.extraction.subject import (
    SOMEONE_ELSE,
    Who,
    read_subject,
    someone_else_before,
    strip_openers,
)


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("老公", "kin"),
        ("妈", "kin"),
        ("wife", "kin"),
        ("sister", "kin"),
        ("猫咪", "kin"),
        ("puppy", "kin"),
        ("同事", "other"),
        ("室友", "other"),
        ("Colleague", "other"),
        ("housemate", "other"),
        ("somebody", "other"),
        ("咖啡", None),
        ("job", None),
    ],
)
def test_a_person_word_is_kin_someone_else_or_no_person(word: str, kind: str | None) -> None:
    assert person_kind(word) == kind


@pytest.mark.parametrize(
    ("clause", "who"),
    [
        # someone else, both languages, opening words read past
        ("我同事最近在减肥", Who.OTHER),
        ("说真的，我们部门的主管不吃香菜", Who.OTHER),
        ("咱们班主任搬去深圳了", Who.OTHER),
        ("有个人把我的伞拿走了", Who.OTHER),
        ("楼下那家人养了条狗", Who.OTHER),
        ("老李每天早上跑步", Who.OTHER),
        ("A friend of mine just went keto", Who.OTHER),
        ("one of my teammates plays the cello", Who.OTHER),
        ("ngl my flatmate hates cilantro", Who.OTHER),
        ("My friend's cat is called Mochi", Who.OTHER),
        ("Everybody at work drinks oat milk", Who.OTHER),
        ("my former manager lives in Leeds", Who.OTHER),
        # traditional script, through the zh normalisation
        ("其實我鄰居也搬走了", Who.OTHER),
        ("我們老闆只喝烏龍茶", Who.OTHER),
        # a possessive names its last person
        ("我爸的同学在广州开店", Who.OTHER),
        ("my brother's roommate is vegan", Who.OTHER),
        ("my daughter's hamster is two", Who.FAMILY),
        ("我妹的男友对花生过敏", Who.OTHER),
        ("my son's girlfriend is vegan", Who.OTHER),
        ("My nephew's coach lives in Denver", Who.OTHER),
        # pronouns: whoever was named before
        ("他不喝酒", Who.HE_SHE),
        ("其实她早就不吃肉了", Who.HE_SHE),
        ("honestly she's into climbing now", Who.HE_SHE),
        ("His favourite colour is green", Who.HE_SHE),
        ("他们都住在郊区", Who.THEY),
        ("They live near the lake", Who.THEY),
        # family and pets are the user's household, never someone else
        ("我老公不吃葱", Who.FAMILY),
        ("我家狗狗三岁了", Who.FAMILY),
        ("我媽媽住在台中", Who.FAMILY),
        ("My wife is a nurse", Who.FAMILY),
        ("btw my little sister started college", Who.FAMILY),
        ("our rescue pup is scared of thunder", Who.FAMILY),
        # the user, named or left out
        ("其实我不喝牛奶", Who.USER),
        ("Honestly I'm done with sugar", Who.USER),
        ("they transferred me to the Austin office", Who.USER),
        ("跑步改到晚上了", Who.UNSAID),
        ("Moved to Leeds last spring", Who.UNSAID),
    ],
)
def test_a_clause_is_said_of_whom_it_opens_with(clause: str, who: Who) -> None:
    assert read_subject(clause) is who


@pytest.mark.parametrize("clause", ["我老婆喜欢甜的", "my husband runs", "我的猫很胖", "I run"])
def test_family_pets_and_the_user_are_not_someone_else(clause: str) -> None:
    assert read_subject(clause) not in SOMEONE_ELSE


def test_openers_are_stripped_but_the_subject_is_kept() -> None:
    assert strip_openers("说实话，我同事搬家了") == "我同事搬家了"
    assert strip_openers("tbh, lol my pal moved") == "my pal moved"
    assert strip_openers("我其实不吃辣") == "我其实不吃辣"


@pytest.mark.parametrize(
    ("clause", "cue", "other"),
    [
        ("funny thing is my workmate quit coffee", "quit", True),
        ("turns out my cousin's landlady moved out of Reno", "moved", True),
        ("apparently a lot of people gave up meat", "gave", True),
        ("my colleague and I quit coffee", "quit", False),  # the user is in it
        ("used to be a teacher, quit teaching", "quit", False),  # the user's own job
        ("my mom quit coffee", "quit", False),  # a relative's change is read as theirs
    ],
)
def test_someone_else_before_a_cue_deep_in_an_english_clause(
    clause: str, cue: str, other: bool
) -> None:
    assert someone_else_before(clause, clause.index(cue)) is other
