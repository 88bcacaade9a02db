"""Shared pieces of the Chinese rules: value cleaners, numbers, the change marker and the
third-person rewrite."""

from __future__ import annotations

import re

from jiyi.core.extraction.en_roles import is_role as is_role_en
from jiyi.core.extraction.lexicon import DRINKS, PETS_ZH, PRONOUN_OBJECTS, RELATIONS_ZH
from jiyi.core.extraction.lexicon_places import JOBS_ZH, MAJOR_RE_ZH
from jiyi.core.extraction.topics import clean_value, normalize_object
from jiyi.core.models import MemoryKind

__all__ = [
    "ADV",
    "CHANGE_RE",
    "NUM",
    "ON_A_TRIP",
    "REL",
    "SEP",
    "as_mandarin",
    "date_value",
    "drop_when_lead",
    "hedge_free",
    "kin_said",
    "name_value",
    "normalise_zh",
    "object_key",
    "pet_key",
    "place_value",
    "third_person_zh",
    "yes_no",
]

F, P, G, E, S = (
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.GOAL,
    MemoryKind.EVENT,
    MemoryKind.STATE,
)
REL = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
PET_WORD = "|".join(sorted(PETS_ZH, key=len, reverse=True))
# Adverbs that may sit between the subject and the verb without changing the fact.
ADV = (
    r"(?:现在|目前|已经|平时|一般|通常|一直|还|也|都|就|刚刚|刚|正在|今年|如今|其实|本来|确实|"
    r"基本上|基本|常年|长期|依然|仍然|还是|早就|早已|终于|总算|后来|正式)*"
)
NUM = r"\d{1,3}|[一二两三四五六七八九十]{1,3}"
# Why someone is sent somewhere for a while, not to work there: 派去上海出差 / 去北京培训.
ON_A_TRIP = r"出差|培训|开会|学习|支援|帮忙"
SEP = re.compile(r"和|、|跟|以及|及|还有|与|或者|或|/|，|,")
# 不…了 / 不再 / 已经不 mark that an earlier state no longer holds.
CHANGE_RE = re.compile(r"不再|已经不|再也不|现在不|不\S*了$|没\S*了$|戒了|戒掉")


def hedge_free(value: str) -> str:
    return re.sub(
        r"^(?:可能|好像|也许|大概|似乎|有点|有些|比较|很|特别|非常|严重|轻微|超级|超|巨|太)+",
        "",
        value,
    )


def third_person_zh(clause: str) -> str:
    """我对花生过敏 → 用户对花生过敏; 我女儿叫小美 → 用户的女儿叫小美; 只喝冷萃 → 用户只喝冷萃."""
    text = re.sub(rf"我(?:家|们家)?(?=(?:{REL}|{PET_WORD}))", "用户的", clause)
    text = re.sub(r"^(?:我们家|我们|咱们|咱家)(?!的)", "用户一家", text)  # 我们上个月搬家了
    text = re.sub(r"我(?!们)", "用户", text)
    # 我姐 is 我姐姐: said in full, so "我姐姐住在哪" finds it (not 姐夫, 弟媳, 哥们)
    text = re.sub(r"(?<=用户的)([姐哥妹弟])(?![姐哥妹弟夫媳嫂们妹])", r"\1\1", text)
    text = text.strip(" ，,。.!！?？~～").rstrip("啊呀哦吧呢嘛哈啦")
    if "用户" in text[:8]:
        return text
    return ("用户的" if re.match(rf"(?:{REL}|{PET_WORD})", text) else "用户") + text


def object_key(value: str) -> str | None:
    """The normalised object, or None when the phrase names nothing (a pronoun, a question)."""
    value = hedge_free(clean_value(value))
    if not value or value in PRONOUN_OBJECTS or re.search(r"什么|哪|谁|啥", value):
        return None
    if re.fullmatch(r"[了啦呀啊哦吧呢嘛哈]+", value):
        return None  # 以后别给我推荐了: a particle, no object (the one before is meant)
    if re.match(r"(?:这|那)(?:个|首|部|本|家|款|道|杯|次|些|张|集|场)|你", value):
        return None  # 我好喜欢这首歌 / 你的回答: what is in front of the user now, not a taste
    norm = normalize_object(value)
    return norm or None


