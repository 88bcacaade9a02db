"""The context block on the real default embedder: only what the user said, only what is
relevant, dates of the day things happen in the user's timezone, and corrected facts shown
as current with their history labelled."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from jiyi import Memory, MemoryConfig

SHANGHAI = ZoneInfo("Asia/Shanghai")


def memory_lines(text: str) -> list[str]:
    """The remembered lines of a block (no header, group labels, profile lines or footer)."""
    lines, group = [], ""
    for line in text.splitlines():
        if line.startswith("["):
            group = line
        elif line.startswith("- ") and group not in ("[用户档案]", "[User profile]"):
            lines.append(line)
    return lines


def test_coffee_context_has_no_assistant_text_pii_line_or_irrelevant_fact(
    real_mem: Memory, clock
) -> None:  # type: ignore[no-untyped-def]
    real_mem.add(
        [
            {"role": "user", "content": "我喝咖啡不加糖，只喝冷萃"},
            {"role": "assistant", "content": "好的，那我推荐你试试燕麦拿铁，口感顺滑。"},
            {"role": "user", "content": "我的手机号是13812345678"},
            {"role": "user", "content": "我家猫叫阿橘"},
        ],
        user_id="ctx-coffee",
        session_id="s-1",
    )
    clock.advance(days=1)
    # The raw search does rank the assistant's turn and the PII-only message high...
    found = [h.memory.content for h in real_mem.search("帮我推荐一杯咖啡", user_id="ctx-coffee")]
    assert "好的，那我推荐你试试燕麦拿铁，口感顺滑。" in found
    # ...the block leaves them out.
    ctx = real_mem.context("帮我推荐一杯咖啡", user_id="ctx-coffee")
    lines = memory_lines(ctx.text)
    assert lines == ["- 用户喝咖啡只喝冷萃，不加糖"]  # one order, the sugar a part of it
    assert "燕麦拿铁" not in ctx.text and "[手机号]" not in ctx.text
    # The cat is no memory line of a coffee turn; only the profile (who the user is) names it.
    assert not [line for line in lines if "阿橘" in line or "猫" in line]
    assert "- 宠物：猫叫阿橘" in ctx.text
    assert all((m.role or "user") == "user" for m in ctx.memories)


def test_allergy_is_pinned_into_an_unrelated_context(shared_real_mem: Memory) -> None:
    user = "ctx-pinned"
    shared_real_mem.add("我对花生过敏", user_id=user)
    shared_real_mem.add("我家猫叫阿橘", user_id=user)
    ctx = shared_real_mem.context("推荐个周末去处", user_id=user)
    assert memory_lines(ctx.text) == ["- 用户对花生过敏"]


def test_plan_shows_the_day_it_happens_in_the_users_timezone(real_mem: Memory, clock) -> None:  # type: ignore[no-untyped-def]
    clock.now = datetime(2026, 11, 29, 10, 0, tzinfo=SHANGHAI).astimezone(UTC)
    res = real_mem.add("明天去上海出差", user_id="ctx-trip")
    (plan,) = [e.memory for e in res.events]
    clock.advance(hours=2)
    ctx = real_mem.context("我的出差安排", user_id="ctx-trip", timezone="Asia/Shanghai")
    (line,) = [line for line in memory_lines(ctx.text) if "出差" in line]
    assert "2026-11-30" in line and "2026-11-29" in line  # the day of the trip; said the day before
    assert line.index("2026-11-30") < line.index("2026-11-29")
    assert plan.valid_from is not None


def test_plan_said_after_local_midnight_resolves_in_the_users_timezone(tmp_path, e5) -> None:  # type: ignore[no-untyped-def]
    said = datetime(2026, 11, 29, 0, 30, tzinfo=SHANGHAI)
    mem = Memory(
        tmp_path / "jiyi.db",
        embedder=e5,
        clock=lambda: said.astimezone(UTC),
        config=MemoryConfig(timezone="Asia/Shanghai"),
    )
    try:
        mem.add("明天去上海出差", user_id="ctx-midnight")
        ctx = mem.context("我的出差安排", user_id="ctx-midnight", timezone="Asia/Shanghai")
        (line,) = [line for line in memory_lines(ctx.text) if "出差" in line]
        assert "2026-11-30" in line
    finally:
        mem.close()


def test_corrected_city_is_current_and_the_old_one_only_labelled_history(
    real_mem: Memory, clock
) -> None:  # type: ignore[no-untyped-def]
    user = "ctx-moved"
    real_mem.add("我住在北京", user_id=user)
    clock.advance(days=3)
    real_mem.add("我对花生过敏", user_id=user)
    clock.advance(days=3)
    real_mem.add("其实我不住北京了，搬到上海了", user_id=user)
    clock.advance(days=1)

    ctx = real_mem.context("我住在哪里", user_id=user)
    lines = memory_lines(ctx.text)
    assert lines[0] == "- 用户住在上海（以前：用户住在北京）"
    assert "- 用户住在北京" not in lines
    assert [line for line in lines if "北京" in line] == [lines[0]]
    assert "- 用户对花生过敏" in lines  # pinned

    # Asked about Beijing itself, the old words may come back — but never as current.
    for query in ("北京有什么好吃的", "我在北京住的时候", "北京"):
        block = real_mem.context(query, user_id=user)
        for line in memory_lines(block.text):
            if line.endswith("我住在北京"):
                assert "已过时" in line, block.text
            assert line != "- 用户住在北京", block.text

    en = real_mem.context("where do I live", user_id=user)
    assert memory_lines(en.text)[0] == "- 用户住在上海 (previously: 用户住在北京)"


def test_english_correction_is_labelled_in_english(shared_real_mem: Memory) -> None:
    user = "ctx-moved-en"
    shared_real_mem.add("I live in Boston", user_id=user)
    shared_real_mem.add("actually I moved to Denver", user_id=user)
    ctx = shared_real_mem.context("where do I live", user_id=user)
    lines = memory_lines(ctx.text)
    assert lines[0] == "- User lives in Denver (previously: User lives in Boston)"
    assert not [line for line in lines if "Boston" in line and line != lines[0]]
