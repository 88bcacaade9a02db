"""Overload is refused early and fairly: a bounded queue per process (503 + Retry-After), a
per-tenant rate (429 + Retry-After), size limits on one add (413), and one slot always left
for other tenants. The gate itself first, then a real server under real concurrent load."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np
import numpy.typing as npt
from server_harness import running_server

from jiyi.embedders import HashingEmbedder
from jiyi.server.admission import Admission, AdmissionLimits, Refusal, add_size

# -- the gate ---------------------------------------------------------------------------------


def test_waiting_requests_start_round_robin_across_tenants() -> None:
    async def scenario() -> list[str]:
        gate = Admission(AdmissionLimits(max_inflight=1, max_queue=10, max_wait=5))
        assert await gate.enter("a") is None  # runs
        started: list[str] = []

        async def request(tenant: str, name: str) -> None:
            assert await gate.enter(tenant) is None
            started.append(name)
            gate.leave(tenant, 0.01)

        tasks = []
        for tenant, name in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("c", "c1")]:
            tasks.append(asyncio.create_task(request(tenant, name)))
            await asyncio.sleep(0)  # queue in this order
        assert gate.queued == 5
        gate.leave("a", 0.01)
        await asyncio.gather(*tasks)
        assert gate.running == 0 and gate.queued == 0
        return started

    assert asyncio.run(scenario()) == ["a1", "b1", "c1", "a2", "a3"]


def test_a_full_queue_a_slow_queue_or_a_stuck_one_is_refused_with_retry_after() -> None:
    async def scenario() -> tuple[list[Refusal | None], Admission]:
        gate = Admission(
            AdmissionLimits(max_inflight=1, max_queue=2, max_wait=0.05), service_estimate=0.02
        )
        assert await gate.enter("a") is None
        waiter = asyncio.create_task(gate.enter("b"))  # a short queue: always allowed
        await asyncio.sleep(0)
        waiter2 = asyncio.create_task(gate.enter("c"))  # 0.04 s expected: queues
        await asyncio.sleep(0)
        full = await gate.enter("d")  # the queue (2) is full
        stuck = await waiter  # "a" never leaves: refused after STUCK × max_wait
        await waiter2
        gate.leave("a", 1.0, "POST memories")  # an add took a second
        assert await gate.enter("a", "POST memories") is None  # the slot is free again
        filler = asyncio.create_task(gate.enter("f", "GET memories"))  # one waits already
        await asyncio.sleep(0)
        slow = await gate.enter("e", "POST memories")  # behind it, an add would wait 1 s
        filler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await filler
        return [full, stuck, slow], gate

    refusals, gate = asyncio.run(scenario())
    for refusal in refusals:
        assert refusal is not None and refusal.status == 503
        assert refusal.retry_after is not None and refusal.retry_after >= 1
    assert gate.queued == 0 and gate.running == 1  # the withdrawn waiters left nothing behind
    assert gate._queued_work == 0
    assert gate.counts == {
        "admitted": 2,
        "queue_full": 1,
        "queue_timeout": 2,
        "queue_too_slow": 1,
    }


def test_a_burst_that_drains_in_time_is_queued_not_refused() -> None:
    async def scenario() -> Admission:
        gate = Admission(
            AdmissionLimits(max_inflight=3, max_queue=10, max_wait=0.05), service_estimate=0.01
        )

        async def request(i: int) -> None:
            assert await gate.enter("t") is None, i
            await asyncio.sleep(0.01)
            gate.leave("t", 0.01)

        await asyncio.gather(*(request(i) for i in range(8)))
        return gate

    gate = asyncio.run(scenario())
    assert gate.counts == {"admitted": 2, "admitted_after_wait": 6}  # 2: the tenant's cap


def test_one_tenant_leaves_a_slot_for_the_others() -> None:
    async def scenario() -> tuple[Refusal | None, Refusal | None]:
        gate = Admission(AdmissionLimits(max_inflight=3, max_queue=5, max_wait=0.05))
        for _ in range(2):
            assert await gate.enter("importer") is None
        third = await gate.enter("importer")  # capped at 2 of 3: waits, refused in time
        other = await gate.enter("chat")  # the free slot is theirs at once
        return third, other

    third, other = asyncio.run(scenario())
    assert third is not None and third.status == 503
    assert other is None


def test_a_tenant_over_its_rate_gets_429_others_do_not() -> None:
    clock = [100.0]
    gate = Admission(AdmissionLimits(tenant_rate=2.0, tenant_burst=2), clock=lambda: clock[0])

    async def scenario() -> list[Refusal | None]:
        out = []
        for tenant in ["a", "a", "a", "b"]:
            r = await gate.enter(tenant)
            if r is None:
                gate.leave(tenant, 0.0)
            out.append(r)
        clock[0] += 0.5  # one token back at 2/s
        r = await gate.enter("a")
        out.append(r)
        return out

    first, second, third, other, later = asyncio.run(scenario())
    assert first is None and second is None and other is None and later is None
    assert third is not None and third.status == 429 and third.retry_after == 1


def test_add_size_counts_messages_and_characters() -> None:
    assert add_size(b'{"messages": "\xe4\xbd\xa0\xe5\xa5\xbd", "user_id": "u"}') == (1, 2)
    body = b'{"messages": [{"content": "abc"}, {"content": "de"}, 5], "user_id": "u"}'
    assert add_size(body) == (3, 5)
    assert add_size(b"not json") is None
    assert add_size(b'{"messages": 5}') is None


# -- a real server ----------------------------------------------------------------------------


class SlowDocuments:
    """The hashing embedder taking ``delay`` seconds per call: requests that hold a slot."""

    name = "hashing"

    def __init__(self, delay: float) -> None:
        self.inner = HashingEmbedder()
        self.dim = self.inner.dim
        self.delay = delay

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        time.sleep(self.delay)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        time.sleep(self.delay)
        return self.inner.embed_query(text)


def test_a_saturated_server_refuses_with_503_and_retry_after_and_stays_healthy(
    tmp_path: Path,
) -> None:
    with running_server(
        tmp_path,
        embedder=SlowDocuments(0.25),
        max_inflight=2,
        max_queue=3,
        max_queue_wait_ms=300,
    ) as srv:
        key = srv.key("busy")
        h = {"Authorization": f"Bearer {key}"}

        def add(i: int) -> httpx.Response:
            body = {"messages": f"第{i}条消息：今天去了公园", "user_id": "u", "infer": False}
            return httpx.post(f"{srv.url}/v1/memories", json=body, headers=h, timeout=30)

        with ThreadPoolExecutor(24) as pool:
            futures = [pool.submit(add, i) for i in range(24)]
            time.sleep(0.1)
            health = httpx.get(f"{srv.url}/healthz", timeout=5)  # never queued
            responses = [f.result() for f in futures]
        statuses = sorted({r.status_code for r in responses})
        assert health.status_code == 200
        assert statuses == [200, 503], statuses
        for r in responses:
            if r.status_code == 503:
                assert int(r.headers["Retry-After"]) >= 1
                assert r.json()["code"] == "overloaded"
        metrics = httpx.get(f"{srv.url}/metrics").text
        refusals = ("queue_full", "queue_too_slow", "queue_timeout")
        assert any(f'jiyi_admission_total{{outcome="{o}"}}' in metrics for o in refusals)
        assert "jiyi_admission_running 0" in metrics


def test_another_tenant_is_served_while_one_tenant_floods(tmp_path: Path) -> None:
    with running_server(
        tmp_path, embedder=SlowDocuments(0.3), max_inflight=2, max_queue=4, max_queue_wait_ms=200
    ) as srv:
        flood = {"Authorization": f"Bearer {srv.key('flood')}"}
        calm = {"Authorization": f"Bearer {srv.key('calm')}"}

        def add(headers: dict[str, str], i: int) -> httpx.Response:
            body = {"messages": f"消息{i}", "user_id": "u", "infer": False}
            return httpx.post(f"{srv.url}/v1/memories", json=body, headers=headers, timeout=30)

        with ThreadPoolExecutor(17) as pool:
            floods = [pool.submit(add, flood, i) for i in range(16)]
            time.sleep(0.15)  # the flood holds its slot and fills the queue
            mine = pool.submit(add, calm, 0).result()
            flooded = [f.result().status_code for f in floods]
        assert mine.status_code == 200, mine.text
        assert 503 in flooded  # the flood itself was refused in part


def test_a_tenant_over_its_rate_gets_429_with_retry_after(tmp_path: Path) -> None:
    with running_server(tmp_path, tenant_rate=0.5, tenant_burst=2) as srv:
        h = {"Authorization": f"Bearer {srv.key('chatty')}"}
        other = {"Authorization": f"Bearer {srv.key('quiet')}"}
        body = {"query": "花生", "user_id": "u"}
        codes = [
            httpx.post(f"{srv.url}/v1/memories/search", json=body, headers=h).status_code
            for _ in range(3)
        ]
        assert codes == [200, 200, 429]
        r = httpx.post(f"{srv.url}/v1/memories/search", json=body, headers=h)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert r.json()["code"] == "rate_limited"
        ok = httpx.post(f"{srv.url}/v1/memories/search", json=body, headers=other)
        assert ok.status_code == 200


def test_an_add_over_the_message_or_character_limit_is_413(tmp_path: Path) -> None:
    with running_server(tmp_path, max_messages_per_add=5, max_add_chars=100) as srv:
        h = {"Authorization": f"Bearer {srv.key('t')}"}

        def add(messages: object) -> httpx.Response:
            body = {"messages": messages, "user_id": "u", "infer": False}
            return httpx.post(f"{srv.url}/v1/memories", json=body, headers=h)

        assert add([{"content": f"第{i}条"} for i in range(5)]).status_code == 200
        too_many = add([{"content": f"第{i}条"} for i in range(6)])
        assert too_many.status_code == 413
        assert "6 messages" in too_many.json()["message"]
        assert add("字" * 100).status_code == 200
        too_long = add([{"content": "字" * 60}, {"content": "字" * 41}])
        assert too_long.status_code == 413 and too_long.json()["code"] == "payload_too_large"
        spec = httpx.get(f"{srv.url}/openapi.json").json()
        documented = spec["paths"]["/v1/memories"]["post"]["responses"]
        assert {"413", "429", "503"} <= set(documented)


def test_with_several_workers_each_process_takes_its_share_of_the_server() -> None:
    from jiyi.settings import Settings

    one = AdmissionLimits.from_settings(Settings(max_inflight=8, max_queue=64, tenant_rate=10))
    two = AdmissionLimits.from_settings(
        Settings(workers=2, max_inflight=8, max_queue=64, tenant_rate=10, tenant_burst=20)
    )
    assert (one.max_inflight, one.max_queue, one.tenant_rate) == (8, 64, 10)
    assert (two.max_inflight, two.max_queue, two.tenant_rate, two.tenant_burst) == (4, 32, 5, 10)
    assert two.tenant_cap == 3  # still one slot left for other tenants


def test_run_times_are_learned_per_kind_of_request() -> None:
    from jiyi.server.admission import request_kind

    def kind(method: str, path: str) -> str:
        return request_kind({"method": method, "path": path})

    assert kind("POST", "/v1/sessions/s-1/messages") == kind("POST", "/v1/sessions/s-2/messages")
    assert kind("GET", "/v1/memories/abc") == "GET memories"  # ids never become labels
    assert kind("POST", "/v1/memories/search") == "POST memories/search"

    async def scenario() -> list[Refusal | None]:
        gate = Admission(AdmissionLimits(max_inflight=2, max_queue=100, max_wait=0.3))
        for kind, seconds in (("POST memories", 2.0), ("POST sessions", 0.005)):
            assert await gate.enter("t", kind) is None  # one of each has run: a slow add,
            gate.leave("t", seconds, kind)  # a quick session append
        assert await gate.enter("t", "POST memories") is None  # the tenant's one slot (cap 1)
        appends = [asyncio.create_task(gate.enter("t", "POST sessions")) for _ in range(40)]
        await asyncio.sleep(0)
        slow_add = await gate.enter("t", "POST memories")
        gate.leave("t", 0.005, "POST memories")
        results = []
        for task in appends:
            results.append(await task)
            gate.leave("t", 0.005, "POST sessions")
        return [slow_add, *results]

    slow_add, *appends = asyncio.run(scenario())
    assert all(r is None for r in appends)  # 40 appends of 5 ms fit in the wait: queued
    assert slow_add is not None and slow_add.status == 503  # a 2-second add does not
