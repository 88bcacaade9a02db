"""Corrections that give only the value: "说错了，是1990年", "不是成都，是绵阳", "I meant Lisbon".

Said right after a correction marker or a "不是 X / not X", a bare value still names its
slot by what kind of value it is: a year is the birth year, a city is where the user lives, a
coffee or tea is the drink order. Anything else is left alone — a guessed slot could retire
an unrelated fact. A move said without "live" (搬回泉州住了) names its slot the same way
(:func:`moved_to`).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_drinks import drink_type
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.lexicon_people import KIN_EN, KIN_ZH
from jiyi.core.extraction.lexicon_places import (
    COMPANIES_ZH,
    INSTITUTION_MOVES,
    WORKPLACE_MOVES,
    is_place_zh,
    named_place_zh,
)
from jiyi.core.extraction.residence import others_move, residence_zh
from jiyi.core.extraction.things import known_thing
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import REL
from jiyi.core.extraction.zh_tastes import drink_type_word
from jiyi.core.models import MemoryKind

__all__ = ["bare_replacement", "bare_value", "called_now", "moved_to", "rename_first", "renamed"]

F, P = MemoryKind.FACT, MemoryKind.PREFERENCE
_LEAD_ZH = r"^(?:应该|其实|而)?(?:是)?(?:在|住在|住|搬到|搬去|喝|叫)?"
_LEAD_EN = (
    r"^(?:it's|it is|it was|i meant|i mean|meant|make that|in|actually|rather|that's|that is)?\s*"
)


def bare_value(clause: str, lang: str) -> list[Hit]:
    """The hit a bare corrected value stands for, or [] when its kind does not name a slot."""
    text = clean_value(clause)
    if lang == "zh":
        text = re.sub(r"(?:才对|就对了|没错|哈|啦|了)+$", "", re.sub(_LEAD_ZH, "", text))
        # (她)今年才六十九: the number, as of now
        text = re.sub(
            r"^(?:他|她)?(?:今年|现在|目前|如今)?(?:才|都|已经|只有)?(?=[\d一二两三四五六七八九十]+岁?$)",
            "",
            text,
        )
        if m := re.fullmatch(
            r"(?P<x>(?:19|20)?\d{2}|[一二三四五六七八九零〇]{2,4})年(?:出生|生)?(?:的)?", text
        ):
            year = m.group("x")
            return [
                Hit(
                    F,
                    "identity.birth_year",
                    "bare.year",
                    value=year,
                    content=f"用户是{year}年出生的",
                )
            ]
        if is_place_zh(text) and text not in COMPANIES_ZH and len(text) <= 8:
            return [Hit(F, "location.home", "bare.city", value=text, content=f"用户住在{text}")]
        if re.search(r"[我你他她也]", text):
            return []  # 其实美式我也能喝: a sentence about a drink, no bare value
        if found := drink_type_word(text):
            category, word = found
            return [
                Hit(P, f"diet.{category}.type", "bare.drink", value=word, content=f"用户喝{word}")
            ]
        return []
    text = re.sub(_LEAD_EN, "", text, flags=re.IGNORECASE).strip()
    if re.fullmatch(r"(?:19|20)\d{2}", text):
        return [
            Hit(
                F,
                "identity.birth_year",
                "bare.year",
                value=text,
                content=f"User was born in {text}",
            )
        ]
    if re.fullmatch(r"[A-Z][\w.' -]{1,30}", text) and is_place_en(text):
        return [Hit(F, "location.home", "bare.city", value=text, content=f"User lives in {text}")]
    if hit := drink_type(text.lower(), clause):
        return [hit]
    return []


def bare_replacement(clause: str, lang: str) -> Hit | None:
    """A bare value of no recognisable kind that replaces a value the user named as wrong
    ("I meant cashews, not peanuts" / "不是芒果，是菠萝"): a slot-less hit whose slot is the
    one that holds the wrong value, resolved against what is stored (the write path does it,
    by value, never by similarity). None when the clause is more than a value."""
    text = clean_value(clause)
    if lang == "zh":
        text = re.sub(r"(?:才对|就对了|没错|哈|啦|了)+$", "", re.sub(_LEAD_ZH, "", text))
        # (她)今年才六十九: the number, as of now
        text = re.sub(
            r"^(?:他|她)?(?:今年|现在|目前|如今)?(?:才|都|已经|只有)?(?=[\d一二两三四五六七八九十]+岁?$)",
            "",
            text,
        )
        # (去验咗，原来唔系芒果): a thing done is no value that was set right
        ok = 1 <= len(text) <= 8 and not re.search(
            r"[我你他她它们的是不吗呢吧？?咗]|^(?:去|来|做|验|测|查|带|打|看|昨天|今天|前天|明天|刚|上周|上次)|"
            r"(?:验|测|查)了?$",
            text,
        )
    else:
        text = re.sub(_LEAD_EN, "", text, flags=re.IGNORECASE).strip()
        # "I'm at YouTube, not Google": where the user is, said as the place of the wrong one
        text = re.sub(r"^(?:i'm|i am) (?:at|with|in)\s+", "", text, flags=re.IGNORECASE)
        # "(the test came back and) its actually kiwi, not strawberries": the right one
        text = re.sub(
            r"^(?:.{0,40}\b(?:and|but|so) )?(?:it's|its|it is|it was|it turned out to be)\s+"
            r"(?:actually\s+|really\s+|just\s+)?",
            "",
            text,
            flags=re.IGNORECASE,
        )
        text = re.sub(r"^(?:a|an|the|my)\s+", "", text, flags=re.IGNORECASE)
        ok = 1 <= len(text.split()) <= 3 and not re.search(
            r"\b(?:i|i'm|you|he|she|it|they|we|is|are|was|not|no)\b", text, re.IGNORECASE
        )
    if not ok:
        return None
    return Hit(F, "", "bare.replaces", value=text)


# A move said without "live" (搬回泉州住了 / we packed up and moved to Tucson): the value's
# type (a known city after a verb of moving) names the slot. Not for plans.
_MOVE_ZH = re.compile(
    r"(?:搬|迁)(?:了|咗)?(?:家)?(?:到|去|回|来|至)(?:了)?(?:老家)?(?P<x>[\u4e00-\u9fff]{2,4}?)"
    r"(?=住|定居|生活|安家|了|去|来|$|[，,])"
)
_MOVE_EN = re.compile(
    r"\b(?:moved|relocated|settled) (?:back |over |out |down |up |away )?(?:to|in) "
    r"(?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b"
)
# "signed a lease in Davis", "got a place over in Jeffersonville": a new home, the verb says
# the name is a place (any capitalised name but a month or day, known town or not)
_LEASE_EN = re.compile(
    r"\b(?i:signed a lease|got a place|found a place|rented a place|bought a (?:house|home|condo|"
    r"place)) (?:over |out |down |up )?in "
    r"(?!(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)"
    r"(?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b"
)
# "finally done unpacking boxes in charlotte": unpacking where one now lives (a known place)
_UNPACKED_EN = re.compile(
    r"\b(?:done|finished|through) unpacking(?: (?:the |all the |all my |my )?(?:boxes|everything|"
    r"stuff))? in (?P<x>[A-Za-z]+(?: (?!(?:lol|haha|finally|yesterday|today|now|and|but|with|so)\b)"
    r"[A-Za-z]+)?)\b",
    re.IGNORECASE,
)
# 我表姐去年全家搬去了深圳: a relative's move (with the user — 我和老公搬到了杭州 — it is theirs).
_RELATIVE_MOVES = re.compile(rf"^(?:其实|对了|另外)*我(?:的|家|们家)?(?:{REL})")
# "got a place in Omaha for the weekend": a stay, not a home
_STAY_EN = re.compile(
    r"\bfor (?:the |a |one |two |a few |a couple of )?(?:weekend|week|nights?|days?|trip|"
    r"holidays?|vacation|summer)\b|\b(?:airbnb|hotel|vacation|holiday|visit\w*)\b",
    re.IGNORECASE,
)
_NOT_YET = re.compile(
    r"要|打算|准备|计划|想|将|下个?月|明年|下周|\b(?:will|going to|plan|next|soon|hope)\b"
)


def moved_to(clause: str, lang: str) -> Hit | None:
    """The home a clause moves to, when a known city follows a verb of moving, or the
    clause tells of the user's home in parts (:mod:`jiyi.core.extraction.residence`)."""
    if _NOT_YET.search(clause) or (lang == "zh" and _RELATIVE_MOVES.match(clause)):
        return None
    m = (_MOVE_ZH if lang == "zh" else _MOVE_EN).search(clause)
    if m is not None and not (named_place_zh if lang == "zh" else is_place_en)(m.group("x")):
        m = None
    if m is None and lang == "en" and not _STAY_EN.search(clause):
        m = _LEASE_EN.search(clause)
    if m is None and lang == "en" and (u := _UNPACKED_EN.search(clause)):
        m = u if is_place_en(u["x"]) else None
    if m is not None and others_move(clause if lang == "en" else clause[: m.start()], lang):
        return None  # "Mike and Sarah moved to Denver": theirs
    x = str(m.group("x")) if m is not None else residence_zh(clause) if lang == "zh" else None
    x = x.title() if x is not None and x.islower() and lang == "en" else x  # charlotte
    x = clean_value(x) if x is not None else None  # 搬咗去觀塘呀: the place, not the 呀
    if x is None or INSTITUTION_MOVES.search(clause):  # the school moved, not the user
        return None
    if WORKPLACE_MOVES.search(clause):  # the office moved, not the user's home
        said = f"用户在{x}上班" if lang == "zh" else f"User works in {x}"
        return Hit(MemoryKind.FACT, "location.work", "work.moved", value=x, content=said)
    said = f"用户住在{x}" if lang == "zh" else f"User lives in {x}"
    rule = "home.moved" if m is not None else "home.frame"
    return Hit(MemoryKind.FACT, "location.home", rule, value=x, content=said, correction=m is None)


