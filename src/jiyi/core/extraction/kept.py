"""Talk about the user's job or home that leaves it as it is (and any fact said to go on as
before: 每天一杯拿铁照旧).

People mention their work and their city all the time without changing either: an offer they
turned down (朋友介绍我去新濠做经理…推咗, "got an offer from Amazon but said no"), a question
still open (要不要转去做售后管理, "should I move to Denver?"), a stay of some days (出差在上海这几
天, "in Chicago for a work trip"), a duty for a day (今天被拉去展会当讲解员, "covering for my
manager this week"), or a job that stays (还是乖乖当我的小工程师, 喺广丰做得几开心, "my job is
the same"). Read clause by clause, such words give a value of the job's or home's slot, and
the slot's old value would be retired. :func:`kept` tells the extractor to drop such a hit:
the message is then only an episode, and every stored fact stays.

A message that only keeps facts can never lose one, so these cues err on the side of keeping:
a real change said with "要不要" in another clause stays unread (the episode still holds it).
Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Hit
from jiyi.core.text import has_cjk

__all__ = ["kept"]

_WORK = ("work.employer", "work.role", "location.work")
_HOME = ("location.home",)
_I = re.IGNORECASE

# An offer turned down, or a choice not made yet: neither the job nor the home changed.
_UNDECIDED_ZH = re.compile(
    r"推了|推咗|推掉|拒了|拒绝了|没去成|唔去|不去了|没答应|没接受|让我想想|不太想|"
    r"还没(?:决定|定|想好|提|答应|跟|说)|犹豫|纠结|要不要|就问问|帮我(?:分析|参谋|想想)|"
    r"你觉得|该不该|值不值|考虑一下|考虑考虑"
)
_UNDECIDED_EN = re.compile(
    r"\bturned (?:\w+ )?down\b|\bdeclined\b|\bsaid no\b|\bpassed on\b|\bnot taking\b|"
    r"\bdidn'?t take\b|\bnot sure (?:if|whether|about)\b|\bthinking (?:about|of)\b|\bshould i\b|"
    r"\bwhat do you think\b|\bidk\b|\bhaven'?t decided\b|\bundecided\b|\bkeep saying\b|"
    r"\bwho am i kidding\b|\b(?:almost|nearly) (?:quit|moved|took|left)\b|\bwould you\b",
    _I,
)
# A stay of some days, a trip: not a new home.
_STAY_ZH = re.compile(
    r"出差|旅游|旅行|度假|探亲|住了?[一两二三四五六七八九十几\d]+(?:天|晚|夜|个晚上)|这几天|这两天"
)
_STAY_EN = re.compile(
    r"\b(?:business|work) trip\b|\bon (?:vacation|holiday)\b|\bvisiting\b|\bstaying (?:at|with)\b|"
    r"\bfor (?:the|a) (?:weekend|conference)\b|\bairbnb\b|\bhotel\b",
    _I,
)
# A duty for a day or a week, or someone's place kept warm: not a new job.
_DUTY_ZH = re.compile(r"临时|暂时|被(?:拉|抓|叫)去|顶班|代班|就这(?:两|几)天|帮忙")
_DUTY_EN = re.compile(
    r"\bcovering for\b|\bacting\b|\binterim\b|\bfilling in\b|\btemporar(?:y|ily)\b|"
    r"\bfor (?:the|this) week\b|\bon leave\b",
    _I,
)
# The job as it is: 还是乖乖当我的小工程师 / 喺广丰做得几开心 / 做市场挺好的.
_STILL_ZH = re.compile(
    r"(?:还是|依然|仍然|照样|照旧|继续)(?:乖乖|老老实实)?地?(?:在|喺|当|做|干|留在)"
)
_LIKED_ZH = re.compile(
    r"(?:做|干|待|呆)得?(?:挺|很|几|蛮|还|超|好|都)?(?:开心|不错|顺心|舒服|爽|满意|安稳)|"
    r"(?:挺|蛮|都)好(?:的|啦|嘅)?$"
)
# 公司把我调到西南分拨中心: a unit or site of the same employer, not a new one
_BRANCH_ZH = re.compile(
    r"(?:中心|分公司|分部|总部|分行|支行|门店|分店|基地|办事处|分院|分厂|事业部|部门|项目部|工厂|"
    r"厂区|园区)$"
)
# 在画室被推选当了班长: a title in a class, club or group, not a job
_TITLES_ZH = frozenset("班长 队长 社长 会长 副会长 群主 课代表 团支书 舍长 楼长 团长 主席".split())
# Any fact said to go on as before.
_AS_BEFORE_ZH = re.compile(
    r"照旧|照常|照舊|依旧|依舊|老样子|老樣子|跟以前一样|跟以前一樣|和以前一样"
)
_AS_BEFORE_EN = re.compile(
    r"\b(?:as usual|same as (?:always|ever|before)|as always|as before|like always)\b", _I
)
# (…搬到普陀来了…出海还是照旧: a run-on change beside what goes on as before)
_CHANGED = re.compile(
    r"搬到|搬去|搬回|换成|换到|改成|改喝|改到|换了|调到|调去|转到|转去|升|\b(?:moved|switched|changed)\b",
    _I,
)
# A role that is no role: "my job is the same", "fine", "boring".
_NO_ROLE_EN = re.compile(r"^(?:the )?(?:same|fine|ok|okay|good|great|boring|busy)\b", _I)


def kept(hit: Hit, clause: str, message: str) -> bool:
    """Should ``hit``, read from ``clause`` of ``message``, be dropped because the message
    talks about the user's job or home without changing it?"""
    topic = hit.topic or ""
    zh = has_cjk(message)
    if (_AS_BEFORE_ZH if zh else _AS_BEFORE_EN).search(clause) and not _CHANGED.search(clause):
        return True  # 每天一杯拿铁照旧 / "my usual latte, same as always": said again, unchanged
    if topic not in _WORK and topic not in _HOME:
        return False
    if (_UNDECIDED_ZH if zh else _UNDECIDED_EN).search(message):
        return True
    if topic in _HOME:
        return bool((_STAY_ZH if zh else _STAY_EN).search(message))
    if (_DUTY_ZH if zh else _DUTY_EN).search(message):
        return True
    value = hit.value or ""
    if zh:
        if topic == "work.employer" and _BRANCH_ZH.search(value) and re.search("调|派", clause):
            return True
        if topic == "work.role" and value.lstrip("了") in _TITLES_ZH:
            return True
        return bool(_STILL_ZH.search(clause) or _LIKED_ZH.search(clause) or "被" in value)
    return topic == "work.role" and bool(_NO_ROLE_EN.match(value))
