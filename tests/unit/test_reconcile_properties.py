"""Property: a message can only retire memories of its own slot — on the real embedder.

Over random background facts (zh + en, many slots) and a random remark or correction, the
memories the message supersedes or deletes are only those of the slot it speaks about (or
a sibling slot it names as wrong: "almonds, not walnuts"). Every other memory stays active
and unchanged, whatever its cosine to the message — E5 puts short personal facts close
together, which is exactly how a similarity threshold used to retire a peanut allergy for
a remark about tea.

Each example is a fresh user of one shared Memory; the sentences repeat across examples,
so the embedder's cache keeps this fast.
"""

from __future__ import annotations

import itertools
from fnmatch import fnmatch

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jiyi import Memory
from jiyi.core.models import Action, MemoryItem

BACKGROUND = [
    "我住在北京",
    "我对花生过敏",
    "我家猫叫阿橘",
    "我在腾讯做产品经理",
    "我喜欢打篮球",
    "我女儿叫甜甜",
    "我喝咖啡只喝美式",
    "我是1988年出生的",
    "我女儿在读初二",
    "我老家是哈尔滨的",
    "我对青霉素过敏",
    "我老公叫建国",
    "I live in Boston",
    "I'm allergic to walnuts",
    "My dog is called Rex",
    "I work as a nurse",
    "I love hiking",
    "My son's name is Ethan",
    "I take my coffee with oat milk",
    "I was born in 1987",
    "My daughter is 7 years old",
    "I drink green tea every morning",
    "My wife's name is Anna",
]

# (what the user says, the slots it may retire — fnmatch patterns; () for none).
REMARKS: list[tuple[str, tuple[str, ...]]] = [
    # remarks that correct nothing
    ("其实我更喜欢喝绿茶", ()),
    ("其实我一直也想养一只狗", ()),
    ("其实我对芒果也过敏", ()),
    ("其实我最喜欢的颜色是蓝色", ()),
    ("我的手机号是13812345678", ()),
    ("今天好热想喝冰咖啡", ()),
    ("Actually, I really love Thai food", ()),
    ("Actually I never drink coffee after 3pm", ()),
    ("Actually I've also started learning Spanish", ()),
    ("Actually Emma just started swimming lessons", ()),
    ("Actually I'm also allergic to shellfish", ()),
    ("Actually I prefer black tea", ()),
    ("I like tea, not coffee", ("pref.coffee",)),
    # corrections of one slot
    ("其实我不住北京了，搬到上海了", ("location.home",)),
    ("说错了，我是1989年出生的", ("identity.birth_year",)),
    ("我家的猫改名叫橘子了", ("pet.cat.name",)),
    ("说错了，我女儿上初三了，不是初二", ("family.daughter.grade",)),
    ("我最近改喝燕麦拿铁了", ("diet.coffee.type",)),
    ("其实我老家是东北的，哈尔滨人", ("location.hometown",)),
    ("其实我现在在字节跳动上班", ("work.employer",)),
    ("其实我儿子叫小明", ("family.son.name",)),
    ("其实我女儿叫朵朵，不是甜甜", ("family.daughter.name",)),
    ("其实我不是护士，是医生", ("work.role",)),
    ("其实我老公叫建华", ("family.husband.name",)),
    ("其实孩子今年八岁", ("family.*.age",)),
    ("其实我对花生不过敏", ("health.allergy.花生",)),
    ("其实我对青霉素不过敏，是对头孢过敏", ("health.allergy.青霉素",)),
    ("actually I moved to Denver", ("location.home",)),
    ("Actually, I live in Denver, not Boston", ("location.home",)),
    ("I was born in 1986 not 1987", ("identity.birth_year",)),
    ("I'm allergic to almonds, not walnuts", ("health.allergy.walnut",)),
    ("Actually my dog's name is Max", ("pet.dog.name",)),
    ("Actually my daughter is 8 years old", ("family.daughter.age",)),
    ("Actually I'm a doctor, not a nurse", ("work.role",)),
    ("actually my wife is called Anne", ("family.wife.name",)),
    # explicit retractions: only the slot holding the retracted value (core/retract.py)
    ("我搞错了，我是对芒果过敏，花生没事", ("health.allergy.花生",)),
    ("其实我已经不打篮球了", ("pref.*篮球*", "habit.*篮球*")),
    ("我妈不在北京了", ()),
    ("虾没事", ()),
    ("walnuts are fine, it's almonds I'm allergic to", ("health.allergy.walnut",)),
    ("I switched from green tea to rooibos", ("diet.tea.*", "pref.*tea*")),
    ("I don't live in Boston anymore", ("location.home",)),
    ("I quit cooking at home", ()),
    # forget requests
    ("别记我的生日", ("identity.birth*", "birthday*")),
    ("forget that I have a dog", ("pet.dog*",)),
]

