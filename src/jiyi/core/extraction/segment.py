"""Cutting a message into clauses and recognising text that holds nothing to remember.

Everything here is a cheap filter that runs before the slot rules, so a clause that is
chit-chat, a question, a request or a click log never reaches them.
"""

from __future__ import annotations

import re
import unicodedata

from jiyi.core.extraction.lexicon import EMOJI, LAUGH_EN, LAUGH_ZH, RELATIONS_ZH, word_set
from jiyi.core.text import has_cjk

__all__ = [
    "is_chitchat",
    "is_passive",
    "is_request_or_question",
    "split_clauses",
]

# Clause boundaries: sentence punctuation, plus conjunctions that start a new statement.
# English "and"/"but" only split when a new subject or verb follows, so "salt and pepper"
# stays one object.
_SPLIT_RE = re.compile(
    # an emoji, or laughter between words, ends a thought in chat ("turned three on sunday
    # 🎉🐶 we got him a pup cup", "turned thirty yesterday haha feeling old")
    rf"\s*{EMOJI}\s*|\s+{LAUGH_EN}\s+|(?<=[\u4e00-\u9fff]){LAUGH_ZH}(?=[\u4e00-\u9fff])|"
    r"[，,。；;！!？?\n…~～]+|(?<!\bSt)(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bJr)(?<!\bMt)"
    r"\.(?=\s|$)|\s+-\s+|\s*[—–]+\s*"
    r"|(?:而且|并且|但是|不过(?!敏)|可是|另外|还有就是|然后)"
    # "My wife and I are expecting": "and I" with a plural verb joins a subject, not clauses
    r"|(?<!^me)\s+(?:but|and also|and|plus|although|though|so|while|whereas)\s+"
    r"(?!(?:i|me) (?:are|were|'re|split|broke up)\b)(?=(?:i|i'm|i've|i'd|my|"
    r"also|"
    r"don't|never|hate|love|like|prefer|am|work|live|usually|always|please|he|she|he's|she's|his|"
    r"her|we|we're|our|now i|plays|loves|likes|goes|works|lives|has|studies|attends|takes|"
    r"went|studied|moved|grew|got|used|now work|now live|still live|still work|"
    # "my grandma is 89 and still cooks every sunday": a second statement of her
    r"still (?:cooks|drives|works|runs|plays|swims|bakes|gardens|teaches)|"
    r"[A-Z][a-z]+ (?:is|'s|just turned|turned) \d|"
    # "The kids voted and the guinea pig is Pickles now": a new subject with its own verb
    r"the [a-z]+(?: [a-z]+)? (?:is|are|was|were|got|has|have)|allergic to)\b)"
    # "I'm 16 and in 11th grade", "I'm 34 and from Ohio": after an age, a second predicate
    r"|(?<=\d)\s+and\s+(?=(?:in|from|based|living|working|studying)\b)"
    # "he's Sausage now not Rocky honestly it suits him": dictated, a new value, the old one
    # set against it, a new thought
    r"|(?<=\bnow)\s+(?=not\s+(?-i:[A-Z]))"
    r"|(?<=\w)(?:\s+(?:and|but|so))?\s+(?=(?:honestly|tbh|ngl)\s+(?:it|it's|that|he|she|i|we|"
    r"they|the)\b)"
    # "we moved up the coast end of last month we live in caloundra now": dictated, no stop
    r"|(?<=[a-z])\s+(?=(?:we|i) (?:now )?(?:live|are living|'re living) in\s)",
    re.IGNORECASE,
)
# "I'm an accountant so end of month is always crazy": a consequence with its own subject.
_SO_RE = re.compile(
    r"\s+so\s+(?=[a-z]+(?: [a-z]+){0,3} (?:is|are|was|were|gets|get|can|will|has|have)\b|"
    # "…put her foot down so it's milk and no sugar now": what follows is the user's now
    r"(?:it's|its|it is|i'm|im|i am|i've|i'll|now i|i now|no more|no longer|he's|she's)\b)",
    re.I,
)

