"""Chinese slot rules for the user's stable facts: identity, traits, diet regimen, marital
status (work is in :mod:`.zh_work`; home and hometown in :mod:`.zh_home`, school in
:mod:`.zh_school`, whose ``location`` and ``education`` are re-exported here).

Each rule looks at one clause (already stripped of fillers and correction markers) and returns
the hits it recognises, or [] to let the next rule try. The verbs people use for one slot are
normalised to it, so a change or correction lands in the slot it changes.
"""

from __future__ import annotations

import re

from jiyi.core._timebase import cn_number
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.zh_common import ADV, NUM, REL, date_value, is_role, name_value
from jiyi.core.extraction.zh_home import location
from jiyi.core.extraction.zh_school import education
from jiyi.core.models import MemoryKind

__all__ = ["education", "identity", "location", "marital", "traits"]

F, P = MemoryKind.FACT, MemoryKind.PREFERENCE
_SURNAMES = (
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁"
    "魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎"
    "易常武乔贺赖龚文"
)
_YEAR = r"\d{4}|\d{2}|[一二三四五六七八九零〇]{2,4}"


# ------------------------------------------------------------------ identity
# 我英文名叫Tom / 英文名换成Jack了 / 我小名叫二丫: a name of its own slot
_ALIAS = re.compile(
    r"^(?:我的?)?(?P<k>英文名字?|网名|小名|乳名|昵称|外号|绰号|花名)(?:也|就|其实)?"
    r"(?:是|叫|(?P<new>换成了?|改成了?|改叫|改为|换了?个?))(?P<x>[^，,]{1,12}?)(?:了|啦)?$"
)


