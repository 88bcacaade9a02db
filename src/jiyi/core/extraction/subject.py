"""Whose clause is it: the user's, their family's or pet's, or someone else's?

:func:`read_subject` reads the person a clause opens with, past the words that open it
without being its subject (其实 / 说实话 / honestly / tbh), in both languages and either
Chinese script, from the one person lexicon (:mod:`.lexicon_people`). It is what the rule
extractor skips ("我闺蜜最近在减肥"), what retraction leaves alone ("My friend Sarah
switched from vegetarian to vegan") and what the typed swap never moves. A possessive names
the last person in it: "my friend's dog" and 我妈的同事 are someone else's, "my sister's
cat" the family's. :func:`someone_else_before` is the looser English reading retraction needs
for a cue deep in a clause ("funny, my boss just moved from Denver to Boulder").

:mod:`.en_subject` is a different question: who an English clause that names nobody is about.
"""

from __future__ import annotations

import re
from enum import StrEnum

from jiyi.core.extraction.en_common import DESC
from jiyi.core.extraction.lexicon_people import (
    ADJ_EN,
    ANYONE_EN,
    ANYONE_ZH,
    CIRCLES_ZH,
    ELDERS_ZH,
    KIN_EN,
    KIN_ZH,
    NEARBY_ZH,
    OTHERS_EN,
    OTHERS_ZH,
    PARTNERS_EN,
    PARTNERS_ZH,
    SURNAMES_ZH,
    words_re,
)
from jiyi.core.text import first_word_tag, has_cjk, sentence_start, to_simplified

__all__ = [
    "BOSS_GONE",
    "LANDLORD",
    "ROUTINE",
    "SAID_OF_ME",
    "SOMEONE_ELSE",
    "TIME_THEN_PRONOUN",
    "YOU_SAID",
    "Who",
    "name_first",
    "named_first",
    "read_subject",
    "someone_else_before",
    "someone_else_leads",
    "strip_openers",
]


class Who(StrEnum):
    """Whom a clause is said of, by the person it opens with."""

    USER = "user"  # 我… / I'm… / my job… / we… / "they moved me to Reno" (done to the user)
    FAMILY = "family"  # 我老公 / my wife / our cat / my sister's dog
    OTHER = "other"  # 我同事 / a friend of mine / my friend's / someone / 小王 / 隔壁
    HE_SHE = "he_she"  # 他 / 她 / he / she / his / her: whoever was named just before
    THEY = "they"  # 他们 / they / their: a group named before
    UNSAID = "unsaid"  # no person first: 游泳挪到周五了 / "Moved to Chicago last fall"


# Whom the old "third party" test meant: a clause with one of these subjects is not the user's
# (callers that know a relative was just named read HE_SHE as that relative).
SOMEONE_ELSE = frozenset({Who.OTHER, Who.HE_SHE, Who.THEY})

# Words that open a clause without being its subject: "Honestly my buddy Tom moved to
# Seattle" is still Tom's move, 说实话我同事… still the colleague's.
_OPENERS = (
    r"(?:(?:honestly|actually|so|well|btw|by the way|fyi|tbh|ngl|lol|haha|ok|okay|oh|also|and|"
    r"but|anyway|fun fact|guess what|funny thing|random but|other than that|turns out|"
    r"turned out|apparently|seems like|looks like|i heard|heard)\b[,!:]?\s*|"
    r"(?:其实|说实话|说真的|老实说|讲真|说起来|对了|话说|顺便说一下|另外|还有|而且|不过|哈哈+|诶|哎|嗯)"
    r"[，,!！：:]?\s*)*"
)
_OPENER_RE = re.compile(rf"^{_OPENERS}", re.IGNORECASE)

_ME_ZH = r"(?:我们|咱们|我|咱)"
_OTHER_ZH = words_re(OTHERS_ZH)
_KIN_ZH = words_re(KIN_ZH)
_ADJ = rf"(?:(?:{words_re(ADJ_EN)})\s+)?"
_OTHER_EN = rf"{_ADJ}(?:{words_re(OTHERS_EN, plural=True)})"
_KIN_EN = rf"{DESC}(?:{words_re(KIN_EN)})"
# A possessive step between two people: 我妈的同事, "my sister's friend".
_OF = r"(?:的|'s\s+|s'\s+)"

