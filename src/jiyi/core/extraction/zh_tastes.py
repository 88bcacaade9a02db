"""Chinese rules for tastes: do-not-recommend, likes and dislikes, favourites (drink orders:
:mod:`jiyi.core.extraction.zh_drinks`, re-exported here).

Every verb of liking (喜欢 / 爱 / 迷上 / 入坑 / 热衷) and of disliking (不喜欢 / 讨厌 / 受不了 /
不吃 / 戒了) keys the same ``pref.<object>`` slot, so "我现在不吃辣了" replaces "我喜欢吃辣".
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import DRINK_RE
from jiyi.core.extraction.topics import clean_value, normalize_object
from jiyi.core.extraction.zh_common import CHANGE_RE, object_key, third_person_zh
from jiyi.core.extraction.zh_drinks import drink, drink_type_word
from jiyi.core.models import MemoryKind

__all__ = ["avoid", "drink", "drink_type_word", "preference"]

F, P = MemoryKind.FACT, MemoryKind.PREFERENCE


def avoid(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"(?:别|不要|不用|不必|少|避免|千万别)(?:再)?(?:给我|跟我|向我|为我|帮我)?(?:再)?"
        r"(?:推荐|推|安排|发|点|订|买|选|约)(?:给)?(?:我)?(?P<x>.+)$|"
        r"(?:避开|避免|排除|不考虑|别考虑|不要有|别带)(?P<y>.+)$",
        c,
    )
    if m and (o := object_key(m.group("x") or m.group("y"))):
        raw = clean_value(m.group("x") or m.group("y"))
        content = f"用户不想被推荐{raw}{'东西' if raw.endswith('的') else ''}"
        return [Hit(P, f"pref.{o}", "avoid", content=content, polarity="dislike", obj=raw)]
    return []


_DOUBLE_NEG = r"不讨厌|不排斥|不反感|不介意|并不讨厌|也不讨厌|不太讨厌"
_NEG_VERBS = (
    r"不再喜欢|不喜欢|不再(?:打|玩|踢|弹|下|练|跑|骑|滑|吃|喝|看)|现在不(?:打|玩|踢|弹|下|练|骑|滑)|"
    r"不(?:打|玩|踢|弹|下|练|骑|滑)(?=.+了$)|不太喜欢|不怎么喜欢|一点都不喜欢|不爱吃|不爱喝|不爱|讨厌|"
    r"最讨厌|厌恶|反感|受不了|接受不了|吃不了|吃不惯|喝不了|喝不惯|看不了|听不了|不感冒|不想吃|不想喝|最怕|"
    r"怕(?![是的])|不太能吃|不太能喝|不怎么吃|不怎么喝|不能吃|不能喝|不太敢吃|不太敢喝|不敢吃|不敢喝|不会喝|不吃|不喝|不碰|"
    r"不沾|不抽|忌口|戒掉了?|戒了|已经戒了|戒(?=.+了$)|"
    r"从来不(?:吃|喝|看|听|玩)|拒绝"
)
# A pastime switched to (改练拳击) and any switch of what the user has (改喝 / 换成).
_TAKE_UP_VERBS = r"改练|改学|改打|改玩|改踢|改下|改画|转战|转玩|转练"
_SWITCH_VERBS = rf"改喝|改吃|换成|{_TAKE_UP_VERBS}"
_POS_VERBS = (
    r"prefer|喜欢|爱吃|爱喝|爱看|爱听|爱玩|热爱|偏爱|偏好|钟爱|迷上了?|爱上了?|喜爱|痴迷|沉迷于?|"
    r"热衷于?|着迷于?|入坑了?|入了|很能吃|特别能吃|特能吃|贼能吃|挺能吃|超能吃|比较能吃|超爱|特爱|好这口|"
    rf"{_SWITCH_VERBS}|(?<![可热恋])爱(?!好|人)"
)


_SWITCHES = re.compile(_SWITCH_VERBS)
_TAKEN_UP = re.compile(rf"迷上了?|爱上了?|{_TAKE_UP_VERBS}|入坑了?|热衷于?|着迷于?|痴迷|沉迷于?")


def _objects(phrase: str) -> list[str]:
    """纪录片和悬疑剧 → [纪录片, 悬疑剧]; one object when the parts are not short nouns."""
    # 换成一杯冻鸳鸯 / 换成喝豆浆了: the thing, not how much of it or the verb
    phrase = re.sub(
        r"^(?:喝|吃)?(?:一杯|一瓶|一碗|一份|一壶|一盒)(?=..)|^(?:喝|吃)(?=..)", "", phrase
    )
    parts = [p for p in re.split(r"和|、|跟|还有|以及|或者", clean_value(phrase)) if p]
    if (
        len(parts) > 1
        and all(1 <= len(p) <= 6 for p in parts)
        and not re.search(r"你|他|她|朋友", phrase)
    ):
        return parts
    return [phrase]


def _category(word: str) -> str | None:
    """绿色 → 颜色, 秋天 → 季节: the category a favourite names by itself."""
    if re.fullmatch(r"[深浅淡亮暗天湖宝藏墨军奶]?[红橙黄绿青蓝紫黑白粉灰棕金银咖米]色", word):
        return "颜色"
    if re.fullmatch(r"[春夏秋冬](?:天|季)", word):
        return "季节"
    return None


def preference(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:我)?(?:的)?(?:口味|吃东西|吃饭|饮食)(?:比较|偏|很|特别|挺|超|有点|一直)*(?P<x>清淡|甜|辣|咸|酸|淡)"
        r"(?:一点|一些)?(?:的)?$",
        c,
    )
    if m:  # 我口味偏清淡
        word = {"淡": "清淡", "重": "重口味"}.get(m.group("x"), m.group("x"))
        return [Hit(P, f"pref.{word}", "pref.taste", polarity="like", obj=word, value="like")]
    m = re.match(
        r"^(?:我)?(?:反而|也|都|其实)*(?:一点|一口)?(?P<x>(?![一半什啥])[^，,都也我]{1,6}?)(?:都|也)(?P<v>不能吃|不吃|不敢吃|"
        r"不太能吃|吃不了|不喝|不能喝|喝不了|不碰)",
        c,
    )
    if m and (o := object_key(m.group("x"))):  # 我一点辣都不能吃
        ctx.extra["last_obj"], ctx.extra["last_word"] = o, clean_value(m.group("x"))
        return [
            Hit(P, f"pref.{o}", "pref.none", polarity="dislike", obj=m.group("x"), value="dislike")
        ]
    m = re.match(
        r"^我是(?:个|一个)?(?P<x>[^，,的]{1,8}?)的?(?:球迷|粉丝|铁粉|死忠粉|忠实粉丝|迷|粉|派|控|党)$",
        c,
    )
    if m and (o := object_key(m.group("x"))):  # 我是阿森纳的球迷
        return [Hit(P, f"pref.{o}", "pref.fan", polarity="like", obj=m.group("x"), value="like")]
    m = re.match(
        r"^我?(?:一直)?(?:在)?(?:追|看|听|玩)了?(?:好|很)?(?:几|多|\d+|[一二两三四五六七八九十]+几?)年的?"
        r"(?:剧|番|综艺|节目|游戏|歌|乐队|书)?(?:是|就是)(?P<x>.{1,12})$|"
        r"^我?(?:追|看|听|玩)(?P<y>.{1,10}?)(?:追|看|听|玩)了(?:好|很)?(?:几|多|\d+|[一二两三四五六七八九十]+几?)年了?$",
        c,
    )
    if m and (o := object_key(m.group("x") or m.group("y"))):  # 我追了好几年的剧是老友记
        return [Hit(P, f"pref.{o}", "pref.years", polarity="like", value="like")]
    m = re.match(
        r"^(?P<x>[^我，,]{1,6}?)(?:的话)?[，,]?我(?:是)?(?:真的?|绝对|从来|一般|基本|完全|实在|现在|"
        r"已经|早就|再也|也)*(?P<v>不吃|吃不了|不喝|喝不了|不碰|不能吃|不敢吃|受不了|不喜欢|很喜欢|超爱|最爱|"
        r"喜欢)(?P<chg>了)?(?:的)?$",
        c,
    )
    if m and (o := object_key(m.group("x"))):  # 辣的我是真吃不了 / 蘑菇我是绝对不吃的
        pol = (
            "like"
            if re.search(r"喜欢|爱", m.group("v")) and "不" not in m.group("v")
            else "dislike"
        )
        said = f"用户{m.group('v')}{m.group('x')}{m.group('chg') or ''}"  # 咖啡我现在不喝了
        return [Hit(P, f"pref.{o}", "pref.topic", polarity=pol, obj=m.group("x"), value=pol,
                    correction=bool(m.group("chg")), content=said)]  # fmt: skip
    m = re.match(r"^(?:我)?的?(?:兴趣)?(?:爱好|兴趣)(?:是|就是|有)(?P<x>.+)$", c)
    if m:  # 我的爱好是摄影: each hobby is a like
        parts = _objects(m.group("x"))
        return [
            Hit(
                P,
                f"pref.{k}",
                "pref.hobby",
                polarity="like",
                obj=p,
                value="like",
                content=f"用户喜欢{p}",
            )
            for p in parts
            if (k := object_key(p))
        ]
    m = re.match(r"^(?:我)?的?(?P<cat>偶像|男神|女神|本命|爱豆)(?:是|就是)(?P<x>.+)$", c)
    if m:
        fav = clean_value(m.group("x"))
        return [
            Hit(
                P,
                f"favorite.{m.group('cat')}",
                "favorite.idol",
                polarity="like",
                obj=fav,
                value=fav,
            )
        ]
    m = re.match(r"^(?:我)?(?:真正|其实)?(?:喜欢|爱)的(?:其实)?是(?P<x>.+)$", c)
    if m and (o := object_key(m.group("x"))):  # 我喜欢的是象棋
        return [
            Hit(
                P,
                f"pref.{o}",
                "pref.is",
                polarity="like",
                obj=clean_value(m.group("x")),
                value="like",
            )
        ]
    m = re.match(
        r"^(?:我)?(?:现在|目前|最近|如今)?(?:(?:最喜欢|最爱|最常|最支持|最挺)(?:[吃喝看听玩去读用穿])?的"
        r"(?P<cat>.{1,6}?)|(?:支持|挺|追)的(?P<team>球队|队|战队|车队))"
        # 我最喜欢的歌手现在是单依纯了: said of now
        r"(?:其实|已经|现在|如今|目前|而家)*"
        r"(?:是|换成了?|变成了?|改成了?|成了)(?P<x>.+?)(?:了)?$",
        c,
    ) or re.match(r"^(?P<x>.+?)是我(?:的)?(?:最喜欢|最爱)的(?P<cat>.{1,6})$", c)
    if m:  # 我最喜欢的颜色是蓝色 / 蓝色是我最喜欢的颜色: one favourite per category
        fav = clean_value(m.group("x"))
        cat = m.group("cat") or m.groupdict().get("team") or ""
        return [
            Hit(
                P,
                f"favorite.{normalize_object(cat)}",
                "favorite",
                polarity="like",
                obj=fav,
                value=fav,
            )
        ]
    m = re.match(
        r"^(?:我)?(?:现在|已经|其实)*(?:也|又|重新|能|可以|敢)+(?:开始)?(?:吃|喝)(?!早|午|晚|夜|宵)"
        r"(?P<x>[^，,]{1,6}?)(?P<le>了)?$",
        c,
    )
    if m and not m.group("le") and "其实" not in c and not ctx.extra.get("marked"):
        m = None  # 我能吃辣 is an ability; 我现在能吃香菜了 / 我其实能吃香菜 set a dislike right
    if m and (o := object_key(m.group("x"))):  # 我现在能吃香菜了: no longer a dislike
        return [Hit(P, f"pref.{o}", "pref.now_ok", polarity="like", value="like", correction=True)]
    if m := re.match(r"^(?:我)?(?:真的|简直|绝对)?无(?P<x>[\u4e00-\u9fff])不欢$", c):  # 我无辣不欢
        return [Hit(P, f"pref.{m.group('x')}", "pref.idiom", polarity="like", value="like")]
    m = re.match(r"^(?:我)?(?:其实|还是|现在)?(?:最喜欢|最爱)(?P<x>.{2,4})(?:了)?$", c)
    if m and (cat := _category(m.group("x"))):  # 我最喜欢绿色: the favourite colour
        return [Hit(P, f"favorite.{cat}", "favorite.kind", polarity="like", value=m.group("x"))]
    if re.search(r"这段时间|暂时|这阵子|这几天|这个月|这周|最近", c) and re.search(
        r"不(?:吃|喝|碰)|戒", c
    ):
        return []  # 我这段时间不吃乳制品: for now, a state
    if re.search(r"不吃(?:早饭|早餐|午饭|晚饭|夜宵|宵夜|东西)", c):
        return []  # 我一般不吃早饭: a routine, not a taste
    if re.search(
        r"(?:早上|上午|中午|下午|晚上|睡前|空腹|饭后|饭前|周末|工作日|夜里)[^，,]{0,6}?(?:一般|都|就|尽量)?"
        r"(?:不|少)(?:吃|喝)",
        c,
    ):
        return []  # 我下午一般不喝咖啡: a habit of timing, not a dislike of coffee
    m = re.search(rf"(?P<v>{_DOUBLE_NEG})(?P<x>.+)$", c)
    pol = "like"
    if not m:
        m = re.search(rf"(?P<v>{_NEG_VERBS})(?P<x>.+)$", c)
        pol = "dislike"
    if m and m.group("v").startswith("怕") and re.search(r"不|会|被|得|把", m.group("x")):
        return []  # 怕晚上睡不着: a reason, not a dislike
    if m and re.match(r"^(?:了|掉了?)?$", m.group("x")) and m.group("v").startswith("戒"):
        m = None
    if not m:
        m = re.search(rf"(?P<v>{_POS_VERBS})(?P<x>.+)$", c)
        pol = "like"
    if m and re.search(r"(?:在|正在|打算|准备|决定|想)戒", c):
        return []  # 在戒糖 is a state, 决定戒烟 a goal
    if (
        m
        and pol == "like"
        and _SWITCHES.fullmatch(m.group("v"))
        and re.search(r"想|打算|考虑|准备|计划|要不要", c[: m.start()])
    ):
        return []  # 我想过把拿铁换成燕麦拿铁: a switch weighed, not made
    if not m:
        m = re.search(
            r"对(?P<x>.+?)(?:很|特别|非常|比较|挺)?(?P<v>不感兴趣|不太感兴趣|没(?:什么|啥|多大)?兴趣|没有兴趣|"
            r"兴趣不大|感兴趣|有兴趣|很有兴趣)",
            c,
        )
        pol = "dislike" if m and re.match(r"不|没|兴趣不大", m.group("v")) else "like"
    if not m:
        m = re.match(r"^(?P<x>.+?)是我的?最爱(?P<v>)|^我的?最爱是(?P<y>.+)$", c)
        if m and m.group("y"):
            o = object_key(m.group("y"))
            return (
                [Hit(P, f"pref.{o}", "pref.favorite", polarity="like", value="like")] if o else []
            )
    if not m:
        m = re.match(
            r"^(?:我)?(?:平时|一般|现在|基本)?只(?P<v>吃|用|穿|听|看|坐|住|喝|买|玩)(?P<x>.+)$", c
        )
    if m and re.fullmatch(r"[看吃喝听玩用买去做碰](?:了|的)?", m.group("x")):
        return []  # 我不爱看: the thing was named before (or not at all)
    if m and (
        d := re.match(
            r"^(?P<x>烟|酒)(?:[\d一二两三四五六七八九十几半]+(?:个)?(?:月|年|周|天))了?$",
            m.group("x"),
        )
    ):
        m = d  # 我戒烟三个月了: what was given up, not for how long
    if not m or not (o := object_key(m.group("x"))):
        return []
    change = (bool(CHANGE_RE.search(c)) and pol == "dislike") or bool(
        re.search(r"现在|开始|改|换成", c)
    )
    obj = clean_value(m.group("x"))
    ctx.extra["last_obj"], ctx.extra["last_word"] = o, obj  # 我不能吃花生，会过敏
    if pol == "like" and _TAKEN_UP.fullmatch(m.group("v")) and not DRINK_RE.search(obj):
        # 迷上了攀岩 / 改练拳击: a pastime taken up, said the way it is asked about (爱好)
        return [Hit(P, f"pref.{o}", "pref.hobby", polarity=pol, obj=obj, correction=change,
                    value=pol, content=f"用户的爱好是{obj}")]  # fmt: skip
    parts = _objects(m.group("x"))
    return [
        Hit(P, f"pref.{k}", "pref", polarity=pol, obj=part, correction=change, value=pol,
            content=third_person_zh(c.replace(m.group("x"), part)) if len(parts) > 1 else None)
        for part in parts
        if (k := object_key(part))
    ]  # fmt: skip


_LESS = r"不怎么|很少|不再|没怎么|几乎不|基本不|好久没|不大"
_DROPPED = re.compile(
    rf"^(?:我)?(?:最近|现在|已经|目前|这两年|这几年|后来|如今)*(?:{_LESS})(?P<x>[^，,]{{2,8}}?)了?$"
    rf"|^(?P<y>[^，,我]{{2,6}}?)(?:现在|最近|已经|倒是)?(?:{_LESS})(?:打|玩|去|弹|练|下|踢|画|跳|骑)?了?$"
    r"|^(?P<z>[^，,我]{2,6}?)(?:现在|已经)?(?:(?:打|跑|玩|踢|爬|骑|游|跳)不动|(?:喝|吃|玩|听|看)腻)了$"
)


def dropped(c: str, ctx: Context) -> list[Hit]:
    """最近不怎么钓鱼了 / 羽毛球很少打了: a pastime the user has (mostly) given up — the like
    no longer holds, whatever took its place."""
    m = _DROPPED.match(c)
    if not m or re.search(r"吗|什么|哪|你|因为|所以", c):
        return []
    phrase = m.group("x") or m.group("y") or m.group("z")
    if re.match(
        r"^(?:(?:吃|喝)(?:早|午|晚|夜|宵|东西|水|饭)|睡|说|想|知道|记得|用|去过|见|联系|回)", phrase
    ):
        return []  # 很少吃早饭 / 好久没联系: a routine or a moment, not a pastime
    o = object_key(phrase)
    if not o:
        return []
    said = f"用户现在很少{clean_value(phrase)}了" if m.group("x") else None
    said = f"用户{clean_value(phrase)}{m.group(0)[len(phrase) :]}" if m.group("z") else said
    return [Hit(P, f"pref.{o}", "pref.dropped", polarity="dislike", value="dislike",
                obj=clean_value(phrase), correction=True, content=said)]  # fmt: skip
