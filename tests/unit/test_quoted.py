"""Whose quoted words a message holds (core/extraction/quoted.py): pure functions."""

from __future__ import annotations

import pytest

from jiyi.core.extraction.quoted import own_messages, own_words
from jiyi.core.models import Message


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('Jake told me "I quit Google", crazy right', "crazy right"),
        ("Sarah texted: switched to cold brew lol. I stuck with lattes", "I stuck with lattes"),
        ("My neighbor was like, 'we're moving to Boston'", ""),
        ('Jake: "I quit Google lol"', ""),
        ("我妈昨天说：我们搬去深圳吧", ""),
        ("小李在群里说：我辞职了，去字节了。我都惊了", "我都惊了"),
        ("我同事说：“我下个月要搬去深圳了”，我好羡慕", "我好羡慕"),
        ("阿强：“我从阿里离职了”", ""),
    ],
)
def test_someone_elses_words_are_taken_out(text: str, kept: str) -> None:
    assert own_words(text) == kept


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("我跟房东说“我下个月搬去深圳”", "我下个月搬去深圳"),
        ('I told my manager "I am leaving Google"', "I am leaving Google"),
        ("Finally told my landlord 'I'm moving out in March'", "I'm moving out in March"),
    ],
)
def test_the_users_own_quoted_words_are_read_as_said(text: str, said: str) -> None:
    assert own_words(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "Note: I moved to Austin",
        "Update: moved to Austin!",
        "FYI: I am allergic to peanuts now",
        "我：我搬去深圳了",
        "提醒一下：我下个月搬去深圳",
        "Told my boss: I am out, moving to Leeds",
        '"I moved to Austin"',
        "I'm at Jake's place, he's great",
        "我老婆说她不想喝咖啡了",
    ],
)
def test_words_without_another_speaker_stay(text: str) -> None:
    assert own_words(text) == text


def test_only_user_messages_are_read_this_way() -> None:
    said = 'Jake told me "I quit Google"'
    user = Message(id="1", role="user", content=said)
    bot = Message(id="2", role="assistant", content=said)
    out = own_messages([user, bot])
    assert out[0].content == "" and out[0].id == "1"
    assert out[1] is bot
