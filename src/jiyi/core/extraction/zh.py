"""Chinese time-bound rules (states, habits, dated plans, goals, past events) and the entry
point :func:`match_zh`, which tracks the clause's subject.

The subject of a clause is the user unless it names someone (我女儿…, 我家狗…); a clause
without a subject of its own continues the last one named ("我女儿叫朵朵，今年六岁"), and a
clause that only gives a new value continues the slot the clause before said no longer holds
("我已经不在字节了，现在在快手").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import EVENT_TTL, SHORT_STATE_TTL, STATE_TTL, Context, Hit
from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS
from jiyi.core.extraction.plans import plan_change, plan_key
from jiyi.core.extraction.profile import profile_zh
from jiyi.core.extraction.topics import clean_value, slug
from jiyi.core.extraction.zh_common import (
    CHANGE_RE,
    REL,
    drop_when_lead,
    normalise_zh,
    third_person_zh,
)
from jiyi.core.extraction.zh_facts import education, identity, location, marital, regimen, traits
from jiyi.core.extraction.zh_habits import habit, habit_change
from jiyi.core.extraction.zh_health import allergy, condition, intolerance, medication
from jiyi.core.extraction.zh_people import family, new_name, pet, pet_continuation, renamed
from jiyi.core.extraction.zh_tastes import avoid, drink, preference
from jiyi.core.extraction.zh_work import _is_org as _is_org_zh
from jiyi.core.extraction.zh_work import work
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

__all__ = ["match_zh", "third_person_zh"]

F, G, E, S = MemoryKind.FACT, MemoryKind.GOAL, MemoryKind.EVENT, MemoryKind.STATE

# ------------------------------------------------------------------ goals, plans, states, events

# Only a year away is too vague for a one-off event; it stays a goal with valid_from.
_COARSE = re.compile(r"明年|年底|年初|下半年|上半年|今年|next year", re.I)
_GOAL_VERB = (
    r"学|考|去|换|买|减|戒|存|攒|搬|开|读|当|成为|练|养|生|参加|申请|出国|旅|学会|跑|做|转行|创业|"
    r"实现|拿到|拿下|通过|完成|结婚|要孩子|要二胎|找|移民|留学|升职|跳槽"
)
_GOAL_RE = re.compile(
    r"(?:打算|计划|准备|决定|想要|希望能?|争取|立志|梦想是|目标是|的目标是|正在计划|梦想|在努力|努力|尽量|"
    r"(?:要|想|得)(?=在?[^，,]{0,8}?(?:之前|以前|前)[^，,]{2,})|"
    rf"想(?:在|于)?(?=[^，,]{{0,10}}?(?:{_GOAL_VERB}))|"
    r"想(?=(?:今年|明年|这学期|下半年|年底前)?把.+?(?:学会|考过|减到|存够|攒够|搞定|拿下|练好)))"
    r"(?P<x>.+)$"
)
_ILLNESS = re.compile(
    r"感冒|发烧|咳嗽|生病|病了|头疼|头痛|胃疼|肚子疼|牙疼|拉肚子|失眠|不舒服|住院|过敏了|嗓子疼|"
    r"鼻塞|骨折|扭伤|腰疼|腰不好|腿疼|肩膀疼|颈椎疼|发炎|上火|长痘|感染|新冠|阳了|水痘|受伤|伤了|"
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
    r"^(?:我)?(?:(?:最近|这几天|这段时间|这阵子|近期|一直|这个月|这周)(?:都|也|还)?(?:在|正在)?|"
    r"(?:这学期|这一年|今年)(?:都|也|还)?(?:在|正在))(?!.*没(?:考上|过|成))"
    r"(?P<x>.{2,})$"
    r"|^(?:我们|我)?(?:现在|目前)?(?:正在|在家|在|处于)(?P<y>减肥|减脂|健身|备考|考研|备孕|找工作|装修|戒烟|戒酒|"
    r"戒糖|控糖|养胃|带娃|坐月子|休产假|休假|实习|恢复|康复|休养|养伤|养病|复健|学.+|练.+|准备.+|报名.+|"
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


def _plan(c: str, ctx: Context) -> list[Hit]:
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


def _state(c: str, ctx: Context) -> list[Hit]:
    if _JUST_DONE.match(c):
        return []  # 我这周刚入职新公司: an event that just happened
    date = find_date(c, ctx.ref)
    if date is not None and date[0] > ctx.ref:
        return []  # 下周要出差 is a plan, not how the user is now
    short = bool(re.search(r"今天|今晚|这两天|刚刚|刚才", c))
    ttl = SHORT_STATE_TTL if short else STATE_TTL
    m = _ILLNESS.search(c) or (_FEELING.search(c) if _LASTING.search(c) else None)
    if m and re.search(r"(?:不|没|没有)$", c[: m.start()]):
        return []  # 我已经不过敏了 / 不咳嗽了: over, not ongoing
    if m:  # 我感冒了 lasts; 好累 only when it has lasted (最近好累)
        word = re.sub(r"(?:很|好|特别|有点|挺)", "", m.group(0))
        return [Hit(S, f"state.{word}", "state.feeling", ttl=ttl)]
    m = _ONGOING.match(c)
    if m:
        return [Hit(S, f"state.{slug(m.group('x') or m.group('y'))}", "state.ongoing", ttl=ttl)]
    return []


_JUST_DONE = re.compile(
    r"^(?:我们|我)?(?:这周|这个月|今天|昨天|前几天|上周)?(?:刚|刚刚|才)(?P<x>考上|考过|拿到|通过|结婚|领证|生了|毕业|入职|升职|买了|买房|提车|"
    r"出院|做完|办完|离职|分手|订婚|怀上)"
)


def _past_event(c: str, ctx: Context) -> list[Hit]:
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
    if re.match(r"今|刚|中午|早上|晚上", window.expression) and re.search(
        r"吃了|喝了|睡了|起床|洗澡|逛|玩了|看了", c
    ):
        return []  # 今天中午吃了碗面: this moment, not an event to remember
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


_FACTS: tuple[Callable[[str, Context], list[Hit]], ...] = (
    profile_zh,
    family,
    pet,
    renamed,
    allergy,
    intolerance,
    regimen,
    medication,
    condition,
    identity,
    traits,
    marital,
    education,
    work,
    location,
)
_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    *_FACTS,
    drink,
    avoid,
    preference,
    habit_change,
    _state,
    habit,
    _plan,
    _past_event,
)

# A lead that frames a statement about the user without changing it: 上个月我搬到了西安.
_LEAD = re.compile(
    r"^(?:我(?=(?:辞职|离职|退休|毕业|结婚|生完孩子|过完生日)))?(?P<pre>(?:过完生日|过了年|毕业(?:以)?后|结婚(?:以)?后|生完孩子(?:以)?后|"
    r"辞职(?:以)?后|离职(?:以)?后|"
    r"退休(?:以)?后|这几年|这些年|从小|"
    r"小时候|以前|后来|如今|现在|目前|说实话|老实说|本来|原来|另外|对了|其实|所以|"
    r"[上下这今去前明本][个]?(?:周|星期|礼拜|月|年|天)[一二三四五六日天末]?|昨天|前天|刚才|刚刚|最近)+)"
    r"(?P<rest>.+)$"
)
# A clause that goes on about the user without naming them: 今年31岁 / 是一名护士 / 对虾过敏.
_ELIDED = re.compile(r"^(?:今年|已经|是|在|对|有|住|姓|属|来自|从小在|做|当|现在|目前|平时|一直)")
_CONTINUE = re.compile(
    r"^(?:现在|目前|后来|如今|已经|都|其实|然后|就|改|转|也|开始)*"
    r"(?P<v>(?:在|去|改|转|转去|转行|改行|转岗)?(?:做|当|干|跑|开|送)(?=[\u4e00-\u9fffA-Za-z]{2})|"
    r"而是|是在|是|在|到了|到|去了|去|进了|改成|改为|换成|"
    r"换到|搬到了?|搬去了?|搬回了?|改名叫|改叫|叫|转到|转(?=[\u4e00-\u9fff]{2})|读|学|念|改读|改学)"
    r"(?P<x>[^，,不]{1,12}?)(?:专业)?(?:了|上班|工作|住|啦)?$"
)
_CONTINUE_PLAIN = re.compile(
    r"^(?:现在|目前|后来|如今|已经|都|其实|然后)*(?P<v>而是|是在|是|在|到了|到|去了|去|进了|改成|改为|"
    r"换成|换到|搬到了?|搬去了?|搬回了?|改名叫|改叫|叫|当|做|转去做|转去当|转做|改做|改当|去做|去当|"
    r"转行做|转岗做|转到|转(?=[\u4e00-\u9fff]{2})|读|学|念|改读|改学)(?P<x>[^，,不]{1,12}?)(?:专业)?"
    r"(?:了|上班|工作|住|啦)?$"
)
# What someone does for a living said with its verb: 做房仲 / 跑滴滴 / 开出租 / 送外卖.
_ROLE_VERB = re.compile(r"(?:做|当|干|跑|开|送)$")
_TEMPLATES = {
    "location.home": "用户住在{}",
    "location.work": "用户在{}工作",
    "work.employer": "用户在{}工作",
    "work.role": "用户的工作是{}",
    "education.major": "用户的专业是{}",
}


# Cantonese function words → Mandarin, so the same rules read 我喺香港住 / 我唔食牛肉.
def _continuation(c: str, ctx: Context) -> list[Hit]:
    """现在在快手 / 是在宁波 / 改名叫橘子了: the new value of the slot just said to be old."""
    slot = ctx.extra.get("slot")
    if slot and slot.startswith("work.") and re.search(r"在.+(?:做|当|干)", c):
        # (我从阿里离职了，)现在在美团做前端: the whole statement, employer and role
        rest = re.sub(r"^(?:现在|目前|后来|如今|已经|然后|就)+", "", c)
        if hits := work("我现在" + rest, ctx):
            ctx.extra.pop("slot", None)
            for h in hits:
                h.correction = True
            return hits
    m = _CONTINUE.match(c) if slot else None
    if m and m.group("v") and len(clean_value(m.group("x"))) < 2:
        m = _CONTINUE_PLAIN.match(c)  # 转开发了: 开发 is the value, not 开 + 发
    if not slot or not m or re.search(r"什么|哪|吗", c):
        return []
    ctx.extra.pop("slot", None)
    value = clean_value(m.group("x"))
    if not value or (
        slot.endswith(".name") and not re.match(r"^(?:现在|改|已经|是)*(?:改名)?叫", c)
    ):
        return []
    if slot == "work.employer" and _ROLE_VERB.search(m.group("v") or "") and not _is_org_zh(value):
        slot = "work.role"  # 我离开超商了，现在在做房仲: the job now, not a company
    template = _TEMPLATES.get(slot)
    if template is None and slot.endswith(".name"):  # 豆豆改名了，现在叫球球
        template = "用户的宠物叫{}" if slot.startswith("pet.") else "用户的家人叫{}"
    content = template.format(value) if template else None
    generic = slot.split(".")[1] in ("pet", "child", "unknown")  # matched by reconciliation
    return [Hit(F, slot, "continuation", value=value, content=content, correction=generic)]


_RENAME_ONLY = re.compile(r"(?:换|改|起|取)(?:了)?(?:个|一个)?(?:新)?名字")


def _match_rules(
    clause: str, ctx: Context, rules: tuple[Callable[[str, Context], list[Hit]], ...]
) -> list[Hit]:
    for rule in rules:
        if hits := rule(clause, ctx):
            return hits
    return []


def match_zh(clause: str, ctx: Context) -> list[Hit]:
    """The hits of the first rule that recognises ``clause``; [] if none does."""
    for m in DRINK_RE.finditer(clause):
        category, is_type = DRINKS[m.group(0).lower()]
        # A type (冷萃) sets the category but keeps the user's own word for it (咖啡).
        if not is_type:
            ctx.drink_word = m.group(0)
        elif ctx.drink != category:
            ctx.drink_word = None
        ctx.drink = category
    clause = normalise_zh(clause)
    if place := ctx.extra.get("place_zh"):  # 我老家成都的，现在也还住在那: 那 is 成都
        # (公司把我调到无锡了，)这周已经搬过去住了: moved to the place just named
        clause = re.sub(
            r"搬(?:过去|过来|去那[儿里边]?|到那[儿里边]?)(?=住|了|$)", f"搬到{place}", clause
        )
        clause = re.sub(
            r"(?<=[住在待])(?:那|这)[儿里边]?(?=$|工作|上班|上学|读书|住|生活|定居|安家)",
            place,
            clause,
        )
    open_slot = ctx.extra.get("slot")
    hits = new_name(clause, ctx)
    if not hits and _RENAME_ONLY.search(clause):
        return []  # 孩子们非要给泰迪换个名字: the name follows
    hits = hits or plan_change(clause, ctx) or _continuation(clause, ctx)
    if not hits and not clause.startswith("我"):
        hits = pet_continuation(clause, ctx)
        subject = ctx.extra.get("family_zh")
        if not hits and subject and not re.match(rf"^(?:{REL})", clause):  # 女儿叫…: a new subject
            inherited = subject + re.sub(r"^(?:她|他)(?!们)", "", clause)
            hits = family(inherited, ctx)
            describes = re.match(
                r"^(?:在|是|有|最近|现在|平时|一直|也|都|很|特别|比较|刚|已经|还|住|每天|经常|总是)",
                clause,
            )
            if hits and hits[0].topic.endswith(".about") and ("我" in clause or not describes):
                hits = []  # about the user again, or too little to say
            about = ctx.extra.get("family_about")
            if (
                hits
                and about
                and not hits[0].topic.endswith(".about")
                and about.startswith(hits[0].topic.rsplit(".", 1)[0] + ".")
            ):  # 我妹妹毕业了，已经回长沙工作了: one memory, the attribute with what led to it
                hits[0].drop = about
                said = third_person_zh(inherited).removeprefix("用户的")
                hits[0].content = f"{ctx.extra.get('family_about_text', '')}，{said}"
    if not hits:
        if clause.startswith("我") and not re.match(r"^我(?:们)?(?:家|的)", clause):
            ctx.extra.pop("family_zh", None)
            ctx.extra.pop("pet", None)
        hits = _match_rules(clause, ctx, _FACTS)
    if not hits and (lead := _LEAD.match(clause)):
        rest = lead.group("rest")
        hits = _match_rules(rest if rest.startswith("我") else "我" + rest, ctx, _FACTS)
    window = find_time_window(clause, ctx.ref)
    if not hits and window and not window.recent and clause.startswith("我"):
        # 我三月份刚从字节离职: the fact, without the time it was said to happen
        hits = _match_rules(clause.replace(window.expression, "", 1), ctx, _FACTS)
        hits = [h for h in hits if not h.topic.endswith(".about")]  # the time was the point
    if (
        all(h.topic.endswith(".about") for h in hits)
        and (undated := drop_when_lead(clause)) != clause
    ):
        # 我们家年初搬到佛山了 / 我爸前阵子调到天津了: the fact, without when it happened
        hits = [
            h for h in _match_rules(undated, ctx, _FACTS) if not h.topic.endswith(".about")
        ] or hits
    if not hits and _ELIDED.match(clause) and not ctx.extra.get("family_zh"):
        hits = _match_rules("我" + clause, ctx, _FACTS)  # 本人姓赵，今年三十二岁
    if not hits:
        hits = _match_rules(clause, ctx, _RULES[len(_FACTS) :])
    change = bool(CHANGE_RE.search(clause))
    if hits and ctx.extra.get("slot") == open_slot:
        # a slot left open waits only over clauses that say nothing (快递不干了，太累，…)
        ctx.extra.pop("slot", None)
    for h in hits:
        h.correction = h.correction or change
        h.content = h.content or third_person_zh(clause)
        if h.value and h.value.startswith("not "):
            ctx.extra["slot"] = h.topic  # 我不住北京了，(搬到)上海了
        elif h.topic.startswith("location.") and h.value:
            ctx.extra["place_zh"] = h.value
        if h.kind is S:
            ctx.extra["temporary"] = "1"
        if h.topic.startswith("family.") and h.topic.endswith(".about"):
            ctx.extra["family_about"], ctx.extra["family_about_text"] = h.topic, h.content or ""
        if h.topic.endswith("pregnancy"):
            ctx.extra["expecting"] = "1"
    return hits
