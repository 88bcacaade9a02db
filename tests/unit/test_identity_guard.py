"""The drift guard, on the real default embedder: a session that gives another name, age,
language and city at once is flagged ``identity_suspect``, audited, stored as episodes only
and gets none of the user's memories in its context until the identity is confirmed — in
Chinese and in English. A move (one changed city) or a birthday plus a move is an ordinary
correction, never a drift; ``flag`` only marks, ``off`` does nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.errors import NotFoundError
from jiyi.queue import SqliteWorkQueue

ZH_ME = "我叫王小明，今年30岁，住在上海。我的母语是中文。"
ZH_OTHER = "我叫李强。我今年52岁。我住在广州。我的母语是粤语。"
EN_ME = (
    "My name is John Smith, I'm 30 years old and I live in Boston. My native language is English."
)
EN_OTHER = "My name is Carlos. I am 61 years old. I live in Madrid. I speak Spanish."


def facts(mem: Memory, user: str) -> dict[str, str]:
    return {m.topic or "": m.value or "" for m in mem.list(user_id=user) if m.kind == "fact"}


@pytest.mark.parametrize(
    ("me", "other", "query", "name"),
    [(ZH_ME, ZH_OTHER, "我住在哪里", "王小明"), (EN_ME, EN_OTHER, "where do I live", "John Smith")],
)
def test_another_person_at_the_keyboard_is_flagged_and_blocked(
    real_mem: Memory, me: str, other: str, query: str, name: str
) -> None:
    real_mem.add(me, user_id="u1", session_id="s1")
    mine = facts(real_mem, "u1")
    result = real_mem.add(other, user_id="u1", session_id="s2")
    assert set(result.identity_suspect) >= {"name", "age", "city"}
    # Block: the stranger's "facts" retire none of the user's; their words stay as episodes.
    assert facts(real_mem, "u1") == mine and mine["identity.name"] == name
    assert result.episodes and not [e for e in result.events if e.event.value != "ADD"]
    flag = real_mem.identity_suspect("u1", "s2")
    assert flag is not None and flag.confirmed_at is None
    blocked = real_mem.context(query, user_id="u1", session_id="s2")
    assert blocked.memories == [] and blocked.tasks == []
    assert real_mem.context(query, user_id="u1", session_id="s1").memories
    assert real_mem.context(query, user_id="u1").memories  # no session named: not blocked
    confirmed = real_mem.confirm_identity("u1", "s2", actor="key:ops")
    assert confirmed.confirmed_by == "key:ops"
    assert real_mem.context(query, user_id="u1", session_id="s2").memories
    events = real_mem.identity_events("u1")
    assert [e.action for e in events] == ["confirmed", "suspect"]
    assert events[1].session_id == "s2" and "name" in events[1].detail["slots"]  # type: ignore[operator]
    assert name not in str([e.model_dump() for e in events])  # slot names, never values


@pytest.mark.parametrize(
    ("me", "later", "slot", "value"),
    [
        (ZH_ME, "我搬到杭州了", "location.home", "杭州"),
        (ZH_ME, "我今年31岁了，我搬到杭州了", "location.home", "杭州"),
        (EN_ME, "I moved to Chicago", "location.home", "Chicago"),
    ],
)
def test_a_move_is_a_correction_not_a_drift(
    real_mem: Memory, me: str, later: str, slot: str, value: str
) -> None:
    real_mem.add(me, user_id="u1", session_id="s1")
    result = real_mem.add(later, user_id="u1", session_id="s2")
    assert result.identity_suspect == []
    assert real_mem.identity_suspect("u1", "s2") is None
    assert facts(real_mem, "u1")[slot] == value  # the correction took effect
    assert real_mem.context("where do I live 我住哪", user_id="u1", session_id="s2").memories
    assert real_mem.identity_events("u1") == []


def test_an_introduction_is_never_a_drift(real_mem: Memory) -> None:
    assert real_mem.add(ZH_OTHER, user_id="new", session_id="s1").identity_suspect == []


@pytest.fixture
def guarded(tmp_path: Path, clock, e5) -> Iterator[dict[str, Memory]]:  # type: ignore[no-untyped-def]
    made = {
        mode: Memory(
            tmp_path / f"{mode}.db",
            embedder=e5,
            clock=clock,
            config=MemoryConfig(identity_guard=mode),
        )
        for mode in ("flag", "off")
    }
    yield made
    for m in made.values():
        m.close()


def test_flag_marks_without_blocking_and_off_does_nothing(guarded: dict[str, Memory]) -> None:
    flag, off = guarded["flag"], guarded["off"]
    for mem in (flag, off):
        mem.add(ZH_ME, user_id="u1", session_id="s1")
        mem.add(ZH_OTHER, user_id="u1", session_id="s2")
    assert flag.identity_suspect("u1", "s2") is not None
    assert facts(flag, "u1")["identity.name"] == "李强"  # flag stores as usual
    assert flag.context("我叫什么", user_id="u1", session_id="s2").memories
    assert off.identity_suspect("u1", "s2") is None and off.identity_events("u1") == []
    with pytest.raises(NotFoundError) as err:
        off.confirm_identity("u1", "s2")
    assert err.value.field == "session_id"


def test_a_queued_batch_is_flagged_by_the_worker(mem: Memory, tmp_path: Path) -> None:
    # Slot values decide a drift, not similarity: the hashing embedder is enough here.
    queue = SqliteWorkQueue(tmp_path / "queue.db")
    mem.add(ZH_ME, user_id="u1", session_id="s1")
    accepted = mem.accept(ZH_OTHER, queue=queue, user_id="u1", session_id="s2")
    assert accepted.queued and accepted.identity_suspect == []  # nothing extracted yet
    job = queue.claim("test", lease=timedelta(seconds=30), now=mem.now())
    assert job is not None
    done = mem.process(job)
    assert done is not None and {"name", "age", "city"} <= set(done.identity_suspect)
    flag = mem.identity_suspect("u1", "s2")
    assert flag is not None and flag.confirmed_at is None
    assert mem.context("我住在哪里", user_id="u1", session_id="s2").memories == []
    assert [e.action for e in mem.identity_events("u1")] == ["suspect"]
    queue.close()
