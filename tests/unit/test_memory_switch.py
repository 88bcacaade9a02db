"""The memory switch through ``Memory``: phrases in zh and en turn it, off stores nothing
and serves nothing, paused keeps serving but adds nothing, every change is logged with who
and when (never content), and the phrase itself is never stored."""

from __future__ import annotations

from typing import Any

import pytest

from jiyi import Memory
from jiyi.core.switch import switch_phrase
from jiyi.core.users import MemorySwitch
from jiyi.errors import ConflictError, InvalidInputError

OFF, ON, PAUSED = MemorySwitch.OFF, MemorySwitch.ON, MemorySwitch.PAUSED


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("以后别记我的任何东西", OFF),
        ("请以后不要再记住我的任何信息。", OFF),
        ("关闭记忆功能", OFF),
        ("stop remembering me", OFF),
        ("Please don't remember anything about me from now on.", OFF),
        ("先别记了", PAUSED),
        ("暂停记忆", PAUSED),
        ("pause memory for now", PAUSED),
        ("可以继续记了", ON),
        ("恢复记忆吧", ON),
        ("you can remember again", ON),
        ("You can remember me again!", ON),
        ("别记我的生日", None),  # a targeted forget request, not the switch
        ("他说以后别记我的任何东西", None),  # a report, not a request
        ("以后别推荐带花生的菜", None),
        ("don't forget my birthday", None),
        ("继续上次的报销单", None),
        ("I can remember again", None),
    ],
)
def test_switch_phrases(text: str, position: MemorySwitch | None) -> None:
    assert switch_phrase(text) == position


def said(*lines: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": line} for line in lines]


def test_off_stores_nothing_new_and_serves_nothing(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1")
    mem.tasks.put("u1", "trip", {"city": "成都"})
    result = mem.add(said("以后别记我的任何东西", "我对花生过敏"), user_id="u1")
    assert [(s.text, s.reason) for s in result.skipped] == [
        ("以后别记我的任何东西", "memory_switch"),
        ("我对花生过敏", "memory_off"),
    ]
    assert result.events == [] and result.episodes == []
    assert mem.switch.get("u1").memory == OFF
    assert mem.search("上海", user_id="u1") == []
    assert mem.list(user_id="u1", include_episodes=True) == []
    block = mem.context("我住在哪里", user_id="u1")
    assert block.memories == [] and block.tasks == [] and "上海" not in block.text
    assert mem.tasks.get("u1", "trip") is None and mem.tasks.list("u1") == []
    with pytest.raises(ConflictError) as err:
        mem.tasks.put("u1", "trip", {"city": "北京"})
    assert err.value.field == "memory"
    # Back on: what was stored before is served again; what was said while off never was.
    mem.add("you can remember again", user_id="u1")
    assert [h.memory.content for h in mem.search("上海", user_id="u1")]
    assert mem.search("花生", user_id="u1") == []
    assert mem.tasks.get("u1", "trip") is not None


def test_paused_serves_what_is_stored_but_adds_nothing(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1")
    mem.switch.set("u1", "paused")
    result = mem.add("我养了一只狗叫旺财", user_id="u1")
    assert [s.reason for s in result.skipped] == ["memory_paused"] and not result.events
    assert mem.search("上海", user_id="u1")
    assert mem.search("旺财", user_id="u1") == []
    with pytest.raises(ConflictError):
        mem.tasks.put("u1", "k", {"a": 1})
    mem.add("可以继续记了", user_id="u1")
    assert mem.add("我养了一只狗叫旺财", user_id="u1").events


def test_in_a_batch_each_message_obeys_the_switch_when_it_is_said(mem: Memory) -> None:
    result = mem.add(
        said("我喜欢猫", "先别记了", "我住在北京", "可以继续记了", "我在杭州工作"), user_id="u1"
    )
    assert [s.reason for s in result.skipped] == [
        "memory_switch",
        "memory_paused",
        "memory_switch",
    ]
    kept = {m.content for m in mem.list(user_id="u1", include_episodes=True)}
    assert "我喜欢猫" in kept and "我在杭州工作" in kept and "我住在北京" not in kept


def test_an_assistant_saying_the_phrase_does_not_switch(mem: Memory) -> None:
    mem.add([{"role": "assistant", "content": "stop remembering me"}], user_id="u1")
    assert mem.switch.get("u1").memory == ON


def test_every_change_is_logged_with_who_and_how_never_content(mem: Memory) -> None:
    mem.add("以后别记我的任何东西", user_id="u1")
    mem.switch.set("u1", "on", actor="admin-console")
    mem.switch.set("u1", "on")  # no change: not logged
    log = mem.switch.history("u1")
    assert [(c.before, c.after, c.actor, c.via) for c in log] == [
        (OFF, ON, "admin-console", "api"),
        (ON, OFF, "user", "said"),
    ]
    assert "记" not in str([c.model_dump() for c in log])  # no words of the user
    state = mem.switch.get("u1")
    assert (state.memory, state.changed_by) == (ON, "admin-console")


def test_forgetting_a_user_keeps_them_unremembered(mem: Memory) -> None:
    mem.add("stop remembering me", user_id="u1")
    mem.delete_user("u1")
    assert mem.switch.get("u1").memory == OFF
    assert mem.add("我住在上海", user_id="u1").events == []


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m: m.switch.set("u1", "maybe"), "memory"),
        (lambda m: m.switch.set("", "off"), "user_id"),
        (lambda m: m.switch.set("u1", "off", actor=""), "actor"),
        (lambda m: m.switch.history("u1", limit=0), "limit"),
    ],
)
def test_bad_switch_calls_name_the_field(mem: Memory, call: Any, field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        call(mem)
    assert err.value.field == field
    assert mem.switch.history("u1") == []
