"""What a dated plan is, whatever words name it: the slot of a plan and its changes.

A plan's slot names the thing planned, not the sentence ("我下周三要去北京面试" and
"面试改到下周五了" are both ``plan.interview``), so a rescheduled or cancelled plan lands in the
slot of the plan it changes and reconciliation supersedes it.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import EVENT_TTL, Context, Hit
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date

__all__ = ["plan_change", "plan_key"]

E = MemoryKind.EVENT
I_ = re.IGNORECASE

# canonical key: the words (zh and en) that name it
_THINGS = {
    "interview": r"面试|复试|interviews?|job interview",
    "flight": r"航班|飞机|班机|flights?",
    "business_trip": r"出差|business trip|work trip",
    "trip": r"旅行|旅游|度假|自驾游|trip|vacation|holiday|getaway",
    "dentist": r"看牙|洗牙|拔牙|补牙|牙医|正畸|dentist|dental (?:appointment|cleaning)|"
    r"teeth cleaning",
    "checkup": r"体检|复查|复诊|checkup|check-up|physical",
    "doctor": r"看医生|看病|门诊|挂号|doctor(?:'s)?(?: appointment)?|gp appointment",
    "surgery": r"手术|surgery|operation",
    "exam": r"考试|期末考|期中考|exams?|finals|midterms?",
    "wedding": r"婚礼|喜酒|wedding",
    "meeting": r"会议|开会|有个会|有一个会|家长会|例会|周会|meeting",
    "concert": r"演唱会|音乐会|concert|gig",
    "party": r"派对|聚会|聚餐|party|dinner party",
    "move": r"搬家|the move|our move|my move",
    "defense": r"答辩|defen[cs]e",
    "haircut": r"剪头发|理发|剪发|haircut",
    "appointment": r"预约|appointment",
    "presentation": r"汇报|演讲|presentation|talk",
    "date": r"约会|date night|a date",
}
_THING_RE = {k: re.compile(rf"(?:{v})", I_) for k, v in _THINGS.items()}
_ANY_THING = "|".join(v for v in _THINGS.values())
_MOVED_ZH = (
    r"改到|改在|改成|推迟到|推到|延期到|延到|延后到|提前到|挪到|换到|调到|定在|改期到|改期至"
)
_MOVED_EN = (
    r"(?:got |was |has been |'s been |is |been )?(?:moved|pushed(?: back)?|rescheduled|postponed|"
    r"bumped|changed|delayed|brought forward|moved up|shifted)(?: back| up)? (?:to|till|until|for)"
)
_CANCELLED = re.compile(
    rf"^(?:我的|我们的|the |my |our )?(?:[\u4e00-\u9fff]{{0,4}}的)?(?P<x>{_ANY_THING})"
    rf"(?: appointment| visit| session| time| date)?\s*"
    r"(?:(?:被|也)?取消了|不去了|黄了|泡汤了|(?:got |was |has been |is |'s been )?"
    r"(?:cancell?ed|called off|off))$",
    I_,
)


def _own(thing: str, rest: str) -> str:
    """The plan's change said of the user: "用户的面试改到下周五了", "User's interview got …"."""
    if re.search(r"[\u4e00-\u9fff]", thing):
        return f"用户的{thing}{rest}"
    return f"User's {thing.lower()} {rest}"


def plan_key(text: str) -> str | None:
    """The canonical thing a plan is about (interview, flight, trip, …), if it names one."""
    found = [(m.start(), k) for k, r in _THING_RE.items() if (m := r.search(text))]
    return min(found)[1] if found else None


def _main_goal(c: str) -> list[Hit]:
    """The user's goal ("我今年的目标是考过雅思", "my goal this year is to pass the CFA"): one
    slot, so "目标改成考GRE" / "now my goal is level 2" supersedes it."""
    m = re.match(
        r"^(?:我)?(?:今年|明年|这学期|下半年|现在|目前)?(?:的)?(?:主要|最大的|新的?|下一个|唯一的)?目标"
        r"(?:就)?(?P<chg>改成|改为|换成|变成|是|就是)了?(?P<x>[^，,]{2,})$|"
        r"^(?:so )?(?:now )?my (?:main |big |new |next |biggest |primary |"
        r"only )?goal (?:this year |"
        r"for this year |for (?:next year|\d{4}) |now )?(?P<chg2>is|has become|changed to|is now)"
        r"(?: now)? (?:to )?(?P<y>.+?)(?: now)?$",
        c,
        I_,
    )
    if not m or re.search(r"\byou\b|你|什么|哪", c, I_):
        return []  # "My goal is to help you": not the user's own aim
    change = bool(re.match(r"改|换|变", m.group("chg") or "")) or bool(
        re.search(r"\bnow\b|现在|新", c, I_)
    )
    value = (m.group("x") or m.group("y")).strip()
    return [Hit(MemoryKind.GOAL, "goal.main", "goal.main", value=value, correction=change)]


def plan_change(c: str, ctx: Context) -> list[Hit]:
    """A plan's new date ("面试改到下周五了", "The interview got moved to next Friday"), a plan
    called off ("北京的面试取消了", "the trip got cancelled"), or the user's goal, changed."""
    if hits := _main_goal(c):
        return hits
    m = re.match(
        rf"^(?:我的|我们的|the |my |"
        rf"our )?(?:[\u4e00-\u9fff]{{0,4}}的)?(?P<x>{_ANY_THING})(?: appointment| visit| session|"
        rf" time| date)?\s*"
        rf"(?:(?:被|也)?(?:{_MOVED_ZH})|{_MOVED_EN})\s*(?P<when>.+)$",
        c,
        I_,
    )
    if m and (key := plan_key(m.group("x"))) and (date := find_date(m.group("when"), ctx.ref)):
        ctx.extra["slot"] = f"plan.{key}"
        day = date[0].date().isoformat()
        said = _own(m.group("x"), c[m.end("x") :].strip())
        return [Hit(E, f"plan.{key}", "plan.moved", when=date[0], ttl=EVENT_TTL, value=day,
                    correction=True, content=said)]  # fmt: skip
    m = _CANCELLED.match(c)
    if m and (key := plan_key(m.group("x"))):
        ctx.extra["slot"], ctx.extra["plan_word"] = f"plan.{key}", m.group("x")
        said = _own(m.group("x"), c[m.end("x") :].strip())
        return [Hit(E, f"plan.{key}", "plan.cancelled", value="cancelled", correction=True,
                    ttl=EVENT_TTL, content=said)]  # fmt: skip
    slot = ctx.extra.get("slot", "")
    m = re.match(
        r"^(?:改成|改为|换成|改|变成)(?:了)?(?P<x>.+)$|^(?:it's|it is) (?:now )?(?P<y>.+) now$",
        c,
        I_,
    )
    if slot.startswith("plan.") and m and plan_key(m.group("x") or m.group("y") or "") == slot[5:]:
        # 北京的面试取消了，改成线上面试: the plan again, as it now is
        value = (m.group("x") or m.group("y")).strip()
        word = ctx.extra.get("plan_word")
        text = f"用户的{word}改成了{value}" if word else None
        return [Hit(E, slot, "plan.changed", value=value, correction=True, ttl=EVENT_TTL,
                    content=text)]  # fmt: skip
    return []
