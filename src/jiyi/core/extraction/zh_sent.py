"""Chinese: where the user's work is now, said by how they came to it.

Joined an employer (下个月去蔚来报到 / 签了一家游戏公司做原画师 / 考了个公务员); work for a
platform or driving for a living (我在美团送外卖 / 改开滴滴了: the job, and a known platform as
the employer); or sent or gone to a city to work there — 我调到青岛的医院了 / 我去深圳做房产中介了 /
留在北京一家律所上班 / 回武汉开了家烧烤店: the city of the work, and the job, or the user's own
shop, when one is said. Not a trip (派去上海出差), not a branch of the employer just left
((不在海淀图书馆了，)被调到朝阳那边的分馆), and 回老家 names no city.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_places import COMPANIES_ZH, ORG_SUFFIX_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import ADV, ON_A_TRIP, is_role
from jiyi.core.models import MemoryKind

__all__ = ["joined", "platform_work", "sent_to_work"]

F = MemoryKind.FACT

# Sent or gone to a city to work there: 调到青岛的医院了 / 去深圳做房产中介了 / 留在北京一家律所上班
_POSTED = re.compile(
    rf"^(?:我)?{ADV}(?:(?:去年|今年|上个?月|年初|年底)?(?:被)?(?:公司|单位)?)?"
    r"(?:调到|调去|派到|派去|外派到|外派去|去|到|留在|回到|回)了?(?P<x>[\u4e00-\u9fff]{2,4}?)"
    r"(?:的|一家|那边的?|这边的?)?(?P<e>[\u4e00-\u9fff]{0,6}?)"
    r"(?:(?P<own>开了?(?:一|个|家|间)*)(?P<o>[\u4e00-\u9fff]{2,8}?)|(?:做|当|干|开)"
    r"(?P<r>[\u4e00-\u9fff]{2,8}?))?(?:工作|上班|打工)?(?:了|啦)?$"
)


def sent_to_work(c: str, ctx: Context, is_org: Callable[[str], bool]) -> list[Hit] | None:
    """The hits of a clause saying the user was sent or went to a city to work (``[]`` when it
    names only 老家); None when the clause says no such thing. ``is_org`` tells a company."""
    sent = _POSTED.match(c)
    if not (
        sent
        and is_place_zh(sent["x"])
        and (
            re.search(r"调|派", c)
            or sent["r"]
            or sent["o"]
            or re.search(r"(?:工作|上班|打工)了?$", c)
        )
        and (not sent["e"] or is_org(sent["e"]) or ORG_SUFFIX_ZH.search(sent["e"]))
        # (不在海淀图书馆了，)被调到朝阳那边的分馆: a branch of the employer just left
        and not (ctx.extra.get("slot") == "work.employer" and re.search(r"那边|这边|分", c))
        and not re.search(rf"{ON_A_TRIP}|旅游|玩", c)
    ):
        return None
    # the city of the work, and the job or the employer when one is said
    hits = [Hit(F, "location.work", "work.sent", value=sent["x"], correction=True,
                content=f"用户在{sent['x']}工作")]  # fmt: skip
    if re.match(r"老家|家乡|家里|村里|乡下", sent["x"]):
        hits = []  # 回老家开了个奶茶店: no city named, the shop may still be
    if sent["o"] and (ORG_SUFFIX_ZH.search(sent["o"]) or re.search(r"店|馆|铺|厂|摊", sent["o"])):
        shop = clean_value(sent["o"])  # 回武汉开了家烧烤店: their own shop, where they work
        hits.append(Hit(F, "work.employer", "employer.own", value=f"自己的{shop}",
                        correction=True, content=f"用户自己开了{shop}"))  # fmt: skip
    if (role := clean_value(sent["r"] or "")) and len(role) >= 2:
        hits.append(Hit(F, "work.role", "role.sent", value=role, correction=True,
                        content=f"用户的工作是{role}"))  # fmt: skip
    return hits


# 下个月去蔚来报到 / 签了一家游戏公司做全职原画师 / 考了个公务员 / 考上了事业编
_REPORTS = re.compile(
    rf"^(?:我)?{ADV}(?:下个?月|下周|月底|明天|过完年|年后)?(?:就|要)?(?:去|到)(?P<x>[^，,去到]{{2,8}}?)"
    r"(?:报到|报道|入职)(?:了|啦)?$"
)
_SIGNED = re.compile(
    rf"^(?:我)?{ADV}(?:签了|签约了?|入职了?)(?:一家|一个|家|个)?(?P<x>[^，,]{{2,10}}?"
    r"(?:公司|工作室|集团|医院|学校|律所|事务所|银行))(?:做|当)(?:全职|正式)?(?:的)?(?P<r>[^，,]{2,8}?)(?:了)?$"
)
_PASSED = re.compile(
    rf"^(?:我)?{ADV}考(?:了个|了|上了?|进了?|到了?)(?:个)?(?P<r>公务员|事业编|教师编|编制|警察|选调生|"
    r"村官|老师|教师)(?:了|啦)?$"
)


def joined(c: str, is_org: Callable[[str], bool]) -> list[Hit]:
    """The employer (and the job) of a clause saying the user joined one; [] otherwise."""
    if (r := _REPORTS.match(c)) and (r["x"] in COMPANIES_ZH or is_org(r["x"])):
        return [Hit(F, "work.employer", "employer.reports", value=r["x"], correction=True,
                    content=f"用户去{r['x']}上班")]  # fmt: skip
    if (s := _SIGNED.match(c)) and is_role(role := clean_value(s["r"])):
        hit = Hit(F, "work.role", "role.signed", value=role, correction=True,
                  content=f"用户在{s['x']}做{role}")  # fmt: skip
        return [hit, Hit(F, "work.employer", "employer.signed", value=s["x"], correction=True,
                         content=f"用户在{s['x']}工作")]  # fmt: skip
    if p := _PASSED.match(c):  # 考了个公务员: the post won by exam is the job now
        return [Hit(F, "work.role", "role.passed", value=p["r"], correction=True,
                    content=f"用户考上了{p['r']}")]  # fmt: skip
    return []


def platform_work(c: str, is_org: Callable[[str], bool]) -> list[Hit] | None:
    """Work for a delivery or ride platform, or driving for a living: 我在美团送外卖 (the
    platform), 这个月开始改跑饿了么了, 现在跑滴滴 / 改开滴滴了 (the job, and a known platform
    as the employer); None when the clause says none of these."""
    gig = re.match(
        rf"^(?:我)?{ADV}在(?P<x>[A-Za-z][\w&.-]{{1,14}}|[^，,在]{{2,6}}?)"
        r"(?:送外卖|跑外卖|跑单|送快递|开网约车|开专车|当骑手|(?P<d>开(?:大)?货车|开卡车|开车|开大车|"
        r"跑运输|开出租车?|开公交车?))$",
        c,
    )
    if gig and (
        gig["x"] in COMPANIES_ZH
        or is_org(gig["x"])
        or (gig["d"] and not is_place_zh(gig["x"]) and not re.search(r"家|里|这|那", gig["x"]))
    ):  # 我在美团送外卖: the platform; 我在德邦开货车: whoever the user drives for
        hits = [Hit(F, "work.employer", "employer.gig", value=gig["x"])]
        if gig["d"]:  # 我在顺丰开货车: the job too (a driver, whatever the employer becomes)
            hits.append(Hit(F, "work.role", "role.drive", value=gig["d"]))
        return hits
    ride = re.match(
        r"^(?:我)?(?:这个月|最近|现在)?(?:开始)?(?:改|换|转)跑(?P<x>[^，,]{2,6}?)了?$", c
    )
    if ride and (ride["x"] in COMPANIES_ZH or is_org(ride["x"])):
        # 这个月开始改跑饿了么了: the platform the user rides for now
        return [Hit(F, "work.employer", "employer.ride", value=ride["x"], correction=True,
                    content=f"用户在{ride['x']}跑单")]  # fmt: skip
    drive = re.match(
        rf"^(?:我)?{ADV}(?:开始)?(?:改|换|转)?(?:跑|开)(?P<x>滴滴|网约车|出租车?|的士|货拉拉|快车|专车|"
        r"大货车?|货车|卡车|半挂|公交车?)(?:了|呢)?$",
        c,
    )
    if drive:  # (出租不开了，)现在跑滴滴 / 我开网约车: what the user drives for a living
        job = c[drive.start("x") - 1 : drive.end("x")]
        said = [Hit(F, "work.role", "role.drive", value=job, content=f"用户{job}")]
        if drive["x"] in COMPANIES_ZH:  # 改开滴滴了: the platform is where the user works now
            said.append(Hit(F, "work.employer", "employer.drive", value=drive["x"],
                            content=f"用户{job}"))  # fmt: skip
        return said
    return None


def given_or_hired(c: str, is_org: Callable[[str], bool]) -> list[Hit] | None:
    """A job given (老板从这个月起让我当主厨了, 我被经理提拔成领班了), the platform or company
    worked for (:func:`platform_work`), or a company that hired the user (上礼拜被顺丰录用了);
    None when the clause says none of these."""
    made = re.search(
        r"(?:(?:让|叫|安排|提拔|选|推|推举|选举)我|把我(?:[^，,]{0,2}?)(?:选|推|提拔|任命|提)|"
        r"我被[^，,]{0,4}?(?:提拔|任命|提))"
        r"(?:[^，,当做]{0,4}?)(?:当|做|担任|升|成|为)(?P<x>[^，,]{2,8}?)(?:了|啦)?$",
        c,
    )
    if made and is_role(made["x"]) and not re.search(r"明天|下周|下个月|要|打算|想", c):
        # (老板)从这个月起让我掌勺当主厨了: the job the user was given
        role = clean_value(made["x"])
        return [Hit(F, "work.role", "role.given", value=role, correction=True,
                    content=f"用户的工作是{role}")]  # fmt: skip
    if (driven := platform_work(c, is_org)) is not None:
        return driven
    hired = re.match(
        r"^(?:我)?(?:[^，,被]{0,6}?)被(?P<x>[^，,]{2,8}?)(?:正式)?"
        r"(?:录用|录取|聘用|聘请|招进去|招了)(?:了|啦)?$",
        c,
    )
    if (
        hired
        and is_org(hired["x"])
        and not re.search(r"大学|学院|学校|中学|高中|研究生|学", hired["x"])
    ):
        # 上礼拜被顺丰录取了: hired by a company (a school's 录取 is an admission)
        who = clean_value(hired["x"])
        return [Hit(F, "work.employer", "employer.hired", value=who, correction=True,
                    content=f"用户在{who}工作")]  # fmt: skip
    return None
