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


# ------------------------------------------------------------------ family and pets


def _family(c: str, ctx: Context) -> list[Hit]:
    m = re.match(rf"^(?:我有|我家有)(?:一个|一|个|两个|三个|俩|\d个)?(?P<rel>{_REL})", c)
    if m:
        return [Hit(F, f"family.{RELATIONS_ZH[m.group('rel')]}", "family.has")]
    m = re.match(rf"^(?:我们家|我家|我的|我)的?(?P<rel>{_REL})(?P<rest>.*)$", c) or re.match(
        r"^(?P<rel>女儿|儿子|老婆|老公|孩子)(?P<rest>.+)$", c
    )
    if not m:
        return []
    ctx.extra["family_zh"] = c[: m.start("rest")]  # 我女儿叫朵朵，今年六岁: 六岁 is hers
    key, rest = f"family.{RELATIONS_ZH[m.group('rel')]}", m.group("rest")
    if re.match(r"^(?:的名字)?(?:叫|名叫|名字叫|名字是)[^不，,]+", rest):
        return [Hit(F, f"{key}.name", "family.name")]
    if re.match(rf"^(?:今年)?(?:{_NUM})岁", rest):
        return [Hit(F, f"{key}.age", "family.age")]
    if n := re.search(r"(?:对)?(?P<x>[^对]+?)过敏", rest):
        return [
            Hit(F, f"{key}.health.allergy.{o}", "family.allergy")
            for part in _SEP.split(n.group("x"))
            if (o := object_key(part))
        ]
    if cm := CONDITION_RE.search(rest):
        return [Hit(F, f"{key}.health.{CONDITIONS[cm.group(0).lower()][0]}", "family.health")]
    n = re.search(r"(?P<v>不喜欢|讨厌|不爱吃|不能吃|不吃|不爱|喜欢|爱吃|爱喝|爱)(?P<x>.+)", rest)
    if n and (o := object_key(n.group("x"))):
        pol = "dislike" if n.group("v").startswith(("不", "讨")) else "like"
        return [Hit(P, f"{key}.pref.{o}", "family.pref", polarity=pol, obj=n.group("x"))]
    if len(clean_value(rest)) >= 2:
        return [Hit(F, f"{key}.about", "family.about")]
    return []


def _pet(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:我们家|我家|我的|我|我养的)(?:的|养的)?(?:那只|这只|一只|只|那条)?(?P<pet>{_PET})"
        r"(?:的名字)?(?:叫|名叫|名字叫|名字是)(?P<x>.+)$",
        c,
    )
    if m:
        return [Hit(F, f"pet.{_pet_key(m.group('pet'))}.name", "pet.name")]
    m = re.match(rf"^(?:我)?(?:养了|养着|养|有)(?:一只|两只|一条|只|条|一个)?(?P<pet>{_PET})", c)
    if m:
        ctx.extra["pet"] = _pet_key(m.group("pet"))  # 我养了一只猫，叫雪球: 雪球 is the cat
        return [Hit(F, f"pet.{ctx.extra['pet']}", "pet.has")]
    if "pet" in ctx.extra and re.match(r"^(?:它|牠)?(?:叫|名叫|名字叫|名字是)\S+", c):
        return [
            Hit(
                F,
                f"pet.{ctx.extra['pet']}.name",
                "pet.name",
                content=f"用户的{_pet_noun(ctx.extra['pet'])}{clean_value(c.lstrip('它牠'))}",
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
            r"^(?:我)?(?:是|有)?(?:对)?(?P<x>.+?)(?P<neg>不再|已经不|不|没有)?(?:严重|轻微)?过敏", c
        )
        or re.search(r"(?:我)?一(?:吃|喝|碰|接触)(?P<x>.+?)就(?P<neg>)过敏", c)
        or re.search(r"过敏(?:源)?(?:是|有)(?P<x>.+)(?P<neg>)", c)
    )
    if not m:
        return []
    value = re.sub(r"^(?:我|对|有|是)+", "", _hedge_free(m.group("x")))
    neg = bool(m.group("neg"))
    ctx.extra["list_rule"] = "allergy"
    hits = [
        Hit(F, f"health.allergy.{o}", "allergy", correction=neg)
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
            Hit(F, f"health.{key}", "condition", content=f"用户已没有{m.group(0)}", correction=True)
        ]
    return [Hit(F, f"health.{key}", "condition", content=f"用户{zh}")]


