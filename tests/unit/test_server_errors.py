"""One error table: each JiyiError class carries its HTTP status and code; the server
answers with them and the SDK reads the answer back into the same class.

The round trip goes through the real response objects on both sides: the server's
``problem_for`` renders a Starlette response, whose status, headers and body become the
httpx response the SDK parses.
"""

from __future__ import annotations

import httpx
import pytest

from jiyi import errors
from jiyi.client._call import ServerError, error_for
from jiyi.errors import (
    AliasTakenError,
    AuthenticationError,
    ConflictError,
    ExtractionError,
    InvalidInputError,
    JiyiError,
    NotFoundError,
    OverloadedError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitedError,
    StorageUnavailableError,
    VersionConflictError,
    error_class,
)
from jiyi.server.errors import problem_for

TABLE = [
    (InvalidInputError("bad", field="user_id"), 422, "invalid_input"),
    (PayloadTooLargeError("too big"), 413, "payload_too_large"),
    (NotFoundError("gone", field="memory_id"), 404, "not_found"),
    (PermissionDeniedError("no"), 403, "forbidden"),
    (AuthenticationError("who?"), 401, "unauthenticated"),
    (ConflictError("clash", field="Idempotency-Key"), 409, "conflict"),
    (VersionConflictError("stale", field="expected_version", current=2), 409, "version_conflict"),
    (AliasTakenError("linked to another user", field="alias"), 409, "alias_taken"),
    (RateLimitedError("slow down", retry_after=3), 429, "rate_limited"),
    (StorageUnavailableError("down"), 503, "storage_unavailable"),
    (OverloadedError("busy", retry_after=1.2), 503, "overloaded"),
    (ExtractionError("llm"), 502, "extraction_failed"),
]


def as_httpx(exc: JiyiError) -> httpx.Response:
    """What the server sends for ``exc``, as the SDK receives it."""
    sent = problem_for(exc)
    headers = [(k.decode(), v.decode()) for k, v in sent.raw_headers]
    return httpx.Response(sent.status_code, headers=headers, content=bytes(sent.body))


@pytest.mark.parametrize(("exc", "status", "code"), TABLE, ids=lambda v: getattr(v, "code", ""))
def test_every_error_round_trips_through_http_as_itself(
    exc: JiyiError, status: int, code: str
) -> None:
    resp = as_httpx(exc)
    assert (resp.status_code, resp.json()["code"]) == (status, code)
    back = error_for(resp)
    assert type(back) is type(exc)
    assert (back.status, back.code, back.message, back.field) == (
        status,
        code,
        exc.message,
        exc.field,
    )


def test_refusals_say_when_to_come_back_in_whole_seconds() -> None:
    resp = as_httpx(OverloadedError("busy", retry_after=1.2))
    assert resp.headers["Retry-After"] == "2"
    assert error_for(resp).retry_after == 2
    assert "Retry-After" not in as_httpx(StorageUnavailableError("down")).headers
    assert error_for(as_httpx(StorageUnavailableError("down"))).retry_after is None


def test_an_overloaded_server_is_still_a_storage_unavailable_error_for_old_callers() -> None:
    # Code written before OverloadedError existed retried on StorageUnavailableError.
    assert isinstance(error_for(as_httpx(OverloadedError("busy"))), StorageUnavailableError)


def test_a_401_asks_for_a_bearer_key() -> None:
    assert as_httpx(AuthenticationError("who?")).headers["WWW-Authenticate"] == "Bearer"


def test_the_table_above_covers_every_class_of_the_tree() -> None:
    classes = {getattr(errors, n) for n in errors.__all__ if n.endswith("Error")}
    assert classes - {type(e) for e, _, _ in TABLE} == {JiyiError, errors.MissingDependencyError}
    assert len({c.code for c in classes}) == len(classes)  # codes are unique


def test_responses_that_are_not_ours_map_by_status_or_to_server_error() -> None:
    route_404 = httpx.Response(404, json={"detail": "Not Found"})
    assert type(error_for(route_404)) is NotFoundError
    teapot = httpx.Response(418, json={"message": "short and stout"})
    err = error_for(teapot)
    assert isinstance(err, ServerError) and err.status == 418
    assert error_class("missing_dependency", 500) is None  # a server-side problem only
