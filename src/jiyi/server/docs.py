"""``/docs`` and ``/redoc`` that work offline, and an OpenAPI document that says how to
authenticate.

The Swagger UI and ReDoc bundles come from the ``fastapi-offline`` package (installed with
the ``server`` extra) and are served by the app itself, so the pages render on a machine
without internet access (FastAPI's defaults load them from a CDN). The OpenAPI document
declares the bearer API key as a security scheme, so Swagger's "Authorize" button sends
``Authorization: Bearer jy_…`` with every call; ``/healthz`` and ``/metrics`` need none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from jiyi.errors import MissingDependencyError

SCHEME = "apiKey"
#: Operations answered without a key (``openapi_extra`` of their routes).
NO_KEY: dict[str, Any] = {"security": []}


def offline_app(**kwargs: Any) -> FastAPI:
    """A FastAPI app whose documentation pages load their scripts from the app."""
    try:
        from fastapi_offline import FastAPIOffline
    except ImportError as exc:
        raise MissingDependencyError(exc.name or "fastapi-offline", "server") from exc
    kwargs.setdefault("swagger_ui_parameters", {"persistAuthorization": True})
    app: FastAPI = FastAPIOffline(**kwargs)
    app.openapi = _with_api_key(app.openapi)  # type: ignore[method-assign]
    return app


def _with_api_key(build: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    def openapi() -> dict[str, Any]:
        schema = build()  # FastAPI caches it: the scheme is added once
        schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
        if SCHEME not in schemes:
            schemes[SCHEME] = {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "jy_…",
                "description": "An API key from `jiyi keys create` (or the one `jiyi serve` "
                "prints at first start).",
            }
            schema["security"] = [{SCHEME: []}]
        return schema

    return openapi
