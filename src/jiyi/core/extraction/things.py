"""What the user drives, which app they use for what, and the team they follow (zh + en).

- **car** (``possession.car``): "I drive a 2012 Honda Civic", "my car is a Prius", 我开的是一辆
  本田雅阁; a new one replaces it ("traded the old Buick in for a Subaru Forester", "picked
  up a used Toyota Prius", 换了台比亚迪汉, 提了一台Model Y). Only a known make or model, or
  a vehicle classifier before a Latin model name (一台RAV4), names a car: "I drive a bus",
  "我开的是18路公交" and 开网店 are no car.
- **app for a purpose** (``tool.<purpose>``): 我每天用抖音看新闻, 接单主要用滴滴, "I track my
  runs with Strava", "I use Duolingo for Spanish": the purpose names the slot, so
  现在看新闻都用今日头条 replaces the news app and nothing else. Only a known app counts.
- **team** (``favorite.team`` / ``favorite.球队``, the slots "my favorite team is …" fills):
  "I'm a Warriors fan now", "I root for the Eagles", 我现在是勇士球迷, 改粉湖人了. Only a
  known team whose name is no common word ("a big jazz fan" is a liking of music).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import alternation
from jiyi.core.extraction.topics import slug
from jiyi.core.models import MemoryKind

__all__ = ["app", "car", "known_thing", "team"]

F = MemoryKind.FACT

_MAKES_EN = """toyota honda ford chevy chevrolet tesla bmw mercedes mercedes-benz benz audi
    volkswagen vw subaru mazda nissan hyundai kia jeep dodge gmc buick cadillac lexus acura
    infiniti volvo porsche fiat chrysler mitsubishi rivian polestar byd saab pontiac scion
    land_rover range_rover ram renault peugeot citroen citroën skoda opel vauxhall lincoln
    jaguar maserati ferrari lamborghini bentley aston_martin mclaren suzuki isuzu dacia
    alfa_romeo"""
_MODELS_EN = """prius civic camry corolla accord altis rav4 cr-v crv f-150 f150 mustang outback
    forester crosstrek impreza wrangler tacoma tundra highlander sienna silverado tahoe malibu
    equinox jetta passat altima sentra elantra sonata sorento cx-5 miata lacrosse model_3
    model_y model_s model_x cybertruck durango clio megane golf polo tiguan kona sportage
    telluride ioniq bronco maverick f-250 f-350 odyssey hr-v rogue pathfinder murano 4runner
    yaris venza cx-30 cx-50 cx-9 mazda3 cherokee grand_cherokee gladiator pacifica corsa
    qashqai octavia fabia ranger hilux navara commodore vitz innova fortuner vios wigo montero
    pajero landcruiser land_cruiser prado dmax d-max bt-50 picanto creta seltos nexon xuv700
    ertiga baleno dzire wagonr camaro corvette fiesta ridgeline santa_fe palisade c-hr
    tucson silverado"""
_LATIN = frozenset(w.replace("_", " ") for w in (_MAKES_EN + " " + _MODELS_EN).split())
# (no make that is also a common word: 理想, 现代, 长安, 红旗, 小米, 大众 alone name no car)
_MAKES_ZH = """丰田 本田 比亚迪 特斯拉 宝马 奔驰 奥迪 蔚来 小鹏 极氪 五菱 吉利 哈弗 别克 雪佛兰
    福特 日产 马自达 起亚 斯巴鲁 沃尔沃 保时捷 凯迪拉克 雷克萨斯 领克 零跑 荣威 名爵 奇瑞 传祺
    雅阁 凯美瑞 卡罗拉 思域 轩逸 朗逸 速腾 帕萨特 迈腾 宝来 汉兰达 途观 天籁 卡宴 宏光 阿尔提斯
    桑塔纳 捷达 高尔夫 飞度 逍客 奇骏 英朗 科鲁兹 福克斯 蒙迪欧 长城 大众朗逸 捷途 埃安 问界
    岚图 阿维塔 智己 腾势 光阳 三阳 雅马哈 铃木 川崎 哈雷 小牛电动 九号电动 雅迪 爱玛 Gogoro"""
# A make that is also a common word names a car with a model code after it: 理想L6, 小米SU7.
# 长安皮卡 / 大众轿车: or with the kind of vehicle after it.
_CODED_ZH = re.compile(
    r"(?:理想|小米|现代|长安|红旗|大众|深蓝|极越)\s?(?:[A-Za-z]{1,3}\d{1,3}|皮卡|轿车|面包车|货车|越野车)"
)
_ZH = "|".join(sorted(_MAKES_ZH.split(), key=len, reverse=True))
# A make or model said in Latin letters: one word of the lists, then up to two more.
_LATIN_CAR = r"(?:(?:19|20)\d{2} )?[A-Za-z][\w-]*(?: (?-i:[A-Z0-9][\w-]*)){0,2}"
_OLDISH = (
    r"(?:(?:a|an|the) )?(?:(?:used|new|brand new|secondhand|second-hand|second hand|old|little|"
    r"beat-up|beat up|\d{4}) )*"
)

_HAS_EN = re.compile(
    rf"^(?:i|we) (?:drive|own|have) (?P<x>(?:a|an) {_OLDISH}{_LATIN_CAR})$"
    rf"|^(?:my|our) (?:car|ride) is (?P<y>{_OLDISH}{_LATIN_CAR})$",
    re.IGNORECASE,
)
_NEW_EN = re.compile(
    rf"\b(?:(?:picked up|bought|got|leased|traded [\w ]{{1,20}}? in for|"
    rf"traded in [\w -]{{1,25}}? for|switched to|"
    rf"upgraded to) (?=an? )|(?:i|we) (?:now )?drive |(?:i'm|i am|we're|we are) (?:now )?"
    rf"(?:driving|rolling in|cruising in|cruising around in|riding around in) (?=an? ))"
    rf"(?!for\b){_OLDISH}(?P<x>{_LATIN_CAR})",
    re.IGNORECASE,
)
_HAS_ZH = re.compile(
    r"^我(?:现在|平时)?(?:(?P<car>(?:开|骑)的(?:车|机车|摩托车?|电动车|电驴|座驾)是|的车是|的座驾是)|"
    r"开的是|骑的是|开|骑)(?:一|1)?(?:辆|台|部)?(?P<x>[^，,。]{1,12})$|"
    # 开的是一台白色的卡罗拉 (no 我 in chat): a classifier before the car, its colour may come
    r"^(?:现在|平时)?(?:开|骑)的是(?:一|1)?(?:辆|台|部)(?:[\u4e00-\u9fff]{1,3}色的?)?"
    r"(?P<x2>[^，,。]{1,12})$"
)
_NEW_ZH = re.compile(
    r"(?:换了|换成了?|买了|提了|新买了|入手了|换(?=(?:一|1)?(?:辆|台|部)))(?:一|1)?(?P<cl>辆|台|部)?"
    r"(?:新的?|二手的?)?"
    r"(?P<x>[\u4e00-\u9fffA-Za-z0-9 -]{1,12}?)(?=[，,。！!]|\s+[\u4e00-\u9fff]|$|了|啦)"
)


def _a_car(said: str, classifier: bool = False) -> str | None:
    """``said`` stripped to a car's make and model when it names one, else None."""
    text = re.sub(rf"^{_OLDISH}", "", said.strip(), flags=re.IGNORECASE).strip()
    words = re.sub(r"^(?:19|20)\d{2} ", "", text).lower()
    if (
        re.search(_ZH, text)
        or _CODED_ZH.search(text)
        or any(f" {w}" in f" {words}" for w in _LATIN)
    ):
        return text
    if classifier and re.fullmatch(r"[A-Za-z][A-Za-z0-9 -]{1,11}", text):
        return text  # 换了一台RAV4: a model by its classifier
    return None


