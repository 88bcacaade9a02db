"""``jiyi``: the command group and the memory commands.

Every command takes ``--path`` (the SQLite file) and prints rich tables, or JSON with
``--json``. Expected errors (any JiyiError) print one line to stderr and exit with code 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from jiyi import __version__
from jiyi.cli.bench import bench_app
from jiyi.cli.calibrate import calibrate
from jiyi.cli.demo import demo
from jiyi.cli.importer import import_
from jiyi.cli.keys import register as _register_keys
from jiyi.cli.maintain import health, maintain
from jiyi.cli.mcp import register as _register_mcp
from jiyi.cli.options import (
    AgentOpt,
    JiyiGroup,
    JsonOpt,
    PathOpt,
    UserOpt,
    echo_json,
    open_memory,
)
from jiyi.cli.output import (
    make_console,
    print_add_result,
    print_context,
    print_history,
    print_hits,
    print_items,
    print_receipt,
)
from jiyi.cli.transfer import export
from jiyi.core.inputs import check_id
from jiyi.errors import InvalidInputError

app = typer.Typer(
    cls=JiyiGroup,
    name="jiyi",
    help="记忆 jiyi: cross-session memory for AI agents (Chinese and English).",
    no_args_is_help=True,
    add_completion=False,
    # A traceback's locals would hold memory content; never print them.
    pretty_exceptions_show_locals=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"jiyi {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """记忆 jiyi: cross-session memory for AI agents (Chinese and English)."""


@app.command()
def add(
    text: Annotated[str, typer.Argument(help="The message, e.g. 我对花生过敏.")],
    user: UserOpt,
    agent: AgentOpt = None,
    session: Annotated[
        str | None,
        typer.Option("--session", "-s", help="The conversation this message belongs to."),
    ] = None,
    role: Annotated[str, typer.Option(help="Who said it: user, assistant or system.")] = "user",
    no_infer: Annotated[
        bool,
        typer.Option("--no-infer", help="Keep the message as an episode only; extract nothing."),
    ] = False,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Remember a message: extract facts/preferences, redact PII, reconcile."""
    # The library skips an empty message in a batch; typed alone (an unset shell variable),
    # it is a mistake, not a message.
    if not text.strip():
        raise InvalidInputError(
            'text is empty; give the message to remember, e.g. jiyi add "我对花生过敏" --user ID',
            field="text",
        )
    with open_memory(path) as mem:
        result = mem.add(
            [{"role": role, "content": text}],
            user_id=user,
            agent_id=agent,
            session_id=session,
            infer=not no_infer,
        )
    if as_json:
        echo_json(result)
    else:
        print_add_result(make_console(), result)


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for, in any language.")],
    user: UserOpt,
    agent: AgentOpt = None,
    top_k: Annotated[int, typer.Option("--top-k", "-k", help="How many hits (1-200).")] = 10,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind",
            help="Only this kind (repeatable): fact, preference, event, goal, state, "
            "summary, episode.",
        ),
    ] = None,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Hybrid search (keywords + meaning + time words), best first."""
    with open_memory(path, existing=True) as mem:
        hits = mem.search(query, user_id=user, agent_id=agent, top_k=top_k, kinds=kind or None)
    if as_json:
        echo_json(hits)
    else:
        print_hits(make_console(), hits)


@app.command("list")
def list_(
    user: UserOpt,
    agent: AgentOpt = None,
    all_: Annotated[
        bool, typer.Option("--all", help="Also superseded memories and episodes (raw messages).")
    ] = False,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A user's memories, oldest first."""
    with open_memory(path, existing=True) as mem:
        items = mem.list(
            user_id=user, agent_id=agent, include_superseded=all_, include_episodes=all_
        )
    if as_json:
        echo_json(items)
    else:
        print_items(make_console(), items, status=all_)


@app.command()
def forget(
    memory_id: Annotated[
        str | None,
        typer.Argument(
            metavar="ID", help="The memory to delete (or use --user).", show_default=False
        ),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="Delete everything stored about this user instead."),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Hard-delete one memory (ID), or everything of a user (--user)."""
    if memory_id is None and user is None:
        raise InvalidInputError(
            "give a memory ID, or --user to delete all of a user's data", field="memory_id"
        )
    if memory_id is not None and user is not None:
        raise InvalidInputError("give a memory ID or --user, not both", field="user_id")
    if user is not None:
        check_id(user, "user_id")
        if not yes:
            typer.confirm(
                f"Delete everything stored about user {user!r}? This cannot be undone", abort=True
            )
    with open_memory(path, existing=True) as mem:
        if user is not None:
            receipt = mem.delete_user(user)
        else:
            assert memory_id is not None
            mem.delete(memory_id)
    if user is not None:
        if as_json:
            echo_json(receipt)
        else:
            print_receipt(make_console(), receipt)
    elif as_json:
        echo_json({"deleted": memory_id})
    else:
        make_console().print(f"已删除 (deleted) {memory_id}")


@app.command()
def history(
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="The memory.")],
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The audit trail of a memory, oldest first (content is erased after a delete)."""
    with open_memory(path, existing=True) as mem:
        entries = mem.history(memory_id)
    if as_json:
        echo_json(entries)
    else:
        print_history(make_console(), entries)


@app.command()
def context(
    query: Annotated[str, typer.Argument(help="The current turn, e.g. 帮我挑杯咖啡吧.")],
    user: UserOpt,
    agent: AgentOpt = None,
    budget: Annotated[int, typer.Option(help="Token budget of the block (≥ 50).")] = 800,
    path: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The memory block for a system prompt: what is relevant to QUERY, within budget."""
    with open_memory(path, existing=True) as mem:
        block = mem.context(query, user_id=user, agent_id=agent, token_budget=budget)
    if as_json:
        echo_json(block)
    else:
        print_context(make_console(), block)


app.command()(demo)
app.command("import")(import_)
app.command()(export)
app.command()(calibrate)
app.command()(maintain)
app.command()(health)
app.add_typer(bench_app, name="bench")
_register_keys(app)
_register_mcp(app)

try:  # `jiyi serve` needs the server extra (fastapi); without it the CLI still works.
    from jiyi.cli.serve import register as _register_serve
except ImportError:
    pass
else:
    _register_serve(app)

try:  # `jiyi worker` runs the durable queue's jobs (the server extra is not needed).
    from jiyi.cli.worker import register as _register_worker
except ImportError:
    pass
else:
    _register_worker(app)
