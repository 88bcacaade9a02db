"""``X-Jiyi-Alias``: name a user by a login alias without putting the alias in a URL.

An alias is PII, and URLs end up in access logs, proxies and browser histories. So over
REST the alias travels in a header — ``X-Jiyi-Alias: phone:+8613800138000`` — and the user
id in the path or the ``user_id`` query parameter is the placeholder ``~``::

    GET /v1/users/~/tasks            X-Jiyi-Alias: phone:+8613800138000
    GET /v1/memories?user_id=~       X-Jiyi-Alias: wechat_openid:oXyz…

This middleware, innermost of the stack (metrics and logs see the request as sent), swaps
the placeholder for the library's alias reference ``alias:<kind>:<value>`` in a copy of the
request; the facade resolves it (``IdentityOps.resolve_user``: one resolver for the library
and the server). In a JSON body, send ``"user_id": "alias:phone:…"`` directly (bodies are
not logged); a ``~`` left anywhere is refused (422 naming ``user_id``), never stored as a user.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, urlencode

from jiyi.server.metrics import ASGIApp, Receive, Scope, Send

__all__ = ["ALIAS_HEADER", "PLACEHOLDER", "AliasHeaderMiddleware"]

ALIAS_HEADER = "X-Jiyi-Alias"
PLACEHOLDER = "~"
_HEADER = ALIAS_HEADER.lower().encode()
_USERS = "/v1/users/"


class AliasHeaderMiddleware:
    """Replace the ``~`` user id of a request that carries ``X-Jiyi-Alias``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw = dict(scope.get("headers", [])).get(_HEADER)
        if raw is None:
            await self.app(scope, receive, send)
            return
        ref = "alias:" + raw.decode("utf-8", errors="replace").strip()
        scope = dict(scope)  # a copy: the outer middlewares keep the request as sent
        path: str = scope["path"]
        if path.startswith(_USERS + PLACEHOLDER) and (
            len(path) == len(_USERS) + 1 or path[len(_USERS) + 1] == "/"
        ):
            rest = path[len(_USERS) + 1 :]
            # The route decodes %2F in a user id: a "/" inside the alias stays in the id.
            scope["path"] = _USERS + ref + rest
            scope["raw_path"] = (_USERS + quote(ref, safe="") + rest).encode()
        query = scope.get("query_string", b"")
        if query:
            pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
            if ("user_id", PLACEHOLDER) in pairs:
                swapped = [(k, ref if (k, v) == ("user_id", PLACEHOLDER) else v) for k, v in pairs]
                scope["query_string"] = urlencode(swapped).encode()
        await self.app(scope, receive, send)
