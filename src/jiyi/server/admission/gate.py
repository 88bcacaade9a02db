"""The admission gate of one server process: slots, a fair queue, per-tenant rates.

Pure asyncio and no HTTP (see ``asgi.py`` for the middleware); the policy is described in
the package docstring.
"""

from __future__ import annotations

import asyncio
import math
import statistics
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from jiyi.errors import OverloadedError, RateLimitedError
from jiyi.settings import Settings

STUCK = 10  # × max_wait: a queued request still waiting then is refused (a stuck server)


@dataclass(frozen=True)
class AdmissionLimits:
    """The knobs (``Settings``: ``JIYI_MAX_INFLIGHT`` …; see docs/server.md)."""

    max_inflight: int = 8
    max_queue: int = 64
    max_wait: float = 0.3  # seconds
    tenant_max_inflight: int | None = None  # None: max_inflight - 1 (at least 1)
    tenant_rate: float = 0.0  # requests/s per tenant; 0: unlimited
    tenant_burst: int = 20
    max_messages_per_add: int = 256
    max_add_chars: int = 16_000
    max_batch_items: int = 100

    @classmethod
    def from_settings(cls, settings: Settings) -> AdmissionLimits:
        """The limits of one process. Slots, queue and rates are for the whole server: with
        ``--workers N`` each process takes 1/N of them (two processes with eight slots each
        ran sixteen requests on two cores, and the admitted p95 at c = 200 rose from 0.8 s to
        1.1–1.4 s)."""
        n = settings.workers

        def share(total: int) -> int:
            return max(1, math.ceil(total / n))

        tenant_slots = settings.tenant_max_inflight
        return cls(
            max_inflight=share(settings.max_inflight),
            max_queue=math.ceil(settings.max_queue / n),
            max_wait=settings.max_queue_wait_ms / 1000,
            tenant_max_inflight=share(tenant_slots) if tenant_slots is not None else None,
            tenant_rate=settings.tenant_rate / n,
            tenant_burst=share(settings.tenant_burst),
            max_messages_per_add=settings.max_messages_per_add,
            max_add_chars=settings.max_add_chars,
            max_batch_items=settings.max_batch_items,
        )

    @property
    def tenant_cap(self) -> int:
        """Slots one tenant may hold: by default all but one, which stays free for the
        other tenants (so a tenant's long imports never make another tenant queue)."""
        if self.tenant_max_inflight is not None:
            return min(self.tenant_max_inflight, self.max_inflight)
        return max(1, self.max_inflight - 1)


#: Why a request was not admitted: the error to answer with (its class carries the HTTP
#: status; ``retry_after`` says after how many seconds a retry is worth it).
Refusal: TypeAlias = OverloadedError | RateLimitedError


