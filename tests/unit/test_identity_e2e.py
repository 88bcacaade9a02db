"""End to end, in Chinese and in English, on the real default embedder: three sessions of
one person through two logins (a phone and a WeChat openid, linked as aliases), a task
resumed, memory paused and resumed, then export → import into a fresh store: the same
search results, the same context block and the same profile — a goal completed on the way,
and a profile field set by the user kept as theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiyi import Memory
from jiyi.config import MemoryConfig

CASES = {
    "zh": {
        "s1": "我叫王小明，住在上海，在一家银行做会计。我对花生过敏。",
        "s2": "我养了一只猫，叫阿橘。",
        "goal": "我的目标是今年跑完一场马拉松",
        "done": "我跑完马拉松了",
        "set": ("timezone", "Asia/Shanghai"),
        "paused": "我最近在偷偷找工作",
        "task": ("报销", {"form": "三月差旅报销单", "step": 2}),
        "resume": "继续上次的报销单",
        "queries": ["我对什么过敏", "我的猫叫什么", "我在哪里工作"],
        "pause": "先暂停记忆",
        "on": "可以继续记了",
    },
    "en": {
        "s1": "My name is John, I live in Boston and I work as an accountant. "
        "I'm allergic to peanuts.",
        "s2": "I have a cat named Ginger.",
        "goal": "My goal this year is to run a marathon",
        "done": "I finished the marathon",
        "set": ("timezone", "America/New_York"),
        "paused": "I'm secretly looking for a new job",
        "task": ("reimbursement", {"form": "March travel reimbursement", "step": 2}),
        "resume": "let's continue the reimbursement form",
        "queries": ["what am I allergic to", "what is my cat called", "what is my job"],
        "pause": "pause memory",
        "on": "you can remember again",
    },
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_two_logins_three_sessions_then_export_import(
    tmp_path: Path,
    clock,
    e5,
    lang: str,  # type: ignore[no-untyped-def]
) -> None:
    c = CASES[lang]
    cfg = MemoryConfig(alias_secret="e2e-secret", tenant="acme")
    mem = Memory(tmp_path / "a.db", embedder=e5, clock=clock, config=cfg)
    mem.link("person-1", "+86 138 0000 1111", kind="phone")
    mem.link("person-1", "oWx-e2e-openid-0001", kind="wechat_openid")
    phone, wechat = "alias:phone:+8613800001111", "alias:wechat_openid:oWx-e2e-openid-0001"
    # Session 1 through the phone login, session 2 through WeChat: one person.
    mem.add(c["s1"], user_id=phone, session_id="s1")
    key, state = c["task"]
    mem.tasks.put(wechat, key, state)
    clock.advance(days=1)
    mem.add(c["s2"], user_id=wechat, session_id="s2")
    mem.add(c["goal"], user_id=wechat, session_id="s2")
    assert [g.status for g in mem.profile(phone).goals] == ["active"]
    # Session 3: paused, then resumed; nothing said while paused is kept.
    assert mem.add(c["pause"], user_id=phone, session_id="s3").skipped
    assert mem.add(c["paused"], user_id=phone, session_id="s3").skipped[0].reason == "memory_paused"
    mem.add(c["on"], user_id=phone, session_id="s3")
    assert mem.switch.get("person-1").memory == "on"
    mem.add(c["done"], user_id=phone, session_id="s3")  # the goal is completed, not restated
    assert [g.status for g in mem.profile(wechat).goals] == ["completed"]
    field, value = c["set"]
    mem.set_profile(phone, field, value)
    block = mem.context(c["resume"], user_id=wechat, session_id="s3")
    assert [t.key for t in block.tasks] == [key]
    assert all(
        c["paused"] not in m.content for m in mem.list(user_id="person-1", include_episodes=True)
    )
    # Export → import into a fresh store.
    doc = mem.export(phone).model_dump_json()
    fresh = Memory(tmp_path / "b.db", embedder=e5, clock=clock, config=cfg)
    fresh.import_(doc)
    for q in c["queries"]:
        want = [(h.memory.id, round(h.score, 6)) for h in mem.search(q, user_id="person-1")]
        got = [(h.memory.id, round(h.score, 6)) for h in fresh.search(q, user_id=wechat)]
        assert want and got == want, q
    again = fresh.context(c["resume"], user_id=phone, session_id="s3")
    assert again.text == mem.context(c["resume"], user_id=phone, session_id="s3").text
    assert [t.key for t in again.tasks] == [key]
    assert [(ch.before, ch.after) for ch in fresh.switch.history("person-1")] == [
        (ch.before, ch.after) for ch in mem.switch.history("person-1")
    ]
    before, after = mem.profile("person-1"), fresh.profile(wechat)
    assert after.model_dump() == before.model_dump()
    assert getattr(after, field).value == value and getattr(after, field).set_by_user
    assert before.name is not None and before.allergies and before.pets
    mem.close()
    fresh.close()
