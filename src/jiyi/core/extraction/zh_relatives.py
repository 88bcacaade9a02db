"""What one Chinese clause says about a family member, once :mod:`.zh_people` has found who
(``family.daughter``) and cut the relation off: age, grade, school, job, employer, city,
home, health, likes, a state for now (在备孕 / 这周出差), or a free description.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import STATE_TTL, Context, Hit
from jiyi.core.extraction.lexicon import RELATIONS_ZH, SHOPS_ZH
from jiyi.core.extraction.lexicon_health import CONDITION_RE, CONDITIONS
from jiyi.core.extraction.lexicon_places import CITIES_ZH, COMPANIES_ZH, ORG_SUFFIX_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import (
    NUM,
    REL,
    SEP,
    is_role,
    kin_said,
    name_value,
    object_key,
    place_value,
    yes_no,
)
from jiyi.core.extraction.zh_pets import AGE as _AGE
from jiyi.core.extraction.zh_pets import NAME_VERB as _NAME_VERB
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

__all__ = ["attributes"]

F, P, E = MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.EVENT
_STAGE = (
    r"(?:小学|初中|高中|大学|国中|国小)?(?:[小初高大][一二三四五六]|[一二三四五六]年级)|幼儿园(?:大|中|小)班|"
    r"中[一二三四五六](?!年)|"  # 中二 / 中三: a secondary form in Hong Kong
    # 升 P4 / 读 Sec 2: a year of school in Singapore, Malaysia or Hong Kong
    r"(?<![A-Za-z])(?:P|Pri|Primary ?|S|Sec ?|F|Form ?|K)[1-6](?![\dA-Za-z])|"
    r"(?:幼幼|大|中|小)班|幼儿园|托班|小学|初中|高中|大学|研究生|研[一二三]|大专|中专|职高|博士|硕士"
)


def _word(key: str) -> str:
    """A Chinese word for the relative of ``key`` (family.son → 儿子), for a slot's own text."""
    return next((w for w, k in RELATIONS_ZH.items() if f"family.{k}" == key), "家人")


# 在南京上大二 / 在广州开出租 / 在英国留学 / 在县城上高中: where, then what they do there.
_PLACE_THEN = re.compile(
    r"^(?:现在|目前|一直|还)?在(?P<p>[\u4e00-\u9fff]{2,4}?)"
    r"(?P<r>(?:上(?!班)|读|念|学|开|跑|送|留学|当|做|干)[^，,]*)$"
)
_LOCALITY = frozenset("县城 镇上 村里 乡下 老家 市里 城里 国外 外地".split())
_SCHOOLS = frozenset("幼儿园 小学 初中 高中 大学 中学".split())


def _place_then(key: str, rest: str, ctx: Context) -> list[Hit]:
    """A relative somewhere doing something: the city (when it is one) and what the rest
    says, each in its own slot. Read whole, 我闺女在南京上大二 was a home "南京上大二"."""
    m = _PLACE_THEN.match(rest)
    if not m:
        return []
    said_as = kin_said(ctx.extra.get("family_zh", ""))
    p, what, word = m["p"], m["r"], said_as or _word(key)
    city = p not in _LOCALITY and (
        p in CITIES_ZH or bool(re.search(r"[省县州]$|(?<![超菜夜集门])市$", p))
    )
    if not (city or p in _LOCALITY or p in _SCHOOLS):
        return []  # 在社区当志工: not a city
    said = [h for h in attributes(key, what, ctx) if not h.topic.endswith(".about")]
    if what.startswith("留学"):
        said = [Hit(F, f"{key}.grade", "family.grade", value="留学")]
    if not said and not city:
        return []
    for h in said:  # each its own words: a later move must not leave 南京 in "在南京上大二"
        h.content = h.content or f"用户的{word}{what}"
    if not city:
        return said
    return [Hit(F, f"{key}.city", "family.city", value=p, content=f"用户的{word}在{p}"), *said]


