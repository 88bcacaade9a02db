"""One write reads the user's stored facts once (jiyi.pipeline.read_once), answers every
list exactly as the store would, and leaves what it read as it was."""

from __future__ import annotations

import builtins
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jiyi import Memory
from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import ChangeSet, SearchFilter
from jiyi.embedders import HashingEmbedder
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.read_once import ReadOnce
from jiyi.storage.sqlite import SqliteMemoryStore

FACTS = [
    "我住在北京",
    "我对花生过敏",
    "我养了一只猫叫阿橘",
    "I work at Acme as a designer",
    "my sister Laura is a flight attendant for United",
    "我喜欢喝拿铁",
    "I love the band Foals",
]
# messages that send a write through most of its steps: a value told as over, a
# retraction, a clause changing a relative's fact, a drink changed
CHANGES = [
    "我不在北京了，现在搬到上海了",
    "I left Acme and now work at Globex",
    "laura quit flying, she's doing real estate now",
    "我不喝拿铁了，改喝美式",
    "I don't love the band Foals anymore",
]


class Watched:
    """A real store that counts each ``list`` by its arguments and keeps what it returned."""

    def __init__(self, inner: SqliteMemoryStore) -> None:
        self.inner = inner
        self.lists: Counter[tuple[Any, ...]] = Counter()
        self.returned: list[tuple[MemoryItem, dict[str, Any]]] = []

    def list(
        self, scope: Scope, flt: SearchFilter, *, topic: str | None = None, limit: int | None = None
    ) -> builtins.list[MemoryItem]:
        self.lists[(flt, topic, limit)] += 1
        out = self.inner.list(scope, flt, topic=topic, limit=limit)
        self.returned += [(m, m.model_dump()) for m in out]
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.fixture
def watched(tmp_path: Path) -> Any:
    store = Watched(SqliteMemoryStore(tmp_path / "w.db"))
    mem = Memory(store=store, embedder=HashingEmbedder())  # type: ignore[arg-type]
    for text in FACTS:
        mem.add(text, user_id="u")
    yield mem, store
    mem.close()


def test_a_batch_reads_the_users_facts_once(watched: Any) -> None:
    mem, store = watched
    store.lists.clear()
    mem.add([{"role": "user", "content": t} for t in CHANGES], user_id="u")
    facts = store.lists[(SearchFilter(kinds=ACTIVE_MEMORIES.kinds), None, None)]
    assert facts == 1, store.lists
    assert all(n == 1 for n in store.lists.values()), store.lists


def test_each_message_alone_reads_them_once_too(watched: Any) -> None:
    mem, store = watched
    for text in CHANGES:
        store.lists.clear()
        mem.add(text, user_id="u")
        assert all(n == 1 for n in store.lists.values()), (text, store.lists)


def test_what_a_write_read_is_left_as_it_was(watched: Any) -> None:
    mem, store = watched
    store.returned.clear()
    mem.add([{"role": "user", "content": t} for t in CHANGES], user_id="u")
    assert store.returned, "the write read nothing"
    for item, before in store.returned:
        assert item.model_dump() == before


@pytest.mark.parametrize(
    "flt, topic, limit",
    [
        (ACTIVE_MEMORIES, None, None),
        (SearchFilter(kinds=(MemoryKind.PREFERENCE,)), None, None),
        (SearchFilter(kinds=(MemoryKind.PREFERENCE, MemoryKind.FACT)), None, None),
        (SearchFilter(kinds=(MemoryKind.FACT,)), "health.allergy.花生", None),
        (SearchFilter(kinds=ACTIVE_MEMORIES.kinds), None, 2),
        (SearchFilter(kinds=(MemoryKind.EPISODE,)), None, None),
        (SearchFilter(statuses=tuple(Status), kinds=ACTIVE_MEMORIES.kinds), None, None),
    ],
)
def test_every_list_is_what_the_store_says(
    watched: Any, flt: SearchFilter, topic: str | None, limit: int | None
) -> None:
    mem, store = watched
    mem.add("我不在北京了，现在搬到上海了", user_id="u")  # a superseded row among them
    scope = Scope(user_id="u")
    once = ReadOnce(store.inner)
    once.list(scope, ACTIVE_MEMORIES)  # the one read is made first
    want = [m.id for m in store.inner.list(scope, flt, topic=topic, limit=limit)]
    assert want, "the filter admits nothing here"
    for _ in range(2):
        assert [m.id for m in once.list(scope, flt, topic=topic, limit=limit)] == want


def test_a_plan_may_not_write(tmp_path: Path) -> None:
    once = ReadOnce(SqliteMemoryStore(tmp_path / "x.db"))
    with pytest.raises(RuntimeError):
        once.apply(Scope(user_id="u"), ChangeSet())
