"""More of what a new user says about a named pet or relative (issue 8, new-user trial).

A Chinese pet introduced with its breed and age (我家有只柯基叫豆豆，三岁了) is one memory whose
parts hold the breed and the age, so an age or breed said later by the pet's name alone
replaces that part and keeps the name. A relative's birthday said by first name ("Tom's
birthday is March 3rd", 李静的生日是3月3号) takes the slot of the one relative stored under
that name, and values are days of the year (3rd ≠ 13th). A friend's Tom, a name no relative
has, and a name two subjects share store nothing. Behaviour runs on the real default embedder.
"""

from __future__ import annotations

import pytest
from _writes import NOW
from _writes import extract_slots as extract
from _writes import say as _say

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.intents import query_slots
from jiyi.core.models import MemoryKind, Message, Status


def _active(mem: Memory, user: str) -> dict[str, tuple[str, dict[str, str]]]:
    """slot → (content, parts) of the user's active non-episode memories."""
    return {
        m.topic or "": (m.content, dict(m.metadata.get("parts") or {}))
        for m in mem.list(user_id=user)
        if m.kind != MemoryKind.EPISODE and m.status == Status.ACTIVE
    }


def test_a_pet_introduced_with_breed_and_age_holds_both_as_parts() -> None:
    out = RuleExtractor().extract(
        [Message(role="user", content="我家有只柯基叫豆豆，三岁了", timestamp=NOW)], now=NOW
    )
    (pet,) = out.candidates
    assert (pet.topic, pet.value) == ("pet.dog.name", "豆豆")
    assert pet.metadata["parts"] == {"pet.dog.breed": "柯基", "pet.dog.age": "三"}


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("Tom's birthday is March 3rd", "family.unknown.birthday", "3-3"),
        ("actually Tom's birthday is March 13th, not the 3rd", "family.unknown.birthday", "3-13"),
        ("李静的生日是3月3号", "family.unknown.birthday", "3-3"),
        ("不对，李静生日是3月13号", "family.unknown.birthday", "3-13"),
        ("My wife's birthday is the 5th of June", "family.wife.birthday", "6-5"),
        ("豆豆四岁了", "family.unknown.age", "四"),
        ("其实豆豆是四岁，不是三岁", "family.unknown.age", "四"),
    ],
)
def test_a_named_attribute_is_extracted_with_its_value(text: str, slot: str, value: str) -> None:
    got = extract(text)
    assert got.get(slot) == value, got


@pytest.mark.parametrize(
    "text",
    [
        "My friend Tom's birthday is May 2",
        "今年四岁了",
        "我的生日是5月2号",
        "His birthday is May 2",
    ],
)
def test_look_alikes_name_no_one(text: str) -> None:
    assert not any(t.startswith("family.unknown") for t in extract(text)), extract(text)


@pytest.mark.parametrize(
    ("correction", "age_word"),
    [("其实豆豆是四岁，不是三岁", "四"), ("豆豆四岁了", "四"), ("豆豆今年四岁", "四")],
)
def test_a_pets_age_by_name_replaces_the_age_part_and_keeps_the_name(
    real_mem: Memory, clock, correction: str, age_word: str
) -> None:  # type: ignore[no-untyped-def]
    user = "doudou"
    _say(real_mem, clock, user, "我不吃香菜", "我家有只柯基叫豆豆，三岁了", "我同事小李养了只猫")
    _say(real_mem, clock, user, correction)
    now = _active(real_mem, user)
    assert now["pet.dog.age"][0].startswith("用户的狗豆豆"), now
    assert age_word in now["pet.dog.age"][0]
    assert "豆豆" in now["pet.dog.name"][0]  # the name stays
    assert now["pet.dog.breed"][0] == "用户的狗是柯基"  # and so does the breed
    assert not any("三岁" in content for content, _ in now.values()), now
    assert "pref.香菜" in now
    top = real_mem.search("我的狗几岁", user_id=user, top_k=3)[0].memory
    assert "四岁" in top.content and top.status == Status.ACTIVE