def identity(c: str, ctx: Context) -> list[Hit]:
    if re.search(r"身份证|户口本|出生证|护照", c):
        ctx.extra["papers"] = "1"  # (刚翻身份证，)上面写的是2005年
    m = re.match(
        r"^(?:我的?)?(?:名字|姓名|全名|大名)(?:是|叫)(?P<x>.+)$|^我(?:叫|名叫)(?P<y>(?!我).+)$|"
        r"^(?:你)?(?:以后|之后|今后)?(?:可以|就|直接)?(?:叫|喊|称呼)我"
        # (医生叫我少喝甜的: told the user to, no name)
        r"(?P<z>(?![不别唔没莫少多去来早晚戒减吃喝饮食每一赶快马回帮陪做买带试先再要把给跟和在出记注])"
        r"[^，,]{1,6}?)(?:就行|就好|就可以|好了)?(?:了)?$",
        c,
    )
    if alias := _ALIAS.match(c):
        kind, name = alias["k"], name_value(alias["x"])
        slot = "english_name" if kind.startswith("英文") else "nickname"
        hit = Hit(F, f"identity.{slot}", "name.alias", value=name, correction=bool(alias["new"]))
        hit.content = f"用户的{kind}叫{name}"
        if name and len(name) <= 12 and not re.search(r"什么|啥|哪", name):
            return [hit]
    if m and m.group("z") and ctx.extra.get("named"):
        return []  # 我姓林，叫我林先生就可以了: how to address the user, said with the name
    if m:
        name = name_value(re.split(r"不是|而是", m.group("x") or m.group("y") or m.group("z"))[0])
        if name and len(name) <= 12 and not re.search(r"什么|啥|哪", name):
            ctx.extra["named"] = "1"
            return [Hit(F, "identity.name", "name", content=f"用户名叫{name}", value=name)]
    m = re.match(
        rf"^我是(?P<x>(?:小|老|阿)?(?:欧阳|司马|上官|诸葛|[{_SURNAMES}])[\u4e00-\u9fff]{{0,2}})$", c
    )
    if (
        m
        and not is_role(m.group("x"))
        and not re.search(r"[座人的者生家迷控党族粉狗]$", m.group("x"))
    ):
        return [
            Hit(
                F, "identity.name", "name.is", content=f"用户名叫{m.group('x')}", value=m.group("x")
            )
        ]
    if m := re.match(r"^我姓(?P<x>.{1,2})$", c):
        ctx.extra["named"] = "1"
        return [Hit(F, "identity.surname", "surname", value=m.group("x"))]
    if re.search(
        r"过(?:了|完)?(?:个)?生日|生日过(?:了|完)|^我?(?:嘿嘿|哈哈|今天|昨天|前天|上周|上礼拜|上星期)+(?:是我)?(?:的)?生日",
        c,
    ) and not re.search(rf"{REL}|朋友|同事|同学|给|帮|陪", c):
        ctx.extra["birthday"] = "1"  # (就算过生日了，)三十七咯: the age it brought
    b = re.match(
        rf"^(?:我)?(?:今年|现在|都|又|就|也|刚满|满)*(?P<b>{NUM})(?:岁)?(?:咯|了|啦|喽)(?:欸|耶|哦|喔)?$",
        c,
    )
    if ctx.extra.get("birthday") and b and not re.fullmatch(r"[一二两三四五六七八九十]|\d", b["b"]):
        return [Hit(F, "identity.age", "age.birthday", value=b["b"], correction=True,
                    content=f"用户今年{b['b']}岁")]  # fmt: skip
    m = re.match(
        rf"^我{ADV}(?:是)?(?:快|刚|满|才|刚满|快满|虚岁|周岁|正式)*(?P<x>{NUM})(?:周)?岁(?:了|半|啦)?$|"
        rf"^我(?:今年|已经|都|快)?(?P<y>{NUM})了$|^我{ADV}(?:刚满|满|快满|刚过)(?P<z>{NUM})(?:了)?$|"
        r"^我今年(?P<w>[1-9]\d|[二三四五六七八九]?十[一二三四五六七八九]?)$",
        c,
    )
    if m and (
        m.group("x")
        or m.group("z")
        or m.group("w")
        or not re.fullmatch(r"[一二两三四五六七八九]", m.group("y"))
    ):
        said = m.group("x") or m.group("y") or m.group("z") or m.group("w")
        return [Hit(F, "identity.age", "age", value=said)]
    m = re.match(r"^(?:我的?)?生日(?:其实)?(?:是|在)?(?P<x>.+)$", c)
    if m and re.search(r"\d|月|号|日|农历|阴历|[一二三四五六七八九十]", m.group("x")):
        return [Hit(F, "birthday", "birthday", value=date_value(m.group("x")))]
    if m := re.match(r"^我(?:其实)?是(?P<x>\d[05]|[零〇一二三四五六七八九][零五])后", c):
        return [Hit(F, "identity.generation", "generation", value=m.group("x"))]
    c = re.sub(r"(?<=年的)(?:啦|哦|喔|呀|啊|嘛|哈)+$", "", c)  # 其实我是九五年的啦
    m = re.match(
        rf"^我(?:是|在)?(?P<x>{_YEAR})年(?:出生|生|出世)(?:的|人)?|^我(?:是)?(?P<z>{_YEAR})年的"
        rf"(?P<sign>.{{2}}座)?$|"
        rf"^(?:我)?(?:出生于|生于|出生在|出生年份是)(?P<y>\d{{4}}|[一二三四五六七八九零〇]{{4}})年?|"
        # 身份证上是一九五五年生的: the year on the papers
        rf"^(?:我的?)?(?:身份证|户口本|户口|证件)上(?:写的)?(?:是)?(?P<q>{_YEAR})年(?:出生|生)|"
        # (刚翻身份证，)上面写的是2005年: the papers named in the clause before
        rf"^(?:上面|我)(?:写的|写着|印的|登记的)(?:是)?(?P<p>{_YEAR})年(?:出生|生)?(?:的)?$",
        c,
    )
    if m and m.group("p") and not ctx.extra.get("papers"):
        m = None  # 上面写的是2005年 of anything but the user's papers
    if m:
        year = m.group("x") or m.group("y") or m.group("z") or m.group("q") or m.group("p")
        hits = [
            Hit(F, "identity.birth_year", "birth_year", value=year, content=f"用户是{year}年出生的")
        ]
        if m.groupdict().get("sign"):  # 我是95年的双子座
            hits.append(Hit(F, "identity.zodiac_sign", "zodiac", value=m.group("sign")))
        return hits
    if m := re.match(
        r"^我是(?P<x>汉|回|满|藏|维吾尔|蒙古|壮|苗|彝|土家|朝鲜|白|傣|瑶|侗|哈萨克)族(?:人)?$", c
    ):
        return [Hit(F, "identity.ethnicity", "ethnicity", value=f"{m.group('x')}族")]
    m = re.match(
        r"^(?:我)?(?:其实)?(?:是|应该是)?(?:民国)?(?P<x>\d{2,3}|[一二三四五六七八九十]{1,3})年次"
        r"(?:的|才对|才是对的|啦|喔)*$|"
        r"^(?:我)?(?:其实)?(?:是)?民国(?P<y>\d{2,3}|[一二三四五六七八九十]{1,3})年(?:出生|生)的?$",
        c,
    )
    said = m and (m["x"] or m["y"])
    roc = cn_number(said) if said else None
    if m and roc and 10 <= roc <= 110:  # 民国80年次 / 七十五年次 (Taiwan): 1911 + the ROC year
        year, words = str(1911 + roc), f"民国{said}年次" if m["x"] else f"民国{said}年"
        return [
            Hit(
                F,
                "identity.birth_year",
                "birth_year.roc",
                value=year,
                content=f"用户是{words}（{year}年）出生的",
                correction=bool(re.search(r"其实|应该|才对|才是", c)),
            )
        ]
    if m := re.match(r"^我(?:是)?属(?P<x>[鼠牛虎兔龙蛇马羊猴鸡狗猪])的?$", c):
        return [Hit(F, "identity.zodiac", "zodiac", value=m.group("x"))]
    m = re.match(
        r"^我是(?:个|一个|一名|位)?(?P<x>女生|男生|女的|男的|女孩子?|男孩子?|女性|男性|妹子|汉子)$",
        c,
    )
    if m:
        gender = "女" if m.group("x")[0] in "女妹" else "男"
        return [Hit(F, "identity.gender", "gender", value=gender)]
    return []