# A new car said first, its make next: 上个月提了新车，特斯拉Model 3.
_NEW_CAR_ZH = re.compile(
    r"^(?:我们?|刚|刚刚|已经|终于|上个?月|上周|上个?礼拜|上个?星期|前几天|前天|昨天|今天|今年|去年|"
    r"年初|这个?月)*(?:提了?|买了|换了|入手了|牵了?|喜提)(?:一|1)?(?:辆|台|部)?(?:新车|车)(?:了|啦|喇|咯)?$"
)
_NAMED_NEXT_ZH = re.compile(
    r"^(?:是|就是|开的是|换的是|买的是)?(?:一|1)?(?:辆|台|部)?(?P<x>[^，,。]{2,14})$"
)


def car(clause: str, ctx: Context) -> list[Hit]:
    """The user's car, said or newly got."""
    named = ctx.extra.pop("car_next", None) and _NAMED_NEXT_ZH.match(clause)
    if named and (x := _a_car(named.group("x"))):
        said = f"用户开的车是{x}"
        return [Hit(F, "possession.car", "car.new", value=x, content=said, correction=True)]
    if _NEW_CAR_ZH.match(clause):
        ctx.extra["car_next"] = "1"
    if m := _HAS_ZH.match(clause):
        # 我骑的机车是劲战: the vehicle named as one, whatever its make
        said = m["x"] or m["x2"]
        x = said if m["car"] and 2 <= len(said) <= 12 else _a_car(said, classifier=True)
        if x:
            return [Hit(F, "possession.car", "car", value=x, content=f"用户开的车是{x}")]
        return []
    if m := _NEW_ZH.search(clause):
        if x := _a_car(m.group("x"), classifier=bool(m.group("cl"))):
            said = f"用户开的车是{x}"
            return [Hit(F, "possession.car", "car.new", value=x, content=said, correction=True)]
        return []
    if m := _HAS_EN.match(clause):
        if x := _a_car(m.group("x") or m.group("y")):
            return [Hit(F, "possession.car", "car", value=x, content=f"User drives a {x}")]
        return []
    if (m := _NEW_EN.search(clause)) and (x := _a_car(m.group("x"))):
        said = f"User drives a {x}"
        return [Hit(F, "possession.car", "car.new", value=x, content=said, correction=True)]
    return []


