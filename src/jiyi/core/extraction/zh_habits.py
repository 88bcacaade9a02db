"""Chinese rules for routines: what the user does regularly, when, and what they stopped.

A routine's slot is the activity (每周一晚上去游泳 → ``habit.游泳``) and its value is when it
happens (每周一晚上), so 我现在改成周二晚上游泳了 supersedes it and 我不游泳了 sets it to "no".
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.topics import clean_value, normalize_object, slug
from jiyi.core.extraction.zh_common import ADV
from jiyi.core.models import MemoryKind

__all__ = ["habit", "habit_change"]

F = MemoryKind.FACT

_ACTIVITY = (
    r"跑步|晨跑|夜跑|健身|撸铁|游泳|瑜伽|普拉提|锻炼|运动|爬山|徒步|骑车|骑行|熬夜|抽烟|吸烟|喝酒|"
    r"打游戏|玩游戏|打球|打篮球|打羽毛球|打网球|打乒乓球|踢球|踢足球|钓鱼|跳舞|练琴|弹琴|画画|"
    r"写日记|早起|滑雪|冲浪|攀岩|拳击|冥想|遛狗|追剧|刷剧|加班|开车|通勤|喝咖啡|喝奶茶|吃宵夜|"
    r"看书|读书|写作|练字|做饭|打坐|背单词|学英语|刷题"
)
_HABIT_TIME = re.compile(
    r"(?:每|一)(?:天|日|周|星期|礼拜|个?月|年|晚|早)(?:[一二三四五六日天末]+)?|天天|周末|工作日|平时|"
    r"(?:[和、跟及与]|以及)?(?:周|星期|礼拜)[一二三四五六日天末]+(?:[和、跟及与到至-](?:周|星期|礼拜)?[一二三四五六日天末]+)*|"
    r"一般|通常|经常|总是|常常|基本上?|早上|晚上|上午|下午|中午|傍晚|夜里|睡前|饭后|饭前|下班后|"
    r"上班前|起床后|坚持|习惯|都|会|要|去|来|[\d一二两三四五六七八九十半]+(?:次|个小时|小时|分钟|公里|"
    r"km|杯|趟|遍|圈|页|本|点)(?:半|[\d一二三四五六七八九十]+分)?(?:左右|多)?|以后|之前|前|后|才"
)


_PLACE_OF = {"健身房": "健身", "游泳馆": "游泳", "瑜伽馆": "瑜伽", "球馆": "打球"}


def _activity_key(phrase: str) -> str:
    """每天早上跑步五公里 / 我已经不跑步了 → 跑步: the routine without its times."""
    core = _HABIT_TIME.sub("", clean_value(phrase))
    core = re.sub(r"^(?:去|到|上)(?=..)", "", core)
    core = re.sub(r"^(?:学|练|上)(?=..)|(?<=..)(?:课|班)$", "", core)  # 学钢琴 = 钢琴课 = 钢琴
    core = _PLACE_OF.get(core, core)  # 去健身房 is 健身
    return normalize_object(core)[:12] if core else slug(phrase)


_COMMUTE = re.compile(
    r"^(?:我)?(?:每天|平时|一般|都)*(?P<x>开车|坐地铁|坐公交|骑车|骑电动车|走路|步行|打车|坐班车|坐高铁)"
    r"(?:去)?(?:上下班|上班|上学|通勤)"
)


_TIMED_ROUTINE = re.compile(
    r"^(?:我)?(?:早上|晚上|中午|下午|睡前|饭后|周末|工作日)[^，,]{0,6}?(?:一般|都|就|尽量|从来)?"
    r"(?P<x>(?:不|少|会|要)[^，,]{1,8})$"
)


def habit(c: str, ctx: Context) -> list[Hit]:
    if re.match(r"^(?:早上|晚上|每天|平时)?(?:就)?(?:能|可以)", c):
        return []  # (离家近，)早上能多睡会儿: what a change makes possible, no routine
    if ctx.extra.get("temporary") and not re.match(r"^我?(?:一直|多年|从小)", c):
        return []  # 我在减脂，晚上不吃主食: part of the temporary state just said, not a routine
    m = _TIMED_ROUTINE.match(c)
    if m and re.search(r"[起睡吃走跑爬醒]不(?:来|了|动|着|下)", c):
        m = None  # 早上实在起不来床: what the user cannot manage, a complaint, not a routine
    # 我晚上八点以后不吃东西 (早上不喝油茶了 says a routine stopped: the retraction's)
    if m and not re.match(r"^不再?[^，,]*了$", m["x"]):
        return [Hit(F, f"habit.{_activity_key(c)}", "habit.timed", value="yes")]
    if m := _COMMUTE.match(c):  # 我开车上下班
        return [Hit(F, "habit.commute", "habit.commute", value=m.group("x"))]
    m = re.match(
        rf"^(?:我)?(?:最近|这阵子|这段时间|这几个月|后来)?{ADV}(?:不再|再也不|不)(?:去)?"
        rf"(?P<x>(?:{_ACTIVITY}))(?:了)$",
        c,
    )
    if m:  # 我已经不跑步了 / 最近不去爬山了: the routine stopped
        return [
            Hit(
                F,
                f"habit.{_activity_key(m.group('x'))}",
                "habit.stopped",
                value="no",
                correction=True,
            )
        ]
    if ctx.extra.get("temporary"):
        return []  # 这个月我都在上海，周末才回家: part of the temporary state, not a routine
    m = re.match(
        r"^(?:我)?(?:现在|目前|如今|还是|依然|已经)*(?:(?:每|一)个?(?:天|日|周|星期|礼拜|月|年|晚|早)(?:[一二三四五六日天末]+)?|天天|周末|工作日|"
        r"平时|一般|通常|经常|总是|常常|习惯(?:了)?|基本上?|坚持|几乎每天|每个周末|每隔.{1,3}|"
        r"(?:每逢|逢)?初一(?:和|、)?十五|每个?月初一)"
        r"(?:都|会|要|也|去)?(?P<x>.{2,})$",
        c,
    ) or re.match(r"^(?:我)?有(?P<x>.{2,10})的习惯$", c)
    if m and re.search(r"打喷嚏|咳嗽|头疼|头痛|流鼻涕|失眠|拉肚子|过敏|发烧|胃疼", m.group("x")):
        return []  # 常常打喷嚏: a symptom, not a routine
    if m and re.search(r"算了|放弃了?$|不下去|没坚持住|坚持不", m.group("x")):
        return []  # 坚持了两天还是算了: a try given up, not a routine
    if m and re.search(r"得(?:不行|要命|要死|不得了|够呛|很|慌)|死了|到爆", m.group("x")):
        return []  # 每天卷得不行 / 每天累得要命: how the days feel, not a routine
    if m and re.match(r"^(?:都|也)?(?:不用|不必|不需要|用不着)", m.group("x")):
        return []  # 基本不用去公司: what the user need not do is no routine
    if m and re.match(r"^(?:都|也|总|老)?(?:被|让|给)", m.group("x")):
        return []  # 天天被课程设计折磨: what is done to the user, a complaint, not a routine
    if m and re.match(r"^(?:比较|很|挺|特别|有点|非常|蛮|太|超|不太|还)", m.group("x")):
        return []  # 平时比较忙: how the user is, not what they do
    key = _activity_key(m.group("x")) if m else ""
    if re.fullmatch(r"[\d一二两三四五六七八九十几半]+(?:天|次|趟|回|个小时|小时)?", key):
        return []  # 一周去三天: how often, but of nothing said here
    if m and not re.search(r"你|吗", c):
        return [Hit(F, f"habit.{key}", "habit", value=_schedule(c))]
    return []


_WHEN = re.compile(
    r"(?:每|一)(?:天|日|周|星期|礼拜|个?月|年|晚|早)[一二三四五六日天末]*|天天|周末|工作日|"
    r"(?:周|星期|礼拜)[一二三四五六日天末]+|早上|晚上|上午|下午|中午|傍晚|夜里|睡前|饭后|饭前|下班后|"
    r"上班前|起床后"
)


def _schedule(c: str) -> str:
    """每周一晚上去游泳 → 每周一晚上: when the routine happens, so a new time supersedes it."""
    often = re.findall(r"[\d一二两三四五六七八九十几]+(?:次|回|趟)", c)  # 每周三次: how often, too
    return "".join(_WHEN.findall(c) + often) or "yes"


# 膝盖受伤以后跑不了步了 / 腰不好，不能再打球了: an activity the user can no longer do has
# stopped, whatever the reason said before it (跑不了步 is 跑步 with 不了 inside).
_CANNOT = re.compile(
    rf"(?:(?P<v>跑|游|爬|打|踢|骑|滑|跳)不了(?P<o>步|泳|山|球|车|雪|舞|羽毛球|篮球|网球|乒乓球|足球|排球)|"
    rf"(?:不能|没法|没办法)(?:再)?(?P<x>{_ACTIVITY}))了$"
)
# 现在改成六点起了: only the new time, the routine left out. Its slot is the user's one timed
# routine, found on write (pipeline/subjects.py); never guessed when there are several.
_NEW_TIME = re.compile(
    r"^(?:我)?(?:现在|以后|最近|已经|都)*(?:改成|改为|改到|换成|提前到|推迟到|调到)(?:了)?"
    r"(?P<t>(?:早上|晚上|上午|下午|中午|凌晨)?[\d一二两三四五六七八九十]+点(?:半|[\d一二三四五六七八九十]+分)?)"
    r"(?P<v>(?![了啦])[\u4e00-\u9fff])?(?:了|啦)?$"
)


def habit_change(c: str, ctx: Context) -> list[Hit]:
    """我现在改成周二晚上游泳了 / (我不游泳了，)改去健身房了: the routine as it is now."""
    if (cannot := _CANNOT.search(c)) and not re.search(r"想|要|怕|会不会|吗", c[: cannot.start()]):
        what = cannot.group("x") or cannot.group("v") + cannot.group("o")
        return [Hit(F, f"habit.{_activity_key(what)}", "habit.stopped", value="no",
                    correction=True)]  # fmt: skip
    if t := _NEW_TIME.match(c):
        return [Hit(F, "", "bare.time", value=t.group("t"), obj=t.group("v") or None,
                    correction=True)]  # fmt: skip
    m = re.match(
        rf"^(?:我)?(?:的)?(?P<z>{_ACTIVITY}|健身房|[^，,了]{{2,4}}课)(?:的)?(?:时间)?(?:已经|现在|也)*"
        rf"(?:从(?:{_WHEN.pattern})+)?"  # 声乐课从周二换到周五了: the old time said too
        rf"(?:改到|改成|改为|换到|挪到|调到|改在|换成|是|在)了?(?P<t>(?:(?:{_WHEN.pattern})[和、]?)+)(?:了|啦)?$",
        c,
    )
    if m:  # 健身改到周一周三了: the routine, at its new time
        what = re.sub(r"房$", "", m.group("z"))
        return [Hit(F, f"habit.{_activity_key(what)}", "habit.moved", correction=True,
                    value="".join(_WHEN.findall(m.group("t"))))]  # fmt: skip
    m = re.match(
        rf"^(?:我)?(?:现在|已经|最近)*(?:改成|改为|改到|换成|换到|改)(?P<t>(?:{_WHEN.pattern})+)(?:才|就|再)?(?:去|来)?"
        rf"(?P<x>{_ACTIVITY})了?$|^(?:我)?(?:现在)?(?:改|换)(?:成|去|为)?(?P<y>{_ACTIVITY}|健身房|"
        rf"[^，,了]{{2,4}}课)了?$",
        c,
    )
    if not m:
        return []
    what = re.sub(r"房$", "", m.group("x") or m.group("y"))  # 健身房 is 健身
    return [Hit(F, f"habit.{_activity_key(what)}", "habit.changed", value=m.group("t") or "yes",
                correction=True)]  # fmt: skip