# Diets by name: a regimen (生酮, 16+8轻断食, 5:2) or a vegetarian style (蛋奶素, 纯素).
_DIET_WORD = (
    r"(?:[\d+:：/]{2,6})?(?:间歇性断食|轻断食|断食|生酮|低碳水|低碳|低脂|低糖|低盐|控糖|无麸质|地中海|"
    r"蛋奶素|奶蛋素|纯素|全素|半素|鱼素|海鲜素|鱼肉素|弹性素|减脂餐|清淡饮食)|\d{1,2}\s*[+:：/]\s*\d{1,2}"
)
_DIET_RE = re.compile(
    rf"^(?:我)?(?:现在|目前|最近|一直|已经|都|也|就|又|平时)*(?:在|是)?"
    # (鸡蛋和牛奶加上了，)算蛋奶素吧: what the diet counts as now
    rf"(?:做|吃|坚持|执行|改成|换成|改为|改做|改吃|开始|开始做|开始吃|尝试|试试|试|算是?)?了?"
    rf"(?P<x>{_DIET_WORD})(?:饮食|减肥法|餐|法)?(?:了|啦|吧)?$|"
    rf"^(?P<old>{_DIET_WORD})(?:饮食|餐|法)?(?:已经|现在)?(?:改成|换成|改为|改到|换到|变成)了?"
    rf"(?P<y>{_DIET_WORD})(?:饮食|餐|法)?(?:了|啦)?$"
)


