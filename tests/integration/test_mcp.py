"""``jiyi mcp`` as an agent host runs it, driven by the official SDK's own client: a real
subprocess over stdio (twice, so the memory crosses sessions) and a real ``jiyi mcp
--http`` process over streamable HTTP with API keys."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from jiyi.keys import SqliteKeyStore

pytestmark = pytest.mark.integration
JIYI = [sys.executable, "-c", "from jiyi.cli.main import app; app()"]
CJK = re.compile(r"[\u4e00-\u9fff]")


def env(home: Path) -> dict[str, str]:
    return {**os.environ, "JIYI_HOME": str(home), "JIYI_EMBEDDER": "hashing"}


def stdio(home: Path, *args: str) -> Client:
    command, *prefix = JIYI
    params = StdioServerParameters(command=command, args=[*prefix, "mcp", *args], env=env(home))
    return Client(params, read_timeout_seconds=60)


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    return data


def test_stdio_tools_remember_across_two_sessions(tmp_path: Path) -> None:
    async def first_session() -> list[str]:
        async with stdio(tmp_path, "--user", "xiaoming") as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert set(tools) == {"remember", "recall", "context", "forget"}
            for tool in tools.values():  # described in Chinese and in English
                assert tool.description and CJK.search(tool.description)
                assert re.search(r"[A-Za-z]{4,} [A-Za-z]{3,}", tool.description)
            assert c.instructions and CJK.search(c.instructions)
            said = await c.call_tool(
                "remember",
                {"content": "我对花生过敏，以后别推荐带花生的菜。", "metadata": {"source": "chat"}},
            )
            stored = structured(said)["memories"]
            assert any(m["event"] == "ADD" and "花生过敏" in m["content"] for m in stored)
            other = await c.call_tool(
                "remember", {"content": "I live in Berlin.", "user_id": "someone-else"}
            )
            assert structured(other)["memories"]
            return [m["id"] for m in stored]

    async def second_session(ids: list[str]) -> None:
        async with stdio(tmp_path, "--user", "xiaoming") as c:
            hits = structured(await c.call_tool("recall", {"query": "能吃花生吗", "top_k": 5}))
            assert hits["memories"] and "花生" in hits["memories"][0]["content"]
            assert all(h["score"] is not None for h in hits["memories"])
            assert not any("Berlin" in h["content"] for h in hits["memories"])  # another user
            tagged = await c.call_tool(
                "recall", {"query": "花生", "filters": {"metadata.source": "chat"}}
            )
            assert {m["id"] for m in structured(tagged)["memories"]} >= set(ids)
            block = await c.call_tool("context", {"query": "推荐个晚饭的菜"})
            assert not block.is_error and "花生过敏" in block.content[0].text

            templates = (await c.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["jiyi://users/{user_id}/memories"]
            read = await c.read_resource("jiyi://users/xiaoming/memories")
            listed = json.loads(read.contents[0].text)
            assert {m["id"] for m in listed["memories"]} >= set(ids)

            gone = structured(await c.call_tool("forget", {"memory_id": ids[0]}))
            assert gone == {"deleted": ids[0]}
            again = structured(await c.call_tool("recall", {"query": "花生过敏"}))
            assert ids[0] not in {m["id"] for m in again["memories"]}

            missing = await c.call_tool("forget", {"memory_id": ids[0]})
            assert missing.is_error and "not_found" in missing.content[0].text
            bad = await c.call_tool("recall", {"query": "x", "filters": {"colour": "red"}})
            assert bad.is_error and "filters.colour" in bad.content[0].text

    async def main() -> None:
        ids = await first_session()
        await second_session(ids)

    anyio.run(main)


def test_stdio_without_a_default_user_asks_for_one(tmp_path: Path) -> None:
    async def main() -> None:
        async with stdio(tmp_path) as c:
            r = await c.call_tool("recall", {"query": "anything"})
            assert r.is_error and "user_id" in r.content[0].text
            r = await c.call_tool("remember", {"content": "I like tea.", "user_id": "u1"})
            assert structured(r)["memories"]

    anyio.run(main)


# -- streamable HTTP ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class HttpServer:
    url: str
    home: Path
    keys: dict[str, str]  # name -> key
    key_ids: dict[str, str]  # name -> key id


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    """``jiyi mcp --http`` on a free port, with keys made beforehand."""
    home = tmp_path_factory.mktemp("mcp-http")
    store = SqliteKeyStore(home / "keys.db")
    made = {
        "acme": store.create("acme"),
        "planner": store.create("acme", "planner"),
        "other": store.create("other"),
        "doomed": store.create("acme"),
    }
    store.close()
    port = free_port()
    proc = subprocess.Popen(
        [*JIYI, "mcp", "--http", "--port", str(port)],
        env=env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "jiyi mcp --http did not start"
            time.sleep(0.1)
        yield HttpServer(
            url,
            home,
            {name: key for name, (key, _) in made.items()},
            {name: who.key_id for name, (_, who) in made.items()},
        )
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        finally:
            if proc.stderr:
                proc.stderr.close()


async def http_client(stack: AsyncExitStack, url: str, key: str) -> Client:
    import httpx2

    http = await stack.enter_async_context(
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    )
    return await stack.enter_async_context(
        Client(streamable_http_client(f"{url}/mcp", http_client=http), read_timeout_seconds=60)
    )


def test_http_needs_a_key_and_keeps_tenants_and_agents_apart(http_server: HttpServer) -> None:
    url, keys = http_server.url, http_server.keys
    for headers in ({}, {"Authorization": "Bearer jy_nobody"}):
        r = httpx.post(f"{url}/mcp", json={}, headers=headers, timeout=30)
        assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"

    async def main() -> None:
        async with AsyncExitStack() as stack:
            acme = await http_client(stack, url, keys["acme"])
            planner = await http_client(stack, url, keys["planner"])
            other = await http_client(stack, url, keys["other"])
            names = {t.name for t in (await acme.list_tools()).tools}
            assert names == {"remember", "recall", "context", "forget"}
            shared = await acme.call_tool(
                "remember", {"content": "我住在杭州。", "user_id": "lihua"}
            )
            assert structured(shared)["memories"]
            private = await planner.call_tool(
                "remember", {"content": "I love hiking in the Alps.", "user_id": "lihua"}
            )
            assert structured(private)["memories"]

            query = {"query": "杭州 hiking", "user_id": "lihua", "top_k": 10}
            seen = structured(await acme.call_tool("recall", query))
            contents = " ".join(m["content"] for m in seen["memories"])
            assert "杭州" in contents and "hiking" in contents  # a tenant key sees every agent
            by_planner = structured(await planner.call_tool("recall", query))
            agents = {m["agent_id"] for m in by_planner["memories"]}
            assert agents <= {None, "planner"} and "planner" in agents
            stranger = structured(await other.call_tool("recall", query))
            assert stranger["memories"] == []  # another tenant's user does not exist for it
            read = await acme.read_resource("jiyi://users/lihua/memories")
            assert "杭州" in read.contents[0].text

    anyio.run(main)


def test_http_refuses_a_revoked_key_within_a_second(http_server: HttpServer) -> None:
    def ping() -> int:
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        headers = {
            "Authorization": f"Bearer {http_server.keys['doomed']}",
            "Accept": "application/json, text/event-stream",
        }
        r = httpx.post(f"{http_server.url}/mcp", json=body, headers=headers, timeout=30)
        return r.status_code

    assert ping() != 401  # verified, so now cached by the server
    store = SqliteKeyStore(http_server.home / "keys.db")
    try:
        assert store.revoke(http_server.key_ids["doomed"])
    finally:
        store.close()
    revoked = time.monotonic()
    while ping() != 401:
        assert time.monotonic() - revoked < 5, "the revoked key is still accepted"
        time.sleep(0.02)
    assert time.monotonic() - revoked < 1.0


def test_the_readme_configuration_starts_a_working_server(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```json\n(.*?)```", readme, re.S) if "mcpServers" in b)
    server = json.loads(block)["mcpServers"]["jiyi"]
    assert server["command"] == "jiyi"
    # The `jiyi` script of this environment (run through this Python when not installed).
    script = Path(sys.executable).with_name("jiyi")
    command, prefix = (str(script), []) if script.exists() else (JIYI[0], JIYI[1:])
    params = StdioServerParameters(
        command=command,
        args=[*prefix, *server["args"]],
        env={**env(tmp_path), **server["env"], "JIYI_HOME": str(tmp_path)},
    )

    async def main() -> None:
        async with Client(params, read_timeout_seconds=60) as c:
            said = await c.call_tool("remember", {"content": "我对花生过敏"})
            assert structured(said)["memories"]
            read = await c.read_resource("jiyi://users/xiaoming/memories")
            assert "花生" in read.contents[0].text

    anyio.run(main)
