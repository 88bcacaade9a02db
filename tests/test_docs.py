"""The docs keep up with the code: every setting, every ``JIYI_*`` variable the code reads
and every CLI command is named in README.md or docs/*.md.

When one fails, document the new name (the configuration table of docs/server.md is the
usual place) rather than loosening the check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer.main

from jiyi.cli.main import app
from jiyi.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def documentation() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in DOCS)


def variables_in_code() -> set[str]:
    """Every ``JIYI_*`` name written in the package's source (settings, ``os.environ``
    reads, messages that tell the user to set one)."""
    names: set[str] = set()
    for path in (ROOT / "src" / "jiyi").rglob("*.py"):
        names |= set(re.findall(r"\bJIYI_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    return names


def commands(command: Any, path: tuple[str, ...] = ("jiyi",)) -> Iterator[str]:
    """``jiyi add``, ``jiyi keys create`` …: every leaf command of the typer app."""
    subcommands = getattr(command, "commands", None)
    if not subcommands:
        yield " ".join(path)
        return
    for name, sub in sorted(subcommands.items()):
        yield from commands(sub, (*path, name))


def test_every_setting_is_documented_as_its_variable() -> None:
    docs = documentation()
    missing = [f"JIYI_{name.upper()}" for name in Settings.model_fields]
    assert [v for v in missing if v not in docs] == []


def test_every_variable_the_code_names_is_documented() -> None:
    docs = documentation()
    assert sorted(v for v in variables_in_code() if v not in docs) == []


def test_every_cli_command_is_documented() -> None:
    docs = documentation()
    found = list(commands(typer.main.get_command(app)))
    assert "jiyi keys create" in found and "jiyi serve" in found  # the walk itself works
    assert [c for c in found if c not in docs] == []
