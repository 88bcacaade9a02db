"""Chinese slot rules for stable facts: family, pets, health, identity, home, work.

Each rule looks at one clause (already stripped of fillers and correction markers) and
returns the hits it recognises, or [] to let the next rule try. Specific slots run first and
the first rule that fires wins, so "我女儿对花生过敏" is the daughter's allergy, not the user's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import (
    CITIES_ZH,
    CONDITION_RE,
    CONDITIONS,
    PETS_ZH,
    PRONOUN_OBJECTS,
    RELATIONS_ZH,
)
from jiyi.core.extraction.topics import clean_value, normalize_object
from jiyi.core.models import MemoryKind

__all__ = ["CHANGE_RE", "FACT_RULES", "family_rule", "object_key", "third_person_zh"]

F, P, G, E, S = (
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.GOAL,
    MemoryKind.EVENT,
    MemoryKind.STATE,
)
_REL = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
# Breeds end in the animal: 布偶猫, 金毛狗; the last character decides the key.
_PET_WORD = "|".join(sorted(PETS_ZH, key=len, reverse=True))
_PET = "[\u4e00-\u9fff]{0,3}?(?:" + "|".join(sorted(PETS_ZH, key=len, reverse=True)) + ")"


def _pet_key(word: str) -> str:
    return next(
        (v for k, v in sorted(PETS_ZH.items(), key=lambda kv: -len(kv[0])) if word.endswith(k)),
        "pet",
    )


_NUM = r"\d{1,3}|[一二两三四五六七八九十]{1,3}"
_SEP = re.compile(r"和|、|跟|以及|及|还有|与|或者|或|/")
# 不…了 / 不再 / 已经不 mark a change of an earlier state, i.e. a correction.
CHANGE_RE = re.compile(
    r"不再|已经不|再也不|现在不|不\S*了$|没\S*了$|戒了|搬到|搬去|跳槽|换成|改成|换到|改为"
)


def _hedge_free(value: str) -> str:
    return re.sub(
        r"^(?:可能|好像|也许|大概|似乎|有点|有些|比较|很|特别|非常|严重|轻微)+", "", value
    )


def third_person_zh(clause: str) -> str:
    """我对花生过敏 → 用户对花生过敏; 我女儿叫小美 → 用户的女儿叫小美; 只喝冷萃 → 用户只喝冷萃."""
    text = re.sub(rf"我(?=(?:{_REL}|{_PET_WORD}))", "用户的", clause)
    text = re.sub(r"我(?!们)", "用户", text)
    text = text.strip(" ，,。.!！?？~～").rstrip("啊呀哦吧呢嘛哈啦")
    return text if text.startswith("用户") else "用户" + text


def object_key(value: str) -> str | None:
    """The normalised object, or None when the phrase names nothing (a pronoun, a question)."""
    value = _hedge_free(clean_value(value))
    if not value or value in PRONOUN_OBJECTS or re.search(r"什么|哪|谁|啥", value):
        return None
    norm = normalize_object(value)
    return norm or None


def _name(value: str) -> str:
    """A name as said: 小美，不是小丽 → 小美; trailing particles dropped."""
    return clean_value(re.split(r"不是|而是|，|,", value)[0])


def _place(value: str) -> str:
    """住在北京朝阳区了 → 北京朝阳区; 上海去了 → 上海."""
    return clean_value(re.sub(r"(?:去|来|住|啦|了)+$", "", clean_value(value)))


def _date_value(value: str) -> str:
    """5月20号 / 5月20日 / 五月二十 → 5-20 (month-day), else the phrase as said."""
    from jiyi.core.slots import normalize_value

    norm = normalize_value(value)
    m = re.search(r"(\d{1,2})月(\d{1,2})", norm)
    return f"{int(m.group(1))}-{int(m.group(2))}" if m else clean_value(value)


def _yes(before: str) -> str:
    """ "no" when the words before the condition deny it (不/没有/不再), else "yes"."""
    return "no" if re.search(r"不再|已经不|没有|没|不", before) else "yes"


def _role(clause: str) -> str:
    m = re.search(r"(?:是|当|做|职业是|工作是)(?:一名|一个|一位|个|名|位)?(?P<x>.+)$", clause)
    return clean_value(re.sub(r"的$", "", m.group("x"))) if m else clean_value(clause)


# ------------------------------------------------------------------ family and pets


def _family(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:我有|我家有)(?:一个|一|个|两个|三个|俩|\d个)?(?P<rel>{_REL})"
        r"[，,]?(?:叫|名叫|名字叫)(?P<x>.+)$",
        c,
    )
    if m:  # 我有个妹妹叫李婷
        ctx.extra["family_zh"] = f"我{m.group('rel')}"
        key = f"family.{RELATIONS_ZH[m.group('rel')]}.name"
        return [Hit(F, key, "family.has.name", value=_name(m.group("x")))]
    m = re.match(rf"^(?:我有|我家有)(?:一个|一|个|两个|三个|俩|\d个)?(?P<rel>{_REL})", c)
    if m:
        return [Hit(F, f"family.{RELATIONS_ZH[m.group('rel')]}", "family.has", value="yes")]
    m = re.match(rf"^(?:我们家|我家|我的|我)的?(?P<rel>{_REL})(?P<rest>.*)$", c) or re.match(
        r"^(?P<rel>女儿|儿子|老婆|老公|孩子)(?P<rest>.+)$", c
    )
    if not m:
        return []
    ctx.extra["family_zh"] = c[: m.start("rest")]  # 我女儿叫朵朵，今年六岁: 六岁 is hers
    key, rest = f"family.{RELATIONS_ZH[m.group('rel')]}", m.group("rest")
    if n := re.match(r"^(?:的名字)?(?:改名)?(?:叫|名叫|名字叫|名字是)(?P<x>[^不，,]+)", rest):
        return [Hit(F, f"{key}.name", "family.name", value=_name(n.group("x")))]
    if n := re.match(rf"^(?:今年)?(?:已经)?(?P<x>{_NUM})岁", rest):
        return [Hit(F, f"{key}.age", "family.age", value=n.group("x"))]
    if n := re.match(
        r"^(?:今年|现在|目前)?(?:在)?(?:上|读|念)(?P<x>[小初高大][一二三四五六]|[一二三四五六]年级)",
        rest,
    ):
        return [Hit(F, f"{key}.grade", "family.grade", value=n.group("x"))]
    if n := re.search(r"(?:对)?(?P<x>[^对]+?)过敏", rest):
        return [
            Hit(F, f"{key}.health.allergy.{o}", "family.allergy", value=_yes(n.group(0)))
            for part in _SEP.split(n.group("x"))
            if (o := object_key(part))
        ]
    if cm := CONDITION_RE.search(rest):
        key = f"{key}.health.{CONDITIONS[cm.group(0).lower()][0]}"
        return [Hit(F, key, "family.health", value=_yes(rest[: cm.start()]))]
    n = re.search(r"(?P<v>不喜欢|讨厌|不爱吃|不能吃|不吃|不爱|喜欢|爱吃|爱喝|爱)(?P<x>.+)", rest)
    if n and (o := object_key(n.group("x"))):
        pol = "dislike" if n.group("v").startswith(("不", "讨")) else "like"
        return [Hit(P, f"{key}.pref.{o}", "family.pref", polarity=pol, obj=n.group("x"), value=pol)]
    if len(clean_value(rest)) >= 2:
        return [Hit(F, f"{key}.about", "family.about")]
    return []


def _pet(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:我们家|我家|我的|我|我养的)(?:的|养的)?(?:那只|这只|一只|只|那条)?(?P<pet>{_PET})"
        r"(?:的名字)?(?:改名)?(?:叫|名叫|名字叫|名字是|改名为|改叫)(?P<x>.+)$",
        c,
    )
    if m:
        return [
            Hit(F, f"pet.{_pet_key(m.group('pet'))}.name", "pet.name", value=_name(m.group("x")))
        ]
    m = re.match(
        rf"^(?:我|我们)?(?:家里?|家里面)?(?:养了|养着|养|有)(?:一只|两只|三只|一条|只|条|一个)?"
        rf"(?:[^，,的]{{1,4}}的)?(?P<pet>{_PET})(?:[，,]?(?:它|牠)?(?:叫|名叫|名字叫)(?P<x>.+))?$",
        c,
    )
    if m:
        ctx.extra["pet"] = _pet_key(m.group("pet"))  # 我养了一只猫，叫雪球: 雪球 is the cat
        if m.group("x"):  # 我养了一只英短叫咪咪
            key = f"pet.{ctx.extra['pet']}.name"
            return [Hit(F, key, "pet.has.name", value=_name(m.group("x")))]
        return [Hit(F, f"pet.{ctx.extra['pet']}", "pet.has", value="yes")]
    m = re.match(rf"^(?:我们家|我家|我的|我)(?:的|养的)?(?P<pet>{_PET})(?:改名了|改了名字?)$", c)
    if m:  # 我家猫改名了，现在叫年糕: the name follows
        ctx.extra["pet"] = _pet_key(m.group("pet"))
        return []
    n = re.match(
        r"^(?:它|牠)?(?:现在|已经)?(?:的名字|名字)?(?:改名)?(?:叫|名叫|名字叫|名字是|改名为|改叫)"
        r"(?P<x>\S+)",
        c,
    )
    if "pet" in ctx.extra and n:
        return [
            Hit(
                F,
                f"pet.{ctx.extra['pet']}.name",
                "pet.name",
                content=f"用户的{_pet_noun(ctx.extra['pet'])}{clean_value(c.lstrip('它牠'))}",
                value=_name(n.group("x")),
            )
        ]
    return []


def _pet_noun(key: str) -> str:
    return next((k for k, v in PETS_ZH.items() if v == key), "宠物")


# ------------------------------------------------------------------ health


def _allergy(c: str, ctx: Context) -> list[Hit]:
    cont = re.match(r"^(?:尤其是|特别是|还有|以及|包括|比如)(?P<x>.+)$", c)
    if cont and ctx.extra.get("list_rule") == "allergy":  # 我对海鲜过敏，尤其是虾
        return [
            Hit(F, f"health.allergy.{o}", "allergy.more", content=f"用户对{clean_value(p)}过敏")
            for p in _SEP.split(cont.group("x"))
            if (o := object_key(p))
        ]
    m = (
        re.search(
            r"^(?:我)?(?:是|有)?(?:对)?(?P<x>.+?)(?P<neg>不再|已经不|不|没有)?(?:严重|轻微)?"
            r"过敏(?!原|科|检)",
            c,
        )
        or re.search(r"(?:我)?一(?:吃|喝|碰|接触)(?P<x>.+?)就(?P<neg>)过敏", c)
        or re.search(r"过敏(?:源)?(?:是|有)(?P<x>.+)(?P<neg>)", c)
    )
    if not m:
        return []
    value = re.sub(r"^(?:我|有|是)+", "", _hedge_free(m.group("x")))
    denied = re.match(r"^(?:不是|并不是|没有)(?:对)?", value)  # 我不是对芒果过敏
    value = re.sub(r"^(?:不是|并不是|没有)?(?:对)?", "", value)
    value = re.sub(r"^(?:一)?(?:吃|喝|碰|接触|闻)(?=.)", "", value)  # 吃芒果会过敏
    value = re.sub(r"(?:会|就|都|也|容易|有点|有些)+$", "", value)
    neg = bool(m.group("neg")) or bool(denied)
    ctx.extra["list_rule"] = "allergy"
    hits = [
        Hit(F, f"health.allergy.{o}", "allergy", correction=neg, value="no" if neg else "yes")
        for part in _SEP.split(value)
        if (o := object_key(re.sub(r"^(?:对)", "", part)))
    ]
    return hits


def _condition(c: str, ctx: Context) -> list[Hit]:
    m = CONDITION_RE.search(c)
    if not m or not re.search(r"我(?!们)|^(?:有|患有|得了|查出|是|确诊)", c + "我" * (len(c) <= 6)):
        return []
    key, zh, _ = CONDITIONS[m.group(0).lower()]
    before = c[: m.start()]
    if re.search(r"没有|没|不是|不再|已经不", before) or re.search(r"好了|痊愈|治好", c):
        return [
            Hit(
                F,
                f"health.{key}",
                "condition",
                content=f"用户已没有{m.group(0)}",
                correction=True,
                value="no",
            )
        ]
    return [Hit(F, f"health.{key}", "condition", content=f"用户{zh}", value="yes")]


def _medication(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"(?:在|正在|每天|一直|长期)(?:吃|服用|打)(?P<x>[^，。]{1,10}?(?:药|胰岛素|片))", c
    )
    if m and (o := object_key(m.group("x"))):
        return [Hit(F, f"health.medication.{o}", "medication", value="yes")]
    return []


# ------------------------------------------------------------------ identity, home, work


def _identity(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:我的?)?(?:名字|姓名|全名)(?:是|叫)(?P<x>.+)$|^我(?:叫|名叫)(?P<y>.+)$|"
        r"^(?:你)?(?:可以)?叫我(?P<z>.+?)(?:就行|就好|就可以)?$",
        c,
    )
    if m:
        name = clean_value(re.split(r"不是|而是", m.group("x") or m.group("y") or m.group("z"))[0])
        if name and len(name) <= 12 and not re.search(r"什么|啥", name):
            return [Hit(F, "identity.name", "name", content=f"用户名叫{name}", value=name)]
    if m := re.match(r"^我姓(?P<x>.{1,2})$", c):
        return [Hit(F, "identity.surname", "surname", value=m.group("x"))]
    if m := re.match(rf"^(?:我)?(?:今年)?(?:已经)?(?P<x>{_NUM})(?:周)?岁(?:了)?$", c):
        return [Hit(F, "identity.age", "age", value=m.group("x"))]
    m = re.match(r"^(?:我的?)?生日(?:是|在)?(?P<x>.+)$", c)
    if m and re.search(r"\d|月|号|日|[一二三四五六七八九十]", m.group("x")):
        return [Hit(F, "birthday", "birthday", value=_date_value(m.group("x")))]
    if m := re.match(r"^我(?:其实)?是(?P<x>\d0|[零〇一二三四五六七八九]零)后", c):
        return [Hit(F, "identity.generation", "generation", value=m.group("x"))]
    m = re.match(
        r"^我(?:是|在)?(?P<x>\d{2,4}|[一二三四五六七八九零〇]{2,4})年(?:出生|生)的?|"
        r"^(?:我)?(?:出生于|生于|出生在|出生年份是)(?P<y>\d{4}|[一二三四五六七八九零〇]{4})年?",
        c,
    )
    if m:
        year = m.group("x") or m.group("y")
        return [Hit(F, "identity.birth_year", "birth_year", value=year)]
    if m := re.match(r"^我是?(?P<x>\d{2,4}|[一二三四五六七八九零〇]{2,4})年(?:出生|生)的?", c):
        return [Hit(F, "identity.birth_year", "birth_year", value=m.group("x"))]
    return []


def _location(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:我们家|我们|我家|我)?(?:现在|目前|已经|刚刚|刚)?(?P<neg>不再|已经不|不)?(?:从\S+?)?"
        r"(?P<v>住在|住(?!院|宿|酒店|店|校|了)|家住|家在|定居(?:在|于)?|搬到了?|搬去了?|搬家到了?|搬回了?)"
        r"(?P<x>.+)$",
        c,
    )
    if m and not re.match(r"^(?:酒店|宾馆|民宿|院|哪)", m.group("x")):
        change = bool(m.group("neg")) or m.group("v").startswith("搬")
        place = _place(m.group("x"))
        if m.group("neg"):
            return [Hit(F, "location.home", "home", correction=change, value=f"not {place}")]
        content = f"用户住在{place}"  # one wording per value: 搬到上海了 / 住在上海 alike
        return [Hit(F, "location.home", "home", correction=change, value=place, content=content)]
    m = re.match(
        r"^(?:我的?)?(?:老家|家乡|故乡)(?:是|在)?(?P<x>.+)$|^我(?:来自|是从)(?P<y>.+)$|"
        r"^我(?:小时候|从小)?(?:是)?在(?P<z>.+)长大",
        c,
    )
    if m:
        place = _place(m.group("x") or m.group("y") or m.group("z"))
        return [Hit(F, "location.hometown", "hometown", value=place)]
    m = re.match(r"^我是(?P<x>[\u4e00-\u9fff]{2,5})人$", c)
    if m and not re.match(
        r"^(?:好|坏|男|女|成年|老年|年轻|病|有钱|穷|普通|一个|个|这种|那种|外地|本地)", m.group("x")
    ):
        return [Hit(F, "location.hometown", "hometown.people", value=m.group("x"))]
    return []


_ROLE_SUFFIX = (
    r"(?:师|员|生|家|工|者|经理|总监|老板|医生|护士|主管|律师|会计|司机|记者|博士|硕士|主播|"
    r"宝妈|全职妈妈|自由职业|创业者|学生|老师|程序员|公务员|设计师|工程师|销售|运营|产品)"
)


def _traits(c: str, ctx: Context) -> list[Hit]:
    """Stable personal traits: diet style, handedness, and the like."""
    if re.match(
        r"^(?:我)?(?:已经|现在)?(?:不再|不)(?:吃素|是素食者?|是素食主义者)了?|^(?:我)?开戒了", c
    ):
        return [
            Hit(
                P,
                "diet.style",
                "diet.style",
                content="用户不再吃素",
                value="不吃素",
                correction=True,
            )
        ]
    if re.match(r"^(?:我)?(?:现在)?(?:荤素都吃|什么都吃|不挑食)", c):
        return [Hit(P, "diet.style", "diet.style", value="荤素都吃")]
    if re.match(r"^(?:我)?(?:是)?(?:吃素|素食者?|素食主义者|纯素|吃全素)", c):
        return [Hit(P, "diet.style", "diet.style", polarity="like", value="素食")]
    m = re.match(
        r"^(?:我)?(?:现在|目前|最近|一直)?(?:在)?(?:做|吃|坚持|改成|换成|开始|开始做|改为|执行)了?"
        r"(?P<x>[\u4e00-\u9fffA-Za-z0-9+]{1,8}?)(?:饮食|减肥法|餐)(?:了)?$",
        c,
    )
    if m:  # 我在做生酮饮食 / 现在改成地中海饮食了
        style = f"{m.group('x')}饮食"
        return [Hit(P, "diet.style", "diet.regimen", content=f"用户在做{style}", value=style)]
    m = re.match(
        r"^我(?:是)?(?:个|一个)?(?P<x>左撇子|色盲|近视眼?|夜猫子|独生子女?|内向的人|外向的人|"
        r"急性子|慢性子)",
        c,
    )
    if m:
        return [Hit(F, f"identity.trait.{m.group('x')}", "trait", value="yes")]
    return []


def _work(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:我)?(?:现在|目前|已经|还)?(?P<neg>不再|已经不|不是|不)?在(?P<x>.+?)"
        r"(?:工作|上班|任职|实习|打工|做事|办公)(?:了)?$",
        c,
    )
    if m:
        place, change = clean_value(m.group("x")), bool(m.group("neg"))
        value = f"not {place}" if change else place
        if place in CITIES_ZH:
            return [Hit(F, "location.work", "work.city", correction=change, value=value)]
        if place in {"家", "家里"}:
            remote = "no" if change else "yes"
            return [Hit(F, "work.mode", "work.remote", correction=change, value=remote)]
        return [Hit(F, "work.employer", "employer", correction=change, value=value)]
    m = re.match(r"^(?:我)?(?:现在|目前)?在(?P<x>.+?)(?:做|当|担任|负责)(?P<y>.{2,})$", c)
    if m and clean_value(m.group("x")) not in CITIES_ZH | {"家", "家里"}:
        return [
            Hit(
                F,
                "work.employer",
                "employer.role",
                content=f"用户在{m.group('x')}工作",
                value=clean_value(m.group("x")),
            ),
            Hit(
                F,
                "work.role",
                "role.at",
                content=f"用户的工作是{clean_value(m.group('y'))}",
                value=clean_value(m.group("y")),
            ),
        ]
    m = re.match(r"^(?:我)?(?:已经|刚)?(?:跳槽|换工作|转岗|入职|加入)(?:到|去|了)?(?P<x>.+)$", c)
    if m:
        employer = re.sub(r"(?:工作|上班)$", "", clean_value(m.group("x")))
        return [Hit(F, "work.employer", "employer.change", correction=True, value=employer)]
    if m := re.match(r"^我是(?P<x>.+?)的(?:员工|工程师|程序员|产品经理|设计师|销售|运营)$", c):
        return [Hit(F, "work.employer", "employer.of", value=m.group("x"))]
    if re.match(
        rf"^(?:我)?(?:现在)?(?:是|当|做)(?:一名|一个|一位|个|名|位)?[\u4e00-\u9fffA-Za-z]{{0,8}}?"
        rf"{_ROLE_SUFFIX}$",
        c,
    ) or re.match(r"^(?:我)?(?:是)?做.{1,10}的$|^我的(?:职业|工作)是.+", c):
        if re.search(r"学生$", c):  # 我是初二的学生 / 我是大学生: a stage of education
            return [Hit(F, "education.stage", "student", value=_role(c))]
        return [Hit(F, "work.role", "role", value=_role(c))]
    m = re.match(
        r"^(?:我)?(?:现在)?在(?P<x>.+?)(?:读书|上学|读大学|读研|读博|念书|读本科|上大学)", c
    )
    if m:
        return [Hit(F, "education.school", "school", value=clean_value(m.group("x")))]
    m = re.match(
        r"^(?:我)?(?:现在|今年|目前)?(?:是)?(?:正)?(?:在)?(?:读|上|念)?(?P<x>大[一二三四]|研[一二三]|"
        r"高[一二三]|初[一二三]|博[一二三四五]|[一二三四五六]年级|博士|研究生|硕士|研究所|大学|高中)"
        r"(?:了|的学生|学生)?$",
        c,
    ) or re.match(r"^(?:我)?(?:现在)?(?:在)?(?:读|念)(?P<x>研究所|大学|高中|博士|硕士)", c)
    if m:
        return [Hit(F, "education.stage", "school.stage", value=m.group("x"))]
    m = re.match(r"^(?:我)?(?:是)?(?:学|读|念)(?P<x>[\u4e00-\u9fff]{2,8}?)(?:专业)?的$", c)
    if m and len(c) <= 12:  # 学金融的
        return [Hit(F, "education.major", "major", value=m.group("x"))]
    if m:
        return [Hit(F, "education.stage", "school.stage", value=m.group("x"))]
    if m := re.match(r"^我(?:已经)?(?P<x>结婚了|已婚|单身|离婚了|离异)", c):
        status = {"结婚了": "已婚", "离婚了": "离异"}.get(m.group("x"), m.group("x"))
        return [Hit(F, "family.marital", "marital", value=status)]
    return []


def family_rule(c: str, ctx: Context) -> list[Hit]:
    """The family rule alone, for clauses that inherit a family subject."""
    return _family(c, ctx)


# Stable facts, most specific first; the first rule that fires wins.
FACT_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    _family,
    _pet,
    _allergy,
    _condition,
    _medication,
    _identity,
    _traits,
    _work,
    _location,
)