# A rename said by the old name ("we renamed Biscuit to Waffles", 把阿福改名叫旺财了): the
# slot is the one that holds the old name, resolved by value on write like bare_replacement.
_RENAMED_EN = re.compile(
    r"\b(?:renamed|re-named) (?P<old>[A-Za-z][\w'-]*) (?:to|as) (?P<new>[A-Z][\w'-]*)"
    r"|\bchanged (?P<old2>[A-Za-z][\w'-]*)'s name to (?P<new2>[A-Z][\w'-]*)",
    re.IGNORECASE,
)
_RENAMED_ZH = re.compile(
    r"(?:^(?:我们|我|咱们|家里人|孩子们)?(?:把|将)?|把|将)(?P<old>[\u4e00-\u9fffA-Za-z]{1,4}?)(?:的名字)?(?:改名|改成|改叫|改为|更名)"
    r"(?:了)?(?:叫|为|成)?(?P<new>(?![了啦哈])[\u4e00-\u9fffA-Za-z]{1,4}?)(?=了|啦|哈|$|[，,。！!])"
)
# A swap that names both values ("switched from Strava to Garmin Connect", 从滴滴换成了高德),
# in English one of them a car, app or team the rules know or the thing swapped named ("my
# major"; "switched from Verizon to T-Mobile" is no fact): the new value takes the slot of the one
# stored memory holding the old, resolved by value on write like a rename; when no stored
# value is the old one, nothing is stored.
_END_EN = r"(?=[,.;!?]|$| (?:because|since|cause|as|and|but|last|this|after|now)\b)"
_WORDS = r"[\w'.-]+(?: [\w'.-]+){0,3}?"
_SWAPPED_EN = re.compile(
    r"\b(?:switched|changed|moved|went|upgraded|downgraded|swapped|converted) "
    r"(?:over |(?P<what>my \w+(?: \w+)?) )?"
    rf"from (?P<old>{_WORDS}) to (?P<new>{_WORDS}){_END_EN}"
    rf"|\b(?:swapped|traded|replaced|ditched|dropped|dumped) (?P<old2>{_WORDS}) (?:for|with) "
    rf"(?P<new2>{_WORDS}){_END_EN}",
    re.IGNORECASE,
)
_SWAPPED_ZH = re.compile(
    r"(?:从|把)(?P<old>[\u4e00-\u9fffA-Za-z0-9]{1,10}?)(?:换|改|转|切换)(?:成|到|为)了?"
    r"(?P<new>[\u4e00-\u9fffA-Za-z0-9]{1,10}?)(?=了|啦|[，,。！!]|$)"
)
_KIN = frozenset(w.lower() for w in KIN_ZH | KIN_EN)
_NOT_OLD_NAME = re.compile(
    r"^(?:我|我们|我家|他|她|它|名字)|^(?:the|our|my|his|her|its|their|him|it)\b", re.IGNORECASE
)


