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


def _table(text: str) -> dict[str, str]:
    """``key: word word …`` lines → {word: key}."""
    out: dict[str, str] = {}
    for line in text.strip().splitlines():
        key, words = line.split(":", 1)
        out |= {w.replace("_", " "): key.strip() for w in words.split()}
    return out


# Family relation word → topic key. 先生 is a husband only after 我 (the rules anchor it).
RELATIONS_ZH = _table(
    """
    daughter: 女儿 闺女 大女儿 小女儿 二女儿 姑娘 个女 丫头
    son: 儿子 大儿子 小儿子 二儿子 个仔
    wife: 老婆 妻子 太太 媳妇 媳妇儿 老婆大人
    husband: 老公 丈夫 先生 孩子他爸
    spouse: 爱人 老伴 另一半 对象 伴侣 家那位 那口子 孩子他爸 孩子他妈 孩子爸 孩子妈
    boyfriend: 男朋友 男友
    girlfriend: 女朋友 女友
    fiance: 未婚夫 未婚妻
    mother: 妈妈 母亲 妈 老妈 老母亲 阿妈 妈咪
    father: 爸爸 父亲 爸 老爸 爹 老爹 老父亲 阿爸 老豆 老窦 爹地
    parents: 爸妈 父母 爹妈 二老
    brother: 哥哥 弟弟 哥 弟 大哥 二哥 小弟 亲哥 亲弟弟 阿哥 阿弟 细佬
    sister: 姐姐 妹妹 姐 妹 大姐 二姐 小妹 亲姐 亲妹妹 阿姐 家姐 阿妹 细妹
    child: 孩子 宝宝 小孩 娃 小朋友 双胞胎 儿女 孩子们
    child1: 大宝 老大 大娃
    child2: 二宝 老二 小宝 二娃
    grandfather: 爷爷 外公 姥爷 祖父
    grandmother: 奶奶 外婆 姥姥 祖母
    grandchild: 孙子 孙女 外孙 外孙女
    father_in_law: 公公 岳父 老丈人
    mother_in_law: 婆婆 岳母 丈母娘
    in_law: 儿媳 儿媳妇 女婿 姐夫 嫂子 弟媳 妹夫 公婆 岳父母
    nephew: 侄子 外甥
    niece: 侄女 外甥女
    cousin: 表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹
    uncle: 叔叔 舅舅 伯伯 姑父 姨父 姨夫 姑丈 伯父 大伯 二伯 二叔 三叔 大舅 二舅 小舅
    aunt: 姑姑 姨妈 舅妈 婶婶 小姨 大姨 二姨 三姨 大姑 二姑 姑妈 伯母 舅母
    """
)
RELATIONS_EN = _table(
    """
    daughter: daughter daughters stepdaughter little_girl baby_girl
    son: son sons stepson little_boy little_guy little_man baby_boy little_fella little_fellow
    son: young_fella lad
    wife: wife wifey missus missis
    husband: husband hubby
    partner: partner spouse significant_other other_half
    boyfriend: boyfriend bf
    girlfriend: girlfriend gf
    fiance: fiance fiancé fiancee fiancée
    mother: mom mum mother mommy mama stepmom stepmother mam mammy
    father: dad father daddy papa stepdad stepfather
    parents: parents folks
    brother: brother brothers bro stepbrother
    sister: sister sisters sis stepsister
    child: kid kids child children baby toddler teen teenager twins little_one little_ones wee_one
    child: eldest youngest oldest newborn infant firstborn first-born lastborn last-born
    child: last_born first_born
    son_in_law: son-in-law
    daughter_in_law: daughter-in-law
    mother_in_law: mother-in-law mil
    father_in_law: father-in-law fil
    in_law: in-laws brother-in-law sister-in-law
    grandmother: grandma grandmother granny nana
    grandfather: grandpa grandfather granddad grandad
    grandchild: grandson granddaughter grandkid grandkids grandchildren
    nephew: nephew nephews
    niece: niece nieces
    cousin: cousin cousins
    uncle: uncle
    aunt: aunt auntie
    """
)
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

