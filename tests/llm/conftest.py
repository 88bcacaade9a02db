"""Fixtures for the LLM tier: the real local model, and deliberately broken servers.

Real-model tests are marked ``llm`` and skip (with the reason) unless
``JIYI_TEST_LLM_BASE_URL`` points at an OpenAI-compatible endpoint — start one with
``bash scripts/llm_model.sh serve`` and load ``/tmp/jiyi-llm/env``. The broken servers run
in-process on a free loopback port, so the fallback tests always run.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from jiyi import Memory
from jiyi.embedders import HashingEmbedder
from jiyi.llm import ChatClient


def pytest_configure(config: pytest.Config) -> None:
    # Also belongs in pyproject's [tool.pytest.ini_options] markers (strict markers).
    config.addinivalue_line(
        "markers", "llm: needs a real OpenAI-compatible LLM endpoint (scripts/llm_model.sh serve)"
    )


@pytest.fixture(scope="session")
def llm_client() -> Iterator[ChatClient]:
    """A client on the real model; skips when no endpoint is configured."""
    base = os.environ.get("JIYI_TEST_LLM_BASE_URL")
    if not base:
        pytest.skip(
            "JIYI_TEST_LLM_BASE_URL is unset: run `bash scripts/llm_model.sh serve` and "
            "`set -a; . /tmp/jiyi-llm/env; set +a`"
        )
    model = os.environ.get("JIYI_TEST_LLM_MODEL", "qwen2.5-coder-0.5b-instruct")
    # A 0.5B model on one CPU thread: ~10 tokens/s, slower when the box is busy.
    client = ChatClient(base, model, timeout=180.0, tenant="llm-tier", max_tokens=300)
    yield client
    client.close()


@pytest.fixture
def llm_mem(tmp_path: Path, clock: Any) -> Iterator[Any]:
    """A factory of Memory objects on a temp SQLite file with the fast hashing embedder."""
    opened: list[Memory] = []

    def make(extractor: Any) -> Memory:
        m = Memory(
            tmp_path / f"jiyi{len(opened)}.db",
            embedder=HashingEmbedder(),
            extractor=extractor,
            clock=clock,
        )
        opened.append(m)
        return m

    yield make
    for m in opened:
        m.close()


@dataclass
class BrokenServer:
    """An OpenAI-lookalike that misbehaves on purpose; counts the requests it saw."""

    mode: str
    base_url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)


def _completion(content: str) -> bytes:
    return json.dumps(
        {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 321, "completion_tokens": 12, "total_tokens": 333},
        }
    ).encode()


@pytest.fixture
def broken_server(request: pytest.FixtureRequest) -> Iterator[BrokenServer]:
    """Modes: ``malformed`` (a completion whose content is not JSON), ``sleep`` (answers
    after 3 s), ``http500`` (always 500), ``schema500`` (500 while response_format has a
    schema, else a valid empty extraction)."""
    state = BrokenServer(mode=request.param)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            if state.mode == "sleep":
                time.sleep(3.0)  # the client has given up by now: nothing to answer
                return
            if state.mode == "http500" or (
                state.mode == "schema500" and "schema" in body.get("response_format", {})
            ):
                self.send_response(500)
                self.end_headers()
                self.wfile.write(b"boom")
                return
            if state.mode == "schema500":
                payload = _completion('{"memories": [], "forget": [], "queries": []}')
            else:
                payload = _completion('{"memories": [{"kind": "fact", "topic": ')
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def dead_url() -> str:
    """A loopback URL on which nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
