"""Crash test for sessions: ``kill -9`` of ``jiyi serve`` while clients chat, three rounds.

Acknowledged must mean durable. Eight clients each hold conversations (append 3–7 messages,
then end the session); in each round the server is killed with SIGKILL mid-stream and
started again. At the end every session still open is ended, and the test counts:

- acknowledged appends missing after a restart (a live session's ``total`` below what was
  acknowledged): must be 0;
- acknowledged messages that never reached long-term memory as exactly one episode (after
  their session ended — acknowledged before the crash or ended afterwards): must be 0.

Run without Redis (sessions in the SQLite store's database, the default) and with Redis
(PostgreSQL store and work queue; Redis holds live sessions, the database the fallback).
Real processes, real services; the hashing embedder keeps a run under a minute.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from test_crash_recovery import KEY, Procs

pytestmark = pytest.mark.integration
PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
REDIS_URL = os.environ.get("JIYI_TEST_REDIS_URL")
ROUNDS = 3
CLIENTS = 8
KILL_AFTER = 60  # acknowledged appends per round before the kill (plus a random 0–30)


@dataclass
class Conversation:
    user_id: str
    session_id: str
    acked: list[str] = field(default_factory=list)  # ids of acknowledged messages
    ended: bool = False  # the end was acknowledged


@dataclass
class Ledger:
    conversations: list[Conversation] = field(default_factory=list)
    appends: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def client(url: str, n: int, ledger: Ledger, stop: threading.Event, kill: threading.Event,
           kill_at: int) -> None:  # fmt: skip
    """One chatting client: conversations until ``stop``; every acknowledgement is noted."""
    rng = random.Random(n)
    user = f"chat-u{n}"
    with httpx.Client(base_url=url, timeout=10, headers={"Authorization": f"Bearer {KEY}"}) as h:
        while not stop.is_set():
            conv = Conversation(user, f"s-{uuid.uuid4().hex[:12]}")
            with ledger.lock:
                ledger.conversations.append(conv)
            for i in range(rng.randint(3, 7)):
                try:
                    r = h.post(
                        f"/v1/sessions/{conv.session_id}/messages",
                        json={
                            "user_id": user,
                            "content": f"第{i}句：我喜欢{rng.choice('茶咖啡酒')}",
                        },
                    )
                except httpx.HTTPError:
                    return  # the server died: whatever was not answered was not acknowledged
                if r.status_code != 200:
                    return
                view = r.json()
                (mine,) = [m for m in view["messages"] if m["seq"] == view["total"]]
                conv.acked.append(mine["id"])
                with ledger.lock:
                    ledger.appends += 1
                    if ledger.appends >= kill_at:
                        kill.set()
            try:
                r = h.post(f"/v1/sessions/{conv.session_id}/end")
            except httpx.HTTPError:
                return
            if r.status_code != 200:
                return
            conv.ended = True


def live_total(h: httpx.Client, conv: Conversation) -> int | None:
    r = h.get(f"/v1/sessions/{conv.session_id}")
    return r.json()["total"] if r.status_code == 200 else None


@pytest.fixture(params=["sqlite", "postgres+redis"])
def procs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Procs]:
    if request.param == "sqlite":
        p = Procs(tmp_path, str(tmp_path / "jiyi.db"))
        p.env.pop("JIYI_REDIS")
        p.env["JIYI_STORE"] = str(tmp_path / "jiyi.db")
        yield p
        return
    if not (PG_DSN and REDIS_URL):
        pytest.skip("PostgreSQL/Redis not configured: export JIYI_TEST_PG_DSN, JIYI_TEST_REDIS_URL")
    import psycopg
    import redis

    name = f"jiyi_sess_crash_{uuid.uuid4().hex[:8]}"
    base = PG_DSN.rpartition("/")[0]
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    with psycopg.connect(f"{base}/{name}", autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    # A Redis database of its own: no other test's pending flushes to claim, none left over.
    redis_url = REDIS_URL.rpartition("/")[0] + "/11"
    redis.Redis.from_url(redis_url).flushdb()
    p = Procs(tmp_path, f"{base}/{name}")
    p.env["JIYI_REDIS"] = redis_url
    p.env["JIYI_QUEUE_WORKERS"] = "1"
    yield p
    redis.Redis.from_url(redis_url).flushdb()
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_kill_9_loses_no_acknowledged_session_message(procs: Procs) -> None:
    t0 = time.monotonic()
    procs.env["JIYI_SWEEP_SECONDS"] = "1"
    ledger = Ledger()
    lost_live = 0
    procs.start()
    try:
        for rnd in range(ROUNDS):
            stop, kill = threading.Event(), threading.Event()
            kill_at = ledger.appends + KILL_AFTER + random.Random(rnd).randint(0, 30)
            with ThreadPoolExecutor(CLIENTS) as pool:
                for n in range(CLIENTS):
                    pool.submit(client, procs.url, rnd * CLIENTS + n, ledger, stop, kill, kill_at)
                assert kill.wait(120), "the clients stalled"
                procs.kill9()  # mid-stream: requests are in flight
                stop.set()
            procs.start()
            with httpx.Client(
                base_url=procs.url, timeout=30, headers={"Authorization": f"Bearer {KEY}"}
            ) as h:
                for conv in ledger.conversations:
                    if conv.acked and not conv.ended:
                        total = live_total(h, conv)
                        # None: the end reached the server but its answer did not.
                        lost_live += 0 if total is None else max(0, len(conv.acked) - total)
        assert lost_live == 0, f"{lost_live} acknowledged appends missing after restarts"

        with httpx.Client(
            base_url=procs.url, timeout=30, headers={"Authorization": f"Bearer {KEY}"}
        ) as h:
            for conv in ledger.conversations:
                if not conv.ended:
                    r = h.post(f"/v1/sessions/{conv.session_id}/end")
                    assert r.status_code in (200, 404), r.text
            acked = {m: conv for conv in ledger.conversations for m in conv.acked}
            users = sorted({c.user_id for c in ledger.conversations})
            deadline = time.monotonic() + 120
            while True:
                counts: dict[str, int] = {}
                for user in users:
                    items = h.get(
                        "/v1/memories", params={"user_id": user, "include_episodes": True}
                    ).json()["memories"]
                    for item in items:
                        if item["kind"] == "episode":
                            for mid in item["source_message_ids"]:
                                counts[mid] = counts.get(mid, 0) + 1
                missing = [m for m in acked if counts.get(m, 0) == 0]
                if not missing or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
        ended_before = sum(c.ended for c in ledger.conversations)
        missing_ended = [m for m in missing if acked[m].ended]
        assert not missing_ended, f"{len(missing_ended)} messages of ended sessions never stored"
        assert not missing, f"{len(missing)} acknowledged messages never reached memory"
        doubled = [m for m in acked if counts[m] > 1]
        assert not doubled, f"{len(doubled)} messages stored more than once"
        print(
            f"\nsession crash test ({'redis' if 'JIYI_REDIS' in procs.env else 'no redis'}): "
            f"{ROUNDS} kill -9 rounds, {len(acked)} acknowledged messages in "
            f"{len(ledger.conversations)} sessions ({ended_before} ended before a kill); "
            f"0 lost live, 0 missing from long-term memory, 0 doubled; "
            f"{time.monotonic() - t0:.1f} s"
        )
    finally:
        procs.stop()
