"""Contract: export → import of one user on every store, on the real default embedder.

A user with history chains (a correction, an update, a forget), episodes in zh and en,
tasks, a switch that was paused and turned back on, a linked alias and a flagged session is
exported and imported into a fresh store of the same backend: the same search results (ids
and scores), the same rows, history, tasks, switch, aliases and identity log — and importing
it again changes nothing. A malformed document, another user's or tenant's document, and a
document whose alias is taken here are refused with nothing written (one transaction)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.ports import MemoryStore
from jiyi.errors import AliasTakenError, InvalidInputError
from jiyi.transfer_lines import dump_lines

SECRET = "contract-secret"
QUERIES = ["我住在哪里", "what do I drink", "报销单", "我的猫叫什么", "where do I work"]


@pytest.fixture
def memories(
    store: MemoryStore, fresh_store: MemoryStore, clock, e5
) -> Iterator[tuple[Memory, Memory]]:  # type: ignore[no-untyped-def]
    cfg = MemoryConfig(tenant="acme", alias_secret=SECRET)
    a = Memory(store=store, embedder=e5, clock=clock, config=cfg)
    b = Memory(store=fresh_store, embedder=e5, clock=clock, config=cfg)
    yield a, b


def fill(mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    mem.add(
        "我叫王小明，今年30岁，住在上海，我的母语是中文。我的猫叫阿橘。",
        user_id="alice",
        session_id="s1",
    )
    clock.advance(days=1)
    mem.add(
        "I usually drink cold brew coffee, and I work at Globex.", user_id="alice", session_id="s2"
    )
    clock.advance(days=1)
    mem.add("我搬到杭州了", user_id="alice", session_id="s3")  # a correction: a history chain
    doomed = mem.add("我的银行卡密码提示是小鱼", user_id="alice", session_id="s3")
    for e in doomed.events:
        if e.memory_id and mem.get(e.memory_id) is not None:
            mem.delete(e.memory_id)  # history without content
            break
    mem.tasks.put("alice", "报销", {"form": "三月差旅报销单", "step": 2})
    mem.switch.set("alice", "paused")
    mem.switch.set("alice", "on")
    mem.link("alice", "+86 138 0013 8000", kind="phone")
    mem.set_profile("alias:phone:+8613800138000", "city", "杭州")  # a profile override
    clock.advance(hours=1)
    mem.add("我叫李强。我今年52岁。我住在广州。我的母语是粤语。", user_id="alice", session_id="s4")


def state(mem: Memory) -> dict[str, Any]:
    rows = mem.list(user_id="alice", include_superseded=True, limit=1000)
    return {
        "rows": [m.model_dump(mode="json") for m in rows],
        "history": {
            m.id: [h.model_dump(mode="json", exclude={"id"}) for h in mem.history(m.id)]
            for m in rows
        },
        "tasks": [t.model_dump(mode="json") for t in mem.tasks.list("alice")],
        "switch": mem.switch.get("alice").model_dump(mode="json"),
        "switch_log": [c.model_dump(mode="json") for c in mem.switch.history("alice")],
        "aliases": [a.model_dump(mode="json") for a in mem.aliases("alice")],
        "events": [e.model_dump(mode="json") for e in mem.identity_events("alice")],
        "profile_history": [o.model_dump(mode="json") for o in mem.profile_history("alice")],
        "profile": mem.profile("alice").model_dump(mode="json"),
        "suspect": mem.identity_suspect("alice", "s4"),
    }


def hits(mem: Memory, query: str) -> list[tuple[str, float]]:
    return [(h.memory.id, round(h.score, 6)) for h in mem.search(query, user_id="alice")]


def test_an_export_imports_into_a_fresh_store_with_the_same_results(memories, clock) -> None:  # type: ignore[no-untyped-def]
    a, b = memories
    fill(a, clock)
    text = a.export("alice").model_dump_json()
    doc = json.loads(text)
    assert (doc["format"], doc["version"], doc["tenant"], doc["user_id"]) == (
        "jiyi.export",
        1,
        "acme",
        "alice",
    )
    assert "13800138000" not in text  # aliases travel hashed
    counts = b.import_(text)
    assert counts["memories"] == len(doc["sections"]["memories"]) > 5
    before = state(a)
    assert state(b) == before
    assert before["suspect"] is not None  # the drift was flagged (and the flag travelled)
    assert before["profile_history"] and before["profile"]["city"]["value"] == "杭州"
    assert "suspect" in [e["action"] for e in before["events"]]
    for q in QUERIES:
        got = hits(a, q)
        assert got and hits(b, q) == got, q
    # The alias resolves in the new store (same secret), to the same user.
    assert b.resolve_user("alias:phone:+8613800138000") == "alice"
    # Importing again is importing once.
    b.import_(text)
    after = state(b)
    assert len(after["rows"]) == len(before["rows"])
    assert after["history"] == state(a)["history"]
    assert after["switch_log"] == before["switch_log"] and after["events"] == before["events"]


def test_a_bad_document_writes_nothing(memories, clock) -> None:  # type: ignore[no-untyped-def]
    a, b = memories
    fill(a, clock)
    doc = a.export("alice").model_dump(mode="json")
    bad = json.loads(json.dumps(doc))
    bad["sections"]["memories"][1]["memory"]["kind"] = "rumour"
    with pytest.raises(InvalidInputError) as err:
        b.import_(bad)
    assert err.value.field == "sections.memories.1.memory.kind"
    for broken, field in (
        ({**doc, "version": 2}, "version"),
        ({**doc, "sections": {**doc["sections"], "profile_v9": []}}, "sections.profile_v9"),
        ({k: v for k, v in doc.items() if k != "embedder"}, "embedder"),
    ):
        with pytest.raises(InvalidInputError) as err:
            b.import_(broken, "alice")
        assert err.value.field == field
    with pytest.raises(InvalidInputError) as err:
        b.import_(doc, "bob")
    assert err.value.field == "user_id"
    other = Memory.on(b.engine, "globex")
    with pytest.raises(InvalidInputError) as err:
        other.import_(doc)
    assert err.value.field == "tenant"
    assert b.list(user_id="alice") == [] and b.list(user_id="bob") == []
    # An alias taken here by someone else: refused after the memories were planned, and
    # the one transaction leaves none of them behind.
    b.link("carol", "+8613800138000", kind="phone")
    with pytest.raises(AliasTakenError):
        b.import_(doc)
    assert b.list(user_id="alice", include_superseded=True) == []
    assert b.tasks.list("alice") == []
    b.unlink("carol", "+8613800138000", kind="phone")
    # Told to remap, another user's document becomes this user's.
    assert b.import_(doc, "bob", remap=True)["memories"] > 5
    assert {m.user_id for m in b.list(user_id="bob", include_superseded=True)} == {"bob"}
    assert b.resolve_user("alias:phone:+8613800138000") == "bob"


def test_a_jsonl_export_imports_with_the_same_results(memories, clock) -> None:  # type: ignore[no-untyped-def]
    """The JSON Lines layout carries the same content: a header line, one record a line,
    and the fresh store answers the same searches, ids and scores, with the same profile."""
    a, b = memories
    fill(a, clock)
    doc = a.export("alice")
    text = "".join(dump_lines(doc))
    lines = text.splitlines()
    header = json.loads(lines[0])
    assert (header["format"], header["version"], header["tenant"], header["user_id"]) == (
        "jiyi.export.jsonl",
        1,
        "acme",
        "alice",
    )
    assert header["counts"]["memories"] == len(doc.sections["memories"]) > 5
    assert header["counts"]["switch"] == 1
    assert len(lines) == 1 + sum(header["counts"].values())
    assert {json.loads(line)["section"] for line in lines[1:]} == {
        k for k, v in header["counts"].items() if v
    }
    assert "13800138000" not in text  # aliases travel hashed here too
    counts = b.import_(text.encode())
    assert counts["memories"] == header["counts"]["memories"]
    assert state(b) == state(a)
    for q in QUERIES:
        got = hits(a, q)
        assert got and hits(b, q) == got, q
    assert b.resolve_user("alias:phone:+8613800138000") == "alice"


def test_a_bad_jsonl_line_names_the_line_and_writes_nothing(memories, clock) -> None:  # type: ignore[no-untyped-def]
    a, b = memories
    fill(a, clock)
    lines = list(dump_lines(a.export("alice")))
    memory_line = next(
        n for n, line in enumerate(lines) if n > 2 and json.loads(line)["section"] == "memories"
    )
    bad_kind = json.loads(lines[memory_line])
    bad_kind["record"]["memory"]["kind"] = "rumour"
    header = json.loads(lines[0])
    cases = [
        # (which line is replaced by what, the field the error names)
        (memory_line, json.dumps(bad_kind) + "\n", f"lines.{memory_line + 1}.record.memory.kind"),
        (memory_line, '{"section": "memories", "record": \n', f"lines.{memory_line + 1}"),
        (memory_line, '{"section": "gossip", "record": {}}\n', f"lines.{memory_line + 1}.section"),
        (0, json.dumps({**header, "version": 2}) + "\n", "lines.1.version"),
        (
            0,
            json.dumps({**header, "counts": {**header["counts"], "profile_v9": 0}}) + "\n",
            "lines.1.counts.profile_v9",
        ),
    ]
    for n, replacement, field in cases:
        broken = [*lines[:n], replacement, *lines[n + 1 :]]
        with pytest.raises(InvalidInputError) as err:
            b.import_("".join(broken))
        assert err.value.field == field, replacement
        assert f"line {field.split('.')[1]}" in err.value.message
    # A file cut off after some records: the header's counts tell.
    with pytest.raises(InvalidInputError) as err:
        b.import_("".join(lines[:-2]))
    assert "cut off" in err.value.message
    # A bad last line: every earlier line was fine, and still nothing was written.
    last = json.loads(lines[-1])
    last["record"] = {"nonsense": True}
    with pytest.raises(InvalidInputError) as err:
        b.import_("".join([*lines[:-1], json.dumps(last) + "\n"]))
    assert err.value.field is not None and err.value.field.startswith(f"lines.{len(lines)}.")
    assert b.list(user_id="alice", include_superseded=True) == []
    assert b.tasks.list("alice") == [] and b.aliases("alice") == []
    # Another user's file without remap: refused like the JSON document.
    with pytest.raises(InvalidInputError) as err:
        b.import_("".join(lines), "bob")
    assert err.value.field == "user_id"
