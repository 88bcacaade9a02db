"""The admin console (记忆快照) at ``/console``: a small static app in the package.

The page, its script and its style sheet are files of this package (``static/``, carried by
the wheel), so the console works offline and loads nothing from a CDN. The page calls the
same REST API as any client, with the admin key the operator typed: the key lives in the
tab's ``sessionStorage`` and travels only in the ``Authorization`` header, never in a URL,
a cookie or a log line. Serving the page needs no key; every ``/v1/…`` call it makes does.

A strict Content-Security-Policy allows scripts, styles and requests from this origin only
(no inline script), so even a memory whose content is HTML cannot run code in the console —
and the script writes content as text, never as markup.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from fastapi import APIRouter, Response
from fastapi.responses import RedirectResponse

from jiyi.errors import NotFoundError

PREFIX = "/console"
#: What the page may load: its own files and its own API, nothing else.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
#: The files served, by name: anything else under /console/ is a 404 (no directory walking).
ASSETS = {
    "console.js": "text/javascript; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",
    "console.css": "text/css; charset=utf-8",
}

router = APIRouter(include_in_schema=False)


@cache
def _read(name: str) -> bytes:
    return (files(__package__) / "static" / name).read_bytes()


@router.get(PREFIX)
async def page() -> Response:
    """The console page. ``no-store``: a new version of jiyi is picked up on reload."""
    headers = HEADERS | {"Cache-Control": "no-store"}
    return Response(_read("index.html"), media_type="text/html; charset=utf-8", headers=headers)


@router.get(PREFIX + "/")
async def slash() -> RedirectResponse:
    return RedirectResponse(PREFIX, status_code=308)


@router.get(PREFIX + "/{name}")
async def asset(name: str) -> Response:
    """One of the console's script and style files; 404 for any other name."""
    media_type = ASSETS.get(name)
    if media_type is None:
        raise NotFoundError(f"no console file {name!r}", field="name")
    headers = HEADERS | {"Cache-Control": "no-cache"}
    return Response(_read(name), media_type=media_type, headers=headers)
