"""Shared pieces of the Chinese rules: value cleaners, numbers, the change marker and the
third-person rewrite."""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import PETS_ZH, PRONOUN_OBJECTS, RELATIONS_ZH
from jiyi.core.extraction.topics import clean_value, normalize_object
from jiyi.core.models import MemoryKind

__all__ = [
    "ADV",
    "CHANGE_RE",
    "NUM",
    "REL",
    "SEP",
    "date_value",
    "hedge_free",
    "name_value",
    "object_key",
    "pet_key",
    "place_value",
    "third_person_zh",
    "yes_no",
]

F, P, G, E, S = (
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.GOAL,
    MemoryKind.EVENT,
    MemoryKind.STATE,
)
REL = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
PET_WORD = "|".join(sorted(PETS_ZH, key=len, reverse=True))
# Adverbs that may sit between the subject and the verb without changing the fact.
ADV = (
    r"(?:现在|目前|已经|平时|一般|通常|一直|还|也|都|就|刚刚|刚|正在|今年|如今|其实|本来|确实|"
    r"基本上|基本|常年|长期|依然|仍然|还是|早就|早已|终于)*"
)
NUM = r"\d{1,3}|[一二两三四五六七八九十]{1,3}"
SEP = re.compile(r"和|、|跟|以及|及|还有|与|或者|或|/|，|,")
# 不…了 / 不再 / 已经不 mark that an earlier state no longer holds.
CHANGE_RE = re.compile(r"不再|已经不|再也不|现在不|不\S*了$|没\S*了$|戒了|戒掉")


def hedge_free(value: str) -> str:
    return re.sub(
        r"^(?:可能|好像|也许|大概|似乎|有点|有些|比较|很|特别|非常|严重|轻微|超级|超|巨|太)+",
        "",
        value,
    )


def third_person_zh(clause: str) -> str:
    """我对花生过敏 → 用户对花生过敏; 我女儿叫小美 → 用户的女儿叫小美; 只喝冷萃 → 用户只喝冷萃."""
    text = re.sub(rf"我(?:家|们家)?(?=(?:{REL}|{PET_WORD}))", "用户的", clause)
    text = re.sub(r"我(?!们)", "用户", text)
    text = text.strip(" ，,。.!！?？~～").rstrip("啊呀哦吧呢嘛哈啦")
    return text if "用户" in text[:8] else "用户" + text


def object_key(value: str) -> str | None:
    """The normalised object, or None when the phrase names nothing (a pronoun, a question)."""
    value = hedge_free(clean_value(value))
    if not value or value in PRONOUN_OBJECTS or re.search(r"什么|哪|谁|啥", value):
        return None
    norm = normalize_object(value)
    return norm or None


def name_value(value: str) -> str:
    """A name as said: 小美，不是小丽 → 小美; trailing particles and 就行 dropped."""
    value = re.split(r"不是|而是|，|,|就行|就好|就可以|吧", value)[0]
    return clean_value(re.sub(r"(?:了|啦|呢|哦|哈)+$", "", value))


_DURATION = re.compile(
    r"(?:快|已经|都|有|将近|差不多|大概)?(?:好|\d{1,3}|[一二两三四五六七八九十几半]{1,3})?(?:多)?"
    r"(?:个)?(?:年|个月|月|周|星期|天)(?:多|半)?(?:了|啦)?$"
)


def place_value(value: str) -> str:
    """住在北京朝阳区了 → 北京朝阳区; 杭州快两年了 → 杭州; 老家长沙 → 长沙."""
    value = clean_value(value)
    value = _DURATION.sub("", value)
    value = re.sub(
        r"(?:去|来|住|啦|了|的|定居|生活|工作|上班|发展|那边|这边)+$", "", clean_value(value)
    )
    value = re.sub(r"^(?:了|到|在|去)", "", value)
    return clean_value(re.sub(r"^老家(?=..)", "", clean_value(value)))


def date_value(value: str) -> str:
    """5月20号 / 5月20日 / 五月二十 → 5-20 (month-day), else the phrase as said."""
    from jiyi.core.slots import normalize_value

    norm = normalize_value(value)
    m = re.search(r"(\d{1,2})月(\d{1,2})", norm)
    return f"{int(m.group(1))}-{int(m.group(2))}" if m else clean_value(value)


def yes_no(before: str) -> str:
    """ "no" when the words before a condition deny it (不/没有/不再), else "yes"."""
    return "no" if re.search(r"不再|已经不|没有|没|不", before) else "yes"


def pet_key(word: str) -> str:
    return next(
        (v for k, v in sorted(PETS_ZH.items(), key=lambda kv: -len(kv[0])) if word.endswith(k)),
        "pet",
    )


_ROLE_SUFFIX = re.compile(
    r"(?:师|员|家|员工|技工|社工|电工|木工|农民工|临时工|者|经理|总监|老板|医生|护士|主管|律师|会计|司机|记者|博士|主播|宝妈|全职妈妈|"
    r"全职爸爸|家庭主妇|自由职业|老师|程序员|公务员|警察|军人|厨师|教授|院长|主任|店长|老总|总裁|"
    r"董事长|CEO|CTO|HR|PM|销售|运营|产品|实习生|博士后|博后|学生|研究生|本科生|留学生|"
    r"[小初高]中生|大学生)$",
    re.IGNORECASE,
)


def is_role(word: str) -> bool:
    """程序员 / 产品经理 / 小学老师 / iOS开发工程师 / HR: a job title (or a student)."""
    from jiyi.core.extraction.lexicon_places import JOBS_ZH

    word = clean_value(word)
    if not word or len(word) > 14 or re.search(r"[人的]$|什么|哪", word):
        return False
    return word in JOBS_ZH or bool(_ROLE_SUFFIX.search(word))
