"""Human-readable output: rich tables of jiyi's result types.

User content is always wrapped in ``Text`` so brackets in it (``[手机号]``) are never read as
rich markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from jiyi.core.models import (
    AddResult,
    ContextBlock,
    DeletionReceipt,
    HistoryEntry,
    MemoryItem,
    Redaction,
    SearchHit,
    Skipped,
)

# Why a piece of input was not stored; unknown reasons are shown as their code.
SKIP_REASONS = {
    "assistant_text": "助手说的话，不当作用户事实 (assistant turn)",
    "system_text": "系统消息 (system turn)",
    "chit_chat": "寒暄闲聊 (chit-chat)",
    "no_personal_info": "没有可记的个人信息 (nothing personal)",
    "passive_behavior": "被动行为，不算偏好 (passive behaviour)",
    "empty": "空消息 (empty)",
    "low_confidence": "把握不够 (low confidence)",
    "not_user_stated": "不是用户本人说的 (not user-stated)",
    "forget_no_match": "要忘记的内容没找到 (nothing to forget)",
}
REDACTION_NAMES = {
    "phone": "手机号",
    "id_card": "身份证号",
    "bank_card": "银行卡号",
    "email": "邮箱",
}


def make_console(*, stderr: bool = False) -> Console:
    # No auto-highlighting: numbers and ids in memory content stay uncoloured.
    return Console(stderr=stderr, highlight=False)


def make_table(title: str | Text | None = None) -> Table:
    # Light borders: ids are 36 characters and must stay readable in an 80-column terminal.
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)


def _day(t: datetime) -> str:
    return t.astimezone().strftime("%Y-%m-%d")


def _when(t: datetime | None) -> str:
    return t.astimezone().strftime("%Y-%m-%d %H:%M") if t else ""


def skip_reason(reason: str) -> str:
    code, _, detail = reason.partition(":")
    text = SKIP_REASONS.get(code, code)
    return f"{text} {detail}".strip() if detail else text


def _kind_cell(m: MemoryItem) -> Text:
    # Topic under the kind: keeps the table narrow enough for 80 columns.
    cell = Text(m.kind.value)
    if m.topic:
        cell.append("\n" + m.topic, style="dim")
    return cell


def _content_cell(m: MemoryItem) -> Text:
    # The id under the content, unbroken, so it can be copied into `jiyi forget`/`history`.
    return Text(m.content).append("\n" + m.id, style="dim")


def memory_table(
    items: Sequence[MemoryItem],
    *,
    title: str | None = None,
    events: Sequence[str] | None = None,
    ids: bool = True,
    observed: bool = False,
    status: bool = False,
) -> Table:
    """kind, topic, content, importance of each memory; optionally the write event, the
    id (under the content), the status and the day it was observed."""
    table = make_table(title=title)
    if events is not None:
        table.add_column("event")
    if ids:
        table.add_column("kind / topic", max_width=20, overflow="ellipsis")
    else:
        table.add_column("kind")
        table.add_column("topic")
    table.add_column("content / id" if ids else "content", overflow="fold")
    table.add_column("imp.", justify="right")
    if status:
        table.add_column("status")
    if observed:
        table.add_column("observed", no_wrap=True)
    for i, m in enumerate(items):
        row: list[str | Text] = []
        if events is not None:
            row.append(events[i])
        if ids:
            row += [_kind_cell(m), _content_cell(m)]
        else:
            row += [m.kind.value, Text(m.topic or ""), Text(m.content)]
        row.append(f"{m.importance:.2f}")
        if status:
            row.append(m.status.value)
        if observed:
            row.append(_day(m.observed_at))
        table.add_row(*row)
    return table


def skipped_table(skipped: Sequence[Skipped], *, title: str | None = None) -> Table:
    table = make_table(title=title)
    table.add_column("text", overflow="fold", ratio=1)
    table.add_column("reason")
    for s in skipped:
        table.add_row(Text(s.text), skip_reason(s.reason))
    return table


def redactions_line(redactions: Sequence[Redaction]) -> str:
    if not redactions:
        return "没有发现个人敏感信息 (no PII found)"
    parts = [f"{REDACTION_NAMES.get(r.kind, r.kind)} ({r.kind}) ×{r.count}" for r in redactions]
    return "脱敏 (redacted): " + ", ".join(parts) + " — 原值不落盘 (values are never stored)"


def print_add_result(console: Console, result: AddResult, *, ids: bool = True) -> None:
    """What was stored, what was skipped and why, and the redactions."""
    if result.events:
        console.print(
            memory_table(
                [e.memory for e in result.events],
                ids=ids,
                events=[e.event.value for e in result.events],
                title="记下了 (stored)",
            )
        )
    else:
        console.print("没有抽取出新的记忆 (nothing extracted)")
    if result.skipped:
        console.print(skipped_table(result.skipped, title="跳过了 (skipped)"))
    console.print(redactions_line(result.redactions))
    if result.episodes:
        console.print(f"原话作为对话片段保存了 {len(result.episodes)} 条 (episodes kept)")


def print_items(console: Console, items: Sequence[MemoryItem], *, status: bool = False) -> None:
    if not items:
        console.print("没有记忆 (no memories)")
        return
    console.print(memory_table(items, observed=True, status=status))


def print_hits(console: Console, hits: Sequence[SearchHit]) -> None:
    if not hits:
        console.print("没有找到 (no hits)")
        return
    table = make_table()
    table.add_column("#", justify="right")
    table.add_column("score", justify="right")
    table.add_column("kind / topic", max_width=20, overflow="ellipsis")
    table.add_column("content / id", overflow="fold")
    table.add_column("observed", no_wrap=True)
    for i, h in enumerate(hits, 1):
        table.add_row(
            str(i),
            f"{h.score:.3f}",
            _kind_cell(h.memory),
            _content_cell(h.memory),
            _day(h.memory.observed_at),
        )
    console.print(table)


def print_history(console: Console, entries: Sequence[HistoryEntry]) -> None:
    if not entries:
        console.print("没有历史 (no history)")
        return
    table = make_table()
    table.add_column("at")
    table.add_column("action")
    table.add_column("version", justify="right")
    table.add_column("content", overflow="fold", min_width=16, ratio=1)
    table.add_column("reason")
    table.add_column("related")
    for e in entries:
        content = Text(e.content) if e.content is not None else Text("(erased)", style="dim")
        table.add_row(
            _when(e.at), e.action.value, str(e.version), content, e.reason or "", e.related_id or ""
        )
    console.print(table)


def print_context(console: Console, block: ContextBlock) -> None:
    # Printed as-is (no panel, no wrapping) so it can be pasted into a prompt.
    console.print(Text(block.text), soft_wrap=True)
    n = len(block.memories)
    console.print(
        Text(f"({block.tokens} tokens, {n} memor{'y' if n == 1 else 'ies'})", style="dim")
    )


def print_receipt(console: Console, receipt: DeletionReceipt) -> None:
    table = make_table(title=Text(f"已删除用户 {receipt.user_id} 的全部数据 (deleted)"))
    table.add_column("what")
    table.add_column("rows", justify="right")
    for k, v in receipt.removed.items():
        table.add_row(k, str(v))
    console.print(table)
