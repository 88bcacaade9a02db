"""Prometheus metrics on ``prometheus_client``: counters and one latency histogram per app,
in a registry of their own (never the process-wide default), so several apps in one
process (the tests start many) never share counts or collide on names. Numbers kept
elsewhere (the admission gate, LLM token totals, skipped bad rows) are read into the same
registry at each scrape. ``jiyi worker --metrics-port`` serves a registry of the job
counters.

Labels are bounded by construction (route templates, not raw paths; event names; skip
reasons from a fixed vocabulary; job kinds), so the series count cannot grow with traffic.
The names, types, label sets and HELP texts are those of the hand-written exposition this
replaced (``jiyi_jobs_total`` gained ``kind``); dashboards depend on them.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import RestrictedRegistry

from jiyi.core.models import AddResult, MaintenanceReport

if TYPE_CHECKING:
    from jiyi.llm.client import UsageMeter

#: The ``Content-Type`` of ``GET /metrics``: the text format ``generate_latest`` writes.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: name: (HELP text, label names). Every counter the server or a worker counts.
COUNTERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "jiyi_http_requests_total": (
        "HTTP requests by method, route and status.",
        ("method", "route", "status"),
    ),
    "jiyi_memories_written_total": ("Memory write events (ADD, NOOP, SUPERSEDE…).", ("event",)),
    "jiyi_episodes_written_total": ("Episodes (raw messages) stored.", ()),
    "jiyi_memories_skipped_total": ("Pieces of input deliberately not stored.", ("reason",)),
    "jiyi_redactions_total": ("PII spans redacted before storage.", ("kind",)),
    "jiyi_extraction_failures_total": ("Failed background session extractions.", ()),
    "jiyi_session_flushes_total": (
        "Ended sessions written to long-term memory.",
        ("mode", "reason"),
    ),
    "jiyi_redis_unavailable_total": (
        "Calls served without Redis (in-process fallback or cache miss).",
        ("component",),
    ),
    "jiyi_search_degraded_total": (
        "Searches answered from keywords alone: semantic search was too slow.",
        (),
    ),
    "jiyi_context_cache_total": (
        "Context memory blocks served from (hit) or missing in (miss) the cache.",
        ("result",),
    ),
    "jiyi_jobs_total": (
        "Background jobs run by workers, by kind and outcome (done, noop, failed).",
        ("kind", "outcome"),
    ),
    "jiyi_lifecycle_total": (
        "Memories the lifecycle changed, by what happened: archived, purged, merged, "
        "rolled_up, reflected, backfilled.",
        ("what",),
    ),
}
#: What a standalone ``jiyi worker`` counts: what its jobs wrote and changed.
WORKER_COUNTERS = frozenset(
    {
        "jiyi_memories_written_total",
        "jiyi_episodes_written_total",
        "jiyi_memories_skipped_total",
        "jiyi_redactions_total",
        "jiyi_jobs_total",
        "jiyi_lifecycle_total",
    }
)


class _Registry(CollectorRegistry):
    """A registry whose exposition leaves out the ``*_created`` series: prometheus_client
    only offers a process-wide switch for them (``disable_created_metrics``), and flipping
    it would change the metrics of whatever application embeds jiyi."""

    def collect(self) -> Iterable[Metric]:
        for metric in super().collect():
            metric.samples = [s for s in metric.samples if not s.name.endswith("_created")]
            yield metric

    def restricted_registry(self, names: Iterable[str]) -> RestrictedRegistry:
        # ``?name[]=…`` on the worker's endpoint: created series stay out there too.
        return super().restricted_registry(n for n in names if not n.endswith("_created"))


class _Families:
    """A collector over a function that builds metric families at scrape time (for numbers
    kept elsewhere: the admission gate, the process-wide bad-row count)."""

    def __init__(self, families: Callable[[], Iterable[Metric]]) -> None:
        self._families = families

    def collect(self) -> Iterable[Metric]:
        return list(self._families())


class Metrics:
    """The counters and the request-latency histogram of one app (or one worker process).

    Args:
        counters: the counter names (keys of :data:`COUNTERS`) to register; default all,
            with the HTTP latency histogram (a worker passes :data:`WORKER_COUNTERS`).
    """

    def __init__(self, counters: Iterable[str] | None = None) -> None:
        self.registry: CollectorRegistry = _Registry()
        names = COUNTERS.keys() if counters is None else counters
        self._counters = {
            name: Counter(name, COUNTERS[name][0], COUNTERS[name][1], registry=self.registry)
            for name in names
        }
        self._latency: Histogram | None = None
        if counters is None:
            self._latency = Histogram(
                "jiyi_http_request_duration_seconds",
                "HTTP request latency by route.",
                ("method", "route"),
                buckets=BUCKETS,
                registry=self.registry,
            )

    def inc(self, name: str, value: float = 1.0, **labels: str) -> None:
        """Add ``value`` to counter ``name`` under ``labels`` (exactly its label names).

        Raises:
            KeyError: ``name`` is not a registered counter.
            ValueError: the labels are not the counter's label names.
        """
        counter = self._counters[name]
        (counter.labels(**labels) if labels else counter).inc(value)

    def observe(self, seconds: float, **labels: str) -> None:
        """Record one request's latency (``method``, ``route``)."""
        if self._latency is not None:
            self._latency.labels(**labels).observe(seconds)

    def add_collector(self, families: Callable[[], Iterable[Metric]]) -> None:
        """Expose families built at scrape time by ``families()`` (numbers kept elsewhere)."""
        self.registry.register(_Families(families))

    def record_add(self, result: AddResult) -> None:
        """Count what one add wrote, skipped and redacted."""
        for ev in result.events:
            self.inc("jiyi_memories_written_total", event=ev.event.value)
        if result.episodes:
            self.inc("jiyi_episodes_written_total", float(len(result.episodes)))
        for s in result.skipped:
            self.inc("jiyi_memories_skipped_total", reason=s.reason.split(":")[0])
        for r in result.redactions:
            self.inc("jiyi_redactions_total", float(r.count), kind=r.kind)

    def record_maintenance(self, report: MaintenanceReport) -> None:
        """Count what one lifecycle run changed (a dry run changed nothing)."""
        if report.dry_run:
            return
        for what, n in (
            ("archived", sum(report.archived.values())),
            ("purged", report.purged),
            ("merged", report.merged),
            ("rolled_up", report.rolled_up),
            ("reflected", report.reflected),
            ("backfilled", report.backfilled),
        ):
            if n:
                self.inc("jiyi_lifecycle_total", float(n), what=what)

    def record_job(self, kind: str, result: AddResult | MaintenanceReport | None) -> None:
        """Count one finished background job and what it wrote or changed."""
        self.inc("jiyi_jobs_total", kind=kind, outcome="done" if result else "noop")
        if isinstance(result, MaintenanceReport):
            self.record_maintenance(result)
        elif result is not None:
            self.record_add(result)

    def record_failed_job(self, kind: str) -> None:
        """Count one background job whose run raised (it is retried, or dead)."""
        self.inc("jiyi_jobs_total", kind=kind, outcome="failed")

    def value(self, name: str, **labels: str) -> float:
        """The current value of a counter's series (0 if it was never counted)."""
        key = {k: str(v) for k, v in labels.items()}
        for metric in self.registry.collect():
            for s in metric.samples:
                if s.name == name and s.labels == key:
                    return float(s.value)
        return 0.0

    def render(self) -> bytes:
        """Every registered family in the Prometheus text format (``GET /metrics``)."""
        return generate_latest(self.registry)


