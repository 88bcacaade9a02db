"""The one exception tree of jiyi, and the HTTP status of each branch.

    JiyiError                            status  code
     ├── InvalidInputError                 422   invalid_input      ``field`` names it
     │    └── PayloadTooLargeError         413   payload_too_large  over a size limit
     ├── NotFoundError                     404   not_found          not in this scope
     ├── PermissionDeniedError             403   forbidden          authenticated, not allowed
     ├── AuthenticationError               401   unauthenticated    missing or unknown API key
     ├── ConflictError                     409   conflict           clashes with stored state
     │    ├── VersionConflictError         409   version_conflict   a stale expected_version
     │    └── AliasTakenError              409   alias_taken        alias linked to another user
     ├── RateLimitedError                  429   rate_limited       tenant over its rate
     ├── StorageUnavailableError           503   storage_unavailable  database unreachable
     │    └── OverloadedError              503   overloaded         server at capacity
     ├── ExtractionError                   502   extraction_failed  extractor failed
     └── MissingDependencyError            500   missing_dependency an extra is not installed

``status`` and ``code`` are class attributes, so this table is the code itself: the server's
one error handler answers ``exc.status`` with ``exc.code``, and the SDK maps a response back
with :func:`error_class` — neither keeps a table of its own. The two "try again later"
errors carry ``retry_after`` (seconds, sent as the ``Retry-After`` header). OverloadedError
is a StorageUnavailableError so code that already retries on the latter keeps working.

Errors raised by drivers (sqlite3, psycopg, redis, httpx) are translated at the adapter
edge and chained with ``raise ... from exc`` so the cause is never lost.
"""

from __future__ import annotations

__all__ = [
    "AliasTakenError",
    "AuthenticationError",
    "ConflictError",
    "ExtractionError",
    "InvalidInputError",
    "JiyiError",
    "MissingDependencyError",
    "NotFoundError",
    "OverloadedError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitedError",
    "StorageUnavailableError",
    "VersionConflictError",
    "error_class",
    "in_item",
]


class JiyiError(Exception):
    """Root of every error jiyi raises on purpose.

    Attributes:
        code: a stable, machine-readable error code (``invalid_input``, ``not_found`` …).
        status: the HTTP status the server answers this error with.
        field: the offending input field, when one is to blame.
        retry_after: seconds after which trying again is worth it, when the error knows
            (RateLimitedError, OverloadedError); else None.
    """

    code = "jiyi_error"
    status = 500
    retry_after: float | None = None

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, str | None]:
        """A JSON-ready problem description (used by the server and the CLI)."""
        return {"code": self.code, "message": self.message, "field": self.field}


def in_item(exc: JiyiError, index: int, name: str = "items") -> JiyiError:
    """``exc`` with its ``field`` placed in item ``index`` of a batch: ``messages`` becomes
    ``items[3].messages`` (no field: ``items[3]``). Returns ``exc`` itself."""
    where = f"{name}[{index}]"
    if exc.field:
        exc.field = where + (exc.field if exc.field.startswith("[") else "." + exc.field)
    else:
        exc.field = where
    return exc


class InvalidInputError(JiyiError):
    """An argument or payload field is missing, malformed or out of range."""

    code = "invalid_input"
    status = 422


class PayloadTooLargeError(InvalidInputError):
    """A message or request exceeds the configured size limit."""

    code = "payload_too_large"
    status = 413


class NotFoundError(JiyiError):
    """The memory, session or user does not exist in the caller's scope."""

    code = "not_found"
    status = 404


class AuthenticationError(JiyiError):
    """No API key, or one that does not match any stored key."""

    code = "unauthenticated"
    status = 401


class PermissionDeniedError(JiyiError):
    """The caller is authenticated but may not touch this resource."""

    code = "forbidden"
    status = 403


class ConflictError(JiyiError):
    """The request conflicts with stored state (e.g. a different embedding model)."""

    code = "conflict"
    status = 409


class VersionConflictError(ConflictError):
    """A write named the version it expected and the stored one has moved on (optimistic
    concurrency, e.g. task state): read it again and retry. ``current`` is the stored
    version (0: there is none)."""

    code = "version_conflict"
    status = 409

    def __init__(self, message: str, *, current: int = 0, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.current = current


class AliasTakenError(ConflictError):
    """The alias is already linked to another user of the tenant: it is never moved
    silently — unlink it there first, or merge the two users (``merge_users``)."""

    code = "alias_taken"
    status = 409


class RateLimitedError(JiyiError):
    """The tenant sent more requests per second than it may; nothing was done."""

    code = "rate_limited"
    status = 429

    def __init__(
        self, message: str, *, retry_after: float | None = None, field: str | None = None
    ) -> None:
        super().__init__(message, field=field)
        self.retry_after = retry_after


class StorageUnavailableError(JiyiError):
    """The storage backend could not be reached or stayed locked past the timeout."""

    code = "storage_unavailable"
    status = 503


class OverloadedError(StorageUnavailableError):
    """The server is at capacity and refused the request before doing any of it."""

    code = "overloaded"
    status = 503

    def __init__(
        self, message: str, *, retry_after: float | None = None, field: str | None = None
    ) -> None:
        super().__init__(message, field=field)
        self.retry_after = retry_after


class ExtractionError(JiyiError):
    """Memory extraction failed (invalid LLM output, timeout, dead endpoint)."""

    code = "extraction_failed"
    status = 502


class MissingDependencyError(JiyiError):
    """An optional dependency is missing; the message names the extra to install."""

    code = "missing_dependency"
    status = 500

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed; install it with: pip install 'jiyi[{extra}]'"
        )
        self.package = package
        self.extra = extra


# Every class above, base before subclass: the first class with a status is the general one.
_TREE: tuple[type[JiyiError], ...] = (
    InvalidInputError,
    PayloadTooLargeError,
    NotFoundError,
    PermissionDeniedError,
    AuthenticationError,
    ConflictError,
    VersionConflictError,
    AliasTakenError,
    RateLimitedError,
    StorageUnavailableError,
    OverloadedError,
    ExtractionError,
)
_BY_CODE = {cls.code: cls for cls in _TREE}
_BY_STATUS: dict[int, type[JiyiError]] = {}
for _cls in _TREE:
    _BY_STATUS.setdefault(_cls.status, _cls)


def error_class(code: str, status: int) -> type[JiyiError] | None:
    """The error a problem response stands for: by its ``code`` when it is one of ours,
    else the most general class answered with ``status`` (e.g. 404 for an unknown route);
    None when neither is known. MissingDependencyError is never rebuilt from a response:
    the dependency is missing on the server, not here."""
    return _BY_CODE.get(code) or _BY_STATUS.get(status)
