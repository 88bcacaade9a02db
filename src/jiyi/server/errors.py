"""The one place where errors become HTTP responses.

Every error body is a JSON problem document ``{"status", "code", "message", "field",
"request_id"}`` (``application/problem+json``, :class:`jiyi.wire.Problem`; a
``version_conflict`` adds ``current``, the stored version); ``request_id``
is the response's ``X-Request-Id`` (:mod:`jiyi.server.requestlog`). A JiyiError is answered with
the ``status`` and ``code`` its class carries (``jiyi/errors.py`` draws the table), plus
``Retry-After`` when it says when to come back; the admission middleware answers its
refusals through the same :func:`problem_for`. Unexpected exceptions are logged
server-side and answered with a generic 500 — a stack trace never reaches the client.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from jiyi.errors import JiyiError, VersionConflictError
from jiyi.server.requestlog import current_request_id, request_id_of
from jiyi.wire import PROBLEM_TYPE, REQUEST_ID_HEADER, RETRY_AFTER_HEADER, Problem

log = logging.getLogger(__name__)
_HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    401: "unauthenticated",
    400: "bad_request",
}


def _printable(text: str | None) -> str | None:
    # A message may quote what the client sent (a field name, an id): a lone surrogate in
    # it would make the error response itself fail to encode.
    return None if text is None else text.encode("utf-8", "replace").decode("utf-8")


def problem(
    status: int,
    code: str,
    message: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
    request_id: str | None = None,
    extra: dict[str, Any] | None = None,
) -> JSONResponse:
    """A problem response; ``request_id`` defaults to the id of the request being served;
    ``extra`` adds members a code defines (``current`` of a version_conflict)."""
    rid = request_id or current_request_id()
    body = {
        "status": status,
        "code": code,
        "message": _printable(message),
        "field": _printable(field),
        "request_id": rid,
        **(extra or {}),
    }
    if rid is not None:
        headers = {**(headers or {}), REQUEST_ID_HEADER: rid}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_TYPE, headers=headers)


def problem_for(exc: JiyiError) -> JSONResponse:
    """The response for ``exc``: its class's status and code, ``WWW-Authenticate`` on a 401
    and ``Retry-After`` (whole seconds, at least 1) when it carries ``retry_after``."""
    headers: dict[str, str] = {}
    if exc.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if exc.retry_after is not None:
        headers[RETRY_AFTER_HEADER] = str(max(1, math.ceil(exc.retry_after)))
    # The stored version travels with a version conflict, so an SDK caller gets the same
    # ``VersionConflictError.current`` as a library caller.
    extra = {"current": exc.current} if isinstance(exc, VersionConflictError) else None
    return problem(exc.status, exc.code, exc.message, exc.field, headers or None, extra=extra)


_MEANING = {
    401: "No API key, or an unknown or revoked one.",
    403: "The key is bound to another agent, needs to be tenant-wide, or needs to be an admin key.",
    404: "No such memory, session, task or route in the key's scope.",
    409: "Conflicts with stored state: a session of another user, an Idempotency-Key "
    "reused with a different body, a stale expected_version (code version_conflict: "
    "read the task again and retry), or an alias linked to another user (code alias_taken).",
    413: "The body is larger than JIYI_MAX_REQUEST_BYTES, or a message longer than allowed.",
    422: "Invalid input; `field` names the offending field.",
    502: "Extraction failed (an LLM extractor without a usable fallback).",
    503: "Storage (SQLite, PostgreSQL or Redis) is unavailable; retry later.",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each an ``application/problem+json``
    :class:`~jiyi.wire.Problem` (what :func:`problem` really sends)."""
    schema = Problem.model_json_schema()
    return {
        code: {"description": _MEANING[code], "content": {PROBLEM_TYPE: {"schema": schema}}}
        for code in codes
    }


def field_path(loc: Sequence[Any]) -> str | None:
    """A validation error's location as a field name: ``messages[0].content``."""
    # The first element says where the value came from (body, query, path, header).
    parts = list(loc[1:]) if loc and loc[0] in ("body", "query", "path", "header") else loc
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or None


async def _jiyi_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, JiyiError)
    if exc.status >= 500:
        log.warning("request failed: %s (%s)", exc.code, exc.message)
    return problem_for(exc)


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {}
    if first.get("type") == "json_invalid":
        return problem(422, "invalid_input", "request body is not valid JSON")
    field = field_path(first.get("loc", ()))
    msg = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
    message = f"{field}: {msg}" if field else msg
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s))"
    return problem(422, "invalid_input", message, field)


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:
        # FastAPI's "There was an error parsing the body" (bytes that are not UTF-8 JSON):
        # invalid input like any other, so the same 422 as malformed JSON.
        return problem(422, "invalid_input", "request body is not valid UTF-8 JSON", "body")
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
    headers = dict(exc.headers) if exc.headers else None
    return problem(exc.status_code, code, detail, headers=headers)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    # Answered outside every middleware (Starlette's outermost layer), so the request id
    # is read from the request itself.
    rid = request_id_of(request.scope)
    log.error("unhandled error (request %s)", rid, exc_info=exc)
    return problem(
        500, "internal_error", "internal server error; see the server log", request_id=rid
    )


def install_error_handlers(app: FastAPI) -> None:
    """Register the mapping on ``app``."""
    app.add_exception_handler(JiyiError, _jiyi_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
