"""What a contrast takes back: the wrong value of "不是A，是B" / "not A, it's B" when the
clause that names B repeats the frame A was said in (对海鲜过敏 / 是对尘螨过敏 → 海鲜)."""

from __future__ import annotations

import re

from jiyi.core.text import has_cjk

__all__ = ["parallel_value", "words_of"]


def parallel_value(old: str, new: str) -> str:
    """What differs in a contrast: 对海鲜过敏 against 是对尘螨过敏 → 海鲜 (不是A，是B says A and
    B in the same frame, so the shared head and tail are the frame, not the value)."""
    new = re.sub(r"^我?(?:只|而|其实|应该)?是?", "", new)
    head = 0
    while head < min(len(old), len(new)) - 1 and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head - 1 and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return old[head : len(old) - tail] or old


def words_of(pending: str, clause: str) -> str:
    """:func:`parallel_value` in whole words for English: "cats" against "it's dust mites"
    is "cats" (the shared tail "s" is no frame), as 对海鲜过敏 / 是对尘螨过敏 gives 海鲜."""
    part = parallel_value(pending, clause)
    if has_cjk(pending) or (i := pending.find(part)) < 0:
        return part
    j = i + len(part)
    while i > 0 and pending[i - 1].isalnum():
        i -= 1
    while j < len(pending) and pending[j].isalnum():
        j += 1
    return pending[i:j]
