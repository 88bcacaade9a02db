"""Slots and values: what a fact is about, and what it says about it.

A memory's ``topic`` is its **slot**: a dotted key naming the subject and the attribute,
``location.home``, ``pet.cat.name``, ``family.daughter.age``, ``diet.coffee.type``,
``health.allergy.花生``. Its ``value`` is what the slot holds (上海, 阿橘, 7, 冷萃, yes).
Reconciliation compares slots by equality and values explicitly, never by embedding
similarity: E5 puts "用户是1988年出生的" and "用户是1989年出生的" at cosine 0.98, so a cosine
threshold cannot tell a correction from a repetition, and it puts unrelated preferences close
enough that a threshold would retire the wrong one.

Pure functions, no I/O.
"""

from __future__ import annotations

import re
import unicodedata

from jiyi.core.text import to_simplified

__all__ = [
    "GENERIC_SUBJECTS",
    "PARTS",
    "PART_TEXTS",
    "compatible",
    "is_free_slot",
    "is_timeline_slot",
    "normalize_value",
    "restated_part",
    "same_value",
    "swapped_words",
]

# Middle segments that name no particular subject: a correction phrased with them
# ("它叫橘子" → pet.pet.name, "孩子今年七岁" → family.child.age) may be matched to a stored slot
# that names one (pet.cat.name, family.daughter.age) — never the other way between two
# specific subjects (a son's name is not a daughter's).
GENERIC_SUBJECTS = frozenset({"pet", "child", "kid", "family", "relative", "unknown"})

# The metadata key of the other slots one memory holds: 在长庚医院当护理师 is one memory of
# work.employer with {"work.role": "护理师"} (extraction/merge.fold_parts).
PARTS = "parts"
# … and what each of its slots said on its own (用户在长庚医院工作, 用户的工作是护理师), so a
# slot that outlives a change of another (a new job title at the same hospital) keeps a text.
PART_TEXTS = "part_texts"
# Heads of a family whose other slots describe them: a new drink takes its old sugar and milk
# with the old drink, a corrected birth year its zodiac. Employer and role are independent.
_HEADS = re.compile(r"^(?:diet\.[^.]+\.type|identity\.birth_year)$")

# Areas whose slots are timelines: every occurrence is its own memory (a past event said
# twice with different dates happened twice), so a new value appends instead of superseding.
_TIMELINE_AREAS = frozenset({"event"})

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_DIGITS |= {"七": 7, "八": 8, "九": 9}
_ZH_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百]+")
_EDGE = " \t\"'“”‘’()（）[]【】《》<>:：,，.。!！?？;；、~～-_"
_PARTICLES = ("了", "啦", "呀", "啊", "哦", "吧", "呢", "嘛", "的")
# Administrative suffixes that do not change a place: 北京市 = 北京, 广东省 = 广东.
_PLACE_SUFFIX = re.compile(r"(?<=[\u4e00-\u9fff]{2})(?:市|省|自治区|特别行政区)$")
_EN_ARTICLE = re.compile(r"^(?:the|a|an|my|our)\s+", re.IGNORECASE)


def _zh_int(word: str) -> str:
    """一九八八 → 1988 (digit by digit); 二十八 → 28, 十 → 10, 一百零二 → 102 (positional)."""
    if not any(c in word for c in "十百"):
        return "".join(str(_DIGITS[c]) for c in word)
    total, current = 0, 0
    for c in word:
        if c == "百":
            total += (current or 1) * 100
            current = 0
        elif c == "十":
            total += (current or 1) * 10
            current = 0
        else:
            current = _DIGITS[c]
    return str(total + current)


def normalize_value(value: str) -> str:
    """The comparable form of a slot value: NFKC, simplified Chinese, lower case, Chinese
    numerals as digits, edge punctuation, particles, articles and administrative suffixes
    removed. ``normalize_value("北京市") == normalize_value("北京")``."""
    text = to_simplified(unicodedata.normalize("NFKC", value)).lower().strip(_EDGE)
    changed = True
    while changed and text:
        changed = False
        for p in _PARTICLES:
            if text.endswith(p) and len(text) > len(p):
                text, changed = text[: -len(p)].strip(_EDGE), True
    text = _EN_ARTICLE.sub("", text).strip(_EDGE)  # the "Boston" → Boston
    text = _ZH_NUMBER.sub(lambda m: _zh_int(m.group(0)), text)
    text = _PLACE_SUFFIX.sub("", text)
    return " ".join(text.split())


def same_value(a: str | None, b: str | None) -> bool:
    """Do two values of one slot say the same thing? Compared after normalisation; a missing
    value equals nothing (the caller falls back to comparing contents)."""
    if a is None or b is None:
        return False
    return normalize_value(a) == normalize_value(b)


def is_timeline_slot(slot: str) -> bool:
    """Slots whose values accumulate (past events) instead of replacing each other."""
    return slot.split(".", 1)[0] in _TIMELINE_AREAS


def is_free_slot(slot: str) -> bool:
    """Slots of free description with no value to compare (``family.husband.about``: "he
    works late", "he used to work at a bank"): two of them say different things about the
    same person, so one never replaces the other; only an explicit value can."""
    return slot.rsplit(".", 1)[-1] == "about"