def regimen(c: str, ctx: Context) -> list[Hit]:
    """A diet by its name, ahead of the medicine rule (我现在吃蛋奶素 is no medicine)."""
    return _regimen(c)


def _regimen(c: str) -> list[Hit]:
    """我在做16+8轻断食 / 轻断食改成5:2了 / 我现在是纯素: the diet, by its name."""
    m = _DIET_RE.match(c)
    if not m:
        return []
    style = (m.group("x") or m.group("y")).replace("：", ":")
    changed = bool(m.group("old") or re.search(r"改|换|现在|已经", c))
    return [Hit(P, "diet.style", "diet.regimen", value=style, correction=changed,
                content=None if m.group("old") else f"用户的饮食方式是{style}")]  # fmt: skip


def traits(c: str, ctx: Context) -> list[Hit]:
    """Stable personal traits and diet style: 左撇子, 夜猫子, 吃素, 清真."""
    if re.match(
        r"^(?:我)?(?:已经|现在)?(?:不再|不)(?:吃素|是素食者?|是素食主义者|吃全素)了?|^(?:我)?开荤了|^(?:我)?开戒了|"
        r"^(?:我)?(?:已经|现在)?(?:开始|恢复|又开始|又)吃(?:肉|海鲜|鱼(?![油丸片肝])|鸡肉|荤)",
        c,
    ):  # 我现在开始吃海鲜了(，其他肉还是不吃): no longer vegetarian, said as what is eaten now
        return [
            Hit(
                P,
                "diet.style",
                "diet.style",
                content=None if re.search("肉|荤|海鲜|鱼", c) else "用户不再吃素",
                value="不吃素",
                correction=True,
            )
        ]
    if hits := _regimen(c):
        return hits
    if re.match(r"^(?:我)?(?:现在)?(?:荤素都吃|什么都吃|不挑食|啥都吃)", c):
        return [Hit(P, "diet.style", "diet.style", value="荤素都吃")]
    m = re.match(
        r"^(?!.*(?:坚持不|不下去|放弃|受不了|不了了))"
        r"(?:我)?(?:现在|一直|只|最近|已经|开始|改|平时|平常|基本上?)*(?:是)?(?:个|一个|一名)?(?P<x>吃素|素食者?|素食主义者|纯素食?者?|吃全素|吃清真|清真|只吃清真)",
        c,
    )
    if m:
        style = "清真" if "清真" in m.group("x") else "素食"
        return [Hit(P, "diet.style", "diet.style", polarity="like", value=style)]
    m = re.match(
        r"^(?:我)?(?:现在|目前|最近|一直)?(?:在)?(?:吃|做|坚持)(?P<x>低碳水|生酮|低脂|轻断食|断食|无麸质|地中海)$",
        c,
    )
    if m:  # 我在吃低碳水
        return [
            Hit(
                P,
                "diet.style",
                "diet.regimen",
                content=f"用户在吃{m.group('x')}",
                value=f"{m.group('x')}饮食",
            )
        ]
    m = re.match(
        r"^(?:我)?(?:现在|目前|最近|一直)?(?:在)?(?:做|吃|坚持|改成|换成|开始|开始做|改为|执行|尝试)了?"
        r"(?P<x>[\u4e00-\u9fffA-Za-z0-9+]{1,8}?)(?:饮食|减肥法|餐)(?:了)?$",
        c,
    )
    if m:  # 我在做生酮饮食 / 现在改成地中海饮食了
        style = f"{m.group('x')}饮食"
        return [Hit(P, "diet.style", "diet.regimen", content=f"用户在做{style}", value=style)]
    m = re.match(
        r"^我(?:这个人|这人)?(?:比较|挺|很|特别|有点|蛮)(?P<x>内向|外向|慢热|急性子|慢性子|社恐|宅|恋家)(?:的)?$",
        c,
    )
    if m:  # 我这个人比较内向
        return [Hit(F, f"identity.trait.{m.group('x')}", "trait.degree", value="yes")]
    m = re.match(
        r"^我(?:是)?(?:家里的|家里)?(?:个|一个)?(?P<x>左撇子|色盲|近视眼?|夜猫子|早起的人|独生子女?|独生女|内向的人|外向的人|"
        r"急性子|慢性子|路痴|社恐|i人|e人|[ieIE]人|工作狂|吃货|宅男|宅女|夜班族)",
        c,
    )
    if m:
        return [Hit(F, f"identity.trait.{m.group('x').lower()}", "trait", value="yes")]
    if m := re.match(
        r"^我(?:是)?(?P<x>(?:白羊|金牛|双子|巨蟹|狮子|处女|天秤|天蝎|射手|摩羯|水瓶|双鱼)座)的?$", c
    ):
        return [Hit(F, "identity.zodiac_sign", "zodiac", value=m.group("x"))]
    return []