class _Bucket:
    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, float(burst), now

    def take(self, now: float) -> float:
        """0 if a token was taken, else the seconds until one is available."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class Admission:
    """The gate of one server process. Lives on the event loop (not thread-safe)."""

    def __init__(
        self,
        limits: AdmissionLimits,
        clock: Callable[[], float] = time.monotonic,
        service_estimate: float = 0.02,
    ) -> None:
        """Args:
        limits: the knobs.
        clock: monotonic seconds (for the rate buckets).
        service_estimate: the run time assumed for a kind of request (see
            :func:`request_kind`) until one has finished; then the running average is used.
        """
        self.limits = limits
        self._clock = clock
        self.running = 0
        self._running: dict[str, int] = {}
        # Per tenant, waiting requests with the run time expected of each.
        self._waiting: OrderedDict[str, deque[tuple[asyncio.Future[None], float]]] = OrderedDict()
        self.queued = 0
        self._queued_work = 0.0  # seconds of work waiting: the sum of their expected run times
        self._buckets: dict[str, _Bucket] = {}
        # Recent run times by kind of request: a session append takes milliseconds, an add
        # with extraction a hundred times more, and one average for both refused bursts of
        # appends. The median, because the first requests after a start can be slow by
        # seconds, and a mean learned from them refused the next burst.
        self._default = service_estimate
        self._service: dict[str, deque[float]] = {}
        self.counts: dict[str, int] = {}

    def _count(self, outcome: str) -> None:
        self.counts[outcome] = self.counts.get(outcome, 0) + 1

    def _estimate(self, kind: str) -> float:
        recent = self._service.get(kind)
        return statistics.median(recent) if recent else self._default

    def _expected_wait(self, tenant: str | None = None, kind: str = "") -> float:
        """Seconds until a request joining the queue now would start: the work queued
        ahead drains through the slots its tenants may use (one tenant alone uses
        ``tenant_cap`` of them; dividing by all slots underestimated the wait by a third with
        four slots)."""
        tenants = set(self._waiting) | set(self._running) | ({tenant} if tenant else set())
        slots = min(self.limits.max_inflight, self.limits.tenant_cap * max(1, len(tenants)))
        return (self._queued_work + self._estimate(kind)) / slots

    def _retry_after(self) -> int:
        # Time for the queue ahead to drain through the slots, at least a second.
        return max(1, min(60, math.ceil(self._expected_wait())))

    def _rate_limited(self, tenant: str) -> Refusal | None:
        rate = self.limits.tenant_rate
        if rate <= 0:
            return None
        now = self._clock()
        bucket = self._buckets.get(tenant)
        if bucket is None:
            if len(self._buckets) > 10_000:  # bounded: drop idle tenants' full buckets
                self._buckets = {t: b for t, b in self._buckets.items() if b.tokens < b.burst}
            bucket = self._buckets[tenant] = _Bucket(rate, self.limits.tenant_burst, now)
        wait = bucket.take(now)
        if wait <= 0:
            return None
        self._count("rate_limited")
        return RateLimitedError(
            f"this tenant is over its rate of {rate:g} requests/s",
            retry_after=max(1, math.ceil(wait)),
        )

    def _startable(self, tenant: str) -> bool:
        return (
            self.running < self.limits.max_inflight
            and self._running.get(tenant, 0) < self.limits.tenant_cap
        )

    def _start(self, tenant: str) -> None:
        self.running += 1
        self._running[tenant] = self._running.get(tenant, 0) + 1

    def _dispatch(self) -> None:
        """Start waiting requests, one tenant at a time in rotation, while slots are free."""
        progress = True
        while progress and self._waiting and self.running < self.limits.max_inflight:
            progress = False
            for tenant in list(self._waiting):
                if not self._startable(tenant):
                    continue
                queue = self._waiting.pop(tenant)
                fut, work = queue.popleft()
                if queue:  # more of this tenant waiting: to the back of the rotation
                    self._waiting[tenant] = queue
                self.queued -= 1
                self._queued_work -= work
                self._start(tenant)
                fut.set_result(None)
                progress = True
                break

    async def enter(self, tenant: str, kind: str = "") -> Refusal | None:
        """Wait for a slot; None when admitted (call :meth:`leave` afterwards), else why
        not. ``kind`` names the sort of request, for its expected run time."""
        refused = self._rate_limited(tenant)
        if refused is not None:
            return refused
        # After every dispatch no waiting tenant can start, so one that can start now jumps
        # nobody: it starts at once, whatever the length of the queue.
        if self._startable(tenant):
            self._start(tenant)
            self._count("admitted")
            return None
        if self.queued >= self.limits.max_queue:
            self._count("queue_full")
            return OverloadedError(
                "the server is at capacity; retry later", retry_after=self._retry_after()
            )
        # A short queue is always allowed (one round of the tenant's slots): a burst is served,
        # not refused on an estimate; beyond it the estimate decides.
        short = self.queued < self.limits.tenant_cap
        if not short and self._expected_wait(tenant, kind) > self.limits.max_wait:
            self._count("queue_too_slow")
            return OverloadedError(
                f"no capacity within {self.limits.max_wait:g} s; retry later",
                retry_after=self._retry_after(),
            )
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        work = self._estimate(kind)
        self._waiting.setdefault(tenant, deque()).append((fut, work))
        self.queued += 1
        self._queued_work += work
        self._dispatch()
        try:
            await asyncio.wait_for(asyncio.shield(fut), STUCK * self.limits.max_wait)
        except TimeoutError:
            if not fut.done():  # still waiting: withdraw
                self._withdraw(tenant, fut)
                self._count("queue_timeout")
                return OverloadedError(
                    f"no capacity within {STUCK * self.limits.max_wait:g} s; retry later",
                    retry_after=self._retry_after(),
                )
        except asyncio.CancelledError:  # the client went away while waiting
            if fut.done():
                self.leave(tenant, 0.0, kind)
            else:
                self._withdraw(tenant, fut)
            raise
        self._count("admitted_after_wait")
        return None

    def _withdraw(self, tenant: str, fut: asyncio.Future[None]) -> None:
        queue = self._waiting.get(tenant)
        entry = next((e for e in queue or () if e[0] is fut), None)
        if queue is not None and entry is not None:
            queue.remove(entry)
            self.queued -= 1
            self._queued_work -= entry[1]
            if not queue:
                del self._waiting[tenant]
        fut.cancel()

    def leave(self, tenant: str, seconds: float, kind: str = "") -> None:
        """A request admitted by :meth:`enter` finished after ``seconds`` of work."""
        self.running -= 1
        left = self._running.get(tenant, 1) - 1
        if left:
            self._running[tenant] = left
        else:
            self._running.pop(tenant, None)
        self._service.setdefault(kind, deque(maxlen=32)).append(seconds)
        self._dispatch()
