"""A trade said by what the user does, read when no rule recognised the clause.

我在菜市场卖猪肉 / 我在昆明开出租车 / 我在補習班教英文 / 我是跑外卖的 / 我在港口开吊车: the work
is the verb and its object, not a title from a list, so the title rules passed them by and
nothing was stored. Read here as the user's job (``work.role``), the place kept in the text.
Only verbs that are a living when said of the user in the present — selling, teaching a
subject, driving a working vehicle, keeping a shop or stall, delivering — and never a wish, a
plan, a day's errand (今天去菜市场卖了点菜) or something done at home. 退休前是会计 is the job
the user retired from (``work.former_role``).

Pure functions over one clause (simplified).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.lexicon import SHOPS_ZH
from jiyi.core.models import MemoryKind

__all__ = ["open_work_zh"]

F = MemoryKind.FACT

_SUBJECTS = (
    r"英文|英语|数学|语文|物理|化学|生物|历史|地理|政治|美术|音乐|体育|舞蹈|钢琴|小提琴|吉他|"
    r"古筝|书法|画画|绘画|编程|日语|韩语|法语|德语|游泳|瑜伽|跆拳道|武术|围棋|象棋|口语|作文|"
    r"奥数|科学|幼儿|小学|初中|高中|大学|中文|汉语|普通话|国画|声乐|计算机|会计|驾驶|开车"
)
_VEHICLES = (
    r"出租车?|的士|德士|货车|大货车?|大车|卡车|重卡|半挂|挂车|塔吊|吊车|叉车|铲车|挖掘机|挖机|"
    r"公交车?|大巴|中巴|校车|网约车|滴滴|专车|快车|渣土车|搅拌车|拖拉机|救护车|地铁|火车|高铁|"
    r"动车|飞机|轮船|渡轮|渔船|货船|快递车|冷链车|泥头车|班车|长途车?|摩的|三轮车?"
)
_STALLS = rf"(?:{SHOPS_ZH}|档|檔|摊|攤|档口|摊子|面馆|网店|淘宝店|厂|作坊|农家乐|民宿)"
_ROUNDS = r"外卖|快递|滴滴|网约车|长途|运输|货运|物流|跑腿|闪送"
_LIVING = re.compile(
    r"^我(?:现在|目前|一直|平时|主要|也|就|还)*"
    r"(?:在(?P<p>[^，,。在]{1,12}?)(?:上|里|那边|这边)?)?"
    r"(?:"
    r"(?P<sell>(?:摆摊)?卖[^，,。]{1,10})"
    rf"|(?P<teach>教(?:{_SUBJECTS})[^，,。]{{0,6}})"
    rf"|(?P<drive>开(?:{_VEHICLES})(?:的)?[^，,。]{{0,8}})"
    rf"|(?P<shop>开(?:了|着)?(?:一|个|一个|一间|一家|家|间)*[^，,。]{{0,8}}{_STALLS})"
    rf"|(?P<round>(?:跑|送)(?:{_ROUNDS}|[^，,。]{{0,4}}(?:外卖|快递))[^，,。]{{0,6}})"
    r")(?:的)?$"
)
_TRADE_IS = re.compile(
    r"^我是(?:在[^，,。]{1,10})?"
    rf"(?P<x>(?:卖|摆摊卖)[^，,。]{{1,8}}|教(?:{_SUBJECTS})[^，,。]{{0,4}}|开(?:{_VEHICLES})"
    rf"|(?:跑|送)(?:{_ROUNDS})|开[^，,。]{{0,6}}{_STALLS})的$"
)
_RETIRED = re.compile(r"^我?退休(?:之?前|以前)(?:是|在|当|做)(?P<x>[^，,。]{2,16})$")
# Not what the user does for a living: a wish, a plan, one day's doing, at home, a question.
_NOT_LIVING = re.compile(
    r"想|要|准备|打算|计划|如果|要是|的话|可能|也许|吗|呢|今天|昨天|明天|刚才|上次|那天|"
    r"在家|回家|给我|帮我|帮[他她]|替[他她]|一次|一下|几个|点儿?"
)


def open_work_zh(clause: str) -> list[Hit]:
    """The user's trade said by its verb (see the module doc), or []."""
    if retired := _RETIRED.match(clause):
        return [Hit(F, "work.former_role", "role.retired", value=retired["x"])]
    if _NOT_LIVING.search(clause):
        return []
    if m := _TRADE_IS.match(clause):
        return [Hit(F, "work.role", "role.trade", value=m["x"])]
    m = _LIVING.match(clause)
    if not m or (m["p"] and re.search(r"家$|我", m["p"])):
        return []
    value = next(v for v in (m["sell"], m["teach"], m["drive"], m["shop"], m["round"]) if v)
    return [Hit(F, "work.role", "role.trade", value=value.removesuffix("的"))]
