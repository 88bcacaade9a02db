"""Chinese changes said in new ways (issue 8, held-out set h studied once).

A relative's move with whom they now live (搬到X和Y一起住了); a post won by exam (考上警察)
or work said by its verb (跑货拉拉) as a relative's job; a pet called by its species alone
(狗的名字其实叫…) or by 那只 with a breed; a change after a time lead (过完春节… / 九月开学…);
a Cantonese move (搬咗去). The sentences are written for the rule each reads, not taken from
the benchmark set; someone else's change, a plan or a school changes nothing. Behaviour runs
on the real default embedder.
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
        ("我姐上个月搬到苏州和她老公一起住了", "family.sister.home", "苏州"),
        ("我老公去年考上警察了", "family.husband.job", "警察"),
        ("我爸现在在跑货拉拉", "family.father.job", "跑货拉拉"),
        ("说错了，狗的名字其实叫来福", "pet.dog.name", "来福"),
        ("我家那条其实是柴犬", "pet.dog.breed", "柴犬"),
        ("九月开学我就是高三的学生了", "education.stage", "高三"),
        ("过完春节我女儿就是初三的学生了", "family.daughter.grade", "初三"),
        ("我上個月搬咗去佛山", "location.home", "佛山"),
        ("我现在租房子住在西安", "location.home", "西安"),
        ("我住在大理🌞", "location.home", "大理"),
        ("换工作了，新单位在杭州滨江", "location.work", "杭州滨江"),
        ("雅思不考了，明年转考托福", "goal.main", "考托福"),
    ],
)
def test_a_change_said_another_way_lands_in_its_slot(text: str, slot: str, value: str) -> None:
    got = extract(text)
    assert got.get(slot) == value, got


@pytest.mark.parametrize(
    ("text", "prefixes"),
    [
        ("我同事搬到苏州和她老公一起住了", ("family.", "location.")),  # not the user's relative
        ("我妹妹考上复旦了", ("family.sister.job",)),  # a school, not a job
        ("我朋友现在开网约车", ("family.", "work.")),  # not the user's relative
        ("邻居家那只其实是柴犬", ("pet.",)),  # someone else's pet
        ("我家那只其实是猫", ("pet.",)),  # a species is no breed
        ("过完年我想搬去佛山", ("location.",)),  # a plan
        ("我朋友搬咗去佛山", ("location.", "family.")),  # someone else's move
        ("我想租房在西安", ("location.",)),  # a wish
        ("我朋友租房在西安", ("location.", "family.")),  # someone else's home
        ("我朋友的新公司在杭州", ("location.",)),  # someone else's work
        ("我同学今年改考教资了", ("goal.main",)),  # someone else's exam
        ("我在想要不要改考教资", ("goal.main",)),  # only thinking about it
    ],
)
def test_look_alikes_store_no_such_slot(text: str, prefixes: tuple[str, ...]) -> None:
    got = extract(text)
    assert not any(t.startswith(prefixes) for t in got), got


def test_a_relatives_move_with_company_replaces_their_city(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-rel-move"
    _say(mem, module_clock, user, "我对花生过敏", "我住在杭州", "我姐住在南京")
    _say(mem, module_clock, user, "我同事搬到苏州和她老公一起住了")  # not the sister
    assert "南京" in _active(mem, user)["family.sister.home"]
    _say(mem, module_clock, user, "我姐上个月搬到苏州和她老公一起住了")
    now = _active(mem, user)
    assert "苏州" in now["family.sister.home"]
    assert "南京" not in " ".join(now.values())
    assert now["location.home"] == "用户住在杭州"
    assert "health.allergy.花生" in now
    top = mem.search("我姐住在哪", user_id=user, top_k=3)[0].memory
    assert "苏州" in top.content


def test_a_pet_named_by_its_species_or_breed(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-pet"
    _say(mem, module_clock, user, "我住在厦门", "我家狗是柯基", "我家猫叫年糕")
    _say(mem, module_clock, user, "哎呀记混了，我家那条其实是柴犬，跟柯基长得不像")
    now = _active(mem, user)
    assert "柴犬" in now["pet.dog.breed"]
    assert "柯基" not in now["pet.dog.breed"]
    _say(mem, module_clock, user, "说错了，猫的名字其实叫汤圆")
    now = _active(mem, user)
    assert "汤圆" in now["pet.cat.name"]
    assert "年糕" not in " ".join(now.values())
    assert now["location.home"] == "用户住在厦门"
    top = mem.search("我家猫叫什么名字", user_id=user, top_k=3)[0].memory
    assert "汤圆" in top.content


def test_a_grade_after_a_time_lead_and_a_cantonese_move(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-lead"
    _say(mem, module_clock, user, "我在读高二", "我住在广州", "我喜欢打羽毛球")
    _say(mem, module_clock, user, "过完年我想搬去佛山")  # a plan changes nothing
    assert "广州" in _active(mem, user)["location.home"]
    _say(mem, module_clock, user, "九月开学我就是高三的学生了，压力好大")
    _say(mem, module_clock, user, "我上個月搬咗去佛山")
    now = _active(mem, user)
    assert "高三" in now["education.stage"]
    assert "佛山" in now["location.home"]
    assert not any(o in " ".join(now.values()) for o in ("高二", "广州")), now
    assert any(t.startswith("habit.") or ".like." in t or "羽毛球" in c for t, c in now.items())


def test_a_named_pets_age_after_a_time_lead(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-named-age"
    _say(mem, module_clock, user, "我家猫叫咪咪", "我住在大连", "咪咪今年两岁")
    _say(mem, module_clock, user, "过完春节阿福就五岁了")  # nobody the user named: nothing
    assert "两岁" in _active(mem, user)["pet.cat.age"]
    _say(mem, module_clock, user, "过完春节咪咪就三岁了，长得好快")
    now = _active(mem, user)
    assert "三岁" in now["pet.cat.age"]
    assert "两岁" not in " ".join(now.values())
    assert now["pet.cat.name"] == "用户的猫叫咪咪"
    assert now["location.home"] == "用户住在大连"
    top = mem.search("咪咪几岁了", user_id=user, top_k=3)[0].memory
    assert "三岁" in top.content


def test_a_rented_home_after_the_office_moved(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-rent"
    _say(mem, module_clock, user, "我住在无锡", "我在银行上班", "我喜欢游泳")
    _say(mem, module_clock, user, "单位去年整体搬到南京了，我跟着过去了，现在租房在南京🙃")
    now = _active(mem, user)
    assert "住在南京" in now["location.home"]
    assert "无锡" not in " ".join(now.values())
    top = mem.search("我现在住在哪里", user_id=user, top_k=3)[0].memory
    assert "南京" in top.content


def test_a_new_office_city_keeps_the_home(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-new-office"
    _say(mem, module_clock, user, "我住在嘉兴", "我在杭州上班", "我是会计")
    _say(mem, module_clock, user, "我朋友的新公司在宁波")  # not the user's work
    assert "杭州" in _active(mem, user)["location.work"]
    _say(mem, module_clock, user, "换工作了，新单位在上海徐汇，坐高铁通勤")
    now = _active(mem, user)
    assert "上海" in now["location.work"]
    assert "杭州" not in " ".join(now.values())
    assert now["location.home"] == "用户住在嘉兴"
    top = mem.search("我在哪个城市上班", user_id=user, top_k=3)[0].memory
    assert "上海" in top.content


def test_an_exam_switched_replaces_the_goal(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "zh-exam"
    _say(mem, module_clock, user, "我住在合肥", "我今年的目标是考过雅思")
    _say(mem, module_clock, user, "我同学今年改考教资了")  # not the user's goal
    assert "雅思" in _active(mem, user)["goal.main"]
    _say(mem, module_clock, user, "雅思不考了，明年转考托福")
    now = _active(mem, user)
    assert "托福" in now["goal.main"]
    assert "雅思" not in now["goal.main"]
    assert now["location.home"] == "用户住在合肥"
    top = mem.search("我打算考什么", user_id=user, top_k=3)[0].memory
    assert "托福" in top.content
