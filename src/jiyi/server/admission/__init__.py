"""Admission control: bounded work per request, a bounded queue per process, fair tenants.

Without it, 200 concurrent clients all got in and waited in one unbounded line: p95 was
10–12 s for every operation at ~42 requests/s (issue 9). Here, in the order a request meets
them (``/healthz``, ``/metrics`` and the docs are never held back):

1. **Size.** A ``POST /v1/memories`` with more than ``max_messages_per_add`` messages or more
   than ``max_add_chars`` characters of content is refused with 413 before any work is done;
   the limits are sized by ``bench/ingest.py`` so a maximal add finishes in seconds.
2. **Rate.** Optionally, a token bucket per tenant (``tenant_rate`` requests/s, bursts of
   ``tenant_burst``): over it, 429 with ``Retry-After``.
3. **Queue.** At most ``max_inflight`` requests run at once; up to ``max_queue`` more wait.
   Waiting requests start round-robin across tenants, and one tenant never holds more than
   ``tenant_max_inflight`` slots, so a tenant with many slow imports cannot take every slot
   nor push another tenant's request to the back of a long line. A request that would wait
   longer than ``max_wait`` — its place in the queue times the average run time, over the
   slots — is refused at once with 503 and ``Retry-After``, as is one finding the queue full;
   so admitted requests wait about ``max_wait`` at most. A queue shorter than one round of
   the tenant's slots is always allowed, so a burst is served, not refused (a timeout alone,
   and then a mean learned from the slow first requests after a start, refused the crash
   test's 8 concurrent adds and 50 concurrent session appends); a request still waiting after
   ``STUCK`` × ``max_wait`` is refused.

The tenant comes from the API key (through the server's key cache, the same lookup the route
makes next); requests without a valid key share one anonymous tenant and get their 401 from
the route.
"""

from jiyi.server.admission.asgi import (
    ANONYMOUS,
    REFUSALS,
    AdmissionMiddleware,
    add_size,
    request_kind,
    tenant_from_key,
)
from jiyi.server.admission.gate import STUCK, Admission, AdmissionLimits, Refusal

__all__ = [
    "ANONYMOUS",
    "REFUSALS",
    "STUCK",
    "Admission",
    "AdmissionLimits",
    "AdmissionMiddleware",
    "Refusal",
    "add_size",
    "request_kind",
    "tenant_from_key",
]
