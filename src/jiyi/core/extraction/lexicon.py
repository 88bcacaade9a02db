"""Word lists and canonical names shared by the zh and en rules.

Closed-class vocabulary (family relations, pets, drinks, health conditions) maps to one English
key so the same slot is hit whichever language the user speaks; open-class objects (foods,
allergens, hobbies) keep the user's own word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def word_set(text: str) -> frozenset[str]:
    """A set of whitespace-separated words (keeps long word lists compact)."""
    return frozenset(text.split())


# Family relation word → topic key.
RELATIONS_ZH = {
    "女儿": "daughter",
    "闺女": "daughter",
    "儿子": "son",
    "老婆": "wife",
    "妻子": "wife",
    "太太": "wife",
    "媳妇": "wife",
    "爱人": "spouse",
    "老公": "husband",
    "丈夫": "husband",
    "男朋友": "boyfriend",
    "男友": "boyfriend",
    "女朋友": "girlfriend",
    "女友": "girlfriend",
    "妈妈": "mother",
    "母亲": "mother",
    "妈": "mother",
    "爸爸": "father",
    "父亲": "father",
    "爸": "father",
    "哥哥": "brother",
    "弟弟": "brother",
    "姐姐": "sister",
    "妹妹": "sister",
    "孩子": "child",
    "宝宝": "child",
    "小孩": "child",
    "爷爷": "grandfather",
    "外公": "grandfather",
    "奶奶": "grandmother",
    "外婆": "grandmother",
}
RELATIONS_EN = {
    "daughter": "daughter",
    "son": "son",
    "wife": "wife",
    "husband": "husband",
    "partner": "partner",
    "boyfriend": "boyfriend",
    "girlfriend": "girlfriend",
    "mom": "mother",
    "mum": "mother",
    "mother": "mother",
    "dad": "father",
    "father": "father",
    "brother": "brother",
    "sister": "sister",
    "kid": "child",
    "child": "child",
    "baby": "child",
    "son-in-law": "son_in_law",
    "grandma": "grandmother",
    "grandpa": "grandfather",
}
RELATION_NAMES_ZH = {
    "daughter": "女儿",
    "son": "儿子",
    "wife": "妻子",
    "husband": "丈夫",
    "spouse": "爱人",
    "boyfriend": "男朋友",
    "girlfriend": "女朋友",
    "mother": "妈妈",
    "father": "爸爸",
    "brother": "兄弟",
    "sister": "姐妹",
    "child": "孩子",
    "grandfather": "祖父",
    "grandmother": "祖母",
}

PETS_ZH = {
    "猫咪": "cat",
    "小猫": "cat",
    "猫": "cat",
    "狗狗": "dog",
    "小狗": "dog",
    "狗": "dog",
    "兔子": "rabbit",
    "仓鼠": "hamster",
    "鹦鹉": "parrot",
    "乌龟": "turtle",
    "金鱼": "fish",
    # Breeds name the animal: 我养了一只英短叫咪咪 is a cat.
    "英短": "cat",
    "美短": "cat",
    "布偶": "cat",
    "橘猫": "cat",
    "暹罗": "cat",
    "加菲": "cat",
    "狸花": "cat",
    "柯基": "dog",
    "金毛": "dog",
    "泰迪": "dog",
    "哈士奇": "dog",
    "柴犬": "dog",
    "拉布拉多": "dog",
    "边牧": "dog",
    "萨摩耶": "dog",
    "比熊": "dog",
    "博美": "dog",
    "法斗": "dog",
    "雪纳瑞": "dog",
    "二哈": "dog",
}
PETS_EN = {
    "cat": "cat",
    "kitten": "cat",
    "kitty": "cat",
    "dog": "dog",
    "puppy": "dog",
    "pup": "dog",
    "rabbit": "rabbit",
    "bunny": "rabbit",
    "hamster": "hamster",
    "parrot": "parrot",
    "turtle": "turtle",
    "goldfish": "fish",
    "fish": "fish",
    # Breeds name the animal: "I have a beagle named Biscuit" is a dog.
    "beagle": "dog",
    "labrador": "dog",
    "lab": "dog",
    "golden retriever": "dog",
    "retriever": "dog",
    "corgi": "dog",
    "poodle": "dog",
    "husky": "dog",
    "bulldog": "dog",
    "dachshund": "dog",
    "terrier": "dog",
    "pug": "dog",
    "shiba": "dog",
    "german shepherd": "dog",
    "collie": "dog",
    "schnauzer": "dog",
    "chihuahua": "dog",
    "tabby": "cat",
    "siamese": "cat",
    "persian": "cat",
    "maine coon": "cat",
    "ragdoll": "cat",
}

# Drink words → (category, is a specific type of that category).
DRINKS: dict[str, tuple[str, bool]] = {
    "咖啡": ("coffee", False),
    "冷萃": ("coffee", True),
    "拿铁": ("coffee", True),
    "美式": ("coffee", True),
    "冰美式": ("coffee", True),
    "手冲": ("coffee", True),
    "卡布奇诺": ("coffee", True),
    "摩卡": ("coffee", True),
    "浓缩": ("coffee", True),
    "澳白": ("coffee", True),
    "馥芮白": ("coffee", True),
    "coffee": ("coffee", False),
    "cold brew": ("coffee", True),
    "latte": ("coffee", True),
    "americano": ("coffee", True),
    "espresso": ("coffee", True),
    "cappuccino": ("coffee", True),
    "flat white": ("coffee", True),
    "mocha": ("coffee", True),
    "奶茶": ("milk_tea", False),
    "茶": ("tea", False),
    "绿茶": ("tea", True),
    "红茶": ("tea", True),
    "乌龙": ("tea", True),
    "普洱": ("tea", True),
    "龙井": ("tea", True),
    "tea": ("tea", False),
    "green tea": ("tea", True),
    "black tea": ("tea", True),
    "oolong": ("tea", True),
    "matcha": ("tea", True),
}


def _alternation(words: Iterable[str]) -> str:
    # English words need word boundaries ("tea" is not in "steam"); Chinese words cannot have them.
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in ordered)


DRINK_RE = re.compile(_alternation(DRINKS), re.IGNORECASE)

# Health conditions: surface form → (topic key, zh content, en content).
CONDITIONS: dict[str, tuple[str, str, str]] = {
    "高血压": ("condition.hypertension", "有高血压", "has high blood pressure"),
    "high blood pressure": ("condition.hypertension", "有高血压", "has high blood pressure"),
    "hypertension": ("condition.hypertension", "有高血压", "has high blood pressure"),
    "糖尿病": ("condition.diabetes", "有糖尿病", "has diabetes"),
    "diabetes": ("condition.diabetes", "有糖尿病", "has diabetes"),
    "diabetic": ("condition.diabetes", "有糖尿病", "has diabetes"),
    "乳糖不耐受": ("condition.lactose_intolerance", "乳糖不耐受", "is lactose intolerant"),
    "乳糖不耐": ("condition.lactose_intolerance", "乳糖不耐受", "is lactose intolerant"),
    "lactose intolerant": ("condition.lactose_intolerance", "乳糖不耐受", "is lactose intolerant"),
    "哮喘": ("condition.asthma", "有哮喘", "has asthma"),
    "asthma": ("condition.asthma", "有哮喘", "has asthma"),
    "痛风": ("condition.gout", "有痛风", "has gout"),
    "gout": ("condition.gout", "有痛风", "has gout"),
    "心脏病": ("condition.heart_disease", "有心脏病", "has heart disease"),
    "heart disease": ("condition.heart_disease", "有心脏病", "has heart disease"),
    "胃病": ("condition.stomach", "有胃病", "has stomach problems"),
    "胃不好": ("condition.stomach", "胃不好", "has stomach problems"),
    "高血脂": ("condition.hyperlipidemia", "有高血脂", "has high cholesterol"),
    "high cholesterol": ("condition.hyperlipidemia", "有高血脂", "has high cholesterol"),
    "贫血": ("condition.anemia", "贫血", "is anemic"),
    "anemic": ("condition.anemia", "贫血", "is anemic"),
    "偏头痛": ("condition.migraine", "有偏头痛", "gets migraines"),
    "migraines": ("condition.migraine", "有偏头痛", "gets migraines"),
    "乳糜泻": ("condition.celiac", "有乳糜泻", "has celiac disease"),
    "celiac": ("condition.celiac", "有乳糜泻", "has celiac disease"),
    "抑郁症": ("condition.depression", "有抑郁症", "has depression"),
    "depression": ("condition.depression", "有抑郁症", "has depression"),
    "怀孕": ("pregnancy", "怀孕了", "is pregnant"),
    "pregnant": ("pregnancy", "怀孕了", "is pregnant"),
}
CONDITION_RE = re.compile(_alternation(CONDITIONS), re.IGNORECASE)

# Big cities: "我在上海工作" names where the user works, not the employer.
CITIES_ZH = word_set(
    """
    北京 上海 广州 深圳 杭州 成都 重庆 南京 武汉 西安 天津 苏州 长沙 郑州 青岛 厦门 大连
    宁波 合肥 福州 济南 沈阳 哈尔滨 昆明 贵阳 南宁 海口 三亚 石家庄 太原 兰州 乌鲁木齐
    拉萨 香港 澳门 台北 东莞 佛山 珠海 无锡 温州 国外 海外 美国 日本 英国 新加坡 德国
    法国 加拿大 澳洲
    """
)
CITIES_EN = frozenset(
    {
        "beijing",
        "shanghai",
        "guangzhou",
        "shenzhen",
        "hangzhou",
        "chengdu",
        "chongqing",
        "nanjing",
        "wuhan",
        "xian",
        "tianjin",
        "suzhou",
        "hong kong",
        "singapore",
        "tokyo",
        "london",
        "paris",
        "berlin",
        "new york",
        "boston",
        "seattle",
        "san francisco",
        "los angeles",
        "chicago",
        "toronto",
        "vancouver",
        "sydney",
        "melbourne",
        "austin",
    }
)

HEDGES_ZH = ("可能", "好像", "也许", "大概", "应该是", "似乎", "估计", "说不定", "或许", "感觉")
HEDGES_EN = (
    "maybe",
    "i think",
    "probably",
    "perhaps",
    "might",
    "i guess",
    "kind of",
    "sort of",
    "i believe",
    "not sure",
)
HEDGE_RE = re.compile(
    "|".join(HEDGES_ZH) + "|" + "|".join(r"\b" + h + r"\b" for h in HEDGES_EN), re.IGNORECASE
)

STRONG_RE = re.compile(
    r"必须|一定|务必|千万|紧急|绝对|绝不|从不|永远|严重|过敏|一直|"
    r"\b(?:always|never|must|absolutely|seriously|severe|severely|critical|urgent|allergic)\b",
    re.IGNORECASE,
)
HEALTH_RE = re.compile(
    r"过敏|病|血压|血糖|胰岛素|药|怀孕|孕|不耐受|哮喘|痛风|手术|医院|医生|癌|"
    r"\b(?:allerg\w*|diabet\w*|pregnan\w*|asthma|intoleran\w*|medication|insulin|surgery|"
    r"blood pressure|hospital|disease|celiac|gout)\b",
    re.IGNORECASE,
)

PRONOUN_OBJECTS = word_set(
    """
    你 您 他 她 它 你们 他们 这个 那个 这 那 it this that them you him her these those
    one
    """
)
