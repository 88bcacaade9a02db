"""Prometheus metrics without a client library: a few counters and one histogram family,
rendered in the text exposition format at ``GET /metrics``.

Labels are bounded by construction (route templates, not raw paths; event names; skip
reasons from a fixed vocabulary), so the series count cannot grow with traffic.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from jiyi.core.models import AddResult, MaintenanceReport

Labels = tuple[tuple[str, str], ...]
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
HELP = {
    "jiyi_http_requests_total": ("counter", "HTTP requests by method, route and status."),
    "jiyi_http_request_duration_seconds": ("histogram", "HTTP request latency by route."),
    "jiyi_memories_written_total": ("counter", "Memory write events (ADD, NOOP, SUPERSEDE…)."),
    "jiyi_episodes_written_total": ("counter", "Episodes (raw messages) stored."),
    "jiyi_memories_skipped_total": ("counter", "Pieces of input deliberately not stored."),
    "jiyi_redactions_total": ("counter", "PII spans redacted before storage."),
    "jiyi_extraction_failures_total": ("counter", "Failed background session extractions."),
    "jiyi_session_flushes_total": ("counter", "Ended sessions written to long-term memory."),
    "jiyi_redis_unavailable_total": (
        "counter",
        "Calls served without Redis (in-process fallback or cache miss).",
    ),
    "jiyi_search_degraded_total": (
        "counter",
        "Searches answered from keywords alone: semantic search was too slow.",
    ),
    "jiyi_context_cache_total": (
        "counter",
        "Context memory blocks served from (hit) or missing in (miss) the cache.",
    ),
    "jiyi_jobs_total": ("counter", "Background jobs run by in-process workers, by outcome."),
    "jiyi_lifecycle_total": (
        "counter",
        "Memories the lifecycle changed, by what happened: archived, purged, merged, "
        "rolled_up, reflected, backfilled.",
    ),
    "jiyi_bad_rows_skipped_total": (
        "counter",
        "Stored rows that could not be decoded and were skipped on read, by table.",
    ),
}


def _fmt(labels: Labels) -> str:
    if not labels:
        return ""
    inner = ",".join(
        f'{k}="{v.replace(chr(92), "/").replace(chr(34), chr(39))}"' for k, v in labels
    )
    return "{" + inner + "}"


class Metrics:
    """Thread-safe counters and latency histograms."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: dict[str, dict[Labels, float]] = defaultdict(dict)
        self._hist: dict[Labels, list[float]] = {}  # per-bucket counts, overflow, sum, count

    def inc(self, name: str, value: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            series = self._counters[name]
            series[key] = series.get(key, 0.0) + value

    def set(self, name: str, value: float, **labels: str) -> None:
        """Set a counter kept elsewhere (e.g. a process-wide count) to its current value."""
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._counters[name][key] = value

    def observe(self, seconds: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            h = self._hist.setdefault(key, [0.0] * (len(BUCKETS) + 3))
            h[bisect.bisect_left(BUCKETS, seconds)] += 1  # index len(BUCKETS) is +Inf only
            h[-2] += seconds
            h[-1] += 1

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

    def value(self, name: str, **labels: str) -> float:
        with self._lock:
            return self._counters.get(name, {}).get(tuple(sorted(labels.items())), 0.0)

    def render(self) -> str:
        lines: list[str] = []
        with self._lock:
            for name, (kind, text) in HELP.items():
                lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]
                if kind == "histogram":
                    for key, h in sorted(self._hist.items()):
                        cum = 0.0
                        for bound, n in zip(BUCKETS, h, strict=False):
                            cum += n
                            lines.append(f"{name}_bucket{_fmt((*key, ('le', str(bound))))} {cum:g}")
                        lines.append(f"{name}_bucket{_fmt((*key, ('le', '+Inf')))} {h[-1]:g}")
                        lines.append(f"{name}_sum{_fmt(key)} {h[-2]:.6f}")
                        lines.append(f"{name}_count{_fmt(key)} {h[-1]:g}")
                    continue
                for key, v in sorted(self._counters.get(name, {}).items()):
                    lines.append(f"{name}{_fmt(key)} {v:g}")
        return "\n".join(lines) + "\n"


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
