"""``jiyi worker``: run background extraction from the durable queue.

Reads the same settings as ``jiyi serve`` (``JIYI_STORE``, ``JIYI_QUEUE``, ``JIYI_REDIS`` …)
and runs until SIGTERM/SIGINT, finishing the job in hand first. Safe to run any number
of copies, on any hosts sharing the store; safe to ``kill -9`` (see ``jiyi.worker``).
"""

from __future__ import annotations

import json
import logging
import signal
import threading
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Annotated

import typer

from jiyi.cache.notifying import NotifyingStore
from jiyi.config import MemoryConfig
from jiyi.core.extraction import RuleExtractor
from jiyi.core.ports import Embedder, Extractor
from jiyi.engine import Engine
from jiyi.errors import InvalidInputError, MissingDependencyError
from jiyi.memory import Memory
from jiyi.queue.base import WorkQueue
from jiyi.settings import Settings, load_settings
from jiyi.worker import Worker, daily_maintenance

if TYPE_CHECKING:
    from jiyi.server.metrics import Metrics

log = logging.getLogger("jiyi.worker")


def worker(
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-c", min=1, max=64, help="Jobs run at once (threads).")
    ] = 1,
    drain: Annotated[
        bool, typer.Option("--drain", help="Exit once no job is due instead of waiting for more.")
    ] = False,
    status: Annotated[
        bool, typer.Option("--status", help="Print the jobs per state as JSON and exit.")
    ] = False,
    dead: Annotated[
        bool,
        typer.Option(
            "--dead", help="List dead jobs (failed too often) with their errors and exit."
        ),
    ] = False,
    retry_dead: Annotated[
        bool, typer.Option("--retry-dead", help="Move dead jobs back to the queue and exit.")
    ] = False,
    metrics_port: Annotated[
        int | None,
        typer.Option(
            "--metrics-port",
            min=0,
            max=65535,
            help="Serve Prometheus metrics at http://HOST:PORT/metrics (default "
            "JIYI_WORKER_METRICS_PORT; unset: none; 0: a free port). HOST is "
            "JIYI_WORKER_METRICS_HOST, 127.0.0.1 by default.",
        ),
    ] = None,
) -> None:
    """Run background extraction jobs from the durable queue until stopped."""
    from jiyi import backends

    settings = load_settings(worker_metrics_port=metrics_port)
    queue = backends.open_queue(settings)
    if queue is None:
        raise InvalidInputError(
            "no work queue is configured: set JIYI_STORE=postgresql://… or JIYI_QUEUE=sqlite",
            field="queue",
        )
    try:
        if status or dead or retry_dead:
            if retry_dead:
                typer.echo(
                    f"{queue.retry_dead(now=datetime.now(UTC))} dead job(s) requeued", err=True
                )
            if dead:
                for j in queue.dead():
                    typer.echo(
                        json.dumps(
                            {
                                "id": j.id,
                                "tenant": j.tenant,
                                "user_id": j.user_id,
                                "attempts": j.attempts,
                                "error": j.last_error,
                            },
                            ensure_ascii=False,
                        )
                    )
            if status:
                typer.echo(json.dumps(queue.counts()))
            return
        _run(settings, queue, concurrency=concurrency, drain=drain)
    finally:
        queue.close()


def _run(settings: Settings, q: WorkQueue, *, concurrency: int, drain: bool) -> None:
    from jiyi import backends

    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    metrics = _serve_metrics(settings)  # first: a taken port fails before anything opens
    cache = backends.open_context_cache(settings, lambda: None)
    # Every committed write invalidates the server's cached context of that user.
    store = NotifyingStore(backends.open_store(settings), cache.bump)
    extractors: dict[str, Extractor] = {}
    lock = threading.Lock()

    class Tenants:
        """One engine for every tenant; only the (token-metering) extractor differs."""

        def embedder_of(self, tenant: str) -> Embedder:
            return embedder

        def extractor_of(self, tenant: str) -> Extractor:
            with lock:
                if tenant not in extractors:
                    opened = backends.open_extractor(settings, tenant, None)
                    extractors[tenant] = opened or RuleExtractor()
                return extractors[tenant]

    embedder = backends.open_embedder(settings)
    config = MemoryConfig(
        lifecycle=settings.lifecycle,
        alias_secret=settings.alias_secret,
        identity_guard=settings.identity_guard,  # the worker flags drifts like the server
        change_threshold=settings.change_threshold,  # and writes as the server does
    )
    engine = Engine(store, embedder, config=config, tenants=Tenants())

    def memory(tenant: str) -> Memory:
        return Memory.on(engine, tenant)

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    lease = timedelta(seconds=settings.queue_lease_seconds)
    every = settings.maintain_every_seconds
    schedule = None
    keys = None
    if every > 0:
        keys = backends.open_key_store(settings)

        def tenants() -> list[str]:
            assert keys is not None
            return sorted({r.tenant for r in keys.records()})

        schedule = daily_maintenance(engine, tenants)
    workers = [
        Worker(
            q,
            memory,
            lease=lease,
            on_done=None if metrics is None else lambda job, r: metrics.record_job(job.kind, r),
            on_failed=None if metrics is None else lambda job: metrics.record_failed_job(job.kind),
            schedule=schedule if i == 0 else None,  # one thread enqueues
            schedule_every=timedelta(seconds=every or 3600),
        )
        for i in range(concurrency)
    ]
    typer.echo(
        f"jiyi worker: {concurrency} thread(s) on the {settings.queue_backend} queue "
        f"{json.dumps(q.counts())}",
        err=True,
    )
    threads = [
        threading.Thread(
            target=w.run, args=(stop,), kwargs={"drain": drain}, name=f"jiyi-worker-{i}"
        )
        for i, w in enumerate(workers)
    ]
    for t in threads:
        t.start()
    try:
        while any(t.is_alive() for t in threads):
            for t in threads:
                t.join(timeout=0.5)
    finally:
        stop.set()
        for t in threads:
            t.join()
        close = getattr(cache, "close", None)
        if callable(close):
            close()
        if keys is not None:
            keys.close()
        store.close()
    typer.echo(
        f"jiyi worker: stopped after {sum(w.processed for w in workers)} job(s), "
        f"{sum(w.failed for w in workers)} failure(s)",
        err=True,
    )


def _serve_metrics(settings: Settings) -> Metrics | None:
    """Start the metrics endpoint (a daemon thread) when a port is configured."""
    if settings.worker_metrics_port is None:
        return None
    try:
        from prometheus_client import start_http_server

        from jiyi.server.metrics import WORKER_COUNTERS, Metrics, bad_rows_families
    except ImportError as exc:
        raise MissingDependencyError(exc.name or "prometheus_client", "server") from exc
    from jiyi.storage._rows import bad_rows

    metrics = Metrics(WORKER_COUNTERS)
    metrics.add_collector(bad_rows_families(bad_rows))
    host = settings.worker_metrics_host
    try:
        server, _ = start_http_server(
            settings.worker_metrics_port, addr=host, registry=metrics.registry
        )
    except OSError as exc:  # the port is taken, or the host is not an address of ours
        raise InvalidInputError(
            f"cannot serve metrics on {host}:{settings.worker_metrics_port} ({exc.strerror}); "
            "choose another --metrics-port or JIYI_WORKER_METRICS_HOST",
            field="worker_metrics_port",
        ) from exc
    port = server.server_address[1]
    typer.echo(f"jiyi worker: metrics at http://{host}:{port}/metrics", err=True)
    return metrics


def register(app: typer.Typer) -> None:
    """Add ``worker`` to the ``jiyi`` command group."""
    app.command("worker")(worker)