_APPS_ZH = """抖音 快手 小红书 微博 微信 B站 b站 哔哩哔哩 今日头条 头条 腾讯新闻 网易新闻
    知乎 淘宝 京东 拼多多 美团 饿了么 滴滴 高德打车 高德地图 高德 百度地图 支付宝
    网易云音乐 网易云 QQ音乐 酷狗
    Keep keep 悦跑圈 咕咚 得到 喜马拉雅 微信读书 钉钉 飞书 企业微信 曹操出行 花小猪 货拉拉 T3 携程
    大众点评 闲鱼 豆瓣 百度 夸克 UC Strava 多邻国 扇贝 百词斩"""
_APPS_EN = """strava garmin_connect garmin nike_run_club runkeeper fitbit myfitnesspal peloton
    doordash uber_eats ubereats grubhub instacart postmates uber lyft spotify apple_music
    youtube_music pandora tidal audible duolingo babbel venmo paypal zelle cash_app whatsapp
    telegram signal wechat instagram tiktok reddit notion evernote todoist trello ynab mint
    headspace calm kindle libby goodreads waze google_maps apple_maps"""
_APP_ZH = "|".join(sorted(map(re.escape, _APPS_ZH.split()), key=len, reverse=True))
_APP_EN = alternation(w.replace("_", " ") for w in _APPS_EN.split())
# 用抖音看新闻 / 接单主要用滴滴 / 看新闻都用今日头条 (the purpose: two to six characters)
_USE_ZH = (
    re.compile(  # the purpose first: 接单主要用高德打车 (not 高德 to 打车)
        rf"(?P<p>[\u4e00-\u9fff]{{2,8}}?)(?:主要|一般|都|基本|只)*(?:是)?用(?P<a>{_APP_ZH})"
        r"(?:了|啦|的)?$"
    ),
    re.compile(rf"用(?P<a>{_APP_ZH})(?:来|APP|app)?(?P<p>[\u4e00-\u9fff]{{2,6}}?)(?:了|啦)?$"),
)
# "I track my runs with Strava", "I use Duolingo for Spanish", "I order groceries on Instacart"
_USE_EN = re.compile(
    rf"^i (?:\w+ )?(?P<v>track|log|order|listen to|read|pay|learn|watch|plan|book|record)"
    rf" (?:my |our )?(?P<o>[\w ]{{2,20}}?) (?:with|on|using|through|via|in) (?P<a>{_APP_EN})\b"
    rf"|^i (?:\w+ )?use (?P<b>{_APP_EN}) (?P<to>to|for) (?P<p>[\w ]{{2,24}}?)$",
    re.IGNORECASE,
)
_BAD_PURPOSE_ZH = re.compile(r"^(?:的|我|都|也|在|是|它|这个|那个)|(?:吗|呢)$")