def _medication(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"(?:在|正在|每天|一直|长期)(?:吃|服用|打)(?P<x>[^，。]{1,10}?(?:药|胰岛素|片))", c
    )
    if m and (o := object_key(m.group("x"))):
        return [Hit(F, f"health.medication.{o}", "medication")]
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
            return [Hit(F, "identity.name", "name", content=f"用户名叫{name}")]
    if re.match(r"^我姓.{1,2}$", c):
        return [Hit(F, "identity.surname", "surname")]
    if re.match(rf"^(?:我)?(?:今年)?(?:已经)?(?:{_NUM})(?:周)?岁(?:了)?$", c):
        return [Hit(F, "identity.age", "age")]
    m = re.match(r"^(?:我的?)?生日(?:是|在)?(?P<x>.+)$", c)
    if m and re.search(r"\d|月|号|日|[一二三四五六七八九十]", m.group("x")):
        return [Hit(F, "birthday", "birthday")]
    if re.match(r"^我(?:其实)?是(?:\d0|[零〇一二三四五六七八九]零)后", c):
        return [Hit(F, "identity.generation", "generation")]
    if re.match(r"^我是?(?:\d{2,4}|[一二三四五六七八九零〇]{2,4})年(?:出生|生)的?", c):
        return [Hit(F, "identity.birth_year", "birth_year")]
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
        return [Hit(F, "location.home", "home", correction=change)]
    if re.match(
        r"^(?:我的?)?(?:老家|家乡|故乡)(?:是|在)?.+$|^我(?:来自|是从).+$|"
        r"^我(?:小时候|从小)?(?:是)?在.+长大",
        c,
    ):
        return [Hit(F, "location.hometown", "hometown")]
    m = re.match(r"^我是(?P<x>[\u4e00-\u9fff]{2,5})人$", c)
    if m and not re.match(
        r"^(?:好|坏|男|女|成年|老年|年轻|病|有钱|穷|普通|一个|个|这种|那种|外地|本地)", m.group("x")
    ):
        return [Hit(F, "location.hometown", "hometown.people")]
    return []


_ROLE_SUFFIX = (
    r"(?:师|员|生|家|工|者|经理|总监|老板|医生|护士|主管|律师|会计|司机|记者|博士|硕士|主播|"
    r"宝妈|全职妈妈|自由职业|创业者|学生|老师|程序员|公务员|设计师|工程师|销售|运营|产品)"
)


def _traits(c: str, ctx: Context) -> list[Hit]:
    """Stable personal traits: diet style, handedness, and the like."""
    if re.match(r"^(?:我)?(?:是)?(?:吃素|素食者?|素食主义者|纯素|吃全素)", c):
        return [Hit(P, "diet.style", "diet.style", polarity="like")]
    m = re.match(
        r"^我(?:是)?(?:个|一个)?(?P<x>左撇子|色盲|近视眼?|夜猫子|独生子女?|内向的人|外向的人|"
        r"急性子|慢性子)",
        c,
    )
    if m:
        return [Hit(F, f"identity.trait.{m.group('x')}", "trait")]
    return []


def _work(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:我)?(?:现在|目前|已经|还)?(?P<neg>不再|已经不|不是|不)?在(?P<x>.+?)"
        r"(?:工作|上班|任职|实习|打工|做事|办公)(?:了)?$",
        c,
    )
    if m:
        place, change = clean_value(m.group("x")), bool(m.group("neg"))
        if place in CITIES_ZH:
            return [Hit(F, "location.work", "work.city", correction=change)]
        if place in {"家", "家里"}:
            return [Hit(F, "work.mode", "work.remote", correction=change)]
        return [Hit(F, "work.employer", "employer", correction=change)]
    m = re.match(r"^(?:我)?(?:现在|目前)?在(?P<x>.+?)(?:做|当|担任|负责)(?P<y>.{2,})$", c)
    if m and clean_value(m.group("x")) not in CITIES_ZH | {"家", "家里"}:
        return [
            Hit(F, "work.employer", "employer.role", content=f"用户在{m.group('x')}工作"),
            Hit(F, "work.role", "role.at", content=f"用户做{clean_value(m.group('y'))}"),
        ]
    if re.match(r"^(?:我)?(?:已经|刚)?(?:跳槽|换工作|转岗|入职|加入)(?:到|去|了)?.+$", c):
        return [Hit(F, "work.employer", "employer.change", correction=True)]
    if re.match(r"^我是.+?的(?:员工|工程师|程序员|产品经理|设计师|销售|运营)$", c):
        return [Hit(F, "work.employer", "employer.of")]
    if re.match(
        rf"^(?:我)?(?:现在)?(?:是|当|做)(?:一名|一个|一位|个|名|位)?[\u4e00-\u9fffA-Za-z]{{0,8}}?"
        rf"{_ROLE_SUFFIX}$",
        c,
    ) or re.match(r"^我(?:是)?做.{1,10}的$|^我的(?:职业|工作)是.+", c):
        return [Hit(F, "work.role", "role")]
    if re.match(r"^(?:我)?(?:现在)?在.+?(?:读书|上学|读大学|读研|读博|念书|读本科|上大学)", c):
        return [Hit(F, "education.school", "school")]
    if re.match(
        r"^(?:我)?(?:正)?在读(?:大[一二三四]|研[一二三]|高[一二三]|初[一二三]|博士|研究生|硕士)", c
    ):
        return [Hit(F, "education.stage", "school.stage")]
    if re.match(r"^我(?:已经)?(?:结婚了|已婚|单身|离婚了|离异)", c):
        return [Hit(F, "family.marital", "marital")]
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
