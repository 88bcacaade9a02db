"""``/mcp``: the MCP server (``jiyi.integrations.mcp``) over streamable HTTP, on the REST app.

Mounted by ``jiyi mcp --http``. Every request needs an API key, checked exactly as for REST
(``auth.authenticate``: Bearer key, admin keys may name a tenant in ``X-Jiyi-Tenant``); the
key's tenant and agent decide whose memory the tools see. The transport is stateless and
answers in JSON: no MCP session lives in a process, so any server of a deployment can
answer any request and a revoked key is refused on the next one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from jiyi.errors import AuthenticationError, JiyiError
from jiyi.integrations.mcp import Caller, build_server
from jiyi.keys import Principal
from jiyi.server.auth import authenticate
from jiyi.server.errors import problem_for
from jiyi.server.services import Services

MCP_PATH = "/mcp"
_PRINCIPAL = "jiyi.principal"  # where the checked key's principal waits in the ASGI scope


class _KeyAuth:
    """Authenticates a request before the MCP transport sees it (401/403/422 as problem
    documents, like every REST error)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            scope[_PRINCIPAL] = await authenticate(Request(scope))
        except JiyiError as exc:
            await problem_for(exc)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def mount_mcp(app: FastAPI, *, default_user: str | None = None) -> None:
    """Serve MCP at ``/mcp`` on ``app`` (from ``create_app``), with its services.

    Args:
        default_user: the user a tool call means when it names none.
    """
    services: Services = app.state.services

    async def resolve(ctx: Context) -> Caller:
        request = ctx.request_context.request
        who: Principal | None = getattr(request, "scope", {}).get(_PRINCIPAL)
        if who is None:  # never: _KeyAuth ran first
            raise AuthenticationError("missing API key")
        return Caller(services.memory_of(who), who.agent_id, default_user)

    async def run(work: Any) -> Any:
        return await services.run(work)

    server = build_server(resolve, run)
    # Builds the session manager; its own Starlette app is not used, only its endpoint.
    # ``host`` keeps the SDK's DNS-rebinding protection on for a loopback server.
    server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        host=services.settings.host,
    )
    endpoint = _KeyAuth(StreamableHTTPASGIApp(server.session_manager))
    app.router.routes.append(Route(MCP_PATH, endpoint=endpoint))

    rest_lifespan = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: FastAPI) -> AsyncIterator[Any]:
        async with rest_lifespan(a) as state, server.session_manager.run():
            yield state

    app.router.lifespan_context = lifespan