def name_value(value: str) -> str:
    """A name as said: 小美，不是小丽 → 小美; trailing particles and 就行 dropped."""
    value = re.split(r"不是|而是|，|,|就行|就好|就可以|吧", value)[0]
    return clean_value(re.sub(r"(?:了|啦|呢|哦|哈)+$", "", value))


_DURATION = re.compile(
    r"(?:快|已经|都|有|将近|差不多|大概)?(?:好|\d{1,3}|[一二两三四五六七八九十几半]{1,3})?(?:多)?"
    r"(?:个)?(?:年|个月|月|周|星期|天)(?:多|半)?(?:了|啦)?$"
)


def place_value(value: str) -> str:
    """住在北京朝阳区了 → 北京朝阳区; 杭州快两年了 → 杭州; 老家长沙 → 长沙."""
    value = clean_value(re.sub(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+", "", value))
    value = _DURATION.sub("", value)
    # 在广州挺好的 / 在杭州过得很开心: how they are there is no part of where
    value = re.sub(
        r"(?<=..)(?:挺|很|蛮|还挺|也挺|还算|过得|混得|待得|呆得|真的?|特别|超)\S*$", "", value
    )
    # 搬来武汉跟我们住: with whom is no part of where
    value = re.sub(
        r"(?<=..)(?:跟|和|与)(?:我们|我|他们|她们|他|她|孩子|儿子|女儿|家里人)(?:一起)?(?:住|生活|过)?(?:了|啦)?$",
        "",
        value,
    )
    value = re.sub(  # (从板桥搬到中和: 中和 is a place, its 和 no "and")
        r"(?<=..)(?:去|来|住|啦|了|的|定居|生活|工作|上班|发展|那边|这边|和|与|跟|及|、)+$",
        "",
        clean_value(value),
    )  # 在苏州工作和生活 → 苏州
    value = re.sub(r"^(?:了|到|在|去)", "", value)
    value = re.sub(r"(?<=..)(?:都|也|就|还|又|一直)+$", "", value)  # 在南京都住了十几年: 南京
    return clean_value(re.sub(r"^老家(?=..)|(?<=..)老家$", "", clean_value(value)))


def date_value(value: str) -> str:
    """5月20号 / 5月20日 / 五月二十 → 5-20 (month-day), else the phrase as said."""
    from jiyi.core.slots import normalize_value

    norm = normalize_value(value)
    m = re.search(r"(\d{1,2})月(\d{1,2})", norm)
    return f"{int(m.group(1))}-{int(m.group(2))}" if m else clean_value(value)


def yes_no(before: str) -> str:
    """ "no" when the words before a condition deny it (不/没有/不再), else "yes"."""
    return "no" if re.search(r"不再|已经不|没有|没|不", before) else "yes"


def pet_key(word: str) -> str:
    return next(
        (v for k, v in sorted(PETS_ZH.items(), key=lambda kv: -len(kv[0])) if word.endswith(k)),
        "pet",
    )


_ROLE_SUFFIX = re.compile(
    r"(?:师|员|家|员工|技工|社工|电工|木工|农民工|临时工|者|骑手|跑腿小哥|快递小哥|经理|总监|老板|医生|(?<=[牙兽军校村中西])医|(?<=[主帮大])厨|护士|主管|律师|会计|司机|记者|博士|主播|宝妈|全职妈妈|"
    r"全职爸爸|家庭主妇|自由职业|老师|程序员|公务员|警察|军人|厨师|教授|院长|主任|店长|老总|总裁|"
    r"董事长|CEO|CTO|HR|PM|销售|运营|产品|实习生|博士后|博后|学生|研究生|本科生|留学生|"
    r"副理|协理|襄理|理专|楼面|收银|导购|前台|客服|行政|文职|助理|秘书|翻译|采购|仓管|质检|跟单|"
    r"帮厨|保安|保洁|月嫂|领班|"
    r"[小初高]中生|大学生|(?:护士|护理|课|科|处|部|局|校|班|组|厂|队|行|所|站|车间|护|船|村|机|列车|乘务|轮机|"
    r"社|园|镇|乡|县|市)长|[大二三]副)$",
    re.IGNORECASE,
)


def is_role(word: str) -> bool:
    """程序员 / 产品经理 / 小学老师 / iOS开发工程师 / HR: a job title (or a student)."""
    word = clean_value(word)
    if re.fullmatch(r"[A-Za-z][A-Za-z .-]{1,30}", word):  # 转去做 data engineer
        return is_role_en(word)
    if not word or len(word) > 14 or re.search(r"[人的]$|什么|哪|[这那]家|留在|原来", word):
        return False  # (我还是)留在原来这家: a place stayed at, not a job ending in 家
    return word in JOBS_ZH or bool(_ROLE_SUFFIX.search(word))


_DRINK_WORDS = "|".join(sorted((w for w in DRINKS if not w.isascii()), key=len, reverse=True))
_CANTONESE_MAP = {
    "喺": "在", "返工": "上班", "钟意": "喜欢", "鍾意": "喜欢", "唔": "不", "冇": "没有",
    "係": "是", "系": "是", "佢": "他", "屋企": "家", "我个仔": "我儿子", "我个囡": "我女儿",
    "咗": "了", "嘅": "的", "食": "吃", "饮": "喝", "而家": "现在",
    "我个女": "我女儿", "个女": "女儿", "个仔": "儿子", "读紧": "在读",
    "每朝": "每天早上", "朝早": "早上", "逢星期": "每周", "逢礼拜": "每周", "放工": "下班",
    "哋": "们", "转工": "换工作", "转咗工": "换了工作", "呢个": "这个", "呢间": "这间",
}  # fmt: skip
_CANTONESE = re.compile(
    r"喺|返工|钟意|鍾意|唔|冇|係|哋|转咗工|转工|呢个|呢间|(?<=我)系|(?<=唔)系|(?<=而家)系|(?<=依家)系|(?<=真)系|(?<=嘅)系|(?<=的)系|(?<=都)系|^系(?=[\u4e00-\u9fff]{2})|佢|屋企|我个仔|我个囡|我个女|^个女|^个仔|读紧|每朝|朝早|逢星期|逢礼拜|放工|咗|嘅|而家|"
    r"(?<=[我不唔要想去都爱欢意])食(?![物品材谱堂])|(?<=[我不唔要想去都爱欢意])饮(?![料食品])"
)
# "My mom 对海鲜过敏": an English subject in a Chinese clause.
_EN_SUBJECT = {
    "mom": "我妈妈", "mum": "我妈妈", "mother": "我妈妈", "dad": "我爸爸", "father": "我爸爸",
    "wife": "我老婆", "husband": "我老公", "son": "我儿子", "daughter": "我女儿", "kid": "我孩子",
    "kids": "我孩子", "boyfriend": "我男朋友", "girlfriend": "我女朋友", "sister": "我姐妹",
    "brother": "我兄弟", "cat": "我的猫", "dog": "我的狗", "baby": "我宝宝", "partner": "我爱人",
}  # fmt: skip


# lil bro / big sis opening a Chinese clause: (younger?, brother?) → the Chinese kin word
_EN_KIN = {
    (False, True): "我哥哥", (False, False): "我姐姐",
    (True, True): "我弟弟", (True, False): "我妹妹",
}  # fmt: skip
_EN_KIN_RE = re.compile(
    r"^(?P<age>lil|little|younger|big|older) ?(?P<who>brother|bro|sister|sis)\s*", re.I
)
# Cantonese words → Mandarin words of the same length, so a position in one is a position in
# the other (a value read from the Mandarin is found in what the user wrote).
_SAME_LENGTH = {
    "而家": "现在", "咗": "了", "每朝": "每早", "朝早": "早上", "逢星期": "每星期",
    "逢礼拜": "每礼拜", "返工": "上班", "放工": "下班", "係": "是", "唔": "不", "嘅": "的",
    "喺": "在", "饮": "喝", "食": "吃", "钟意": "喜欢",
}  # fmt: skip
_SAME_LENGTH_RE = re.compile("|".join(sorted(_SAME_LENGTH, key=len, reverse=True)))


def as_mandarin(text: str) -> str:
    """``text`` (simplified) with its Cantonese words in Mandarin, character for character:
    而家改咗每朝六点去跑 → 现在改了每早六点去跑."""
    return _SAME_LENGTH_RE.sub(lambda m: _SAME_LENGTH[m.group(0)], text)


def kin_said(family_zh: str) -> str:
    """The relative's word as the user said it (我的老婆 → 老婆, 我家闺女 → 闺女)."""
    return re.sub(r"^(?:我们家|我家|我的|我)的?", "", family_zh)


def normalise_zh(clause: str) -> str:
    """The clause in plain Mandarin with the user as its subject where they are meant:
    Cantonese words, 本人/俺, an English subject ("my mom 对海鲜过敏"), 我和老公… as 我们."""
    clause = re.sub(r"^个(?=仔|囡|女)", "我个", clause)  # 個仔升咗中三: the user's son
    # 而家個男朋友叫Kelvin: the user's (Cantonese 個 for 我的)
    clause = re.sub(r"^(?:而家|依家|现在)个(?=男朋友|女朋友|老公|老婆|仔|囡|女)", "我", clause)
    clause = clause.replace("跳曹", "跳槽")  # the common mistyping of 跳槽 (same sound)
    clause = re.sub(r"(?<!自)己经", "已经", clause)  # 这周一己经去蚂蚁入职了 (自己经常 stays)
    clause = re.sub(r"(对[^，,。]{1,8}?)敏感", r"\1过敏", clause)  # 对猫毛敏感: an allergy
    # 最近改和橙C美式了: 和 typed for 喝 before a drink
    clause = re.sub(rf"(?<=[改都只爱])和(?=[^，,]{{0,4}}?(?:{_DRINK_WORDS}))", "喝", clause)
    clause = _CANTONESE.sub(lambda m: _CANTONESE_MAP[m.group(0)], clause)
    clause = re.sub(
        r"(?:喇|嘞|啰|囉|咯|喽|嘍)(?=[!！。~～]*$)", "了", clause
    )  # 已經5歲喇: a final 了
    clause = re.sub(r"(?<=[^你他她它那这])呢(?=[!！。~～]*$)", "", clause)  # 在沈阳上班呢 (said)
    # 由这个月开始我改了在深圳上班 / 我改在深圳住了: where the user is now
    clause = re.sub(r"^由(?=这|今|下|本|上)", "从", clause)
    clause = re.sub(
        r"(?<=我)(?:现在)?改(?:了)?(?=在[^，,]{2,10}?(?:上班|工作|住|读书|上学))", "现在", clause
    )
    clause = re.sub(r"^(?:本人|俺|咱)(?!们)", "我", clause)
    # (经理找我谈话，)说从这个月起我就是店长了: what someone told the user of the user
    clause = re.sub(r"^说(?=(?:从|由)?(?:这|下|本)个?(?:月|周|礼拜)(?:起|开始)?我)", "", clause)
    # 我现在都是早上六点半去gym了: the routine's time now, as 我现在每天早上六点半去 says it
    clause = re.sub(
        r"^我(现在|最近|而家)?都是(?=早上|晚上|中午|下午|凌晨|上午)", r"我\1每天", clause
    )
    clause = re.sub(
        r"(?<=[我们家])搁(?=[\u4e00-\u9fff]{2})(?!置|浅|下|着)", "在", clause
    )  # 俺家搁铁岭
    clause = re.sub(
        r"^(?:my|our) (\w+)\s*",
        lambda m: _EN_SUBJECT.get(m.group(1).lower(), m.group(0)),
        clause,
        flags=re.I,
    )
    # lil bro 上个月搬去 Toronto 了: an English kin word opening a Chinese clause
    clause = _EN_KIN_RE.sub(
        lambda m: _EN_KIN[
            m["age"].lower() in ("lil", "little", "younger"), m["who"].lower().startswith("bro")
        ],
        clause,
    )
    clause = re.sub(r"^我(?:确实|真的|的确|本来就|一向)", "我", clause)
    # 上个月刚过了33岁生日 / 女儿过完六岁生日了: the age reached, as 满33岁了 says it
    clause = re.sub(
        r"(?:刚|才)?过(?:了|完)?(?P<n>[\d一二两三四五六七八九十]{1,3})(?:周)?岁(?:的)?生日(?:了|啦)?$",
        r"满\g<n>岁了",
        clause,
    )
    clause = re.sub(r"^(?:过完|过了)?生日(?:一过|过了|过完|以后|之后)(?=我|就)", "", clause)
    # 我和老公刚搬到成都: the user and family together say what holds for the user
    clause = re.sub(
        rf"^我(?:和|跟)(?:我)?(?:家)?(?:{REL})(?=刚|已经|现在|一起|住|在|搬|去)", "我们", clause
    )
    clause = re.sub(
        rf"^我(?:和|跟)(?:我)?(?:家)?(?:{REL})都(?=是|在)", "我", clause
    )  # 我和老公都是做IT的
    clause = re.sub(r"^我(?:们)?是(?=在|从)", "我", clause)  # 我是在腾讯上班 = 我在腾讯上班
    # Taiwan Mandarin marks a fact with 有 + verb: 我有養一隻鸚鵡 = 我养了一只鹦鹉, 我有在学日语
    clause = re.sub(
        r"^(我(?:们)?(?:家)?)有(?=养|在|去|学|练|做|打|吃|喝|上|跑|固定)", r"\1", clause
    )
    # 儿子现在是四年级的小学生了: a pupil of a year of school is in that year
    clause = re.sub(
        r"是(?P<g>(?:小学|初中|高中)?[一二三四五六\d]年级|初[一二三]|高[一二三]|大[一二三四])的?"
        r"(?:小学生|中学生|初中生|高中生|大学生|学生)",
        r"读\g<g>",
        clause,
    )
    # 我读研，学的是计算机: a subject of study said as a cleft is the major
    major = re.match(
        r"^(?P<s>我?)(?:学|读|念)的(?:其实|应该)?是(?P<x>[^，,]{2,8}?)(?:专业)?$", clause
    )
    if (
        major
        and MAJOR_RE_ZH.search(major["x"])
        and not re.search(r"年级|[大初高研][一二三四]", major["x"])
    ):
        clause = f"{major['s']}专业是{major['x']}"
    # 我儿子读的是四年级 / 我画的是油画: the cleft says the same as 读四年级 / 画油画
    clause = re.sub(
        r"^(?P<s>[^，,的]{1,6}?)(?P<v>读|上|念|学|做|当|干|养|画|玩|打|弹|练|开|考)的(?:其实|应该)?是(?=.)",
        r"\g<s>\g<v>",
        clause,
    )
    return clause


def drop_when_lead(clause: str) -> str:
    """我们家年初搬到佛山了 → 我们家搬到佛山了: when, said after the subject, is not the fact."""
    return re.sub(
        rf"^(?P<s>(?:我们家|我们|我家|我)(?:的)?(?:{REL})?|{REL})(?:{_WHEN_LEAD})+(?=..)",
        r"\g<s>",
        clause,
    )


_WHEN_LEAD = (
    r"(?:年初|年底|年中|月初|月底|月中|去年底|去年初|今年初|前阵子|前段时间|前些天|前几天|前些日子|年前|年后|"
    r"过完年|春节后|过年后|上半年|下半年|去年|前年|上个?月|上周|上星期|上礼拜|今年|这个月|"
    r"(?:[一二三四五六七八九十]{1,2}|\d{1,2})月份?|开学(?:以后|后)?|(?:去年|今年|前年)?(?:春天|夏天|秋天|冬天)"
    r"|(?:上个?月|去年)(?:底|初|中)?)(?:就|已经|刚|刚刚|也|都)*"
)