_users = itertools.count()


def _said(text: str) -> tuple[str, tuple[str, ...]]:
    return text, dict(REMARKS)[text]


def _allowed(topic: str | None, patterns: tuple[str, ...]) -> bool:
    return topic is not None and any(fnmatch(topic, p) for p in patterns)


def _slots(m: MemoryItem) -> set[str]:
    """The slots a memory holds: its topic, and the parts one statement filled with it
    (在腾讯做产品经理: work.employer with work.role)."""
    return {m.topic or ""} | set(m.metadata.get("parts") or {})


def _parent(topic: str | None) -> str:
    return (topic or "").rsplit(".", 1)[0]


# Small backgrounds leave a single candidate close to the message (where a similarity rule
# would pick it); large ones put many near neighbours around it.
BACKGROUNDS = st.one_of(
    st.lists(st.sampled_from(BACKGROUND), min_size=1, max_size=3, unique=True),
    st.lists(
        st.sampled_from(BACKGROUND),
        min_size=len(BACKGROUND) // 2,
        max_size=len(BACKGROUND),
        unique=True,
    ),
)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    background=BACKGROUNDS,
    remark=st.sampled_from(REMARKS),
)
# The README's move next to coffee preferences; tea next to a peanut allergy.
@example(
    background=["我喝咖啡只喝美式", "我对花生过敏"], remark=_said("其实我不住北京了，搬到上海了")
)
@example(background=["我对花生过敏"], remark=_said("其实我更喜欢喝绿茶"))
@example(
    background=["I'm allergic to walnuts", "我对花生过敏"],
    remark=_said("I'm allergic to almonds, not walnuts"),
)
def test_a_message_only_retires_memories_of_its_own_slot(
    shared_real_mem: Memory, background: list[str], remark: tuple[str, tuple[str, ...]]
) -> None:
    mem, (text, may_retire) = shared_real_mem, remark
    user = f"prop-{next(_users)}"
    for fact in background:
        mem.add(fact, user_id=user)
    before: dict[str, MemoryItem] = {m.id: m for m in mem.list(user_id=user)}

    res = mem.add(text, user_id=user)

    after = {m.id: m for m in mem.list(user_id=user)}
    retired = {i: m for i, m in before.items() if i not in after}

    # What the events say was retired is what the store retired.
    said_retired: set[str] = set()
    for e in res.events:
        if e.event == Action.SUPERSEDE:
            assert e.previous is not None
            said_retired.add(e.previous.id)
            # Its own slot, or a sibling slot whose value the message names as wrong.
            same_slot = bool(_slots(e.previous) & _slots(e.memory))
            sibling = _parent(e.previous.topic) == _parent(e.memory.topic) and _allowed(
                e.previous.topic, may_retire
            )
            assert same_slot or sibling, (text, e.previous.topic, e.memory.topic)
        elif e.event == Action.DELETE:
            said_retired.add(e.memory.id)
    assert set(retired) == said_retired & set(before), (text, background)

    # Only the slots the message speaks about.
    wrong = [
        (m.topic, m.content)
        for m in retired.values()
        if not any(_allowed(t, may_retire) for t in _slots(m))
    ]
    assert wrong == [], (text, background)

    # Everything else is still there, unchanged.
    for i, m in before.items():
        if i in after:
            assert after[i].status == m.status and after[i].value == m.value
            assert after[i].content == m.content and after[i].valid_to is None