def attributes(key: str, rest: str, ctx: Context) -> list[Hit]:
    """What one clause says about a family member (``key`` = family.daughter)."""
    m = re.match(
        r"^(?:最近|这段时间|这阵子|这几天|这个月|现在|目前)(?:都|也|还|一直)?(?:在|正在)(?P<x>备孕|减肥|坐月子|"
        r"住院|出差|休产假|休假|养病|复健|备考|考研|找工作|装修|怀孕|戒烟|戒酒|化疗|康复|实习)(?:中|呢)?$",
        rest,
    )
    if m:  # 我老婆最近在备孕: how things are for them now, a state
        who = key.split(".")[1]
        return [Hit(MemoryKind.STATE, f"state.{who}_{m.group('x')}", "family.state", ttl=STATE_TTL)]
    if hits := _place_then(key, rest, ctx):
        return hits
    if re.match(r"^(?:现在|目前|还)?(?:在部队|在军队)?(?:当兵|参军|服役)(?:了|呢)?$", rest):
        return [
            Hit(F, f"{key}.job", "family.job", value="军人", content=f"用户的{_word(key)}{rest}")
        ]
    if m := re.match(rf"^{_NAME_VERB}(?P<x>[^不，,]+)", rest):
        return [Hit(F, f"{key}.name", "family.name", value=name_value(m.group("x")))]
    if re.match(r"^不(?:再)?叫.+了?$", rest):
        ctx.extra["slot"] = f"{key}.name"  # 我女儿不叫朵朵了，改名叫果果
        return []
    if m := re.match(
        rf"^{_AGE}$|^(?:今年|已经|现在|都|也|其实)*(?P<m>{NUM})了$|^(?:今年|已经|现在)+(?:都|也)?(?P<k>{NUM})$"
        # 我妈其实是61: a grown-up's age needs no 岁
        r"|^(?:今年|现在|其实|实际上)*是(?P<j>[2-9]\d|[二三四五六七八九]十[一二三四五六七八九]?)(?:了)?$",
        rest,
    ):  # 我爸今年六十二 / 我妈61了
        n = m.group("n") or m.group("m") or m.group("k") or m.group("j")
        unit = "个月" if m.group("u") == "个月" else ""
        return [Hit(F, f"{key}.age", "family.age", value=n + unit)]
    m = re.match(
        rf"^(?:今年|现在|目前|已经|马上|还|还是|正|也|其实|是|刚|刚刚|才|"
        r"(?:暑假|寒假)(?:一过|过完|结束)了?|开学(?:以后|后)?|九月份?|下学期|这学期|本学期|过完年|就|都)*(?:在)?"
        # 丫头被老师调到四年级去了: moved up by the teacher
        r"(?:被(?:老师|学校|班主任|校长))?"
        rf"(?:上|读|念|升|升到|读到|转到|调到|跳到)?(?:了)?"
        rf"(?P<x>{_STAGE})(?:去)?(?:了|啦|喇|咯|嘞)*$",
        rest,
    )
    if m:
        return [Hit(F, f"{key}.grade", "family.grade", value=m.group("x"))]
    school = re.match(
        r"^(?:现在|目前|这学期|今年|下学期起|已经|开学(?:后|以后)?|开始|"
        r"(?:从)?(?:这|下|本)(?:学期|周|个?星期|个?礼拜|个?月)(?:起|开始))*"
        r"(?:在读|在念|在上|在|读|念|上|转学到|转学去|转到|转去|去|到|改去|改到)了?"
        r"(?:[^，,]{1,8}的)?(?P<x>[^，,的]{2,10}?(?:小学|国小|国中|中学|学校|幼儿园|高中|初中|一中|二中|实验|"
        r"[一二三四五六七八九十\d][中小]))"
        r"(?:上课|上学|读书|读|念|上|去)?(?:了|啦|喇)?$",  # (现在在二十九中读 / 去实验二小上了)
        rest,
    )
    both = re.match(
        r"^(?:现在|目前)?在(?P<x>[^，,在]{2,10}?(?:小学|国小|幼儿园|中学|高中|初中))(?:上|读|念)"
        rf"(?P<g>{_STAGE})$",
        rest,
    ) or re.match(  # 孙女读竹北国小三年级: the school, then the year
        r"^(?:现在|目前|今年)?(?:读|念|上)(?P<x>[^，,在]{2,10}?(?:小学|国小|幼儿园|中学|高中|初中))"
        rf"(?P<g>{_STAGE})(?:了|啦)?$",
        rest,
    )
    if both:  # 我儿子在曲江幼儿园上中班: the school and the grade, each said on its own
        word = _word(key)
        return [
            Hit(F, f"{key}.school", "family.school", value=both["x"],
                content=f"用户的{word}在{both['x']}上学"),
            Hit(F, f"{key}.grade", "family.grade", value=both["g"],
                content=f"用户的{word}上{both['g']}"),
        ]  # fmt: skip
    if school:  # 我女儿读大安国小 / 这学期转学到仁爱国小了: the school, one slot
        return [Hit(F, f"{key}.school", "family.school", value=school["x"])]
    m = re.match(
        r"^(?:现在|目前)?在(?P<x>.+?)(?:读书|上学|上大学|读大学|念书|读研究生|读研|读博士|读博|读硕士|读本科|"
        r"念研究所|读高中|上高中|读初中|上初中|上小学|读小学)$|"
        r"^(?:回来|后来|今年|去年|刚|刚刚|已经|终于)*考(?:上|进|取|了)了?(?P<y>[^，,]{2,12}?)(?:了|啦)?$",
        rest,
    )
    went = re.match(
        r"^(?:研究生|大学|博士|硕士|本科)?考到了?(?P<x>[\u4e00-\u9fff]{2,4}?)(?:去|来)?了$", rest
    )
    if went and is_place_zh(went["x"]):  # 我弟研究生考到北京去了: where he studies now
        return [Hit(F, f"{key}.city", "family.city", value=went["x"], correction=True)]
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
    shut = re.match(
        rf"^的?(?P<x>[^，,的]{{0,6}}?(?:{SHOPS_ZH}))(?:也|早就|已经)?"
        r"(?:关了|关门了|倒闭了|黄了|盘出去了|转让了)$",
        rest,
    )
    if shut:  # 我妈的小卖部关了: the shop she ran is over, her job with it
        ctx.extra["slot"] = f"{key}.job"
        return [Hit(F, f"{key}.job", "family.job", value=f"not {shut['x']}老板", correction=True)]
    if m := re.match(
        r"^(?:现在|目前|已经|早就)*不(?:再)?(?:当|做|干|开|跑|送)(?P<x>[^，,]{1,8}?)了$", rest
    ):
        ctx.extra["slot"] = f"{key}.job"  # 我老婆不当老师了，(去做保险了)
        return [Hit(F, f"{key}.job", "family.job", value=f"not {clean_value(m.group('x'))}",
                    correction=True)]  # fmt: skip
    m = re.match(
        r"^(?:现在|目前|已经|后来)*(?:去|改|转行去?|改行去?|转了?去?)(?:做|当|干|跑|开)(?P<x>[^，,]{1,8}?)"
        r"(?:了|啦)?$",
        rest,
    )
    if m and (ctx.extra.get("slot") == f"{key}.job" or re.search(r"转|改行", rest)):
        # (不当老师了，)去做保险了 / 已经转了去做保险经纪: the job now
        ctx.extra.pop("slot", None)
        return [
            Hit(F, f"{key}.job", "family.job", value=clean_value(m.group("x")), correction=True)
        ]
    at = re.match(r"^(?:现在|目前|一直)?在(?P<x>[^，,在]{2,6}?)(?:当|做)(?P<y>[^，,]{2,8})$", rest)
    where = place_value(at["x"]) if at else ""
    if at and (is_place_zh(where) or ORG_SUFFIX_ZH.search(where)):
        # 我哥在台北当工程师 / 我个仔在中环做银行 / 我妈在医院当护士: where they work (their
        # city, or the employer) and the job
        slot = "city" if is_place_zh(where) else "employer"
        word = _word(key)
        job = clean_value(at["y"])
        return [  # each slot's own text, kept when the other is replaced
            Hit(F, f"{key}.{slot}", f"family.{slot}", value=where,
                content=f"用户的{word}在{where}工作"),
            Hit(F, f"{key}.job", "family.job", value=job, content=f"用户的{word}做{job}"),
        ]  # fmt: skip
    known = re.match(
        r"^(?:现在|目前|一直|还)?在(?P<x>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:了|呢)?$", rest
    )
    if known and known["x"] in COMPANIES_ZH:  # 我表姐在华为: a company the lexicon knows
        return [Hit(F, f"{key}.employer", "family.employer", value=known["x"])]
    went = re.match(
        r"^(?:后来|现在|已经|又|就)*(?:去了|进了)(?P<x>[^，,]{2,8}?)(?:上班|工作)?(?:了)?$", rest
    )
    if went and went["x"] in COMPANIES_ZH:  # (被华为裁了，)后来去了小米: the employer now
        return [Hit(F, f"{key}.employer", "family.employer", value=went["x"])]
    m = re.match(r"^(?:现在|目前)?(?:是|当|做)(?:一名|一个|一位|个|名|位)?(?P<x>.+?)(?:的)?$", rest)
    if m and is_role(m.group("x")):
        return [Hit(F, f"{key}.job", "family.job", value=clean_value(m.group("x")))]
    m = re.match(
        r"^(?:现在|目前|已经|后来|改|转行|自己)*(?:在)?(?P<x>(?:开|跑|送)(?:网约车|出租车?|滴滴|货车|"
        r"大货车|卡车|货拉拉|公交车?|外卖|快递|罗里|的士|Grab|grab|Uber|uber|Gojek|Lalamove))"
        r"(?:了|呢)?$",
        rest,
    )
    if m:  # 我哥现在开网约车 / 我爸跑货拉拉: what they do for a living, said with its verb
        return [Hit(F, f"{key}.job", "family.job", value=m.group("x"))]
    shop = re.match(
        r"^(?:现在|目前|已经|后来|自己)*(?:(?:跟|和|与)[^，,在]{1,4}?(?:一起|合伙))?(?:在[^，,在]{2,4}?)?"
        r"(?:自己)?开了?(?:一|个|家|间)*(?P<x>[^，,]{0,6}?(?:店|超市|饭馆|馆|餐厅|厂|公司|诊所|民宿))"
        r"(?:了)?$",
        rest,
    )
    if shop and len(shop["x"]) >= 2:  # 我哥跟朋友合伙在镇上开了个超市: the shop they run now
        return [Hit(F, f"{key}.job", "family.job", value=f"{shop['x']}老板")]
    if re.match(r"^(?:今年|已经|刚|刚刚)?退休(?:了)?$", rest):
        return [Hit(F, f"{key}.job", "family.job", value="退休")]
    m = re.match(
        r"^(?:现在|目前|其实)*(?:是)?在(?P<x>(?:(?!找).)+?)(?:找了|找到了?)?(?:一)?(?:份|个)?"
        r"(?:工作|上班|任职|打工|做工|做事)(?:的)?(?:了)?$",
        rest,
    ) or re.match(
        r"^(?:已经|刚|上个月|去年|今年|(?:毕业|结婚|退休|离婚|工作)(?:以后|之后|后))*"
        r"(?:(?:跟|和|随|带着)[^，,搬调]{1,4}?(?:一起)?)?(?:被(?:公司|单位|老板|领导)?)?"
        r"(?:调到|调去|派到|外派到|搬到|搬去|搬回|回|跳槽(?:去|到)|换(?:工作)?到|入职)了?"
        r"(?P<x>(?![来去])[\u4e00-\u9fff]{2,6}?)"
        # 我妈搬去宁波我姐家住了: whose home there is no part of the city
        rf"(?:(?:我|他|她)?的?(?:{REL})(?:家|那)|(?:跟|和|与)[^，,]{{1,6}}?一起)?"
        r"(?:工作|上班|住|生活|定居)?(?:去|来)?(?:了|啦)?$",
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
    m = re.match(
        r"^(?:现在|目前|一直|一个人|自己|独自|还|也)*(?:住在|在)(?P<x>.+?)(?:住|生活|定居)?(?:了)?$",
        rest,
    )
    # 在上海找工作 / 在北京出差: looking or visiting there, no home
    if m and is_place_zh(place_value(m["x"])) and not re.search(r"找|求职|面试|出差|旅游", m["x"]):
        return [Hit(F, f"{key}.home", "family.home", value=place_value(m.group("x")))]
    if m := re.match(r"^是(?P<x>[\u4e00-\u9fff]{2,5})人$", rest):
        return [Hit(F, f"{key}.hometown", "family.hometown", value=m.group("x"))]
    n = re.search(
        r"(?P<v>不喜欢|讨厌|不爱吃|不能吃|不吃|不爱|受不了|怕(?![我你他她])|很能吃|特别能吃|挺能吃|超能吃|能吃|"
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
