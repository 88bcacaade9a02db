"""Sans-I/O core of the SDK: a :class:`Call` is one request (what to send, how to read the
answer, whether it may be repeated); this module holds what every call shares — reading a
problem response into the :class:`~jiyi.errors.JiyiError` it stands for, the
:class:`RetryPolicy` for 429/503 with ``Retry-After``, parsers and request helpers — and
``_ops`` builds one Call per endpoint on it. The sync and the async client only send Calls,
so neither re-implements any of this. Models and header names come from ``jiyi.wire`` and
errors from ``jiyi.errors``: the SDK never imports the server.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from jiyi.errors import JiyiError, StorageUnavailableError, VersionConflictError, error_class
from jiyi.wire import RETRY_AFTER_HEADER

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class ServerError(JiyiError):
    """The server failed in a way it did not explain (HTTP 5xx without a known code)."""

    code = "internal_error"

    def __init__(self, message: str, *, status: int, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.status = status


def retry_after(resp: httpx.Response) -> float | None:
    """The ``Retry-After`` of a response in seconds (the server sends whole seconds; an
    HTTP date is not used by jiyi and reads as None)."""
    raw = resp.headers.get(RETRY_AFTER_HEADER)
    try:
        seconds = float(raw) if raw is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and math.isfinite(seconds) and seconds >= 0 else None


def error_for(resp: httpx.Response) -> JiyiError:
    """The JiyiError a problem response stands for: the class its ``code`` names (else the
    one its status stands for, ``jiyi.errors.error_class``), with ``status`` set to the HTTP
    status and ``retry_after`` to the ``Retry-After`` header."""
    try:
        body = resp.json()
    except ValueError:
        body = {}
    err = problem_error(body, resp.status_code)
    err.retry_after = retry_after(resp)
    return err


def problem_error(body: object, status: int) -> JiyiError:
    """The JiyiError a problem document (a response's, or one item's of a batch) stands
    for, its ``status`` set."""
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code", ""))
    message = str(body.get("message") or f"HTTP {status}")
    field_ = body.get("field")
    field_ = field_ if isinstance(field_, str) else None
    cls = error_class(code, status)
    err: JiyiError = (
        cls(message, field=field_)
        if cls is not None
        else ServerError(message, status=status, field=field_)
    )
    err.status = status
    current = body.get("current")
    if isinstance(err, VersionConflictError) and isinstance(current, int):
        err.current = current  # the stored version, as the library reports it
    return err


def transport_error(exc: httpx.HTTPError, base_url: str) -> JiyiError:
    return StorageUnavailableError(
        f"cannot reach the jiyi server at {base_url} ({type(exc).__name__}); is it running?"
    )


@dataclass(frozen=True)
class RetryPolicy:
    """How a client waits out a refusal that says when to come back: a 429 (tenant over
    its rate) or 503 (server at capacity) with ``Retry-After``. Only calls that are safe to
    repeat are retried (see :attr:`Call.idempotent`); any other call raises the
    RateLimitedError / OverloadedError at once, ``retry_after`` set, for the caller to
    decide.

    Args:
        attempts: tries in all, the first included (1: never retry).
        max_wait: the longest ``Retry-After`` waited out, in seconds; a longer one is
            raised at once rather than blocking the caller.
    """

    attempts: int = 3
    max_wait: float = 10.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("RetryPolicy.attempts must be at least 1")
        if not math.isfinite(self.max_wait) or self.max_wait < 0:
            raise ValueError("RetryPolicy.max_wait must be a finite number of seconds >= 0")

    def delay(self, call: Call[Any], resp: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before trying ``call`` again after ``resp`` on try ``attempt``
        (1-based); None: do not retry, read ``resp`` as it is."""
        if not call.idempotent or attempt >= self.attempts or resp.status_code not in (429, 503):
            return None
        wait = retry_after(resp)
        return wait if wait is not None and wait <= self.max_wait else None


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and the parser for its answer."""

    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    json: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    #: A raw body (sent instead of ``json``), its type in ``headers``.
    content: bytes | None = None
    none_on_404: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    #: Safe to send again after a refusal: reads, deletes and keyed adds.
    idempotent: bool = False

    def result(self, resp: httpx.Response) -> T:
        if resp.status_code == 404 and self.none_on_404:
            return None  # type: ignore[return-value]  # T is Optional for these calls
        if resp.status_code >= 400:
            raise error_for(resp)
        return self.parse(resp)


def parse_as(cls: type[M]) -> Callable[[httpx.Response], M]:
    """A parser of a response body into ``cls``; a body that does not fit is a ServerError."""

    def parse(resp: httpx.Response) -> M:
        try:
            return cls.model_validate_json(resp.content)
        except ValidationError as exc:
            raise ServerError(
                f"unexpected response from server: {exc.error_count()} field(s) did not match",
                status=resp.status_code,
            ) from exc

    return parse


def parse_none(_: httpx.Response) -> None:
    """The parser of an answer without a body (204)."""
    return None


def body(**fields: Any) -> dict[str, Any]:
    """A JSON body of the fields that are set (None: left out, the server's default)."""
    out = {k: v for k, v in fields.items() if v is not None}
    jsonable: dict[str, Any] = to_jsonable_python(out)
    return jsonable


def segment(value: str) -> str:
    """``value`` quoted as one path segment (an id with ``/`` stays one segment)."""
    return quote(value, safe="")


def headers(api_key: str) -> dict[str, str]:
    """The headers every request of a client carries."""
    return {"Authorization": f"Bearer {api_key}", "User-Agent": f"jiyi-python/{_version()}"}


def _version() -> str:
    # From the installed distribution, not ``jiyi.__version__``: importing the package root
    # from here made ``jiyi`` and ``jiyi.client`` import each other.
    try:
        return version("jiyi")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"