def marital(c: str, ctx: Context) -> list[Hit]:
    """我结婚了 / 我结婚三年了 / 我还是单身 / 我离婚了 / 我嫁给了阿杰."""
    if re.match(
        r"^我(?:和|跟)(?:我)?(?:家)?(?:老公|老婆|爱人|丈夫|妻子|先生|太太|媳妇)(?:已经)?"
        r"结婚(?:有|快|都)?[\d一二两三四五六七八九十几]{1,3}(?:多)?年(?:多)?了?$",
        c,
    ):  # 我和老公结婚五年了: married, told by how long
        return [Hit(F, "family.marital", "marital", value="已婚")]
    m = re.match(r"^我(?:和|跟)(?P<x>[^，,]{1,4}?)(?:已经|刚)?(?P<v>订婚|结婚|领证)了$", c)
    if m and m.group("x") not in ("他", "她"):  # 我和小马订婚了
        status = "订婚" if m.group("v") == "订婚" else "已婚"
        rel = "fiance" if status == "订婚" else "spouse"
        name = m.group("x")
        return [
            Hit(F, "family.marital", "marital", value=status, content=f"用户{m.group('v')}了"),
            Hit(
                F, f"family.{rel}.name", "family.name", value=name, content=f"用户的另一半叫{name}"
            ),
        ]
    m = re.match(
        r"^我(?:已经)?(?P<v>嫁给|娶了)了?(?:一个)?(?:叫(?P<x>[^，,的]{1,4})的[\u4e00-\u9fff]{1,3}|"
        r"(?P<y>[^，,]{1,4}))$",
        c,
    )
    if m:
        rel = "husband" if m.group("v") == "嫁给" else "wife"
        name = m.group("x") or m.group("y")
        return [
            Hit(F, "family.marital", "marital", value="已婚", content="用户已婚"),
            Hit(
                F,
                f"family.{rel}.name",
                "family.name",
                value=name,
                content=f"用户的{'丈夫' if rel == 'husband' else '妻子'}叫{name}",
            ),
        ]
    if m := re.match(
        r"^我(?:其实|现在|目前|已经|是|也是|一直|还)*(?P<x>结婚了|结婚(?:有)?.{1,3}年了?|已婚|单身|还是单身|离婚(?:有|快)?(?:.{1,3}年)?了|离异|"
        r"订婚了|脱单了|有对象了|有(?:男|女)朋友了|(?:在)?谈恋爱了?|恋爱了)",
        c,
    ):
        x = m.group("x")
        status = (
            "已婚"
            if x.startswith(("结婚", "已婚"))
            else {"订婚了": "订婚"}.get(x, "离异" if x.startswith("离婚") else x)
        )
        status = (
            "单身"
            if "单身" in status
            else ("有对象" if re.search(r"脱单|对象|朋友|恋爱", status) else status)
        )
        return [Hit(F, "family.marital", "marital", value=status)]
    return []
