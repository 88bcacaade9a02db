"""``jiyi export --user U > u.json`` and the export branch of ``jiyi import FILE``: one user
as a versioned JSON document (``jiyi.transfer``), written to stdout and read back in one
transaction."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jiyi.cli.options import PathOpt, echo_json, open_memory
from jiyi.transfer import FORMAT


def export(
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memory to export.")],
    path: PathOpt = None,
) -> None:
    """Write everything stored about a user as one JSON document on stdout (memories with
    history and vectors, tasks, the memory switch, hashed aliases, identity log)."""
    with open_memory(path) as mem:
        doc = mem.export(user)
    typer.echo(doc.model_dump_json())


def is_export(file: Path) -> bool:
    """Whether ``file`` is a jiyi export document (else a chat log for ``jiyi import``)."""
    if file.suffix.lower() != ".json":
        return False
    with file.open("rb") as f:
        head = f.read(4096)
    return f'"format":"{FORMAT}"' in head.decode("utf-8", "replace").replace(" ", "")


def import_export(file: Path, user: str | None, remap: bool, path: Path | None) -> None:
    """Import one export document (all of it or nothing) and print the counts as JSON."""
    document = file.read_bytes()  # parsed by import_: bad JSON is one error line, not a trace
    with open_memory(path) as mem:
        counts = mem.import_(document, user, remap=remap)
    echo_json({"file": str(file), "imported": counts})
