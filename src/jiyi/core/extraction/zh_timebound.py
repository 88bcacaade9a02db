"""Chinese time-bound rules: goals, dated plans, states the user is in now, past events.

"我打算明年考研" is a goal, "下周五要去面试" a plan with its day, "最近好累" a state that
expires, "上个月刚入职" an event with its date. :mod:`jiyi.core.extraction.zh` tries these
after the lasting facts and tastes.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import EVENT_TTL, SHORT_STATE_TTL, STATE_TTL, Context, Hit
from jiyi.core.extraction.plans import plan_key
from jiyi.core.extraction.topics import slug
from jiyi.core.extraction.zh_common import REL, third_person_zh
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

__all__ = ["exam_switch", "past_event", "plan", "state"]

G, E, S = MemoryKind.GOAL, MemoryKind.EVENT, MemoryKind.STATE

# Only a year away is too vague for a one-off event; it stays a goal with valid_from.
_COARSE = re.compile(r"明年|年底|年初|下半年|上半年|今年|next year", re.I)
_GOAL_VERB = (
    r"学|考|去|换|买|减|戒|存|攒|搬|开|读|当|成为|练|养|生|参加|申请|出国|旅|学会|跑|做|转行|创业|"
    r"实现|拿到|拿下|通过|完成|结婚|要孩子|要二胎|找|移民|留学|升职|跳槽"
)
_GOAL_RE = re.compile(
    r"(?:打算|计划|准备|决定|想要|希望能?|争取|立志|梦想是|目标是|的目标是|正在计划|梦想|在努力|努力|尽量|"
    r"(?:要|想(?!过)|得)(?=在?[^，,]{0,8}?(?:之前|以前|前)[^，,]{2,})|"
    rf"想(?!过)(?:在|于)?(?=[^，,]{{0,10}}?(?:{_GOAL_VERB}))|"
    r"想(?!过)(?=(?:今年|明年|这学期|下半年|年底前)?把.+?(?:学会|考过|减到|存够|攒够|搞定|拿下|练好)))"
    r"(?P<x>.+)$"
)
# What follows 准备 / 努力 when it is a stretch of time spent (了大半年 / 了三个月), not a goal.
_SPENT = re.compile(
    r"^了?(?:大|小)?(?:半|[一两二三四五六七八九十几\d]+)(?:个)?(?:多)?(?:年|月|周|星期|天|礼拜)"
    r"(?:多|半)?(?:了)?$|^了?(?:好久|很久|好几年|好多年)"
)
_ILLNESS = re.compile(
    r"感冒|发烧|咳嗽|生病|病了|头疼|头痛|胃疼|肚子疼|牙疼|拉肚子|失眠|不舒服|住院|过敏了|嗓子疼|"
    r"鼻塞|骨折|扭伤|腰疼|腰不好|腿疼|肩膀疼|颈椎疼|发炎|上火|长痘|感染|新冠|水痘|受伤|伤了|"
    r"(?<![\u4e00-\u9fff])阳了|(?<=[我又也都就])阳了|"  # 贵阳了 / 沈阳了: a city, not covid
    r"没(?:怎么)?睡好|没睡着|"
    r"睡眠(?:一直|最近|也)?(?:不太|不怎么|不)好|睡不好|睡不着"
)
_FEELING = re.compile(
    r"心情不好|很累|好累|特别累|压力(?:很|好|特别|有点|挺)?大|焦虑|难过|伤心|郁闷|很忙|好忙|特别忙|"
    r"加班|出差|休假|放假|休息|请假"
)
_LASTING = re.compile(
    r"最近|这几天|这段时间|这阵子|这些天|近期|一直|这个月|这周|本周|这两周|总是|经常|天天"
)
_ONGOING = re.compile(
    r"^(?:我)?(?:(?:最近|这几天|这段时间|这阵子|近期|一直|这个月|这周|这[两几](?:周|个星期|个月))"
    r"(?:都|也|还)?(?:在|正在)?|"
    r"(?:这学期|这一年|今年)(?:都|也|还)?(?:在|正在))(?!.*没(?:考上|过|成))"
    r"(?P<x>.{2,})$"
    r"|^(?:我们|我)?(?:现在|目前)?(?:正在|在家|在|处于)(?P<y>减肥|减脂|健身|备考|考研|备孕|找工作|装修|戒烟|戒酒|"
    r"戒糖|戒(?:咖啡|奶茶|可乐|甜食|零食|夜宵|宵夜|糖|碳水|手机|游戏)|控糖|养胃|带娃|坐月子|休产假|休假|实习|恢复|康复|休养|养伤|养病|复健|学.+|练.+|准备.+|报名.+|"
    r"参加.+(?:培训|课程|班)|上.+(?:课|班)|[\u4e00-\u9fff]{1,4}期)$"
)
# What makes a dated clause a plan: something the user will do.
_PLAN_ACT = (
    r"要|会|得|打算|准备|计划|将|去|回|飞|约|见|开|考|参加|出差|旅游|旅行|度假|搬|结婚|办|交|上|做|看|拔|"
    r"打|接|送|带|陪|请|面试|入职|报到|出发|到|住院|手术|复查|体检|聚|过|生|答辩|比赛|演出|婚礼|航班|飞机|"
    r"高铁|火车|会议|开学|放假|休|签|离职|毕业|装修|预约|吃|喝|玩|买|想"
)


_HEDGED = re.compile(
    r"有机会|有空的话|有时间的话|以后有机会|哪天|说不定|"
    r"\b(?:someday|one day|some day|at some point|eventually)\b",
    re.I,
)


def plan(c: str, ctx: Context) -> list[Hit]:
    if _HEDGED.search(c):
        return []  # 有机会想去日本看看: a wish without commitment
    if "你" in c or re.search(r"每(?:天|周|个|月|晚|星期|礼拜|年)", c):
        return []  # 我明天再来问你: about this conversation; 每周: a habit, not a plan
    date = find_date(c, ctx.ref)
    if (
        date is None
        and re.match(r"^我(?:们)?(?:要|得|会)(?:去|回|参加|当|陪|送)", c)
        and (said := ctx.extra.get("last_date"))
    ):  # 我朋友下周结婚，我要去当伴娘: the day said just before
        date = find_date(said, ctx.ref)
        before = ctx.extra.get("last_dated", said)  # 我儿子学校下周三开家长会，我得去
        c = f"{before}，{c}" if date else c
        ctx.extra["carried"] = third_person_zh(c)
    goal = _GOAL_RE.search(c)
    if goal and _SPENT.match(goal["x"]):
        goal = None  # 准备了大半年: how long it was prepared for, no goal
    today = ctx.ref.replace(hour=0, minute=0, second=0, microsecond=0)
    if date is not None and date[0] < today:
        date = None
    explicit = date is not None and re.search(
        r"明|后天|下|这|本|周末|月底|号|日|节|五一|国庆|元旦|圣诞|寒假|暑假|跨年", date[1]
    )
    if (
        date is not None
        and not explicit
        and re.search(r"[了过完](?!解)|刚", c)
        and not re.search(r"要|会|打算|准备|将", c)
    ):
        date = None  # 我三月份去了一趟云南: done, not planned
    if (
        date is not None
        and date[0] == today
        and re.search(r"[了过完]", c)
        and not re.search(r"要|会|打算|准备", c)
    ):
        return []  # 今天中午吃了碗面: a moment, already past
    if goal is None and date is None:
        return []
    if re.search(r"可能|也许|或许|说不定|没准", c) and not re.search(
        r"打算|计划|决定|一定|准备", c
    ):
        return []  # 我可能明年会换工作吧: a maybe, no commitment
    if (
        goal is None
        and not re.match(
            r"^(?:我|咱|今天|今晚|明天|明晚|明早|后天|大后天|下|这|本|周|星期|礼拜|月底|月初|今年|明年|"
            r"\d|[一二三四五六七八九十])",
            c,
        )
        and not (date and c.lower().startswith(date[1].lower()))
    ):
        return []
    if re.match(r"^(?:我们)?(?:公司|单位|学校|部门|小区|老板|领导|团队|组里)", c):
        return []  # 我们公司下个月搬到望京: the company's plan, not the user's
    if (
        re.match(rf"^我(?:的|家)?(?:{REL})", c)
        and not re.match(r"^我(?:们|和|跟)", c)
        and not re.search(r"[看陪和跟带接找]我|来我家", c)
    ):
        return []  # 我老公说他下周出差: his trip, not the user's plan (来看我 is one with the user)
    if goal is None and date is not None and date[0] == today and re.search(r"又(?:要|得)", c):
        return []  # 今天又要加班: a complaint about a routine, not a plan
    if (
        goal is None
        and date is not None
        and date[0] == today
        and re.search(r"睡|休息|吃饭|洗澡|躺", c)
    ):
        return []  # 今晚得早点睡: this evening, not a plan to remember
    if (
        goal is None
        and date is not None
        and re.fullmatch(r"(?:周|星期|礼拜)[一二三四五六日天末]", date[1])
        and re.search(r"都|一般|经常|常|通常|总是|会", c)
        and "要" not in c
    ):
        return []  # 周末会去跑跑步: a routine (a habit), not one dated plan
    if goal is None and ctx.extra.get("expecting") and re.search(r"生|预产期", c):
        return []  # 我们怀了双胞胎，三月份生: the due date of the pregnancy just said
    if goal is None and not re.search(_PLAN_ACT, c):
        return []  # 今天心情还不错: a date, but nothing the user will do
    if (
        goal is None
        and ctx.extra.get("temporary")
        and not re.search(r"要|会|打算|准备|计划|将", c)
        and not (date and re.match(r"下|明|后天|\d|[一二三四五六七八九十]+月", date[1]))
    ):
        return []  # 这个月我都在上海，周末才回家: part of the state just said
    key = slug(goal.group("x") if goal else c.replace(date[1] if date else "", ""))
    if date is not None and not _COARSE.search(date[1]):
        key = plan_key(c) or key  # 面试 whatever else is said: 改到下周五 lands on it
        day = date[0].date().isoformat()
        said = ctx.extra.pop("carried", None)
        # 今天加班到十点(，累死了): how today is going, weighed with the rest of the message
        now = date[0].date() == today.date() and not re.search(
            r"要|会|打算|准备|计划|得|约|去|回|飞|想", c
        )
        return [Hit(E, f"plan.{key}", "plan.today" if now else "plan.dated", when=date[0],
                    ttl=EVENT_TTL, value=day, content=said)]  # fmt: skip
    return [Hit(G, f"goal.{key}", "goal", when=date[0] if date else None)]


def state(c: str, ctx: Context) -> list[Hit]:
    if _JUST_DONE.match(c):
        return []  # 我这周刚入职新公司: an event that just happened
    date = find_date(c, ctx.ref)
    # 从周一开始就感冒了，到现在还没好: the weekday is behind, a state since then
    since = re.search(r"从.{1,8}?(?:开始|起)", c) and re.search(r"了|到现在|至今|还没|一直", c)
    if date is not None and date[0] > ctx.ref and not since:
        return []  # 下周要出差 is a plan, not how the user is now
    short = bool(re.search(r"今天|今晚|这两天|刚刚|刚才", c))
    ttl = SHORT_STATE_TTL if short else STATE_TTL
    m = _ILLNESS.search(c) or (_FEELING.search(c) if _LASTING.search(c) else None)
    if m and re.search(r"(?:不|没|没有)$", c[: m.start()]):
        return []  # 我已经不过敏了 / 不咳嗽了: over, not ongoing
    if m and re.search(
        r"(?:老|总|总是|经常|常常|(?<![周期拜])一(?!开始|直)\S{1,4}就)$", c[: m.start()]
    ):
        return []  # 喝牛奶老拉肚子: a reaction that recurs (told with its cause), not a state
    if m:  # 我感冒了 lasts; 好累 only when it has lasted (最近好累)
        word = re.sub(r"(?:很|好|特别|有点|挺)", "", m.group(0))
        return [Hit(S, f"state.{word}", "state.feeling", ttl=ttl)]
    m = _ONGOING.match(c)
    if m and re.match(r"(?:都|也|还)?(?:以为|当成|当是)", m.group("x") or ""):
        return []  # 我一直以为自己对牛奶过敏: a belief the user is setting right
    if m and re.match(r"(?:很|特别|好)?(?:想|希望|梦想|盼着)", m.group("x") or ""):
        return []  # 我一直想学日语: an aim held for long, a goal, not a state
    if m and re.match(
        r"(?:都|也|还)?(?:没|没有|不)(?!好|睡好|停|什么|胃口|精神|力气|劲)", m.group("x") or ""
    ):
        return []  # (我对猫毛过敏，所以)一直没养宠物: what the user has not done is no state
    if m:
        return [Hit(S, f"state.{slug(m.group('x') or m.group('y'))}", "state.ongoing", ttl=ttl)]
    return []


_JUST_DONE = re.compile(
    r"^(?:我们|我)?(?:这周|这个月|今天|昨天|前几天|上周)?(?:刚|刚刚|才)(?P<x>考上|考过|拿到|通过|结婚|领证|生了|毕业|入职|升职|买了|买房|提车|"
    r"出院|做完|办完|离职|分手|订婚|怀上)"
)


def past_event(c: str, ctx: Context) -> list[Hit]:
    if _JUST_DONE.match(c):  # 我刚考上公务员: just happened, today is its day
        today = ctx.ref.replace(hour=0, minute=0, second=0, microsecond=0)
        return [
            Hit(
                E,
                f"event.{slug(c)}",
                "event.just",
                when=today,
                ttl=EVENT_TTL,
                value=today.date().isoformat(),
            )
        ]
    if re.search(r"[\d一二两三四五六七八九十]岁(?:了|啦)?$", c):
        return []  # 张伟今年35岁了: an age, not something that happened
    window = find_time_window(c, ctx.ref)
    ahead = find_date(c, ctx.ref)
    if (
        window
        and ahead
        and ahead[0] > ctx.ref
        and window.expression in ahead[1] != window.expression
    ):
        return []  # 面试改到下周五了: 周五 is next week's, not last week's
    if (
        window is None
        or window.recent  # 最近开始练瑜伽了: ongoing, a state
        or window.start is None
        or window.start >= ctx.ref
        or not re.search(r"了|过|完|到|刚|毕业|出生|退休|入职|离职|结婚", c)
    ):
        return []
    notable = (
        r"医院|手术|检查|体检|考|面试|入职|离职|升职|结婚|订婚|分手|生|搬|买|卖|签|毕业|出院|住院"
    )
    if window.expression.startswith(("今天", "今早", "今晚", "中午", "早上")) and not re.search(
        notable, c
    ):
        return []  # 今天堵车堵死了: a moment of today, not an event to remember
    if (
        re.match(r"今|刚|中午|早上|晚上|昨|前天|前晚", window.expression)
        and re.search(r"吃了|喝了|睡了|起床|洗澡|逛|玩了|看了|追了|刷了|打了(?:游戏|会儿)", c)
        and not re.search(notable + r"|医生|看病|牙|急诊", c)
    ):
        return []  # 今天中午吃了碗面 / 昨天看了一部电影: a moment, not an event to remember
    return [
        Hit(
            E,
            f"event.{slug(c.replace(window.expression, ''))}",
            "event.past",
            when=window.start,
            ttl=EVENT_TTL,
            value=window.start.date().isoformat(),
        )
    ]


_EXAM_SWITCH = re.compile(
    r"^我?(?:今年|明年|这学期|下半年|现在|目前)*(?:就|都)?(?:改|改成|换成|转)(?:考|备考)(?P<x>[^，,不]{2,8}?)(?:了|啦|吧)?$"
)


def exam_switch(c: str, ctx: Context) -> list[Hit]:
    """改考法考了 / 今年改成考教资: the exam the user now aims for, the goal it replaces."""
    m = _EXAM_SWITCH.match(c)
    if not m or re.search(r"想|要不要|打算|吗|？|\?", c):
        return []
    return [Hit(G, "goal.main", "goal.exam", value=f"考{m.group('x')}", correction=True)]
