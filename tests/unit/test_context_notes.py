"""A fact's notes (its history, "may have changed since", a goal's status) share one bracket."""

from __future__ import annotations

from datetime import UTC, datetime

from jiyi.core.context import assemble_context
from jiyi.core.models import MemoryItem, MemoryKind, SearchHit

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def _fact(mid: str, content: str, **kw: object) -> MemoryItem:
    return MemoryItem(
        id=mid,
        user_id="u",
        kind=MemoryKind.FACT,
        content=content,
        created_at=T0,
        observed_at=T0,
        **kw,  # type: ignore[arg-type]
    )


def _lines(query: str, hit: SearchHit, old: MemoryItem) -> list[str]:
    block = assemble_context([hit], query=query, token_budget=500, now=T0, previous={old.id: old})
    return [line for line in block.text.splitlines() if hit.memory.content in line]


def test_history_and_changed_label_share_one_bracket_in_chinese() -> None:
    old = _fact("m0", "用户住在北京")
    new = _fact("m1", "用户住在上海", supersedes="m0")
    hit = SearchHit(memory=new, score=1.0, scores={"followed": 1.0})
    assert _lines("我住哪", hit, old) == ["- 用户住在上海（以前：用户住在北京；后来可能已变）"]


def test_history_and_changed_label_share_one_bracket_in_english() -> None:
    old = _fact("m0", "User lives in Leeds")
    new = _fact("m1", "User lives in York", supersedes="m0")
    hit = SearchHit(memory=new, score=1.0, scores={"followed": 1.0})
    assert _lines("where do I live", hit, old) == [
        "- User lives in York (previously: User lives in Leeds; may have changed since)"
    ]


def test_a_single_note_keeps_its_own_bracket() -> None:
    old = _fact("m0", "用户住在北京")
    new = _fact("m1", "用户住在上海", supersedes="m0")
    hit = SearchHit(memory=new, score=1.0)
    assert _lines("我住哪", hit, old) == ["- 用户住在上海（以前：用户住在北京）"]
