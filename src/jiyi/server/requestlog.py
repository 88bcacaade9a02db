"""Request ids and the access log: the outermost middleware of the server.

Every response carries ``X-Request-Id``. A client may send its own (a tracing id, a
retry's id): it is kept when it is 1-128 characters of ``[A-Za-z0-9._-]``, else a new one
is made (never echo arbitrary bytes into headers and logs). Problem documents repeat the id
in their body (``request_id``), so a bug report that quotes the body quotes the id.

One line per request goes to the logger ``jiyi.access`` at INFO, logfmt with the same
values as attributes of the record (for a JSON formatter)::

    method=POST route=/v1/memories/{memory_id}/restore status=404 duration_ms=3.2 \\
        tenant=acme request_id=5f0c…

The route is the template, never the raw path (ids and user ids stay out of the log), and
neither the API key, the query string nor any body is ever logged. ``JIYI_ACCESS_LOG=false``
turns the line off; the ids stay.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import MutableMapping
from contextvars import ContextVar
from typing import Any

from starlette.datastructures import MutableHeaders

from jiyi.server.metrics import ASGIApp, Receive, Scope, Send
from jiyi.wire import REQUEST_ID_HEADER

ACCESS_LOG = logging.getLogger("jiyi.access")
VALID_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")
_STATE_KEY = "request_id"
_HEADER = REQUEST_ID_HEADER.lower().encode("latin-1")
_CURRENT: ContextVar[str | None] = ContextVar("jiyi_request_id", default=None)
_PLAIN = re.compile(r"[^\s\"=\\]+")


def current_request_id() -> str | None:
    """The id of the request being served in this task (None outside a request)."""
    return _CURRENT.get()


def request_id_of(scope: Scope) -> str | None:
    """The id :class:`RequestLogMiddleware` gave this request (None before it ran)."""
    state = scope.get("state")
    found = state.get(_STATE_KEY) if isinstance(state, dict) else None
    return found if isinstance(found, str) else None


def accepted_id(sent: bytes | None) -> str:
    """The client's id if it is sane, else a new random one (32 hex digits)."""
    if sent is not None:
        text = sent.decode("latin-1")
        if VALID_ID.fullmatch(text):
            return text
    return uuid.uuid4().hex


def _value(v: object) -> str:
    text = str(v)
    return text if _PLAIN.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def access_line(fields: dict[str, Any]) -> str:
    """``k=v`` pairs; a value with spaces, quotes or ``=`` is JSON-quoted."""
    return " ".join(f"{k}={_value(v)}" for k, v in fields.items())


class RequestLogMiddleware:
    """Gives every HTTP request an id (``X-Request-Id``) and logs one access line for it.

    The tenant is what authentication found (``request.state.tenant``, set by
    ``jiyi.server.auth.authenticate``); ``-`` when the request never authenticated."""

    def __init__(self, app: ASGIApp, *, access_log: bool = True) -> None:
        self.app = app
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = next((v for k, v in scope.get("headers", []) if k == _HEADER), None)
        rid = accepted_id(sent)
        state = scope.setdefault("state", {})
        state[_STATE_KEY] = rid
        token = _CURRENT.set(rid)
        start = time.perf_counter()
        status = 500  # if the app raises, Starlette's outermost layer answers 500

        async def send_with_id(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = MutableHeaders(scope=message)
                if REQUEST_ID_HEADER not in headers:  # a problem response has it already
                    headers.append(REQUEST_ID_HEADER, rid)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            _CURRENT.reset(token)
            if self.access_log:
                self._log(scope, status, time.perf_counter() - start, rid)

    @staticmethod
    def _log(scope: Scope, status: int, seconds: float, rid: str) -> None:
        route = getattr(scope.get("route"), "path", None) or "unmatched"
        state = scope.get("state") or {}
        fields = {
            "method": str(scope.get("method", "")),
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 1),
            "tenant": state.get("tenant") or "-",
            "request_id": rid,
        }
        ACCESS_LOG.info(access_line(fields), extra={"access": fields})
