"""Chinese rules for the user's health: allergies, conditions, medication, intolerances.

One slot per allergen (``health.allergy.花生``) and per condition
(``health.condition.hypertension``), so "我不是对花生过敏，是对腰果过敏" retires 花生 and
"我血压已经正常了" the blood-pressure fact, whatever words were used the first time.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_health import (
    CONDITION_RE,
    CONDITIONS,
    drug_named_before,
    is_drug,
    named_drug,
)
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import SEP, hedge_free, object_key
from jiyi.core.models import MemoryKind

__all__ = ["allergy", "condition", "intolerance", "medication"]

F = MemoryKind.FACT
_LIST_MORE = re.compile(r"^(?:尤其是|特别是|还有|以及|包括|比如|像|而且|另外)(?P<x>.+)$")
_ALSO = re.compile(
    r"^(?P<x>[^，,也都]{1,8})(?:也|都)(?:不行|过敏|不能吃|不能碰|不能用|碰不得|吃不了)$"
)
_SINGLE = set("虾蟹鱼贝蛋奶豆麦蚌螺")
_SYMPTOM = r"拉肚子|腹泻|胃疼|胃痛|肚子疼|不舒服|难受|胀气|起疹子|长疹子|起红疹|头疼|过敏|呕吐|想吐"


def _allergens(value: str) -> list[str]:
    value = re.sub(r"^(?:我|有|是|都|也|还|尤其|特别|主要|其实)+", "", hedge_free(value))
    value = re.sub(r"^(?:不是|并不是|没有)?(?:对)?", "", value)
    value = re.sub(r"^(?:一)?(?:吃|喝|碰|接触|闻|用)(?=.)", "", value)  # 吃芒果会过敏
    # 对菠萝根本不过敏 / 压根儿不过敏: how firmly, not part of the allergen
    value = re.sub(
        r"(?:会|就|都|也|容易|有点|有些|比较|很|已经|这种|根本|压根儿?|完全|一点[都也]?|从来[都也]?|"
        r"并|其实|真的|本来就)+$",
        "",
        value,
    )
    parts = [re.sub(r"^(?:对|吃|喝)", "", p) for p in SEP.split(value)]
    if len(parts) == 1 and 2 <= len(parts[0]) <= 3 and all(ch in _SINGLE for ch in parts[0]):
        parts = list(parts[0])  # 虾蟹 / 鱼虾蟹: single-character allergens said together
    return [p for p in parts if p and not re.fullmatch(r"(?:已经|现在|其实|还|都|也|再)+", p)]


# 原来我是对牛奶过敏，不是鸡蛋: after an allergy the message names, the one it is not
_NOT_THAT = re.compile(
    r"^(?:而|并|可|但)?不是(?:对)?(?P<x>[^，,。不]{1,8}?)(?:过敏)?(?:啦|了|哦|喔|啊|哈)*$"
)


# 我对芒果敏感 (Taiwan and Hong Kong usage): sensitive to a food or drug is an allergy; to
# noise, light or prices it is not.
_ALLERGENS = (
    r"(?P<x>芒果|奇异果|猕猴桃|菠萝|桃子|草莓|花生|坚果|腰果|杏仁|核桃|海鲜|虾|蟹|螃蟹|贝类|鸡蛋|蛋|"
    r"牛奶|乳制品|麸质|小麦|大豆|芝麻|花粉|尘螨|猫毛|狗毛|酒精|青霉素|头孢|磺胺|阿司匹林)"
)
_SENSITIVE = re.compile(rf"{_ALLERGENS}(?:会|很|有点)?敏感")
# 过敏原查出来，阳性的是大豆 / 大豆那项是阳性: a test positive for a known allergen (阳性 of
# anything else, 核酸阳性, is no allergy)
_POSITIVE = re.compile(
    rf"阳性(?:的)?(?:是|为|只有)(?:对)?{_ALLERGENS.replace('?P<x>', '?P<z>')}|"
    # 尘螨是阴性的，真正的元凶是花粉: what the test found instead
    rf"^真正的?(?:过敏原|元凶|罪魁祸首|凶手)(?:其实)?(?:是|为)(?:对)?{_ALLERGENS}|"
    rf"^(?:对)?{_ALLERGENS.replace('?P<x>', '?P<y>')}"
    r"(?:那项|这项|那一项|一项)?"
    r"(?:是|呈|为)?阳性"
)


def allergy(c: str, ctx: Context) -> list[Hit]:
    """我对花生过敏 / 我花生和虾过敏 / 一吃芒果就过敏 / 过敏的是杏仁 / 我已经不对猫毛过敏了."""
    c = _SENSITIVE.sub(r"\g<x>过敏", c)
    if re.search(r"以为|还当|当成|误会", c):
        return []  # 我一直以为自己对牛奶过敏(，结果牛奶是阴性): a belief the message sets right
    if ctx.extra.get("allergy_yes") and (no := _NOT_THAT.match(c)):
        return [
            Hit(F, f"health.allergy.{o}", "allergy.not", correction=True, value="no",
                content=f"用户对{clean_value(p)}不过敏")
            for p in _allergens(no.group("x"))
            if (o := object_key(p))
        ]  # fmt: skip
    if positive := _POSITIVE.search(c):
        said = positive["x"] or positive["y"] or positive["z"]
        return [Hit(F, f"health.allergy.{object_key(said)}", "allergy.positive", value="yes",
                    content=f"用户对{said}过敏")]  # fmt: skip
    more = _LIST_MORE.match(c) or _ALSO.match(c)
    if more and ctx.extra.get("list_rule") == "allergy":  # 我对海鲜过敏，尤其是虾 / 头孢也不行
        return [
            Hit(F, f"health.allergy.{o}", "allergy.more", content=f"用户对{clean_value(p)}过敏")
            for p in SEP.split(more.group("x"))
            if (o := object_key(p))
        ]
    if re.match(r"^(?:会|就会|都会|也会|一吃就|吃了就|吃了会)?过敏(?:的)?$", c) and ctx.extra.get(
        "last_obj"
    ):
        # 我不能吃花生，会过敏: the object was named in the clause before
        obj, word = ctx.extra["last_obj"], ctx.extra.get("last_word", "")
        return [
            Hit(F, f"health.allergy.{obj}", "allergy.after", content=f"用户对{word}过敏",
                value="yes", drop=f"pref.{obj}")
        ]  # fmt: skip
    m = (
        re.search(r"过敏(?:源)?(?:的)?(?:是|有|对象是)(?P<x>.+)(?P<neg>)", c)
        or re.search(
            r"^(?:我)?(?:是|有)?(?:对)?(?P<x>.+?)(?P<neg>不再|已经不|不|没有)?(?:严重|轻微|有点|有些)?"
            r"过敏(?!原|科|检|性鼻炎|体质)",
            c,
        )
        or re.search(r"(?:我)?一(?:吃|喝|碰|接触|用)(?P<x>.+?)就(?P<neg>)(?:会)?过敏", c)
        or re.search(r"过敏(?:源)?(?:的)?(?:是|有|对象是)(?P<x>.+)(?P<neg>)", c)
    )
    if not m:
        return []
    denied = re.match(r"^(?:我)?(?:不是|并不是|没有)(?:对)?", m.group("x"))  # 我不是对芒果过敏
    neg = bool(m.group("neg")) or bool(denied)
    ctx.extra["list_rule"] = "allergy"
    said = m.group("x")
    if found := re.search(  # 上次医院测出来是花粉过敏: what the test found, not the test
        r"(?:测|查|检查|检测|验|化验)(?:出来|出)(?:了)?(?:我)?(?:是|有)?(?:对)?|(?:原来|结果)(?:我)?(?:是|其实是)?(?:对)?",
        said,
    ):
        said = said[found.end() :] or said
        # 原来我不是对海鲜过敏: what the test found is a denial when it says 不是; 结果我对牛奶
        # 不过敏 keeps its 不 (it had been read as an allergy to milk)
        neg = bool(m.group("neg")) or bool(re.match(r"^(?:不是|并不是|没有)", said))
    parts = _allergens(said)
    if not neg:
        ctx.extra["allergy_yes"] = "1"
    return [
        Hit(F, f"health.allergy.{o}", "allergy", correction=neg, value="no" if neg else "yes",
            content=(f"用户对{part}{'不' if neg else ''}过敏"
                     if len(parts) > 1 or said != m.group("x") else None))
        for part in parts
        if (o := object_key(part))
    ]  # fmt: skip


_ORGANS = {"胃": "stomach", "肝": "liver", "肾": "kidney", "胆囊": "gallbladder", "肺": "lung"}
_ORGANS |= {"心脏": "heart_disease", "腰": "spine", "颈椎": "spine", "膝盖": "knee", "眼睛": "eyes"}
_ORGANS |= {"嗓子": "throat", "肠胃": "stomach", "皮肤": "skin", "牙": "teeth", "关节": "arthritis"}


def condition(c: str, ctx: Context) -> list[Hit]:
    """我有高血压 / 我血压有点高 / 我得了甲亢 / 我的哮喘已经好了 / 胆囊不好."""
    organ = re.match(
        rf"^(?:我)?(?:的)?(?P<x>{'|'.join(_ORGANS)})(?:一直|从小|本来就|有点|比较)*(?:不太好|不好|有问题|有毛病|弱)$",
        c,
    )
    if organ:  # 我胃不好 / 胆囊不好: a lasting weak point, one slot per organ
        key = _ORGANS[organ.group("x")]
        return [
            Hit(
                F,
                f"health.condition.{key}",
                "condition.organ",
                value="yes",
                content=f"用户{organ.group(0).lstrip('我')}",
            )
        ]
    level = re.search(
        r"(血压|血糖|血脂|尿酸|胆固醇)(?:有点|有些|比较|偏|很|特别|一直|一直都|都)?高", c
    )
    text = c.replace(level.group(0), level.group(1) + "高") if level else c
    m = CONDITION_RE.search(text)
    # 自从去年查出来尿酸高以后: found at a checkup, the user's unless 他/她 is named
    if not m or not re.search(
        r"我(?!们)|^(?:有|患有|得了|查出|是|确诊|血压|血糖|血脂|尿酸)|^我们(?=怀)|"
        r"^(?:自从|从)?[^，,查确诊他她]{0,4}?(?:体检)?(?:查出|确诊|诊断出)",
        text + "我" * (len(text) <= 6),
    ):
        return []
    if text[max(m.start() - 1, 0) : m.start()] == "对":
        return []  # 对胃不好: bad for the stomach (of a drink), not a stomach that is weak
    key, zh, _ = CONDITIONS[m.group(0).lower()]
    if re.search(r"今天|今早|这两天|一整天|刚才|刚刚|昨晚", text) and key != "pregnancy":
        return []  # 我今天偏头痛了一整天: how the user is today, a state
    before = text[: m.start()]
    if re.search(r"没有|没|不是|不再|已经不", before) or re.search(
        r"好了|痊愈|治好|正常了|康复", text
    ):
        return [
            Hit(F, f"health.{key}", "condition", content=f"用户已没有{m.group(0)}",
                correction=True, value="no")
        ]  # fmt: skip
    if level and level.group(1) + "高" == m.group(0):
        zh = level.group(0)  # 血糖有点高 is what the check found, not a diagnosis of diabetes
    return [Hit(F, f"health.{key}", "condition", content=f"用户{zh}", value="yes")]


def _dose_free(drug: str) -> str:
    """一片二甲双胍 → 二甲双胍: the medicine, not the dose."""
    return re.sub(r"^(?:[一两二三四半\d]+)(?:片|粒|颗|支|袋|针|瓶|次)", "", drug)


# 医生说 Amlodipine 令我脚肿，已经换成 Losartan 了 / 改打胰岛素: the new medicine alone, the
# old one named in a clause before
_SWITCHED_TO = re.compile(
    r"^(?:医生)?(?:让我|叫我|给我)?(?:已经|就|现在|以后|所以)*(?:换成|改成|改打|改吃|改用|换了|改了)"
    r"(?P<b>[^，,]{2,14}?)(?:了|啦)?$"
)
# 医生开了 Amlodipine 给我降血压: a prescription is a medicine taken
_PRESCRIBED = re.compile(r"^(?:医生)(?:给我)?开了(?P<x>[^，,]{2,14}?)(?:给我|让我)")


# 降压药吃的是氨氯地平 / 胰岛素打的是诺和锐: which medicine of a kind the user takes
_TAKEN_IS = re.compile(
    r"(?P<k>[\u4e00-\u9fff]{0,4}药|胰岛素)(?:一直|现在|平时|目前)?(?:吃|用|服用|打)的是"
    r"(?P<x>[^，,。]{2,14})$"
)


def medication(c: str, ctx: Context) -> list[Hit]:
    """我在吃降压药 / 每天都要打胰岛素 / 我一直在服用优甲乐."""
    before = drug_named_before(c, ctx.extra, "drug_zh")
    if (to := _SWITCHED_TO.match(c)) and before and is_drug(to["b"]):
        new = _dose_free(clean_value(to["b"]))
        if new.lower() != str(before).lower() and (n := object_key(new)):
            hits = [Hit(F, f"health.medication.{n}", "medication.switched", value="yes",
                        correction=True, content=f"用户改用{new}（不再用{before}）")]  # fmt: skip
            if o := object_key(str(before)):
                hits.append(Hit(F, f"health.medication.{o}", "medication.stopped", value="no",
                                correction=True, content=f"用户不再服用{before}"))  # fmt: skip
            return hits
    # 大夫…给我换成缬沙坦了: the new medicine; the one it replaces is the write path's (the
    # user's one stored medicine: jiyi.pipeline.dose_swap.switched_alone)
    to = _SWITCHED_TO.match(c)
    if to and not before and (drug := named_drug(to["b"])) and (n := object_key(drug)):
        return [Hit(F, f"health.medication.{n}", "medication.switched_alone", value="yes",
                        correction=True, content=f"用户改用{drug}")]  # fmt: skip
    taken = _TAKEN_IS.search(c)  # 降压药吃的是氨氯地平
    if taken and (drug := named_drug(taken["x"])) and (o := object_key(drug)):
        return [Hit(F, f"health.medication.{o}", "medication", value="yes",
                        content=f"用户{taken['k']}吃的是{drug}")]  # fmt: skip
    given = _PRESCRIBED.match(c)
    if (
        given
        and is_drug(given["x"])
        and (o := object_key(drug := _dose_free(clean_value(given["x"]))))
    ):
        return [Hit(F, f"health.medication.{o}", "medication", value="yes",
                        content=f"用户在服用{drug}")]  # fmt: skip
    m = re.search(
        r"(?:把)?(?P<a>[^，,把]{2,10}?)(?:换成|改成|换)了?(?P<b>[^，,]{2,10}?)(?:了)?$|"
        r"(?:不|没)(?:再)?(?:吃|服用|打|用)(?P<c>[^，,]{2,10}?)了$|停了?(?P<d>[^，,]{2,10}?)(?:了)?$",
        c,
    )
    old = (m.group("a") or m.group("c") or m.group("d")) if m else None
    if m and old and is_drug(old) and (not m.group("b") or is_drug(m.group("b"))):
        # 医生让我把二甲双胍换成了格列美脲: the old medicine stopped, the new one taken
        hits = []
        if o := object_key(_dose_free(clean_value(old))):
            text = f"用户不再服用{clean_value(old)}"
            hits.append(Hit(F, f"health.medication.{o}", "medication.stopped", value="no",
                            correction=True, content=text))  # fmt: skip
        if m.group("b") and (n := object_key(_dose_free(clean_value(m.group("b"))))):
            text = f"用户改服{clean_value(m.group('b'))}"
            hits.append(Hit(F, f"health.medication.{n}", "medication.switched", value="yes",
                            correction=True, content=text))  # fmt: skip
        return hits
    m = re.search(
        r"(?:在|正在|每天|每日|天天|一直|长期|按时|定期|需要|得|要)"
        r"(?:早上|晚上|早晚|中午|睡前|饭前|饭后)?(?:都|还)?(?:要|得|会|需要|在)?"
        r"(?:吃|服用|打|用|注射|喷|服|食)(?P<x>[^，。,]{1,20})",
        c,
    )
    if not m or not is_drug(m.group("x")) or re.search(r"你|什么|哪", c):
        return []
    said = re.sub(r"(?:的)?(?:了|呢|啊)$", "", clean_value(m.group("x")))
    # 每天吃 Metformin 控制血糖: the medicine, not what it is for
    said = re.sub(r"(?<=[A-Za-z0-9])\s*(?:控制|降|治|调)[\u4e00-\u9fff]{1,4}$", "", said).strip()
    drug = _dose_free(said)
    if o := object_key(drug):
        return [Hit(F, f"health.medication.{o}", "medication", value="yes")]
    return []


def intolerance(c: str, ctx: Context) -> list[Hit]:
    """我牛奶喝了会拉肚子 / 我一吃辣就胃疼: a food the user's body does not take."""
    m = re.match(
        rf"^(?:我)?(?:一)?(?:(?P<v>吃|喝)(?P<x>[^，,就会]{{1,6}}?)|(?P<y>[^，,就会]{{1,6}}?)(?:吃|喝)(?:了)?)"
        rf"(?:就|会|都会|就会|容易|老是)+(?P<s>{_SYMPTOM})",
        c,
    )
    said = m.group("x") or m.group("y") or "" if m else ""
    if not m or re.match(r"^(?:一|就|都|也|了)", said) or not (o := object_key(said)):
        return []
    if m.group("s") == "过敏":
        return [Hit(F, f"health.allergy.{o}", "allergy.symptom", value="yes")]
    return [Hit(F, f"health.condition.intolerance_{o}", "intolerance", value="yes")]
