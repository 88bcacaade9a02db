"""Chinese slot rules, part two, and the entry point :func:`match_zh`.

Tastes (food, drink, likes, do-not-recommend), then time-bound memories (states, habits,
dated plans, goals, past events), after the fact rules of :mod:`.zh_facts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import EVENT_TTL, SHORT_STATE_TTL, STATE_TTL, Context, Hit
from jiyi.core.extraction.lexicon import (
    DRINK_RE,
    DRINKS,
)
from jiyi.core.extraction.topics import clean_value, normalize_object, slug
from jiyi.core.extraction.zh_facts import (
    CHANGE_RE,
    FACT_RULES,
    family_rule,
    object_key,
    third_person_zh,
)
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

__all__ = ["match_zh", "third_person_zh"]

F, P, G, E, S = (
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.GOAL,
    MemoryKind.EVENT,
    MemoryKind.STATE,
)
# ------------------------------------------------------------------ food, drink, preferences


_ADDIN = re.compile(
    r"(?P<p>不加|不放|不要|别加|无|去|少|半|微|全|多加|加|要加|只加|换成?|正常|多|零|标准|"
    r"[一二三四五六七八九\d]分)(?P<x>糖|燕麦奶|牛奶|脱脂奶|椰奶|豆奶|奶(?![油茶酪昔])|冰|奶盖)"
)
_NO_ADDIN = frozenset({"不加", "不放", "不要", "别加", "无", "去", "零"})
_TYPE_RE = re.compile(
    r"(?:只|都|一般|通常|平时|现在|最近|改|开始|换成|改成)(?:喝|点|要|是)(?P<x>[^，,。]+?)(?:了|的)?$|"
    r"(?:咖啡|茶)(?:一般|通常|都|只)(?:喝|要|点)(?P<y>.+)$"
)


def _drink_type_word(phrase: str) -> tuple[str, str] | None:
    """The drink type named in ``phrase`` (燕麦拿铁 → coffee, 燕麦拿铁), or None."""
    word = clean_value(phrase)
    for key in sorted(DRINKS, key=len, reverse=True):
        category, is_type = DRINKS[key]
        if is_type and key in word.lower() and len(word) <= len(key) + 4:
            return category, word
    return None


def _drink(c: str, ctx: Context) -> list[Hit]:
    adds = list(_ADDIN.finditer(c)) if ctx.drink else []
    if adds and ctx.drink:  # 三分糖去冰: one hit per add-in
        hits = []
        for m in adds:
            attr = {"糖": "sugar", "冰": "ice", "奶盖": "topping"}.get(m.group("x"), "milk")
            content = (
                None
                if not ctx.drink_word or ctx.drink_word in c
                else (f"用户喝{ctx.drink_word}{clean_value(c[m.start() :])}")
            )
            pol = "dislike" if m.group("p") in _NO_ADDIN else "like"
            hits.append(
                Hit(
                    P,
                    f"diet.{ctx.drink}.{attr}",
                    "drink.addin",
                    content=content,
                    polarity=pol,
                    value=m.group("p") + m.group("x"),
                )
            )
        return hits
    t = _TYPE_RE.search(c)
    found = _drink_type_word(t.group("x") or t.group("y")) if t else None
    if t and found:
        category, word = found
        content = (
            None
            if ctx.drink_word is None or ctx.drink_word in c
            else (f"用户喝{ctx.drink_word}只喝{word}")
        )
        change = bool(re.search(r"改|换|开始|现在|最近", c[: t.end()]))
        return [
            Hit(
                P,
                f"diet.{category}.type",
                "drink.type",
                content=content,
                polarity="like",
                obj=word,
                value=word,
                correction=change,
            )
        ]
    return []


def _avoid(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"(?:别|不要|不用|不必|少)(?:再)?(?:给我|跟我|向我|为我|帮我)?(?:再)?"
        r"(?:推荐|推|安排|发|点|订|买|选|约)(?P<x>.+)$",
        c,
    )
    if m and (o := object_key(m.group("x"))):
        raw = clean_value(m.group("x"))
        content = f"用户不想被推荐{raw}{'东西' if raw.endswith('的') else ''}"
        return [Hit(P, f"pref.{o}", "avoid", content=content, polarity="dislike", obj=raw)]
    return []


_NEG_VERBS = (
    r"不再喜欢|不喜欢|不再(?:打|玩|踢|弹|下|练|跑|骑|滑)|现在不(?:打|玩|踢|弹|下|练|骑|滑)|"
    r"不(?:打|玩|踢|弹|下|练|骑|滑)(?=.+了$)|不太喜欢|不怎么喜欢|不爱吃|不爱喝|不爱|讨厌|厌恶|反感|受不了|接受不了|吃不了|"
    r"吃不惯|喝不了|不感冒|不想吃|不想喝|怕|不能吃|不能喝|不敢吃|不吃|不喝|不碰|不抽|忌口|戒了"
)
_POS_VERBS = (
    r"prefer|喜欢|爱吃|爱喝|爱看|爱听|爱玩|热爱|偏爱|偏好|钟爱|迷上了?|爱上了?|喜爱|痴迷|爱"
)


def _preference(c: str, ctx: Context) -> list[Hit]:
    m = re.match(r"^(?:我)?(?:真正|其实)?(?:喜欢|爱)的(?:其实)?是(?P<x>.+)$", c)
    if m and (o := object_key(m.group("x"))):  # 我喜欢的是象棋
        return [Hit(P, f"pref.{o}", "pref.is", polarity="like", obj=clean_value(m.group("x")))]
    m = re.match(r"^(?:我)?(?:最喜欢|最爱)的(?P<cat>.{1,6}?)是(?P<x>.+)$", c)
    if m:  # 我最喜欢的颜色是蓝色: one favourite per category
        return [
            Hit(
                P,
                f"favorite.{normalize_object(m.group('cat'))}",
                "favorite",
                polarity="like",
                obj=clean_value(m.group("x")),
                value=clean_value(m.group("x")),
            )
        ]
    m = re.search(rf"(?P<v>{_NEG_VERBS})(?P<x>.+)$", c)
    pol = "dislike"
    if not m:
        m = re.search(rf"(?P<v>{_POS_VERBS})(?P<x>.+)$", c)
        pol = "like"
    if not m:
        m = re.search(
            r"对(?P<x>.+?)(?:很|特别|非常|比较|挺)?(?P<v>不感兴趣|没兴趣|没有兴趣|感兴趣|有兴趣)", c
        )
        pol = "dislike" if m and m.group("v").startswith(("不", "没")) else "like"
    if not m:
        m = re.match(r"^(?P<x>.+?)是我的?最爱(?P<v>)|^我的?最爱是(?P<y>.+)$", c)
        if m and m.group("y"):
            return (
                [Hit(P, f"pref.{o}", "pref.favorite", polarity="like", value="like")]
                if (o := object_key(m.group("y")))
                else []
            )
    if not m:
        m = re.match(r"^只(?P<v>吃|用|穿|听|看|坐|住)(?P<x>.+)$", c)
    if not m or not (o := object_key(m.group("x"))):
        return []
    change = (bool(CHANGE_RE.search(c)) and pol == "dislike") or bool(re.search(r"现在|开始|改", c))
    obj = clean_value(m.group("x"))
    return [Hit(P, f"pref.{o}", "pref", polarity=pol, obj=obj, correction=change, value=pol)]


# ------------------------------------------------------------------ goals, plans, states, events

# Only a year away is too vague for a one-off event; it stays a goal with valid_from.
_DAY_EXPR = re.compile(r"明年|next year", re.I)
_GOAL_RE = re.compile(
    r"(?:打算|计划|准备|决定|想要|希望能?|争取|立志|梦想是|目标是|的目标是|正在计划|要|"
    r"想(?=学|考|去|换|买|减|戒|存|攒|搬|开|读|当|成为|练|养|生|参加|申请|出国|旅|学会)|"
    r"想(?=(?:今年|明年|这学期|下半年|年底前)?把.+?(?:学会|考过|减到|存够|攒够|搞定|拿下|练好)))"
    r"(?P<x>.+)$"
)
_STATE_WORDS = re.compile(
    r"感冒|发烧|咳嗽|生病|病了|头疼|头痛|胃疼|肚子疼|牙疼|拉肚子|失眠|不舒服|心情不好|很累|好累|"
    r"压力(?:很|好|特别|有点)?大|焦虑|难过|伤心|郁闷|很忙|好忙|特别忙|加班|出差|休假|放假|住院"
)
_ONGOING = re.compile(
    r"^(?:我)?(?:最近|这几天|这段时间|这阵子|近期|一直|这个月|这周)(?:都|也)?(?:在|正在)?(?P<x>.{2,})$"
    r"|^(?:我)?(?:现在|目前)?(?:正在|在|处于)(?P<y>减肥|减脂|健身|备考|考研|备孕|找工作|装修|戒烟|戒酒|控糖|"
    r"养胃|带娃|坐月子|休产假|实习|学.+|练.+|准备.+|[\u4e00-\u9fff]{1,4}期)$"
)


def _plan(c: str, ctx: Context) -> list[Hit]:
    if "你" in c:
        return []  # 我明天再来问你: about this conversation, not the user's life
    if re.search(r"每(?:天|周|个|月|晚|星期|礼拜|年)", c):
        return []  # recurring: a habit, not a one-off plan
    date = find_date(c, ctx.ref)
    goal = _GOAL_RE.search(c)
    if goal and goal.group(0).startswith("要") and date is None:
        goal = None  # bare 要 is a plan only with a date: 我要一杯拿铁 is an order
    if date is not None and date[0] < ctx.ref.replace(hour=0, minute=0, second=0, microsecond=0):
        date = None
    if goal is None and date is None:
        return []
    if goal is None and not re.match(
        r"^(?:我|今天|今晚|明天|后天|大后天|下|这|本|周|星期|礼拜|\d|[一二三四五六七八九十])", c
    ):
        return []
    key = slug(goal.group("x") if goal else c)
    if date is not None and not _DAY_EXPR.search(date[1]):
        day = date[0].date().isoformat()
        return [Hit(E, f"plan.{key}", "plan.dated", when=date[0], ttl=EVENT_TTL, value=day)]
    return [Hit(G, f"goal.{key}", "goal", when=date[0] if date else None)]


def _state(c: str, ctx: Context) -> list[Hit]:
    date = find_date(c, ctx.ref)
    if date is not None and date[0] > ctx.ref:
        return []  # 下周要出差 is a plan, not how the user is now
    m = _STATE_WORDS.search(c)
    short = bool(re.search(r"今天|今晚|这两天|刚刚|刚才", c))
    if m:
        word = re.sub(r"(?:很|好|特别|有点)", "", m.group(0))
        return [
            Hit(S, f"state.{word}", "state.feeling", ttl=SHORT_STATE_TTL if short else STATE_TTL)
        ]
    m = _ONGOING.match(c)
    if m:
        return [
            Hit(
                S,
                f"state.{slug(m.group('x') or m.group('y'))}",
                "state.ongoing",
                ttl=SHORT_STATE_TTL if short else STATE_TTL,
            )
        ]
    return []


def _past_event(c: str, ctx: Context) -> list[Hit]:
    window = find_time_window(c, ctx.ref)
    if (
        window is None
        or window.start is None
        or window.start >= ctx.ref
        or not re.search(r"了|过", c)
    ):
        return []
    return [
        Hit(
            E,
            f"event.{slug(c.replace(window.expression, ''))}",
            "event.past",
            when=window.start,
            ttl=EVENT_TTL,
            value=window.start.date().isoformat(),
        )
    ]


def _habit(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:我)?(?:每天|每周|每晚|每天早上|每天晚上|每个周末|周末|平时|一般|通常|经常|总是|习惯)"
        r"(?:都|会|要)?(?P<x>.{2,})$",
        c,
    )
    return [Hit(F, f"habit.{slug(m.group('x'))}", "habit")] if m else []


_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    *FACT_RULES,
    _drink,
    _avoid,
    _preference,
    _state,
    _habit,
    _plan,
    _past_event,
)


def match_zh(clause: str, ctx: Context) -> list[Hit]:
    """The hits of the first rule that recognises ``clause``; [] if none does."""
    if m := DRINK_RE.search(clause):
        category, is_type = DRINKS[m.group(0).lower()]
        # A type (冷萃) sets the category but keeps the user's own word for it (咖啡).
        if not is_type:
            ctx.drink_word = m.group(0)
        elif ctx.drink != category:
            ctx.drink_word = None
        ctx.drink = category
    subject = ctx.extra.get("family_zh")
    if subject and re.match(r"^(?:她|他)(?!们)", clause):
        clause = subject + clause[1:]
    elif subject and not clause.startswith("我"):
        inherited = subject + clause
        hits = family_rule(inherited, ctx)
        if hits and not hits[0].topic.endswith(".about"):
            for h in hits:
                h.content = h.content or third_person_zh(inherited)
            return hits
    if clause.startswith("我"):
        ctx.extra.pop("family_zh", None)
    for rule in _RULES:
        hits = rule(clause, ctx)
        if hits:
            change = bool(CHANGE_RE.search(clause))
            for h in hits:
                h.correction = h.correction or change
                if h.content is None and clause.startswith(subject or "\0"):
                    h.content = third_person_zh(clause)
            return hits
    return []
