"""The new value of a change said in an unusual way, in both languages (issue 8).

A pet or relative called by name alone takes the slot of the user's stored one of that name;
change verbs (改名叫, 改成, 调到, "I'd rather you call me", "X for my birth year", a routine
in the progressive, "drives a truck"); a new time said alone binds to the one timed routine
and to none when several fit. The sentences are written for the properties each rule reads,
not taken from the benchmark sets. Behaviour runs on the real default embedder.
"""

from __future__ import annotations

import pytest
from _writes import active_contents as _active
from _writes import extract_slots as extract
from _writes import say as _say

from jiyi import Memory


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("Sorry, I meant 1979 for my birth year", "identity.birth_year", "1979"),
        ("I'd prefer people call me Liz", "identity.name", "Liz"),
        ("I'm swimming twice a week since the pool reopened", "habit.swim", "twice a week"),
        ("My aunt teaches chemistry", "family.aunt.job", "chemistry teacher"),
        ("My dad drives a taxi now", "family.father.job", "taxi driver"),
        ("My wife is over at Nike these days", "family.wife.employer", "Nike"),  # was job "over"
        ("我腰不好，不能再打球了", "habit.打球", "no"),
        ("最近游不了泳了", "habit.游泳", "no"),
    ],
)
def test_a_change_said_another_way_lands_in_its_slot(text: str, slot: str, value: str) -> None:
    got = extract(text)
    assert got.get(slot) == value, got


@pytest.mark.parametrize(
    "text",
    [
        "I'd rather you call me tomorrow",  # not a name
        "My friend drives a truck",  # not the user's relative
        "我怕以后跑不了步了",  # a worry, not a routine stopped
    ],
)
def test_look_alikes_store_no_such_slot(text: str) -> None:
    got = extract(text)
    assert not any(t.startswith(("identity.name", "family.", "habit.")) for t in got), got


