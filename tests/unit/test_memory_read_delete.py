"""Search, context, deletion and bad input through the public API."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from jiyi import InvalidInputError, JiyiError, Memory, NotFoundError, PayloadTooLargeError
from jiyi.core.text import estimate_tokens


def file_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.glob("jiyi.db*"))


def test_search_returns_score_components_and_records_access(mem: Memory) -> None:
    mem.add("我对花生过敏", user_id="u1")
    hits = mem.search("花生", user_id="u1")
    assert hits and hits[0].memory.content == "用户对花生过敏"
    assert {"semantic", "keyword", "importance", "recency", "exact"} <= set(hits[0].scores)
    assert hits == sorted(hits, key=lambda h: -h.score)
    got = mem.get(hits[0].memory.id)
    assert got is not None and got.access_count == 1 and got.last_accessed_at is not None


def test_exact_identifiers_are_found_and_boosted(mem: Memory) -> None:
    mem.add("我的订单号是 JD20261129-778，还没发货", user_id="u1", infer=False)
    mem.add("我的另一个快递已经到了", user_id="u1", infer=False)
    hits = mem.search("JD20261129-778 到哪了", user_id="u1")
    assert "JD20261129-778" in hits[0].memory.content and hits[0].scores["exact"] == 1.0


def test_time_words_prefer_memories_from_that_window(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.add(
        "今天去医院复查了，医生说血压偏高",
        user_id="u1",
        infer=False,
        timestamp=clock.now - timedelta(days=20),
    )
    mem.add(
        "今天去医院拿药，医生说恢复得不错",
        user_id="u1",
        infer=False,
        timestamp=clock.now - timedelta(days=1),
    )
    hits = mem.search("昨天医生怎么说的", user_id="u1")
    assert "恢复得不错" in hits[0].memory.content and hits[0].scores["time"] == 1.0


def test_since_and_until_filter_hard(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.add("周一开会讨论预算", user_id="u1", infer=False, timestamp=clock.now - timedelta(days=9))
    hits = mem.search("预算", user_id="u1", since=clock.now - timedelta(days=3))
    assert hits == []


def test_context_cold_start_says_it_knows_nothing(mem: Memory) -> None:
    ctx = mem.context("帮我挑杯咖啡吧", user_id="new-user")
    assert ctx.memories == [] and "不要" in ctx.text and "编造" in ctx.text
    en = mem.context("pick a coffee for me", user_id="new-user")
    assert "invent" in en.text


def test_context_groups_by_kind_in_the_users_language_within_budget(mem: Memory) -> None:
    mem.add("我喝咖啡不加糖，只喝冷萃，最近在减肥，别推荐带奶油的", user_id="u1")
    for i in range(40):
        mem.add(
            f"第{i}次聊天：我们聊了咖啡豆产地和烘焙程度的话题编号{i}", user_id="u1", infer=False
        )
    ctx = mem.context("帮我挑杯咖啡吧", user_id="u1", token_budget=150)
    assert "[偏好]" in ctx.text and "不加糖" in ctx.text
    assert ctx.tokens <= 150 and estimate_tokens(ctx.text) == ctx.tokens
    assert "编造" in ctx.text


def test_context_always_carries_critical_health_facts(mem: Memory) -> None:
    mem.add("我对花生过敏", user_id="u1")
    ctx = mem.context("今晚吃什么好", user_id="u1")
    assert "花生" in ctx.text


def test_memories_survive_a_new_memory_on_the_same_file(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    from jiyi.embedders import HashingEmbedder

    with Memory(tmp_path / "jiyi.db", embedder=HashingEmbedder(), clock=clock) as first:
        first.add("我的猫叫阿橘", user_id="u1")
    with Memory(tmp_path / "jiyi.db", embedder=HashingEmbedder(), clock=clock) as second:
        assert [m.content for m in second.list(user_id="u1")] == ["用户的猫叫阿橘"]


def test_update_bumps_version_and_keeps_old_content_in_history(mem: Memory) -> None:
    m = mem.add("我住在北京", user_id="u1").events[0].memory
    new = mem.update(m.id, "用户住在北京朝阳区")
    assert new.version == 2 and mem.search("朝阳区", user_id="u1")[0].memory.id == m.id
    assert [h.content for h in mem.history(m.id)] == ["用户住在北京", "用户住在北京朝阳区"]


def test_delete_leaves_nothing_readable_in_the_file(mem: Memory, tmp_path: Path) -> None:
    secret = "我的保险箱密码藏在书房左边第三本书里"
    res = mem.add(f"我喜欢紫色。{secret}", user_id="u1", infer=False)
    episode = res.episodes[0]
    assert secret.encode() in file_bytes(tmp_path)
    mem.delete(episode.id)
    assert mem.get(episode.id) is None
    assert mem.search("保险箱密码", user_id="u1") == []
    assert all(h.content is None for h in mem.history(episode.id))
    assert secret.encode() not in file_bytes(tmp_path)
    assert "保险箱".encode() not in file_bytes(tmp_path)  # not even as an FTS term


def test_deleting_an_extracted_memory_also_removes_its_source_words(
    mem: Memory, tmp_path: Path
) -> None:
    fact = mem.add("我对腰果过敏", user_id="u1").events[0].memory
    mem.delete(fact.id)
    assert "腰果".encode() not in file_bytes(tmp_path)
    assert mem.list(user_id="u1", include_episodes=True) == []


def test_a_deleted_turn_leaves_no_trace_in_the_next_turns_index(
    mem: Memory, tmp_path: Path
) -> None:
    # Every episode is indexed with the turn before it; the reply must lose the deleted words.
    res = mem.add(
        [
            {"role": "user", "content": "我对腰果过敏"},
            {"role": "assistant", "content": "好的，记住了"},
            {"role": "user", "content": "周末去爬山"},
        ],
        user_id="u1",
    )
    fact = next(e.memory for e in res.events if e.memory.topic == "health.allergy.腰果")
    mem.delete(fact.id)
    assert mem.search("腰果", user_id="u1") == []
    assert [e.content for e in mem.list(user_id="u1", include_episodes=True)][:2] == [
        "好的，记住了",
        "周末去爬山",
    ]
    assert "腰果".encode() not in file_bytes(tmp_path)


def test_a_forget_request_retracts_a_turn_from_its_neighbours_too(
    mem: Memory, tmp_path: Path
) -> None:
    mem.add("我喜欢紫色", user_id="u1")
    res = mem.add(
        [
            {"role": "user", "content": "我对开心果过敏"},
            {"role": "assistant", "content": "好的"},
            {"role": "user", "content": "别记这个"},
        ],
        user_id="u1",
    )
    assert [e.event.value for e in res.events] == ["DELETE"]
    assert mem.search("开心果", user_id="u1") == []
    assert "开心果".encode() not in file_bytes(tmp_path)


def test_delete_user_removes_everything_and_returns_a_receipt(mem: Memory, tmp_path: Path) -> None:
    mem.add("我的猫叫阿橘，我住在杭州", user_id="u1")
    mem.add("我住在成都", user_id="u2")
    receipt = mem.delete_user("u1")
    assert receipt.removed["memories"] >= 3 and receipt.user_id == "u1"
    assert mem.list(user_id="u1", include_episodes=True) == []
    assert "阿橘".encode() not in file_bytes(tmp_path)
    assert len(mem.list(user_id="u2")) == 1


def test_unknown_ids(mem: Memory) -> None:
    assert mem.get("nope") is None
    assert mem.history("nope") == []
    with pytest.raises(NotFoundError) as err:
        mem.delete("nope")
    assert err.value.field == "memory_id"
    with pytest.raises(NotFoundError):
        mem.update("nope", "x")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"messages": "hi", "user_id": ""}, "user_id"),
        ({"messages": "hi", "user_id": 42}, "user_id"),
        ({"messages": [{"role": "robot", "content": "x"}], "user_id": "u1"}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": 7}], "user_id": "u1"}, "messages[0].content"),
        ({"messages": [{"role": "user"}], "user_id": "u1"}, "messages[0].content"),
        ({"messages": 3.14, "user_id": "u1"}, "messages"),
        ({"messages": [], "user_id": "u1"}, "messages"),
        ({"messages": ["just a string in a list"], "user_id": "u1"}, "messages[0]"),
        (
            {"messages": [{"role": "user", "content": "x", "colour": 1}], "user_id": "u1"},
            "messages[0].colour",
        ),
        ({"messages": "hi", "user_id": "u1", "timestamp": "yesterday-ish"}, "timestamp"),
        ({"messages": "hi", "user_id": "u1", "infer": "yes"}, "infer"),
    ],
)
def test_bad_input_names_the_field_and_loses_nothing(mem: Memory, kwargs, field) -> None:  # type: ignore[no-untyped-def]
    mem.add("我对花生过敏", user_id="u1")
    before = mem.list(user_id="u1", include_episodes=True)
    with pytest.raises(InvalidInputError) as err:
        mem.add(**kwargs)
    assert err.value.field == field and field.split("[")[0] in str(err.value)
    assert mem.list(user_id="u1", include_episodes=True) == before


def test_a_one_megabyte_message_is_refused(mem: Memory) -> None:
    mem.add("我对花生过敏", user_id="u1")
    with pytest.raises(PayloadTooLargeError) as err:
        mem.add("我" * 1_000_000, user_id="u1")
    assert err.value.field == "messages[0].content"
    assert isinstance(err.value, JiyiError) and len(mem.list(user_id="u1")) == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"query": "", "user_id": "u1"}, "query"),
        ({"query": "x", "user_id": ""}, "user_id"),
        ({"query": "x", "user_id": "u1", "top_k": 0}, "top_k"),
        ({"query": "x", "user_id": "u1", "kinds": ["opinion"]}, "kinds"),
        ({"query": "x", "user_id": "u1", "now": "not a time"}, "now"),
    ],
)
def test_bad_search_input_names_the_field(mem: Memory, kwargs, field) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInputError) as err:
        mem.search(**kwargs)
    assert err.value.field == field


def test_deleting_a_source_deletes_reflections_derived_from_it(mem: Memory) -> None:
    from jiyi.core.ids import new_id
    from jiyi.core.models import MemoryItem, MemoryKind
    from jiyi.core.ports import ChangeSet, Indexed

    fact = mem.add("我对花生过敏", user_id="u1").events[0].memory
    now = fact.created_at
    summary = MemoryItem(
        id=new_id(),
        user_id="u1",
        kind=MemoryKind.SUMMARY,
        content="用户很在意饮食安全",
        created_at=now,
        observed_at=now,
        derived=True,
        sources=[fact.id],
    )
    mem.store.apply(fact.scope, ChangeSet(upserts=[Indexed(summary, "饮食 安全", None)]))
    mem.delete(fact.id)
    assert mem.get(summary.id) is None


def test_a_forget_request_also_deletes_reflections_derived_from_it(mem: Memory) -> None:
    from jiyi.core.ids import new_id
    from jiyi.core.models import MemoryItem, MemoryKind
    from jiyi.core.ports import ChangeSet, Indexed

    bday = mem.add("我生日是5月3号", user_id="u1").events[0].memory
    summary = MemoryItem(
        id=new_id(),
        user_id="u1",
        kind=MemoryKind.SUMMARY,
        content="用户在意生日",
        created_at=bday.created_at,
        observed_at=bday.created_at,
        derived=True,
        sources=[bday.id],
    )
    mem.store.apply(bday.scope, ChangeSet(upserts=[Indexed(summary, "生日", None)]))
    mem.add("别记我的生日", user_id="u1")
    assert mem.get(bday.id) is None and mem.get(summary.id) is None