_CHITCHAT_ZH = word_set(
    """
    好的 好 好吧 好呀 好哒 好滴 好嘞 行 行吧 可以 可以的 没问题 嗯 嗯嗯 嗯呢 嗯好 哦
    哦哦 噢 喔 对 对的 对啊 是的 是啊 是吗 没错 谢谢 谢谢你 谢谢啦 谢啦 多谢 感谢 辛苦了
    不客气 在吗 在不在 你好 您好 嗨 哈喽 早 早上好 早安 中午好 下午好 晚上好 晚安 拜拜
    再见 回头见 明白 明白了 知道了 了解 收到 懂了 原来如此 厉害 牛 太棒了 真棒 不错 算了
    没事 没关系 啊 哇 天哪 真的吗 真的 好厉害 有道理 你真好 好的谢谢 好的呀 ok了 棒 赞
    加油 晕 唉 哎 嘿
    """
)
_CHITCHAT_EN = word_set(
    """
    ok okay k kk sure yes yeah yep yup no nope nah thanks thank you thx ty cool nice
    great awesome perfect fine hi hello hey bye goodbye lol lmao rofl wow oh oops hmm
    right alright np welcome cheers
    """
) | {
    "thank you",
    "thanks a lot",
    "thank you so much",
    "thanks so much",
    "got it",
    "i see",
    "sounds good",
    "no problem",
    "you're welcome",
    "good morning",
    "good night",
    "good evening",
    "good afternoon",
    "see you",
    "see ya",
    "all right",
    "are you there",
    "you there",
    "never mind",
    "nice to meet you",
    "pleased to meet you",
    "good to know",
    "nevermind",
    "hey there",
    "that's great",
    "that's cool",
    "makes sense",
    "ok thanks",
    "okay thanks",
    "how are you",
    "what's up",
    "nice one",
}
_LAUGH_RE = re.compile(
    r"^(?:[哈呵嘿嘻]{2,}|(?:ha){2,}h?|(?:he){2,}|lo+l|xd+|2333+|666+|嗯+|哦+|好+)$"
)
_WEATHER_RE = re.compile(
    r"(?:好|真|太|有点|超|特别)?(?:热|冷|闷)(?:啊|呀|死了|哦)?$|天气|下雨|下雪|晴天|阴天|刮风|雾霾|"
    r"\b(?:so|very|really|too) (?:hot|cold|humid)\b|(?<!under the )\bweather\b|\braining\b|"
    r"\bsnowing\b|"
    r"(?-i:\b[Ss]unny\b(?! [A-Z]))|\b(?:lovely|beautiful|nice) day\b",
    re.IGNORECASE,
)
_FIRST_PERSON_RE = re.compile(
    r"我(?!们)|\b(?:i|i'm|i've|my|me|we|we're|we've|our|us)\b", re.IGNORECASE
)

_PASSIVE_RE = re.compile(
    r"^\s*(?:\[[^\]]*\]|【[^】]*】|<[^>]*>)\s*$"
    r"|^\s*(?:用户|顾客|访客)\s*(?:已)?(?:点击|浏览|查看|收藏|加购|购买|打开|搜索|关注|分享|领取|评价|"
    r"下单|退出|登录|进入|停留|滑动|播放)"
    r"|^\s*(?:the )?(?:user|customer|visitor|client)\s+(?:has\s+)?(?:clicked|viewed|opened|tapped|"
    r"browsed|searched|added|purchased|bought|liked|shared|scrolled|visited|subscribed|logged|"
    r"played|watched|left|entered)\b"
    r"|^\s*(?:clicked|viewed|opened|tapped|browsed|searched for|scrolled|added \S+ to cart)\b"
    r"|^\s*(?:event|action|click|view|page_view|impression)\s*[:=]",
    re.IGNORECASE,
)

