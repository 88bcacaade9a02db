"""What gets in, on the real default embedder: transient remarks stay short-lived episodes,
assistant text never becomes a fact, PII never reaches the file (also in ``name`` and in
full-width digits), traditional Chinese is understood, and a re-delivered message is
stored once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from jiyi import Memory
from jiyi.core.models import Action, AddResult, MemoryKind

TTL = timedelta(days=7)


def file_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.glob("jiyi.db*"))


def long_term(mem: Memory, user: str) -> list[str]:
    return [m.content for m in mem.list(user_id=user)]


# -- transient remarks ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["今天好热想喝冰咖啡", "今晚想吃火锅", "I'm so tired today"])
def test_momentary_remark_is_a_short_lived_episode(
    shared_real_mem: Memory, module_clock, text: str
) -> None:  # type: ignore[no-untyped-def]
    user = f"transient-{text}"
    res = shared_real_mem.add(text, user_id=user)
    said = module_clock.now
    assert res.events == []
    assert [s.reason for s in res.skipped] == ["transient"]
    assert long_term(shared_real_mem, user) == []
    (ep,) = res.episodes
    assert ep.expires_at == said + TTL
    # Found while it lasts, gone after it expires.
    assert [h.memory.id for h in shared_real_mem.search(text, user_id=user, now=said)] == [ep.id]
    later = said + TTL + timedelta(days=1)
    assert shared_real_mem.search(text, user_id=user, now=later) == []


@pytest.mark.parametrize("text", ["I'm starving right now", "现在有点饿"])
def test_momentary_remark_without_a_rule_is_not_long_term(
    shared_real_mem: Memory, text: str
) -> None:
    user = f"transient-norule-{text}"
    res = shared_real_mem.add(text, user_id=user)
    assert res.events == []
    assert long_term(shared_real_mem, user) == []


@pytest.mark.parametrize("text", ["I'm starving right now", "现在有点饿"])
def test_momentary_remark_without_a_rule_still_expires(shared_real_mem: Memory, text: str) -> None:
    res = shared_real_mem.add(text, user_id=f"transient-ttl-{text}")
    (ep,) = res.episodes
    assert ep.expires_at is not None


def test_a_lasting_fact_in_the_same_message_keeps_the_episode(shared_real_mem: Memory) -> None:
    """A transient clause beside a real fact: the fact is stored, the episode does not
    expire (it is the source of a long-term memory)."""
    user = "transient-mixed"
    res = shared_real_mem.add("今天好热想喝冰咖啡，对了我对芒果过敏", user_id=user)
    assert [e.memory.topic for e in res.events] == ["health.allergy.芒果"]
    assert res.episodes[0].expires_at is None


# -- assistant text -------------------------------------------------------------------------


def test_assistant_text_is_never_stored_as_a_fact(shared_real_mem: Memory) -> None:
    user = "assistant-text"
    res = shared_real_mem.add(
        [
            {"role": "user", "content": "帮我推荐一杯咖啡", "id": "a-1"},
            {
                "role": "assistant",
                "content": "你住在上海，对花生过敏，我推荐燕麦拿铁。",
                "id": "a-2",
            },
            {
                "role": "assistant",
                "content": "You live in Denver and you're allergic to shellfish.",
            },
            {"role": "user", "content": "好的谢谢", "id": "a-3"},
        ],
        user_id=user,
    )
    assert res.events == []
    assert [s.reason for s in res.skipped].count("assistant_text") == 2
    assert long_term(shared_real_mem, user) == []
    episodes = shared_real_mem.list(user_id=user, include_episodes=True)
    roles = {m.content: m.role for m in episodes}
    assert roles["你住在上海，对花生过敏，我推荐燕麦拿铁。"] == "assistant"
    # Asked later, the assistant's claims are not the user's facts.
    ctx = shared_real_mem.context("我对什么过敏", user_id=user)
    assert "花生" not in ctx.text and "燕麦拿铁" not in ctx.text


# -- PII ------------------------------------------------------------------------------------


def test_pii_in_the_name_field_never_reaches_the_file(real_mem: Memory, tmp_path: Path) -> None:
    res = real_mem.add(
        [
            {"role": "user", "content": "我对芒果过敏", "name": "13812345678"},
            {"role": "user", "content": "我家猫叫阿橘", "name": "sam.lee@example.com"},
        ],
        user_id="pii-name",
    )
    assert {(r.kind, r.count) for r in res.redactions} == {("phone", 1), ("email", 1)}
    names = [
        m.speaker
        for m in real_mem.list(user_id="pii-name", include_episodes=True)
        if m.kind == MemoryKind.EPISODE
    ]
    assert names and all(n and "1381234" not in n and "@" not in n for n in names)
    hits = real_mem.search("芒果", user_id="pii-name")
    assert all("13812345678" not in h.memory.model_dump_json() for h in hits)
    raw = file_bytes(tmp_path)
    assert b"13812345678" not in raw
    assert b"sam.lee@example.com" not in raw and b"sam.lee" not in raw


def test_full_width_digits_are_redacted(real_mem: Memory, tmp_path: Path) -> None:
    res = real_mem.add(
        [
            {"role": "user", "content": "我的手机号是１３８１２３４５６７８，我对芒果过敏"},
            {"role": "user", "content": "我家猫叫阿橘", "name": "１３９１２３４５６７８"},
        ],
        user_id="pii-fullwidth",
    )
    assert {(r.kind, r.count) for r in res.redactions} == {("phone", 2)}
    for m in real_mem.list(user_id="pii-fullwidth", include_episodes=True):
        dumped = m.model_dump_json()
        assert "１３８１２３４５６７８" not in dumped and "13812345678" not in dumped
    raw = file_bytes(tmp_path)
    for secret in (
        "１３８１２３４５６７８",
        "13812345678",
        "１３９１２３４５６７８",
        "13912345678",
    ):
        assert secret.encode() not in raw
    assert "用户对芒果过敏" in long_term(real_mem, "pii-fullwidth")


def test_a_pii_only_message_stores_no_fact(shared_real_mem: Memory) -> None:
    res = shared_real_mem.add("我的手机号是13812345678", user_id="pii-only")
    assert res.events == [] and [(r.kind, r.count) for r in res.redactions] == [("phone", 1)]
    assert [e.content for e in res.episodes] == ["我的手机号是[手机号]"]


# -- traditional Chinese --------------------------------------------------------------------


def test_traditional_chinese_is_extracted_and_found(shared_real_mem: Memory) -> None:
    user = "traditional"
    res = shared_real_mem.add("我對花生過敏", user_id=user)
    ((topic, value, content),) = [
        (e.memory.topic, e.memory.value, e.memory.content) for e in res.events
    ]
    assert topic == "health.allergy.花生" and value == "yes"
    assert "過敏" in content  # stored as written
    res = shared_real_mem.add("我喜歡喝烏龍茶", user_id=user)
    assert [e.memory.topic for e in res.events] == ["pref.乌龙茶"]
    hits = shared_real_mem.search("能吃花生吗", user_id=user)
    assert hits[0].memory.topic == "health.allergy.花生"
    ctx = shared_real_mem.context("推荐个菜", user_id=user)
    assert "花生過敏" in ctx.text  # pinned, in the user's own script


# -- idempotency ----------------------------------------------------------------------------


def _send(mem: Memory, user: str, text: str, mid: str) -> AddResult:
    return mem.add([{"role": "user", "content": text, "id": mid}], user_id=user)


def test_redelivered_message_is_stored_once(shared_real_mem: Memory) -> None:
    mem, text = shared_real_mem, "我对榴莲过敏，我家猫叫团子"
    first = _send(mem, "idem-a", text, "m-1")
    assert len(first.events) == 2 and len(first.episodes) == 1
    again = _send(mem, "idem-a", text, "m-1")
    assert again.events == [] and again.episodes == []
    assert [s.reason for s in again.skipped] == ["duplicate_message"]
    rows = mem.list(user_id="idem-a", include_episodes=True)
    assert sorted(m.kind for m in rows) == ["episode", "fact", "fact"]
    for m in rows:  # untouched by the second delivery
        assert [h.action for h in mem.history(m.id)] == [Action.ADD]
    hits = mem.search("榴莲", user_id="idem-a")
    contents = [h.memory.content for h in hits]
    assert contents.count(text) == 1 and contents.count("用户对榴莲过敏") == 1
    # The same id from another user is another message.
    other = _send(mem, "idem-b", text, "m-1")
    assert len(other.events) == 2 and len(other.episodes) == 1
    assert len(mem.list(user_id="idem-b", include_episodes=True)) == 3


def test_same_id_twice_in_one_batch_is_stored_once(shared_real_mem: Memory) -> None:
    msg = {"role": "user", "content": "我对榴莲过敏", "id": "dup-1"}
    res = shared_real_mem.add([msg, dict(msg)], user_id="idem-batch")
    assert len(res.episodes) == 1 and len(res.events) == 1
    assert len(shared_real_mem.list(user_id="idem-batch", include_episodes=True)) == 2


def test_forgotten_message_redelivered_stays_forgotten(shared_real_mem: Memory) -> None:
    mem, user = shared_real_mem, "idem-forgot"
    _send(mem, user, "我在腾讯上班", "f-1")
    res = _send(mem, user, "别记这个", "f-2")
    assert [e.event for e in res.events] == [Action.DELETE]
    assert mem.list(user_id=user, include_episodes=True) == []
    again = _send(mem, user, "我在腾讯上班", "f-1")
    assert again.events == [] and again.episodes == []
    assert mem.list(user_id=user, include_episodes=True) == []
    assert mem.search("腾讯", user_id=user) == []


def test_deleted_memory_redelivered_stays_deleted(shared_real_mem: Memory) -> None:
    mem, user = shared_real_mem, "idem-deleted"
    res = _send(mem, user, "我在阿里上班", "g-1")
    mem.delete(res.events[0].memory.id)
    _send(mem, user, "我在阿里上班", "g-1")
    assert mem.list(user_id=user, include_episodes=True) == []
