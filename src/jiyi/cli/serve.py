"""``jiyi serve``: the service's entry point (``jiyi keys`` is ``cli/keys.py``).

The CLI group calls :func:`register`; these are the only places that read the service
settings from the environment.
"""

from __future__ import annotations

import logging
import os
from typing import Annotated

import typer

from jiyi import backends
from jiyi.errors import InvalidInputError, JiyiError, MissingDependencyError
from jiyi.keys import KeyStore
from jiyi.settings import Settings, load_settings


def _key_store(settings: Settings) -> KeyStore:
    # Beside the memories: keys.db for SQLite, the store's schema for PostgreSQL (shared by
    # every node), so a key made here works on every server of the deployment.
    return backends.open_key_store(settings)


def serve(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default: 127.0.0.1, or JIYI_HOST).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (default: 8765, or JIYI_PORT).")] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            min=1,
            max=64,
            help="Server processes sharing the port and the store (default: 1, or "
            "JIYI_WORKERS); more than one needs JIYI_REDIS.",
        ),
    ] = None,
) -> None:
    """Run the REST service (OpenAPI docs at /docs).

    At first start it creates and prints an API key rather than running open."""
    try:
        import uvicorn

        from jiyi.cli.nodelay import IMPORT_PATH as NODELAY_HTTP
        from jiyi.server.app import create_app
    except ImportError as exc:
        raise MissingDependencyError(exc.name or "fastapi", "server") from exc
    try:
        settings = load_settings(host=host, port=port, workers=workers)
        check_workers(settings)
        settings.home.mkdir(parents=True, exist_ok=True)
        keys = _key_store(settings)
        first_key(settings, keys)
        logging.basicConfig(
            level=settings.log_level.upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        # One process builds its app here; N processes each build their own (see below),
        # from the environment, so they learn N there and take 1/N of the server's slots.
        if settings.workers > 1:
            os.environ["JIYI_WORKERS"] = str(settings.workers)
        app = create_app(settings, keys=keys) if settings.workers == 1 else None
    except JiyiError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        raise typer.Exit(2) from exc
    procs = f", {settings.workers} processes" if settings.workers > 1 else ""
    typer.echo(
        f"jiyi: serving on http://{settings.host}:{settings.port} "
        f"(docs at /docs, data in {settings.home}{procs})",
        err=True,
    )
    try:
        # Each process: one event loop; blocking work runs in its worker thread pool. With
        # --workers N, uvicorn's supervisor starts N processes that each call create_app()
        # (settings from the same environment and TOML file) and share the listening socket.
        uvicorn.run(
            app if app is not None else "jiyi.server.app:create_app",
            factory=app is None,
            http=NODELAY_HTTP,
            workers=settings.workers if app is None else None,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level.lower(),
            access_log=False,
        )
    finally:
        keys.close()


def first_key(settings: Settings, keys: KeyStore) -> None:
    """At first start (no key stored, none configured), create one and print it (stderr)
    rather than run open."""
    if keys.count() == 0 and settings.bootstrap_key is None:
        key, who = keys.create(settings.bootstrap_tenant)
        typer.echo(
            f"jiyi: first start — created an API key for tenant '{who.tenant}'.\n"
            f"It is shown only this once; keep it (only its hash is stored):\n\n"
            f"    {key}\n",
            err=True,
        )


def check_workers(settings: Settings) -> None:
    """Several processes must share what one process keeps in memory.

    The store is shared as is: SQLite in WAL mode (each process's per-user read cache is
    checked against the ``scope_versions`` row every write bumps) or PostgreSQL. Session
    windows and the context cache are shared only through Redis; kept in process they would
    split one conversation between processes and serve a stale context block.

    Raises:
        InvalidInputError: ``workers > 1`` without ``JIYI_REDIS``.
    """
    if settings.workers > 1 and not settings.redis:
        raise InvalidInputError(
            f"--workers {settings.workers} needs JIYI_REDIS (redis://…): session windows and "
            "the context cache must be shared between the processes",
            field="workers",
        )


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``jiyi`` command group."""
    app.command("serve")(serve)