def bad_rows_families(counts: Callable[[], Mapping[str, int]]) -> Callable[[], list[Metric]]:
    """``jiyi_bad_rows_skipped_total{table}`` from a process-wide count kept by the stores."""

    def families() -> list[Metric]:
        family = CounterMetricFamily(
            "jiyi_bad_rows_skipped_total",
            "Stored rows that could not be decoded and were skipped on read, by table.",
            labels=("table",),
        )
        for table, n in sorted(counts().items()):
            family.add_metric((table,), float(n))
        return [family]

    return families


class AdmissionState(Protocol):
    """What the admission gate exposes to metrics (``jiyi.server.admission.Admission``)."""

    @property
    def counts(self) -> Mapping[str, int]: ...
    @property
    def running(self) -> int: ...
    @property
    def queued(self) -> int: ...


def admission_families(gate: AdmissionState) -> Callable[[], list[Metric]]:
    """The admission gate's outcome counter and its running and queued gauges."""

    def families() -> list[Metric]:
        outcomes = CounterMetricFamily(
            "jiyi_admission_total", "Requests by admission outcome.", labels=("outcome",)
        )
        for outcome, n in sorted(gate.counts.items()):
            outcomes.add_metric((outcome,), float(n))
        return [
            outcomes,
            GaugeMetricFamily(
                "jiyi_admission_running", "Requests running in this process.", gate.running
            ),
            GaugeMetricFamily(
                "jiyi_admission_queued", "Requests waiting for a slot in this process.", gate.queued
            ),
        ]

    return families


def usage_families(meter: UsageMeter) -> Callable[[], list[Metric]]:
    """LLM calls and tokens by tenant, from the meter's running totals."""

    def families() -> list[Metric]:
        snap = meter.snapshot()
        out: list[Metric] = []
        for name, attr, text in (
            ("jiyi_llm_calls_total", "calls", "LLM chat calls by tenant."),
            ("jiyi_llm_prompt_tokens_total", "prompt_tokens", "LLM prompt tokens by tenant."),
            (
                "jiyi_llm_completion_tokens_total",
                "completion_tokens",
                "LLM completion tokens by tenant.",
            ),
        ):
            family = CounterMetricFamily(name, text, labels=("tenant",))
            for tenant in sorted(snap):
                family.add_metric((tenant,), float(getattr(snap[tenant], attr)))
            out.append(family)
        return out

    return families


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class MetricsMiddleware:
    """Counts and times every HTTP request under its route template (``/v1/memories/{id}``),
    so ids never become label values."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_wrapper(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            method = str(scope.get("method", ""))
            self.metrics.inc(
                "jiyi_http_requests_total", method=method, route=template, status=str(status)
            )
            self.metrics.observe(time.perf_counter() - start, method=method, route=template)