_QUESTION_ZH_RE = re.compile(
    r"[吗嘛呢么]$|什么|啥|哪里|哪儿|哪个|哪家|哪些|哪种|多少|几点|几个|几号|怎么|怎样|如何|为什么|为啥|"
    r"谁|是不是|能不能|可不可以|要不要|有没有|对不对|好不好|会不会|是否|想问|请问|问一下|问问"
)
_NOT_QUESTION_ZH = re.compile(
    r"(?:没有?|不|并不|从不)(?:什么|怎么|多少|啥|几个)|(?:什么|怎么|谁|哪儿?|啥)(?:都|也)|或多或少|不管怎么|"
    r"多少有(?:点|些)|要不要紧|饿了么"  # 饿了么: the delivery app, not a question
)
# Requests to the assistant: 帮我…/给我推荐…; "别推荐 X" is a preference and is excluded.
_REQUEST_ZH_RE = re.compile(
    r"^(?:请|麻烦|劳驾)?(?:你)?(?:帮我|帮忙|给我|替我|请你|帮你|推荐|来一?[杯份个]|"
    r"查一?下|搜一?下|看看|订|提醒我|告诉我|说说|讲讲|翻译|算一?下|"
    r"(?:明天|今晚|到时候|回头|待会儿?)?(?:记得|别忘了)(?:提醒|叫|告诉)我)"
)
_QUESTION_EN_RE = re.compile(
    r"^(?:what|what's|where|when|why|who|whom|whose|how|which|can you|could you|would you|"
    r"will you|do you|does|did you|is it|is there|are there|are you|should i|shall we|may i|"
    r"tell me|recommend|suggest|find me|help me|show me|give me|"
    r"book(?! club| group| store| shop| fair)|order|remind me|let's|"
    r"let me|please (?:help|find|show|give|book|order|recommend|suggest|tell)|"
    r"do i|am i|did i|have i|what do i|i wonder|i'd like(?! to (?:learn|become|get better|improve|"
    r"travel|visit|run|start|try|move|buy|save|lose|speak|get into|own|retire|write|finish))|"
    r"i would like(?! to (?:learn|become|travel|visit|run|start|move|buy|save|lose|speak|own|"
    r"retire))|"
    r"can i|could i|i need you|i need (?:a|an|some|to (?:book|find|get|know))|"
    r"i'm looking for a (?!job))\b",
    re.IGNORECASE,
)


