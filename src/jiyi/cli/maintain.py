"""``jiyi maintain``: run the lifecycle now — by default decay, archive what expired, purge
what was archived past the retention period, merge duplicates; ``--only`` picks steps
(``rollup``, ``reflect``, ``backfill`` … or ``all``) — for one user or every user of the
store, with a progress bar, and print what it did (``--dry-run``: what it would do).
``jiyi health`` reports per user, or for a whole tenant (``--tenant``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from jiyi.cli.options import JsonOpt, PathOpt, echo_json, open_memory
from jiyi.cli.output import make_console, make_table
from jiyi.core.models import HealthReport, MaintenanceReport, TenantHealth
from jiyi.memory import Memory
from jiyi.pipeline.maintain import DEFAULT_STEPS, STEPS, parse_steps

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
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            help=f"Steps to run, comma-separated ({', '.join(STEPS)}, or all); "
            f"default: {','.join(DEFAULT_STEPS)}.",
        ),
    ] = None,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run the memory lifecycle now: decay, archive, purge, merge.

    With --only: also the weekly roll-up, profile reflection or embedding backfill."""
    steps = parse_steps(only)
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
    with open_memory(path, existing=True) as mem, bar:
        users = _users(mem, user)
        task = bar.add_task("users", total=len(users) * len(steps))
        for uid in users:

            def advanced(step: str, done: int, total: int, uid: str = uid) -> None:
                bar.update(task, description=f"{uid}: {step}")
                bar.advance(task)

            reports.append(mem.maintain(uid, dry_run=dry_run, steps=steps, progress=advanced))
    took = time.perf_counter() - t0
    if as_json:
        echo_json({"dry_run": dry_run, "seconds": round(took, 3), "users": reports})
        return
    _print_reports(reports, steps, dry_run, took)


_COLUMNS: dict[str, tuple[str, Callable[[MaintenanceReport], str]]] = {  # step → column
    "sweep": ("archived", lambda r: _archived(r)),
    "purge": ("purged", lambda r: str(r.purged)),
    "merge": ("merged", lambda r: str(r.merged)),
    "rollup": ("rolled up", lambda r: str(r.rolled_up)),
    "reflect": ("reflections", lambda r: str(r.reflected)),
    "backfill": ("re-embedded", lambda r: f"{r.backfilled} ({r.stale_vectors} left)"),
}


def _archived(r: MaintenanceReport) -> str:
    why = ", ".join(f"{n} {reason}" for reason, n in r.archived.items())
    return f"{sum(r.archived.values())}" + (f" ({why})" if why else "")


def _print_reports(
    reports: list[MaintenanceReport], steps: tuple[str, ...], dry_run: bool, took: float
) -> None:
    title = "maintenance (dry run: nothing written)" if dry_run else "maintenance"
    table = make_table(title=title)
    shown = [_COLUMNS[s] for s in steps]
    table.add_column("user")
    table.add_column("examined", justify="right")
    for column, _ in shown:
        table.add_column(column, justify="right")
    table.add_column("active", justify="right")
    for r in reports:
        table.add_row(r.user_id, str(r.examined), *(value(r) for _, value in shown), str(r.active))
    out = make_console()
    out.print(table)
    out.print(f"{len(reports)} user(s), steps {', '.join(steps)}, in {took:.2f} s")


def health(
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="Only this user (default: every user of the store)."),
    ] = None,
    tenant: Annotated[
        str | None,
        typer.Option("--tenant", "-t", help="One line for this whole tenant, users added up."),
    ] = None,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Memory health per user, or per tenant with --tenant.

    Counts by status, stale, never used, expiring, due for archive or purge, and vectors
    left to backfill."""
    with open_memory(path, existing=True) as mem:
        if tenant is not None:
            total = Memory.on(mem.engine, tenant).tenant_health()
        else:
            reports = [mem.health(uid) for uid in _users(mem, user)]
    if tenant is not None:
        if as_json:
            echo_json(total)
            return
        _print_health(f"memory health of tenant {tenant} ({total.users} users)", [total])
        return
    if as_json:
        echo_json(reports)
        return
    _print_health("memory health", reports)


def _print_health(title: str, rows: Sequence[HealthReport | TenantHealth]) -> None:
    table = make_table(title=title)
    columns = ("who", "active", "archived", "superseded", "stale", "never used", "expiring")
    for column in (*columns, "due archive", "due purge", "to backfill"):
        table.add_column(column, justify="left" if column == "who" else "right")
    for r in rows:
        table.add_row(
            r.user_id if isinstance(r, HealthReport) else r.tenant,
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
                    r.stale_vectors,
                )
            ),
        )
    make_console().print(table)