# Pets: species and breeds → the species key. Breeds end in their animal or are listed:
# 我养了一只英短叫咪咪 is a cat, "I have a beagle named Biscuit" a dog.
PETS_ZH = _table(
    """
    cat: 猫 猫咪 小猫 猫猫 喵星人 英短 英国短毛猫 美短 布偶 橘猫 暹罗 加菲 狸花 蓝猫 金吉拉 缅因
    cat: 无毛猫 斯芬克斯 银渐层 金渐层 三花 奶牛猫 黑猫 白猫 田园猫 折耳 德文 蓝白 狸花猫 英短蓝猫
    pet: 毛小孩 毛孩子 宠物
    dog: 狗 狗狗 小狗 狗子 汪星人 犬 米克斯 柯基 金毛
    dog: 泰迪 贵宾 哈士奇 二哈 柴犬 豆柴 秋田 拉布拉多 边牧 萨摩耶
    dog: 比熊 博美 法斗 英斗 雪纳瑞 德牧 阿拉斯加 杜宾 吉娃娃 马尔济斯 约克夏 西高地 腊肠 巴哥
    dog: 沙皮 松狮 藏獒 田园犬 土狗 中华田园犬 串串 喜乐蒂 可卡 斗牛犬 比格 小鹿犬
    dog: 京巴 京巴狗 北京犬 西施犬 狮子狗 牧羊犬 黑背 大白熊 巴吉度 伯恩山 马犬 杜高 柴柴
    rabbit: 兔子 兔兔 小兔子 垂耳兔 荷兰兔 侏儒兔 荷兰侏儒兔 狮子兔 安哥拉兔
    hamster: 仓鼠 金丝熊
    guinea_pig: 豚鼠 荷兰猪
    chinchilla: 龙猫
    hedgehog: 刺猬
    ferret: 雪貂
    parrot: 鹦鹉 玄凤 虎皮鹦鹉 牡丹鹦鹉
    bird: 八哥 画眉 鸟 文鸟
    turtle: 乌龟 龟 巴西龟 草龟
    fish: 金鱼 锦鲤 鱼 热带鱼 孔雀鱼
    lizard: 蜥蜴 守宫 鬃狮蜥
    snake: 蛇 玉米蛇 球蟒
    bird: 鹩哥 鸽子 百灵 芙蓉鸟 珍珠鸟
    pig: 香猪 小香猪 迷你猪
    chicken: 公鸡 母鸡 大公鸡 小鸡 芦花鸡
    duck: 鸭子 小鸭子 柯尔鸭 小黄鸭
    """
)
PETS_EN = _table(
    """
    cat: cat cats kitten kittens kitty tabby siamese persian maine_coon ragdoll bengal sphynx
    cat: british_shorthair scottish_fold russian_blue calico tuxedo_cat abyssinian himalayan
    cat: balinese birman burmese tonkinese ragamuffin devon_rex cornish_rex exotic_shorthair
    dog: dog dogs puppy puppies pup doggo beagle labrador lab golden_retriever retriever corgi
    dog: poodle husky bulldog dachshund terrier pug shiba shiba_inu german_shepherd collie
    dog: border_collie schnauzer chihuahua goldendoodle labradoodle doodle cockapoo shih_tzu
    dog: maltese yorkie pomeranian samoyed akita boxer great_dane rottweiler doberman dalmatian
    dog: australian_shepherd greyhound whippet french_bulldog frenchie cavalier spaniel
    dog: cocker_spaniel bichon mutt pit_bull pitbull bernese sheltie basset_hound golden goldens
    dog: pit pittie cavapoo maltipoo bernedoodle sheepadoodle aussiedoodle cavachon puggle morkie
    dog: lab_mix heeler blue_heeler vizsla weimaraner mastiff newfie havanese papillon westie
    dog: malamute alaskan_malamute cane_corso bichon_frise shepherd aussie husky_mix pointer
    dog: sheepdog welsh_sheepdog staffie staffy aspin jack_russell springer kelpie
    dog: rhodesian_ridgeback ridgeback boerboel basenji lurcher cavoodle bull_terrier cattle_dog
    dog: shar_pei chow_chow saint_bernard st_bernard bloodhound airedale dobermann rottie
    cat: norwegian_forest_cat exotic_shorthair birman devon_rex
    dog: springer_spaniel english_springer boston_terrier jack_russell_terrier yorkshire_terrier
    dog: staffordshire_bull_terrier west_highland_terrier scottish_terrier border_terrier
    dog: king_charles_spaniel cavalier_king_charles english_bulldog labrador_retriever
    dog: irish_setter english_setter red_setter german_shorthaired_pointer australian_cattle_dog
    dog: springer_spaniel_cross indie_dog desi_dog street_dog shih_tzu_cross goldador
    rabbit: rabbit rabbits bunny bunnies
    hamster: hamster hamsters
    guinea_pig: guinea_pig guinea_pigs
    hedgehog: hedgehog
    ferret: ferret
    chinchilla: chinchilla
    parrot: parrot parakeet budgie cockatiel cockatoo macaw
    bird: bird birds canary
    turtle: turtle tortoise
    fish: goldfish fish betta
    lizard: lizard gecko leopard_gecko bearded_dragon iguana
    snake: snake python ball_python
    horse: horse pony mare gelding stallion filly colt
    chicken: chook chooks chickens hen hens rooster
    duck: ducks duckling
    goat: goat goats
    pig: mini_pig pot-bellied_pig
    bird: galah lovebird
    turtle: red-eared_slider slider
    rodent: gerbil rat rats axolotl
    """
)
# Words that name the animal only, not a breed (a breed is a fact of its own).
PET_SPECIES = frozenset(
    """
    猫 猫咪 小猫 猫猫 喵星人 狗 狗狗 小狗 狗子 汪星人 毛小孩 毛孩子 宠物 兔子 兔兔 小兔子
    仓鼠 豚鼠 鹦鹉 鸟 乌龟 龟 鱼 金鱼 蜥蜴 蛇 刺猬 龙猫
    cat cats kitten kittens kitty dog dogs puppy puppies pup doggo rabbit
    rabbits bunny bunnies hamster hamsters parrot bird birds turtle fish goldfish lizard snake
    hedgehog ferret chinchilla horse
    """.split()
) | {"guinea pig", "guinea pigs"}

