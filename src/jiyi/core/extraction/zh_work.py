"""Chinese slot rules for work: employer, role, work city and mode.

在X上班 / 任职 / 入职 / 跳槽到 / 在X做Y / 我是X的Y all land in ``work.employer`` (and
``work.role``); a city where the user works is ``location.work``; leaving a job retires the
employer, and the clause after it ("现在在快手") fills the slot again.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_places import COMPANIES_ZH, JOBS_ZH, ORG_SUFFIX_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import ADV, ON_A_TRIP, is_role
from jiyi.core.extraction.zh_jobmove import job_move, left_job
from jiyi.core.extraction.zh_sent import given_or_hired, joined, sent_to_work
from jiyi.core.models import MemoryKind

__all__ = ["work"]

F = MemoryKind.FACT


# ------------------------------------------------------------------ work

_WORK_VERB = (
    r"工作|上班|任职|实习|打工|做事|办公|就职|供职|搬砖|上工|上夜班|上白班|值班|倒班|轮班|"
    r"(?:(?:流水线|产线|生产线|车间|厂里|线)上)?干活"  # 我在富士康流水线上干活
)
# 过完年我跳去比亚迪了: the time a job changed, said first
_AFTER_NEW_YEAR = r"(?:过完年|过年后|年后|节后|开春|开年)"


def _workplace(where: str, neg: bool, rule: str) -> Hit:
    """在X上班: X is a city (location.work), home (work.mode) or an employer."""
    place = clean_value(re.sub(r"^(?:一家|一个|某家?|家)(?=..)", "", where))
    office = re.fullmatch(
        r"(?P<c>[\u4e00-\u9fff]{2,4}?)的?(?:办公室|办事处|分部|总部|分公司|写字楼|office)", place
    )
    if office and is_place_zh(office["c"]):
        place = office["c"]  # 在上海的办公室上班: the city of the work, not an employer
    value = f"not {place}" if neg else place
    if is_place_zh(place) and place not in COMPANIES_ZH:
        return Hit(F, "location.work", "work.city", correction=neg, value=value)
    if place in {"家", "家里"}:
        return Hit(F, "work.mode", "work.remote", correction=neg, value="no" if neg else "yes")
    return Hit(
        F,
        "work.employer",
        rule,
        correction=neg,
        value=value,
        content=None if neg else f"用户在{place}工作",
    )


# A unit of an employer (财务部, 质检科, 二组) and a place within a job (病房, 一线, 车间).
_UNIT = re.compile(r"[\u4e00-\u9fff]{1,6}?(?:部|科|组|处|部门|团队|小组|科室|事业部)(?:了)?")


def _is_org(word: str) -> bool:
    word = clean_value(word)
    return (
        word in COMPANIES_ZH
        or bool(ORG_SUFFIX_ZH.search(word))
        or bool(re.fullmatch(r"[A-Za-z][\w&.-]*", word))
    )


def work(c: str, ctx: Context) -> list[Hit]:
    if re.match(
        r"^(?:我)?(?:之前|以前|原来|曾经|上一份工作)(?:是)?在(?P<x>[^，,]{2,10}?)(?:干|做|待|呆|工作|上班)(?:了|过)?"
        r"(?:[\d一二两三四五六七八九十几半]+年(?:多)?|很久|好几年|挺久)?(?:了)?$",
        c,
    ):  # 我之前在百度干了五年，(现在在字节): where the user worked before, not now
        ctx.extra["slot"] = "work.employer"
        return []
    if (sent := sent_to_work(c, ctx, _is_org)) is not None:
        return sent
    began = re.match(  # (换工作了，)这礼拜开始去台达电上班: the employer from now on
        r"^(?:我)?(?:从)?(?:这|本|上)(?:周|礼拜|星期|个?月)(?:[一二三四五六日天]|初)?(?:开始|起)(?:就)?"
        r"(?:去|到|在)(?P<x>[^，,]{2,12}?)(?:上班|工作|报到|做)(?:了)?$",
        c,
    )
    if began and (_is_org(began["x"]) or ctx.extra.get("slot") == "work.employer"):
        return [Hit(F, "work.employer", "employer.began", value=clean_value(began["x"]),
                    correction=True, content=f"用户在{clean_value(began['x'])}上班")]  # fmt: skip
    if hits := joined(c, _is_org):
        return hits
    m = re.match(
        r"^(?:我的?)?新(?:东家|公司|单位|工作单位)(?:是|在)(?P<x>[^，,]{2,10}?)(?:了|啦)?$", c
    )
    if m and not re.search(r"什么|哪|谁", m["x"]) and not is_place_zh(m["x"]):
        said = m["x"]  # 新东家是网易: where the user works now, said as the change it was
        return [Hit(F, "work.employer", "employer.new", value=said, correction=True,
                    content=f"用户在{said}工作")]  # fmt: skip
    m = re.match(
        r"^我是(?P<n>[一二两三四五六\d])个(?:孩子|娃|宝宝)的(?P<x>全职妈妈|全职爸爸|妈妈|爸爸|妈|爸|母亲|父亲)$",
        c,
    )
    if m:  # 我是三个孩子的全职妈妈: a parent of three (and, when said, at home)
        hits = [
            Hit(
                F,
                "family.child",
                "family.has",
                value=m.group("n"),
                content=f"用户有{m.group('n')}个孩子",
            )
        ]
        if m.group("x").startswith("全职"):
            hits.insert(0, Hit(F, "work.role", "role.home", value=m.group("x")))
        return hits
    if re.match(
        r"^(?:我们公司|我们单位|我们团队|我们组|我)?(?:现在|目前|平时|一般|基本|最近|一直|全员|全部)*(?:都)?"
        r"(?:是|改|改成|开始|换成)?(?:全职)?(?:远程|在家|居家)"
        r"(?:办公|工作|上班)|"
        r"^(?:我)?(?:现在)?WFH",
        c,
        re.I,
    ):
        said = "用户的公司远程办公" if c.startswith("我们") else None  # not 用户一家
        return [Hit(F, "work.mode", "work.remote", value="yes", content=said)]
    m = re.match(
        r"^(?:我|我们|公司|我们公司)?(?:现在|目前|已经|开始)*(?:要求|改成|改为|换成|实行|是|都是)?"
        r"(?P<x>混合办公|弹性办公|坐班|去公司上班|回公司上班|回办公室上班|全勤坐班)(?:了|制)?$",
        c,
    )
    if m:  # 公司现在要求混合办公了: how the user works now
        value = "hybrid" if m.group("x").startswith(("混合", "弹性")) else "office"
        return [
            Hit(
                F,
                "work.mode",
                "work.mode",
                value=value,
                correction=bool(re.search("了|改|现在", c)),
            )
        ]
    m = re.match(
        r"^(?:我)?[^，,]{0,10}?(?:去|到)(?P<x>[\u4e00-\u9fff]{2,4}?)(?:上班|工作)(?:了|啦|喇|咯)?$",
        c,
    )
    if m and is_place_zh(m.group("x")) and not re.search(r"明天|下周|下个月|要去|打算", c):
        return [Hit(F, "location.work", "work.commute", value=m.group("x"))]  # 每天搭高铁去台北上班
    m = re.match(
        rf"^(?:我)?{ADV}在(?P<x>[\u4e00-\u9fff]{{2,4}}?)(?:的|那边的?)?(?:工地|工厂|厂里|厂子|码头|车间|"
        r"矿上|港口)(?:上|里)?[^，,]{1,8}$",
        c,
    )
    if m and is_place_zh(m.group("x")):  # 我在深圳的工地上扎钢筋: where the work is
        return [Hit(F, "location.work", "work.site", value=m.group("x"))]
    m = re.match(
        r"^(?:我的?)?(?:新|现在的|新的)(?:公司|单位|办公室)(?:也)?(?:在|是在|位于)(?P<x>[^，,]{2,8}?)(?:了|啦)?$",
        c,
    )
    if m and is_place_zh(m.group("x")):  # (跳槽了，)新公司在上海张江: the city of the work
        return [Hit(F, "location.work", "work.city", value=m.group("x"), correction=True)]
    m = re.match(
        rf"^(?:我)?{ADV}在(?P<x>[^，,]{{2,10}}?)上了?[一两二三四五六七八九十几\d]+(?:天|周|个?月|个?星期|个?礼拜)"
        r"(?:的)?班(?:了)?$",
        c,
    )
    if m and _is_org(m.group("x")):  # 已经在小红书上了一周班了: working there now
        return [_workplace(m.group("x"), False, "employer.since")]
    m = re.match(rf"^(?:我)?{ADV}(?:上班|工作|返工)(?:就|也|都|还)?(?:在|喺)(?P<x>.+)$", c)
    # 我上班在中环 (我返工喺中環); not 工作都在沈阳也没办法 (a sigh about it)
    if m and not re.search(r"没|不|也|办法|还是", m.group("x")):
        return [_workplace(m.group("x"), False, "employer")]
    m = re.match(
        rf"^(?:我)?{ADV}(?P<neg>不再|已经不|不是|不)?在(?P<x>.+?)(?:{_WORK_VERB})(?:了)?$", c
    )
    if (
        m
        and not re.match(r"^(?:找|换|准备|忙|赶|熬|加|做|努力|认真|拼命|好好)", m.group("x"))
        and not re.search(r"(?:找|换|求)$", m.group("x"))  # 在上海找工作: looking there
        # 在地里干活 / 在大棚里干活: the fields, no employer
        and not re.fullmatch(
            r"(?:地|田|山|菜地|大棚|果园|院子|园子|工地|家|屋)(?:里|上|头)?", m.group("x")
        )
    ):
        return [_workplace(m.group("x"), bool(m.group("neg")), "employer")]
    m = re.match(
        rf"^(?:我)?{ADV}在(?P<x>.+?)(?:是|其实是)?(?:做|当|担任|负责|干)(?P<y>.{{2,}})$", c
    )
    if m and re.search(r"(?:已经|现在|早就|早已|也|都)*(?:不再|不|没有?)$", m.group("x")):
        # 我在阿里已经不做运营了: the employer stands, the role Y no longer holds
        role = clean_value(re.sub(r"了$", "", m.group("y")))
        ctx.extra["slot"] = "work.role"
        return [Hit(F, "work.role", "role.stopped", value=f"not {role}", correction=True,
                    content=f"用户不再做{role}")]  # fmt: skip
    if (
        m
        and clean_value(m.group("x")) not in {"家", "家里"}
        and len(clean_value(m.group("x"))) >= 2  # 在学做蛋糕: learning, no employer 学
        and not re.match(r"^(?:饭|菜|梦|作业|项目)", m.group("y"))
    ):
        role = clean_value(re.sub(r"的$", "", m.group("y")))
        # 在顺丰干了快八年: how long, no job
        lasted = re.match(r"^(?:了|过)|^[快近将]?[\d一二两三四五六七八九十几半]+个?(?:年|月)", role)
        hits = [] if lasted else [Hit(F, "work.role", "role.at", content=f"用户的工作是{role}",
                                      value=role)]  # fmt: skip
        return [_workplace(m.group("x"), False, "employer.role"), *hits]
    m = re.match(
        rf"^{_AFTER_NEW_YEAR}?(?:我)?(?:已经|刚|刚刚|最近|上个月|去年|现在|今年|其实)*"
        r"(?:从[^\s搬迁]{1,10}?)?(?:跳了?槽|换工作|转岗|入职|加入|跳到|跳去|转到|换到|换去|去了|"
        r"进了|到了|被派到|被派去|被调到|被调去)"
        r"(?:到|去)?(?:了)?(?P<x>.+)$",
        c,
    )
    if m and re.search(rf"{ON_A_TRIP}|几天|一周|一个月", m.group("x")):
        m = None  # 被派去上海出差: a trip, not a new employer
    if m and re.fullmatch(r"[喔哦噢啦咯呀啊耶哈嘿啰咧~～!！.。]+", m.group("x")):
        m = None  # 我换工作了喔: a particle, not an employer (the employer may come next)
    if m and _UNIT.fullmatch(clean_value(m.group("x"))) and not _is_org(m.group("x")):
        m = None  # 我转到财务部了: another department of the same employer
    if m and (
        not re.match(rf"^{_AFTER_NEW_YEAR}?(?:我)?(?:现在)?(?:去了|进了|到了|被派|被调|换去)", c)
        or _is_org(m.group("x"))
        or (  # 换去台积电当技术员: a job there
            re.search(r"换去|被派|被调", c) and re.search(r"..(?:当|担任).{2,}", m.group("x"))
        )
        or ctx.extra.get("slot") == "work.employer"
    ):
        employer = re.sub(r"(?:工作|上班|了)+$", "", clean_value(m.group("x")))
        post = re.fullmatch(r"(?P<r>[\u4e00-\u9fff]{1,6}?)(?:岗位|岗)", employer)
        if re.match(r"^(?:做|当|干|搞)(?=..)", employer) or post:
            # 转岗做产品了 / 转到行政岗了: a new job, same employer
            role = clean_value(post["r"] if post else employer[1:])
            return [Hit(F, "work.role", "role.change", value=role, correction=True,
                        content=f"用户的工作是{role}")]  # fmt: skip
        if re.fullmatch(r"(?:一家)?新(?:公司|单位|东家|工作)", employer):
            employer = ""  # 我这周刚入职新公司: a new job, the company not named
        employer = re.sub(r"(?<=..)那边的?(?:站点|分店|门店|网点|店|厂|点)$", "", employer)
        if re.search(r"(?:大学|学院|中学|小学|高中|国小|国中)$", employer) and not re.search(
            r"工作|上班|任职|入职|当|教", c
        ):  # (学校换了，)转到莫纳什大学了: a student's school, not an employer
            return [Hit(F, "education.school", "school.change", value=employer, correction=True)]
        if (
            both := re.fullmatch(r"(?P<e>.{2,}?)(?:当|做|担任)(?P<r>.{2,})", employer)
        ) and not re.search(
            r"什么|哪", employer
        ):  # 换去台积电当技术员了: the employer, and the job there
            role = clean_value(both["r"])
            return [
                Hit(F, "work.employer", "employer.change", value=both["e"],
                    content=f"用户在{both['e']}工作"),
                Hit(F, "work.role", "role.change", value=role, content=f"用户的工作是{role}"),
            ]  # fmt: skip
        if employer and not re.search(r"什么|哪", employer):
            return [
                Hit(
                    F,
                    "work.employer",
                    "employer.change",
                    value=employer,
                    content=f"用户在{employer}工作",
                )
            ]
    if (left := left_job(c, ctx, _is_org)) is not None:
        return left  # 我从阿里离职了 / 不在顺丰了 / 我现在不在村里住了
    if (given := given_or_hired(c, _is_org)) is not None:
        return given  # 让我当主厨了 / 在美团送外卖 / 被顺丰录用了
    own = re.match(
        r"^(?:我)?(?:现在|已经|出来)*自己(?:在(?P<p>[^，,]{2,6}?))?开了?(?:个|一个|一家|家|间|一间)"
        r"(?P<x>[^，,]{0,6}?(?:工作室|店|公司|诊所|餐厅|馆|铺|厂))(?:了)?$",
        c,
    )
    if own:  # (不在理发店了，)自己在岳麓区开了个工作室: the user's own business is the employer
        return [Hit(F, "work.employer", "employer.own", value=f"自己的{own['x']}",
                    correction=True)]  # fmt: skip
    if re.match(r"^(?:我)?(?:换了|换)(?:家|个|份)?(?:工作|公司|单位|东家|律所)(?:了)?$", c):
        ctx.extra["slot"] = "work.employer"  # 我换工作了，现在在网易
        return []
    if m := re.match(
        r"^我(?:现在|目前|已经|其实)*是(?P<x>.+?)的(?:员工|工程师|程序员|产品经理|设计师|销售|运营|医生|护士|老师|律师)$",
        c,
    ):
        role = c[m.end("x") + 1 :]  # 我是腾讯的产品经理: the employer, and the job there
        return [
            Hit(
                F,
                "work.employer",
                "employer.of",
                value=m.group("x"),
                content=f"用户在{m.group('x')}工作",
            ),
            Hit(F, "work.role", "role.of", value=role, content=f"用户的工作是{role}"),
        ]
    if (
        m := re.match(
            rf"^(?:我)?{ADV}(?:已经)?不(?:再)?(?:做|当|干)(?P<x>.+?)了$|"
            rf"^(?!这|那)(?P<y>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:这行|[这那]份工作|[这那]份活|这活|的活|的工作)?(?:我)?{ADV}"
            r"(?P<v>不干|不做|不当|干不下去|做不下去)了$",
            c,
        )
        if not re.match(r"^(?!我)[^，,]{2,8}?(?:不做|不当|做不下去)了$", c)
        or is_role(
            re.sub(
                r"(?:这行|[这那]份工作|这活|的活|的工作)?(?:我)?(?:不做|不当|做不下去)了$", "", c
            )
        )
        else None
    ):  # 我不当老师了 / 快递不干了: the job is over, what comes next replaces it
        if (y := m.group("y")) and _is_org(y):  # 银行那份工作我不干了: the employer is left
            ctx.extra["slot"] = "work.employer"
            return [Hit(F, "work.employer", "employer.left", correction=True, value=f"not {y}")]
        ctx.extra["slot"] = "work.role"
        return [
            Hit(
                F,
                "work.role",
                "role.left",
                correction=True,
                value=f"not {clean_value(m.group('x') or m.group('y'))}",
            )
        ]
    for rule, pattern in (
        (
            "role",
            # (我从这个月开始是护理长了: since when, then the title)
            rf"^(?:我)?(?:从?(?:这|本)个?(?:月|周|礼拜|星期|学期)(?:起|开始))?{ADV}"
            r"(?:转行|改行|转职|后来|毕业后|改|转|转去|改去|(?:辞职|离职|辞了职)(?:在家|回家)?)?"
            r"(?:是|当上|当|做|干|成了|成为|升(?!职)(?:为|成|到|了)?)了?"
            r"(?:一名|一个|一位|个|名|位)?(?P<x>.+?)$",
        ),
        ("role.do", rf"^(?:我)?{ADV}(?:是)?(?:做|干|搞)(?P<x>[^，,]{{1,10}})的$"),
        ("role.is", r"^我(?:现在|目前)?的(?:职业|工作)(?:其实|现在)?是(?P<x>.+)$"),
        # 下个月起title变成设计主管了: the title is the job
        (
            "role.title",
            r"^(?:我的?)?(?:[^，,]{0,6}?)(?:title|Title|职位|头衔|岗位|职称)(?:也)?"
            r"(?:变成|改成|换成|升成|升为|升到|调成|是)了?(?P<x>[^，,]{2,10}?)(?:了|啦)?$",
        ),
        ("role.field", rf"^(?:我)?{ADV}(?:在)?(?:做|干|搞)(?P<x>.{{1,8}})$"),
    ):
        m = re.match(pattern, c)
        role = clean_value(re.sub(r"^(?:做|干|搞|当)(?=..)|的$", "", m.group("x"))) if m else ""
        # (一直都)是在幼儿园当老师: the job is 幼儿园老师, as 我是幼儿园老师 says it
        role = re.sub(r"^在([\u4e00-\u9fff]{2,8}?)(?:当|做)([\u4e00-\u9fff]{2,6})$", r"\1\2", role)
        if (
            not role
            or (rule == "role" and not is_role(role))
            or (rule == "role.field" and role not in JOBS_ZH)
        ):
            continue
        if rule == "role.do" and re.match(r"^(?:饭|菜|梦|作业|家务|运动)", role):
            continue
        if re.search(r"学生$|研究生$|本科生$|博士生$|[小初高]中生$", role):  # 我是初二的学生
            return [Hit(F, "education.stage", "student", value=re.sub(r"的$", "", role))]
        if rule == "role.title":
            return [Hit(F, "work.role", rule, value=role, correction=True,
                        content=f"用户的工作是{role}")]  # fmt: skip
        return [Hit(F, "work.role", rule, value=role)]
    m = re.match(
        # 在老家开饭馆 / 跟朋友合伙开了家火锅店 / 后来自己开了个小吃店
        r"^(?:我们|我)?(?:现在|后来|如今|目前)?(?:(?:和|跟|与)[^，,在]{1,4}?(?:一起|合伙))?"
        r"(?:在[^，,在]{2,4}?)?(?:自己|一起|"
        r"(?:和|跟|与)[^，,]{1,4}?(?:一起|合伙)|合伙)?(?:开了|开)(?:一家|一个|一间|家|个|间)?"
        # (a bare 店 is no shop named: 自己开店 is starting out, 创业)
        r"(?P<x>.{1,8}?(?:店|公司|工作室|餐厅|馆|厂)|.{0,8}?(?:小卖部|超市|诊所|工作室|公司))"
        r"(?:[，,]?(?:卖|做|经营|主营).{1,10})?$",
        c,
    )
    if m:
        return [
            Hit(
                F,
                "work.role",
                "role.owner",
                value=f"{m.group('x')}老板",
                content=f"用户开了一家{m.group('x')}",
            )
        ]
    if re.match(
        rf"^(?:我)?{ADV}(?:自己)?(?:在)?(?:创业|出来创业|开公司|开店|做生意|当老板|自己干)", c
    ):
        return [Hit(F, "work.role", "role.founder", value="创业")]
    if re.match(
        rf"^(?:我)?(?:\d{{4}}年|去年|前年|早就|早已|{ADV})*(?:就)?(?:已经)?退休(?:了)?$", c
    ):
        return [Hit(F, "work.role", "role.retired", value="退休")]
    if re.match(
        r"^(?:我)?(?:现在)?(?:在家带娃|在家带孩子|全职带娃|全职在家|当全职妈妈|是家庭主妇)", c
    ):
        return [Hit(F, "work.role", "role.home", value="全职在家")]
    return job_move(c, ctx, _is_org)
