"""``jiyi export --user U > u.json`` (or ``--format jsonl > u.jsonl``) and the export branch
of ``jiyi import FILE``: one user as a versioned JSON document (``jiyi.transfer``) or in its
JSON Lines layout (``jiyi.transfer_lines``), written to stdout and read back in one
transaction."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from jiyi.cli.options import PathOpt, echo_json, open_memory
from jiyi.transfer import FORMAT
from jiyi.transfer_lines import dump_lines, is_lines


class ExportFormat(StrEnum):
    JSON = "json"
    JSONL = "jsonl"


def export(
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memory to export.")],
    path: PathOpt = None,
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="json: one document; jsonl: a header line, then one record per line.",
        ),
    ] = ExportFormat.JSON,
) -> None:
    """Write everything stored about a user on stdout, as one versioned document.

    Memories with history and vectors, tasks, the memory switch, hashed aliases and the
    identity log: one JSON document, or with --format jsonl a header line (version,
    tenant, user, counts) and one record a line."""
    with open_memory(path, existing=True) as mem:
        doc = mem.export(user)
    if fmt is ExportFormat.JSONL:
        for line in dump_lines(doc):
            typer.echo(line, nl=False)
    else:
        typer.echo(doc.model_dump_json())


def is_export(file: Path) -> bool:
    """Whether ``file`` is a jiyi export, either layout (else a chat log for ``jiyi import``):
    told by its start, never by the name alone — a chat log may be ``.jsonl`` too."""
    with file.open("rb") as f:
        head = f.read(65536)
    if is_lines(head):
        return True
    if file.suffix.lower() != ".json":
        return False
    return f'"format":"{FORMAT}"' in head[:4096].decode("utf-8", "replace").replace(" ", "")


def import_export(file: Path, user: str | None, remap: bool, path: Path | None) -> None:
    """Import one export (all of it or nothing) and print the counts as JSON."""
    document = file.read_bytes()  # parsed by import_: bad JSON is one error line, not a trace
    with open_memory(path) as mem:
        counts = mem.import_(document, user, remap=remap)
    echo_json({"file": str(file), "imported": counts})