_HE_SHE = re.compile(r"(?:他|她)(?!们)|(?:he|she|he's|she's|his|her)\b", re.IGNORECASE)
# "they moved me to the Reno office": an impersonal "they" that acts on the user
_IMPERSONAL = re.compile(
    r"they (?:\w+ ){0,2}(?:me|us)\b|"
    # "(big news at work,) they're consolidating": the employer, as it changes the user's job
    r"^they(?:'re| are) (?:consolidating|restructuring|downsizing|reorgani[sz]ing|merging|"
    r"relocating|closing)\b|"
    # 老板从这个月起让我当主厨了 / 公司把我调到无锡了: what was done with the user's job
    r"(?:我们)?(?:老板|领导|公司|单位|经理|主管|店长|队长|园长|护士长|包工头|工头)[^，,]{0,8}?"
    r"(?:让|叫|安排|派|调|提拔|升|把)了?(?:我|我们)(?!的)|"
    # (老板看我手艺可以，)从这个月起让我当主厨了: the boss said before, the user's job now
    r"^[^，,我]{0,8}?(?:让|安排|提拔)我[^，,]{0,4}?(?:当|做|担任)",
    re.IGNORECASE,
)
_THEY = re.compile(r"他们|她们|(?:they|they're|their)\b", re.IGNORECASE)
_OTHER = re.compile(
    # 我们老板 / 我们公司的同事 / 咱们班主任: people of the user's circle, not family
    rf"(?:{_ME_ZH}的?(?:{words_re(CIRCLES_ZH)}|[科组部班队院所处厂店校系局室])?的?)?(?:{_OTHER_ZH})|"
    # 新来的同事 / 楼下的邻居 / 健身房认识的那个哥们儿 / 理发店的Tony老师
    rf"[^我，,]{{1,8}}的(?:那个|那位|这个|这位)?(?:[A-Za-z]{{2,12}})?(?:{_OTHER_ZH})|"
    rf"{words_re(ANYONE_ZH)}|(?:{_ME_ZH}家?的?)?(?:{words_re(NEARBY_ZH)})|"
    rf"[{SURNAMES_ZH}](?:{words_re(ELDERS_ZH)})|"
    rf"(?:[^我]{{1,4}}的|{_ME_ZH}的?(?:{words_re(CIRCLES_ZH)})的?)?(?:小[{SURNAMES_ZH}]|老[{SURNAMES_ZH}])"
    r"(?=[^\s，,]{2})|"
    rf"(?:(?:my|our|a|one of my|one of our) {_OTHER_EN}|(?:{words_re(ANYONE_EN)}))|"
    # "Priya from my yoga class moved to Austin": someone the user knows from somewhere
    r"(?-i:[A-Z])[a-z]+(?<!ed)(?<!ing)(?<!ly)(?<!\bHome)(?<!\bBack)(?<!\bAway) from "
    r"(?:work|school|church|uni|college|the (?:office|gym|club|team)|(?:my|our) [a-z]+(?: [a-z]+)?)"
    r" (?!to\b)",
    re.IGNORECASE,
)
_BARE_KIN = re.compile(rf"(?:{_KIN_ZH})")
_FAMILY = re.compile(rf"{_ME_ZH}家?的?(?:{_KIN_ZH})|(?:my|our) {_KIN_EN}", re.IGNORECASE)
# After a relative, a possessive that leads on to someone who is not: 我妈的同事, 我妹的男友,
# "my sister's boyfriend".
_FAMILY_OF_OTHER = re.compile(
    rf"{_OF}(?:{_OTHER_ZH}|{words_re(PARTNERS_ZH)}|{_OTHER_EN}|{words_re(PARTNERS_EN)})",
    re.IGNORECASE,
)
_WHEN_ZH = re.compile(
    r"^(?:今天|昨天|前天|刚才|刚刚|最近|上周|上个?月|这周|前几天|前阵子|"
    r"(?:[一二三四五六七八九十]{1,2}|\d{1,2})月份?开学(?:以后|后)?|开学(?:以后|后)?)(?=..)"
)
_USER = re.compile(
    rf"{_ME_ZH}|(?:i|i'm|i've|i'd|i'll|im|ive|me|my|myself|we|we're|we've|we'd|we'll|our|us)\b",
    re.IGNORECASE,
)

