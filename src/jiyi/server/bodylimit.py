"""Request bodies over ``JIYI_MAX_REQUEST_BYTES`` get 413 before any handler parses them."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from jiyi.errors import PayloadTooLargeError
from jiyi.server.errors import problem_for
from jiyi.server.metrics import ASGIApp, Receive, Scope, Send


class BodyLimitMiddleware:
    """Refuse request bodies over ``limit`` bytes with 413 before any handler parses them.

    A declared Content-Length is checked up front; a chunked body is buffered up to the
    limit and then replayed, so memory use per request is bounded by the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        resp = problem_for(PayloadTooLargeError(f"request body is larger than {self.limit} bytes"))
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
        replay = replaying(b"".join(chunks), receive)

        await self.app(scope, replay, send)


def replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands over ``body`` (already read) once, then defers to
    ``receive`` (for the disconnect message)."""
    sent = False

    async def replay() -> MutableMapping[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
