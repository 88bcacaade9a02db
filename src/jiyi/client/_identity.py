"""The identity endpoints (aliases, merge, identity confirmation, export / import) as
:class:`~jiyi.client._call.Call` builders, like ``_ops``.

A user named by alias (``alias:<kind>:<value>``) is sent the way the server asks: ``~`` in
the URL and the alias in the ``X-Jiyi-Alias`` header — never in the URL, which proxies log.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import httpx

from jiyi.client._call import Call, body, parse_as, parse_none, segment
from jiyi.core.audit import AuditPage
from jiyi.core.identity import ALIAS_PREFIX, Alias, SuspectSession
from jiyi.wire import AliasList, IdentityEvents, MergeResult

#: The media type of an export in JSON Lines (``jiyi.transfer_lines``).
NDJSON = "application/x-ndjson"


def user_path(user_id: str) -> tuple[str, dict[str, str]]:
    """``/v1/users/<segment>`` and the headers that name ``user_id`` (an alias by header)."""
    if user_id.startswith(ALIAS_PREFIX):
        return "/v1/users/~", {"X-Jiyi-Alias": user_id[len(ALIAS_PREFIX) :]}
    return f"/v1/users/{segment(user_id)}", {}


def _json(resp: httpx.Response) -> Any:
    return resp.json()


def link(user_id: str, alias: str, kind: str) -> Call[Alias]:
    path, hdrs = user_path(user_id)
    return Call(
        "POST",
        f"{path}/aliases",
        parse_as(Alias),
        json=body(kind=kind, alias=alias),
        headers=hdrs,
        idempotent=True,
    )


def unlink(user_id: str, alias: str, kind: str) -> Call[bool | None]:
    path, hdrs = user_path(user_id)

    def found(resp: httpx.Response) -> bool | None:
        return resp.status_code == 204  # a 404 answers None (none_on_404)

    call: Call[bool | None] = Call(
        "DELETE",
        f"{path}/aliases",
        found,
        json=body(kind=kind, alias=alias),
        headers=hdrs,
        idempotent=True,
        none_on_404=True,
    )
    return call


def aliases(user_id: str) -> Call[list[Alias]]:
    path, hdrs = user_path(user_id)
    return Call(
        "GET",
        f"{path}/aliases",
        lambda r: parse_as(AliasList)(r).aliases,
        headers=hdrs,
        idempotent=True,
    )


def merge(source: str, target: str) -> Call[MergeResult]:
    path, hdrs = user_path(source)
    return Call(
        "POST", f"{path}/merge", parse_as(MergeResult), json=body(into=target), headers=hdrs
    )


def confirm_identity(user_id: str, session_id: str) -> Call[SuspectSession]:
    path, hdrs = user_path(user_id)
    return Call(
        "POST",
        f"{path}/identity/confirm",
        parse_as(SuspectSession),
        json=body(session_id=session_id),
        headers=hdrs,
        idempotent=True,
    )


def identity_events(user_id: str, limit: int) -> Call[IdentityEvents]:
    path, hdrs = user_path(user_id)
    return Call(
        "GET",
        f"{path}/identity/events",
        parse_as(IdentityEvents),
        params={"limit": limit},
        headers=hdrs,
        idempotent=True,
    )


def audit(
    user_id: str, since: datetime | str | None, limit: int, cursor: str | None
) -> Call[AuditPage]:
    path, hdrs = user_path(user_id)
    params: dict[str, Any] = {"limit": limit}
    if since is not None:
        params["since"] = since.isoformat() if isinstance(since, datetime) else since
    if cursor is not None:
        params["cursor"] = cursor
    return Call(
        "GET", f"{path}/audit", parse_as(AuditPage), params=params, headers=hdrs, idempotent=True
    )


def export(user_id: str) -> Call[dict[str, Any]]:
    path, hdrs = user_path(user_id)
    return Call("GET", f"{path}/export", _json, headers=hdrs, idempotent=True)


def export_lines(user_id: str) -> Call[str]:
    path, hdrs = user_path(user_id)
    return Call(
        "GET",
        f"{path}/export",
        lambda r: r.text,
        params={"format": "jsonl"},
        headers=hdrs,
        idempotent=True,
    )


def _first_line(text: bytes) -> Any:
    try:
        return json.loads(text[:65536].lstrip().split(b"\n", 1)[0])
    except ValueError:
        return None


def document_user(document: dict[str, Any] | str | bytes) -> str:
    """The user an export names (the document's ``user_id``, or its header line's): the
    default user of an import. "" when it names none (the server then refuses it)."""
    if isinstance(document, dict):
        return str(document.get("user_id", ""))
    raw = document.encode() if isinstance(document, str) else document
    head = _first_line(raw)
    if not isinstance(head, dict):
        try:
            head = json.loads(raw)
        except ValueError:
            return ""
    return str(head.get("user_id", "")) if isinstance(head, dict) else ""


def import_(
    document: dict[str, Any] | str | bytes, user_id: str, remap: bool
) -> Call[dict[str, int]]:
    path, hdrs = user_path(user_id)
    content: bytes | None = None
    if not isinstance(document, dict):
        # Export text as it is (JSON or JSON Lines): the server tells the layouts apart.
        content = document.encode() if isinstance(document, str) else document
        head = _first_line(content)
        lines = isinstance(head, dict) and head.get("format") == "jiyi.export.jsonl"
        hdrs = {**hdrs, "Content-Type": NDJSON if lines else "application/json"}
    return Call(
        "POST",
        f"{path}/import",
        lambda r: dict(r.json()["imported"]),
        json=document if isinstance(document, dict) else None,
        content=content,
        params={"remap": "true"} if remap else {},
        headers=hdrs,
        idempotent=True,
    )


__all__ = [
    "aliases",
    "audit",
    "confirm_identity",
    "document_user",
    "export",
    "export_lines",
    "identity_events",
    "import_",
    "link",
    "merge",
    "parse_none",
    "unlink",
    "user_path",
]
