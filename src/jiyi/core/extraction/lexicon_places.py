"""Places, organisations, jobs and fields of study, in Chinese and English.

The rules use these lists to tell what a bare name is: "我在上海上班" names the work city, "我在
腾讯上班" the employer; "I work in Manhattan" a place, "I work in finance" a field. They are
deliberately broad (all provincial capitals, the large prefecture cities, world cities, big
employers) and never decide a slot on their own — a rule still needs the phrasing.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from jiyi.core.extraction.lexicon import word_set

__all__ = [
    "CITIES_EN",
    "CITIES_ZH",
    "COMPANIES_EN",
    "COMPANIES_ZH",
    "FIELDS_EN",
    "INSTITUTION_MOVES",
    "JOBS_ZH",
    "MAJOR_RE_ZH",
    "ORG_SUFFIX_ZH",
    "WORKPLACE_MOVES",
    "is_place_zh",
    "is_town_en",
    "named_place_zh",
]

# The mover is a workplace (公司搬到了望京 / "my office relocated to Brooklyn"): where the user
# works moved, not where they live (extraction/infer.py), and no change of their job
# (core/anaphora.py).
WORKPLACE_MOVES = re.compile(
    # 公司把我们整个部门从深圳搬去惠州了: the workplace moves whatever stands between
    # (我们那条线整个搬到昆山去了 / 我们厂搬到昆山了: a production line, a factory)
    r"(?:公司|单位|办公室|工作室|总部|部门|工厂|门店|实验室|店铺|店面|生产线|车间|项目组|"
    r"(?:我们|我的|咱们|我家|咱家)(?:店|厂|那条线|这条线|线))"
    r"[^，,。；;]{0,12}?(?:搬|迁)|"
    r"\b(?:office|company|firm|workplace|team|employer|headquarters|hq|lab|studio|store|shop)"
    r"(?:'s| has| have| had| just| recently| finally)* (?:moved|relocated)\b",
    re.IGNORECASE,
)
# The mover is a place the user goes to but may not work at (我们学校搬到滨江了 / "our school
# moved to Cambridge"): neither the user's home nor, for sure, their workplace.
INSTITUTION_MOVES = re.compile(
    r"(?:学校|医院|幼儿园|诊所|健身房|教会|教堂|俱乐部|球馆|培训班|补习班)[^，,。；;]{0,12}?(?:搬|迁)|"
    r"\b(?:school|hospital|clinic|gym|church|club|college|university|kindergarten|daycare)"
    r"(?:'s| has| have| had| just| recently| finally)* (?:moved|relocated)\b",
    re.IGNORECASE,
)

PROVINCES_ZH = word_set(
    """
    河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州
    云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 东北 华北 华南 江南 西北 西南 中原
    """
)
CITIES_ZH = (
    PROVINCES_ZH
    | word_set(
        """
    北京 上海 广州 深圳 杭州 成都 重庆 南京 武汉 西安 天津 苏州 长沙 郑州 青岛 厦门 大连 宁波
    合肥 福州 济南 沈阳 哈尔滨 长春 昆明 贵阳 南宁 海口 三亚 石家庄 太原 兰州 乌鲁木齐 拉萨
    呼和浩特 银川 西宁 南昌 香港 澳门 台北 台中 台南 高雄 新竹 桃园 基隆 东莞 佛山 珠海 中山
    惠州 江门 汕头 湛江 无锡 常州 南通 徐州 扬州 镇江 泰州 盐城 连云港 淮安 温州 绍兴 嘉兴 湖州
    金华 台州 义乌 舟山 丽水 衢州 芜湖 蚌埠 安庆 泉州 漳州 莆田 赣州 九江 烟台 潍坊 临沂 淄博
    济宁 威海 日照 泰安 洛阳 开封 南阳 新乡 宜昌 襄阳 荆州 十堰 株洲 湘潭 衡阳 岳阳 常德 绵阳
    宜宾 南充 乐山 泸州 德阳 遵义 大理 丽江 桂林 柳州 北海 宝鸡 咸阳 延安 榆林 唐山 保定 廊坊
    秦皇岛 邯郸 大同 鞍山 抚顺 丹东 锦州 吉林市 齐齐哈尔 大庆 牡丹江 包头 鄂尔多斯 喀什 伊犁
    敦煌 景德镇 黄山 张家界 西双版纳 昆山 江阴 常熟 张家港 雄安 浦东 朝阳 海淀 西湖 滨江
    美国 日本 英国 新加坡 德国 法国 加拿大 澳洲 澳大利亚 新西兰 韩国 泰国 马来西亚 越南 意大利
    西班牙 荷兰 瑞士 瑞典 俄罗斯 印度 迪拜 纽约 洛杉矶 旧金山 西雅图 波士顿 芝加哥 伦敦 巴黎
    柏林 东京 大阪 首尔 悉尼 墨尔本 多伦多 温哥华 曼谷 吉隆坡 硅谷 湾区 国外 海外 外地 老家
    中环 铜锣湾 尖沙咀 旺角 九龙 新界 沙田 荃湾 湾仔 新北 板桥 内湖 竹北 屏东 花莲 宜兰 嘉义 彰化
    将军澳 观塘 元朗 屯门 大埔 西贡 天水围 深水埗 黄大仙 葵涌 青衣 东涌 马鞍山 北角 柴湾 鲗鱼涌
    油麻地 红磡 粉岭 上水 离岛 葵青 土瓜湾 何文田 太子 牛头角 蓝田 鸭脷洲 香港仔 大围 火炭
    """
    )
    | word_set(
        # the other prefecture-level cities and a few county-level ones people name as home; not
        # those that are also common words (来宾 "guests", 安康, 中卫, 三明(治), 白山, 黑河, 红河)
        """
    承德 张家口 沧州 衡水 邢台 阳泉 长治 晋城 朔州 晋中 运城 忻州 临汾 吕梁 乌海 赤峰 通辽 呼伦贝尔
    巴彦淖尔 乌兰察布 本溪 营口 阜新 辽阳 盘锦 铁岭 葫芦岛 四平 辽源 通化 松原 白城 延边 鸡西 鹤岗
    双鸭山 伊春 佳木斯 七台河 绥化 宿迁 淮南 淮北 铜陵 滁州 阜阳 宿州 六安 亳州 池州 宣城 南平 龙岩
    宁德 萍乡 新余 鹰潭 吉安 宜春 抚州 上饶 枣庄 东营 滨州 德州 聊城 菏泽 平顶山 安阳 鹤壁 焦作 濮阳
    许昌 漯河 三门峡 商丘 信阳 周口 驻马店 济源 黄石 鄂州 荆门 孝感 黄冈 咸宁 随州 恩施 邵阳 益阳
    郴州 永州 怀化 娄底 湘西 韶关 汕尾 河源 梅州 阳江 清远 潮州 揭阳 云浮 茂名 肇庆 梧州 防城港 钦州
    贵港 玉林 百色 贺州 河池 崇左 儋州 琼海 万宁 文昌 自贡 攀枝花 广元 遂宁 内江 眉山 广安 达州 雅安
    巴中 资阳 阿坝 甘孜 凉山 六盘水 安顺 毕节 铜仁 黔东南 黔南 曲靖 玉溪 保山 昭通 临沧 楚雄 德宏
    迪庆 日喀则 林芝 那曲 铜川 渭南 汉中 商洛 嘉峪关 金昌 天水 武威 张掖 平凉 酒泉 庆阳 定西 陇南
    临夏 甘南 格尔木 石嘴山 吴忠 固原 克拉玛依 吐鲁番 哈密 昌吉 阿克苏 塔城 阿勒泰 石河子 库尔勒
    霍尔果斯 满洲里 二连浩特 延吉 珲春 绥芬河 漠河 瑞丽 景洪 凯里 都匀 兴义 锡林浩特
    """
    )
)
_PLACE_SUFFIX_ZH = re.compile(r"(?:市|省|区|县|镇|乡|村|州|岛|湾|国)$")


def is_place_zh(word: str) -> bool:
    """A city, province, country or district (北京, 浦东新区, 大理州), not an organisation."""
    word = word.strip()
    if not word or ORG_SUFFIX_ZH.search(word):
        return False
    if word in CITIES_ZH:
        return True
    if re.search(r"[人的话菜籍音味腔]$", word):
        return False  # 哈尔滨人 / 上海话: of the place, not the place
    if re.fullmatch(r"(?:社|小|园|校|景|厂|病|营|住宅|生活|服务)区", word):
        return False  # 在社区当志工: a neighbourhood, a campus or a ward, no district
    if re.search(r"[一二三四五六七八九十\d]+[中小]$|附[中小]$", word):
        return False  # 在福州一中当老师: a numbered school, no district
    if any(word.startswith(c) and len(word) <= len(c) + 3 for c in CITIES_ZH):
        return True
    return bool(_PLACE_SUFFIX_ZH.search(word)) and len(word) <= 8


@cache
def _jieba_places() -> frozenset[str]:
    """The words jieba's own dictionary tags as place names (ns): 番禺, 天河, 西乡, 沂南 — the
    districts and towns no suffix names. Read from the dictionary file jieba ships."""
    try:
        import jieba

        path = resources.files(jieba) / "dict.txt"
        lines = path.read_text(encoding="utf-8").splitlines()
    except (ImportError, OSError):
        return frozenset()
    out = set()
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[2] == "ns" and 2 <= len(parts[0]) <= 4:
            out.add(parts[0])
    return frozenset(out)


def named_place_zh(word: str) -> bool:
    """:func:`is_place_zh`, or a place jieba's dictionary names, alone or before a smaller
    one (番禺, 番禺市桥). For where a verb of moving already says a place follows."""
    word = word.strip()
    if is_place_zh(word):
        return True
    places = _jieba_places()
    return word in places or (len(word) <= 6 and any(word[:k] in places for k in (2, 3)))


COMPANIES_ZH = word_set(
    """
    腾讯 阿里 阿里巴巴 字节 字节跳动 百度 美团 京东 华为 小米 快手 拼多多 网易 滴滴 携程 蚂蚁
    蚂蚁金服 微软 谷歌 苹果 亚马逊 英特尔 甲骨文 三星 联想 中兴 大疆 比亚迪 蔚来 小鹏 理想
    宁德时代 中石油 中石化 国家电网 中国移动 中国联通 中国电信 工行 建行 农行 中行 招行 工商银行
    建设银行 农业银行 中国银行 招商银行 平安 中信 华泰 中金 高盛 摩根 麦肯锡 德勤 普华永道 安永
    毕马威 四大 宝洁 联合利华 欧莱雅 星巴克 肯德基 麦当劳 虾皮 希音 米哈游 哔哩哔哩 B站 小红书
    知乎 微博 新浪 搜狐 金山 商汤 科大讯飞 海尔 美的 格力 台积电 联发科 鸿海 富士康 华硕 宏碁
    中芯 金杜 中伦 君合 方达 汉坤 顺丰 中通 圆通 饿了么 淘宝 天猫 抖音 得物 贝壳 链家 万科 碧桂园
    恒大 招商局 中建 中铁 国企 央企 外企 事业单位 体制内 大厂 立讯 华航 长荣 国泰 星宇
    Grab Shopee Lazada Foodpanda Gojek Uber Lyft Deliveroo DoorDash Petronas Maybank CIMB
    """
)
# Words that end an organisation's name: 北京协和医院, 某某科技, 第一中学.
ORG_SUFFIX_ZH = re.compile(
    r"(?:公司|集团|银行|医院|诊所|学校|大学|学院|中学|小学|幼儿园|研究院|研究所|实验室|事务所|律所|"
    r"局|厅|委|报社|电视台|出版社|工厂|厂|店|超市|餐厅|饭店|酒店|中心|科技|网络|传媒|咨询|证券|"
    r"基金|保险|地产|工作室|机构|协会|基金会|医药|制药|汽车|电子|软件|游戏|教育|物流|外企|国企|央企|"
    r"大厂|单位|部门|政府|法院|检察院|派出所|部队|馆|分行|支行|分店|门店|分公司|营业部|造船|船舶|重工|钢铁|化工|电力|航空|航运|建工|精密|光电|智能|机械|制造|纺织|"
    r"服装|食品|塑胶|五金|模具|印刷|家具|建材|陶瓷|鞋业|制衣|服饰|皮具|玩具|灯饰|花炮|烟花|纸业|包装|"
    r"塑料|实业|商贸|贸易|企业)$"
)

# "我是做X的 / 在公司做X": the job or line of work.
JOBS_ZH = word_set(
    """
    产品 产品经理 运营 销售 设计 UI UX 交互 视觉 前端 后端 全栈 开发 测试 算法 数据 数据分析 HR 人事
    财务 会计 审计 出纳 行政 市场 市场营销 营销 客服 编辑 翻译 咨询 投资 投行 律师 法务 医生 护士
    老师 教师 教书 外贸 电商 自媒体 直播 主播 程序员 工程师 设计师 建筑 装修 餐饮 物流 快递 外卖
    司机 保险 中介 房产中介 公务员 警察 军人 厨师 摄影 摄影师 教练 健身教练 会计师 研究员 科研
    博后 博士后 药剂师 医药代表 采购 供应链 质检 运维 网管 IT 技术 技术支持 售前 售后 客户经理
    项目经理 管理 管培生 实习生 猎头 招聘 培训 讲师 导游 空乘 乘务员 飞行员 保安 保洁 家政 月嫂
    育儿嫂 保姆 美容师 美甲师 发型师 理发师 化妆师 模特 演员 歌手 作家 编剧 导演 记者 主持人
    UP主 博主 网红 画师 插画师 漫画家 剪辑 后期 动画 游戏策划 策划 文案 广告 公关 品牌 新媒体
    """
)
# A field of study: 计算机, 临床医学, 金融学, 软件工程.
MAJOR_RE_ZH = re.compile(
    r"(?:学|工程|科学|技术|管理|医学|设计|专业|金融|会计|法律|新闻|英语|日语|计算机|经济|机械|"
    r"化学|物理|数学|生物|建筑|艺术|音乐|美术|护理|药学|心理|哲学|历史|中文|汉语言|统计|"
    r"电子|通信|自动化|土木|材料|环境|能源|农学|兽医|法学|教育|体育|舞蹈|播音|传播|广告|营销|"
    r"电气|信息|软件|人工智能|机器学习|资工|电机|外语|翻译|商科|工商|财会|临床|社工|物流|旅游)$"
)

CITIES_EN = word_set(
    """
    beijing shanghai guangzhou shenzhen hangzhou chengdu chongqing nanjing wuhan xian xi'an tianjin
    suzhou singapore tokyo osaka kyoto seoul london paris berlin munich hamburg frankfurt boston
    seattle chicago toronto vancouver montreal sydney melbourne brisbane perth auckland austin
    dallas houston denver portland phoenix atlanta miami orlando tampa nashville charlotte raleigh
    philadelphia pittsburgh baltimore detroit cleveland columbus cincinnati indianapolis milwaukee
    minneapolis omaha kansas stlouis louisville memphis oklahoma albuquerque tucson sacramento
    oakland berkeley sf manhattan brooklyn queens bronx harlem jersey hoboken newark tacoma
    spokane boise reno vegas honolulu anchorage madison ann arbor princeton cambridge oxford
    manchester liverpool leeds sheffield birmingham bristol glasgow edinburgh dublin belfast cardiff
    amsterdam rotterdam brussels lisbon porto madrid barcelona valencia seville rome milan naples
    florence venice vienna zurich geneva prague warsaw budapest copenhagen stockholm oslo helsinki
    athens istanbul dubai doha cairo lagos nairobi johannesburg capetown mumbai delhi bangalore
    chennai hyderabad pune kolkata karachi lahore dhaka bangkok hanoi manila jakarta taipei
    mexico bogota lima santiago rio paulo aires montevideo calgary ottawa edmonton winnipeg
    halifax quebec adelaide canberra wellington texas california florida ohio oregon colorado
    arizona utah nevada georgia virginia carolina michigan illinois massachusetts washington
    jersey york pennsylvania maryland minnesota wisconsin iowa missouri tennessee kentucky alabama
    louisiana hawaii alaska idaho montana maine vermont connecticut england scotland wales ireland
    canada australia japan korea china india germany france spain italy mexico brazil uk usa
    suburbs countryside bay area midwest
    """
) | {
    "hong kong",
    "new york",
    "new york city",
    "nyc",
    "los angeles",
    "la",
    "san francisco",
    "san diego",
    "san jose",
    "salt lake city",
    "kansas city",
    "st. louis",
    "st louis",
    "new orleans",
    "las vegas",
    "jersey city",
    "washington dc",
    "dc",
    "d.c.",
    "mexico city",
    "sao paulo",
    "buenos aires",
    "cape town",
    "tel aviv",
    "abu dhabi",
    "kuala lumpur",
    "ho chi minh city",
    "the bay area",
    "silicon valley",
    "the suburbs",
    "new jersey",
    "north carolina",
    "south carolina",
    "new zealand",
}
COMPANIES_EN = word_set(
    """
    google amazon microsoft apple meta facebook netflix stripe shopify uber lyft airbnb tesla spacex
    ibm intel nvidia oracle salesforce adobe twitter linkedin spotify deloitte kpmg pwc ey accenture
    mckinsey bcg bain goldman jpmorgan citi citibank walmart pfizer moderna boeing disney nike
    samsung sony toyota siemens bosch unilever nestle pepsico target costco kroger safeway
    starbucks mcdonalds chipotle ups fedex usps dhl kaiser verizon comcast lowes cvs walgreens
    publix aldi
    """
)
# "I work in X": a line of work, not a place.
FIELDS_EN = word_set(
    """
    finance tech technology marketing sales healthcare education retail hospitality construction
    insurance banking consulting law media advertising it hr engineering design research academia
    publishing logistics manufacturing real estate government nonprofit pharma biotech fintech
    software operations accounting journalism film music fashion gaming security cybersecurity
    admin administration customer service support nursing medicine policy
    """
)


@cache
def _towns_en() -> frozenset[str]:
    """~13,800 towns and cities of the US, Canada, the UK, Ireland, Australia, New Zealand and
    of countries where English is written beside other languages (India, Nigeria, the
    Philippines, …; places_en.txt, made by scripts/places_en.py from phonenumbers' area-code
    geodata); read once, on the first question (150 kB, a few milliseconds)."""
    said = resources.files("jiyi.core.extraction").joinpath("places_en.txt").read_text("utf-8")
    return frozenset(line for line in said.splitlines() if line)


def is_town_en(word: str) -> bool:
    """Is ``word`` a known city or town ("Boulder", "San Marcos, TX")? Only for a word the
    sentence already puts where a place goes ("I'm in X now"): the list holds towns named
    like people and things (Madison, Hope), so it never says what a bare word is."""
    w = word.strip().lower()
    return w in CITIES_EN or w.split(",")[0].strip() in _towns_en()