# Tone in chat, never content: emoji (with their joiners and variation selectors) and
# laughter (the segmenter ends a clause at them, markers.prepare strips them at its end).
# A business one runs (its closing ends that job): 我妈的小卖部关了 / 把店盘出去了.
SHOPS_ZH = r"店|铺子?|小卖部|餐馆|饭店|餐厅|超市|工作室|诊所"
EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+"
LAUGH_EN = r"(?:lol|lmao|haha+|hehe+|jaja+|jeje+|kkkk+|wkwk+|rsrs+)"
LAUGH_ZH = r"(?:哈{2,}|呵{2,}|嘿{2,})"

# Drink words → (category, is a specific type of that category).
_DRINK_TABLE = _table(
    """
    coffee: 咖啡 coffee
    coffee+: 冷萃 拿铁 美式 冰美式 手冲 卡布奇诺 摩卡 浓缩 澳白 馥芮白 玛奇朵 焦糖玛奇朵 挂耳 速溶
    coffee+: 黑咖啡 白咖啡 脏脏 cold_brew latte americano espresso cappuccino flat_white
    coffee+: mocha decaf cortado macchiato pour_over pour-over iced_coffee black_coffee
    coffee+: regular_coffee caffeinated_coffee long_black short_black piccolo magic babycino
    coffee+: kopi kopi-o kopi-c kopi_peng kopi_o kopi_c
    coffee+: bạc_xỉu cà_phê_sữa_đá cà_phê_đen ca_phe_sua_da cafezinho café_de_olla café_con_leche
    coffee+: cafe_con_leche kopi_siew_dai kopi_gao filter_coffee filter_kaapi
    milk_tea: 奶茶 珍奶 手摇饮 手摇 bubble_tea boba milk_tea
    milk_tea+: teh_tarik teh_c teh-c trà_sữa thai_tea thai_milk_tea teh_halia
    milk_tea+: 珍珠奶茶 奶绿 芋泥奶茶 波霸奶茶 黑糖珍奶 多多绿 养乐多绿
    milk_tea+: 四季春 乌龙绿 金萱 翡翠绿茶 冬瓜茶 青茶
    milk_tea+: 四季奶青 波霸鲜奶 珍珠鲜奶 鲜奶茶 乌龙奶茶 茉香奶绿 杨枝甘露
    milk_tea+: 烧仙草 椰果奶茶 布丁奶茶 奶盖
    tea: 茶 tea
    tea+: 绿茶 红茶 乌龙 乌龙茶 普洱 龙井 白茶 花茶 茉莉花茶 铁观音 大红袍 碧螺春 毛尖 抹茶 柠檬茶
    tea+: 果茶 green_tea black_tea oolong matcha chai chai_latte earl_grey english_breakfast
    tea+: chamomile herbal_tea jasmine_tea peppermint_tea hojicha rooibos genmaicha sencha
    tea+: sweet_tea iced_tea unsweetened_tea teh-o teh_o teh_peng trà_đào trà_đá yerba_mate
    tea+: 正山小种 老白茶 白毫银针 白牡丹 寿眉 金骏眉 滇红 祁门红茶 岩茶 凤凰单丛 六堡茶 黑茶
    tea+: 熟普 生普 六安瓜片 太平猴魁 黄山毛峰 大麦茶 荞麦茶 菊花茶 福鼎白茶
    tea+: 东方美人 桂花乌龙 蜜香红茶 高山茶
    cocoa: 可可 cocoa
    cocoa+: 热可可 热巧克力 hot_cocoa hot_chocolate milo ovaltine 阿华田
    coffee+: folgers nescafe maxwell_house 雀巢咖啡
    tea+: 凉茶 廿四味 油茶 砖茶 茯茶 竹叶青 崂山绿茶 六堡 红枣茶 kombucha
    soda: soda pop soft_drink soft_drinks fizzy_drink 汽水 碳酸饮料
    soda+: coke diet_coke coke_zero coca-cola pepsi diet_pepsi pepsi_max dr_pepper diet_dr_pepper
    soda+: mountain_dew diet_soda root_beer ginger_ale sprite fanta irn-bru red_bull monster
    soda+: energy_drink energy_drinks 可乐 可口可乐 百事可乐 零度可乐 无糖可乐 雪碧 芬达 红牛
    soda+: 东鹏特饮 健力宝 天府可乐 北冰洋 冰峰 大窑
    soy_milk+: 豆浆
    juice+: orange_juice apple_juice horchata 橙汁 果汁 酸梅汤 椰汁 椰树椰汁
    juice+: 刺梨汁
    alcohol+: beer lager cider guinness strongbow wine red_wine white_wine whisky whiskey
    alcohol+: 啤酒 黄酒 白酒 红酒 米酒 清酒 soju sake baijiu
    """
)
DRINKS: dict[str, tuple[str, bool]] = {
    word: (key.rstrip("+"), key.endswith("+")) for word, key in _DRINK_TABLE.items()
}


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first."""
    # English words need word boundaries ("tea" is not in "steam"); Chinese words cannot have them.
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in ordered)


DRINK_RE = re.compile(alternation(DRINKS), re.IGNORECASE)

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
PRONOUN_OBJECTS = word_set(
    """
    你 您 他 她 它 你们 他们 这个 那个 这 那 it this that them you him her these those
    one any some anything ones something stuff 这种 那种 这类 那类 这些 那些
    """
)

# Pastimes kept as routines, never jobs ("I do yoga at CorePower", "choir on Thursdays").
SPORT_EN = (
    r"yoga|pilates|tennis|golf|soccer|football|basketball|gym|spin|zumba|choir|band|book club|"
    r"karaoke|bowling|hockey|badminton|volleyball|dance|ballet|karate|judo|boxing|crossfit|piano|"
    r"guitar|violin|chess|trivia|poker|netball|pickleball|padel|futsal|rugby|cricket|squash|"
    r"dodgeball|lacrosse|bowls|table tennis|ping pong|darts|snooker|dominoes"
)
