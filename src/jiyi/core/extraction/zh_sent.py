"""Chinese: sent or gone to a city to work there — 我调到青岛的医院了 / 我去深圳做房产中介了 /
留在北京一家律所上班 / 回武汉开了家烧烤店: the city of the work, and the job, or the user's own
shop, when one is said. Not a trip (派去上海出差), not a branch of the employer just left
((不在海淀图书馆了，)被调到朝阳那边的分馆), and 回老家 names no city.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_places import ORG_SUFFIX_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import ADV, ON_A_TRIP
from jiyi.core.models import MemoryKind

__all__ = ["sent_to_work"]

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