# Anywhere in an English clause: a non-family person, "a friend of mine", "my sister's boss"
# ("used to be a teacher" is the user's job, not a teacher).
_OTHER_ANYWHERE_EN = re.compile(
    r"\b(?:(?:my|our|(?<!\bas )(?<!\bbe )(?<!\bwas )(?<!\bbeing )(?<!\bbecame )a|his|her|their|"
    rf"[a-z]+'s) {_OTHER_EN}|(?:{words_re(ANYONE_EN)}))"
)
_USER_EN = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've|me|us|myself)\b")


def strip_openers(clause: str) -> str:
    """The clause without the words that open it without being its subject (honestly, 其实)."""
    return _OPENER_RE.sub("", clause.strip(), count=1)


_TEACHER_MOVED = re.compile(
    rf"^[^，,]{{0,6}}?(?:老师|班主任|园长|校长|学校)(?:把|给|帮)(?:我们?家?的?)(?:{_KIN_ZH})"
)


def read_subject(clause: str) -> Who:
    """Whom ``clause`` is said of, by the person it opens with (see :class:`Who`).

    Pronouns come first (a caller that knows who was just named may read 他 / "she" as that
    relative), then someone else, then family (unless a possessive leads from the relative to
    someone else), then the user; a clause that opens with none of them is ``UNSAID``.
    """
    text = strip_openers(to_simplified(clause) if has_cjk(clause) else clause)
    text = _WHEN_ZH.sub("", text, count=1)  # 今天我们组小王升职了: the day, then the person
    if _HE_SHE.match(text):
        return Who.HE_SHE
    if _IMPERSONAL.match(text):
        return Who.USER
    if _THEY.match(text):
        return Who.THEY
    if re.match(
        rf"^(?:跟|和|同|与)(?:我的?)?(?:几个|一帮|一群)?(?:{_OTHER_ZH})(?:们|一起)?(?!的)", text
    ):
        return Who.USER  # 跟老乡转去佛山干了: the user, with someone
    if _TEACHER_MOVED.match(text):
        return Who.FAMILY  # 老师把我孙子调到大班去了: what the school did with the child
    if _OTHER.match(text):
        return Who.OTHER
    if family := _FAMILY.match(text):
        return Who.OTHER if _FAMILY_OF_OTHER.match(text, family.end()) else Who.FAMILY
    if (kin := _BARE_KIN.match(text)) and _FAMILY_OF_OTHER.match(text, kin.end()):
        return Who.OTHER  # 女儿的同学钢琴不学了: the classmate's, said without 我
    if _USER.match(text):
        return Who.USER
    return Who.UNSAID