def app(clause: str, ctx: Context) -> list[Hit]:
    """The app the user uses for a purpose (a known app only)."""
    if m := _USE_ZH[0].search(clause) or _USE_ZH[1].search(clause):
        name, purpose = m.group("a"), m.group("p")
        purpose = re.sub(r"^(?:现在|平时|每天|一般|主要|都|我)+", "", purpose)
        if len(purpose) < 2 or _BAD_PURPOSE_ZH.search(purpose):
            return []
        said = f"用户{purpose}用{name}"
        return [Hit(F, f"tool.{purpose}", "app", value=name, content=said)]
    if m := _USE_EN.search(clause):
        name = m.group("a") or m.group("b")
        purpose = f"{m.group('v')} {m.group('o')}" if m.group("v") else m.group("p")
        key = slug(re.sub(r"s\b", "", purpose.lower()))
        said = f"User uses {name} {m.group('to') or 'to'} {purpose}"
        return [Hit(F, f"tool.{key}", "app", value=name, content=said)]
    return []


# (no team name that is also a common word: jazz, heat, magic, thunder, kings, city …)
_TEAMS_EN = """lakers warriors celtics bulls knicks bucks spurs mavericks rockets nuggets
    clippers blazers grizzlies pelicans timberwolves hawks hornets pistons pacers cavaliers cavs
    raptors 76ers sixers wizards browns bengals steelers ravens patriots jets bills dolphins
    chiefs raiders broncos chargers cowboys eagles giants commanders packers bears lions vikings
    49ers niners seahawks rams saints falcons panthers buccaneers bucs titans colts texans
    jaguars yankees mets dodgers cubs braves astros phillies mariners padres orioles guardians
    royals tigers brewers pirates rockies diamondbacks marlins nationals red_sox white_sox
    blue_jays arsenal chelsea liverpool tottenham everton barcelona barca madrid juventus bayern"""
_TEAM_EN = alternation(w.replace("_", " ") for w in _TEAMS_EN.split())
_TEAMS_ZH = """湖人 勇士 火箭 凯尔特人 公牛 热火 尼克斯 篮网 国安 申花 恒大 泰山 巴萨 皇马
    曼联 曼城 利物浦 切尔西 阿森纳 拜仁 尤文"""
_TEAM_ZH = "|".join(sorted(_TEAMS_ZH.split(), key=len, reverse=True))
# "I'm a Warriors fan now", "bengals fan now", "I root for the Eagles these days"
_FAN_EN = re.compile(
    r"^(?:ok |so |well |and )?(?:i'm |im |i am )?(?:now |officially )?(?:an? )?"
    r"(?:huge |big |die-hard |diehard |massive )?(?P<x>(?:[\w.'-]+ ){0,2}?"
    rf"(?:{_TEAM_EN}))(?: fan| supporter)\b"
    r"|\b(?:i|we) (?:now )?(?:root|cheer) for (?:the )?"
    rf"(?P<y>(?:[\w.'-]+ ){{0,2}}?(?:{_TEAM_EN}))\b",
    re.IGNORECASE,
)
_FAN_ZH = re.compile(
    rf"(?P<x>{_TEAM_ZH})(?:的)?(?:球迷|铁粉|死忠|粉丝)|(?:改粉|转粉|粉上了?|支持)(?P<y>{_TEAM_ZH})"
)


def team(clause: str, ctx: Context) -> list[Hit]:
    """The team the user is a fan of (a known team only): favorite.team / favorite.球队."""
    if m := _FAN_ZH.search(clause):
        x = m.group("x") or m.group("y")
        return [Hit(F, "favorite.球队", "team", value=x, content=f"用户最喜欢的球队是{x}")]
    if m := _FAN_EN.search(clause):
        x = (m.group("x") or m.group("y")).strip()
        x = x[:1].upper() + x[1:]
        return [
            Hit(F, "favorite.team", "team", value=x, content=f"User's favorite team is the {x}")
        ]
    return []


# An app or team named alone (a car is read by _a_car).
_KNOWN = re.compile(rf"(?:{_APP_ZH})|(?i:{_APP_EN})|(?i:(?:the )?(?:{_TEAM_EN}))|(?:{_TEAM_ZH})")


def known_thing(word: str) -> bool:
    """Is ``word`` a car, app or team these rules know (a swap between two of them is kept)?"""
    w = word.strip()
    return bool(_a_car(w) or _KNOWN.fullmatch(w))
