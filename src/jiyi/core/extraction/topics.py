"""Topic keys: normalised dotted names of single-valued slots.

Two active memories with the same topic and different content mean the newer replaces the
older, so the object part of a key must come out the same however the user phrases it:
喜欢吃辣的 / 不吃辣 → ``pref.辣``; "I love peanuts" / "allergic to peanut" → ``…peanut``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiyi.core.extraction.lexicon import word_set
from jiyi.core.text import FACTS_CACHED

__all__ = ["clean_value", "is_name", "normalize_object", "slug"]

_EDGE_PUNCT = " \t\"'“”‘’()（）[]【】《》<>:：,，.。!！?？;；、~～-"
_ZH_LEAD = (
    "一些",
    "一点",
    "那些",
    "这些",
    "所有",
    "各种",
    "任何",
    "这种",
    "那种",
    "一切",
    "些",
    "的",
    "了",
    "点",
    "种",
)
_ZH_TRAIL = (
    "之类的东西",
    "之类的",
    "什么的",
    "类的",
    "的东西",
    "东西",
    "等等",
    "等",
    "啦",
    "呀",
    "啊",
    "哦",
    "吧",
    "呢",
    "嘛",
    "了",
    "的",
    "些",
)
# A leading verb says how the object is consumed, not what it is: 吃火锅 / 喝奶茶 → 火锅 / 奶茶.
_ZH_VERB_LEAD = re.compile(
    r"^(?:去|来)(?=..)|^(?:吃|喝|抽|含)(?=.)|^(?:看|听|玩|穿|带|打|踢|弹|下|练|骑|滑|拉|追|刷)(?=..)"
)
_EN_LEAD = re.compile(
    r"^(?:(?:the|a|an|some|any|my|all|most|eating|drinking|watching|listening to|playing|"
    r"reading|going to|having|to eat|to drink|to watch|to play|food with|foods with|things with|"
    r"anything with|everything with|stuff with|dishes with|anything|everything)\s+)+",
    re.IGNORECASE,
)
_EN_TRAIL = re.compile(
    r"\s+(?:a lot|so much|very much|too|anymore|any more|again|the most|more than anything|"
    r"at all|in general|either|these days|lately|now|please|to me|for me|on weekends|"
    r"on the weekends?|every \w+|at night|in the mornings?|after work|with friends|"
    r"in my free time|in my spare time|sometimes|a lot these days|completely|entirely|altogether|"
    r"recently|lately|again|these days|nowadays|"
    r"for good|totally)$",
    re.IGNORECASE,
)
# "-ies" words whose singular ends in "-ie", not "-y".
_IE_WORDS = word_set(
    """
    movies cookies brownies smoothies zombies pies ties lies calories rookies goodies
    veggies selfies hippies
    """
)
_NO_PLURAL = ("ss", "us", "is", "ics", "ous", "news", "series", "species", "chess", "glasses")


def clean_value(value: str) -> str:
    """Trim punctuation and trailing particles from a captured phrase, keeping its case."""
    value = value.strip(_EDGE_PUNCT)
    changed = True
    while changed and value:
        changed = False
        for tail in ("了", "啦", "呀", "啊", "哦", "吧", "呢", "嘛", "哈"):
            if value.endswith(tail) and len(value) > len(tail):
                value, changed = value[: -len(tail)], True
        value = value.strip(_EDGE_PUNCT)
    return value


def _singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(_NO_PLURAL) or not word.isascii():
        return word
    if word in _IE_WORDS:
        return word[:-1]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "oes")) and word != "shoes":
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


@lru_cache(maxsize=FACTS_CACHED)
def normalize_object(obj: str) -> str:
    """The topic form of an object: particles and articles stripped, English lower-cased and
    singular, spaces as ``_``, no dots (they separate topic levels), at most 24 characters."""
    value = clean_value(obj).lower()
    value = _EN_LEAD.sub("", value)
    prev = None
    while prev != value:
        prev = value
        value = _EN_TRAIL.sub("", value).strip(_EDGE_PUNCT)
        for lead in _ZH_LEAD:
            if value.startswith(lead) and len(value) > len(lead):
                value = value[len(lead) :]
        for trail in _ZH_TRAIL:
            if value.endswith(trail) and len(value) > len(trail):
                value = value[: -len(trail)]
        value = _ZH_VERB_LEAD.sub("", value)
    words = value.split()
    if words:
        words[-1] = _singular(words[-1])
    return "_".join(words).replace(".", "_")[:24]


_SLUG_DROP_ZH = re.compile(
    r"明天|后天|大后天|今天|今晚|明晚|明早|下(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]?|下(?:个)?月|明年|"
    r"(?:这|本)(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]?|(?:周|星期|礼拜)[一二三四五六日天末]|"
    r"\d{1,2}月\d{1,2}[日号]|\d{1,2}[日号]|最近|这几天|这段时间|这阵子|目前|现在|正在|一直在|"
    r"打算|计划|准备|决定|想要|希望|争取|的目标是|目标是|目标|还要|要|会|得|先|我们家|我们|咱们|我|了|在|的|将|"
    r"昨天|前天|上周|上个月|去年|刚刚|刚才"
)
_SLUG_STOP_EN = word_set(
    """
    i i'm im am is are was be been to the a an my me for on at in of this that next week
    tomorrow today tonight day month year going gonna will plan planning want wanting
    hope hoping trying try goal would like really just currently lately recently these
    days so very and with by from yesterday last monday tuesday wednesday thursday
    friday saturday sunday weekend it's we're been have has had
    """
)


def slug(phrase: str) -> str:
    """A short key for an open-ended goal, plan or state: time words and auxiliaries dropped,
    at most 12 Chinese characters or 4 English words."""
    text = clean_value(phrase)
    if re.search(r"[\u4e00-\u9fff]", text):
        core = _SLUG_DROP_ZH.sub("", text)
        core = re.sub(r"[\s" + re.escape(_EDGE_PUNCT) + r"]", "", core) or text
        return normalize_object(core)[:12] or "unknown"
    words = [w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in _SLUG_STOP_EN]
    return "_".join(_singular(w) for w in words[:4]) or "unknown"


# What a name never is: a pronoun, a question word, or a clause about who gave it
# (她爷爷取的 / "the one her grandpa picked").
_NOT_NAME_ZH = re.compile(r"[我你他她它您谁啥]|什么|(?:取|起|改|定|选)的$|的$")
_NOT_NAME_EN = re.compile(
    r"^(?:he|she|it|him|her|them|they|his|hers|its|what|who)$|"
    r"^(?:at|on|in|by|from|after|before|when|if|back|later|anytime|tomorrow|tonight)\b",
    re.I,
)


def is_name(value: str) -> bool:
    """Could ``value`` be a name (of the user, a relative, a pet)? 朵朵, 阿橘, Lila Rose — not
    她爷爷取的 or "her": a value that is a clause about the name never replaces one."""
    v = value.strip()
    if not v or "[" in v or "]" in v:  # a redaction placeholder ("call me at [PHONE]")
        return False
    if re.search(r"[\u4e00-\u9fff]", v):
        return len(v) <= 6 and not _NOT_NAME_ZH.search(v)
    return len(v.split()) <= 4 and not _NOT_NAME_EN.match(v)