# 我们家汤圆改名了，后来决定叫它阿肥: a name said to change, the new one in a later clause
_RENAME_FIRST_ZH = re.compile(
    r"^(?:我们家|我家|家里的?)?(?P<old>[\u4e00-\u9fff]{1,4}?)(?:的名字)?(?:已经|也|终于)?"
    r"(?:改名|改名字|换名字|换名)了$|"
    # (我外孙)嫌小翠这名儿土: the name found wanting is the one that changes
    r"(?:嫌|觉得)(?P<old2>[\u4e00-\u9fff]{2,3}?)(?:这|这个)?名(?:字|儿)?(?:太|有点)?(?:土|难听|不好听|俗|普通)"
)
_CALLED_ZH = re.compile(
    r"(?:后来|最后|现在|就|决定|都|改口|大家|我们)*(?:叫它|叫牠|喊它|管它叫)(?P<x>[\u4e00-\u9fff]{1,4}?)"
    r"(?:了|啦|哈)?$|"
    r"^(?:就|给|又)*(?:改成|换成|改叫|改为)[“\"「『]?(?P<y>[\u4e00-\u9fff]{1,4}?)[”\"」』]?(?:了|啦|哈)?$"
)


def rename_first(clause: str) -> str | None:
    """The old name a clause says is changing (汤圆改名了), when a name and not a kind."""
    m = _RENAME_FIRST_ZH.match(clause) or _RENAME_FIRST_ZH.search(clause)
    old = (m["old"] or m["old2"]) if m else None
    if old is None or _NOT_OLD_NAME.match(old) or old.lower() in _KIN:
        return None
    return old


