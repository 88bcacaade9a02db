"""A favourite said to be another now, and which stored favourite it can be (pure).

"现在最喜欢凤凰传奇", "我現在改挺中信兄弟了", "我现在挺的是台钢雄鹰", "I switched to the Browns",
"I've gone over to the Ospreys", "…concert ni Zack Tabudlo, he's my fave na": the new value,
and the kind of favourite the words imply (挺 / 支持 / "team" → a team; 偶像 / 歌 / concert →
a singer or band). :func:`fits` says whether a stored ``favorite.*`` fact is the one it
replaces: its old value is named in the message, or its category is of the implied kind.
:mod:`jiyi.pipeline.favorites` asks for exactly one such fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.core.text import as_said, has_cjk, to_simplified

__all__ = ["Favourite", "fits", "new_favourites"]


@dataclass(frozen=True)
class Favourite:
    value: str  # as the user wrote it
    kind: str | None  # "team", "singer" or None (unknown)
    clause: str


_CLAUSES_ZH = re.compile(r"[，,。.;；!！?？~～…\s]+|[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+")
# 现在最喜欢凤凰传奇 / 我现在改挺中信兄弟了 / 而家最钟意X: said of now, not of an activity
_NOW_FAV_ZH = re.compile(
    r"^(?:说实话|讲真|老实说|其实|对了|话说)?(?:我)?"
    r"(?P<now>(?:现在|如今|而家|目前|最近)?(?:也)?(?:正式|彻底)?(?:改|换|转)?(?:成)?)"
    r"(?P<cue>最喜欢|最爱|最钟意|挺|支持|粉上|粉|追)(?:的是|的)?"
    r"(?![吃喝看听玩去做打逛跑读用穿学])(?P<x>[^的]{2,8}?|他|她)(?:了|啦|咯|喔|哦|啊)*$"
)
# 最近迷上薛之谦了，现在最喜欢他: whom 他 / 她 stands for
_FELL_FOR_ZH = re.compile(
    r"(?:迷上|喜欢上|爱上|粉上|入坑)(?:了)?(?P<n>[^，,。了的他她]{2,6}?)(?:了|啦)?(?=$|[，,。])"
)
_SINGER_ZH = re.compile(r"歌|听|唱|偶像|演唱会|专辑|乐队")
_TEAM_ZH = re.compile(r"队|球|比赛|赛季|主场|季后赛|总冠军")
_NAME_EN = r"(?-i:[A-Z][\w'.-]*(?: [A-Z][\w'.-]*){0,2})"
_SWITCHED_EN = re.compile(
    rf"\b(?:gone over to|went over to|switched (?:over )?to|jumped ship to|converted to) "
    rf"(?:the )?(?P<x>{_NAME_EN})",
    re.IGNORECASE,
)
_MY_FAVE_EN = re.compile(
    r"\b(?:he's|she's|they're|he is|she is|they are) (?:officially )?my (?:new )?"
    r"(?:fave|favou?rite)\b",
    re.IGNORECASE,
)
# "honestly Diljit is my favourite now": the new one named before it
_IS_MY_FAVE_EN = re.compile(
    rf"(?P<x>{_NAME_EN}) is (?:officially )?my (?:new )?(?:fave|favou?rite)(?: now| these days)\b",
    re.IGNORECASE,
)
_FAN_NOW_EN = re.compile(
    rf"\b(?:i'm|im|i am) (?:now |officially |a |an |full )*(?P<x>{_NAME_EN}) "
    r"(?:fan|supporter|man|woman|girl|guy|lad)s?"
    r"(?=(?: \w+)? (?:now|from now on|for life|these days)\b|$)|"
    rf"\bofficially (?:an? )?(?P<x2>{_NAME_EN}) (?:fan|supporter|man|woman|girl|guy)\b",
    re.IGNORECASE,
)
_ALL_THE_WAY_EN = re.compile(
    rf"\b(?:it's|its|it is) (?P<x>{_NAME_EN}) all the way\b|"
    rf"\bnot (?:\w+ ){{1,3}}any ?more,? (?:it's|its|it is) (?P<y>{_NAME_EN})\b",
    re.IGNORECASE,
)
_FULL_NAME_EN = re.compile(r"(?-i:\b[A-Z][a-z]+(?: (?:de la |dela |van |von )?[A-Z][a-z]+)+)")
_FAN_WORDS_EN = re.compile(
    r"\b(?:team|fan|fave|favou?rite|season|game|match|band|singer|concert|album|song)s?\b",
    re.IGNORECASE,
)
_TEAM_EN = re.compile(r"\b(?:team|season|game|match|league|supporter)s?\b", re.IGNORECASE)
_SINGER_EN = re.compile(r"\b(?:concert|song|album|sing|singer|band|music|tour|gig)s?\b", re.I)


def new_favourites(text: str) -> list[Favourite]:
    """The favourites a user message says are new (see the module doc)."""
    if has_cjk(text):
        return _zh(text)
    return _en(text)


def _zh(text: str) -> list[Favourite]:
    simple = to_simplified(text)
    out: list[Favourite] = []
    at = 0
    for clause in _CLAUSES_ZH.split(simple):
        start = simple.find(clause, at) if clause else -1
        at = start + len(clause) if start >= 0 else at
        if not (m := _NOW_FAV_ZH.match(clause)) or not m["now"]:
            continue  # 我最喜欢X alone is a plain statement, read by the rules
        # the user's own characters (台鋼雄鷹)
        value = as_said(text, m["x"], start + m.start("x")) if start >= 0 else m["x"]
        if m["x"] in ("他", "她"):
            fell = list(_FELL_FOR_ZH.finditer(simple[: max(start, 0)]))
            if len(fell) != 1:
                continue  # 现在最喜欢他 with nobody named before: whose is unknown
            value = as_said(text, fell[0]["n"], fell[0].start("n"))
        kind = "team" if m["cue"] in ("挺", "支持") or _TEAM_ZH.search(simple) else None
        if kind is None and _SINGER_ZH.search(simple):
            kind = "singer"
        if kind is None and m["x"] in ("他", "她"):
            kind = "person"  # 他 / 她: a singer, an actor or a writer, never a team
        out.append(Favourite(value, kind, clause))
    return out


def _en(text: str) -> list[Favourite]:
    kind = "team" if _TEAM_EN.search(text) else "singer" if _SINGER_EN.search(text) else None
    # "im a Steelers fan now", "officially a Cowboys man now": a team (or band) of now
    fan = [
        Favourite(m["x"] or m["x2"], kind or "team", m.group(0)) for m in _FAN_NOW_EN.finditer(text)
    ]
    if fan:
        return fan
    if way := _ALL_THE_WAY_EN.search(text):  # "not moira anymore, it's SB19 all the way"
        return [Favourite(way["x"] or way["y"], kind, way.group(0))]
    if now := _IS_MY_FAVE_EN.search(text):
        return [Favourite(now["x"], kind, now.group(0))]
    if not _FAN_WORDS_EN.search(text):
        return []  # "switched to Verizon": no favourite
    out = [Favourite(m["x"].rstrip(".'-"), kind, m.group(0)) for m in _SWITCHED_EN.finditer(text)]
    if not out and (fave := _MY_FAVE_EN.search(text)):
        names = _FULL_NAME_EN.findall(text[: fave.start()])
        if names:  # "…concert ni Zack Tabudlo last night, he's my fave"
            out.append(Favourite(names[-1], kind, fave.group(0)))
    return out


# Nicknames fans use for a few singers whose fans say them more often than the full name
# (周董 = 周杰伦, JJ = 林俊杰): the old favourite named by its nickname.
_NICKNAMES = (
    ("周董", "周杰伦"),
    ("杰伦", "周杰伦"),
    ("jay", "周杰伦"),
    ("jj", "林俊杰"),
    ("eason", "陈奕迅"),
    ("华仔", "刘德华"),
    ("学友", "张学友"),
)
_PERSON = re.compile(r"演员|明星|作家|球星|主播|up主|actor|actress|author|writer|player", re.I)


def _kind_of(category: str) -> str | None:
    c = category.lower()
    if re.search(r"队|team|club|俱乐部", c):
        return "team"
    if re.search(r"歌|singer|band|artist|偶像|musician|组合|乐队|rapper", c):
        return "singer"
    return None


def fits(new: Favourite, topic: str, value: str, text: str) -> bool:
    """Can the stored favourite ``topic`` = ``value`` be the one ``new`` replaces?"""
    category = topic.split(".", 1)[1] if "." in topic else ""
    said = to_simplified(text).casefold()
    held = to_simplified(value).casefold().removeprefix("the ")
    first = held.split()[0] if held.split() else ""
    named = (
        bool(held)
        and (
            held in said
            or any(n in said for n, full in _NICKNAMES if full == held)  # jj = 林俊杰
            or (len(first) >= 4 and re.search(rf"\b{re.escape(first)}\b", said) is not None)
            # 桃猿 of 乐天桃猿: a Chinese name said by its last (or first) two characters
            or (has_cjk(held) and len(held) >= 4 and (held[-2:] in said or held[:2] in said))
        )
    )
    if new.kind == "person":
        return named or _kind_of(category) == "singer" or bool(_PERSON.search(category))
    return named or (new.kind is not None and _kind_of(category) == new.kind)