# A person called by name opening a clause with what they did: 小红辞职了，现在在银行上班,
# 王芳搬去上海了, "Jake finally quit Amazon lol" are their news, not the user's job or home.
# Chinese: 小 / 阿 with a character that starts no common word (小区, 小时候 and 阿姨 are places,
# times or someone else already; 小宝 is often the user's child), 大 / 老 and a surname (大刘),
# a full name jieba tags as a person's (张伟, 王芳) that opens with a common surname, or a given
# name jieba found itself or rarely saw (志明, 婷婷; not 雅思, 天天); then, unless a surname
# opened it, a verb or adverb of what happened. English: a capitalised name, perhaps with a
# title (Dr. Okafor, Coach Brennan, Big Mike), then what they did. (A pet's name reads the
# same: its own facts stay.)
_SHORT_NAME = re.compile(
    r"[小阿](?![区时学吃说组心狗猫鸟鱼兔孩朋店院镇城县村猪宝贝家号事米麦费票伙姐妹哥弟姨嬷婆公爸妈伯叔])"
    r"[\u4e00-\u9fff]"
)
_DID = re.compile(r"[也都又还已刚就才去在说话讲要会不没辞换搬转考升开当从今昨上下这前后最好]")
_SURNAMES = frozenset(
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾"
    "丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段钱汤尹"
    "黎易常武乔贺赖龚文"
)
_NAME_EN = re.compile(
    r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? |(?:Coach|Big|Little|Pastor|Officer|Chef|Captain|Nurse) )?"
    r"(?P<n>[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?:'s (?:girl|boy|son|daughter|kid|wife|husband) [A-Z][a-z]+)?"  # Kwame's girl Ama
    r"(?: (?:from|at|in|on) (?:the |my |our )?[\w ]{2,20}?)?"
    r"(?:'s (?=(?:after|gone|moved|left|quit|just|finally|been|started|taken)\b)|"
    r" (?=(?:(?:just|finally|also|actually|apparently|recently|officially|already|has|had|is|"
    r"was|don|done|even) )*(?:quit|left|moved|gave up|stopped|switched|started|got|took|joined|"
    r"sold|bought|adopted|changed|dropped|went|works|lives|drinks|doesn't|does not|no longer|"
    r"packed in|retired|resign(?:ed)?|relocated|shifted|transferred|found out|got diagnosed|"
    r"is moving|is leaving)\b))"
)
_NOT_NAMES = frozenset(
    "just finally also actually apparently recently officially already so and but then well "
    "honestly update sadly today yesterday now still lol haha guess turns ended back home i "
    "we my our the a an this that it he she they you someone everyone everybody nan nana nanna "
    "gran granny gramps grandma grandpa mum mom mam dad da pa ma papa mama tennis yoga choir "
    "pilates practice class classes training swim swimming football soccer rugby hockey work "
    "school church gym rent lunch dinner breakfast coffee tea".split()
)


# A weekday or clock time in either language (a routine's, whoever moved it)
ROUTINE = re.compile(
    r"周[一二三四五六日天末]|星期|礼拜[一二三四五六日天]|[0-9一二三四五六七八九十两]点|"
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b",
    re.IGNORECASE,
)
# Clock times said in English words, beside ROUTINE: "Tennis got moved to Thursdays", "Coach
# Were has moved the Saturday group to quarter to nine" change a routine of the user's
_CLOCK_WORDS_EN = re.compile(r"\bquarter (?:to|past)\b|\bhalf past\b|\bo'clock\b", re.I)


def name_first(clause: str) -> str | None:
    """The name ``clause`` opens with, followed by what that person did; None when it
    opens otherwise."""
    if not has_cjk(clause):
        found = _NAME_EN.match(strip_openers(clause))
        first = found["n"].split()[0].lower() if found else ""
        if not first or first in _NOT_NAMES or first in KIN_EN or first.endswith(("ed", "ly")):
            return None
        if _USER_EN.search(clause.lower()) or re.search(r"\b(?:my|our|mine)\b", clause, re.I):
            return None  # "Google moved me to Denver", "Mike and I moved": the user's too
        if ROUTINE.search(clause) or _CLOCK_WORDS_EN.search(clause):
            return None  # a routine moved to a day or time is the user's routine
        return found["n"] if found else None
    text = _WHEN_ZH.sub("", strip_openers(to_simplified(clause)), count=1)
    if "我" in text or "俺" in text:
        return None  # 张学友退圈以后我都改听陈奕迅了: the user is in it
    if latin := re.match(r"[A-Z][a-z]+(?= ?[\u4e00-\u9fff])", text):  # Kelvin话他戒了羽毛球
        return latin.group() if _DID.match(text.replace(" ", "", 1), latin.end()) else None
    if text[:1] in ("小", "阿"):
        short = _SHORT_NAME.match(text)
        if not short or short.group() in KIN_ZH:  # 阿嬷 / 阿公: family
            return None
        return short.group() if _DID.match(text, short.end()) else None
    if (
        text[:1] in ("大", "老")
        and text[1:2] in _SURNAMES
        and (_DID.match(text, 2) or text[2:3] in ("把", "被"))
    ):
        return text[:2]
    word, tag, seen = first_word_tag(text[:8])
    if not 2 <= len(word) <= 3 or word in KIN_ZH:
        return None
    if tag == "nr" and word[0] in _SURNAMES and seen < 200:  # (not 高三, 王者, 李白)
        return word
    # a given name jieba found itself (志明), or said twice (婷婷); not a word its dictionary
    # holds, however it tags it (雅阁, 英文名)
    given = (tag == "nr" and seen == 0) or (len(word) == 2 and word[0] == word[1] and seen < 50)
    return word if given and _DID.match(text, len(word)) else None


