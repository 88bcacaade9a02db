"""The words around a statement that are not its content, for the rule extractor.

Fillers ("对了", "btw"), "请记住 / remember that", correction markers ("其实", "sorry, I
meant"), asides at the end ("…btw") and a "…不是Y / …, not Y" tail that names the wrong
value. :func:`prepare` strips them from a clause and says whether it was a correction;
:data:`STRONG_MARKER` and :data:`WRONG` are the markers :mod:`.rules` reads on their own.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import EMOJI, LAUGH_EN, LAUGH_ZH, PETS_EN, RELATIONS_ZH

__all__ = [
    "DOUBT",
    "EMPHASIS",
    "HYPOTHETICAL",
    "ITS_EN",
    "MEANT_NEXT",
    "MEANT_TO",
    "NO_VALUE",
    "ORDER",
    "STRONG_MARKER",
    "TOLD_BEFORE",
    "WRONG",
    "apostrophes",
    "prepare",
]

_CORRECTION_ZH = re.compile(
    r"^(?:其实|实际上|事实上|更正一下|更正|纠正一下|纠正|(?:刚才|刚刚|之前|上面|前面)?(?:我)?(?:说|打|写|记|输|发|讲|算|看|填|选)"
    r"(?:错|岔|混|串)(?:字)?了?|不对|我改主意了|改主意了|我是说|我的意思是|应该是|准确地说|确切地说|哦不|不是不是|"
    r"不好意思|抱歉|而是|口误|笔误|搞错了|弄错了|我搞错了|我弄错了|修改一下|改一下)[，,：:\s]*"
)
# Markers that say the last value was wrong (a bare value after them is a correction); "其实 /
# actually" alone also open remarks that correct nothing.
STRONG_MARKER = re.compile(
    r"说错|记错|打错|写错|讲错|算错|填错|说岔|记混|搞混|说串|不对|更正|纠正|我是说|我的意思是|应该是|口误|笔误|搞错|弄错|哦不|"
    r"\b(?:sorry|oops|whoops|i meant|correction|my bad|my mistake|i misspoke|typo|scratch that|"
    r"update|"
    r"i mean|make that|i mixed (?:it|that) up)\b",
    re.IGNORECASE,
)
_CORRECTION_EN = re.compile(
    r"^(?:actually|(?:quick |small |one |a |minor )?(?:correction|update)|sorry|oops|whoops|wait|"
    r"no wait|"
    r"i meant|i mean|what i meant (?:is|was)|fix|edit|"
    r"to be clear|let me correct (?:that|myself)|scratch that|i(?:'ve| have)? changed my mind|"
    r"changed my mind|update|on second thought|my bad|my mistake|i misspoke|typo|i mistyped|"
    r"to correct myself|i was wrong|i got (?:that|it) wrong|i made a mistake|let me rephrase|"
    r"no,? sorry|not quite|i should say|i should have said)\b"
    r"(?: (?:earlier|before|above|there|in my last message))?[,:\s-]*",
    re.IGNORECASE,
)
_FILLER_ZH = re.compile(
    r"^(?:嗯+|啊|哦|噢|对了|还有|另外|顺便说一下|顺便说下|顺便提一下|顺便提下|顺便说|顺便|话说|然后|而且|"
    r"并且|所以|因为|不过|但是|可是|补充一下|补充|另外说一下|"
    r"(?:但|可|而|就)(?=我|他|她|它|最近|现在|后来)|"
    r"哈哈+|说真的|老实说|讲真|说实话|(?:跟|和|同)你(?:说|讲|讲声|说声)(?:一?下|个事|件事|一声)?"
    r"(?:哈|啊|哦|呀|哟|喔)?|"
    r"告诉你(?:一?下|个事|件事)?(?:哈|啊|哦|呀|哟|喔)?|"
    # interjections before what is said: 哎呀我都30了 / 唉，我家猫改名了
    r"(?:哎呀|哎哟|哎|唉|哇|诶|欸|呃|额|嗨|天哪|天啊|啊呀)+(?=[，,！!。\s~～]|我)|"
    # how the truth came out, before it: 结果不是花粉 / 查了才知道不是花粉
    r"(?:结果|原来|后来才知道|查了才知道|一查才知道|检查发现|才发现|没想到)(?=(?:其实|而)?不是)|"
    # 刚翻户口本才发现我是一九八九年出生的: how the user found out, before what they found
    r"[^，,我]{0,8}?(?:才发现|才知道|才弄明白|才晓得|先知道?|先发现)(?:原来)?(?=我))"
    r"[，,：:！!\s~～]*"
)
# Short words like "no" or "ok" are fillers only before a comma ("no more X" is content).
_FILLER_EN = re.compile(
    # "As of last week I work for Costco": when the state began, not what it is
    r"^(?:(?:(?:ok|okay|alright) )?(?:as of (?:last |this |a |the )?(?:\w+ ){0,2}?(?:ago|week|"
    r"weekend|month|year|now|today|"
    r"yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|"
    r"march|april|may|june|july|august|september|october|november|december|spring|summer|"
    r"fall|autumn|winter)|btw|by the way|also|and|so|but|plus|um+|uh+|fyi|"
    r"just so you know|for the record|since|from now on|going forward|"
    r"because|cause|'cause|as|given that|"
    r"and also|anyway|these days|nowadays|lately|right now|quick background|some background|"
    r"background(?: for you| info| information)?|(?:quick |short )?intro|long story short|"
    r"turns out|fun fact|for context|basically|anyway|in short|"
    r"a bit about me|about me|\w+-wise|honestly|tbh|frankly|truthfully|to be honest|ngl|lowkey|"
    # "lol im seventeen now": a laugh before the news
    rf"{LAUGH_EN}|omg|omfg|ok so|okay so|"
    # "after watching that documentary i went full vegan": what led to it, not part of it
    r"after (?:watching|reading|seeing|hearing) (?:that|a|the|this) [\w' ]{2,20}? (?=i )|"
    # "can't believe Lily started second grade": surprise at the news, not part of it
    r"(?:i )?(?:can't|cant|cannot|can not) believe(?: that)?|"
    # "I should mention that I now …": a frame for the news
    r"i (?:should|must|have to|wanted to|want to|just wanted to) (?:mention|say|add|tell you)"
    r"(?: that)?|"
    # "the new vet says she's a Balinese": who found it out, before what they found
    r"(?:the |my |our |her |his )?(?:new )?(?:vet|doctor|doc|allergist|dna test|test)"
    r" (?:says|said|thinks|confirmed|reckons|showed)(?: that)?"
    r"(?= (?:she|he|it)(?:'s| is)\b| (?:my|our) | i'?m\b| i am\b))\b[,:\s]*|"
    r"apparently\b[,:\s]*|"
    r"(?:oh|well|hey|ok|okay|yeah|yes|no|lol|haha|honestly|tbh|ugh|ah|aw|whoa|wow|"
    r"(?:big|good|great|some|fun|exciting|sad|quick|small) (?:news|update)|heads up|"
    r"to be honest|hmm+)\s*[,:!]\s*)",
    re.IGNORECASE,
)
# 我妈打电话来，说我姐搬到成都了: what someone said of a relative; the relative is the subject
# (说我要多穿点 stays their words about the user: only before a relative).
_TOLD_OF_KIN_ZH = re.compile(
    r"^(?:(?:他|她|还|又)?(?:听)?说|据说|听讲|佢话)(?=(?:我们?|咱)(?:的|家)?(?:"
    + "|".join(sorted(map(re.escape, RELATIONS_ZH), key=len, reverse=True))
    + "))"
)
# 这学期已经帮孙女转到六家国小了: a move done for a relative, said as the relative's
_DONE_FOR_KIN_ZH = re.compile(
    r"^(?P<t>[^，,]{0,10}?)(?:帮|给|把)(?:我)?(?:家)?(?P<r>"
    + "|".join(sorted(map(re.escape, RELATIONS_ZH), key=len, reverse=True))
    + r")(?P<v>转学?|换学校)(?=到|去|进)"
)


def _done_for_kin(m: re.Match[str]) -> str:
    return f"我{m['r']}{m['v']}"  # (when it was done and by whom is no part of the fact)


# "请记住 / remember that" only frames the statement that follows.
_REMEMBER = re.compile(
    r"^(?:请|你|麻烦)?(?:帮我)?(?:记住|记一下|记下来|记下|记着|记好了?)[：:，,\s]*|"
    r"^(?:please\s+)?(?:remember|note|keep in mind|make a note)(?:\s+that)?[:,\s]+",
    re.IGNORECASE,
)


# Asides at the end of an English clause: "i'm 29 btw", "born in 1987 if that helps".
# Emoji and laughter after what is said (我三十三岁了😅 / 住杭州哈哈 / "in Leeds now 😊"):
# tone, not content.
_TRAILING_NOISE = re.compile(
    # (升初二了哈 / 开网约车了 hhh: a lone 哈 after 了, "hhh")
    rf"(?:[\s~～,，!！.。]*(?:{EMOJI}|{LAUGH_ZH}|嘻{{2,}}|(?<=[了啦的呢])哈|(?<![a-z])h{{3,}}|"
    rf"(?<![a-z]){LAUGH_EN}))+$",
    re.IGNORECASE,
)
_TRAILING_EN = re.compile(
    r"(?:,?\s+(?:btw|lol|haha|fyi|if that helps|just so you know|by the way|though|tbh|honestly|"
    r"to be honest|if that matters|for what it's worth|fwiw|i guess|anyway|"
    r"if you need to know|for context)[.!]*)+$",
    re.IGNORECASE,
)

_ACTUALLY_TAIL_EN = re.compile(r",?\s+actually[.!]*$", re.IGNORECASE)

# "我其实是…" / "我女儿其实叫果果": the marker sits after the subject.
_INNER_MARKER_ZH = re.compile(r"^(?P<s>我[^，,其实际事应]{0,5}?)(?:其实|实际上|事实上|应该是)")
# "…才对 / …才是对的": the value before it is the right one (a correction)
_RIGHT_TAIL_ZH = re.compile(r"(?:才对|才是对的|才是|就对了)(?:啦|哦|呀|的)?$")
# A tail naming the wrong value: "我妹妹叫李静不是李婷", "I was born in 1986 not 1987".
# (是不是天天喝酒 asks; it names nothing wrong)
_NOT_TAIL_ZH = re.compile(r"(?<=[\u4e00-\u9fff\w])(?<!是)[，,]?(?:而)?不是(?P<y>[^，,。不]{1,12})$")
_NOT_TAIL_EN = re.compile(
    r"(?P<pre>\S)(?:,\s*|\s+)(?:not|instead of|rather than)\s+(?P<y>[\w'. -]{1,30})$", re.I
)
# Words before "not" that make it an ordinary negation ("I'm really not a morning person").
_AUX_EN = frozenset(
    "do does did am is are was were can could will would should have has had 'm 're i i'm i'd "
    "really honestly just definitely rather probably certainly absolutely usually still also "
    "actually so very quite simply truly maybe perhaps almost".split()
)


# A clause that only names the wrong value: "不是小丽", "not 1987", "刚才说成围棋了".
WRONG = re.compile(
    r"^(?:原来|其实|结果)?(?:而)?(?:不是|唔系|唔係)(?P<y>.*)$|^not\s+(?P<z>.*)$|"
    r"^(?:刚才|之前|上次|我)?(?:说成|写成|打成|说错成|记成)(?:了)?(?P<w>.+?)了?$",
    re.IGNORECASE,
)


def _not_tail(text: str) -> tuple[str, str | None]:
    """Split off a tail that names the value being replaced."""
    m = _NOT_TAIL_ZH.search(text)
    if m and m.start() >= 2:  # 是叫豆浆不是豆花啦: the particle is not part of the value
        return text[: m.start()].strip(), re.sub(
            r"[了啦呀啊哦吧呢嘛哈]+$", "", m.group("y")
        ).strip()
    m = _NOT_TAIL_EN.search(text)
    if m:
        before = text[: m.start("pre") + 1]
        last = before.split()[-1].lower() if before.split() else ""
        if last not in _AUX_EN and not last.endswith(("n't", "'m", "'re")):
            return before.strip(), m.group("y").strip()
    return text, None


# A pet's breed denied before the right one is said ("Miso isn't a Siamese at all, …she's a
# Balinese"): the clause names the value taken back, as a "…, not Y" tail does.
_NOT_A_KIND = re.compile(
    r"^(?:(?-i:[A-Z])[a-z]+|he|she|it)(?: isn't| is not|'s not) (?:really |actually )?an? "
    r"(?P<y>[\w' -]{2,30}?)(?: at all| after all)?$",
    re.IGNORECASE,
)


# Contractions typed without the apostrophe ("ive switched", "im allergic", "dont eat"): only
# forms that are no other English word ("ill", "well", "were", "its" stay as they are).
_BARE_CONTRACTIONS = re.compile(
    r"\b(?:(?P<i>i)(?P<iv>m|ve)|(?P<n>do|does|did|is|was|are|were|have|has|had|ca|could|"
    r"would|should|wo)(?P<nt>nt)|(?P<t>that|there|what|they|you|she)(?P<tv>re|ve|s))\b",
    re.IGNORECASE,
)


# "our 'Maine Coon' is a Norwegian Forest Cat": quotes around what something was called are
# no part of the words (an apostrophe inside a word is never one of them)
_SCARE_QUOTES = re.compile(
    r"(?<![\w'\"])(?P<q>['\"])(?P<x>[A-Za-z][\w -]{1,38}\w)(?P=q)(?![\w'\"])"
)


def apostrophes(text: str) -> str:
    """Contractions typed without their apostrophe (im, isnt, thats, shes) written with it."""

    def put(m: re.Match[str]) -> str:
        if m.group("i"):
            return f"{m.group('i')}'{m.group('iv')}"
        if m.group("n"):
            return f"{m.group('n')}n't"
        if m.group("t").lower() in ("that", "there", "what") and m.group("tv").lower() != "s":
            return m.group(0)  # "thatve" is nothing
        if m.group("t").lower() == "she" and m.group("tv").lower() != "s":
            return m.group(0)  # "shere" is nothing
        if m.group("t").lower() in ("they", "you") and m.group("tv").lower() == "s":
            return m.group(0)  # "yous"
        return f"{m.group('t')}'{m.group('tv')}"

    # "its sesame!!" opening a clause: "it's" (the possessive does not open one: "its own")
    text = re.sub(r"^(?:(?:and|but|so) )?\bits\b(?= (?!own\b)[a-z])", _its, text, flags=re.I)
    return _BARE_CONTRACTIONS.sub(put, text)


def _its(m: re.Match[str]) -> str:
    return m.group(0)[:-1] + "'s"


def prepare(clause: str) -> tuple[str, bool, str | None]:
    """Strip fillers, "remember that" and correction markers; report whether one was a
    correction marker, and the value a "…, not Y" tail says was wrong."""
    text = apostrophes(clause.replace("’", "'").replace("‘", "'").strip())
    text = _SCARE_QUOTES.sub(r"\g<x>", text)
    corrected = False
    prev = None
    while prev != text:
        prev = text
        for pattern in (_FILLER_ZH, _FILLER_EN, _REMEMBER, _TOLD_OF_KIN_ZH):
            text = pattern.sub("", text, count=1).strip()
        for pattern in (_CORRECTION_ZH, _CORRECTION_EN, _INNER_MARKER_ZH):
            stripped = pattern.sub(r"\g<s>" if pattern is _INNER_MARKER_ZH else "", text, count=1)
            stripped = stripped.strip()
            corrected = corrected or stripped != text
            text = stripped
    text = _TRAILING_EN.sub("", _TRAILING_NOISE.sub("", text)).strip()
    text = _DONE_FOR_KIN_ZH.sub(_done_for_kin, text, count=1)
    # "I'm 59 actually", "it's 1992, actually": a trailing "actually" sets a value right
    if (tail := _ACTUALLY_TAIL_EN.search(text)) and tail.start() > 0:
        text, corrected = text[: tail.start()].strip(), True
    if (right := _RIGHT_TAIL_ZH.search(text)) and right.start() >= 2:
        text, corrected = text[: right.start()].strip(), True
    text, replaces = _not_tail(text)
    if (
        replaces is None
        and (kind := _NOT_A_KIND.match(text))
        and kind.group("y").lower() in PETS_EN
    ):
        replaces = kind.group("y")  # "Miso isn't a Siamese at all": the breed comes next
    return text, corrected or replaces is not None, replaces


# 我上次说我32是骗你的 / 上回跟你说老伴七十一，(不对): what the user told before, now called wrong
_TOLD_ZH = (
    r"^(?:欸|诶|哎|唉|嗯)?我?(?:上次|之前|刚才|前面|上回|那天|以前)(?:跟你|和你|给你|同你)?(?:说|讲|讲过|说过)"
    r"(?:的)?(?:我)?(?P<x>[^，,]{1,12}?)"
)
_TOLD_WRONG_ZH = re.compile(
    _TOLD_ZH
    + r"(?:是骗你的|是瞎说的|是乱说的|是随便说的|是开玩笑的|说错了|是错的|不对)[啦了的哈]*$"
)
_TOLD_THEN_ZH = re.compile(_TOLD_ZH + r"[啦了的哈]*$")
_NUMBER_ZH = re.compile(r"[\d一二两三四五六七八九十百]+(?:岁|歲)?")


def told_wrong_zh(clause: str, marked_next: bool) -> str | None:
    """The value a clause says the user told before and now calls wrong (我上次说我32是骗你的
    → 32; 上回跟你说老伴七十一 followed by 不对 (``marked_next``) → 七十一), or None."""
    m = _TOLD_WRONG_ZH.match(clause) or (_TOLD_THEN_ZH.match(clause) if marked_next else None)
    if not m:
        return None
    numbers = _NUMBER_ZH.findall(m["x"])
    return re.sub(r"[岁歲]$", "", numbers[-1]) if numbers else m["x"]


# Cues the clause loop of rules.RuleExtractor reads.
# A clause that makes the rest of the message conditional, and hedges that take back a wish.
# A dream or a story is no news of the user's, to the end of the message: 我昨晚梦见自己搬到
# 上海了, "I dreamt I moved to Paris", 电视剧里女主从华为辞职了, "in the show the guy quits Google"
DREAM = re.compile(
    r"^(?:我|俺)?[^，,。我]{0,6}?(?:梦见|梦到|做梦|做了个梦|梦里)|"
    r"^(?:在)?(?:这部|那部|这本|那本)?(?:电视剧|剧|电影|小说|动漫|漫画|游戏|综艺|番|书|短剧)里|"
    r"^(?:i )?(?:\w+ ){0,2}?(?:dreamt|dreamed|had a dream|in my dream)\b|"
    r"^(?:in|on) (?:the|this|that|a|my) (?:show|movie|film|book|novel|series|game|episode|"
    r"drama|anime|dream)\b",
    re.IGNORECASE,
)
HYPOTHETICAL = re.compile(
    rf"^(?:如果|要是|假如|假设|万一|倘若)|^(?:if|in case|suppose|supposing)\b|{DREAM.pattern}",
    re.IGNORECASE,
)
# A wish (有时候真想离开青岛) and a clause without its own subject that goes on with it
# (搬到大理去住): the move is wished too.
WISH_ZH = re.compile(
    r"^(?:我|俺)?(?:有时候?|其实|真的?|好|很|特别|一直|老是|总)*(?:想|希望|梦想|巴不得)"
)
WISHED_ON = re.compile(r"^(?:再|就|然后)?(?:搬|去|到|辞|换|转|改|买|养|开|回)")
DOUBT = re.compile(r"(?:应该|估计|大概)?不(?:太)?可能|\b(?:probably not|never going to happen)\b")
# An intention not carried out (其实我本来想把狗狗的名字改成小白，后来还是叫阿福) or only weighed
# (我想过把拿铁换成燕麦拿铁, "I thought about moving to Denver"): that clause
# changes nothing; what follows it says what holds.
MEANT_TO = re.compile(
    r"本来(?:想|打算|要|准备)|原本(?:想|打算|要|准备)|原来(?:想|打算)|本想|差点(?:就)?|想过|考虑过|"
    r"\b(?:was going to|were going to|meant to|was about to|(?:thought about|considered) \w+ing|"
    r"(?:almost|nearly) (?:\w+ed|took|went|got|left|quit|bought|sold|gave|made|ran))\b",
    re.IGNORECASE,
)

# Emphasis after the value a "not …" clause takes back ("not a heeler at all").
EMPHASIS = re.compile(r"\s+(?:at all|whatsoever|either|after all)$", re.IGNORECASE)

NO_VALUE = re.compile(r"|(?:那|这)[儿里边]?|[Tt]here|[Hh]ere|it|that")
ORDER = re.compile(
    r"\b(?:that's|thats|that is) (?:my|what i) (?:usual|order|go-to|always get|usually get|"
    r"always order|usually order)\b|\bmy (?:usual|standard|regular) order\b|"
    # "can u save my new usual? iced brown sugar oatmilk shaken espresso"
    r"\bmy new (?:usual|order|go-to)\b|"
    r"^(?:my )?(?:usual|order|go-to)\s*:",
    re.IGNORECASE,
)


TOLD_BEFORE = re.compile(r"^i (?:told you|said)(?: that)? (?P<rest>i\b.+)$", re.IGNORECASE)
MEANT_NEXT = re.compile(r"^(?:i meant|i mean|meant)\b", re.IGNORECASE)

# "(not allergic to dogs,) its horses lol": what it is instead
ITS_EN = re.compile(
    r"^(?:but |and |so )?(?:it's|its|it is|it was|it turned out to be) (?:actually |really )?"
    r"(?P<x>[a-z][a-z' -]{1,30}?)(?:\s+(?:lol|lmao|haha+|tho|though))?[.!]*$",
    re.IGNORECASE,
)
