"""``jiyi keys create/list/revoke/rotate``: the API keys of the REST service.

Keys live beside the memories (``backends.open_key_store``: ``keys.db`` for SQLite, the
store's schema for PostgreSQL), so a key made or revoked here counts on every node; a
running server refuses a revoked key within one second (``server/keycache.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated

import typer
from rich.text import Text

from jiyi import backends
from jiyi.cli.options import JsonOpt, echo_json
from jiyi.cli.output import make_console, make_table
from jiyi.core.inputs import as_utc
from jiyi.errors import InvalidInputError, NotFoundError
from jiyi.keys import KeyRecord, KeyStore, Principal
from jiyi.settings import load_settings

_SPAN = re.compile(r"^\s*(\d{1,6})\s*([dhm])\s*$")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}


@contextmanager
def _key_store() -> Iterator[KeyStore]:
    keys = backends.open_key_store(load_settings())
    try:
        yield keys
    finally:
        keys.close()


def expiry(value: str | None, now: datetime | None = None) -> datetime | None:
    """``--expires``: a span from now (``30d``, ``12h``, ``90m``) or an ISO-8601 time."""
    if value is None:
        return None
    span = _SPAN.match(value)
    if span is not None:
        amount = int(span[1])
        if amount == 0:
            raise InvalidInputError("--expires must lie in the future", field="expires")
        return (now or datetime.now(UTC)) + timedelta(**{_UNITS[span[2]]: amount})
    try:
        return as_utc(value, "expires")
    except InvalidInputError as exc:
        raise InvalidInputError(
            "--expires takes a span (30d, 12h, 90m) or an ISO-8601 time such as "
            "2027-01-01T00:00:00+08:00",
            field="expires",
        ) from exc


def _announce(done: str, key: str, who: Principal, expires_at: datetime | None) -> None:
    what = f"tenant '{who.tenant}'"
    if who.agent_id:
        what += f", agent '{who.agent_id}'"
    if who.admin:
        what += ", admin"
    if expires_at is not None:
        what += f", expires {expires_at.isoformat()}"
    typer.echo(f"{done} for {what}; it will not be shown again:", err=True)
    typer.echo(key)


def keys_create(
    tenant: Annotated[str, typer.Option(help="Tenant the key belongs to.")],
    agent: Annotated[
        str | None,
        typer.Option(
            help="Bind the key to this agent: it cannot read other agents' private memories."
        ),
    ] = None,
    admin: Annotated[
        bool,
        typer.Option(
            "--admin",
            help="An admin key: manages keys (/v1/keys) and may act on any tenant through "
            "the X-Jiyi-Tenant header.",
        ),
    ] = False,
    expires: Annotated[
        str | None,
        typer.Option(help="Refuse the key after this: a span (30d, 12h, 90m) or an ISO time."),
    ] = None,
) -> None:
    """Create an API key and print it once (stdout); only its hash is stored."""
    expires_at = expiry(expires)
    with _key_store() as keys:
        key, who = keys.create(tenant, agent, admin=admin, expires_at=expires_at)
    _announce(f"created key {who.key_id}", key, who, expires_at)


def keys_list(
    tenant: Annotated[str | None, typer.Option(help="Only this tenant's keys.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Every stored key (revoked ones too), oldest first: its id, never the key."""
    with _key_store() as keys:
        records = keys.records(tenant)
    if as_json:
        echo_json([_as_dict(r) for r in records])
        return
    table = make_table()
    for name in ("key id", "tenant", "agent", "admin", "created", "expires", "state"):
        table.add_column(name)
    now = datetime.now(UTC)
    for r in records:
        table.add_row(
            r.key_id,
            Text(r.tenant),
            Text(r.agent_id or ""),
            "admin" if r.admin else "",
            _when(r.created_at),
            _when(r.expires_at),
            _state(r, now),
        )
    make_console().print(table if records else "no keys")


def keys_revoke(
    key_id: Annotated[str, typer.Argument(metavar="KEY_ID", help="The key's id (jiyi keys list).")],
) -> None:
    """Revoke a key: every server refuses it within one second."""
    with _key_store() as keys:
        if not keys.revoke(key_id):
            raise NotFoundError(f"no active key with id {key_id!r}", field="key_id")
    typer.echo(f"revoked key {key_id}", err=True)


def keys_rotate(
    key_id: Annotated[str, typer.Argument(metavar="KEY_ID", help="The key's id (jiyi keys list).")],
) -> None:
    """Replace a key: a new one, the old one revoked at the same moment.

    The new key (printed once) keeps the tenant, agent, admin flag and expiry."""
    with _key_store() as keys:
        rotated = keys.rotate(key_id)
        if rotated is None:
            raise NotFoundError(
                f"no active key with id {key_id!r} (revoked and expired keys are not rotated)",
                field="key_id",
            )
        key, who = rotated
        expires_at = next(
            (r.expires_at for r in keys.records(who.tenant) if r.key_id == who.key_id), None
        )
    _announce(f"rotated key {key_id}: new key {who.key_id}", key, who, expires_at)


def _when(t: datetime | None) -> str:
    return t.astimezone().strftime("%Y-%m-%d %H:%M") if t else ""


def _state(r: KeyRecord, now: datetime) -> str:
    if r.revoked_at is not None:
        return f"revoked {_when(r.revoked_at)}"
    if r.expires_at is not None and r.expires_at <= now:
        return "expired"
    return "active"


def _as_dict(r: KeyRecord) -> dict[str, object]:
    return {
        "key_id": r.key_id,
        "tenant": r.tenant,
        "agent_id": r.agent_id,
        "admin": r.admin,
        "created_at": r.created_at.isoformat(),
        "expires_at": r.expires_at.isoformat() if r.expires_at else None,
        "revoked_at": r.revoked_at.isoformat() if r.revoked_at else None,
    }


def register(app: typer.Typer) -> None:
    """Add ``jiyi keys …`` to the ``jiyi`` command group."""
    keys_app = typer.Typer(help="Manage API keys of the REST service.", no_args_is_help=True)
    keys_app.command("create")(keys_create)
    keys_app.command("list")(keys_list)
    keys_app.command("revoke")(keys_revoke)
    keys_app.command("rotate")(keys_rotate)
    app.add_typer(keys_app, name="keys")
