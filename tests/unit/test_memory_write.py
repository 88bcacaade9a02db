"""The write path through the public API: extraction, reconciliation, forgetting, PII."""

from __future__ import annotations

from jiyi import Action, Memory, MemoryKind, Status


def events(res) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.event.value for e in res.events]


def test_a_user_sentence_becomes_memories_and_an_episode(mem: Memory) -> None:
    res = mem.add("我喝咖啡不加糖，只喝冷萃，最近在减肥，别推荐带奶油的", user_id="u1")
    topics = {e.memory.topic for e in res.events}
    assert {"diet.coffee.type", "pref.奶油"} <= topics  # the sugar is a part of the order
    assert all(e.event == Action.ADD for e in res.events)
    assert len(res.episodes) == 1 and res.episodes[0].kind == MemoryKind.EPISODE
    assert {m.topic for m in mem.list(user_id="u1")} == topics


def test_assistant_text_and_chit_chat_are_never_stored_as_memories(mem: Memory) -> None:
    res = mem.add(
        [
            {"role": "user", "content": "哈哈好的"},
            {"role": "assistant", "content": "好的，我记住了：你喜欢喝拿铁，住在北京。"},
            {"role": "system", "content": "You are a helpful assistant. The user likes tea."},
        ],
        user_id="u1",
    )
    assert res.events == []
    assert {s.reason for s in res.skipped} >= {"chit_chat", "assistant_text", "system_text"}
    assert mem.list(user_id="u1") == []
    # ...but every message is still kept as an episode for "what did you say last time".
    assert len(mem.list(user_id="u1", include_episodes=True)) == 3


def test_infer_false_stores_episodes_only(mem: Memory) -> None:
    res = mem.add("我对花生过敏", user_id="u1", infer=False)
    assert res.events == [] and len(res.episodes) == 1
    assert mem.list(user_id="u1") == []


def test_repeating_a_fact_is_a_noop_not_a_new_row(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    first = mem.add("我对花生过敏", user_id="u1")
    clock.advance(days=3)
    again = mem.add("我对花生过敏", user_id="u1")
    assert events(first) == ["ADD"] and events(again) == ["NOOP"]
    facts = mem.list(user_id="u1")
    assert len(facts) == 1 and facts[0].observed_at == clock.now


def test_a_correction_supersedes_and_keeps_the_chain(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    old = mem.add("我住在北京", user_id="u1").events[0].memory
    clock.advance(days=30)
    res = mem.add("其实我搬到上海了", user_id="u1")
    assert events(res) == ["SUPERSEDE"]
    new = res.events[0].memory
    assert res.events[0].previous is not None and res.events[0].previous.id == old.id
    stored_old = mem.get(old.id)
    assert stored_old is not None
    assert stored_old.status == Status.SUPERSEDED and stored_old.superseded_by == new.id
    assert [m.id for m in mem.list(user_id="u1")] == [new.id]
    assert {m.id for m in mem.list(user_id="u1", include_superseded=True)} == {old.id, new.id}
    assert [h.action for h in mem.history(old.id)] == [Action.ADD, Action.SUPERSEDE]
    assert new.version == 2
    assert all(h.memory.id != old.id for h in mem.search("住在哪里", user_id="u1"))


def test_changed_preference_supersedes_in_english(mem: Memory) -> None:
    mem.add("I love horror movies", user_id="u1")
    res = mem.add("Actually I don't like horror movies anymore", user_id="u1")
    assert events(res) == ["SUPERSEDE"]
    assert len(mem.list(user_id="u1")) == 1


def test_states_append_a_timeline_instead_of_overwriting(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.add("我最近在减肥", user_id="u1")
    clock.advance(days=10)
    res = mem.add("我最近在学游泳", user_id="u1")
    assert events(res) == ["ADD"]
    assert len([m for m in mem.list(user_id="u1") if m.kind == MemoryKind.STATE]) == 2


def test_forget_request_hard_deletes_the_named_memory_and_is_not_stored(mem: Memory) -> None:
    bday = mem.add("我生日是5月3号", user_id="u1").events[0].memory
    mem.add("我对花生过敏", user_id="u1")
    res = mem.add("别记我的生日", user_id="u1")
    assert events(res) == ["DELETE"] and res.events[0].memory.id == bday.id
    assert mem.get(bday.id) is None
    remaining = mem.list(user_id="u1", include_episodes=True)
    assert all("生日" not in m.content for m in remaining)  # the episode and the request too
    assert [h.action for h in mem.history(bday.id)] == [Action.ADD, Action.DELETE]


def test_forget_that_without_a_target_removes_what_was_just_said(mem: Memory) -> None:
    mem.add("我的猫叫阿橘", user_id="u1")
    res = mem.add(
        [
            {"role": "user", "content": "我在腾讯工作"},
            {"role": "user", "content": "算了，别记这个"},
        ],
        user_id="u1",
    )
    assert all(e.memory.topic != "work.employer" or e.event == Action.DELETE for e in res.events)
    topics = {m.topic for m in mem.list(user_id="u1")}
    assert "work.employer" not in topics and "pet.cat.name" in topics


def test_pii_is_redacted_before_storage_and_reported(mem: Memory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    res = mem.add("我的手机号是13812345678，我对芒果过敏", user_id="u1")
    assert [(r.kind, r.count) for r in res.redactions] == [("phone", 1)]
    for m in mem.list(user_id="u1", include_episodes=True):
        assert "13812345678" not in m.content
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("jiyi.db*"))
    assert b"13812345678" not in raw


def test_agent_private_memories_stay_with_their_agent(mem: Memory) -> None:
    mem.add("我喜欢爵士乐", user_id="u1", agent_id="music-bot")
    mem.add("我对花生过敏", user_id="u1")
    as_other = {m.content for m in mem.list(user_id="u1", agent_id="chef-bot")}
    as_music = {m.content for m in mem.list(user_id="u1", agent_id="music-bot")}
    assert as_other == {"用户对花生过敏"}
    assert as_music == {"用户对花生过敏", "用户喜欢爵士乐"}


def test_users_are_isolated(mem: Memory) -> None:
    mem.add("我对花生过敏", user_id="alice")
    assert mem.list(user_id="bob") == []
    assert mem.search("花生", user_id="bob") == []
