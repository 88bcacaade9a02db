"""Who and what the user goes to: their doctor, gym, phone carrier and place of worship
(zh + en).

One slot each (``service.doctor``, ``service.gym``, ``service.phone``, ``service.worship``),
so a new one replaces the old: "my GP is Dr Aroha Ngata" → "the practice moved all her
patients over to Dr Felix Tan"; "I train at the PureGym on Union Street" → "signed up at
Bannatyne's in Westhill instead"; "my cell plan is with bell" → "switched to Koodo";
"we go to St. Ambrose Cathedral" → "been going to first methodist in ankeny since easter";
我的家医科医生是林医师 → 病历都转给陈医师; 每周二四去World Gym练重训 → 现在改去健身工厂了;
手机门号是中华电信的 → 门号携码到台哥大了; 初一十五都去大天后宫拜拜 → 改去鹿耳门天后宫拜.

A clause names a service only by its own words (Dr / 医师, gym / fitness / 健身, plan /
carrier / 门号, church / temple / 宫 / 庙); a new one only with a verb of joining or moving to
it. Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["OTHER_LEAD", "service"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

# -- English ---------------------------------------------------------------------------------
_DR = r"(?:dr\.?|doctor) (?P<d>[A-Za-z][\w'-]+(?-i: [A-Z][\w'-]+)?)"
_DOCTOR_EN = re.compile(
    r"^(?:my|our) (?:primary care |family |regular |usual |main |new )?"
    rf"(?:doctor|doc|gp|physician|pcp|dentist|paediatrician|pediatrician) (?:is|'s) {_DR}",
    I_,
)
_DOCTOR_NEW_EN = re.compile(
    r"\b(?:(?:stuck|put|set) (?:me|us) (?:up )?with|(?:gave|assigned) (?:me|us)|"
    r"moved (?:all )?(?:of )?(?:her|his|my|our|the|their) patients (?:over )?to|"
    r"transferred (?:me|us) to|switched (?:me |us )?to|assigned (?:me|us) to|"
    r"my new (?:doctor|doc|gp|physician|dentist) is|(?:i'm|im|i am) (?:now )?seeing|"
    rf"now (?:i )?see) {_DR}",
    I_,
)
_GYMISH = (
    r"(?:[\w'&.-]+ ){0,3}?(?:gym|fitness|crossfit|athletic club|leisure cent(?:re|er)|ymca)"
    r"|la fitness|life ?time|puregym|planet fitness|anytime fitness|equinox|orangetheory|"
    r"bannatyne'?s|virgin active|the y\b|f45|snap fitness|gold's gym|24 hour fitness|"
    r"david lloyd|the gym group|jetts|goodlife"
)
_GYM = re.compile(
    rf"(?P<g>(?:the )?(?:{_GYMISH})(?:'s)?)"
    r"(?: (?:on|in|at|by|near) .+| downtown| uptown| nearby| near me| in town)?$",
    I_,
)
_GYM_SAID_EN = re.compile(
    r"^(?:i|we) (?:go to|train at|work out at|lift at|swim at|belong to|"
    r"(?:am|'m) a member (?:at|of)|have a membership (?:at|with)) (?P<x>.+)$",
    I_,
)
_GYM_NEW_EN = re.compile(
    r"\b(?:joined|signed up (?:at|with|for)|switched (?:over )?to|moved (?:over )?to|"
    r"going to|got a membership (?:at|with)) (?P<x>.+?)(?: instead| now)?$",
    I_,
)
_CARRIER_SAID_EN = re.compile(
    r"^my (?:cell|cellphone|phone|mobile)(?: phone)? (?:plan|contract|carrier|provider|network)"
    r" is (?:with |on )?(?P<x>[\w&.'-]+(?: [\w&.'-]+){0,2}?)(?:,| -|$| plan\b| the\b)",
    I_,
)
_CARRIER_ON_EN = re.compile(
    r"^(?i:i|i'm|im|i am) on (?:a |an |the )?(?P<x>[A-Z][\w&.-]*(?: [\w&.-]+){0,3}?) "
    r"(?:contract|plan|prepaid)$"
)
_CARRIER_NEW_EN = re.compile(
    r"\b(?:switched|moved|ported(?: my number)?|went) (?:over )?(?:to|with) "
    r"(?P<x>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)?)\b"
)
# (not "plan" as a verb: "can help me plan my mods? I switched over to Comp Sci")
_PHONE_TALK_EN = re.compile(
    r"\b(?:plan(?! (?:my|to|for|a|an|the|on|out|ahead|it|this|that|our|your)\b)|carrier|"
    r"coverage|contract|data|signal|bill)\b",
    I_,
)
_WORSHIPISH = (
    r"(?:[\w.'-]+ ){0,4}?(?:church|cathedral|chapel|temple|mosque|synagogue|parish|"
    r"tabernacle|gurdwara|mandir|baptist|methodist|presbyterian|lutheran|pentecostal|"
    r"ministries|fellowship)(?: (?:church|chapel))?"
)
_WORSHIP_SAID_EN = re.compile(
    r"^(?:i|we|mi|me) (?:go to|attend|worship at|belong to|are members of|am a member of)"
    rf" (?P<x>{_WORSHIPISH})(?: (?:in|on|at) .+)?$",
    I_,
)
_WORSHIP_NEW_EN = re.compile(
    r"\b(?:been going to|going to|joined|switched to|moved to|now attend|now go to)"
    rf" (?P<x>{_WORSHIPISH})(?: (?:in|on|at|since) .+)?$",
    I_,
)

# -- Chinese (simplified) --------------------------------------------------------------------
_DOC_ZH = r"([\u4e00-\u9fff]{1,4}(?:医生|医师|大夫))"
_DOCTOR_ZH = re.compile(
    rf"^我(?:的|的家医科|的家庭|的主治|的牙科|的家庭医生|看的)?(?:医生|医师|大夫|牙医)?是{_DOC_ZH}$|"
    rf"^(?:我)?(?:一直|平时)?(?:都)?(?:是)?(?:给|找|看){_DOC_ZH}(?:看的?|看病)?$"
)
_DOCTOR_NEW_ZH = re.compile(
    rf"(?:转给|转到|转去|换成|换了|改看|改挂|改给){_DOC_ZH}|以后(?:都|就)?(?:看|挂|找){_DOC_ZH}"
)
_GYM_ZH = (
    r"(?P<g>[\w\u4e00-\u9fff ]{0,12}?(?:健身房|健身中心|健身工厂|健身会所|Gym|gym|GYM|Fitness)|"
    r"威尔士|一兆韦德|乐刻|超级猩猩|金吉鸟|舒适堡)"
)
_GYM_SAID_ZH = re.compile(rf"(?:去|在){_GYM_ZH}(?:练|健身|锻炼|撸铁|上课|游泳|运动)")
_GYM_NEW_ZH = re.compile(rf"(?:改去|换到|换去|转去|转到|办了|改到)(?:了)?{_GYM_ZH}")
_CARRIERS_ZH = """中国移动香港 中国移动 中国联通 中国电信 移动 联通 电信 中华电信 台湾大哥大
    台哥大 远传 亚太电信 台湾之星 CelcomDigi Celcom Maxis Digi U_Mobile Unifi Singtel StarHub M1
    Hotlink 数码通 CSL csl 3HK"""
_CARRIER_ZH = (
    "(?P<c>"
    + "|".join(sorted((w.replace("_", " ") for w in _CARRIERS_ZH.split()), key=len, reverse=True))
    + ")"
)
_CARRIER_SAID_ZH = re.compile(
    rf"(?:手机|门号|手机号|号码|配套|套餐)(?:的?[\w\u4e00-\u9fff]{{0,4}})?(?:是|用的是|办的是){_CARRIER_ZH}"
)
_CARRIER_NEW_ZH = re.compile(
    rf"(?:携码到|携号转网到|转网到|转去|转到|换成|换到|改用|改办){_CARRIER_ZH}"
)
_TEMPLE_ZH = r"(?P<t>[\u4e00-\u9fff]{2,8}?(?:宫|庙|寺|教堂|礼拜堂|清真寺|观))"
_TEMPLE_SAID_ZH = re.compile(rf"(?:去|到|在){_TEMPLE_ZH}(?:拜拜|上香|拜|做礼拜|礼拜|敬拜|做弥撒)")
_TEMPLE_NEW_ZH = re.compile(rf"(?:改去|改到|换去|换到|转去){_TEMPLE_ZH}")


# A gym by its own name (World Gym, 健身工厂, PureGym), not any gym ("the gym", 楼下的健身房)
_BRAND_ZH = re.compile(r"[A-Za-z]|健身工厂|健身工廠|威尔士|一兆韦德|乐刻|超级猩猩|金吉鸟|舒适堡")


def _named_gym(g: str) -> bool:
    if re.search(r"[\u4e00-\u9fff]", g):
        return bool(_BRAND_ZH.search(g))
    return bool(re.sub(r"(?i)\b(?:the|gym|my|a|local|new|old)\b|'s", "", g).strip())


def _hit(slot: str, value: str, content: str, new: bool) -> list[Hit]:
    return [Hit(F, f"service.{slot}", f"service.{slot}", value=value, content=content,
                correction=new)]  # fmt: skip


# Someone else leads the clause ("my roommate joined …", "she switched to Dr …", 我老公改去…;
# "they stuck me with …" is done to the user): their doctor, gym, church or language.
OTHER_LEAD = re.compile(
    r"^(?:my|our|his|her|their) (?!own\b)\w+|^(?:he|she|they)\b(?! (?:\w+ ){0,2}(?:me|us)\b)|"
    r"^我(?:的)?(?:朋友|同事|儿子|女儿|老公|老婆|妈|爸|哥|姐|弟|妹)",
    I_,
)


def _dr(m: re.Match[str]) -> str:
    """The doctor as said: "Dr. Nguyen" when typed "dr. nguyen", "Dr Patel" for "dr patel"."""
    dot = "." if re.search(r"\bdr\.", m.group(0), I_) else ""
    return f"Dr{dot} {m['d']}"


def _en(c: str, talk: bool) -> list[Hit]:
    if OTHER_LEAD.match(c) and not re.match(
        r"^(?:my|our) (?:\w+ ){0,2}(?:doctor|doc|gp|dentist|physician|pcp|cell|phone|mobile)\b",
        c,
        I_,
    ):
        return []
    if m := _DOCTOR_EN.match(c):
        d = _dr(m)
        return _hit("doctor", d, f"User's doctor is {d}", False)
    if m := _DOCTOR_NEW_EN.search(c):
        d = _dr(m)
        return _hit("doctor", d, f"User's doctor is now {d}", True)
    if (m := _WORSHIP_SAID_EN.match(c)) or (n := _WORSHIP_NEW_EN.search(c)):
        x = clean_value((m or n)["x"])  # type: ignore[index]
        return _hit("worship", x, f"User goes to {x}", m is None)
    if (m := _GYM_SAID_EN.match(c)) and (g := _GYM.match(m["x"])) and _named_gym(g["g"]):
        return _hit("gym", clean_value(g["g"]), f"User goes to the gym at {m['x']}", False)
    if (m := _GYM_NEW_EN.search(c)) and (g := _GYM.match(m["x"])) and _named_gym(g["g"]):
        return _hit("gym", clean_value(g["g"]), f"User goes to the gym at {m['x']}", True)
    if (m := _CARRIER_SAID_EN.match(c)) or (m := _CARRIER_ON_EN.match(c)):
        x = clean_value(m["x"])
        return _hit("phone", x, f"User's phone plan is with {x}", False)
    if (_PHONE_TALK_EN.search(c) or talk) and (m := _CARRIER_NEW_EN.search(c)):
        x = clean_value(m["x"])
        return _hit("phone", x, f"User's phone plan is with {x}", True)
    return []


def _a_doctor(said: str) -> bool:
    """林医师 / 陈大夫 / 林志明医师 name a doctor; 了医生 / 那位医生 / 家庭医生 / 看病得提醒医生
    do not."""
    name = re.sub(r"(?:医生|医师|大夫)$", "", said)
    bad = r"[了的个位过去看找给是这那家庭主治牙科内外儿妇病得提醒问跟和]"
    return 1 <= len(name) <= 3 and not re.search(bad, name)


def _zh(c: str) -> list[Hit]:
    if OTHER_LEAD.match(c):
        return []
    if (m := _DOCTOR_ZH.match(c)) and _a_doctor(d := m.group(1) or m.group(2)):
        return _hit("doctor", d, f"用户的医生是{d}", False)
    if (m := _DOCTOR_NEW_ZH.search(c)) and _a_doctor(d := m.group(1) or m.group(2)):
        return _hit("doctor", d, f"用户的医生现在是{d}", True)
    if (m := _GYM_NEW_ZH.search(c)) and _named_gym(m["g"]):
        return _hit("gym", m["g"].strip(), f"用户去{m['g'].strip()}健身", True)
    if (m := _GYM_SAID_ZH.search(c)) and _named_gym(m["g"]):
        return _hit("gym", m["g"].strip(), f"用户去{m['g'].strip()}健身", False)
    if m := _CARRIER_NEW_ZH.search(c):
        return _hit("phone", m["c"], f"用户的手机号用的是{m['c']}", True)
    if m := _CARRIER_SAID_ZH.search(c):
        return _hit("phone", m["c"], f"用户的手机号用的是{m['c']}", False)
    if m := _TEMPLE_NEW_ZH.search(c):
        return _hit("worship", m["t"], f"用户去{m['t']}拜拜", True)
    if m := _TEMPLE_SAID_ZH.search(c):
        return _hit("worship", m["t"], f"用户去{m['t']}拜拜", False)
    return []


def service(clause: str, ctx: Context) -> list[Hit]:
    """The user's doctor, gym, phone carrier or place of worship, said or newly changed."""
    if re.search(r"[\u4e00-\u9fff]", clause):
        return _zh(clause)
    # "bell wanted $95 for the same garbage coverage, … switched to Koodo": the talk of the
    # plan may come a clause before the new carrier
    talk = bool(ctx.extra.get("phone_talk"))
    if _PHONE_TALK_EN.search(clause) or re.search(r"\b(?:phone|cell|mobile)\b", clause, I_):
        ctx.extra["phone_talk"] = "1"
    return _en(clause, talk)
