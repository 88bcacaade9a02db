"""``jiyi maintain``: run the lifecycle now — decay, archive what expired, purge what was
archived past the retention period, merge duplicates — for one user or every user of the
store, with a progress bar, and print what it did (``--dry-run``: what it would do)."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from jiyi.cli.options import JsonOpt, PathOpt, echo_json, open_memory
from jiyi.cli.output import make_console, make_table
from jiyi.core.models import MaintenanceReport
from jiyi.memory import Memory

PAGE = 500


def _users(mem: Memory, user: str | None) -> list[str]:
    if user is not None:
        return [user]
    found: list[str] = []
    after: str | None = None
    while True:
        page = mem.users(after=after, limit=PAGE)
        found += [u.user_id for u in page]
        if len(page) < PAGE:
            return found
        after = page[-1].user_id


def maintain(
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="Only this user (default: every user of the store)."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report what would change; write nothing.")
    ] = False,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run the memory lifecycle now: decay, archive, purge, merge duplicates."""
    reports: list[MaintenanceReport] = []
    err = make_console(stderr=True)
    bar = Progress(
        TextColumn("[bold]maintain[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=as_json,
    )
    t0 = time.perf_counter()
    with open_memory(path) as mem, bar:
        users = _users(mem, user)
        task = bar.add_task("users", total=len(users))
        for uid in users:
            bar.update(task, description=uid)
            reports.append(mem.maintain(uid, dry_run=dry_run))
            bar.advance(task)
    took = time.perf_counter() - t0
    if as_json:
        echo_json({"dry_run": dry_run, "seconds": round(took, 3), "users": reports})
        return
    title = "maintenance (dry run: nothing written)" if dry_run else "maintenance"
    table = make_table(title=title)
    for column in ("user", "examined", "archived", "purged", "merged", "decayed", "active"):
        table.add_column(column, justify="left" if column == "user" else "right")
    for r in reports:
        why = ", ".join(f"{n} {reason}" for reason, n in r.archived.items())
        archived = f"{sum(r.archived.values())}" + (f" ({why})" if why else "")
        table.add_row(
            r.user_id,
            str(r.examined),
            archived,
            str(r.purged),
            str(r.merged),
            str(r.decayed),
            str(r.active),
        )
    out = make_console()
    out.print(table)
    out.print(f"{len(reports)} user(s) in {took:.2f} s")


def health(
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="Only this user (default: every user of the store)."),
    ] = None,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Memory health: counts by status, stale, never used, expiring, due for archive/purge."""
    with open_memory(path) as mem:
        reports = [mem.health(uid) for uid in _users(mem, user)]
    if as_json:
        echo_json(reports)
        return
    table = make_table(title="memory health")
    columns = ("user", "active", "archived", "superseded", "stale", "never used", "expiring")
    for column in (*columns, "due archive", "due purge"):
        table.add_column(column, justify="left" if column == "user" else "right")
    for r in reports:
        table.add_row(
            r.user_id,
            *(
                str(n)
                for n in (
                    r.active,
                    r.archived,
                    r.superseded,
                    r.stale,
                    r.never_used,
                    r.expiring_soon,
                    r.due_archive,
                    r.due_purge,
                )
            ),
        )
    make_console().print(table)
