"""``jiyi import FILE``: bring a chat history into memory at embedding speed, resumably.

Conversations (see :mod:`jiyi.cli.chatlogs`) are written in batches of ``--batch`` messages,
one ``Memory.add`` each: one transaction and one embedding call per batch, every text embedded
once. The batch size was chosen with ``bench/ingest.py``: messages/s is flat from 4 to 256
messages per add (one message per add is ~10 % slower: every add has a transaction and an id
check), so 64 keeps the commits few while a crash loses at most one small batch.
Each batch after the first of a conversation repeats the previous message, which is already
stored and skipped, so the first new turn is embedded with the turn before it, as in one add.

**Resumable.** Every message has a stable id, and the store remembers the ids it consumed: a
batch whose ids are all consumed is skipped without any work, and a re-run (after Ctrl-C, a
crash, or with a longer version of the file) stores only what is new.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from jiyi.cli.chatlogs import Conversation, LogFormat, read_chat_log
from jiyi.cli.options import AgentOpt, JsonOpt, PathOpt, echo_json, open_memory
from jiyi.cli.output import make_console, make_table
from jiyi.cli.transfer import import_export, is_export
from jiyi.core.models import Action, Scope
from jiyi.memory import Memory

BATCH = 64  # messages per add; see the module docstring and bench/ingest.py


class RateColumn(ProgressColumn):
    """Messages per second, as rich measures the task's speed."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.0f} msg/s", style="progress.data.speed")


@dataclass
class ImportReport:
    """What one ``jiyi import`` run did."""

    file: str
    format: str
    conversations: int = 0
    messages: int = 0  # read from the file (after skipping tool output and empty turns)
    stored: int = 0  # new episodes written by this run
    already_imported: int = 0  # ids consumed by an earlier run
    not_stored: int = 0  # read, but skipped by the write path (PII policy, forget requests …)
    skipped_in_file: int = 0  # tool/function output and empty messages
    memories: int = 0  # facts, preferences … added or superseding by this run
    seconds: float = 0.0
    users: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        rate = self.messages / self.seconds if self.seconds else 0.0
        return {
            **self.__dict__,
            "seconds": round(self.seconds, 2),
            "messages_per_s": round(rate, 1),
        }


def import_conversations(
    mem: Memory,
    conversations: list[Conversation],
    *,
    agent_id: str | None,
    infer: bool,
    batch: int,
    report: ImportReport,
    advance: Any = None,
) -> None:
    """Write ``conversations`` into ``mem`` in batches; ``advance(n, label)`` after each."""
    step = advance or (lambda n, label: None)
    for conv in conversations:
        scope = Scope(tenant=mem.config.tenant, user_id=conv.user_id, agent_id=agent_id)
        msgs = conv.messages
        label = f"{conv.user_id}/{conv.session_id or '-'}"
        for start in range(0, len(msgs), batch):
            chunk = msgs[start : start + batch]
            seen = mem.store.seen_messages(scope, [m["id"] for m in chunk])
            report.already_imported += len(seen)
            if len(seen) == len(chunk):  # resumed past this batch: no work at all
                step(len(chunk), label)
                continue
            context = msgs[start - 1 : start] if start else []  # stored; gives turn context
            result = mem.add(
                context + chunk,
                user_id=conv.user_id,
                agent_id=agent_id,
                session_id=conv.session_id,
                timestamp=conv.timestamp,
                infer=infer,
            )
            report.stored += len(result.episodes)
            report.not_stored += len(chunk) - len(seen) - len(result.episodes)
            report.memories += sum(e.event in (Action.ADD, Action.SUPERSEDE) for e in result.events)
            step(len(chunk), label)


def import_(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE", exists=True, dir_okay=False, help="The chat log (.jsonl or .json)."
        ),
    ],
    user: Annotated[
        str | None,
        typer.Option(
            "--user", "-u", help="Whose memory (else each line's user_id; LoCoMo: the sample id)."
        ),
    ] = None,
    agent: AgentOpt = None,
    fmt: Annotated[
        LogFormat,
        typer.Option("--format", "-f", help="jsonl, openai or locomo; auto guesses from the file."),
    ] = LogFormat.AUTO,
    batch: Annotated[
        int, typer.Option("--batch", min=1, max=256, help="Messages per add (one transaction).")
    ] = BATCH,
    no_infer: Annotated[
        bool, typer.Option("--no-infer", help="Store the messages as episodes only.")
    ] = False,
    path: PathOpt = None,
    as_json: JsonOpt = False,
    remap: Annotated[
        bool,
        typer.Option("--remap", help="An export document: take another user's as --user's."),
    ] = False,
) -> None:
    """Import a chat history (JSONL, OpenAI messages, LoCoMo) or a 'jiyi export' document.

    A chat history is resumable: a re-run stores only messages not imported before. An
    export (JSON, or JSON Lines from 'jiyi export --format jsonl') is imported as one user,
    in one transaction (same ids; importing it twice stores it once)."""
    if is_export(file):
        import_export(file, user, remap, path)
        return
    found, conversations = read_chat_log(file, fmt, user)
    report = ImportReport(file=str(file), format=found.value, conversations=len(conversations))
    report.messages = sum(len(c.messages) for c in conversations)
    report.skipped_in_file = sum(c.skipped for c in conversations)
    report.users = sorted({c.user_id for c in conversations})
    err = make_console(stderr=True)
    bar = Progress(
        TextColumn("[bold]import[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err,
        transient=as_json,
    )
    t0 = time.perf_counter()
    with open_memory(path) as mem, bar:
        task = bar.add_task(file.name, total=report.messages)

        def advance(n: int, label: str) -> None:
            bar.update(task, advance=n, description=label)

        import_conversations(
            mem,
            conversations,
            agent_id=agent,
            infer=not no_infer,
            batch=batch,
            report=report,
            advance=advance,
        )
    report.seconds = time.perf_counter() - t0
    if as_json:
        echo_json(report.as_dict())
        return
    out = make_console()
    table = make_table(title=f"imported {file.name} ({report.format})")
    table.add_column("")
    table.add_column("", justify="right")
    d = report.as_dict()
    for key, label in [
        ("conversations", "conversations"),
        ("messages", "messages read"),
        ("stored", "stored now"),
        ("already_imported", "imported before (skipped)"),
        ("not_stored", "not stored (PII policy, forget requests)"),
        ("skipped_in_file", "tool output / empty (skipped)"),
        ("memories", "memories extracted"),
        ("messages_per_s", "messages/s"),
    ]:
        table.add_row(label, str(d[key]))
    out.print(table)
