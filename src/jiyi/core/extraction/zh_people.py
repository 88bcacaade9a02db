"""Chinese rules for the user's family, with the subject carried across clauses.

"我女儿叫朵朵，今年六岁": 六岁 is the daughter's; "我们家狗狗是只柴犬，三岁了": 三岁 is the
dog's, never the user's age. The subject of the last clause that named one is kept in
:class:`Context` (``family_zh``, ``pet``) and a clause without its own subject inherits it.
The pet rules live in :mod:`jiyi.core.extraction.zh_pets` and are re-exported here.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import STATE_TTL, Context, Hit
from jiyi.core.extraction.lexicon import RELATIONS_ZH
from jiyi.core.extraction.lexicon_health import CONDITION_RE, CONDITIONS
from jiyi.core.extraction.lexicon_places import is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import (
    NUM,
    PET_WORD,
    REL,
    SEP,
    is_role,
    name_value,
    object_key,
    place_value,
    third_person_zh,
    yes_no,
)
from jiyi.core.extraction.zh_pets import AGE as _AGE
from jiyi.core.extraction.zh_pets import NAME_VERB as _NAME_VERB
from jiyi.core.extraction.zh_pets import new_name, pet, pet_continuation, renamed
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

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
_STAGE = (
    r"(?:小学|初中|高中|大学|国中|国小)?(?:[小初高大][一二三四五六]|[一二三四五六]年级)|幼儿园(?:大|中|小)班|"
    r"中[一二三四五六](?!年)|"  # 中二 / 中三: a secondary form in Hong Kong
    r"(?:大|中|小)班|幼儿园|托班|小学|初中|高中|大学|研究生|研[一二三]|大专|中专|职高|博士|硕士"
)
# A bare name right after the relation: 我女儿朵朵今年六岁. Its first character is not a verb
# or adverb (我女儿今年…, 我女儿在读…, 我女儿特别…).
_APPOSITION = re.compile(
    r"^(?P<name>(?![在上读今已现刚也都很特最还是叫对有不没会要喜爱超比挺真太一和跟从去来说做当被把其实本确])"
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


def _attributes(key: str, rest: str, ctx: Context) -> list[Hit]:
    """What one clause says about a family member (``key`` = family.daughter)."""
    m = re.match(
        r"^(?:最近|这段时间|这阵子|这几天|这个月|现在|目前)(?:都|也|还|一直)?(?:在|正在)(?P<x>备孕|减肥|坐月子|"
        r"住院|出差|休产假|休假|养病|复健|备考|考研|找工作|装修|怀孕|戒烟|戒酒|化疗|康复|实习)(?:中|呢)?$",
        rest,
    )
    if m:  # 我老婆最近在备孕: how things are for them now, a state
        who = key.split(".")[1]
        return [Hit(MemoryKind.STATE, f"state.{who}_{m.group('x')}", "family.state", ttl=STATE_TTL)]
    if m := re.match(rf"^{_NAME_VERB}(?P<x>[^不，,]+)", rest):
        return [Hit(F, f"{key}.name", "family.name", value=name_value(m.group("x")))]
    if re.match(r"^不(?:再)?叫.+了?$", rest):
        ctx.extra["slot"] = f"{key}.name"  # 我女儿不叫朵朵了，改名叫果果
        return []
    if m := re.match(
        rf"^{_AGE}$|^(?:今年|已经|现在|都|也|其实)*(?P<m>{NUM})了$|^(?:今年|已经|现在)+(?:都|也)?(?P<k>{NUM})$",
        rest,
    ):  # 我爸今年六十二 / 我妈61了
        n = m.group("n") or m.group("m") or m.group("k")
        unit = "个月" if m.group("u") == "个月" else ""
        return [Hit(F, f"{key}.age", "family.age", value=n + unit)]
    m = re.match(
        rf"^(?:今年|现在|目前|已经|马上|明年|还|还是|正|也|其实|是|刚|刚刚|才)*(?:在)?"
        rf"(?:上|读|念|升|升到|读到)?(?:了)?"
        rf"(?P<x>{_STAGE})(?:了|啦|喇|咯|嘞)*$",
        rest,
    )
    if m:
        return [Hit(F, f"{key}.grade", "family.grade", value=m.group("x"))]
    school = re.match(
        r"^(?:现在|目前|这学期|今年|下学期起|已经)*(?:在读|在念|在上|读|念|上|转学到|转学去|转到|转去)了?"
        r"(?P<x>[^，,的]{2,10}?(?:小学|国小|国中|中学|学校|幼儿园|高中|初中|一中|二中|实验))"
        r"(?:了|啦|喇)?$",
        rest,
    )
    if school:  # 我女儿读大安国小 / 这学期转学到仁爱国小了: the school, one slot
        return [Hit(F, f"{key}.school", "family.school", value=school["x"])]
    m = re.match(
        r"^(?:现在|目前)?在(?P<x>.+?)(?:读书|上学|上大学|读大学|念书|读研究生|读研|读博士|读博|读硕士|读本科|"
        r"念研究所|读高中|上高中|读初中|上初中|上小学|读小学)$|"
        r"^(?:今年|去年|刚|刚刚|已经|终于)*考(?:上|进|取)了?(?P<y>[^，,]{2,12}?)(?:了|啦)?$",
        rest,
    )
    if m and m.group("x") and is_place_zh(place_value(m.group("x"))):
        # 我妹妹在上海读研究生: where she is (her city), the way a later move is said
        return [Hit(F, f"{key}.city", "family.city", value=place_value(m.group("x")))]
    if m and m.group("y") and is_role(m.group("y")):
        # 我老婆考上公务员了: a post won by exam is the job, not a school
        return [Hit(F, f"{key}.job", "family.job", value=clean_value(m.group("y")))]
    if m:
        return [
            Hit(
                F, f"{key}.school", "family.school", value=clean_value(m.group("x") or m.group("y"))
            )
        ]
    if n := re.search(r"(?:对)?(?P<x>[^对]+?)(?P<neg>不再|已经不|不)?过敏", rest):
        neg = bool(n.group("neg"))
        return [
            Hit(F, f"{key}.health.allergy.{o}", "family.allergy", value="no" if neg else "yes")
            for part in SEP.split(n.group("x"))
            if (o := object_key(re.sub(r"^(?:有点|也|都)", "", part)))
        ]
    cm = CONDITION_RE.search(rest)
    if cm and not rest[: cm.start()].endswith("对"):
        # (闺女说)对胃不好 / 对心脏不好的: bad for the organ, not a condition of it
        slot = CONDITIONS[cm.group(0).lower()][0]
        return [Hit(F, f"{key}.health.{slot}", "family.health", value=yes_no(rest[: cm.start()]))]
    if re.match(r"^(?:最近|去年|今年|上个月|已经|刚)*(?:换(?:了个)?工作|跳槽|辞职|离职)了?$", rest):
        ctx.extra["slot"] = f"{key}.employer"  # 我老公换工作了，(现在在腾讯): the employer next
        return []
    if m := re.match(r"^(?:现在|目前|已经|早就)*不(?:再)?(?:当|做|干)(?P<x>[^，,]{1,8}?)了$", rest):
        ctx.extra["slot"] = f"{key}.job"  # 我老婆不当老师了，(去做保险了)
        return [Hit(F, f"{key}.job", "family.job", value=f"not {clean_value(m.group('x'))}",
                    correction=True)]  # fmt: skip
    m = re.match(
        r"^(?:现在|目前|已经|后来)*(?:去|改|转行|转)(?:做|当|干|跑|开)(?P<x>[^，,]{1,8}?)(?:了)?$",
        rest,
    )
    if m and ctx.extra.get("slot") == f"{key}.job":  # (不当老师了，)去做保险了
        ctx.extra.pop("slot", None)
        return [
            Hit(F, f"{key}.job", "family.job", value=clean_value(m.group("x")), correction=True)
        ]
    m = re.match(r"^(?:现在|目前)?(?:是|当|做)(?:一名|一个|一位|个|名|位)?(?P<x>.+?)(?:的)?$", rest)
    if m and is_role(m.group("x")):
        return [Hit(F, f"{key}.job", "family.job", value=clean_value(m.group("x")))]
    m = re.match(
        r"^(?:现在|目前|已经|后来|改|转行)*(?:在)?(?P<x>(?:开|跑|送)(?:网约车|出租车?|滴滴|货车|"
        r"大货车|卡车|货拉拉|公交车?|外卖|快递))(?:了|呢)?$",
        rest,
    )
    if m:  # 我哥现在开网约车 / 我爸跑货拉拉: what they do for a living, said with its verb
        return [Hit(F, f"{key}.job", "family.job", value=m.group("x"))]
    if re.match(r"^(?:今年|已经|刚|刚刚)?退休(?:了)?$", rest):
        return [Hit(F, f"{key}.job", "family.job", value="退休")]
    m = re.match(r"^(?:现在|目前)?在(?P<x>.+?)(?:工作|上班|任职|打工)(?:了)?$", rest) or re.match(
        r"^(?:已经|刚|上个月|去年|今年|(?:毕业|结婚|退休|离婚|工作)(?:以后|之后|后))*"
        r"(?:(?:跟|和|随|带着)[^，,搬调]{1,4}?(?:一起)?)?(?:被(?:公司|单位|老板|领导)?)?"
        r"(?:调到|调去|派到|外派到|搬到|搬去|搬回|回|跳槽(?:去|到)|换(?:工作)?到|入职)了?(?P<x>[\u4e00-\u9fff]{2,6}?)"
        r"(?:(?:跟|和|与)[^，,]{1,6}?一起)?(?:工作|上班|住|生活|定居)?(?:去|来)?(?:了|啦)?$",
        rest,
    )
    back = re.match(r"^(?:已经|又|都)?回(?:到)?(?P<x>[\u4e00-\u9fff]{2,4}?)老家[^，,]{0,12}$", rest)
    if not m and back and is_place_zh(back["x"]):
        m = back  # 我哥回岳阳老家开了个修车铺: the city he went back to
    if m:  # 我爸调到天津了 / 我妹妹搬回长沙(跟我姐一起住)了
        where = clean_value(m.group("x"))
        slot = "city" if is_place_zh(where) else "employer"
        if slot == "city" and re.search(r"搬|住|生活|定居", rest):
            slot = "home"  # 我弟搬到杭州了: where he lives now, the slot 我弟弟住在上海 fills
        return [Hit(F, f"{key}.{slot}", f"family.{slot}", value=where)]
    m = re.match(r"^(?:现在|目前|一直)?(?:住在|在)(?P<x>.+?)(?:住|生活|定居)?(?:了)?$", rest)
    if m and is_place_zh(place_value(m.group("x"))):
        return [Hit(F, f"{key}.home", "family.home", value=place_value(m.group("x")))]
    if m := re.match(r"^是(?P<x>[\u4e00-\u9fff]{2,5})人$", rest):
        return [Hit(F, f"{key}.hometown", "family.hometown", value=m.group("x"))]
    n = re.search(
        r"(?P<v>不喜欢|讨厌|不爱吃|不能吃|不吃|不爱|受不了|怕|很能吃|特别能吃|挺能吃|超能吃|能吃|"
        r"喜欢|爱吃|爱喝|爱看|爱玩|迷上了?|最爱|超爱|特爱|爱)(?P<x>.+)",
        rest,
    )
    if n and (o := object_key(n.group("x"))):
        pol = "dislike" if n.group("v").startswith(("不", "讨", "受", "怕")) else "like"
        return [Hit(P, f"{key}.pref.{o}", "family.pref", polarity=pol, obj=n.group("x"), value=pol)]
    if m := re.match(
        r"^(?:是)?(?P<x>\d{1,2}|[一二三四五六七八九十]{1,2})月(?:份)?(?:出)?生的$", rest
    ):
        return [Hit(F, f"{key}.birthday", "family.birthmonth", value=f"{m.group('x')}月")]
    date = find_date(rest, ctx.ref)
    if date is not None and date[0] >= ctx.ref.replace(hour=0, minute=0, second=0, microsecond=0):
        return []  # 我儿子下周过生日: a plan, not a fact about him
    window = find_time_window(rest, ctx.ref)
    if (
        window
        and not window.recent
        and window.start
        and window.start < ctx.ref
        and re.search(r"了|过", rest)
    ):
        return []  # 我爸去年走了: an event of the family, dated
    if re.search(r"这周|这几天|这个月|最近|这阵子|这段时间", rest) and re.search(
        r"出差|在外地|住院|生病|休假|忙", rest
    ):
        return []  # 我老公这周出差了: how things are for now, a state
    if len(clean_value(rest)) >= 2 and not re.match(r"^(?:的|也|都|说|让|要|会|想)", rest):
        return [Hit(F, f"{key}.about", "family.about")]
    return []


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
    if m.group("rest") and (hits := _attributes(f"family.{rel}", m.group("rest"), ctx)):
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
_WHEN_AGED = r"上(?:个)?(?:周|星期|礼拜|月)|昨天|前天|前几天|这(?:个)?(?:周|星期|礼拜|月)|刚刚?|满"
_NAMED_AGE = re.compile(
    r"^(?:其实|实际上|对了|不对)?(?P<n>(?!今年|去年|明年|现在|已经|其实|上个|上周|这个|昨天|前天)"
    r"[\u4e00-\u9fff]{2,3}?|[A-Za-z]{2,12})"
    rf"(?:今年|现在|已经|都|其实|也|实际上|是|才|就|{_WHEN_AGED})*(?P<x>[\d一二两三四五六七八九十]+)岁(?:了|啦)?$"
)


# 朵朵上个月过了生日，(六岁了): whose age the next clause says
_BIRTHDAY_OF = re.compile(
    r"^(?P<n>[\u4e00-\u9fff]{2,3}?)(?:上(?:个)?(?:周|星期|礼拜|月)|昨天|前天|前几天|刚刚?|已经)*"
    r"过(?:了|完)(?:了)?(?:\d+|[一二三四五六七八九十]+)?(?:岁)?生日(?:了|啦)?$"
)
_BARE_AGE = re.compile(r"^(?:现在|已经|都|就|也|今年)*[\d一二两三四五六七八九十]+岁(?:了|啦)?$")


def aged_after_birthday(c: str, ctx: Context) -> str:
    """``c`` with its subject when it is a bare age after a name's birthday (朵朵过了生日，
    六岁了 → 朵朵六岁了); remembers the name when ``c`` is that birthday."""
    who = ctx.extra.pop("birthday_of", None)
    if (b := _BIRTHDAY_OF.match(c)) and not re.match(rf"^(?:我|他|她|它|你|{PET_WORD})", b["n"]):
        ctx.extra["birthday_of"] = b["n"]
    elif who and _BARE_AGE.match(c):
        return who + c
    return c


_FETCHED = re.compile(
    rf"^(?:我们|我)?(?:已经|刚|刚刚|上个月|去年|今年|年初)*把(?:我|我们)?(?:家)?(?:的)?(?P<rel>{REL})"
    r"(?:也)?(?:接|搬|带)(?:到|来|去|过来|回)了?(?P<x>[\u4e00-\u9fff]{2,6}?)(?:来|去)?"
    r"(?:(?:跟|和|与)(?:我|我们)(?:一起)?)?(?:住|生活|定居|养老)?(?:了|啦)?$"
)


def family(c: str, ctx: Context) -> list[Hit]:
    """A clause about a family member: 我女儿叫朵朵 / 我妈今年六十了 / 我老公是医生."""
    kid = None
    if ctx.extra.get("kids"):  # 哥哥叫浩浩，妹妹叫欣欣 after 我有两个小孩
        for alias, rel in _KID_ALIASES.items():
            if c.startswith(alias):
                c, kid = f"我{rel}{c[len(alias) :]}", "family.child"
                break
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
    if not m or (m.group("rel") in ("哥", "弟", "姐", "妹") and m.group("rest")[:1] in "们儿"):
        return []
    rel = RELATIONS_ZH[m.group("rel")]
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
    hits = _attributes(key, rest, ctx)
    if named and not hits:
        hits = [Hit(F, f"{key}.name", "family.name", value=named)]
    for h in hits:
        h.content = h.content or third_person_zh(c)
        h.drop = h.drop or kid  # the children named one by one replace "has two children"
        if named and not h.topic.endswith(".name"):  # 我老公李明对海鲜过敏: and he is 李明
            h.parts = {f"{key}.name": (named, f"用户的{m.group('rel')}叫{named}")}
    return hits
