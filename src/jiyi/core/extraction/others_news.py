"""A message that is someone else's news from start to end.

"Chai, Emeka don resign from GTBank o! He's moved to Abuja now", 小周上个月从网易离职了，现在去
字节做运营。嫌滨江房租太贵，也搬去余杭了: the message opens with another person and the user
never speaks of themself in it, so what follows, with "he" or no subject at all, sentence
after sentence, is that person's. None of it may change a fact of the user's. A clause says
the user's own doing when it opens with 我 / 俺 / 咱 / I / my / we (unless that opens someone
else: 我们组长, "my PT", 我关注的那个博主); the user named only as who was told (跟我说, "told
me") or as a comparison (跟我学的, "like me") is no such clause. Interjections before the news
(救命, 老铁, "Did I tell you", "omg") are passed over.

Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.subject import (
    BOSS_GONE,
    DONE_TO_ME,
    LANDLORD,
    ROUTINE,
    SAID_OF_ME,
    Who,
    named_first,
    read_subject,
    strip_openers,
)
from jiyi.core.text import has_cjk, to_simplified

__all__ = ["others_news"]

_CLAUSES = re.compile(
    r"(?:(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bProf)(?<!\bSt)\.|[。．!！?？，,;；:：\n—–~～])+"
    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])",
    re.IGNORECASE,
)
# What someone does to the user's own routine, dose or care: 教练周二没空，网球课以后改到周四下午;
# "my doctor upped the lisinopril to 20 mg" (left to the readers that know whose it is)
_FOR_THE_USER = re.compile(
    rf"{ROUTINE.pattern}|"
    r"^(?:my|the|our) (?:doctor|doc|gp|dentist|nurse|pharmacist|allergist|specialist|physio|vet)\b|"
    r"^(?:我的?)?(?:医生|大夫|主治)",
    re.IGNORECASE,
)
# Words before the news that are not its subject: "omg", "Ah sure", "Did I tell you", "Saw on
# insta that", 跟你说
_LEAD = re.compile(
    r"^(?:(?:omg|lol|lmao|ah sure|ah|oh|ahh|chai|eish|arre|wow|so|well|btw|haha+|ugh|"
    r"(?:did|have) i (?:tell|told) (?:you|u)|guess what|you know what|(?:i )?(?:saw|read|heard) "
    r"(?:on \w+ |online |somewhere )?that|turns out|apparently)\b[,!:]?\s*)+",
    re.IGNORECASE,
)
# Someone by a title and surname, a nickname, 有个家长, 那个搞民宿的Tony, 阿Ben
_TITLED = re.compile(
    r"^[王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁"
    r"魏薛叶余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段钱汤]"
    r"(?:总|哥|姐|工|师傅|老师|经理|医生|主任|老板|叔|婶|姨)|"
    r"^(?:胖子|大壮|瘦猴|大胖)|^大[\u4e00-\u9fff](?=那|这|他|她)|"
    r"^(?:群里|班里|公司里|楼里)?有(?:个|位|一个|一位)|^那个[^，,。我]{1,10}的[A-Za-z\u4e00-\u9fff]{1,8}|"
    r"^阿[A-Z][a-z]+"
)
# A question to the assistant is no doing of the user's ("Should I send him some recs?")
_ASKS = re.compile(
    r"^(?:should|can|could|would|do|does|any|what|how|who|is it|will|shall) (?:i|you|u|we)\b|"
    r"^(?:你说|你觉得|要不要|帮我|我该|我要不要)",
    re.IGNORECASE,
)
# A clause that is only a greeting, an exclamation or a "let me tell you"
_ASIDE = re.compile(
    r"^(?:(?:救命|绝了|笑死|笑不活了|老铁|家人们|天哪|我的天|哈+|嘿+|哎+|唉+|欸+|诶+|啊+|哇+|好家伙|"
    r"您猜怎么着|你猜怎么着|跟你说|跟你讲|同你讲|话你知|告诉你|跟你唠个嗑|说个事|对了|话说|中不中|"
    r"我跟你说)[\w ]{0,4}|(?:omg|lol|lmao|wow|oh|ah|ahh|eish|chai|arre|yaar|guess what|"
    r"you know what|so|well|btw|ok|okay|update|news|mate|ah sure)\b[\w ]{0,3})$",
    re.IGNORECASE,
)
# Someone else opening with a role or a possessive the subject reader does not list: "my PT",
# "the shift lead", 我关注的那个博主, "our watchman was saying Mr. Iyer …"
_ROLE = re.compile(
    r"^(?:(?:my|our|the|that|this|a) (?:new |old |former |night |day |shift |head |store )?"
    r"(?:pt|trainer|physio|barber|manager|supervisor|boss|owner|landlord|landlady|neighbou?r|"
    r"coworker|colleague|"
    r"hairdresser|shift lead|team lead|tl|watchman|doorman|security guard|driver|nanny|"
    r"secretary|society secretary|intern|guy|girl|lady|man|woman|bloke|lad|dude|chef|vet|"
    r"dentist|doctor|gp|nurse|pharmacist|pastor|priest|principal|lecturer|prof(?:essor)?|"
    r"streamer|influencer|youtuber|blogger)\b|"
    r"half (?:my|our|the) |(?:some|most|a few|several|all) of (?:my|our|the) )|"
    r"^(?:(?:我们?|俺们?)(?=的|关注|认识|隔壁|对面|楼上|楼下|店|公司|单位))?的?"
    r"(?:关注的|认识的|隔壁的?|对面的?|楼上的?|楼下的?)?"
    r"(?:那个|那位|这个)?[^，,。我是当做]{0,6}?(?:博主|主播|网红|实习生|快递小哥|外卖小哥|工读生|"
    r"老板娘|姐们|哥们)|"
    r"^(?:(?:我们?|俺们?)(?=的|关注|认识|隔壁|对面|楼上|楼下))?的?"
    r"(?:关注的|认识的|隔壁的?|对面的?|楼上的?|楼下的?|那个|那位)"
    r"[^，,。我是当做]{0,6}?(?:保安|司机|师傅|大哥|大姐|小哥|阿姨|大爷|大妈|店员)",
    re.IGNORECASE,
)
# The user only told something, or named as a comparison: not the user's own doing
_TOLD_ME = re.compile(
    r"(?:跟|和|同|给|对)我(?:说|讲|讲过|提|话|学)|告诉我|通知我|(?:told|tells|texted|messaged|"
    r"rang|called|showed|asked) me\b|\blike me\b|\bwith me\b",
    re.IGNORECASE,
)
_SELF_ZH = re.compile(r"我|俺|咱")
_SELF_EN = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|our|us)\b", re.I)


def _head(clause: str) -> str:
    """``clause`` without the words that open it without being its subject."""
    return _LEAD.sub("", strip_openers(clause))


def _opens_with_someone(clause: str) -> bool:
    head = _head(clause)
    if _ROLE.match(head) or _TITLED.match(head):
        return True
    told = _TOLD_ME.sub("", head)  # 阿凯昨天跟我说他离开台积电了: 阿凯's
    return read_subject(head) in (Who.OTHER, Who.THEY) or named_first(told)


def _users_own(clause: str, opening: bool = False) -> bool:
    """Does ``clause`` speak of the user's own doing (not only tell them or compare)? In the
    clause that opens with someone else, a word of the user's in that someone (我们组长, "my
    PT") does not count; one after it does (老板说我SQL写得好, "they've moved me")."""
    if not opening and (_opens_with_someone(clause) or _ASKS.match(strip_openers(clause))):
        return False
    said = _TOLD_ME.sub(" ", _head(clause))
    if has_cjk(said):
        return any(m.start() >= (2 if opening else 0) for m in _SELF_ZH.finditer(said))
    words = said.split()
    return any(_SELF_EN.fullmatch(w.strip(".,!?'\"")) for w in words[(2 if opening else 0) :])


def others_news(text: str) -> bool:
    """Is ``text`` someone else's news from start to end (see the module doc)?"""
    plain = to_simplified(text) if has_cjk(text) else text
    clauses = [c.strip() for c in _CLAUSES.split(plain) if c.strip()]
    while clauses and _ASIDE.match(strip_openers(clauses[0])):
        clauses = clauses[1:]
    if not clauses or not _opens_with_someone(clauses[0]):
        return False
    head = _head(clauses[0])
    if _FOR_THE_USER.search(head) or any(_FOR_THE_USER.search(c) for c in clauses[1:]):
        return False
    if any(r.match(head) for r in (BOSS_GONE, DONE_TO_ME, LANDLORD, SAID_OF_ME)):
        return False  # 房东要把房子收回去卖…现在住沙鹿了: what they did to the user
    if _users_own(clauses[0], opening=True):
        return False
    return not any(_users_own(c) for c in clauses[1:])
