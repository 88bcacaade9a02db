"""LangChain's side of jiyi (``jiyi.integrations.langchain``) with the real
``langchain-core``: the retriever over one user's memories and the ``remember`` /
``recall`` tools, on the real default embedder."""

from __future__ import annotations

import asyncio

from langchain_core.documents import Document

from jiyi import Memory
from jiyi.integrations.langchain import JiyiRetriever, memory_tools


def test_the_retriever_returns_a_users_memories_best_first(real_mem: Memory) -> None:
    real_mem.add("我对花生过敏，以后别推荐带花生的菜。", user_id="xiaoming")
    real_mem.add("我住在成都。", user_id="xiaoming")
    real_mem.add("I am allergic to shellfish.", user_id="someone-else")
    retriever = JiyiRetriever(memory=real_mem, user_id="xiaoming", top_k=3)
    docs = retriever.invoke("能吃花生酱吗？")
    assert docs and all(isinstance(d, Document) for d in docs)
    assert "花生" in docs[0].page_content
    assert docs[0].metadata["kind"] in {"fact", "preference", "episode"}
    assert docs[0].id == docs[0].metadata["id"] and docs[0].metadata["score"] > 0
    assert not any("shellfish" in d.page_content for d in docs)  # another user
    again = asyncio.run(retriever.ainvoke("我住在哪？"))
    assert any("成都" in d.page_content for d in again)
    only_facts = JiyiRetriever(
        memory=real_mem, user_id="xiaoming", filters={"kind": "fact"}
    ).invoke("花生")
    assert only_facts and {d.metadata["kind"] for d in only_facts} == {"fact"}


def test_remember_and_recall_tools(real_mem: Memory) -> None:
    tools = {t.name: t for t in memory_tools(real_mem, user_id="lihua", agent_id="coach")}
    assert set(tools) == {"remember", "recall"}
    assert "记住" in tools["remember"].description and "Remember" in tools["remember"].description
    assert set(tools["recall"].args) == {"query", "top_k"}
    said = tools["remember"].invoke({"content": "我每周跑三次步，目标是明年跑半马。"})
    assert "ADD" in said
    found = tools["recall"].invoke({"query": "我的跑步目标是什么？", "top_k": 3})
    assert "半马" in found
    stored = real_mem.list(user_id="lihua")
    assert stored and all(m.agent_id == "coach" for m in stored)  # written as the agent
    # A bad argument is the tool's answer, naming the field, not a crash of the agent.
    bad = tools["recall"].invoke({"query": "跑步", "top_k": 0})
    assert "top_k" in bad