def test_a_pets_breed_by_name_replaces_the_breed_part(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "breed"
    _say(real_mem, clock, user, "我家有只柯基叫豆豆，三岁了", "豆豆其实是只柴犬")
    now = _active(real_mem, user)
    assert "柴犬" in now["pet.dog.breed"][0]
    assert "豆豆" in now["pet.dog.name"][0]
    assert not any("柯基" in content for content, _ in now.values()), now


def test_a_relatives_birthday_by_first_name_en(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "tom"
    _say(real_mem, clock, user, "My husband Tom is allergic to shellfish", "I'm vegetarian")
    _say(real_mem, clock, user, "Tom's birthday is March 3rd")
    assert _active(real_mem, user)["family.husband.birthday"][0] == (
        "User's husband Tom's birthday is March 3rd"
    )
    _say(real_mem, clock, user, "actually Tom's birthday is March 13th, not the 3rd")
    now = _active(real_mem, user)
    assert now["family.husband.birthday"][0] == "User's husband Tom's birthday is March 13th"
    assert "family.husband.health.allergy.shellfish" in now  # the allergy memory stays
    assert not any("March 3rd" in content for content, _ in now.values()), now
    hits = real_mem.search("When is Tom's birthday?", user_id=user, top_k=3)
    assert "13th" in hits[0].memory.content
    firsts = [h.memory.content for h in hits]
    old = next((i for i, c in enumerate(firsts) if "March 3rd" in c), len(firsts))
    assert old > 0, firsts  # the outdated day never ranks first


def test_a_relatives_birthday_by_first_name_zh(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "lijing"
    _say(real_mem, clock, user, "我老婆叫李静", "我住在杭州")
    _say(real_mem, clock, user, "李静的生日是3月3号")
    assert "3月3号" in _active(real_mem, user)["family.wife.birthday"][0]
    _say(real_mem, clock, user, "不对，李静生日是3月13号")
    now = _active(real_mem, user)
    assert now["family.wife.birthday"][0] == "用户的老婆李静生日是3月13号"
    assert now["family.wife.name"][0] == "用户的老婆叫李静"
    assert "location.home" in now


def test_a_birthday_of_a_name_no_relative_has_is_not_stored(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "friends"
    _say(real_mem, clock, user, "My husband Tom is allergic to shellfish", "我同事小李养了只猫")
    _say(real_mem, clock, user, "my friend Jake just moved to Austin")
    before = _active(real_mem, user)
    _say(real_mem, clock, user, "Jake's birthday is June 1st", "小李的生日是5月2号")
    _say(real_mem, clock, user, "My friend Tom's birthday is May 2")  # a friend's Tom
    assert _active(real_mem, user) == before


def test_a_name_two_subjects_share_changes_nothing(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "two-toms"
    _say(real_mem, clock, user, "My son Tom just turned 10", "My brother Tom is a chef")
    _say(real_mem, clock, user, "我女儿叫乐乐", "我家狗叫乐乐")
    before = _active(real_mem, user)
    _say(real_mem, clock, user, "Tom's birthday is March 3rd", "乐乐四岁了")
    assert _active(real_mem, user) == before


@pytest.mark.parametrize(
    "query", ["Where am I travelling?", "Any trips coming up?", "我最近要去哪旅游", "我出差去哪"]
)
def test_a_question_about_travel_asks_for_plans(query: str) -> None:
    assert "plan" in query_slots(query)


def test_a_planned_trip_answers_where_am_i_travelling(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "trip"
    _say(real_mem, clock, user, "I'm vegetarian", "my friend Jake just moved to Austin")
    _say(real_mem, clock, user, "We're flying to Lisbon next Friday for our anniversary")
    hits = real_mem.search("Where am I travelling?", user_id=user, top_k=3)
    assert (hits[0].memory.topic or "").startswith("plan."), [h.memory.content for h in hits]


def test_a_name_said_in_passing_finds_the_relative_zh(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "liming"
    _say(real_mem, clock, user, "我老公李明对海鲜过敏", "李明的生日是5月2号")
    now = _active(real_mem, user)
    assert now["family.husband.birthday"][0] == "用户的老公李明的生日是5月2号"
    assert now["family.husband.health.allergy.海鲜"][1] == {"family.husband.name": "李明"}


def test_a_renamed_relative_keeps_what_was_said_with_the_old_name(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    user = "rename"
    _say(real_mem, clock, user, "My daughter Emma just turned 5")
    _say(real_mem, clock, user, "My daughter's name is actually Emily")
    now = _active(real_mem, user)
    assert now["family.daughter.name"][0] == "User's daughter's name is actually Emily", now
    assert "5" in now["family.daughter.age"][0]  # the age said with the old name stays
    # the name of her own memory is the current one: Emma is nobody now, Emily is her
    _say(real_mem, clock, user, "Emma's birthday is May 2nd")
    assert "family.daughter.birthday" not in _active(real_mem, user)
    _say(real_mem, clock, user, "Emily's birthday is May 2nd")
    assert _active(real_mem, user)["family.daughter.birthday"][0] == (
        "User's daughter Emily's birthday is May 2nd"
    )