def called_now(clause: str) -> Hit | None:
    """The new name a clause gives after :func:`rename_first` (后来决定叫它阿肥)."""
    m = _CALLED_ZH.search(clause)
    return Hit(F, "", "bare.replaces", value=m["x"] or m["y"]) if m else None


def renamed(clause: str, lang: str) -> tuple[Hit, str] | None:
    """A rename or a swap that names the old value: a slot-less hit holding the new value,
    and the old value it replaces. None when the clause names the pet or person by kind
    instead."""
    m = (_RENAMED_ZH if lang == "zh" else _RENAMED_EN).search(clause)
    swap = None if m else (_SWAPPED_ZH if lang == "zh" else _SWAPPED_EN).search(clause)
    m = m or swap
    if m is None:
        return None
    old = m.group("old") or m.groupdict().get("old2") or ""
    new = m.group("new") or m.groupdict().get("new2") or ""
    routine = None
    if (
        swap
        and lang == "en"
        and not (swap.groupdict().get("what") or known_thing(old) or known_thing(new))
    ):
        if not (swap.group("old2") and old[:1].isupper()):
            return None  # "switched from Verizon to T-Mobile": no thing these rules keep
        routine = "routine"  # "ditched Procreate for Clip Studio": only where a routine names it
    if not old or not new or _NOT_OLD_NAME.match(old) or old.lower() in _KIN:
        return None  # "renamed the cat Waffles", 把猫改名叫小白: other rules read the slot
    return Hit(F, "", "bare.replaces", value=new, obj=routine), old
