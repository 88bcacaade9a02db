"""Body and belief facts in both languages: blood type, height, religion, glasses, fears,
motion sickness, and the family's recurring dates (birthdays, anniversaries).

Small closed vocabularies, so one module serves zh and en; each fact has one slot whatever
the language (``identity.blood_type``, ``identity.religion``, ``family.anniversary``).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.topics import clean_value, slug
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date

__all__ = ["profile_en", "profile_zh"]

F = MemoryKind.FACT
I_ = re.IGNORECASE
_RELIGIONS_ZH = {
    "佛": "佛教",
    "佛教": "佛教",
    "基督": "基督教",
    "基督教": "基督教",
    "天主教": "天主教",
}
_RELIGIONS_ZH |= {"伊斯兰教": "伊斯兰教", "道教": "道教", "耶稣": "基督教"}
_REL_ZH = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
_REL_EN = "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
_FEARS_EN = (
    r"heights|flying|needles|the dark|small spaces|enclosed spaces|deep water|public speaking|"
    r"elevators|driving"
)


_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_MONTH_DAY = re.compile(
    rf"\b(?P<m>{'|'.join(_MONTHS)})[a-z]*\.? (?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b|"
    rf"\b(?:the )?(?P<d2>\d{{1,2}})(?:st|nd|rd|th)? of (?P<m2>{'|'.join(_MONTHS)})[a-z]*\b",
    I_,
)


def _date(value: str) -> str:
    """A day of the year as month-day ("3-13") in both languages, so "March 3rd" and
    3月3号 compare equal and "March 13th" does not read as a longer "March 3"."""
    from jiyi.core.slots import normalize_value

    norm = normalize_value(value)
    m = re.search(r"(\d{1,2})月(\d{1,2})", norm)
    if m:
        return f"{int(m.group(1))}-{int(m.group(2))}"
    if e := _MONTH_DAY.search(value):
        month = _MONTHS.index((e.group("m") or e.group("m2")).lower()[:3]) + 1
        return f"{month}-{int(e.group('d') or e.group('d2'))}"
    return clean_value(value).lower()


# "Tom's birthday is March 3rd" / 李静的生日是3月13号: a birthday said of a first name alone is
# kept only for the relative the user stored under that name (``named.*``, pipeline/subjects.py)
_NAMED_BIRTHDAY_EN = re.compile(
    r"^(?:(?i:actually|oh|sorry|correction|wait|no),? )?(?P<n>[A-Z][a-z]+)'s (?i:birthday|bday)"
    r"(?: is|'s)(?: actually| really)?(?: on)? (?P<y>.+)$"
)
_NAMED_BIRTHDAY_ZH = re.compile(
    r"^(?:其实|不对|对了)?(?P<n>[\u4e00-\u9fff]{2,3}?|[A-Za-z]{2,12})的?(?:生日|阳历生日)(?:其实)?(?:是|在)"
    r"(?P<y>[^，,]+)$"
)
_NOT_NAMED = re.compile(rf"^(?:[我你他她它这那谁咱]|{_REL_ZH}|My|Our|His|Her|Their|Your|The)")


def _named_birthday(c: str) -> list[Hit]:
    m = _NAMED_BIRTHDAY_EN.match(c) or _NAMED_BIRTHDAY_ZH.match(c)
    if not m or _NOT_NAMED.match(m.group("n")):
        return []
    when = re.split(r",|\bnot\b|，|不是", m.group("y"), maxsplit=1, flags=I_)[0]
    said = c[m.start("n") :]
    return [Hit(F, "family.unknown.birthday", "named.birthday", value=_date(when),
                correction=True, subject=m.group("n"), content=said)]  # fmt: skip


def _due(said: str, ctx: Context, content: str) -> list[Hit]:
    """The month a pregnancy is due: a value of the pregnancy, so a new date supersedes it."""
    date = find_date(said, ctx.ref) or find_date(f"in {said}", ctx.ref)
    if date is None:
        return []
    value = f"due {date[0].year}-{date[0].month:02d}"
    return [Hit(F, "health.pregnancy", "pregnancy.due", value=value, content=content)]


def profile_zh(c: str, ctx: Context) -> list[Hit]:
    if hits := _languages(c) or _named_birthday(c):
        return hits
    if m := re.search(r"预产期(?:其实)?(?:是|在|定在|改到|改成|推到)?(?P<x>[^，,]+?)(?:了)?$", c):
        return _due(m.group("x"), ctx, f"用户预产期是{m.group('x')}")  # 我预产期是八月份
    if m := re.match(r"^我(?:是)?(?P<x>AB|O|A|B|RH阴性|熊猫)型?血$", c, I_):
        return [Hit(F, "identity.blood_type", "blood_type", value=m.group("x").upper())]
    m = re.match(r"^我(?:的)?(?:身高|个子)(?:有|是|大概)?(?P<x>.+?)(?:左右|多)?$", c) or re.match(
        r"^我(?:有|大概|差不多)?(?P<x>一米[一二三四五六七八九\d]{1,2}|1\.\d{1,2}米?|1[4-9]\d(?:cm|厘米|公分))$",
        c,
    )
    if m and re.search(r"\d|米|cm|公分|[一二三四五六七八九]", m.group("x")):
        return [Hit(F, "identity.height", "height", value=clean_value(m.group("x")))]
    if m := re.match(
        r"^我(?:是)?(?:信|信仰)(?P<x>佛教?|基督教?|天主教|伊斯兰教|道教|耶稣)(?:的)?$", c
    ):
        return [Hit(F, "identity.religion", "religion", value=_RELIGIONS_ZH[m.group("x")])]
    if m := re.match(r"^我是(?P<x>佛教徒|基督徒|天主教徒|穆斯林|无神论者)$", c):
        return [Hit(F, "identity.religion", "religion", value=m.group("x"))]
    if m := re.match(
        r"^我(?:有点|特别|很|比较)?(?P<x>恐高|怕高|幽闭恐惧|怕黑|晕针|怕打针|恐飞|社恐)", c
    ):
        return [Hit(F, f"identity.trait.{m.group('x')}", "fear", value="yes")]
    if m := re.match(
        r"^我是(?:家里的?|家中的?)?(?P<x>老大|老二|老三|老小|老幺|长子|长女|次子|次女)", c
    ):
        return [Hit(F, "identity.trait.birth_order", "birth_order", value=m.group("x"))]
    if re.match(r"^我(?:有点|特别|很|比较|容易)?(?:晕车|晕船|晕机)", c):
        return [
            Hit(F, "health.condition.motion_sickness", "motion", value="yes", content="用户晕车")
        ]
    if m := re.match(r"^我(?:有点|特别|很|比较|容易)?(?P<x>晕血|晕针|恐高|幽闭恐惧)", c):
        kinds = {
            "晕血": "blood",
            "晕针": "needles",
            "恐高": "heights",
            "幽闭恐惧": "claustrophobia",
        }
        word = m.group("x")
        return [
            Hit(
                F,
                f"health.condition.faint_{kinds[word]}",
                "faint",
                value="yes",
                content=f"用户{word}",
            )
        ]
    if re.match(r"^我(?:有)?(?:近视|戴眼镜|戴隐形)", c):
        return [Hit(F, "identity.trait.glasses", "glasses", value="yes")]
    m = re.match(
        rf"^(?:我们的?|我和(?:{_REL_ZH})的?)(?:结婚)?纪念日(?:是|在)(?P<x>.+)$|^(?:我的?|我们家)"
        rf"(?P<rel>{_REL_ZH})的?(?:生日|阳历生日|农历生日)(?:是|在)(?P<y>.+)$",
        c,
    )
    if m and m.group("x"):
        return [Hit(F, "family.anniversary", "anniversary", value=_date(m.group("x")))]
    if m:
        key = f"family.{RELATIONS_ZH[m.group('rel')]}.birthday"
        return [Hit(F, key, "family.birthday", value=_date(m.group("y")))]
    return []


_SIGNS_EN = (
    r"aries|taurus|gemini|cancer|leo|virgo|libra|scorpio|sagittarius|capricorn|aquarius|pisces"
)


_LANGS_EN = (
    r"english|spanish|french|german|italian|portuguese|mandarin|chinese|cantonese|japanese|korean|"
    r"russian|arabic|hindi|dutch|swedish|polish|turkish|vietnamese|thai|greek|hebrew|tagalog|"
    r"urdu|bengali|punjabi|farsi|persian|indonesian|malay|swahili|asl|sign language"
)


def _languages(c: str) -> list[Hit]:
    """ "I speak Spanish and Portuguese", "我会说粤语和英语": the languages the user speaks."""
    m = re.match(
        rf"^(?:i (?:also |can )?speak|i'm fluent in|i am fluent in|i'm bilingual in|my (?:native|"
        rf"first|"
        rf"mother) (?:language|tongue) is) (?:fluent |some |a little |basic |conversational )?"
        rf"(?P<x>(?:{_LANGS_EN})(?:(?:,| and| &|,? and) (?:some |a little )?(?:{_LANGS_EN}))*)"
        r"(?: fluently| natively| too)?$|"
        r"^我(?:会说|会讲|能说|说|讲|的母语是|母语是)(?P<y>(?:[\u4e00-\u9fff]{1,4}(?:语|话|文))"
        r"(?:(?:和|、|跟)[\u4e00-\u9fff]{1,4}(?:语|话|文))*)$",
        c,
        I_,
    )
    if not m:
        return []
    said = m.group("x") or m.group("y")
    return [Hit(F, "identity.language", "language", value=said.lower())]


def profile_en(c: str, ctx: Context) -> list[Hit]:
    if hits := _languages(c) or _named_birthday(c):
        return hits
    m = re.match(
        r"^(?:(?:i'm|i am|we're|we are|she's) (?:now |actually )?)?due (?:in|on|around|"
        r"at the end of|"
        r"early|late|mid)?\s*(?P<x>.+)$|^(?:my|our|the baby's) due date is (?:in |on )?(?P<y>.+)$",
        c,
        I_,
    )
    if m:  # "I'm due in August", "(I'm pregnant,) due in October"
        said = m.group("x") or m.group("y")
        return _due(
            said, ctx, f"User is due {'' if m.group('y') else 'in '}{said}".replace("in on", "on")
        )
    if m := re.match(
        rf"^(?:i'm|i am) (?:a |an )?(?:total |typical |classic )?(?P<x>{_SIGNS_EN})$", c, I_
    ):
        return [Hit(F, "identity.zodiac_sign", "zodiac", value=m.group("x").lower())]
    m = re.match(
        r"^(?:i'm|i am) the (?P<x>oldest|eldest|youngest|middle(?: child)?|baby of the family)\b",
        c,
        I_,
    )
    if m:  # "I'm the oldest of four kids"
        return [Hit(F, "identity.trait.birth_order", "birth_order", value=m.group("x").lower())]
    m = re.match(
        r"^(?:i'm|i am|my blood type is|my blood type's) (?P<x>(?:ab|a|b|o)(?: |-)?(?:positive|"
        r"negative|\+|-)?)(?: blood)?$",
        c,
        I_,
    )
    if m and (re.search(r"blood", c, I_) or re.search(r"positive|negative|\+|-", m.group("x"), I_)):
        return [Hit(F, "identity.blood_type", "blood_type", value=m.group("x").upper())]
    m = re.match(
        r"^(?:i'm|i am) (?P<x>\d'\s?\d{1,2}\"?|\d(?:\.\d)? (?:feet|foot|ft)"
        r"(?: \d{1,2}(?: inches)?)?|1\d\d ?cm)(?: tall)?$",
        c,
        I_,
    )
    if m:
        return [Hit(F, "identity.height", "height", value=m.group("x"))]
    m = re.match(
        r"^(?:i'm|i am) (?:a |an )?(?:practicing |devout |lapsed )?(?P<x>catholic|christian|muslim|"
        r"jewish|"
        r"buddhist|hindu|sikh|mormon|atheist|agnostic|protestant|orthodox)\b",
        c,
        I_,
    )
    if m:
        return [Hit(F, "identity.religion", "religion", value=m.group("x").lower())]
    if m := re.match(
        rf"^(?:i'm|i am) (?:really |so |terribly |a bit )?(?:afraid|scared|"
        rf"terrified) of (?P<x>{_FEARS_EN})$",
        c,
        I_,
    ):
        return [Hit(F, f"identity.trait.fear_{slug(m.group('x'))}", "fear", value="yes")]
    if re.match(
        r"^i (?:get|am|'m) (?:really |easily |very )?(?:carsick|seasick|airsick|motion sick)|"
        r"^i get motion sickness",
        c,
        I_,
    ):
        return [
            Hit(
                F,
                "health.condition.motion_sickness",
                "motion",
                value="yes",
                content="User gets motion sick",
            )
        ]
    if re.match(
        r"^i (?:wear|need) (?:glasses|contacts|contact lenses|a hearing aid|hearing aids)", c, I_
    ):
        return [Hit(F, "identity.trait.glasses", "glasses", value="yes")]
    m = re.match(
        rf"^(?:our|my) (?:wedding )?anniversary(?: is|'s)(?: on)? (?P<x>.+)$|"
        rf"^my (?P<rel>{_REL_EN})'s (?:birthday|bday)(?: is|'s)(?: on)? (?P<y>.+)$|"
        rf"^my (?P<rel2>{_REL_EN}) was born (?:in|on) (?P<z>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
        rf"oct|nov|dec)\w*.*)$",
        c,
        I_,
    )
    if m and m.group("x"):
        return [Hit(F, "family.anniversary", "anniversary", value=_date(m.group("x")))]
    if m:
        rel = RELATIONS_EN[(m.group("rel") or m.group("rel2")).lower()]
        when = re.split(r",|\bnot\b", m.group("y") or m.group("z"), maxsplit=1, flags=I_)[0]
        return [Hit(F, f"family.{rel}.birthday", "family.birthday", value=_date(when))]
    return []
