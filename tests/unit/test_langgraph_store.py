"""``JiyiStore`` with the real ``langgraph`` package: the BaseStore operations (sync and
async), namespaces as jiyi users and agents, search through jiyi's hybrid recall on the
real default embedder, and a small compiled graph that remembers across two threads."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import InvalidNamespaceError

from jiyi import Memory
from jiyi.integrations.langgraph import JiyiStore


@pytest.fixture
def store(real_mem: Memory) -> JiyiStore:
    return JiyiStore(real_mem)


def test_put_get_overwrite_and_delete(store: JiyiStore, real_mem: Memory) -> None:
    ns = ("memories", "alice")
    store.put(ns, "diet", {"content": "Alice is vegetarian", "source": "chat"})
    got = store.get(ns, "diet")
    assert got is not None and got.value == {"content": "Alice is vegetarian", "source": "chat"}
    assert got.namespace == ns and got.key == "diet"
    first_created = got.created_at

    store.put(ns, "diet", {"content": "Alice is vegan now"})
    again = store.get(ns, "diet")
    assert again is not None and again.value == {"content": "Alice is vegan now"}
    assert again.created_at == first_created and again.updated_at >= first_created
    # One memory per key in jiyi too: the old version is gone, not left to be found.
    stored = real_mem.list(user_id="alice", include_episodes=True)
    assert [m.content for m in stored] == ["Alice is vegan now"]

    assert store.get(ns, "missing") is None
    assert store.get(("memories", "bob"), "diet") is None  # another user
    store.delete(ns, "diet")
    assert store.get(ns, "diet") is None
    assert real_mem.list(user_id="alice", include_episodes=True) == []


def test_agents_have_private_namespaces_under_their_user(store: JiyiStore) -> None:
    store.put(("memories", "alice"), "city", {"content": "Alice lives in Hangzhou"})
    store.put(("memories", "alice", "planner"), "trip", {"content": "Alice plans a trip"})
    store.put(("memories", "bob"), "city", {"content": "Bob lives in Berlin"})
    got = store.get(("memories", "alice", "planner"), "trip")
    assert got is not None and got.namespace == ("memories", "alice", "planner")
    assert store.get(("memories", "alice"), "trip") is None  # not in the shared namespace

    under_alice = store.search(("memories", "alice"))
    assert {(i.namespace, i.key) for i in under_alice} == {
        (("memories", "alice"), "city"),
        (("memories", "alice", "planner"), "trip"),
    }
    only_planner = store.search(("memories", "alice", "planner"))
    assert [i.key for i in only_planner] == ["trip"]
    assert {i.namespace for i in store.search(("memories",))} >= {("memories", "bob")}

    assert store.list_namespaces() == [
        ("memories", "alice"),
        ("memories", "alice", "planner"),
        ("memories", "bob"),
    ]
    assert store.list_namespaces(suffix=("planner",)) == [("memories", "alice", "planner")]
    assert store.list_namespaces(prefix=("memories", "*"), max_depth=2) == [
        ("memories", "alice"),
        ("memories", "bob"),
    ]
    with pytest.raises(InvalidNamespaceError):
        store.put(("notes", "alice"), "k", {"content": "x"})
    with pytest.raises(InvalidNamespaceError):
        store.put(("memories",), "k", {"content": "x"})


def test_search_ranks_by_meaning_and_filters_values(store: JiyiStore) -> None:
    ns = ("memories", "zhang")
    store.put(ns, "food", {"content": "我对花生过敏", "topic": "health", "priority": 3})
    store.put(ns, "work", {"content": "我在杭州做产品经理", "topic": "work", "priority": 1})
    store.put(ns, "pet", {"text": "I have a cat called Mimi", "topic": "home", "priority": 2})
    hits = store.search(ns, query="能吃花生酱吗？", limit=3)
    assert hits and hits[0].key == "food" and hits[0].score is not None
    assert [h.score for h in hits] == sorted((h.score or 0 for h in hits), reverse=True)
    pet = store.search(ns, query="what is the name of my pet?", limit=1)
    assert [h.key for h in pet] == ["pet"]
    assert {h.key for h in store.search(ns, filter={"topic": "work"})} == {"work"}
    ranged = store.search(ns, filter={"priority": {"$gte": 2}})
    assert {h.key for h in ranged} == {"food", "pet"}
    assert len(store.search(ns, limit=2)) == 2 and len(store.search(ns, offset=2)) == 1


def test_the_async_forms_match(store: JiyiStore) -> None:
    async def main() -> None:
        ns = ("memories", "carol")
        await store.aput(ns, "tea", {"content": "Carol drinks green tea every morning"})
        got = await store.aget(ns, "tea")
        assert got is not None and got.value["content"].startswith("Carol")
        hits = await store.asearch(ns, query="what does Carol drink?")
        assert hits and hits[0].key == "tea"
        assert await store.alist_namespaces() == [ns]
        await store.adelete(ns, "tea")
        assert await store.aget(ns, "tea") is None

    asyncio.run(main())


class Chat(TypedDict):
    user: str
    message: str
    answer: str


class Ctx(TypedDict):
    user_id: str


def remember_or_answer(state: Chat, runtime: Runtime[Ctx]) -> dict[str, Any]:
    """A tiny agent: "remember: …" stores a note; anything else answers from memory."""
    assert runtime.store is not None
    ns = ("memories", runtime.context["user_id"])
    text = state["message"]
    if text.startswith("remember:"):
        note = text.removeprefix("remember:").strip()
        runtime.store.put(ns, f"note-{abs(hash(note))}", {"content": note})
        return {"answer": "ok"}
    hits = runtime.store.search(ns, query=text, limit=1)
    return {"answer": hits[0].value["content"] if hits else "I don't know"}


def test_a_graph_remembers_across_threads(real_mem: Memory, tmp_path: Path) -> None:
    builder = StateGraph(Chat, context_schema=Ctx)
    builder.add_node("agent", remember_or_answer)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", END)
    graph = builder.compile(checkpointer=InMemorySaver(), store=JiyiStore(real_mem))

    def say(thread: str, user: str, message: str) -> str:
        out = graph.invoke(
            {"user": user, "message": message, "answer": ""},
            {"configurable": {"thread_id": thread}},
            context={"user_id": user},
        )
        return str(out["answer"])

    assert say("thread-1", "xiaoming", "remember: 我对花生过敏，不吃带花生的菜") == "ok"
    assert say("thread-1", "xiaoming", "remember: 我住在成都") == "ok"
    # Another thread (a new conversation) of the same user recalls it; another user does not.
    assert "花生" in say("thread-2", "xiaoming", "晚饭能吃宫保鸡丁吗？里面有花生")
    assert "成都" in say("thread-3", "xiaoming", "我住在哪个城市？")
    assert say("thread-4", "lihua", "我对什么过敏？") == "I don't know"
    # What the graph stored is ordinary jiyi memory.
    assert any("花生" in h.memory.content for h in real_mem.search("花生", user_id="xiaoming"))
