"""Chinese slot rules for where the user lives: home, hometown, a posting to another city.

The verbs people use for one slot are normalised to it: 住 / 搬到 / 定居 / base / 在X生活 →
``location.home``; 老家 / 是X人 → ``location.hometown``, so a move or a correction lands in
the slot it changes. Re-exported by :mod:`jiyi.core.extraction.zh_facts`.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_people import OTHERS_ZH
from jiyi.core.extraction.lexicon_places import is_place_zh, named_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import ADV, ON_A_TRIP, REL, place_value
from jiyi.core.models import MemoryKind

__all__ = ["location"]

F = MemoryKind.FACT

_HOME_VERB = (
    r"住在|住(?!院|宿|酒店|店|校|了|不|得|的|哪|过)|家住|家在|定居(?:在|于)?|落户(?:在)?|安家(?:在)?|"
    r"扎根(?:在)?|常驻|长住(?:在)?|租(?:房子?|了房子?)(?:住)?在|租住(?:在)?|搬到了?|搬去了?|搬了去|搬家到了?|搬回了?|搬来了?|搬过来了?|base(?:在)?|"
    r"把家(?:安|搬|安顿)(?:到|在)了?"
)


# 我跟老太婆搬到普陀来了: the user with their household
_WITH_HOUSEHOLD = (
    r"(?:跟|和)(?:老伴儿?|老太婆|老头子?|老婆|老公|媳妇|爱人|孩子们?|家人|家里人|对象|"
    r"男朋友|女朋友)"
)
_OUR_HOME_MOVED = re.compile(r"(?P<v>把家(?:搬|安|安顿)(?:到|在)了?)(?P<x>[\u4e00-\u9fff]{2,12})")
_PEOPLE = "|".join(sorted(OTHERS_ZH, key=len, reverse=True))

# (儿子)上个月把我接到长沙去住了: taken in by someone, the user lives there now
_TAKEN_IN = re.compile(
    r"把(?:我|我们|我俩)(?:老两口)?(?:接|搬)(?:到|去|来|回)了?(?P<x>[\u4e00-\u9fff]{2,6}?)(?:去|来)?"
    r"(?:跟他们?|跟她们?|一起)?(?:住|生活|养老|定居)(?:了|啦)?$"
)
# 政府把我们安置到大昌镇的移民新村: resettled, the user lives there now
_RESETTLED = re.compile(
    r"把(?:我|我们|我们家|我家|全村|村里人)(?:[^，,]{0,3}?)(?:安置|迁)(?:到|在|去)了?"
    r"(?P<x>[\u4e00-\u9fff]{2,8}?)(?:的|去|来|住|了|$)"
)
_POSTED = re.compile(
    # 下礼拜起调惠州仓了: from when, said first
    r"^(?:(?:从)?(?:下|这|本)(?:个)?(?:礼拜|周|星期|月)(?:一|起|开始)*|今年|去年|上个?月|上周|上礼拜)?"
    r"(?:我)?(?:被)?(?:我们|我的)?(?:公司|单位|领导|老板|总部|集团|包工头|工头|队长|经理|所里|院里|厂里|行里)?"
    r"(?:把我|将我|让我|给我|带(?:着)?(?:我们|我)(?:一帮|一伙|几个)?[^，,去到]{0,4}?)?(?:我)?(?:被)?"
    r"(?:已经|刚|刚刚|最近)*"
    r"(?:调|派|外派|调派|借调|调动|分配|轮岗|换|转|挪|transfer)(?:我)?"
    r"(?:(?:到|去|往)(?P<x>[\u4e00-\u9fff]{2,6}?)"
    r"(?:的)?(?:分公司|总部|办事处|办公室|分部|园区|基地|门店|工厂|分行|项目组|项目部|仓库?|office)?|"
    r"(?P<y>[\u4e00-\u9fff]{2,4}?)(?:仓库?|分公司|分部|分厂|门店|分行|基地|项目部))"
    r"(?:工作|上班|常驻|驻点)?(?:了|啦)?$"
)


# What a stay is for when it is no home: 在上海出差 / 在三亚度假 / 在北京开会.
_VISIT = re.compile(
    r"(?:出差|旅游|旅行|玩|开会|培训|度假|出游|看病|住院|探亲|办事|参展|比赛|考试)$"
)


# A stay, not a home: 这周住在我妈家 / 暂时住朋友那 / 住在我姐家几天.
_STAY = re.compile(
    rf"(?:这周|这几天|这两天|这个周末|这阵子|暂时|临时)(?:先)?住|"
    rf"住(?:在)?(?:我)?(?:{REL}|朋友|同学|亲戚|闺蜜|老乡)(?:家|那)|"
    # (爸妈下周来深圳玩几天，)住我这: a visit; 搬来住我这 would be a move
    r"(?<!搬来)(?<!搬过来)(?<!搬)住(?:在)?我(?:这|这儿|这里|家|们家)"
    r"(?:[\d一二两三四五六七八九十几]+(?:天|晚|周|个?星期|个?礼拜|个?月)|几天|一阵子?|一段时间)?$"
)


def location(c: str, ctx: Context) -> list[Hit]:
    if _STAY.search(c):
        return []  # 说实话我这周住在我妈家: where the user stays, their home unchanged
    taken = _TAKEN_IN.search(c) or _RESETTLED.search(c)
    if taken and is_place_zh(place := place_value(taken["x"])):
        ctx.extra["home_city"] = place
        return [Hit(F, "location.home", "home.taken_in", value=place, correction=True,
                    content=f"用户住在{place}")]  # fmt: skip
    # 坐标深圳南山区 (chat: "located at") / (最后)租在了宝安西乡: where the user lives
    lives = re.match(r"^(?:我)?(?:现在)?坐标(?P<x>[\u4e00-\u9fff]{2,8})$", c) or re.search(
        r"(?:^我?|最后|现在|后来|终于)(?:在)?租(?:在|到)了?(?P<x>[\u4e00-\u9fff]{2,6}?)(?:了)?$", c
    )
    if lives and named_place_zh(lives["x"]):
        return [Hit(F, "location.home", "home.said", value=lives["x"],
                    content=f"用户住在{lives['x']}")]  # fmt: skip
    m = re.match(
        r"^(?:我们家|我们|我)?(?:已经|刚|刚刚|都)*(?:搬)?回(?:到)?(?:了)?老家(?P<x>[\u4e00-\u9fff]{2,6}?)(?:去|来)?(?:了|住了|定居了|生活了|发展了)$",
        c,
    )
    if m and is_place_zh(m.group("x")):  # 上个月回老家长沙了: home is the hometown again
        return [Hit(F, "location.home", "home.back", value=m.group("x"), correction=True,
                    content=f"用户住在{m.group('x')}")]  # fmt: skip
    if (
        (m := _POSTED.match(c))
        and is_place_zh(posted := m.group("x") or m.group("y"))
        and not re.search(rf"{ON_A_TRIP}|旅游", c)  # 派去上海出差: a trip
    ):
        # 公司把我调到无锡了: where the user works now (and, once they move, lives)
        return [Hit(F, "location.work", "work.posted", value=posted, correction=True)]
    if re.search(r"(?:要|打算|准备|计划|想|将|会|下(?:个)?月|明年|下周)(?:要)?搬", c):
        return []  # 我下个月要搬去厦门: a plan, not where the user lives now
    if re.match(
        r"^(?:我们家|我们|我家|我)?(?:已经|刚|刚刚|最近|上个月|上周)*搬(?:了)?家了?(?:哦|啦|呀)?$",
        c,
    ):
        ctx.extra["slot"] = "location.home"  # 我搬家了，新家在浦东: where follows
        return []
    if m := re.match(r"^(?:我们|我)?(?:的)?新家(?:在|是在|搬到了?)(?P<x>[^，,]+?)(?:了|啦)?$", c):
        where = clean_value(m.group("x"))
        return [Hit(F, "location.home", "home.new", value=where, content=f"用户住在{where}",
                    correction=True)]  # fmt: skip
    if re.match(r"^我(?:和|跟)[^，,]{1,6}?(?:一起住|住在一起|同居)", c):
        ctx.extra["slot"] = "location.home"  # 我和男朋友住在一起，在上海徐汇: where follows
        return []
    m = re.match(
        rf"^(?:我们家|我们|我家|我(?:{_WITH_HOUSEHOLD})?)?{ADV}(?P<neg>不再|已经不|不)?(?:从\S+?)?"
        rf"(?P<v>{_HOME_VERB})(?P<x>.+)$",
        c,
        re.IGNORECASE,
    )
    if not m and (moved := _OUR_HOME_MOVED.search(c)) and "我" in c[: moved.start()]:
        # …乘客骂娘我也没办法后来总算把家搬到普陀沈家门了: dictated without a break, the
        # move is the user's when nobody else is named after their last 我
        lead = c[c[: moved.start()].rindex("我") :]
        if not re.search(rf"{REL}|{_PEOPLE}", lead):
            m = moved
    if not m:
        m = re.match(
            rf"^(?:我们家|我们|我家|我){ADV}在(?P<x>[^，,]+?)(?P<v>定居|生活|住|安家|落户|扎根|待|呆|漂)"
            r"(?:了|着)?(?:[^，,]{0,8})?$",
            c,
        )
        if m and not is_place_zh(place_value(m.group("x"))):
            m = None
        if m and c[m.end("v") :].startswith("过"):
            m = None  # 在上海待过三年 / 在北京漂过: once, not where the user lives
    if not m:  # 我一个人在上海 / 我现在一直在深圳: a city with no verb is where the user lives
        m = re.match(
            r"^(?:我们|我)(?:一个人|自己|现在|目前|一直|常年|长期|如今|人)+在(?P<x>[\u4e00-\u9fff]{2,6})(?P<v>)$",
            c,
        )
        work = (
            re.fullmatch(r"(?P<c>[\u4e00-\u9fff]{2,4}?)(?:做单|接单|跑单|干活|做工|打零工)", m["x"])
            if m
            else None
        )
        if work and is_place_zh(work["c"]):  # 现在在东莞做工: where the user works
            return [Hit(F, "location.work", "work.doing", value=work["c"])]
        if m and (not is_place_zh(m.group("x")) or _VISIT.search(m.group("x"))):
            m = None  # 我现在在上海出差: a trip, not where the user lives
    if m and re.match(
        r"^(?:我|我们|我家)(?:的)?(?:隔壁|楼上|楼下|对门|对面|附近|旁边|那)", m.group("x")
    ):
        m = None  # (表妹)就住我隔壁小区: someone's home said from the user's, not the user's
    # 酒店 / 哪: no home; 住进去了 / 住下了 / 住惯了: how, not where
    if m and re.fullmatch(r"[\d一二两三四五六七八九十百零]+(?:楼|层)", place_value(m.group("x"))):
        m = None  # (公司搬楼层了)从十二楼搬到二十三楼: a floor, not where the user lives
    if m and not re.match(r"^(?:酒店|宾馆|民宿|院|哪|的|得|进|下|惯|久|不|着|满)", m.group("x")):
        said = m.group("x")
        if "搬" in (
            m.group("v") or ""
        ):  # 搬到普陀沈家门了离码头近: dictated on, the place ends at 了
            said = re.sub(r"(?<=..)(?:来|去)?了(?![解结])[\u4e00-\u9fff]{2,}.*$", "", said)
        place = place_value(said)
        neg = "neg" in m.groupdict() and bool(m.group("neg"))
        if neg:  # 不住北京了 says the old value is wrong; 搬到上海了 only that it changed
            return [Hit(F, "location.home", "home", correction=True, value=f"not {place}")]
        city = ctx.extra.get("home_city", "")
        if city and re.search(r"(?:区|县|镇|街道|新区)$", place) and not place.startswith(city):
            place = city + place  # 我上个月搬到杭州了，现在住在西湖区: 杭州西湖区
        ctx.extra["home_city"] = place
        content = f"用户住在{place}"  # one wording per value: 搬到上海了 / 住在上海 alike
        return [Hit(F, "location.home", "home", value=place, content=content)]
    m = re.match(
        r"^(?:我的?)?(?:老家|家乡|故乡|籍贯|祖籍)(?:其实)?(?:是|在)?(?P<x>.+)$|^我(?:来自(?P<y>.+)|是?从(?P<u>.+?)来的?)$|"
        r"^我(?:小时候|从小)?(?:是)?在(?P<z>.+)长大|^(?P<w>.+)是我(?:的)?老家$|^我(?:是)?(?:出生在|生在)(?P<v>.+)$",
        c,
    )
    if m:
        said = (
            m.group("x")
            or m.group("y")
            or m.group("u")
            or m.group("z")
            or m.group("w")
            or m.group("v")
        )
        place = place_value(said)
        place = re.sub(r"(?:那边|这边|人)$", "", place)
        if place and not re.search(r"什么|哪", place):
            return [Hit(F, "location.hometown", "hometown", value=place)]
    m = re.match(r"^(?:作为|身为)(?:一个|一名|一位)?(?P<x>[\u4e00-\u9fff]{2,5})人$", c)
    if m and is_place_zh(m["x"]):  # 作为一个东北人，(受不了湿冷): where the user is from
        said = f"用户是{m['x']}人"
        return [Hit(F, "location.hometown", "hometown.as", value=m["x"], content=said)]
    m = re.match(r"^我(?:是)?(?:土生土长的|地道的|正宗的|纯正的)?(?P<x>[\u4e00-\u9fff]{2,5})人$", c)
    if (
        m
        and not re.match(
            r"^(?:好|坏|男|女|成年|老年|年轻|病|有钱|穷|普通|一个|个|这种|那种|外地|本地|文化|读书|上班|打工|"
            r"单身|工作|内向|外向|急性子|慢性子|讲道理|爱|怕|一名|一位|名|位)",
            m.group("x"),
        )
        and not re.search(r"(?:军|工|商|客|病|主|证|家|艺|诗|成年|老年)$", m.group("x"))
    ):
        # 我是一名退伍军人 / 我是个生意人: a walk of life, not a place
        return [Hit(F, "location.hometown", "hometown.people", value=m.group("x"))]
    return []
