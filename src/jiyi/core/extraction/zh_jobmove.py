"""The user's own job moved, told the way people chat: 美团那边单子太少了这个月开始改跑饿了么了,
去网易做角色原画了, 老板把我提成主厨了, 从今年起我在宝马这边升了班组长, 新工作在协和.

The slot rules of :mod:`jiyi.core.extraction.zh_work` read a clause that *is* the statement
(我跳槽到网易了). In chat the move sits inside a longer clause, after a reason or a time, so
this reader searches the clause for a verb of moving or becoming and reads what follows it,
when all of these hold:

- the user is the one moved: said as the subject (我) with no one else named after, moved by
  someone (把我 / 让我 / 派我), or left out with only time and stance words before the verb;
- nothing unsure, denied, planned, past, part-time or on the side is said near it (想 / 没 /
  准备 / 三年前就 / 兼职 / 下班后), and it is no trip or visit (出差 / 看病);
- what follows is a named employer or an office of its own (省教育厅, 刑侦支队), or a job title
  (:func:`jiyi.core.extraction.zh_common.is_role`); a branch in a city (贵阳分店) is the work
  city; a department of the same employer (财务部, 门诊) or a workplace not named (去公司上班)
  is not read; a bare 去 / 进 / 到 places a job only with 上班 / 工作 / 报到 or the job done
  there (去吉利做财务BP).

Pure functions, no I/O; text in simplified characters with Cantonese words mapped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import RELATIONS_ZH
from jiyi.core.extraction.lexicon_places import COMPANIES_ZH, JOBS_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import ADV, is_role
from jiyi.core.models import MemoryKind

__all__ = ["job_move"]

F = MemoryKind.FACT

# Someone other than the user, named before the verb; 把我 / 让我 after them hands it back.
_OTHER = re.compile(
    "|".join(sorted(map(re.escape, RELATIONS_ZH), key=len, reverse=True))
    + r"|同事|朋友|同学|室友|舍友|闺蜜|发小|哥们|老乡|师傅|师兄|师姐|学长|学姐|邻居|客户|队友|"
    r"老板|领导|经理|主任|[店科处组校院厂部局所队班站车护]士?长|主管|所里|公司|单位|学校|医院|"
    r"他|她|它|人家|别人|大家"
)
_TO_ME = re.compile(r"(?:把|让|叫|安排|派|提拔|介绍|给|要|俾|被)(?:了)?我|我$")
_UNSURE = re.compile(
    r"想|打算|考虑|可能|也许|要不要|还没|没有?去|如果|要是|的话|假如|万一|吗|"
    r"是不是|该不该|纠结|犹豫|劝我|建议我|以前|之前|原来|曾经|当初|当年|那时|那会|"
    # not done, not yet, or only heard of (差点跳槽去字节 / 准备调去 / 听说要调到)
    r"不|没|别|未|差点|险些|本来|本想|原本|准备|计划|申请|争取|希望|听说|据说|"
    # a stint or a side job, not the job (借调去总部帮忙一个月 / 下班后去健身房当教练赚外快)
    r"借调|帮忙|支援|临时|暂时|几个月|一个月|半年|兼职|副业|外快|下班后|业余|周末|每周|有时|偶尔|"
    # long since so (三年前就调到阿里了): how the job came about, not news of it
    r"年前|早就|早在|毕业那|入职那|刚进"
)
_TRIP = re.compile(
    r"出差|旅游|旅行|玩|开会|培训|学习|看病|住院|体检|检测|检查|复查|面试|参观|几天|一周|度假|办事"
)
# An office of its own (省教育厅, 刑侦支队, 研究所); a department of the same employer (财务部,
# 采购科, 门诊) is no new employer and is not read here.
_UNIT = re.compile(
    r"(?:支队|大队|分公司|分行|支行|分院|分店|门店|中心|总部|研究所|研究院|实验室|局|厅|所|站)$"
)
# A workplace not named (去公司上班 / 回医院 / 到店里): no new employer.
_GENERIC = re.compile(
    r"(?:我们|我的|咱们|这家|那家|新|老|原来的?)?(?:公司|单位|医院|学校|工厂|厂里?|店里?|总部|门店|分公司|"
    r"分店|银行|超市|餐厅|饭店|酒店|中心|机构|办公室|研究所|实验室|律所|事务所|工地|车间|厂子)"
)
_DEPT = re.compile(r"(?:科|处|部|部门|组|门诊|急诊|病区|病房|车间|后厨|厨房|水吧|前台)$")
_ORG_TAIL = re.compile(
    r"(?<=..)(?:那边的编|那边|这边|那儿|这里|那里|的编|编制|的岗位|岗位|跑单|跑外卖|送外卖|当骑手)$"
)

# A move to a place of work: 调去 / 转到 / 跳槽去 / 入职 / 考到 (the verb says a job moved).
_MOVE = (
    r"(?:调(?:了)?(?:去|到|往|回)|转(?:了)?(?:到|去)|换(?:了)?(?:去|到)|改去|跳槽(?:去|到)|"
    r"跳(?:去|到)|入职(?:了)?|加入(?:了)?|并进(?:了)?|并入(?:了)?|考(?:到|进)(?:了)?|"
    r"挖(?:到|去)|派(?:到|去)|改跑|转去|转岗到|换岗到|"
    # 被老乡拉去立讯了: someone brought the user into a job there
    r"被[^，,\s]{1,4}?(?:拉|带|介绍|叫)(?:去|到|进)(?:了)?)"
)
# A bare going: 去 / 进 / 到 places a job only with 上班 / 工作 / 报到 or the job done there.
_GO = r"(?:去了|进了|到了|去|进|到|在)"
_DO = r"(?:当|做|干|担任|负责)"
_PLACE = r"(?P<x>[A-Za-z0-9\u4e00-\u9fff&·.-]{2,14}?)"
_ROLE = r"(?P<r>[A-Za-z\u4e00-\u9fff]{1,10}?)"
_END = r"(?=了|啦|喇|咯|喔|耶|哦|$|\s|，|,)"
# 被華航挖角了 / 签的是一家叫火山文化的小公司: hired away by, signed with
_POACHED = re.compile(
    rf"被{_PLACE}(?:挖角|挖走|挖过去|挖了过去|高薪挖走)(?:了)?|"
    rf"(?:现在|已经|改)?签(?:约)?(?:的是|在|到|给|约了)(?:一家|一间|家)?(?:叫|名叫|叫做)?"
    rf"{_PLACE.replace('?P<x>', '?P<y>')}(?:的)?(?:小|大|新)?"
    r"(?:公司|经纪公司|机构|工作室|MCN|公会)?(?=了|啦|$|\s|，|,|老板)"
)
_MOVED = re.compile(
    rf"(?P<v>{_MOVE}){_PLACE}(?:去|来)?(?:(?:那边|这边)?{_DO}{_ROLE}{_END}|(?:上班|工作|报到|上岗)|{_END})"
)
_WENT = re.compile(
    rf"(?P<v>{_GO}){_PLACE}(?:(?:那边|这边)?(?:{_DO}{_ROLE}{_END}|(?P<w>上班|工作|报到|上岗)))"
)
# Becoming a job: 升了班组长 / 提成主厨 / 转成执业律师 / 当上店长 / 就是店长了 / 改教历史.
_BECOME = re.compile(
    r"(?P<v>升(?:职)?(?:了|成|为|到|做)?|提(?:拔)?成|转成|调成|转正成|当上了?|成了|就是|可以当|"
    r"改教|改做|改当|转行(?:去)?(?:做|当)|转做|改行(?:去)?(?:做|当)|转去(?:做|当)|去做|去当|"
    r"做起了|当起了|考上了?)"
    rf"(?:一名|一个|一位|个|名|位)?{_ROLE}{_END}"
)
# 新工作在协和 / 新单位是省图书馆: the new employer, named as such.
_NEW_JOB = re.compile(rf"新(?:工作|单位|公司|东家|岗位)(?:在|是){_PLACE}{_END}")
# 调岗了 / 转岗了 / 换工作了: a move whose new place the next clause names.
_MOVED_ALONE = re.compile(r"^(?:我)?(?:调岗|转岗|换岗|换工作|跳槽|转行)了?$")
_FIELD = re.compile(r"语文|数学|英语|历史|地理|物理|化学|生物|政治|音乐|美术|体育|科学|信息")


_JOB_HEADS = tuple(w for w in JOBS_ZH if len(w) >= 2 and re.fullmatch(r"[\u4e00-\u9fff]+", w))
_JOB_TAILS = (
    "原画",
    "运营",
    "策划",
    "设计",
    "开发",
    "文案",
    "剪辑",
    "BP",
    "主管",
    "专员",
    "助理",
    "顾问",
)
# 给顺丰开货车 / 帮美团送外卖: driving or delivering for an employer
_GIG = re.compile(rf"(?:给|帮|替){_PLACE}(?:开|送|跑)(?P<r>货车|大货车|快递|外卖|网约车|专车|车)")


# The subject left out, only time and stance words before the verb (下个月起 / 其实 / 终于).
_ELIDED = re.compile(
    r"(?:今年|去年|上个?月|这个?月|下个?月|上周|下周|这周|上礼拜|下礼拜|最近|刚刚?|已经|终于|现在|年后|"
    r"过完年|开年|节后|"
    r"其实|说实话|讲真|对了|好消息|跟你说|从[^，,\s]{1,6}(?:起|开始)|开始|就|也|又|正式|总算)*"
)


def _about_user(c: str, at: int) -> bool:
    """The user is the one moved: said as the subject (我 / 我们) or moved by someone (把我 /
    让我), with no one else named after, or left out with only time and stance words before
    the verb (下个月起调去门诊)."""
    # 跟老乡转去佛山干了: the user goes with them, the move is the user's
    before = re.sub(
        r"(?:跟|和|同)(?:几个|一帮|一群)?(?:老乡|同事|朋友|同学|工友|师傅)(?:们|一起)?$", "", c[:at]
    )
    other = [m.end() for m in _OTHER.finditer(before)]
    if other and not (_TO_ME.search(before[other[-1] :]) or "我" in before[other[-1] :]):
        return False
    if _ELIDED.fullmatch(before):
        return True
    me = before.rfind("我")
    return me >= 0 and not _OTHER.search(before[me + 1 :]) and len(before) - me <= 12


def _unsure(c: str, m: re.Match[str]) -> bool:
    """A wish, doubt, denial, plan or past said near the move (想跳槽去字节 / 以前在百度做后端
    / 没调去), or one that was only ever a visit (去过)."""
    near = c[max(0, m.start() - 8) : m.end() + 3]
    verb_end = m.end("v") if "v" in m.groupdict() else m.end()
    return bool(_UNSURE.search(near) or c[verb_end : verb_end + 1] == "过")


def _workplace(x: str, is_org: Callable[[str], bool]) -> str:
    """``x`` as an employer or unit (the tail 那边的编 off); "" when it is none."""
    x = _ORG_TAIL.sub("", clean_value(x))
    x = re.sub(r"^(?:了|一家|一个|家|个)", "", x)
    x = re.sub(r"^(?:隔壁|对面|楼下|附近)(?:的)?(?=..)", "", x)  # 去隔壁华丰鞋业上班
    if len(x) < 2 or re.search(r"什么|哪|这|那", x) or _TRIP.search(x):
        return ""
    if (at := re.fullmatch(r"(?P<c>[\u4e00-\u9fff]{2,4}?)的(?P<o>.{2,})", x)) and is_place_zh(
        at["c"]
    ):
        x = at["o"]  # 台北的诚品: the employer, in a city
    if _GENERIC.fullmatch(x):
        return ""  # 每天坐地铁去公司上班: the workplace, unnamed
    if _DEPT.search(x) and x not in COMPANIES_ZH:
        return ""  # 我转到财务部了: another department, the employer stays
    if x in COMPANIES_ZH or is_org(x) or _UNIT.search(x):
        return x
    if any(x.startswith(co) for co in COMPANIES_ZH if len(co) >= 2):
        return x  # 华为东莞松山湖: a known employer's site
    return ""


def _named(x: str, is_org: Callable[[str], bool]) -> str:
    """``x`` as the employer a hiring verb (挖角 / 签约 / 被拉去) names: any name that is no
    place, no unnamed workplace and no doing (开网约车 is a job, not an employer)."""
    if place := _workplace(x, is_org):
        return place
    x = clean_value(x)
    if not 2 <= len(x) <= 8 or is_place_zh(x) or _GENERIC.fullmatch(x) or _TRIP.search(x):
        return ""
    if re.match(
        r"^(?:开|做|干|当|跑|送|卖|学|读|上|帮|给|看|打|玩|吃|喝|医院|诊所|合同|协议|字|名)", x
    ):
        return ""
    return x if not re.search(r"什么|哪|这|那", x) else ""


def _role(r: str | None) -> str:
    """A job title, or a line of work said with its speciality (财务BP, 角色原画)."""
    r = clean_value(re.sub(r"(?:了|啦|的)+$", "", r or ""))
    if (
        not r
        or r.startswith("了")
        or re.search(r"什么|哪|饭|菜|作业|家务|检|查|测|手术|梦|治疗|化验", r)
    ):
        return ""
    if is_role(r) or r in JOBS_ZH or r.startswith(_JOB_HEADS) or r.endswith(_JOB_TAILS):
        return r
    return ""


_BASE = re.compile(r"^(?:我的?)?(?:工作)?(?:base|Base|BASE)(?:在|是)(?P<x>[\u4e00-\u9fff]{2,6})$")
_OFFER = re.compile(
    r"(?:拿了|拿到了?|接了|收到了?)(?P<x>[\w\u4e00-\u9fff]{1,10}?)的(?:offer|Offer|OFFER)"
)
_REPORTED = re.compile(r"(?:去|过去|已经去)?(?:报到|报道|入职)了")


def _unsure_text(c: str) -> bool:
    return bool(re.search(r"想|准备|打算|要不要|下周|下个月|明天|还没|没去|不去", c))


def _hits(employer: str, role: str, rule: str) -> list[Hit]:
    out = []
    if employer:
        out.append(Hit(F, "work.employer", rule, value=employer, correction=True,
                       content=f"用户在{employer}工作"))  # fmt: skip
    if role:
        out.append(Hit(F, "work.role", rule, value=role, correction=True,
                       content=f"用户的工作是{role}"))  # fmt: skip
    return out


def job_move(c: str, ctx: Context, is_org: Callable[[str], bool]) -> list[Hit]:
    """The user's job as it now is, read from a move or a promotion inside ``c``; [] when the
    clause says none (see the module doc)."""
    if (base := _BASE.match(c)) and is_place_zh(base["x"]):  # 工作base在上海: the work city
        return [Hit(F, "location.work", "work.base", value=base["x"])]
    if offer := _OFFER.search(c):  # 拿了蚂蚁的offer, (上周一已经去报到了): who, if it is taken
        ctx.extra["offer"] = clean_value(offer["x"])
        return []
    if (taken := ctx.extra.get("offer")) and _REPORTED.search(c) and not _unsure_text(c):
        ctx.extra.pop("offer", None)
        return _hits(taken, "", "employer.offer")
    if _MOVED_ALONE.match(c):
        ctx.extra["slot"] = "work.employer"  # 调岗了，(去刑侦支队): where follows
        return []
    went = re.match(rf"^(?:我)?(?:现在|已经)*(?:去|到|进|调到|调去){_PLACE}(?:了|啦)?$", c)
    if (
        ctx.extra.get("slot") == "work.employer"
        and went
        and (place := _workplace(went["x"], is_org))
    ):  # (调岗了，不站马路了，)去刑侦支队
        ctx.extra.pop("slot", None)
        return _hits(place, "", "employer.moved")
    poached = _POACHED.search(c)
    if (
        poached
        and _about_user(c, poached.start())
        and not _unsure(c, poached)
        and (place := _named(poached["x"] or poached["y"], is_org))
    ):  # 被華航挖角了 / 签的是一家叫火山文化的小公司
        return _hits(place, "", "employer.poached")
    for pattern, rule in ((_MOVED, "employer.moved"), (_WENT, "employer.went")):
        for m in pattern.finditer(c):
            if not _about_user(c, m.start()) or _unsure(c, m):
                continue
            role = _role(m.groupdict().get("r"))
            said = clean_value(m["x"])
            if _TRIP.search(c[m.start() : m.end() + 4]):
                continue  # 我被派去上海出差了: a trip
            branch = re.fullmatch(
                r"(?P<c>[\u4e00-\u9fff]{2,4}?)的?(?:新)?(?:分店|分公司|分行|支行|门店|分部|分院|工地|项目部?|"
                r"厂区?|园区|校区|基地)",
                said,
            )
            if branch and is_place_zh(branch["c"]):
                # 店里把我调去贵阳分店 / 单位给我换到杭州的分公司了: the city of the work
                return [Hit(F, "location.work", "work.moved", value=branch["c"], correction=True)]
            place = _workplace(said, is_org)
            if m["v"].startswith("被"):  # 被老乡拉去立讯了: brought into a job there
                place = _named(said, is_org)
            if rule == "employer.moved" and not place and is_place_zh(said):
                # 调到上海了: the city of the work
                return [Hit(F, "location.work", "work.moved", value=said, correction=True)]
            if rule == "employer.moved" and place:
                return _hits(place, role, rule)
            # 去吉利做财务BP / 现在在鹅厂做后端 / 去华为松山湖那边上班: a bare going needs
            # the job done there, or 上班 / 工作 at an employer
            if rule == "employer.went" and role and len(said) <= 6 and not is_place_zh(said):
                return _hits(place or said, role, rule)
            if rule == "employer.went" and m["v"] != "在" and place and (m["w"] or role):
                return _hits(place, role, rule)  # 去网易做角色原画: the employer at least
    gig = _GIG.search(c)
    if (
        gig
        and _about_user(c, gig.start())
        and not _unsure(c, gig)
        and (place := _workplace(gig["x"], is_org))
    ):
        return _hits(place, "", "employer.gig")
    if (new := _NEW_JOB.search(c)) and _about_user(c, new.start()):
        said = clean_value(new["x"])
        if is_place_zh(said) and not _workplace(said, is_org):  # 新工作在上海: the city
            return [Hit(F, "location.work", "work.new", value=said, correction=True)]
        if len(said) <= 8 and not re.search(r"什么|哪|这|那", said):
            return _hits(said, "", "employer.new")  # 新工作在协和
    for m in _BECOME.finditer(c):
        if not _about_user(c, m.start()) or _unsure(c, m):
            continue
        said = clean_value(re.sub(r"(?:了|啦)+$", "", m["r"] or ""))
        if m["v"] == "改教" and _FIELD.fullmatch(said):
            return _hits("", f"{said}老师", "role.became")  # 改教历史: a teacher of it now
        if role := _role(said):
            return _hits("", role, "role.became")
    return []


# A place within a job (病房, 一线, 车间): leaving it keeps the employer.
_PLACE_AT_WORK = re.compile(
    r"(?:病房|病区|门诊|急诊|一线|前台|柜台|车间|工地|现场|店里|办公室|实验室|岗位|[\u4e00-\u9fff]{1,4}岗|"
    r"[\u4e00-\u9fff]{1,6}(?:部|科|组|部门|科室))"
)


def left_job(c: str, ctx: Context, is_org: Callable[[str], bool]) -> list[Hit] | None:
    """A job or employer left (我从阿里离职了, 早不在顺丰了, 阿里那边我已经离职了), or a home
    left said the same way (不在村里住了); None when the clause says neither."""
    m = re.match(
        rf"^(?:我)?{ADV}(?:从(?P<x>.+?))?(?:离职|辞职|裸辞|被裁|被裁员|被辞退|被开除|失业|下岗|出来)(?:了)?$|"
        # 离开杭州以后一直住成都: what came after leaving is said, not the leaving itself
        rf"^(?:我)?{ADV}离开了?(?P<y>(?:(?!以后|之后|后来|然后)[^，,])+)$|"
        rf"^(?:我)?{ADV}(?:已经)?(?:早)?不在(?P<z>.+?)(?:了)$|"
        # 阿里那边我已经离职了: the employer said first
        rf"^(?P<t>[^，,我]{{2,10}}?)(?:那边|那儿|那里|的工作|的活儿?)[，,]?(?:我)?{ADV}"
        r"(?:早)?(?:离职|辞职|裸辞|不干|辞掉|辞)了$|"
        # 熬了三年终于从蚂蚁出来了: how long it took, then the leaving
        r"^[^，,从]{0,8}?(?:终于|总算|已经|刚刚?)从(?P<w>[^，,]{2,8}?)(?:离职|辞职|裸辞|出来|逃出来|跳出来)了$",
        c,
    )
    if m and m.group("t") and not is_org(m.group("t")):
        m = None  # 健身房那边我不干了 is no employer named
    if m and m.group("z") and _PLACE_AT_WORK.fullmatch(clean_value(m.group("z"))):
        m = None  # 不在病房了: a place within the job, the employer stays
    if m and m.group("z") and re.search(r"住$", clean_value(m.group("z"))):
        # 我现在不在村里住了: the home left (where the user lives now follows), no employer
        ctx.extra["slot"] = "location.home"
        gone = re.sub(r"住$", "", clean_value(m.group("z")))
        return [Hit(F, "location.home", "home.left", correction=True, value=f"not {gone}")]
    if m:
        ctx.extra["slot"] = "work.employer"
        left = m.group("x") or m.group("y") or m.group("z") or m.group("t") or m.group("w")
        left = re.sub(r"(?:了|啦)+$", "", left) if left else left
        if left and m.group("z") and is_place_zh(left) and not is_org(left):
            ctx.extra["slot"] = "location.home"
            return [Hit(F, "location.home", "home.left", correction=True, value=f"not {left}")]
        if not left:  # 我辞职了: whoever the employer was, they are not it any more
            return [
                Hit(
                    F,
                    "work.employer",
                    "employer.quit",
                    correction=True,
                    value="无",
                    content="用户已辞职" if re.search("辞职|离职", c) else None,
                )
            ]
        return [Hit(F, "work.employer", "employer.left", correction=True, value=f"not {left}")]
    return None
