"""Chinese rules for how the user takes a drink: its type, add-ins and temperature.

A drink order keys ``diet.<category>.<attribute>``: the type (美式 / 冷萃 / 普洱) in ``type``,
each add-in (三分糖 / 去冰 / 燕麦奶) in ``sugar`` / ``ice`` / ``milk`` / ``topping``, and a
temperature said on its own (改成热的 / 都点常温的) in ``ice`` too, so "奶茶现在都点热的了"
replaces "去冰". Re-exported by :mod:`jiyi.core.extraction.zh_tastes`.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS
from jiyi.core.extraction.lexicon_people import KIN_ZH, OTHERS_ZH, words_re
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import third_person_zh
from jiyi.core.models import MemoryKind

__all__ = ["drink", "drink_type_word"]

P = MemoryKind.PREFERENCE
_ADDIN = re.compile(
    r"(?P<p>(?:要加|多加|只加|加|放)?[一二两兩三四五六七八九半\d]{1,2}(?:包|勺|块|颗|份|泵|小包)|"
    r"不加|不放|不要|别加|无|去|走|少|半|微|全|多加|加|要加|只加|换成?|正常|多|零|标准|"
    r"[一二三四五六七八九\d]分)(?P<x>糖|甜|燕麦奶|牛奶|脱脂奶|椰奶|豆奶|奶(?![油茶酪昔])|冰|奶盖)"
)
# A drink's temperature as ordered (改成热的 / 都点常温的): the ice slot's value.
_TEMP = re.compile(
    r"(?:喝|点|要|改成|换成|改喝|改点|改为)(?:的)?(?:是)?(?P<t>热|温|常温|冰)(?:的|饮)(?:了|啦|吧|哦|呀|啊)*$"
)
_TEMPS = {"冰": "加冰"}
_NO_ADDIN = frozenset({"不加", "不放", "不要", "别加", "无", "去", "走", "零"})
_TYPE_LEAD = (
    r"只|都|一般|通常|平时|现在|最近|改|开始|换成|改成|每天|天天|每天早上|早上|习惯|基本|基本上|"
    r"一直|常|经常|总是|最常|固定"
)
_TYPE_RE = re.compile(
    rf"(?:{_TYPE_LEAD})+(?:都)?(?:敢|能)?(?:喝|点|要|是)(?P<x>[^，,。]+?)(?:了|的)?$|"
    # 现在每天就喝菊花茶 / 现在每天就一杯黑咖啡 / 现在早上都换成热的大麦茶了: the drink now
    # (a day's drink said as now and every day, or what it was changed to; not 最近喝得多)
    r"^(?:我)?(?:(?:现在|如今)(?:每天|天天|每天早上|早上|每早)+(?:都|就|只)*(?:喝|是)?|"
    r"(?:现在|如今|最近)(?:每天|天天|早上|都)*(?:换成|改成|改喝))(?:一杯|一壶|杯)?"
    # (拿铁都改成加椰奶: how it is taken; 改喝冰美式了热拿铁太腻了: said on without a stop)
    r"(?P<n>[^，,。改换加要少去不了]+?)(?:了(?=[\u4e00-\u9fff]{4}).*|了|的)?$|"
    r"(?:咖啡|茶|奶茶)(?:的话)?(?:一般|通常|都|只|我|一直)*(?:喝|要|点|(?<=[般常直])是)(?P<y>.+)$|"
    r"^(?:我)?(?:喝|点)(?P<z>[^，,。要加半少去无微多全]+?)(?=要加|加|不加|少|半|微|无|去|多|全|正常|"
    r"[一二三四五六七八九\d]分)|"
    r"(?:早上|每天|上午|下午|平时|每天早上|早餐)(?:都|一定|必须|总是|总|要)*(?:来|喝|是)?(?:一杯|一壶|杯)"
    r"(?P<u>[^，,。]+)$|"
    # 我喝咖啡现在改成燕麦拿铁了: the category said first, the new drink after the change verb
    r"(?:喝|点)(?:咖啡|茶|奶茶)(?:现在|最近|已经|都)*(?:改成|换成|改为|改喝|换)(?P<w>[^，,。]+?)(?:了)?$|"
    # 我喝茉莉花茶 / 我喝拿铁: the drink the user drinks, said plainly
    r"^我(?:一般|通常|一直|每天|天天)?喝(?P<v>[^，,。了过杯喝只都现是]{2,8})$"
)


# Someone's drink (同事的美式, 我老公那杯拿铁): a person before 的 / 那杯
_SOMEONES = re.compile(rf"^(?:我)?(?:{words_re(KIN_ZH | OTHERS_ZH)})(?:的|那杯|这杯)")
# A coffee or tea shop said before its drink (库迪的生椰拿铁); a person's (同事的) is not one
_SHOP = re.compile(
    r"^(?:库迪|瑞幸|星巴克|喜茶|奈雪|霸王茶姬|蜜雪冰城|茶颜悦色|古茗|沪上阿姨|一点点|茶百道|书亦|"
    r"乐乐茶|幸运咖|挪瓦|麦咖啡|肯德基|麦当劳|Manner|Tims|Costa|Luckin|Starbucks)的?(?=[\u4e00-\u9fff]{2})",
    re.IGNORECASE,
)


# Not the drink the user usually has: now and then, also, tried, more often than before, or
# only in a season, on weekends or at work (冬天我都喝热美式 / 周末一般喝美式 / 最近喝美式
# 比较多 / 美式我也能喝 / 喝美式提神) — beside the usual one, not instead of it
_NOT_USUAL = re.compile(
    r"偶尔|有时|也喝|也会喝|也能喝|也可以喝|试过|尝过|比较多|更多|多一些|居多|冬天|夏天|春天|秋天|天冷|"
    r"天热|周末|工作日|上班的时候|上班时|加班|出差|提神"
)


def drink_type_word(phrase: str) -> tuple[str, str] | None:
    """The drink type named in ``phrase`` (燕麦拿铁 → coffee, 燕麦拿铁; 冷萃咖啡 → coffee, 冷萃),
    or None. The category noun after a type is dropped, so both wordings share one value."""
    word = clean_value(
        re.sub(
            r"^(?:喝|点|要|来)?(?:一杯|一壶|杯|一瓶|一碗|碗|一点|点|些|一些)?",
            "",
            clean_value(phrase),
        )
    )
    word = re.sub(r"^(?:咖啡|茶|奶茶)?(?:都|也)?只(?:喝|点|要)", "", word)  # 茶只喝普洱 → 普洱
    # 一直喝的都是冰美式: the drink, not the words around it
    word = re.sub(r"^(?:我)?(?:的)?(?:都|也|一直)?(?:是)?", "", word)
    word = re.sub(r"^(?:热|冰|温|常温)的(?=..)", "", word)  # 热的大麦茶: the tea, served hot
    if _SOMEONES.match(word):
        return None  # 喝同事的美式: a sip of someone else's, not the user's order
    word = _SHOP.sub("", word)  # 库迪的生椰拿铁: the drink, not the shop (同事的美式 stays whole)
    if re.match(r"(?:要|都要)?(?:加|多加|少加|不加)", word):
        return None  # 都要加一份浓缩: an add-in, not the drink
    for key in sorted(DRINKS, key=len, reverse=True):
        category, is_type = DRINKS[key]
        if is_type and key in word.lower():
            if re.search(r"[试尝曾想也]|过|以前|本来|偶尔|有时", word[: word.lower().index(key)]):
                return None  # 试过燕麦拿铁: tried once, not what the user drinks
            # 拿铁要加糖 / 美式不加糖: the drink, without how it is taken (an add-in slot)
            end = word.lower().index(key) + len(key)
            if re.match(
                r"(?:要加|要|加|不加|不要|少|半|去|多|微|全|正常|无)(?!糖.|冰.)|都|是|的|也|呢",
                word[end:],
            ) or re.fullmatch(r"(?:(?:微|半|少|去|无|全|多|正常|常温|零)(?:糖|冰))+", word[end:]):
                # 四季春微糖去冰: the tea, without how sweet and cold
                word = word[:end]
        if is_type and key in word.lower() and len(word) <= len(key) + 4:
            trimmed = re.sub(r"(?<=.)(?:咖啡|茶)$", "", word) if not word.endswith(key) else word
            return category, trimmed if trimmed and key in trimmed.lower() else word
    if re.fullmatch(r"[\u4e00-\u9fff]{1,3}(?<![奶果花凉])茶", word):
        return "tea", word  # 岩茶 / 滇红茶: a tea by its last character, listed or not
    return None


_CATEGORY_NOUN = {"coffee": "咖啡", "tea": "茶"}
_SWEETNESS = re.compile(r"[全半微少无去正常]糖|[一二三五七\d]分糖")


def drink(c: str, ctx: Context) -> list[Hit]:
    head = c.split("了", 1)[0] + "了"
    if len(c) > 16 and len(c) - len(head) >= 6 and DRINK_RE.search(head):
        # 改喝冰美式了热拿铁喝起来太腻了…: said on without a stop, the order ends at 了
        hits = _drink(head, ctx)
        for h in hits:
            h.content = h.content or third_person_zh(head)
        return hits
    return _drink(c, ctx)


def _drink(c: str, ctx: Context) -> list[Hit]:
    hits: list[Hit] = []
    if re.search(r"今天|今早|刚才|刚刚|昨天|昨晚|这杯|那杯|了一杯|了杯", c):
        return []  # 今天喝了一杯加冰的奶茶: one drink, not how the user orders it
    t = _TYPE_RE.search(c)
    found = (
        drink_type_word(
            t.group("w")
            or t.group("x")
            or t.group("n")
            or t.group("y")
            or t.group("z")
            or t.group("u")
            or t.group("v")
        )
        if t
        else None
    )
    if t and found and not _NOT_USUAL.search(c):
        category, word = found
        content = (
            None
            if ctx.drink_word is None or ctx.drink_word in c
            else f"用户喝{ctx.drink_word}只喝{word}"
        )
        noun = _CATEGORY_NOUN.get(category)
        if content is None and noun and noun not in c:
            # 改喝燕麦拿铁了 is asked about as 咖啡 (我喜欢喝什么咖啡): say the category too
            content = re.sub(r"^用户", f"用户喝{noun}", third_person_zh(c), count=1)
        hits.append(
            Hit(
                P,
                f"diet.{category}.type",
                "drink.type",
                content=content,
                polarity="like",
                obj=word,
                value=word,
            )
        )
    if not ctx.drink and re.search(r"饮料|饮品|手摇", c) and _SWEETNESS.search(c):
        ctx.drink = "milk_tea"  # 我买饮料都点全糖少冰: a tea shop's sweetness, whatever the drink
    adds = list(_ADDIN.finditer(c[t.end("z") :] if t and t.group("z") else c)) if ctx.drink else []
    if hits and t is not None:  # 改喝无糖绿茶: 无糖 is part of the drink named, not an add-in
        word = hits[0].value or ""
        adds = [a for a in adds if a.group(0) not in word]
        if adds:  # 我喝美式要加冰: the type's own text leaves the ice to its slot, so a later
            noun = _CATEGORY_NOUN.get(ctx.drink or "", "")  # 改成热的 leaves no 加冰 behind
            hits[0].content = f"用户喝{noun}{'只喝' if noun else ''}{word}"
    if ctx.drink and not any(a.group("x") == "冰" for a in adds) and (w := _TEMP.search(c)):
        temp = _TEMPS.get(w["t"], w["t"])  # 奶茶现在都点热的了: how cold, the ice's slot
        drink_said = next((d.group(0) for d in DRINK_RE.finditer(c)), "") or ctx.drink_word or ""
        hits.append(Hit(P, f"diet.{ctx.drink}.ice", "drink.temp", value=temp,
                        content=f"用户喝{drink_said}要{temp}的"))  # fmt: skip
    if re.search(r"太(?:甜|苦|腻|浓|淡|冰|烫)|喝不下|受不了|喝不惯", c):
        adds = []  # (三分糖了，)全糖太甜喝不下: the old add-in complained of, not ordered
    for m in adds:  # 三分糖去冰: one hit per add-in
        # 少甜 / 走甜 (Cantonese: less sweet, no sugar) is how much sugar
        attr = {"糖": "sugar", "甜": "sugar", "冰": "ice", "奶盖": "topping"}.get(
            m.group("x"), "milk"
        )
        said = ctx.drink_word or (found[1] if found else None)
        content = None if not said or said in c else f"用户喝{said}{clean_value(c[m.start() :])}"
        if hits and said:
            content = f"用户喝{said}{m.group('p')}{m.group('x')}"
        pol = "dislike" if m.group("p") in _NO_ADDIN else "like"
        value = m.group("p") + m.group("x")
        hits.append(
            Hit(
                P,
                f"diet.{ctx.drink}.{attr}",
                "drink.addin",
                content=content,
                polarity=pol,
                value=value,
            )
        )
    return hits
