"""Where the user lives now, read from a Chinese clause's parts when no wording rule matched;
and whether a move is someone else's (both languages).

The home rules (:mod:`zh_home`) each know one wording ("住在X", "搬到X"); people tell a move
in many more (上个月我们全家去了成都定居, 年初落户到了成都, 我现在是成都人了, 离开杭州以后一直住
成都). What such clauses share is three parts, each checked on its own:

* a **known city** (``CITIES_ZH``), not the one the clause leaves (离开X / 从X / 不回X);
* a **word of residence or moving** (定居 / 落户 / 安家 / 住 / 搬 / 是X人了 / 新家);
* said **by the user of now**: not a plan, a wish, a question, a trip or someone else's
  news (我姐搬去了苏州 stays the sister's; 把我妈接到成都住了 is the mother's).

The English counterpart ("my new place in Denver", "a Denver resident now") was tried and
is not here: on a held-out set it retired a background fact (bench/README.md, "Moves told
in parts").

:func:`jiyi.core.extraction.infer.moved_to` asks it when no rule made a lasting fact of the
clause; the place becomes ``location.home`` as a correction, so the reconciler supersedes
the old home with history. Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import RELATIONS_EN
from jiyi.core.extraction.lexicon_people import OTHERS_EN
from jiyi.core.extraction.lexicon_places import CITIES_ZH

__all__ = ["others_move", "residence_zh"]

# ------------------------------------------------------------------ Chinese

_HOME_ZH = re.compile(
    r"定居|落户|安家|扎根|住|搬|(?:是|成了?)(?P<of>[\u4e00-\u9fff]{2,4})人了|新家|把家"
)
_LEFT_ZH = r"(?:离开|从|不回|不在|告别|退了|卖了)(?:了)?"
_NOT_NOW_ZH = re.compile(
    r"要|打算|准备|计划|想|将|会|可能|如果|要是|将来|明年|下(?:个)?月|下周|以前|"
    r"曾经|小时候|那时|吗|呢|？|\?|出差|旅游|旅行|度假|玩|开会|探亲|看望|看看|"
    # 感觉自己都快变成上海人了 / 在表姐那住了两天: almost, or a stay of some days
    r"快(?:要)?(?:变成|成了?|是)|差点|几乎|感觉|住了?[一两二三四五六七八九十几\d]+(?:天|晚|夜|个晚上)"
)
# Someone else's move: a relative, a friend, a colleague, him or her, as the subject (after
# the time it happened, if said first).
_OTHER_ZH = re.compile(
    r"^(?:(?:上个?月|上周|去年|前年|今年|年初|年底|最近|前阵子|前段时间|刚刚?|后来)的?)*(?:我的?)?"
    r"(?:他|她|它|爸|妈|父|母|哥|姐|弟|妹|儿|女|爷|奶|姥|外公|外婆|叔|姨|舅|姑|朋友|同事|同学|"
    r"室友|邻居|老公|老婆|丈夫|妻子|男朋友|女朋友|对象|前男友|前女友|前夫|前妻|前任|前度|"
    r"[\u4e00-\u9fff]{1,2}(?:阿姨|叔叔|老师))"
)
_CITIES_ZH = sorted(CITIES_ZH, key=len, reverse=True)


def residence_zh(c: str) -> str | None:
    """上个月我们全家去了成都定居 / 离开杭州以后一直住成都 → 成都, where the user lives now."""
    home = _HOME_ZH.search(c)
    if not home or _NOT_NOW_ZH.search(c) or not re.search(r"了|现在|如今|已经|一直|最近", c):
        return None
    if others_move(c[: home.start()], "zh") or re.search(r"把(?!我|家)", c):
        return None  # 我姐前年搬去了苏州 / 把我妈接到成都住了: someone else's home
    places = [p for p in _places_zh(c) if not re.search(_LEFT_ZH + re.escape(p), c)]
    if home["of"]:
        places = [p for p in places if p == home["of"]]
    return places[0] if len(set(places)) == 1 else None  # none, or two not told apart


def others_move(lead: str, lang: str) -> bool:
    """Is the clause (or its part before the verb) said of someone else: 我姐 / 同事 / 王阿姨,
    "my sister", "he", "Mike and Sarah"? Not when the user goes with them (跟老公…)."""
    if lang == "zh":
        return bool(_OTHER_ZH.match(lead)) and not re.match(r"^\S{0,6}?(?:跟|和|与)", lead)
    return bool(_OTHER_EN.match(lead)) and not _WITH_ME_EN.search(lead)


def _places_zh(c: str) -> list[str]:
    """The known cities of ``c``, longest first where two overlap (南京 in 南京市)."""
    found: list[str] = []
    taken = [False] * len(c)
    for city in _CITIES_ZH:
        if city in ("国外", "海外", "外地", "老家"):
            continue
        for m in re.finditer(re.escape(city), c):
            if not any(taken[m.start() : m.end()]):
                found.append(city)
                taken[m.start() : m.end()] = [True] * len(city)
    return found


# ------------------------------------------------------------------ English

_I = re.IGNORECASE
_PEOPLE_EN = "|".join(
    sorted((w for w in frozenset(RELATIONS_EN) | OTHERS_EN if w.isalpha()), key=len, reverse=True)
)
# Someone else as the clause's subject: "my sister", "our neighbours", "his parents", "he",
# "Mike and Sarah" (never "my wife and I", "our family", "the kids and I").
_OTHER_EN = re.compile(
    rf"^(?:and |so |but )?(?:(?:my|our|his|her|their) (?:\w+ )?(?:{_PEOPLE_EN})s?\b|"
    r"(?:he|she|they|the (?:boys|girls|kids|children|twins|grandkids))\b|"
    # "my Kollegin moved to Berlin": anyone said with "my" but the household itself
    r"(?:my|our) (?!(?:family|whole family|household|whole household|lot|office|company|work|job|"
    r"team|firm|school|shop|store|business|practice|clinic|employer|department|lab|workplace|"
    r"hq|headquarters|branch|church|gym|club)\b)[\w-]+ "
    r"(?:has |have |had |just |finally |recently )*(?:moved|relocated)\b|"
    r"(?!(?:We|Me|My|Our|Just|Finally|Been|Packed)\b)(?-i:[A-Z][a-z]+)"
    r"(?: and (?:(?-i:[A-Z][a-z]+)|the (?:boys|girls|kids|children|family)|(?:her|his|their) "
    r"(?:husband|wife|kids|family|boys|girls|partner)))? (?:has |have |had |just |finally )*"
    r"(?:moved|relocated|settled|lives?|bought|is|are)\b)",
    _I,
)
_WITH_ME_EN = re.compile(r"\b(?:and|&) (?:i|me)\b|\bwith (?:me|us)\b|^(?:me|we) and\b", _I)