def test_a_pet_called_by_name_alone_changes_that_pet(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "pet-age"
    _say(mem, module_clock, user, "I live in Leeds", "My cat Luna is 3 years old")
    _say(mem, module_clock, user, "Luna turned four last week")
    now = _active(mem, user)
    assert now["pet.cat.age"] == "User's cat Luna turned four last week"
    assert now["pet.cat.name"] == "User's cat is called Luna"  # the name stays
    assert not any(t.startswith("family.") for t in now), now
    assert not any("3 years old" in c for c in now.values()), now
    top = mem.search("How old is my cat?", user_id=user, top_k=3)[0].memory
    assert "four" in top.content


def test_a_breed_said_of_a_named_pet_replaces_its_breed(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "pet-breed"
    _say(mem, module_clock, user, "I'm allergic to almonds", "My dog is a labrador named Bear")
    _say(mem, module_clock, user, "Bear is actually a golden retriever, not a lab")
    now = _active(mem, user)
    assert now["pet.dog.breed"] == "User's dog Bear is a golden retriever"
    assert now["pet.dog.name"] == "User's dog is called Bear"
    assert "health.allergy.almond" in now


def test_someone_elses_pet_or_an_unknown_name_changes_nothing(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "pet-other"
    _say(mem, module_clock, user, "My dog is a labrador named Bear")
    before = _active(mem, user)
    _say(mem, module_clock, user, "My friend's dog Bear is a golden retriever")
    _say(mem, module_clock, user, "Rocky is a golden retriever")  # no pet of the user's is Rocky
    assert _active(mem, user) == before


def test_a_name_to_use_from_now_on(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "name"
    _say(mem, module_clock, user, "I live in Leeds", "Call me Mike")
    _say(mem, module_clock, user, "Actually I'd rather you call me Michael from now on")
    now = _active(mem, user)
    assert now["identity.name"] == "User goes by Michael"
    assert now["location.home"] == "User lives in Leeds"


def test_a_relatives_job_said_by_what_they_do(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "rel-job"
    _say(mem, module_clock, user, "My sister is a nurse", "My brother is a chef")
    _say(mem, module_clock, user, "My brother quit cooking, he drives a truck now")
    now = _active(mem, user)
    assert "truck" in now["family.brother.job"]
    assert "chef" not in " ".join(now.values())
    assert now["family.sister.job"] == "User's sister is a nurse"


def test_a_pet_renamed_after_its_old_name(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-rename"
    _say(mem, module_clock, user, "我家狗叫旺财", "我家猫叫咪咪")
    _say(mem, module_clock, user, "旺财这名字太土了，我们给它改名叫Lucky了")
    now = _active(mem, user)
    assert "Lucky" in now["pet.dog.name"]
    assert now["pet.cat.name"] == "用户的猫叫咪咪"  # the other pet keeps its name


def test_an_activity_the_user_can_no_longer_do(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-hobby"
    _say(mem, module_clock, user, "我喜欢跑步", "我爱喝普洱")
    _say(mem, module_clock, user, "膝盖受伤以后跑不了步了，现在改成游泳了")
    now = _active(mem, user)
    assert "pref.跑步" not in now
    assert now["habit.游泳"] == "用户现在改成游泳了"
    assert "pref.普洱" in now
    # a worry about the future stops nothing
    _say(mem, module_clock, "zh-worry", "我喜欢跑步")
    _say(mem, module_clock, "zh-worry", "我怕以后跑不了步了")
    assert "pref.跑步" in _active(mem, "zh-worry")


def test_a_relative_who_moved_no_longer_lives_in_the_old_city(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-move"
    _say(mem, module_clock, user, "我住在济南", "我姐姐住在西安", "我哥哥住在西安")
    _say(mem, module_clock, user, "我姐去年调到成都工作，现在一家人都在成都")
    now = _active(mem, user)
    assert "family.sister.home" not in now
    assert "成都" in now["family.sister.city"]
    assert now["family.brother.home"] == "用户的哥哥住在西安"  # another relative: untouched
    assert now["location.home"] == "用户住在济南"
    # someone else's move changes nobody's city
    _say(mem, module_clock, "zh-move-friend", "我姐姐住在西安")
    _say(mem, module_clock, "zh-move-friend", "我朋友调到成都工作了")
    assert "西安" in _active(mem, "zh-move-friend")["family.sister.home"]


def test_a_new_time_alone_binds_to_the_one_timed_routine(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-time"
    _say(mem, module_clock, user, "我喜欢跑步", "我每天早上七点起床跑步")
    _say(mem, module_clock, user, "现在改成六点起了，七点太热")
    now = _active(mem, user)
    assert now["habit.起床跑步"] == "用户每天早上六点起床跑步"
    assert "" not in now  # no slot-less memory
    assert "pref.跑步" in now


def test_a_new_time_alone_with_two_timed_routines_changes_neither(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-time-two"
    _say(mem, module_clock, user, "我每天早上七点起床跑步", "我每天晚上十点去健身")
    before = _active(mem, user)
    _say(mem, module_clock, user, "现在改成六点了")
    assert _active(mem, user) == before
    # the verb says which one: 起 is only in the morning routine
    _say(mem, module_clock, user, "现在改成六点起了")
    now = _active(mem, user)
    assert now["habit.起床跑步"] == "用户每天早上六点起床跑步"
    assert now["habit.健身"] == before["habit.健身"]


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("From now on call me Bob", "identity.name", "Bob"),
        ("I switched from running to swimming", "habit.run", "no"),
        ("I've switched to swimming", "habit.swim", "yes"),
        ("我现在不打球了，改游泳了", "habit.游泳", "yes"),
    ],
)
def test_more_change_verbs(text: str, slot: str, value: str) -> None:
    got = extract(text)
    assert got.get(slot) == value, got
    assert "location.hometown" not in got  # "from now on" is no place


def test_a_relative_called_by_name_moves_only_when_the_user_named_them(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "named-rel"
    _say(mem, module_clock, user, "My daughter's name is Emma", "My daughter lives in Leeds")
    _say(mem, module_clock, user, "Emma moved to Boston last year")
    now = _active(mem, user)
    assert "Boston" in now["family.daughter.home"]
    assert not any(t.startswith("family.unknown") for t in now), now
    # a name the user never gave a relative: a colleague, perhaps; nothing is stored
    _say(mem, module_clock, "named-none", "My daughter lives in Leeds")
    _say(mem, module_clock, "named-none", "Priya moved to Boston")
    now = _active(mem, "named-none")
    assert now["family.daughter.home"] == "User's daughter lives in Leeds"
    assert not any("Boston" in c for c in now.values()), now


def test_a_named_pet_in_chinese_by_age_and_breed(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-named-pet"
    _say(mem, module_clock, user, "我家狗叫豆豆", "我住在济南")
    _say(mem, module_clock, user, "豆豆其实是只柯基")
    _say(mem, module_clock, user, "豆豆今年五岁了")
    now = _active(mem, user)
    assert now["pet.dog.breed"] == "用户的狗豆豆是柯基"
    assert now["pet.dog.age"] == "用户的狗豆豆今年五岁"
    assert now["pet.dog.name"] == "用户的狗叫豆豆"
    assert not any(t.startswith(("family.", "pet.pet")) for t in now), now
    # nobody of the user's is called 球球: nothing stored
    _say(mem, module_clock, user, "球球其实是只柯基")
    assert _active(mem, user) == now


def test_an_english_routine_at_a_new_time(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "en-time"
    _say(mem, module_clock, user, "I get up at 7 every day", "I live in Leeds")
    _say(mem, module_clock, user, "I get up at 6 now")  # the time is no part of the slot
    assert _active(mem, user)["habit.get_up"] == "User gets up at 6 now"
    _say(mem, module_clock, "en-time-2", "I run every morning at 7am", "I go to the gym at 6pm")
    before = _active(mem, "en-time-2")
    _say(mem, module_clock, "en-time-2", "I pushed it back to 8am")  # which one: unknowable
    assert _active(mem, "en-time-2") == before
    _say(mem, module_clock, "en-time-2", "I moved my run to 6am")  # the verb says which
    now = _active(mem, "en-time-2")
    assert now["habit.run"] == "User runs every morning at 6am"
    assert now["habit.gym"] == before["habit.gym"]


def test_a_chinese_pets_age_is_replaced_and_its_name_kept(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-pet-age"
    _say(mem, module_clock, user, "我家猫叫咪咪，今年三岁", "我女儿叫可可")
    _say(mem, module_clock, user, "咪咪今年四岁了")
    now = _active(mem, user)
    assert now["pet.cat.age"] == "用户的猫咪咪今年四岁"
    assert now["pet.cat.name"] == "用户的猫叫咪咪"
    assert not any("三岁" in c for c in now.values()), now
    assert now["family.daughter.name"] == "用户的女儿叫可可"


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I quit the gym and started doing yoga", "habit.yoga", "yes"),
        ("I stopped running and took up cycling", "habit.run", "no"),
        ("我弟搬到杭州了", "family.brother.home", "杭州"),  # where he lives, as 住在 says
        ("我老公换工作了，现在在腾讯", "family.husband.employer", "腾讯"),
        ("我老公换工作了，现在在上海", "family.husband.city", "上海"),  # a city is no employer
        ("我喝咖啡现在改成燕麦拿铁了", "diet.coffee.type", "燕麦拿铁"),
        ("I've been going by Liz lately", "identity.name", "Liz"),
        ("My allergy is actually to cashews, not peanuts", "health.allergy.cashew", "yes"),
        ("I don't drink coffee anymore, I'm on green tea now", "diet.tea.type", "green tea"),
        ("我已经改成周末才跑步了", "habit.跑步", "周末"),
    ],
)
def test_one_thing_for_another(text: str, slot: str, value: str) -> None:
    got = extract(text)
    assert got.get(slot) == value, got
    assert "work.employer" not in got  # "quit the gym" is no job; his job is not the user's


def test_a_hobby_swapped_for_another_retires_the_old_like(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "en-swap"
    _say(mem, module_clock, user, "I love running", "I work at Target")
    _say(mem, module_clock, user, "I stopped running and took up cycling")
    now = _active(mem, user)
    assert "pref.running" not in now
    assert now["habit.cycle"] == "User does cycling now"
    assert now["work.employer"] == "User works at Target"


def test_a_relatives_new_employer_after_a_job_change(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-rel-job"
    _say(mem, module_clock, user, "我老公在阿里工作", "我在美团上班")
    _say(mem, module_clock, user, "我老公换工作了，现在在腾讯")
    now = _active(mem, user)
    # the old sentence with the new value (core/slots.carry_over): 现在在腾讯 says no more
    assert now["family.husband.employer"] == "用户的老公在腾讯工作"
    assert "美团" in now["work.employer"]  # the user's own job: untouched
