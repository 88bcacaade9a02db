"""``jiyi demo``: a scripted two-session Chinese walkthrough, offline, with the real embedder.

Session 1 stores what the user said (showing what was kept, skipped and redacted); the
memory is closed; session 2 opens a new ``Memory`` on the same file and recalls it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from jiyi.cli.options import open_memory
from jiyi.cli.output import make_console, make_table, print_add_result, print_context

USER = "xiaoming"
SESSION_1: list[dict[str, Any]] = [
    {"role": "user", "content": "我喝咖啡不加糖，只喝冷萃，最近在减肥，别推荐带奶油的"},
    {"role": "assistant", "content": "好的，记住了：不加糖的冷萃，不要奶油。"},
    {"role": "user", "content": "哈哈好的"},
    {"role": "user", "content": "我手机号是13812345678，有新品到了可以发短信给我"},
]
SESSION_2_QUERY = "帮我挑杯咖啡吧"


def _step(console: Console, n: int, text: str) -> None:
    console.print()
    console.print(Text(f"[{n}] {text}", style="bold cyan"))


def run_demo(console: Console, path: Path) -> None:
    """Print the two sessions, storing into ``path``."""
    _step(console, 1, f"打开记忆库 (open the memory): {path}")
    with open_memory(path) as mem:
        _step(console, 2, "会话 1：用户和助手聊了几句 (session 1)")
        table = make_table()
        table.add_column("role")
        table.add_column("content", overflow="fold")
        for m in SESSION_1:
            table.add_row(m["role"], Text(m["content"]))
        console.print(table)

        _step(
            console,
            3,
            "mem.add()：抽取、脱敏、去重，一次写入 (extract, redact, store)；首次加载模型约 1 秒",
        )
        result = mem.add(SESSION_1, user_id=USER, session_id="session-1")
        print_add_result(console, result, ids=False)

    _step(console, 4, "关闭会话 1 的 Memory (close it) — 内存里什么都不留 (nothing kept in RAM)")

    _step(
        console,
        5,
        "会话 2：新的 Memory 打开同一个文件 (session 2: a new Memory, same file)；"
        f"用户说：{SESSION_2_QUERY}",
    )
    with open_memory(path) as mem:
        block = mem.context(SESSION_2_QUERY, user_id=USER)
    _step(console, 6, "mem.context()：放进系统提示词的记忆块 (the system-prompt block)")
    console.rule(style="dim")
    print_context(console, block)
    console.rule(style="dim")
    console.print("助手据此推荐，而不用再问一遍 (recalled across sessions)")


def demo(
    path: Annotated[
        Path | None,
        typer.Option(
            "--path",
            "-p",
            dir_okay=False,
            help="SQLite file to use (default: a fresh temporary one, deleted afterwards).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """A two-session Chinese demo: remember in session 1, recall in session 2."""
    console = make_console()
    if path is not None:
        run_demo(console, path)
        return
    with tempfile.TemporaryDirectory(prefix="jiyi-demo-") as tmp:
        run_demo(console, Path(tmp) / "demo.db")
