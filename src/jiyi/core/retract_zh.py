"""Chinese retraction cues (:mod:`jiyi.core.retract` reads them clause by clause).

Each cue is ``(kind, pattern)`` over a simplified clause; ``x`` (or ``y``) is the retracted
phrase, ``v`` the verb said with it (不教书了: 教), ``w`` a work verb that makes a stop one of
work (不在深圳干了), ``to`` the replacement when the clause names one (从美式换成拿铁). A
stop without one takes the value the next clause names (:data:`INSTEAD_ZH`); a clause that
only denies a value (:data:`ONLY_NOT`) takes the one the clause before it stated
(:data:`STATED`).

Pure data, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon_people import OTHERS_ZH
from jiyi.core.extraction.zh_common import REL

__all__ = ["INSTEAD_ZH", "ONLY_NOT", "RIGHT_ZH", "STATED", "ZH_CUES"]

_ZH = r"[\u4e00-\u9fffA-Za-z0-9]"
# …unless someone of theirs follows (女儿的同学钢琴不学了: the classmate's)
_OTHER = "|".join(sorted(OTHERS_ZH, key=len, reverse=True))

_ZH_STATE_VERBS = (
    r"喜欢|爱|吃|喝|住在|住|在|当|做|干|开|养|练|玩|打|抽|用|学|读|信|教|送|跑|种|叫|是"
)
ZH_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "fine",
        re.compile(
            rf"^(?:我|其实|原来|而且|但|反而|结果|测出来|查出来|检查出来|化验出来|(?:报告|化验单|检测|测试|结果)?(?:上)?(?:说|显示|写着)|(?:医生|大夫|医师)?(?:说|讲|话)|"
            # 医生说头孢没事 / 查了过敏原才知道虾是阴性: who found it, before the allergen
            rf"(?:查了?[^，,]{{0,4}}?)?(?:才知道|才发现|发现))*(?:对|吃)?(?P<x>{_ZH}{{1,6}}?)(?:那项|这项|那一项|一项)?(?:其实|倒是|完全|根本|一点|压根)?"
            # 结果磺胺是阴性的: an allergy test that came back negative
            r"(?:没事|没有事|没问题|没有问题|没关系|不过敏|可以吃|能吃|是?阴性|啥事没有|啥事都没有|什么事都没有|"
            r"一点事都没有|屁事没有)(?:的|了|啦|呀|儿)?$"
        ),
    ),
    (
        "stopped",
        re.compile(
            rf"(?:已经|现在|早就|也|都)?不再?(?P<v>{_ZH_STATE_VERBS})(?P<x>{_ZH}{{1,8}}?)"
            r"(?P<w>做|干|工作|上班)?了"
        ),
    ),
    ("stopped", re.compile(rf"不再(?P<v>{_ZH_STATE_VERBS})(?P<x>{_ZH}{{1,8}}?)了?$")),
    # 我老公从银行辞职了: the employer left
    ("stopped", re.compile(rf"从(?P<x>{_ZH}{{2,8}}?)(?P<w>辞职|离职|辞了职|辞工)了?")),
    (
        "stopped",
        re.compile(r"(?P<v>[跑游打踢骑滑弹唱画爬吃喝抽])不了(?P<x>[\u4e00-\u9fff]{1,3}?)了"),
    ),
    (
        "stopped",
        re.compile(
            rf"戒(?:了|掉了?)(?P<x>{_ZH}{{1,4}})|(?P<y>(?!我){_ZH}{{1,4}}?)我?"
            # 奶茶彻底戒了 / 珍奶已经戒一个月了: how fully or how long ago, no part of it
            r"(?:已经|彻底|终于|早就|总算|完全|都)*戒(?:了|掉了?|(?:了)?[一两三四五六七八九十几半\d]+"
            r"个?(?:月|年|周|星期|礼拜|天)(?:多)?了)"
        ),
    ),
    (
        "stopped",
        re.compile(
            rf"(?:从|把)(?P<x>{_ZH}{{1,8}}?)(?:换成|改成|换到|改到|搬到|搬去)了?(?P<to>{_ZH}{{1,8}}?)?"
            r"(?=了|$)"
        ),
    ),
    (
        "stopped",
        re.compile(
            rf"^(?:早上|平时|每天|中午|晚上)?(?:那杯|那个|那)?(?!现在|目前|如今|最近|我|从|把)"
            rf"(?P<x>{_ZH}{{1,6}}?)(?:换成|改成)了?"
            rf"(?P<to>{_ZH}{{1,8}}?)?(?=了|$)"
        ),
    ),
    # 咖啡我已经不喝了: the value said first, the verb it stopped after
    (
        "stopped",
        re.compile(
            # a relative the clause opens with (女儿钢琴不学了): the value follows them
            rf"^(?!我)(?:(?:我|我家)?(?:{REL})(?!的?(?:{_OTHER}))的?)?(?P<x>{_ZH}{{1,6}}?)我?(?:已经|现在|早就|也)*都?"
            r"(?:不再?|很少)(?:喝|吃|玩|打|抽|练|弹|养|去|用|做|干|学|上|骑|开|教|碰)了[啦呀哦]?$"
        ),
    ),
    # 日语放弃了 / 我放弃日语了: given up
    (
        "stopped",
        re.compile(
            rf"^(?!我)(?P<x>{_ZH}{{1,6}}?)我?(?:已经|早就|也)*(?:放弃了|半途而废了)[啦呀]?$|"
            rf"^我?(?:已经|早就|也)*放弃(?:了)?(?!了)(?P<y>{_ZH}{{1,6}}?)了?[啦呀]?$"
        ),
    ),
    # 柠檬茶喝腻了 / 奶茶早就喝够了: tired of it, the value said first
    (
        "stopped",
        re.compile(
            rf"^(?!我)(?P<x>{_ZH}{{1,6}}?)我?(?:早就|已经)?(?:喝|吃|玩|打|听)(?:腻|厌|够)了[啦呀]?$"
        ),
    ),
    # 我弟辞了银行的工作 / 她把银行的工作辞了: the job at that place ended
    (
        "work",
        re.compile(
            rf"辞(?:了|掉了?)(?P<x>{_ZH}{{2,8}}?)的?(?:工作|差事|活)|"
            rf"把(?P<y>{_ZH}{{2,8}}?)的?(?:工作|差事)(?:给)?辞(?:了|掉了?)|"
            # 老公被华为裁了 / 我被公司优化了: laid off from that place
            rf"被(?!公司|单位|老板|领导|厂里|上面)(?P<z>{_ZH}{{2,8}}?)(?:裁了|裁员了|裁掉了|辞退了|开除了|炒了|炒鱿鱼了|优化了|劝退了)"
        ),
    ),
    # 保全做到上个月底: the job held until then
    (
        "stopped",
        re.compile(
            rf"^(?P<x>{_ZH}{{2,6}}?)(?:做到|干到)(?:上个?月底|月底|年底|上周|昨天|今天|上个月)(?:了|为止)?$"
        ),
    ),
    # 棉花上礼拜去当小天使了: a pet that died (its name memory only, see _allowed)
    (
        "died",
        re.compile(
            rf"^(?:我家的?)?(?P<x>{_ZH}{{2,4}}?)(?:上礼拜|上周|前几天|前天|昨天|昨晚|上个月|去年|今年|已经)*"
            r"(?:去当小天使了|当小天使了|去了?喵星了?|去了?汪星了?|回喵星了|回汪星了|去世了|过世了|"
            r"病死了|死了|走了|没了|寿终正寝了|飞走了|跑丢了|丢了|送人了)(?:啦|呀|呜呜|了)?$"
        ),
    ),
    # 雪糕送给我表姐养了 / 豆包送回乡下我爸妈那了: a pet given away, no longer the user's
    (
        "died",
        re.compile(
            rf"^(?:我)?(?:把)?(?P<x>{_ZH}{{2,4}}?)(?:送给|送回|送去|送到|给了|托付给)[^，,]{{1,12}}?(?:养|那|家)?了$"
        ),
    ),
    # 以前住北京，现在住上海: what held before
    ("stopped", re.compile(rf"^以前(?:我)?(?:一直)?(?P<v>{_ZH_STATE_VERBS})(?P<x>{_ZH}{{1,8}})$")),
    ("wrong", re.compile(rf"不是(?P<x>{_ZH}{{1,8}}?)(?:而)?是")),
    (
        "wrong",
        re.compile(
            rf"^(?:刚才|之前|上次)?(?:说的)?(?P<x>{_ZH}{{1,6}}?)(?:是)?(?:说错了|错了|错的|不对)$"
        ),
    ),
    ("wrong", re.compile(rf"^(?:其实)?(?:已经)?不是(?P<x>{_ZH}{{1,8}}?)了$")),
    # (兽医说)它根本不是田园犬(，是柴犬): a pet or person said to be something else
    (
        "wrong",
        re.compile(
            rf"(?:它|牠|他|她)(?:根本|其实|并|压根|原来)*不是(?P<x>{_ZH}{{2,6}}?)(?:啦|呀|哦|了)?$"
        ),
    ),
    # 之前说我家柯基叫馒头是我打错了: the name said, then owned as a slip
    (
        "wrong",
        re.compile(
            rf"(?:叫|是)(?P<x>{_ZH}{{1,6}}?)(?:是我|我)?(?:打错了|说错了|记错了|写错了|搞错了)$"
        ),
    ),
    # (小米)其实是只秋田不是柴犬: the right value first, then the one denied
    (
        "wrong",
        re.compile(
            rf"是(?:一)?(?:只|条|个)?(?P<to>{_ZH}{{2,6}}?)(?:而)?不是(?:一)?(?:只|条|个)?"
            rf"(?P<x>{_ZH}{{2,6}}?)(?:啦|呀|哦|了)?$"
        ),
    ),
)
# "我画的是油画，不是水彩": a clause that only denies a value, after one that states the right one.
ONLY_NOT = re.compile(rf"^(?:而|但)?不是(?P<x>{_ZH}{{1,8}}?)(?:了|啦|呀|哦|的)?$")
STATED = re.compile(rf".*(?:是|叫|在|喝|吃|养|玩|画|学)(?P<to>{_ZH}{{1,8}}?)$")
# 柠檬茶喝腻了，现在每天换成一杯冻鸳鸯: what took the stopped value's place, said next
INSTEAD_ZH = re.compile(
    r"^(?:(?:现在|目前|如今|后来|每次|平时)[^，,]{0,4}?(?:都|只)?(?:换成了?|改成了?|改喝|改为|喝|只喝|"
    r"只带|点|迷上了?|爱上了?)|(?:[^，,]{0,6}?[让叫要][我他她])?(?:改喝|改成|换成|改为|"
    r"改[学教练打玩弹带开用读做当跑送吃骑坐])了?)(?:每天|天天|早上|中午|晚上|平时)*(?:一杯|一瓶|一碗|一壶|杯|瓶)?"
    rf"(?!什么|啥|别的|其他|随便)(?P<to>{_ZH}{{2,6}}?)(?:了|啦)?$"
)
# (叫馒头是我打错了，)它叫包子: the right value, said in the clause after a slip
RIGHT_ZH = re.compile(
    rf"^(?:它|牠|她|他)?(?:其实|应该|本来)?(?:叫|是)(?P<to>{_ZH}{{2,6}}?)(?:才对)?(?:啦|呀|哦)?$"
)
