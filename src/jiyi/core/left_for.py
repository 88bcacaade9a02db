"""A stored value left and another taken up in its place (read only; pure, no I/O).

"left shopify in august — been at stripe since", 我哥不在大连了 跟嫂子去天津了, 我爸现在不开
挖掘机了，被朋友拉去开网约车了, "Fitzroy Pool's shut for a reno so my laps are at Brunswick
Baths now": the message names a value the user's memory holds (the caller finds which, by
the stored facts' own words) and says it is over — left, quit, shut, not any more, a mistake
— then names what took its place after a word of change or "now". :func:`left_for` reads
that pair for one stored value; :mod:`jiyi.pipeline.left_for` swaps it in the one fact
that holds the old value, as for a pair said "from X to Y". Nothing here decides by
similarity.

Both halves are needed: the old value told as over (a remark that mentions it changes
nothing; 没离开 / "not leaving" keeps it), and a new value after a change word, in a clause
that is no question, wish, plan, worry, condition or trip away. When English leaves the old
value plainly ("just moved up from Toowoomba", "traded in the lexus") and no change word
names the new one, the one capitalised name the message gives after in / at / on / for / to
is it ("can you find me a vet in Hervey Bay?"). A typed old value (a weekday, a clock
time, a school year, a year) only takes a new one of its own kind.

Chinese text is read in simplified characters (callers convert).
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiyi.core.fromto import NOTHING, UNREAL, FromTo
from jiyi.core.text import find_word

__all__ = ["fit_new", "left_for", "may_tell_over", "typed_in"]

_CJK = re.compile(r"[\u4e00-\u9fff]")
_CLAUSE_ZH = re.compile(r"[^，,。.;；!！?？\s~～]+[?？]?")
_CLAUSE_EN = re.compile(r"[^,.;!?\n—–]+[?]?")

# -- the old value told as over ------------------------------------------------------------
_LEFT_ZH_BEFORE = re.compile(
    r"(?:不再|不在|没在|没有在|不是|离开了?|辞了|辞掉|退了|告别|"
    r"不(?:做|开|干|喝|当|去|用|吃|上|跳|学|读|住|跑|听|养|叫|点)?|"
    r"以为是?|还当(?:他|她|它)?是|当成|说成|记成|写成|之前说\S{0,4}?是|本来(?:以为)?是?)$"
)
_LEFT_ZH_AFTER = re.compile(
    r"^(?:那边|那家|那里|这边|的工作|的活|的编制|那张\S{0,2}|的)?[^\s了，,。！？!?]{0,2}?"
    r"(?:不(?:干|做|去|开|喝|用|上|让|要|行|续|读|学|跳)|辞(?:掉|了|职)|倒闭|关(?:门|了|掉)|"
    r"整修|装修|拆了|退休|封麦|退圈|解散|没了|黄了|停了|到期|取消|不要了|搞错|弄错|错了|"
    r"(?P<weak>腻了|不下去|太(?:贵|吵|远|累|难|旧)|撑不|不适合))"
)
_LEFT_EN_BEFORE = re.compile(
    r"\b(?:left|leaving|quit|quitting|ditched|dropped|cancell?ed|gave up(?: on)?|giving up|"
    r"done with|out of|away from|moved (?:away |up |down |out )?from|relocated from|"
    r"instead of|rather than|not|never|no more|no longer(?: (?:at|in|with|a|an))?|"
    r"(?:sold|selling)(?: (?:up|off))?(?: (?:the|her|his|my|our|their) \w+)? in|"
    r"scrap|traded in|took (?:me|him|her) off|rip|resign(?:ed)?(?: \w+){0,2} "
    r"(?:at|from|sa)|told you|i thought|keep saying|name was|over)"
    r"(?: (?:the|my|our|a|an|that|this|her|his))?\s*$",
    re.IGNORECASE,
)
_LEFT_EN_AFTER = re.compile(
    r"^(?:'s|s|s')?\s*(?:flat |house |place |thing |job |contract )?"
    r"(?:(?:is|are|was|has|have|had|got|just|finally|now|been|all|it) )*"
    r"(?:shut|closed|closing|legged it|didn't extend|"
    r"came back (?:\w+ )?(?:fine|clear|negative)|(?:and i )?(?:called it quits|broke up|split up)|"
    r"any ?more|no more|was (?:a )?mistake|wrong|is being given up|given up|"
    # (an end said of an event, or a reason to leave: "the contract is over", "rent went up")
    r"(?P<weak>finished|ended|over|gone|done|isn't for me|not for me|went (?:up|crazy)))\b",
    re.IGNORECASE,
)

_NEGATED_ZH = re.compile(r"(?:没|没有|不|别|未|不会|不想)$")
_NEGATED_EN = re.compile(r"\b(?:not|never|didn't|don't|won't|wasn't|isn't|aren't|no)\s*$", re.I)

# -- the new value after a word of change ------------------------------------------------
_Y_ZH = (
    r"(?P<y>[A-Za-z0-9][\w'&.-]*(?: [A-Za-z][\w'&.-]*){0,3}"
    r"|[\u4e00-\u9fffA-Za-z0-9]{2,12}?)"
)
_STOP_ZH = (
    r"(?=了|啦|呀|吧|哦|喔|咯|去了|那家|那边|那里|这边|的|上班|工作|报到|住|打工|上课|"
    r"跑车|开车|$|[，,。.!！?？\s~～])"
)
# (strong: a word of change; the others only name where or what someone is now)
_TAKEN_ZH = re.compile(
    r"(?:(?P<s>(?:转行|跳槽|改|换|转|挪|搬|调|升)(?:成|到|去|为|了)?)"
    r"(?:当|做|喝|听|去|学|读|点|用|叫|开|跑|成)?(?:个|台|辆|只|家|部|了)?|"
    r"(?:去|到|跑|回)(?=[^\s，,。！？!?]{2,8}?(?:去了|了|报到|上班|工作))|"
    r"(?P<n>现在|如今|以后)(?:都|也|就)?(?:在|是|喝|点|用|叫)|"
    r"(?:说|结果|原来|其实|而|算|根本)是|开(?!始|心|玩笑)(?=[^\s，,。！？!?]{2,6}?(?:去了|了))|"
    r"当(?=[^\s，,。！？!?]{2,6}?了)|跑(?=[^\s，,。！？!?]{2,6}?去了)|盘了个|开了(?:个|家)|喊|"
    r"(?<=[\s，,啦了呀啊哦的])是)\s?" + _Y_ZH + _STOP_ZH
)
# a verb or particle inside a Chinese new value: what follows it is the value (跑回老家开烧烤店)
_INNER_VERB_ZH = re.compile(r".*(?:开|去|到|当|做|回|搬|改|换|转|在|给|了)")
_STOP_EN = (
    r"(?=\s*(?:[^\w\s'&-]|$)|\s(?:and|but|so|since|because|for|last|this|next|on|in|at|with|"
    r"to|now|instead|lol|haha|by|after|from|same|too|as|where|which|who|that|bc|cuz|i|i'm|"
    r"im|we|he|she|they|yesterday|today|starting|is|was|are|till|until|its|it's|it|"
    r"(?:\d+|one|two|three|four|five|six|seven) (?:days?|times?|nights?|mornings?|weeks?|hours?)|"
    r"which|thank|thanks)\b)"
)
_Y_EN = r"(?:the |a |an |my |our )?(?P<y>[\w'&-]+(?: [\w'&-]+){0,3}?)"
_TAKEN_EN = re.compile(
    r"\b(?:(?P<s>(?:moved|moving|relocated|shifted|transferred|drove|switched|changed|"
    r"started|starting)(?: \w+){0,2}? (?:to|at|in|as|with|for|on)|renamed (?:her|him|it|them))|"
    r"(?:went|gone|headed|been|got a place|nannying|sailing|living|staying|working)"
    r"(?: \w+){0,2}? (?:to|at|in|as|with|for|on)|"
    r"(?P<nm>(?:call|calling|calls|called) (?:her|him|it|them)|(?:his|her|its) name is)|"
    r"(?P<i>i'm|im|i am|we're|we are|he's|hes|he is|she's|shes|she is|they're)"
    r"(?: (?:actually|really|now|doing|in|at|with|a|an|mostly|just))*(?=\s)|"
    r"(?P<b>(?:any ?more|no more|no longer),? but(?: now)?(?: a| an| the)?)|"
    r"(?:it's|its|it is)(?: (?:actually|really|now))+(?=\s)|"
    r"(?P<f>(?:left|quit|ditched|dropped|traded in) [\w' -]{2,30}? for)|"
    r"(?P<n>now) (?:i'm|im|i am|he's|she's|we're|he|she|we|i)(?: \w+)? (?:in|at|with|to|as)|"
    r"(?:goes|go) to|(?:are|is) (?:at|in)|"
    r"(?:in|at|to)(?= [\w'&-]+(?: [\w'&-]+){0,2} (?:now|for good)\b))"
    r"\s" + _Y_EN + _STOP_EN,
    re.IGNORECASE,
)
_BAD_Y_EN = re.compile(
    r"^(?:it|that|this|them|there|here|him|her|home|work|school|one|the|a|an|same|my|our|"
    r"fine|ok|okay|good|better|now|back|sure|free|off|out|up|me|us|new|really|way|too|so|"
    r"very|pretty|kinda|gonna|going|getting|been|not|no|all|just|still|also|public|private|"
    r"closer|bigger|smaller|cheap|expensive|happy|busy|tired|"
    r"be|get|do|go|see|help|look|make|take|stay|live|work|near|cheaper|nicer|on|for|into|"
    r"with|about|from|by|like|of|spring|summer|winter|fall|autumn|morning|evening|week|month|"
    r"year|weekend|january|february|march|april|may|june|july|august|september|october|"
    r"november|december|grade|part|full|head|number|worried|afraid|sorry|glad|stuck|done|"
    r"excited|scared|sick|nervous|pregnant|late|early|tired|over|across|around|quits)\b",
    re.IGNORECASE,
)
_BAD_Y_ZH = re.compile(
    r"^(?:那|这|它|他|她|别|其他|什么|啥|哪|一样|原来|以前|之前|自己|家里|老家$|下个月|明天|"
    r"今天|后来|上个月|最近|每天|早上|晚上|周末|了)"
)
# "sailing as second mate": what the user does, the value follows
_DOING = re.compile(r"\w+ing (?:as|at|in|to|with|for|on)\b")
_ACTIVITY_ZH = "打跳上学练做开跑喝去看玩游"


def fit_new(new: str, old: str, fact: str) -> str:
    """``new`` as it fits the stored fact: without a tail that is the fact's own activity
    (里民活动中心打太极 → 里民活动中心 when the fact says 打太极), with the verb of an old
    value that starts with one (开挖掘机 → 开网约车)."""
    for k in range(2, len(new)):
        tail = new[k:]
        if tail[0] in _ACTIVITY_ZH and tail in fact:
            new = new[:k]
            break
    if _CJK.match(old) and old[0] in _ACTIVITY_ZH and _CJK.match(new) and new[0] != old[0]:
        return old[0] + new
    return new


# -- typed values: a weekday, a clock time, a school year, a year or a count -------------
_TYPED = {
    "weekday": re.compile(
        r"(?:周|星期|礼拜)[一二三四五六日天]|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b",
        re.IGNORECASE,
    ),
    "clock": re.compile(
        r"[0-9一二三四五六七八九十两]{1,3}点(?:半|[0-9一二三四五十]{1,2}分?)?|"
        r"\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b",
        re.IGNORECASE,
    ),
    "grade": re.compile(
        r"[一二三四五六七八九]年级|[初高][一二三]|大[一二三四]|\byear \d{1,2}\b", re.I
    ),
    "year": re.compile(
        r"\b(?:19|20)\d\d\b|\bnineteen (?:\w+)(?: \w+)?|\btwo thousand(?: and)? \w+", re.I
    ),
}


def _kind(value: str) -> str | None:
    for kind, pattern in _TYPED.items():
        if pattern.fullmatch(value.strip()):
            return kind
    return None


_ANY_OVER = re.compile(
    r"不|没在|离开|辞|退|从|以为|当成|说成|记成|写成|本来|倒闭|关|整修|装修|拆|腻|太|没了|黄了|"
    r"封麦|解散|还当|之前说|"
    r"撑不|停了|到期|取消|搞错|弄错|错了|\b(?:left|leaving|quit|quitting|ditched|dropped|quits|split|broke|"
    r"cancell?ed|gave|giving|done|out|away|from|instead|rather|not|never|no|sold|selling|"
    r"scrap|traded|took|rip|resign(?:ed)?|told|said|thought|saying|name|over|shut|closed|"
    r"closing|finished|ended|gone|legged|isn't|didn't|came|went|thing|any ?more|mistake|"
    r"wrong|given)\b",
    re.IGNORECASE,
)


def may_tell_over(text: str) -> bool:
    """Might ``text`` tell a value as over (a cheap test before reading stored facts)?"""
    return _ANY_OVER.search(text) is not None


def typed_in(text: str) -> list[str]:
    """The weekdays, clock times, school years and years ``text`` names."""
    return [m.group() for pattern in _TYPED.values() for m in pattern.finditer(text)]


@lru_cache(maxsize=256)
def _clauses(text: str) -> tuple[tuple[int, int], ...]:
    """Where ``text``'s clauses start and end (read once per message: the write path asks
    about each stored value it repeats)."""
    pattern = _CLAUSE_ZH if _CJK.search(text) else _CLAUSE_EN
    return tuple((m.start(), m.end()) for m in pattern.finditer(text))


def _told_over(text: str, at: int, end: int, zh: bool) -> int:
    """How plainly the old value at ``text[at:end]`` is told as over, in its own clause: 0
    not at all; 1 only as an end said of an event or a reason to leave ("the contract is
    over", 太远了, 喝腻了, "rent went up"), so the new value must come with a change word, a
    name or "now" (so is English news said after it, "Fitzroy Pool's shut": news of a
    place); 2 left, quit, shut, denied or a mistake (不在X, X不干了, "left X")."""
    start = max([s for s, e in _clauses(text) if s <= at] or [0])
    before, after = text[start:at].rstrip(), text[end:].lstrip()
    cue = (_LEFT_ZH_BEFORE if zh else _LEFT_EN_BEFORE).search(before)
    if cue and (_NEGATED_ZH if zh else _NEGATED_EN).search(before[: cue.start()]):
        return 0  # 我哥没离开华为, "I'm not leaving Denver"
    if cue:
        return 2
    told = _LEFT_ZH_AFTER.search(after[:16]) if zh else _LEFT_EN_AFTER.search(after[:40])
    if told is None:
        return 0
    # (English news of a place or a thing, "the pool's shut", says where the user goes now
    # only with a change word or "now"; 辞掉了 / 不干了 after the value is the user's act)
    return 1 if told.group("weak") or not zh else 2


# A while away, not a change: 这周不在上海，出差去北京了; "not in Leeds this week, I'm in York"
_AWAY = re.compile(
    r"这周|这几天|这两天|周末|今天(?!起|开始)|明天(?!起|开始)|今晚|出差|旅游|旅行|度假|玩了|玩几天|探亲|回来|暂时|"
    r"\b(?:this week|this weekend|today|tonight|tomorrow|on holiday|on vacation|for a trip|"
    r"visiting|for the weekend|for a few days|temporarily|back home for)\b|"
    # (a worry or what is still to come: "I'm worried I'll have to scrap the marathon plan")
    r"担心|害怕|怕是|恐怕|\b(?:i'll|ill|will|gonna|going to|have to|has to|worried|afraid|"
    r"scared|should|hope|hoping)\b",
    re.IGNORECASE,
)


def _unreal(text: str, start: int, end: int) -> bool:
    said = text[start:end]
    rest = text[end : end + 3]
    if UNREAL.search(said) or _AWAY.search(said):
        return True
    return rest.lstrip().startswith(("?", "？", "吗"))


def _clause_of(text: str, at: int) -> tuple[int, int]:
    for s, e in _clauses(text):
        if s <= at < e:
            return s, e
    return at, at


def left_for(text: str, old: str, said: str = "") -> FromTo | None:
    """The pair (``old``, what took its place) when ``text`` tells ``old`` as over and names
    a new value after a word of change; None otherwise. ``text`` lower case, Chinese in
    simplified characters; ``old`` as stored (lower case); ``said``: the text as written
    (its capitals name the new value when no word of change does, see :func:`_named_new`)."""
    old = old.strip().lower()
    at = find_word(text, old)
    if at < 0 or len(old) < 2:
        return None
    zh = bool(_CJK.search(text))
    if not (told := _told_over(text, at, at + len(old), zh)):
        return None
    s, e = _clause_of(text, at)
    if UNREAL.search(text[s:e]) and not re.search(r"之前|以前|以为", text[s:e]):
        return None
    if _AWAY.search(text[s:e]):
        return None
    kind = _kind(old)
    found = _new_values(text, kind, zh)
    for rank, y_at, new in sorted(found, key=lambda c: (c[0], abs(c[1] - at))):
        if at <= y_at < at + len(old) or (told == 1 and rank > 1):
            continue  # (a reason to leave takes a new value said with a change word or "now")
        ys, ye = _clause_of(text, y_at)
        if _unreal(text, ys, ye):
            continue
        if old in new or new in old or NOTHING.match(new):
            continue
        lo, hi = min(s, ys), max(e, ye)
        return FromTo(old, new, text[lo:hi].strip(), told_over=True)
    if not zh and (named := _named_new(said, old, text[s:at])):
        return FromTo(old, named, text[s:e].strip(), told_over=True)
    return None


# "just moved up from Toowoomba", "traded in the lexus", "left Phoenix": a leaving so plain
# that the one name the message gives after in / at / on / for / to is where it went
# ("can you find me a vet in Hervey Bay …? just moved up from Toowoomba")
_LEFT_PLAINLY = re.compile(
    r"\b(?:left|quit|moved (?:away |up |down |out )?from|relocated from|traded in|"
    r"took (?:me|him|her) off)(?: the| my| our)?\s*$",
    re.IGNORECASE,
)
_PLACE_NAMED = re.compile(
    r"\b(?:in|at|on|for|to|a|an)\s+(?P<y>[A-Z][\w'&-]*(?: [A-Z][\w'&-]*){0,3})"
)


def _named_new(said: str, old: str, before: str) -> str | None:
    """The one capitalised name ``said`` gives after a preposition, when the old value was
    left plainly (``before``: its clause up to it); None when there are none or several."""
    if not said or not _LEFT_PLAINLY.search(before):
        return None
    names = {
        m["y"]
        for m in _PLACE_NAMED.finditer(said)
        if m["y"].lower() not in old
        and old not in m["y"].lower()
        and not _kind(m["y"])
        and not _BAD_Y_EN.match(m["y"])
        and m["y"] not in ("I", "I'm")
    }
    return names.pop().lower() if len(names) == 1 else None


@lru_cache(maxsize=256)
def _new_values(text: str, kind: str | None, zh: bool) -> tuple[tuple[int, int, str], ...]:
    """Where a new value is said and what it is: a value of ``kind`` anywhere, else one after
    a word of change; each with its rank (0: said with "now" or 现在, 1: after a word of
    change, 2: after a word that only says where or what). Cached: the same message is read
    for each stored value it repeats."""
    if kind is not None:
        return tuple((0, m.start(), m.group()) for m in _TYPED[kind].finditer(text))
    out: list[tuple[int, int, str]] = []
    pattern = _TAKEN_ZH if zh else _TAKEN_EN
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        pos = m.start() + 1  # overlapping: "i'm sailing as second mate now"
        new, at = m.group("y").strip(), m.start("y")
        if zh and (inner := _INNER_VERB_ZH.match(new)) and len(new) - inner.end() >= 2:
            new, at = new[inner.end() :], at + inner.end()
        if zh and (_BAD_Y_ZH.match(new) or new.endswith(("了", "啦"))):
            continue
        if not zh and (_BAD_Y_EN.match(new) or _DOING.match(text, at)):
            continue
        if not zh and m.group("i") and re.match(r"\w+ing\b", new):
            continue  # "they're moving the team": a doing, not what someone is
        if not new or _kind(new) is not None or any(a == at for _, a, _ in out):
            continue
        after = text[m.end() : m.end() + 10].strip()
        now = after.startswith(("now", "for good")) or bool(m.group("n"))
        rank = 1 if m.group("s") or m.groupdict().get("f") or m.groupdict().get("nm") else 2
        out.append((0 if now or m.groupdict().get("b") else rank, at, new))
    return tuple(out)
