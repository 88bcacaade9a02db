"""Slots and values (jiyi.core.slots) and the slots a question asks about
(jiyi.core.intents): pure functions, no model."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jiyi.core.intents import query_slots, slot_matches
from jiyi.core.slots import compatible, is_timeline_slot, normalize_value, same_value


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("北京市", "北京"),
        ("广东省", "广东"),
        ("内蒙古自治区", "内蒙古"),
        ("香港特别行政区", "香港"),
        ("城市", "城市"),  # one character before 市: a word, not a suffix
        ("一九八八", "1988"),
        ("二零二六年", "2026年"),
        ("二十八", "28"),
        ("十", "10"),
        ("十八", "18"),
        ("一百零二", "102"),
        ("两", "2"),
        ("十二月", "12月"),
        ("１９８８", "1988"),  # full-width digits
        ("Ｂｏｓｔｏｎ", "boston"),
        ("臺北", "台北"),  # traditional → simplified
        ("烏龍茶", "乌龙茶"),
        ("上海了", "上海"),
        ("上海的", "上海"),
        ("“上海”。", "上海"),
        ("的", "的"),  # a particle alone is kept, not emptied
        ("the Boston", "boston"),
        ("My Cat", "cat"),
        ("  flat   white ", "flat white"),
    ],
)
def test_normalize_value(raw: str, norm: str) -> None:
    assert normalize_value(raw) == norm


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("北京市", "北京"),
        ("一九八八", "1988"),
        ("1988年", "一九八八年"),
        ("二十八", "28"),
        ("七", "7"),
        ("臺北", "台北"),
        ("Boston", "boston"),
        ("上海了", "上海"),
        ("yes", "YES"),
    ],
)
def test_same_value(a: str, b: str) -> None:
    assert same_value(a, b) and same_value(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1988", "1989"),
        ("初二", "初三"),
        ("北京", "上海"),
        ("阿橘", "橘子"),
        ("yes", "no"),
        ("like", "dislike"),
        ("二十八", "二十九"),
        ("7", "8"),
    ],
)
def test_different_values(a: str, b: str) -> None:
    assert not same_value(a, b) and not same_value(b, a)


def test_a_missing_value_equals_nothing() -> None:
    assert not same_value(None, "北京")
    assert not same_value("北京", None)
    assert not same_value(None, None)


_WIDE = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)})


@given(st.text(alphabet=string.ascii_letters + string.digits + " ", max_size=12))
def test_same_value_ignores_case_width_and_spacing(text: str) -> None:
    assert same_value(text, text)
    assert same_value(text, text.upper())
    assert same_value(text, text.translate(_WIDE))  # full-width letters and digits
    assert same_value(text, f"  {text}  ")


def test_quoted_value_after_an_article() -> None:
    assert normalize_value('the "Boston"') == "boston"
    assert same_value('the "Boston"', "Boston")


@given(st.integers(min_value=0, max_value=99))
def test_chinese_numerals_below_a_hundred(n: int) -> None:
    digits = "零一二三四五六七八九"
    tens, ones = divmod(n, 10)
    word = (
        digits[n]
        if n < 10
        else ("" if tens == 1 else digits[tens]) + "十" + (digits[ones] if ones else "")
    )
    assert normalize_value(word) == str(n)


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [
        ("location.home", "location.home", True),
        ("pet.pet.name", "pet.cat.name", True),  # said generically once
        ("pet.cat.name", "pet.pet.name", True),
        ("family.child.age", "family.daughter.age", True),
        ("family.son.name", "family.daughter.name", False),  # two specific subjects
        ("pet.cat.name", "pet.dog.name", False),
        ("pet.cat.name", "pet.cat.age", False),  # another attribute
        ("location.home", "location.hometown", False),
        ("location.home", "location.work", False),
        ("health.allergy.花生", "health.allergy.芒果", False),  # another allergen
        ("pref.茶", "pref.咖啡", False),
        ("pet.name", "pet.cat.name", False),  # another shape
        ("pet.pet.name", "family.pet.name", False),  # another area
        ("diet.coffee.type", "diet.tea.type", False),
    ],
)
def test_compatible(a: str, b: str, ok: bool) -> None:
    assert compatible(a, b) is ok
    assert compatible(b, a) is ok


@given(
    st.lists(
        st.sampled_from(["pet", "cat", "family", "child", "name", "age", "x"]),
        min_size=1,
        max_size=4,
    )
)
def test_every_slot_is_compatible_with_itself(parts: list[str]) -> None:
    slot = ".".join(parts)
    assert compatible(slot, slot)


def test_timeline_slots() -> None:
    assert is_timeline_slot("event.trip")
    assert not is_timeline_slot("plan.上海出差")
    assert not is_timeline_slot("location.home")


# -- query slots ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("我住在哪里", "location.home"),
        ("我现在住在哪个城市", "location.home"),
        ("我住在哪裡", "location.home"),  # traditional
        ("where do I live", "location.home"),
        ("我老家是哪里的", "location.hometown"),
        ("我是哪里人", "location.hometown"),
        ("where am I originally from", "location.hometown"),
        ("我是哪年出生的", "identity.birth_year"),
        ("what year was I born", "identity.birth_year"),
        ("我几岁了", "identity.age"),
        ("我叫什么名字", "identity.name"),
        ("what's my name", "identity.name"),
        ("我对什么过敏", "health"),
        ("我對什麼過敏", "health"),
        ("我平时喝什么咖啡", "diet"),
        ("what's my usual coffee order", "diet"),
        ("what is my job", "work.role"),
        ("where do I work", "work.employer"),
        ("帮我推荐一杯咖啡", "diet"),
    ],
)
def test_query_slots_first_cue(query: str, first: str) -> None:
    assert query_slots(query)[0] == first


@pytest.mark.parametrize(
    ("query", "slots"),
    [
        # Asking about a pet or a relative, the name / age / school are theirs.
        ("what's my cat's name", ("pet.cat",)),
        ("我的猫叫什么", ("pet.cat",)),
        ("我女儿叫什么名字", ("family.daughter",)),
        ("how old is my daughter", ("family.daughter",)),
        ("我儿子上几年级", ("family.son",)),
        ("我有什么宠物", ("pet",)),
        # The specific work cue wins over the general one.
        ("where do I work", ("work.employer", "location.work")),
        ("今天天气怎么样", ()),
        ("hello there", ()),
    ],
)
def test_query_slots_exact(query: str, slots: tuple[str, ...]) -> None:
    assert query_slots(query) == slots


def test_query_slots_names_no_user_attribute_when_asking_about_others() -> None:
    for q in ("我女儿几岁了", "what's my son's name", "我家狗叫什么名字"):
        assert not [s for s in query_slots(q) if s.startswith(("identity", "name", "age"))]


def test_where_did_i_grow_up_asks_for_the_hometown() -> None:
    assert "location.hometown" in query_slots("where did I grow up")


@pytest.mark.parametrize(
    ("topic", "prefixes", "ok"),
    [
        ("location.home", ("location.home",), True),
        ("location.home", ("location",), True),
        ("health.allergy.花生", ("health",), True),
        ("location.hometown", ("location.home",), False),  # a prefix is a whole segment
        ("locationx.home", ("location",), False),
        (None, ("location",), False),
        ("location.home", (), False),
    ],
)
def test_slot_matches(topic: str | None, prefixes: tuple[str, ...], ok: bool) -> None:
    assert slot_matches(topic, prefixes) is ok