def _bare(text: str) -> str:
    """Lower-cased text without punctuation, symbols, emoji or surrounding spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    kept = [ch if unicodedata.category(ch)[0] in "LN" or ch in " '" else " " for ch in text]
    return " ".join("".join(kept).split())


# A space between Chinese words, in chat typed without commas ("柠檬茶喝腻了 现在换成冻鸳鸯").
# (所里把我transfer到苏州office了 this week开始: a finished statement before English words too,
# but 医生开了 Amlodipine: a verb's object in English)
_CHAT_SPACE = re.compile(
    r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])|(?<=[了啦咯喇])(?<![开吃买换用打喝养]了)\s+(?=[A-Za-z])|"
    # 我上禮拜生日 29了欸: the age the birthday brought, its own clause
    r"(?<=生日)\s+(?=[\d一二三四五六七八九十])|"
    # 现在叫 Mochi 小孩嫌旺财太土: after a Latin name, a new subject starts a new clause
    r"(?<=[A-Za-z])\s+(?=(?:小孩|孩子|老公|老婆|他们|她们)[\u4e00-\u9fff])|"
    # 写得比他还好 lah 下个月…: a Malaysian / Singaporean sentence particle ends the clause
    r"(?<=[\u4e00-\u9fff])\s+(?:lah|leh|lor|loh|meh|sia)(?:\s+|$)"
)


# Dictated chat without any break: a finished statement (…了) and a new subject or time
# after it (开学了儿子升初二了, 单子太少了这个月开始改跑饿了么了, 被腾讯挖走了现在在鹅厂做后端);
# not 给了我 / 告诉了我 (the user is the object there).
_KIN_ZH = "|".join(sorted((w for w in RELATIONS_ZH if len(w) >= 2), key=len, reverse=True))
_OBJECT_VERBS = "给告诉帮让叫带送问借教请陪骂打找催劝吓烦坑骗害拉约喊逼"
_RUN_ON = re.compile(
    rf"(?<=[A-Za-z\u4e00-\u9fff]{{2}}了)(?<![{_OBJECT_VERBS}]了)"
    rf"(?=(?:我(?!们)|{_KIN_ZH}|现在|而家|这个月|上个月|下个月|上周|下周|这周|今年|去年|明年|"
    r"后来|然后|因为|所以|结果)[\u4e00-\u9fff])"
)


def split_clauses(text: str, *, spaces: bool = True) -> list[str]:
    """Split a message into clauses on punctuation and clause-joining conjunctions, and
    (``spaces``) on a space between Chinese words or a run-on 了 before a new subject or
    time. Reading a change in context (:func:`jiyi.core.changes.changed_clauses`) keeps such
    a run-on message whole."""
    parts = (
        p.strip(" \t'\"“”‘’()（）")
        for q in _SPLIT_RE.split(text)
        for r in (_CHAT_SPACE.split(q) if spaces else [q])
        for o in (_RUN_ON.split(r) if spaces else [r])
        for p in _SO_RE.split(o)
    )
    return [p for p in parts if p and _bare(p)]


def _is_chitchat_clause(clause: str) -> bool:
    bare = _bare(clause)
    if not bare or bare in _CHITCHAT_ZH or bare in _CHITCHAT_EN:
        return True
    if _LAUGH_RE.match(bare.replace(" ", "")):
        return True
    # "好的谢谢" / "ok thanks lol": every word is chit-chat.
    words = bare.split()
    if len(words) > 1 and all(w in _CHITCHAT_EN or _LAUGH_RE.match(w) for w in words):
        return True
    if has_cjk(bare) and len(bare) <= 6 and _strip_chitchat_zh(bare) == "":
        return True
    # Small talk about the weather, as long as the user says nothing about themselves; a
    # question about it ("what's the weather") is a request, not chit-chat.
    return (
        bool(_WEATHER_RE.search(clause))
        and not _FIRST_PERSON_RE.search(clause)
        and not is_request_or_question(clause)
    )


def _strip_chitchat_zh(bare: str) -> str:
    rest = bare.replace(" ", "")
    for word in sorted(_CHITCHAT_ZH, key=len, reverse=True):
        rest = rest.replace(word, "")
    return rest.strip("啦呀哈呢吧嘛哦")


def is_chitchat(text: str) -> bool:
    """True if ``text`` is only greetings, thanks, acknowledgements, laughter, emoji or
    small talk about the weather — nothing a memory could be made of.

    Examples: 哈哈 / 好的 / 嗯嗯 / 谢谢 / 在吗 / 今天好热 / ok / thanks / lol / 👍.
    """
    if not _bare(text):
        return True  # emoji or punctuation only
    clauses = split_clauses(text)
    return all(_is_chitchat_clause(c) for c in clauses)


def is_passive(text: str) -> bool:
    """True for logged behaviour rather than speech: "[用户点击了商品]", "user viewed item 1"."""
    return bool(_PASSIVE_RE.search(text))


def is_request_or_question(clause: str) -> bool:
    """True if the clause asks something or asks for something instead of telling."""
    stripped = clause.strip()
    if stripped.endswith(("?", "？")):
        return True
    # 没什么兴趣 / 什么都吃 / 不怎么喜欢 / 谁都行 are statements, not questions.
    plain = _NOT_QUESTION_ZH.sub("", stripped)
    # 俺家在铁岭呢: a final 呢 after where someone is (a short place), no question
    if re.search(r"^[^哪谁]{1,6}(?:在|搁)[^哪谁]{2,4}呢$", plain) and not plain.startswith(
        ("你", "那")
    ):
        plain = plain[:-1]
    # 给我换成缬沙坦了 / 帮我转给林医师了: what someone did for the user, not a request
    done = bool(re.match(r"^(?:给我|帮我|替我)\S*?(?:换|转|改|调|开|加|减|约|办)\S*了$", stripped))
    if has_cjk(stripped) and (
        _QUESTION_ZH_RE.search(plain) or (_REQUEST_ZH_RE.search(stripped) and not done)
    ):
        return not re.search(
            r"(?:别|不要|不用|避开|避免)(?:再)?(?:给我)?(?:推荐|推|安排|选)", stripped
        )
    return bool(_QUESTION_EN_RE.search(stripped))
