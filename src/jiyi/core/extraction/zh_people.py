"""Chinese rules for the user's family, with the subject carried across clauses.

"我女儿叫朵朵，今年六岁": 六岁 is the daughter's; "我们家狗狗是只柴犬，三岁了": 三岁 is the
dog's, never the user's age. The subject of the last clause that named one is kept in
:class:`Context` (``family_zh``, ``pet``) and a clause without its own subject inherits it.
The pet rules live in :mod:`jiyi.core.extraction.zh_pets` and are re-exported here.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import RELATIONS_ZH
from jiyi.core.extraction.lexicon_people import OTHERS_ZH
from jiyi.core.extraction.lexicon_places import is_place_zh
from jiyi.core.extraction.zh_common import (
    NUM,
    PET_WORD,
    REL,
    name_value,
    place_value,
    third_person_zh,
)
from jiyi.core.extraction.zh_pets import new_name, pet, pet_continuation, renamed
from jiyi.core.extraction.zh_relatives import attributes
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_time_window

__all__ = [
    "aged_after_birthday",
    "family",
    "has_family",
    "mentioned_zh",
    "new_name",
    "pet",
    "pet_continuation",
    "renamed",
]

F, P, E = MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.EVENT
_COUNT = r"(?:一个|一|个|两个|三个|俩|仨|几个|\d个|[一二两三四五]个)?"
# A bare name right after the relation: 我女儿朵朵今年六岁. Its first character is not a verb
# or adverb (我女儿今年…, 我女儿在读…, 我女儿特别…).
_APPOSITION = re.compile(
    r"^(?P<name>(?![在上读今已现刚也都很特最还是叫对有不没会要喜爱超比挺真太一和跟从去来说做当被把其实本确])"
    r"(?!明年|后年|前年|下学期|这学期|开学|暑假|寒假|过完年|马上|九月|秋天|年底|年初)"
    r"[\u4e00-\u9fff]{1,3}?)(?=今年|已经|现在|[\d一二两三四五六七八九十]{1,3}(?:周)?岁|上[小初高大一二三四五六]|"
    r"读[小初高大]|在读|对.+过敏)"
)
_KID_ALIASES = {
    "哥哥": "儿子",
    "弟弟": "儿子",
    "姐姐": "女儿",
    "妹妹": "女儿",
    "大的": "大宝",
    "老大": "大宝",
    "大宝": "大宝",
    "小的": "二宝",
    "老二": "二宝",
    "二宝": "二宝",
    "小宝": "二宝",
}


def has_family(c: str, ctx: Context) -> list[Hit]:
    """我有个妹妹(叫李婷) / 我有一儿一女 / 我家两个娃."""
    if re.match(r"^(?:我)?(?:有|家有)?(?:一儿一女|一女一儿|儿女双全|两儿一女|一儿两女)", c):
        ctx.extra["kids"] = "2"
        return [
            Hit(F, "family.son", "family.has", value="yes", content="用户有儿子"),
            Hit(F, "family.daughter", "family.has", value="yes", content="用户有女儿"),
        ]
    born = re.match(
        r"^(?:我)?(?P<when>.{0,6}?)(?:生了|生下了|添了)(?:一)?(?:个|对)(?P<rel>女儿|儿子|宝宝|闺女|双胞胎)",
        c,
    )
    if born:  # 我去年十月份生了个女儿: a child, and the day it happened
        rel = RELATIONS_ZH[born.group("rel")]
        hits = [
            Hit(
                F, f"family.{rel}", "family.born", value="yes", content=f"用户有{born.group('rel')}"
            )
        ]
        if (w := find_time_window(c, ctx.ref)) and w.start and w.start < ctx.ref:
            when = w.start.date().isoformat()
            hits.append(
                Hit(E, f"event.生{born.group('rel')}", "event.birth", when=w.start, value=when)
            )
        return hits
    m = re.match(
        rf"^(?:我有|我家有|我们有|我家|家里有|有)?(?P<n>{_COUNT})(?P<rel>{REL})(?=$|[，,叫]|(?:在|都|也|今年|一个))"
        r"(?:[，,]?(?:叫|名叫|名字叫)(?P<x>.+)|(?P<rest>.+))?$",
        c,
    )
    if (
        not m
        or m.group("rel") in ("先生", "哥", "弟", "姐", "妹")
        or (not c.startswith(("我", "家", "有")) and not m.group("n"))
    ):
        return []
    rel = RELATIONS_ZH[m.group("rel")]
    ctx.extra["family_zh"] = f"我{m.group('rel')}"
    if m.group("x"):  # 我有个妹妹叫李婷
        return [Hit(F, f"family.{rel}.name", "family.has.name", value=name_value(m.group("x")))]
    if m.group("rest") and (hits := attributes(f"family.{rel}", m.group("rest"), ctx)):
        return hits  # 我有个哥哥在美国工作
    count = m.group("n")
    if rel == "child" and count and count[0] in "两三俩仨几23":
        ctx.extra["kids"] = "2"  # 我有两个孩子，大的叫…: the next clauses name them
    return [Hit(F, f"family.{rel}", "family.has", value=count.rstrip("个") or "yes")]


def mentioned_zh(c: str, ctx: Context) -> list[Hit]:
    """A request or question that names a relative (帮我女儿挑个生日礼物吧): who 她/他 is next,
    and an age its birthday gives away (我儿子十岁生日想怎么过)."""
    if m := re.search(rf"我(?:的|家)?(?P<r>{REL})", c):
        ctx.extra["family_zh"] = f"我{m.group('r')}"
    b = re.search(rf"我(?:的|家)?(?P<r>{REL})(?:的)?(?P<n>{NUM})岁(?:的)?生日", c)
    if not b:
        return []
    rel = RELATIONS_ZH[b.group("r")]
    return [Hit(F, f"family.{rel}.age", "family.birthday_age", value=b.group("n"),
                content=f"用户的{b.group('r')}要过{b.group('n')}岁生日")]  # fmt: skip


# 旺财今年五岁了 / 其实豆豆是四岁 / 豆豆四岁了 / 豆豆上周满四岁了: an age said of a name
# alone, after when it was reached (上周 / 前天 / 这个月) and 满 (turned)
_WHEN_AGED = (
    r"上(?:个)?(?:周|星期|礼拜|月)|昨天|前天|前几天|今天|这(?:个)?(?:周|星期|礼拜|月)|刚刚?|满|"
    r"过完年|过了年|过完生日|过了生日"
)
_NAMED_GRADE = re.compile(
    r"^(?:其实|实际上|对了|不对)?(?P<n>(?!今年|去年|明年|现在|已经|其实|上个|这个)[\u4e00-\u9fff]{2,3}?|"
    r"[A-Z][a-z]{1,11}) ?"
    r"(?:今年|现在|已经|都|其实|开学|开学后|开学以后|下学期|这学期|就|也|才|在|正在)*"
    r"(?:上|读|升)? ?"
    r"(?P<g>[一二三四五六]年级|初[一二三]|高[一二三]|大[一二三四]|小班|中班|大班|中[一二三四五六]|"
    r"(?:P|S|K)[1-6]) ?(?:了|啦|咯|喽)?$"
)
_NAMED_AGE = re.compile(
    # (我家咪咪三岁了: 咪咪 said with 我家, as of a pet or a child at home)
    r"^(?:其实|实际上|对了|不对)?(?:我们家|我家|咱家)?(?P<n>(?!今年|去年|明年|现在|已经|其实|上个|上周|"
    r"这个|昨天|前天)"
    r"[\u4e00-\u9fff]{2,3}?|[A-Za-z]{2,12})"
    rf"(?:今年|现在|已经|都|其实|也|实际上|是|才|就|{_WHEN_AGED})*(?P<x>[\d一二两三四五六七八九十]+)"
    # 黄豆十三了: said without 岁
    r"(?:岁(?:生日)?(?:了|啦|啰|咯|喽)?|(?<=[十两三四五六七八九])了)$"
)


# 朵朵上个月过了生日，(六岁了): whose age the next clause says
_BIRTHDAY_OF = re.compile(
    r"^(?P<n>[\u4e00-\u9fff]{2,3}?)(?:上(?:个)?(?:周|星期|礼拜|月)|昨天|前天|前几天|刚刚?|已经)*"
    r"过(?:了|完)(?:了)?(?:\d+|[一二三四五六七八九十]+)?(?:岁)?生日(?:了|啦)?$"
)
_BARE_AGE = re.compile(r"^(?:现在|已经|都|就|也|今年)*[\d一二两三四五六七八九十]+岁(?:了|啦)?$")


# The user's own birthday, said with no name: 上周过完生日 / 剛過完生日 / 我昨天过了生日.
_OWN_BIRTHDAY = re.compile(
    r"^我?(?:上(?:个)?(?:周|星期|礼拜|月)|这(?:个)?(?:周|星期|礼拜|月)|昨天|前天|前几天|今天|刚刚?|已经)*"
    r"过(?:了|完)(?:了)?(?:我的)?生日(?:了|啦)?$"
)
# An age after the user's birthday needs no 岁 when it is a grown-up's (三十五了 / 41了).
_OWN_AGE = re.compile(
    r"^(?:现在|已经|都|就|也|今年|正式)*(?P<n>[二三四五六七八九]十[一二三四五六七八九]?|[2-9]\d)"
    r"(?:岁)?(?:了|啦|咯)$"
)


def aged_after_birthday(c: str, ctx: Context) -> str:
    """``c`` with its subject when it is a bare age after a name's birthday (朵朵过了生日，
    六岁了 → 朵朵六岁了) or the user's own (上周过完生日，三十五了 → 我三十五岁了);
    remembers whose birthday when ``c`` is one."""
    who = ctx.extra.pop("birthday_of", None)
    if _OWN_BIRTHDAY.match(c):
        ctx.extra["birthday_of"] = "我"
    elif (b := _BIRTHDAY_OF.match(c)) and not re.match(rf"^(?:我|他|她|它|你|{PET_WORD})", b["n"]):
        ctx.extra["birthday_of"] = b["n"]
    elif who == "我" and (own := _OWN_AGE.match(c)):
        return f"我{own['n']}岁了"
    elif who and _BARE_AGE.match(c):
        return who + c
    return c


_MOVED_KIN = re.compile(
    rf"^(?:[^，,给帮把]{{0,8}}?(?:老师|学校|园长|校长))?(?P<t>[^，,给帮把]{{0,6}}?)(?:就|已经|都)*"
    rf"(?:给|帮|把)(?:我们?家?)?(?:的)?(?P<rel>{REL})(?:转学|转|调)(?:到|去)"
)
_FETCHED = re.compile(
    rf"^(?:我们|我)?(?:已经|刚|刚刚|上个月|去年|今年|年初)*把(?:我|我们)?(?:家)?(?:的)?(?P<rel>{REL})"
    r"(?:也)?(?:接|搬|带)(?:到|来|去|过来|回)了?(?P<x>[\u4e00-\u9fff]{2,6}?)(?:来|去)?"
    r"(?:(?:跟|和|与)(?:我|我们)(?:一起)?)?(?:住|生活|定居|养老)?(?:了|啦)?$"
)


_OTHERS = "|".join(sorted(OTHERS_ZH, key=len, reverse=True))


def family(c: str, ctx: Context) -> list[Hit]:
    """A clause about a family member: 我女儿叫朵朵 / 我妈今年六十了 / 我老公是医生."""
    kid = None
    if ctx.extra.get("kids"):  # 哥哥叫浩浩，妹妹叫欣欣 after 我有两个小孩
        for alias, rel in _KID_ALIASES.items():
            if c.startswith(alias):
                c, kid = f"我{rel}{c[len(alias) :]}", "family.child"
                break
    # 上学期就给娃转到育才小学去了 / 老师把我孙女调到中班去了 / (儿子…)帮他转到东园国小了:
    # the relative moved on to another school or class, as if said of them
    c = _MOVED_KIN.sub(lambda m: f"我{m['rel']}{m['t']}转到", c, count=1)
    c = re.sub(r"^((?:我们家|我家|我的|我)的?(?:" + REL + r"))([^，,]{0,6}?)(?:帮|给|把)(?:他|她)"
               r"(?:转学|转|调)(?:到|去)", r"\1\2转到", c, count=1)  # fmt: skip
    # 我姐她们一家搬回老家太原了: the relative's household moved, the relative with it
    c = re.sub(
        rf"^((?:我们家|我家|我的|我)的?(?:{REL}))(?:她|他)?们?(?:一家(?:人|子|三口|四口)?|全家)(?:人)?"
        r"(?=都|也|搬|去|回|住|在|落户|定居)",
        r"\1",
        c,
    )
    if hits := has_family(c, ctx):
        return hits
    if (j := _FETCHED.match(c)) and is_place_zh(where := place_value(j["x"])):
        # 我把我妈接到天津跟我一起住了: where she lives now
        rel = RELATIONS_ZH[j["rel"]]
        return [Hit(F, f"family.{rel}.home", "family.home", value=where, correction=True,
                    content=f"用户的{j['rel']}住在{where}")]  # fmt: skip
    m = re.match(rf"^(?:我们家|我家|我的|我)的?(?P<rel>{REL})(?P<rest>.*)$", c) or re.match(
        r"^(?:这学期|这个学期|今年|去年|最近|上个月|开学后)?"
        r"(?P<rel>(?:大|小|二)?(?:女儿|儿子)|老婆|老公|孩子|闺女|媳妇|老大|老二|大宝|二宝|小宝|爸妈|父母|爸爸|妈妈|"
        r"老爸|老妈|先生|太太|宝宝|娃|小孩)(?P<rest>.+)$",
        c,
    )
    nick = re.match(
        r"^(?P<n>(?:小|阿|大)[\u4e00-\u9fff]|([\u4e00-\u9fff])\2|[\u4e00-\u9fff]宝)(?:今年|现在|已经|都|其实)+"
        r"(?P<x>[\d一二两三四五六七八九十]+)岁(?:了|啦)?$",
        c,
    )
    if not m and nick and not re.match(rf"^(?:我|他|她|它|你|{REL}|{PET_WORD})", nick.group("n")):
        # 小宇今年7岁了: someone the user has told about, a family member
        age, nn = nick.group("x"), nick.group("n")
        return [Hit(F, "family.unknown.age", "family.named_age", value=age, correction=True,
                    subject=nn, content=f"{nn}（用户的家人）今年{age}岁")]  # fmt: skip
    aged = None if m else _NAMED_AGE.match(c)
    if aged and re.fullmatch(r"[\d一二两三四五六七八九十百]+", aged.group("n")):
        aged = None  # 三十三岁了: a number, not 三十 aged 三
    if aged and not re.match(
        rf"^(?:我|他|她|它|你|这|那|谁|正式|已经|都|就|满|才|快|刚|{REL}|{PET_WORD})",
        aged.group("n"),
    ):
        # 旺财今年五岁了: any name, but kept only for the pet or relative the user stored
        # under it (pipeline/subjects.py), never guessed
        who, age = aged.group("n"), aged.group("x")
        return [Hit(F, "family.unknown.age", "named.age", value=age, correction=True,
                    subject=who, content=f"{who}今年{age}岁")]  # fmt: skip
    graded = None if m else _NAMED_GRADE.match(c)
    if graded and not re.match(rf"^(?:我|他|她|它|你|这|那|谁|{REL}|{PET_WORD})", graded["n"]):
        # 乐乐开学就三年级了: the grade of the child the user stored under that name, never
        # guessed (pipeline/subjects.py)
        who, grade = graded["n"], graded["g"]
        return [Hit(F, "family.unknown.grade", "named.grade", value=grade, correction=True,
                    subject=who, content=f"{who}读{grade}")]  # fmt: skip
    if not m or (m.group("rel") in ("哥", "弟", "姐", "妹") and m.group("rest")[:1] in "们儿"):
        return []
    rel = RELATIONS_ZH[m.group("rel")]
    if re.search(rf"有(?:个|一个|位|一位)?(?:{_OTHERS})", m.group("rest")):
        # 我媳妇她们超市那边有个同事也养了只猫，(也叫咪咪): the colleague's, and what follows
        ctx.extra.pop("family_zh", None)
        return []
    ctx.extra["family_zh"] = c[: m.start("rest")]  # 我女儿叫朵朵，今年六岁: 六岁 is hers
    ctx.extra.pop("pet", None)
    key, rest = (
        f"family.{rel}",
        re.sub(r"^(?:都|也|还|一直)+(?=是|在|有|对|住)", "", m.group("rest")),
    )
    # 我爸今年过完生日七十三了: the age the birthday brought
    rest = re.sub(
        r"(?:过完|过了)生日(?:后|以后|之后)?(?=(?:就|都|已经)*[\d一二两三四五六七八九十]+岁?(?:了|啦))",
        "",
        rest,
    )
    named = None
    if a := _APPOSITION.match(rest):  # 我女儿朵朵今年六岁: the name is part of the statement
        named, rest = a.group("name"), rest[a.end() :]
    hits = attributes(key, rest, ctx)
    if named and not hits:
        hits = [Hit(F, f"{key}.name", "family.name", value=named)]
    for h in hits:
        h.content = h.content or third_person_zh(c)
        h.drop = h.drop or kid  # the children named one by one replace "has two children"
        if named and not h.topic.endswith(".name"):  # 我老公李明对海鲜过敏: and he is 李明
            h.parts = {f"{key}.name": (named, f"用户的{m.group('rel')}叫{named}")}
    return hits
