"""``Client.tasks`` / ``Client.switch`` (and the async ones) against a real server: the
names and answers of ``Memory.tasks`` and ``Memory.switch`` — versions and a stale
``expected_version`` as VersionConflictError with ``current``, None / False for a missing
task, 422 naming the field, the switch log with the key id, an alias as the user, and the
tenant's isolation."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import RunningServer, running_server

from jiyi.client import AsyncClient, Client
from jiyi.client.users import AsyncSwitchClient, AsyncTaskClient, SwitchClient, TaskClient
from jiyi.core.users import MemorySwitch, TaskStatus
from jiyi.errors import ConflictError, InvalidInputError, VersionConflictError
from jiyi.switch import MemorySwitches
from jiyi.tasks import Tasks

STATE = {"form": "三月差旅报销单", "step": 2, "missing": ["酒店发票"]}


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path, alias_secret="sdk-secret") as s:
        yield s


def test_tasks_put_get_list_delete_with_versions(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme")) as c:
        t = c.tasks.put("alice", "报销", STATE)
        assert (t.key, t.version, t.state, t.status) == ("报销", 1, STATE, TaskStatus.ACTIVE)
        t2 = c.tasks.put("alice", "报销", {"step": 3}, expected_version=t.version)
        assert t2.version == 2 and t2.state == {"step": 3}
        with pytest.raises(VersionConflictError) as stale:
            c.tasks.put("alice", "报销", {"step": 4}, expected_version=1)
        err = stale.value
        assert (err.code, err.status, err.field, err.current) == (
            "version_conflict",
            409,
            "expected_version",
            2,
        )
        with pytest.raises(VersionConflictError) as exists:  # 0: create only
            c.tasks.put("alice", "报销", {"step": 9}, expected_version=0)
        assert exists.value.current == 2
        got = c.tasks.get("alice", "报销")
        assert got is not None and got.state == {"step": 3} and got.version == 2
        c.tasks.put("alice", "trip", {"city": "成都"}, status="done")
        assert [x.key for x in c.tasks.list("alice")] == ["trip", "报销"]
        assert [x.key for x in c.tasks.list("alice", active_only=True)] == ["报销"]
        assert c.tasks.get("alice", "nope") is None
        assert c.tasks.delete("alice", "trip") is True
        assert c.tasks.delete("alice", "trip") is False
        assert c.tasks.get("alice", "trip") is None
        for bad_call, field in (
            (lambda: c.tasks.put("alice", "k", {}, status="paused"), "status"),
            (lambda: c.tasks.put("alice", "k", {}, expected_version=-1), "expected_version"),
            (lambda: c.tasks.put("alice", "a/b", {}), "key"),
            (lambda: c.tasks.put("alice", "k", {}, expires_at="2001-01-01T00:00:00Z"), None),
        ):
            with pytest.raises(InvalidInputError) as bad:
                bad_call()
            assert bad.value.status == 422
            if field is not None:
                assert bad.value.field == field
    # Another tenant sees none of it.
    with Client(srv.url, srv.key("globex")) as other:
        assert other.tasks.list("alice") == [] and other.tasks.get("alice", "报销") is None


def test_switch_get_set_history_and_its_effect_on_tasks(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme")) as c:
        assert c.switch.get("bob").memory == MemorySwitch.ON
        c.tasks.put("bob", "k", {"a": 1})
        paused = c.switch.set("bob", "paused")
        assert paused.memory == MemorySwitch.PAUSED and paused.changed_by is not None
        assert paused.changed_by.startswith("key:")
        with pytest.raises(ConflictError) as refused:  # paused: nothing new is stored
            c.tasks.put("bob", "k", {"a": 2})
        assert refused.value.field == "memory"
        c.switch.set("bob", "off")
        assert c.tasks.list("bob") == [] and c.tasks.get("bob", "k") is None  # off: none served
        c.switch.set("bob", "off")  # the current position: nothing logged
        log = c.switch.history("bob")
        assert [(x.before, x.after) for x in log] == [
            (MemorySwitch.PAUSED, MemorySwitch.OFF),
            (MemorySwitch.ON, MemorySwitch.PAUSED),
        ]
        assert all(x.actor.startswith("key:") and x.via == "api" for x in log)
        assert len(c.switch.history("bob", limit=1)) == 1
        with pytest.raises(InvalidInputError) as bad:
            c.switch.set("bob", "sleeping")
        assert bad.value.field == "memory"
        c.switch.set("bob", "on")
        got = c.tasks.get("bob", "k")
        assert got is not None and got.state == {"a": 1}  # kept, hidden while off


def test_an_alias_names_the_user(srv: RunningServer) -> None:
    with Client(srv.url, srv.key("acme")) as c:
        c.link("carol", "+86 138 0013 8000", kind="phone")
        ref = "alias:phone:+8613800138000"
        c.tasks.put(ref, "报销", STATE)
        assert [t.key for t in c.tasks.list("carol")] == ["报销"]
        c.switch.set(ref, "paused")
        assert c.switch.get("carol").memory == MemorySwitch.PAUSED


def test_the_async_client_has_the_same_methods(srv: RunningServer) -> None:
    key = srv.key("acme")

    async def run() -> None:
        async with AsyncClient(srv.url, key) as a:
            t = await a.tasks.put("dora", "报销", STATE)
            assert t.version == 1
            with pytest.raises(VersionConflictError) as stale:
                await a.tasks.put("dora", "报销", {"step": 3}, expected_version=0)
            assert (stale.value.code, stale.value.current) == ("version_conflict", 1)
            t = await a.tasks.put("dora", "报销", {"step": 3}, expected_version=1)
            assert t.version == 2
            got = await a.tasks.get("dora", "报销")
            assert got is not None and got.state == {"step": 3}
            assert [x.key for x in await a.tasks.list("dora", active_only=True)] == ["报销"]
            assert await a.tasks.delete("dora", "报销") is True
            assert await a.tasks.delete("dora", "报销") is False
            assert await a.tasks.get("dora", "报销") is None
            assert (await a.switch.get("dora")).memory == MemorySwitch.ON
            assert (await a.switch.set("dora", "off")).memory == MemorySwitch.OFF
            assert [x.after for x in await a.switch.history("dora")] == [MemorySwitch.OFF]
            with pytest.raises(InvalidInputError) as bad:
                await a.switch.set("dora", "maybe")
            assert bad.value.field == "memory"

    asyncio.run(run())


def _public(cls: type) -> dict[str, list[str]]:
    return {
        name: list(inspect.signature(fn).parameters)
        for name, fn in vars(cls).items()
        if callable(fn) and not name.startswith("_")
    }


def test_the_sdk_has_the_library_methods_with_the_same_parameters() -> None:
    """Code moves between ``Memory`` and ``Client`` unchanged: same names, same parameters
    (the SDK's ``switch.set`` has no ``actor``: the server logs the key's id)."""
    assert _public(TaskClient) == _public(AsyncTaskClient) == _public(Tasks)
    library = _public(MemorySwitches)
    library["set"].remove("actor")
    assert _public(SwitchClient) == _public(AsyncSwitchClient) == library