def compatible(a: str, b: str) -> bool:
    """Could slots ``a`` and ``b`` name the same thing, said once specifically and once
    generically? Same number of segments, same area and same attribute, and every differing
    middle segment is generic on one side (``pet.pet.name`` ~ ``pet.cat.name``, but never
    ``family.son.name`` ~ ``family.daughter.name``). Equal slots are compatible."""
    pa, pb = a.split("."), b.split(".")
    if len(pa) != len(pb) or pa[0] != pb[0] or pa[-1] != pb[-1]:
        return False
    return all(
        x == y
        or (x in _CHILD_WORDS and y in _CHILDREN)
        or (y in _CHILD_WORDS and x in _CHILDREN)
        or (x in GENERIC_SUBJECTS - _CHILD_WORDS or y in GENERIC_SUBJECTS - _CHILD_WORDS)
        for x, y in zip(pa, pb, strict=True)
    )


# "a child" is any of the user's children, never a sister (小孩嫌旺财太土 after 我姐姐嫁去沙巴)
_CHILD_WORDS = frozenset({"child", "kid"})
_CHILDREN = frozenset(
    {"child", "kid", "son", "daughter", "baby", "child1", "child2", "child3", "stepson",
     "stepdaughter", "twins", "children", "kids"}
)  # fmt: skip


def remainder(
    held: dict[str, str], texts: dict[str, str], replaced_by: set[str]
) -> list[tuple[str, str, str]]:
    """What a memory holding the slots ``held`` (slot → value) still says once a new memory
    holding ``replaced_by`` supersedes it: (slot, value, text) for every slot the new one does
    not hold, unless the new one is the family's head (its other slots went with the old
    head). A slot without its own text is not kept (there is nothing to show for it)."""
    if any(_HEADS.match(slot) for slot in replaced_by):
        return []
    return [
        (slot, value, texts[slot])
        for slot, value in held.items()
        if slot not in replaced_by and value and texts.get(slot)
    ]


def swapped_words(old: str, new: str) -> tuple[str, str]:
    """What differs between two texts that share a beginning and an end: ("labrador",
    "staffy") of "User has got a labrador called Max" → "User has got a staffy called Max";
    ("", "") when they share neither."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    if not start and not end:
        return "", ""
    return old[start : len(old) - end].strip(), new[start : len(new) - end].strip()


def restated_part(text: str, was: dict[str, str], now: dict[str, str]) -> str:
    """A kept part's text once the other slots it was said with changed: each old value of
    ``was`` (slot → value) that ``text`` still names is the new value of ``now`` in its place
    ("User is studying accounting at UJ", major → law: "User is studying law at UJ"), so no
    active memory goes on saying the old value. A polarity or a leaving ("not …") is no
    value to say in a sentence: the text is then as it was."""
    for slot, old in was.items():
        new = now.get(slot)
        if not old or not new or old in _KEYED or new in _KEYED or new.startswith("not "):
            continue
        at = to_simplified(text).lower().find(to_simplified(old).lower())
        if at >= 0 and len(to_simplified(text)) == len(text):
            text = text[:at] + new + text[at + len(old) :]
    return text


# Words that only say the value is current; a new sentence made of them and its value says
# nothing the old sentence did not.
_NOW_WORDS = re.compile(
    r"\b(?:now|currently|these days|nowadays|already|actually)\b|现在|目前|如今|已经|其实|了",
    re.IGNORECASE,
)
_KEYED = frozenset({"like", "dislike", "yes", "no"})


def _rest(text: str, value: str) -> set[str]:
    """The words of ``text`` around ``value`` (characters for Chinese)."""
    left = _NOW_WORDS.sub(" ", re.sub(re.escape(value), " ", text, flags=re.IGNORECASE)).lower()
    return {w for w in re.findall(r"[a-z0-9']+|[\u4e00-\u9fff]", left)}


def carry_over(old_content: str, old_value: str | None, new_content: str, new: str | None) -> str:
    """The text of a new value of a slot: the old sentence with the new value in its place
    when the new sentence says less around its value ("User is a sophomore in college" →
    "User is a junior now" becomes "User is a junior in college", so "what year am I in at
    college" still finds it), else ``new_content`` unchanged. Only for values said literally
    in both sentences, never for keyed slots (their value is a polarity)."""
    if not old_value or not new or old_value in _KEYED or new in _KEYED:
        return new_content
    low_old, low_new = old_content.lower(), new_content.lower()
    if old_value.lower() not in low_old or new.lower() not in low_new:
        return new_content
    if old_value.lower() in new.lower() or new.lower() in old_value.lower():
        return new_content  # 每天早上 → 每天早上六点: the old sentence would say both
    before, now = _rest(old_content, old_value), _rest(new_content, new)
    if not now <= before or before <= now:
        return new_content  # the new sentence says something else, or no less
    at = low_old.index(old_value.lower())
    return old_content[:at] + new + old_content[at + len(old_value) :]


# Slots that name one attribute in two ways, as the extractors say them: where a relative
# lives (我姐姐住在西安: family.sister.home) and where a move took them (我姐调到成都工作:
# family.sister.city). A value of one replaces the other's.
_ALIASES = (re.compile(r"^(family\.[^.]+)\.(home|city)$"), {"home": "city", "city": "home"})


def alias_slots(slot: str) -> tuple[str, ...]:
    """The other names of ``slot`` (``family.sister.city`` → ``family.sister.home``)."""
    pattern, other = _ALIASES
    m = pattern.match(slot)
    return (f"{m.group(1)}.{other[m.group(2)]}",) if m else ()
