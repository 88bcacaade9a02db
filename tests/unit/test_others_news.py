"""Which messages are someone else's news from start to end (core/extraction/others_news.py):
the user never speaks of their own doing in them, so they change no fact of the user's."""

from __future__ import annotations

import pytest

from jiyi.core.extraction.others_news import others_news


@pytest.mark.parametrize(
    "text",
    [
        "小周上个月从网易离职了，现在去字节做运营。嫌房租太贵，也搬去余杭了。",
        "阿凯昨天跟我说他离开台积电了，下个月去联发科上班",
        "绝了家人们，我们组长裸辞了！！还搬去了闵行",
        "Chai, Emeka don resign from GTBank o! He's moved to Abuja now",
        "Did I tell you Siobhan's gone? Left Boots last week, off to Kinsale.",
        "Dr. Singh found out he's lactose intolerant. Should I send him some recs?",
        "Prof Moyo has resigned from UZ and gone to Wits.",
        "my PT just told me she's selling up and moving to Moncton",
    ],
)
def test_someone_elses_news(text: str) -> None:
    assert others_news(text)


@pytest.mark.parametrize(
    "text",
    [
        "我同事辞职了，我也不想干了，下个月去字节",
        "房东要把房子收回去卖 没办法只好搬 现在住沙鹿了",
        "老板说我SQL写得比他还好 下个月正式转去做 data engineer 了",
        "They've moved me to the Gosford office, so no more train to Sydney.",
        "Tennis got moved to Thursdays",
        "Coach Were has moved the Saturday group to quarter to nine",
        "张学友退圈以后我都改听陈奕迅了",
        "My sister quit her job and moved to Leeds",
        "I left Delta for United last month",
        "我搬到上海了",
    ],
)
def test_not_someone_elses_news(text: str) -> None:
    assert not others_news(text)
