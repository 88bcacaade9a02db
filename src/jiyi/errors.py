"""The one exception tree of jiyi.

    JiyiError
     ├── InvalidInputError        bad argument or payload; ``field`` names it (HTTP 422)
     │    └── PayloadTooLargeError  a message or request over the size limit (HTTP 413)
     ├── NotFoundError            no such memory/session in this scope (HTTP 404)
     ├── PermissionDeniedError    authenticated, but not allowed (HTTP 403)
     ├── AuthenticationError      missing or unknown API key (HTTP 401)
     ├── ConflictError            concurrent change or embedder mismatch (HTTP 409)
     ├── StorageUnavailableError  the database cannot be reached or is locked (HTTP 503)
     ├── ExtractionError          the extractor (rules or LLM) failed (HTTP 502)
     └── MissingDependencyError   an optional extra is not installed

Errors raised by drivers (sqlite3, psycopg, redis, httpx) are translated at the adapter
edge and chained with ``raise ... from exc`` so the cause is never lost.
"""

from __future__ import annotations

__all__ = [
    "AuthenticationError",
    "ConflictError",
    "ExtractionError",
    "InvalidInputError",
    "JiyiError",
    "MissingDependencyError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "StorageUnavailableError",
]


class JiyiError(Exception):
    """Root of every error jiyi raises on purpose.

    Attributes:
        code: a stable, machine-readable error code (``invalid_input``, ``not_found`` …).
        field: the offending input field, when one is to blame.
    """

    code = "jiyi_error"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, str | None]:
        """A JSON-ready problem description (used by the server and the CLI)."""
        return {"code": self.code, "message": self.message, "field": self.field}


class InvalidInputError(JiyiError):
    """An argument or payload field is missing, malformed or out of range."""

    code = "invalid_input"


class PayloadTooLargeError(InvalidInputError):
    """A message or request exceeds the configured size limit."""

    code = "payload_too_large"


class NotFoundError(JiyiError):
    """The memory, session or user does not exist in the caller's scope."""

    code = "not_found"


class AuthenticationError(JiyiError):
    """No API key, or one that does not match any stored key."""

    code = "unauthenticated"


class PermissionDeniedError(JiyiError):
    """The caller is authenticated but may not touch this resource."""

    code = "forbidden"


class ConflictError(JiyiError):
    """The request conflicts with stored state (e.g. a different embedding model)."""

    code = "conflict"


class StorageUnavailableError(JiyiError):
    """The storage backend could not be reached or stayed locked past the timeout."""

    code = "storage_unavailable"


class ExtractionError(JiyiError):
    """Memory extraction failed (invalid LLM output, timeout, dead endpoint)."""

    code = "extraction_failed"


class MissingDependencyError(JiyiError):
    """An optional dependency is missing; the message names the extra to install."""

    code = "missing_dependency"

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed; install it with: pip install 'jiyi[{extra}]'"
        )
        self.package = package
        self.extra = extra
