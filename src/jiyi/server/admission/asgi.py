"""The ASGI side of admission control: request sizes, the tenant of a request, refusals.

See the package docstring for the policy.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from jiyi.errors import JiyiError, PayloadTooLargeError
from jiyi.server.admission.gate import Admission, AdmissionLimits
from jiyi.server.bodylimit import replaying
from jiyi.server.errors import problem_for
from jiyi.server.keycache import KeyCache
from jiyi.server.metrics import ASGIApp, Receive, Scope, Send
from jiyi.wire import PROBLEM_TYPE, Problem

ANONYMOUS = ""
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
# The body of every refusal: the problem document ``problem_for`` sends.
_PROBLEM = {PROBLEM_TYPE: {"schema": Problem.model_json_schema()}}
# Documented on every /v1 route (OpenAPI), so clients and schema checkers expect them.
REFUSALS: dict[int | str, dict[str, Any]] = {
    413: {
        "content": _PROBLEM,
        "description": "Body over JIYI_MAX_REQUEST_BYTES, or an add (a batch: all its "
        "items together) over JIYI_MAX_MESSAGES_PER_ADD messages / JIYI_MAX_ADD_CHARS "
        "characters, or a batch over JIYI_MAX_BATCH_ITEMS items.",
    },
    429: {
        "content": _PROBLEM,
        "description": "This tenant is over JIYI_TENANT_RATE requests/s.",
        "headers": _RETRY_AFTER,
    },
    503: {
        "content": _PROBLEM,
        "description": "At capacity (admission queue full, or no slot within "
        "JIYI_MAX_QUEUE_WAIT_MS), or storage unavailable.",
        "headers": _RETRY_AFTER,
    },
}


def add_size(body: bytes) -> tuple[int, int] | None:
    """(messages, characters of content) of a ``POST /v1/memories`` body, or None when it
    is not the expected shape (validation then answers 422)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than ~1,000
        return None
    return _messages_size(data)


def _messages_size(data: object) -> tuple[int, int] | None:
    messages = data.get("messages") if isinstance(data, dict) else None
    if isinstance(messages, str):
        return 1, len(messages)
    if not isinstance(messages, list):
        return None
    chars = 0
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else None
        chars += len(content) if isinstance(content, str) else 0
    return len(messages), chars


def batch_size(body: bytes) -> tuple[int, int, int] | None:
    """(items, messages, characters of content) of a ``POST /v1/memories/batch`` body, all
    items together; None when it is not the expected shape (validation answers 422)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    sizes = [_messages_size(item) or (0, 0) for item in items]
    return len(items), sum(n for n, _ in sizes), sum(c for _, c in sizes)


def _too_large(
    limits: AdmissionLimits, size: tuple[int, int] | None, what: str = "one add"
) -> PayloadTooLargeError | None:
    if size is None:
        return None
    n, chars = size
    if n > limits.max_messages_per_add:
        return PayloadTooLargeError(
            f"{n} messages in {what}; the limit is {limits.max_messages_per_add} "
            "(send them in several requests, or use `jiyi import`)"
        )
    if chars > limits.max_add_chars:
        return PayloadTooLargeError(
            f"{chars} characters of content in {what}; the limit is {limits.max_add_chars}"
        )
    return None


def _batch_too_large(limits: AdmissionLimits, body: bytes) -> PayloadTooLargeError | None:
    size = batch_size(body)
    if size is None:
        return None
    items, n, chars = size
    if items > limits.max_batch_items:
        return PayloadTooLargeError(
            f"{items} items in one batch; the limit is {limits.max_batch_items}", field="items"
        )
    return _too_large(limits, (n, chars), "one batch (all items together)")


TenantOf = Callable[[Scope], Awaitable[str]]


def request_kind(scope: Scope) -> str:
    """A bounded label for the sort of request: method and resource, never an id
    (``POST memories/search``, ``POST sessions``, ``GET memories``)."""
    parts = str(scope.get("path", "")).strip("/").split("/")
    resource = parts[1] if len(parts) > 1 else ""
    if resource == "memories" and parts[-1] in ("search", "history", "batch"):
        resource += "/" + parts[-1]
    return f"{scope.get('method', '')} {resource}"


def tenant_from_key(keys: KeyCache) -> TenantOf:
    """The tenant of the request's bearer key, via the key cache the route uses next."""

    async def tenant_of(scope: Scope) -> str:
        header = dict(scope.get("headers", [])).get(b"authorization", b"")
        scheme, _, key = header.decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            return ANONYMOUS
        try:
            who = await keys.principal(key.strip())
        except JiyiError:  # the key store is unavailable: the route will say so
            return ANONYMOUS
        return who.tenant if who is not None else ANONYMOUS

    return tenant_of


class AdmissionMiddleware:
    """The ASGI face of :class:`Admission` for ``/v1/…`` requests (see the module
    docstring); runs inside the body-size limit, so the body is already bounded."""

    def __init__(
        self, app: ASGIApp, admission: Admission, tenant_of: TenantOf, prefix: str = "/v1/"
    ) -> None:
        self.app = app
        self.admission = admission
        self.tenant_of = tenant_of
        self.prefix = prefix

    async def _refuse(self, refusal: JiyiError, scope: Scope, receive: Receive, send: Send) -> None:
        await problem_for(refusal)(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        path = scope.get("path")
        if scope.get("method") == "POST" and path in ("/v1/memories", "/v1/memories/batch"):
            body, receive = await _buffered(receive)
            limits = self.admission.limits
            too_large = (
                _too_large(limits, add_size(body))
                if path == "/v1/memories"
                else _batch_too_large(limits, body)
            )
            if too_large is not None:
                await self._refuse(too_large, scope, receive, send)
                return
        tenant = await self.tenant_of(scope)
        if tenant != ANONYMOUS:  # for the access log (authentication may refine it)
            scope.setdefault("state", {})["tenant"] = tenant
        kind = request_kind(scope)
        refused = await self.admission.enter(tenant, kind)
        if refused is not None:
            await self._refuse(refused, scope, receive, send)
            return
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.admission.leave(tenant, time.perf_counter() - start, kind)


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    """The whole request body, and a ``receive`` that replays it."""
    chunks: list[bytes] = []
    while True:
        msg = await receive()
        if msg["type"] != "http.request":
            break
        chunks.append(msg.get("body", b""))
        if not msg.get("more_body", False):
            break
    body = b"".join(chunks)
    return body, replaying(body, receive)
