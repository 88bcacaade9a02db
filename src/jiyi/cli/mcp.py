"""``jiyi mcp``: jiyi as an MCP server for agents (``jiyi.integrations.mcp``).

stdio by default (an agent host starts it as a subprocess; stdout carries only the
protocol, everything else goes to stderr); ``--http`` serves streamable HTTP at ``/mcp``
beside the REST API, every request authenticated by an API key.
"""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from jiyi.errors import MissingDependencyError
from jiyi.settings import Settings, load_settings


def mcp(
    http: Annotated[
        bool,
        typer.Option(
            "--http",
            help="Serve streamable HTTP at /mcp (with the REST API) instead of stdio; "
            "every request needs an API key.",
        ),
    ] = False,
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="The user a tool call means when it names none."),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="stdio: act as this agent (private memories)."),
    ] = None,
    tenant: Annotated[
        str | None,
        typer.Option(help="stdio: the tenant (default: JIYI_BOOTSTRAP_TENANT, 'default')."),
    ] = None,
    host: Annotated[str | None, typer.Option(help="--http: address (default: JIYI_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="--http: port (default: JIYI_PORT).")] = None,
) -> None:
    """Run jiyi as an MCP server: tools remember, recall, context, forget (stdio or --http)."""
    try:
        import mcp as _  # noqa: F401
    except ImportError as exc:
        raise MissingDependencyError("mcp", "mcp") from exc
    settings = load_settings(host=host, port=port)
    # stdout is the protocol channel under stdio: logs go to stderr only.
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if http:
        _serve_http(settings, user)
    else:
        _serve_stdio(settings, user=user, agent=agent, tenant=tenant)


def _serve_stdio(
    settings: Settings, *, user: str | None, agent: str | None, tenant: str | None
) -> None:
    import anyio
    import anyio.to_thread

    from jiyi import backends
    from jiyi.cache import NotifyingStore
    from jiyi.config import MemoryConfig
    from jiyi.core.inputs import check_id
    from jiyi.integrations.mcp import Caller, build_server
    from jiyi.memory import Memory

    name = tenant or settings.bootstrap_tenant
    check_id(name, "tenant")
    check_id(user, "user_id", required=False)
    check_id(agent, "agent_id", required=False)
    cache = backends.open_context_cache(settings, lambda: None)
    # Writes invalidate a running server's cached context of the user (Redis cache).
    memory = Memory(
        config=MemoryConfig(tenant=name),
        store=NotifyingStore(backends.open_store(settings), cache.bump),
        embedder=backends.open_embedder(settings),
        extractor=backends.open_extractor(settings, name, None),
    )
    caller = Caller(memory, agent, user)

    async def resolve(_: object) -> Caller:
        return caller

    async def run(work: object) -> object:
        return await anyio.to_thread.run_sync(work)  # type: ignore[arg-type]

    try:
        build_server(resolve, run).run("stdio")
    finally:
        memory.close()
        close = getattr(cache, "close", None)
        if callable(close):
            close()


def _serve_http(settings: Settings, user: str | None) -> None:
    import uvicorn

    from jiyi import backends
    from jiyi.cli.serve import first_key
    from jiyi.server.app import create_app
    from jiyi.server.routes_mcp import mount_mcp

    settings.home.mkdir(parents=True, exist_ok=True)
    keys = backends.open_key_store(settings)
    first_key(settings, keys)
    try:
        app = create_app(settings, keys=keys)
        mount_mcp(app, default_user=user)
        typer.echo(
            f"jiyi: MCP on http://{settings.host}:{settings.port}/mcp (REST beside it under /v1)",
            err=True,
        )
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level.lower(),
            access_log=False,
        )
    finally:
        keys.close()


def register(app: typer.Typer) -> None:
    """Add ``mcp`` to the ``jiyi`` command group."""
    app.command("mcp")(mcp)