def named_first(clause: str) -> bool:
    """Does ``clause`` open with a person called by name and what they did?"""
    return name_first(clause) is not None


def someone_else_leads(message: str, clause: str) -> bool:
    """Does the sentence of ``clause`` in ``message`` open, before it, with someone who is
    not the user (我们科主任刚搬家，从太原搬到北京了; 阿凯不喝豆浆了，改喝黑咖啡), with no word
    of the user's between? Then a clause without a subject is still theirs."""
    at = message.find(clause)
    if at <= 0 or ROUTINE.search(clause):
        return False  # (教练周二没空，网球课以后改到周四下午: the user's routine, moved)
    lead = message[sentence_start(message, at) : at].strip()
    first, *more = re.split(r"[，,;；]", lead, maxsplit=1)
    rest = more[0] if more else ""
    # (我们科主任 names whose 主任; a later 我 / "I" is the user again)
    if not first or re.search(r"我|俺|\b(?:i|i'm|me|my|we|our|us)\b", rest, re.I):
        return False
    return read_subject(first) in (Who.OTHER, Who.THEY) or named_first(first)


def someone_else_before(clause: str, at: int) -> bool:
    """Is an English clause, up to ``at``, said of someone who is neither the user nor a
    relative? "my boss just moved from Denver to Boulder", "a friend of mine switched from X
    to Y": their change is no statement about the user's value. A clause that names the user
    anywhere ("my friend and I …") is the user's too."""
    low = clause.lower()
    if _USER_EN.search(low):
        return False
    return _OTHER_ANYWHERE_EN.search(low[:at]) is not None


# Clauses whose people hand the subject back to the user, or name who a pronoun is (read in
# rules.py while it walks a message clause by clause).
# The end of the user's workplace by its boss: what follows without a subject is the user's
BOSS_GONE = re.compile(
    r"^(?:我们|我的)?(?:老板|厂长|老总|boss)(?:也)?(?:跑路|跑了|倒闭|破产|关门|不干了|卷款)"
    r"|^(?:my |our |the )?boss (?:ran off|went bust|shut (?:it|the \w+) down|closed)",
    re.IGNORECASE,
)
TIME_THEN_PRONOUN = re.compile(
    r"^(?P<t>(?:(?:[一二三四五六七八九十]{1,2}|\d{1,2})月份?)?开学(?:以后|后)?|今年|明年|下学期|这学期|"
    r"(?:[一二三四五六七八九十]{1,2}|\d{1,2})月份?)(?P<p>[他她])(?!们)"
)
# What the assistant said before, repeated by the user to set it right
YOU_SAID = re.compile(
    r"^(?:刚才|刚刚|之前|上次|前面)?你(?:刚才|刚刚|之前|上次)?(?:说|讲|记|写)(?:的|成)?(?:是)?(?=.)|"
    r"^(?:earlier |before )?(?:you|u) (?:said|wrote|put|have|keep saying|had)(?: that)? ",
    re.IGNORECASE,
)
# Someone else's words or view of the user: 老板说我… / 同事都夸我…
# "they've made me the office manager", "the company sent me to Tonalá": the user's own job,
# given by someone else (the clause is the user's)
DONE_TO_ME = re.compile(
    r"^(?:they|the (?:boss|company|school|practice|board|bank|firm|agency|hospital)|my (?:boss|"
    r"manager|company|employer)|management|hr)(?:'ve| have| has)? (?:just |finally |now )?"
    r"(?:made|promoted|hired|moved|transferred|sent|posted|put) me\b",
    re.IGNORECASE,
)
SAID_OF_ME = re.compile(r"^[^，,我]{1,8}?(?:说|觉得|夸|嫌|认为|见|看)(?:我)(?!们)")
# Who acts on the user's home: what follows without a subject is the user's again.
LANDLORD = re.compile(
    r"^(?:我(?:的|们|家)?)?(?:房东|物业|中介)|^(?:my |our |the )?(?:landlord|landlady|"
    r"property manager|letting agent)\b",
    re.IGNORECASE,
)
