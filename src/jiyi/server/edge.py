"""The outer layers of the server, in front of metrics, body limit and admission: CORS
(only when origins are configured) and, outermost, request ids with the access log.

CORS is off by default: without ``JIYI_CORS_ORIGINS`` no response carries
``Access-Control-Allow-Origin``, so a browser page on another origin cannot read the API.
With it, Starlette's ``CORSMiddleware`` answers preflights and allows exactly the listed
origins (``Settings`` refuses ``*``). Credentials mode stays off: the API authenticates by
the ``Authorization`` header, which a cross-origin ``fetch`` sends without cookies.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from jiyi.server.requestlog import RequestLogMiddleware
from jiyi.settings import Settings
from jiyi.wire import (
    IDEMPOTENCY_HEADER,
    REQUEST_ID_HEADER,
    RETRY_AFTER_HEADER,
    TENANT_HEADER,
)

#: What a cross-origin caller may send and read.
ALLOWED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
ALLOWED_HEADERS = [
    "Authorization",
    "Content-Type",
    IDEMPOTENCY_HEADER,
    TENANT_HEADER,
    REQUEST_ID_HEADER,
]
EXPOSED_HEADERS = [REQUEST_ID_HEADER, RETRY_AFTER_HEADER]
PREFLIGHT_CACHE_SECONDS = 600


def add_edge_middleware(app: FastAPI, settings: Settings) -> None:
    """Add CORS (if configured) and the request-id/access-log layer; call it after every
    other ``add_middleware`` (the last added runs first)."""
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_credentials=False,
            allow_methods=ALLOWED_METHODS,
            allow_headers=ALLOWED_HEADERS,
            expose_headers=EXPOSED_HEADERS,
            max_age=PREFLIGHT_CACHE_SECONDS,
        )
    # Outermost: preflights, 413s and admission refusals get an id and a log line too.
    app.add_middleware(RequestLogMiddleware, access_log=settings.access_log)
