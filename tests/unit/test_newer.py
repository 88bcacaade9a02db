"""The user's newer word on a topic above the older hits (jiyi.core.newer), pure part."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from jiyi.core.models import MemoryItem, MemoryKind, SearchHit
from jiyi.core.newer import newer_first, says_changed

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _hit(
    text: str, score: float, days: int, role: str = "user", kind: MemoryKind = MemoryKind.EPISODE
) -> SearchHit:
    at = T0 + timedelta(days=days)
    m = MemoryItem(
        id=text, user_id="u", kind=kind, content=text, created_at=at, observed_at=at, role=role
    )
    return SearchHit(memory=m, score=score, scores={})


def _fact(text: str, score: float, days: int = 0) -> SearchHit:
    at = T0 + timedelta(days=days)
    m = MemoryItem(
        id=text, user_id="u", kind=MemoryKind.FACT, content=text, created_at=at, observed_at=at
    )
    return SearchHit(memory=m, score=score, scores={})


def _order(*hits: SearchHit, ratio: float = 0.4) -> list[str]:
    return [h.memory.id for h in newer_first(hits, ratio, 10)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("我每周四晚上去打羽毛球", "周四总开会，羽毛球就挪到周六上午了"),
        ("我家仓鼠叫豆包", "仓鼠的名字孩子们后来改成了元宝，现在都这么叫"),
        ("I play tennis on Mondays", "tennis moved to Wednesdays after the club changed courts"),
        ("My brother lives in Leeds", "my brother packed up and went to Bristol in the spring"),
        ("我在奶茶店点少冰", "奶茶我现在都点常温的"),
        ("I live in Omaha", "we finally left Omaha, renting in Lincoln now"),
    ],
)
def test_a_later_change_on_the_same_thing_goes_first(old: str, new: str) -> None:
    other = _hit("我对芒果过敏", 0.5, 1)
    order = _order(_hit(old, 0.95, 0), _fact(old + "!", 0.9), other, _hit(new, 0.6, 9))
    assert order == [new, old, old + "!", "我对芒果过敏"]


def test_between_messages_alone_a_later_now_lifts_nothing() -> None:
    """Raw turns of a conversation ("…now") are left in the channels' order; a message whose
    fact was corrected is not."""
    old, new = "I play tennis on Mondays", "tennis moved to Wednesdays now"
    assert _order(_hit(old, 0.9, 0), _hit(new, 0.6, 9)) == [old, new]
    corrected = _hit(old, 0.9, 0)
    corrected.memory.valid_to = T0 + timedelta(days=5)
    assert _order(corrected, _hit(new, 0.6, 9)) == [new, old]


def test_scores_stay_sorted_and_say_why() -> None:
    hits = newer_first(
        [_fact("我住在无锡", 0.9), _hit("我现在搬出无锡了，住常州", 0.5, 9)], 0.4, 10
    )
    assert [h.score for h in hits] == [0.9, 0.9]
    assert hits[0].scores["newer"] == 1.0 and hits[1].scores["followed"] == 1.0


@pytest.mark.parametrize(
    "new",
    [
        "我同事现在也去打羽毛球了，每周四",  # someone else
        "以前我每周四都打羽毛球",  # the past
        "羽毛球要不要改到周六呢？",  # a question
        "我在考虑把羽毛球挪到周六",  # a plan being weighed
        "我现在开始学游泳了",  # a change of something else
        "其实我年轻时天天打羽毛球，现在退休了",  # the topic only in a clause of the past
    ],
)
def test_no_lift_without_the_users_change_of_the_same_thing(new: str) -> None:
    old = "我每周四晚上去打羽毛球"
    assert _order(_fact(old, 0.9), _hit(new, 0.6, 9)) == [old, new]


def test_no_lift_for_an_older_or_weak_or_assistant_message() -> None:
    old, new = "I play tennis on Mondays", "tennis moved to Wednesdays now"
    assert _order(_fact(new, 0.9), _hit(old, 0.6, 9)) == [new, old]  # said first
    assert _order(_fact(old, 0.9), _hit(new, 0.3, 9)) == [old, new]  # below the ratio
    said = _hit(new, 0.6, 9, role="assistant")
    assert _order(_fact(old, 0.9), said) == [old, new]
    assert _order(_fact(old, 0.9), _hit(new, 0.6, 9), ratio=0.0) == [old, new]  # off


def test_a_shared_single_character_or_short_word_is_no_topic() -> None:
    old = "我女儿叫朵朵"  # shares only 叫 with a pet's new name
    assert _order(_fact(old, 0.9), _hit("小狗现在叫旺财了", 0.6, 9)) == [old, "小狗现在叫旺财了"]


def test_the_message_a_stored_fact_came_from_counts_as_stored() -> None:
    """ "I go to the gym every day at 6am" (its fact ranked lower) is followed like the fact."""
    old, new = "I go to the gym every day at 6am", "gym is at lunchtime now"
    said = _hit(old, 0.9, 0)
    said.memory.source_message_ids = ["m1"]
    fact = _fact("User goes to the gym every day at 6am", 0.5)
    fact.memory.source_message_ids = ["m1"]
    assert _order(said, _hit(new, 0.6, 9), fact) == [new, old, fact.memory.id]
    said.memory.source_message_ids = ["m0"]  # a message no stored fact came from
    assert _order(said, _hit(new, 0.6, 9), fact) == [old, new, fact.memory.id]


def test_an_older_fact_already_below_the_newer_word_is_labelled_in_place() -> None:
    old, new = "我表哥住在青岛", "我表哥现在调去深圳了"
    hits = newer_first([_hit(new, 0.9, 9), _fact(old, 0.8)], 0.4, 10)
    assert [h.memory.id for h in hits] == [new, old] and [h.score for h in hits] == [0.9, 0.8]
    assert hits[1].scores.get("followed") == 1.0 and hits[0].scores.get("newer") == 1.0
    other = newer_first([_hit(new, 0.9, 9), _fact("我对芒果过敏", 0.8)], 0.4, 10)
    assert "followed" not in other[1].scores


def test_says_changed_reads_two_texts_like_two_hits() -> None:
    assert says_changed("用户的表哥住在青岛", "我表哥现在调去深圳了")
    assert says_changed("User's brother lives in Boston", "my brother's in Denver now")
    assert not says_changed("用户的表哥住在青岛", "我同事现在调去深圳了")
    assert not says_changed("用户对芒果过敏", "我表哥现在调去深圳了")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("我是1988年出生的", "我记错了，出生那年是1989"),  # no change word: a slip set right
        ("My dog Max is a beagle", "my mistake, Max is a basset hound"),
        ("I work at Mercy Hospital", "I meant St Mary's Hospital, not Mercy"),
    ],
)
def test_a_message_that_sets_a_slip_right_goes_first(old: str, new: str) -> None:
    assert _order(_fact(old, 0.9), _hit(new, 0.6, 9))[0] == new


@pytest.mark.parametrize(
    "new",
    [
        "Sorry, my dog Max kept me up all night",  # "sorry" opens chat that fixes nothing
        "I mean, my dog Max is the best",
        "我记错了吗？我是1988年出生的吧",  # a question
    ],
)
def test_loose_markers_and_questions_lift_nothing(new: str) -> None:
    old = "My dog Max is a beagle" if new.isascii() else "我是1988年出生的"
    assert _order(_fact(old, 0.9), _hit(new, 0.6, 9)) == [old, new]
