"""What someone else said, in their own words, is not the user's news; nor is a dream.

"Jake told me 'I quit Google last week, I'm at Meta now'", "Sarah texted: switched from oat
lattes to cold brew lol", 老王发消息说“我现在改喝拿铁了”: the quoted I / 我 / we are the
speaker's. The write steps read a clause's 我 or "I" as the user, so :func:`own_words` takes
such a quote out of the text they read; the episode keeps the message whole. A quote of the
user's own words is read as said (我跟房东说“我下个月搬走”, "I told my boss 'I'm leaving'"),
and a quote with no speech before it stays (the user may paste their own words in quotes).
A dream or a story (我昨晚梦见自己搬到上海了, 电视剧里女主从华为辞职了, "Had a dream I quit
Google") is cut from where it starts to the end.

What counts as someone else's quote: quoted words (“…”, 「…」, "…", '…') or words after a
colon, following a verb of saying (说, 发消息说, 在群里说, said, texted, "was like", goes) whose
speaker is not the user — the speaker is who comes before the verb, without the words of
when, where and to whom (我妈, 小王, "my sister", "Jake", he, they; the user when only 我 / I is
left, or no one) — or the user is named as the one told (跟我说, "told me"); quoted words
after a speaker's label ('Jake: "…"', 阿强：“…”); and a quote whose speaker is named after it
(“…”——这是我室友说的, '"…," said Jake').

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.extraction.markers import DREAM
from jiyi.core.extraction.subject import Who, name_first, read_subject, strip_openers
from jiyi.core.models import Message
from jiyi.core.text import has_cjk, to_simplified

__all__ = ["own_messages", "own_words", "quotes_of_others"]

# Paired quotes. An ASCII single quote opens only after a space or punctuation and closes only
# before one, so the apostrophes of "I'm" and "Jake's" never pair up.
_QUOTE = re.compile(
    r"“[^”]{1,400}”|「[^」]{1,400}」|『[^』]{1,400}』|‘[^’]{1,400}’|\"[^\"]{1,400}\"|"
    r"(?<![\w'])'(?=\S)(?:[^'\n]|'(?=\w)){1,400}(?<=\S)'(?!\w)"
)
# A verb of saying (and what may follow it) right before the quote or colon
_SAID_ZH = re.compile(
    r"(?:(?:说|讲)(?:的是)?|道|问|回|回复|喊|吼|嚷嚷?|吐槽|抱怨|嘀咕|感叹|留言|写道?|写着|评论|原话是|"
    r"发(?:了)?(?:一)?(?:条|个|句)?(?:消息|微信|短信|朋友圈|语音|帖子?|动态|状态)?(?:说)?|"
    r"来了(?:一)?句)"
    r"(?:我)?(?:了|着|过)?(?:一句|句|一声)?(?:话)?\s*[:：,，]?\s*$"
)
_SAID_EN = re.compile(
    r"\b(?:said|says|say|told|tell|tells|texted|messaged|asked|warned|reminded|emailed|rang|"
    r"called|wrote|writes|posted|replied|mentioned|announced|yelled|shouted|commented|tweeted|"
    r"goes|went|was like|is like|were like|dm'?d|put it)"
    r"(?: (?:to )?[\w'-]+(?: [\w'-]+){0,3}?)?"  # whom: "to the barista", "my mother-in-law"
    r"(?: (?:in|on|at|over|during) (?:the |her |his |their |our |my )?[\w' -]{1,24}?)?"
    r"(?: (?:today|yesterday|earlier|last night|this morning))?"
    r"\s*[:,]?\s*$",
    re.IGNORECASE,
)
# The user as the one told or asked: the speaker is someone else, whoever opens the words
_TO_ME = re.compile(
    r"(?:跟|和|同|对|给)我(?:们)?(?:说|讲|讲过|提|吐槽|抱怨)|告诉我|问我|回我|"
    r"\b(?:told|tells|texted|messaged|asked|dm'?d|called|rang|wrote to) (?:me|us)\b",
    re.IGNORECASE,
)
# The user speaking to someone: 跟他说 / 对老板讲 (said by the user, to them)
_I_TOLD = re.compile(
    r"^(?:我)?(?:也|就|还|都|又|已经|刚|终于)?(?:(?:跟|和|同(?!事|学)|对|给)(?!我们?(?:说|讲))[^，,。]{1,8}?(?:说|讲)|"
    r"告诉|通知|提醒)|"
    r"^(?:(?:just|finally|also|then|so) )?(?:told|tell|texted|said|asked|messaged|wrote|warned|"
    r"reminded|emailed)\b",
    re.IGNORECASE,
)
# Around the speaker, not the speaker: when, where, how, and to whom (我昨天在群里跟老板说)
_TO_WHOM_ZH = re.compile(r"(?:跟|和|同(?!事|学)|对|给)(?!我们?$)[^，,。]{1,8}$")
_NOT_WHO_ZH = re.compile(
    r"昨天|昨晚|今天|今早|今晚|刚才|刚刚|前两天|前几天|上周|那天|当时|后来|然后|突然|直接|当场|"
    r"终于|已经|琴日|寻日|今日|听日|啱啱|最近|上次|在[^，,。说讲发的]{1,6}(?:上|里|中)?|在群里|群里|在微信上|"
    r"微信上|在电话里|电话里|喝酒时|吃饭时|的时候|时|原话|[刚就也还都又先]"
)
_NOT_WHO_EN = re.compile(
    r"\b(?:just|finally|also|then|literally|basically|even|actually|once|again|straight|"
    r"yesterday|today|earlier|tonight|last night|this morning)\b",
    re.IGNORECASE,
)
_ME = re.compile(r"我|我们|俺|俺们|咱|咱们|i|we", re.IGNORECASE)
# Words heard from someone the user does not name
_HEARD = re.compile(
    r"\b(?:overheard|overhear|heard (?:someone|somebody|a (?:guy|woman|man|girl|lady|dude|kid)|"
    r"people|them|him|her))\b|听到(?:有人|别人|旁边)|听见(?:有人|别人|旁边)",
    re.IGNORECASE,
)
# Who said it, told after the quote: “…”——这是我大学室友说的 / "…," said Jake / "…" my boss said
_AFTER_ZH = re.compile(
    r"^[\s—–\-－，,]*(?:这是|这话是|是)?(?P<who>[^，,。！？!?]{1,16}?)(?:说的|讲的|的原话)"
)
_AFTER_EN = re.compile(
    r"^[\s,—–-]*(?:(?:said|says|wrote|texted|goes) (?P<a>[A-Z][a-z]+|(?:my|our) \w+|he|she|they)|"
    r"(?P<b>[A-Z][a-z]+|(?:my|our) \w+|he|she|they) (?:said|says|wrote|texted))\b",
)
_LABEL_NAME = re.compile(r"(?!I$)[A-Z][a-z]+(?: [A-Z][a-z]+)?")
_HEADINGS = frozenset(
    "note update news reminder edit ps fyi correction fact context answer status summary "
    "question plan goal me mine myself us we heads up big news quick update good news bad news "
    "also btw".split()
)
# Where the words before a quote start: the previous sentence's end
_SENTENCE = re.compile(r"[。！？!?\n]|[.](?=\s)")
_SENTENCE_END = re.compile(r"[。！？!?\n]|[.](?=\s|$)")


def _clause_start(text: str, at: int) -> int:
    """Where the clause that leads up to ``at`` in ``text`` starts."""
    start = 0
    for m in _SENTENCE.finditer(text, 0, at):
        start = m.end()
    for m in re.finditer(r"[，,;；]", text[start:at].rstrip(" ，,：:")):
        start = start + m.end()  # (offsets into the slice: the last one wins)
    return start


def _lead(text: str, at: int) -> str:
    """The words of ``text``'s clause before ``at``, without the openers."""
    return strip_openers(text[_clause_start(text, at) : at].strip(" ，,：:"))


def _by_other(lead: str) -> bool:
    """Are the words introduced by ``lead`` (which ends in a verb of saying) someone else's?
    The speaker is who comes before the verb, without the time, place and manner words and
    the one spoken to: 我昨天跟老板说 is the user's, 我们教研组长原话是, 媽媽傳LINE說, "he said",
    "My guy Tunde just call me say" someone else's. No one before the verb: the user."""
    if _TO_ME.search(lead):
        return True  # 阿凯跟我说… / "Jake told me …": the user is the one told
    plain = to_simplified(lead)
    if _I_TOLD.match(plain):
        return False  # 跟房东说“我下个月搬走”: the user's words to them
    verb = _SAID_ZH.search(plain) or _SAID_EN.search(plain)
    who = plain[: verb.start()] if verb else plain
    if has_cjk(who):
        who = _TO_WHOM_ZH.sub("", who).strip(" ，,")
        if not who:
            return False
        me = [m for m in re.finditer(r"我们?|俺们?|咱们?", who)]
        if not me:  # 媽媽傳LINE說 / 小王在群里说; 昨天跟我妈说了 names only when
            return bool(_NOT_WHO_ZH.sub("", who).strip(" ，,"))
        # the last 我 with nothing after it but when, where and how is the speaker
        # (同学聚会上我跟大家说, 我琴日同阿媽講); 我妈 / 我大学室友 / 我们组长 name another
        return bool(_NOT_WHO_ZH.sub("", who[me[-1].end() :]).strip(" ，,"))
    words = re.findall(r"[\w']+", _NOT_WHO_EN.sub(" ", who))
    return bool(words) and not _ME.fullmatch(words[-1])


def _says(lead: str) -> bool:
    plain = to_simplified(lead)
    return bool(_SAID_ZH.search(plain) or _SAID_EN.search(plain))


def _speaker(lead: str, quoted: bool) -> bool:
    """Is ``lead`` only a person, as a pasted chat names who wrote (阿强：, 我妈：, "Mom:",
    'Jake: "…"')? A capitalised word alone counts only before quote marks: "Update: moved to
    Austin" is a heading, not a speaker."""
    plain = to_simplified(lead)
    if len(plain) > (6 if has_cjk(plain) else 24) or plain.count(" ") > 2:
        return False
    if read_subject(plain) in (Who.OTHER, Who.FAMILY, Who.HE_SHE, Who.THEY):
        return True
    if has_cjk(plain):
        return bool(name_first(plain + "说"))
    return quoted and bool(_LABEL_NAME.fullmatch(plain)) and plain.lower() not in _HEADINGS


def _whose(text: str, at: int) -> str | None:
    """Who says the words of ``text`` from ``at`` on (a quote or what follows a colon), by the
    words before them: "other", "user" (after the user's own verb of saying), or None."""
    lead = _lead(text, at)
    if not lead:
        return None
    if _HEARD.search(lead):  # "Overheard at lunch: …", 听到旁边有人说: whoever, not the user
        return "other"
    if _says(lead):
        return "other" if _by_other(lead) else "user"
    quoted = text[at : at + 1] in "“「『‘\"'"
    return "other" if re.search(r"[:：]\s*$", text[:at]) and _speaker(lead, quoted) else None


def _said_after(text: str, at: int) -> int:
    """Where the words after a quote that say it was someone else's end (0: they do not)."""
    rest = text[at:]
    plain = to_simplified(rest)
    if m := _AFTER_ZH.match(plain):
        return at + m.end() if _by_other(m.group("who") + "说") else 0
    if m := _AFTER_EN.match(rest):
        who = m.group("a") or m.group("b")
        return at + m.end() if _by_other(f"{who} said") else 0
    return 0


def quotes_of_others(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that are someone else's words with the clause that says whose:
    quoted, or after a colon to the end of the sentence, following a verb of saying whose
    speaker is not the user ("Jake told me", 我妈昨天说：…)."""
    return _quotes(text)[0]


def _quotes(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Someone else's words (:func:`quotes_of_others`), and the user's own words quoted after
    a verb of saying (我跟房东说“我下个月搬走”, "I told my boss 'I'm leaving'") as (clause start,
    quote end, the words), to be read as said; each quote is read once."""
    spans: list[tuple[int, int]] = []
    mine: list[tuple[int, int, int, str]] = []  # (quote start, clause start, end, words)
    for m in _QUOTE.finditer(text):
        whose = _whose(text, m.start())
        if whose == "other":
            spans.append((_clause_start(text, m.start()), m.end()))
        elif end := _said_after(text, m.end()):
            spans.append((m.start(), end))
        elif whose == "user":
            mine.append((m.start(), _clause_start(text, m.start()), m.end(), m.group()[1:-1]))
    for m in re.finditer(r"[:：]\s*", text):
        after = m.end()
        if after >= len(text) or any(a <= m.start() < b for a, b in spans):
            continue  # (a colon before a quote already taken is inside its span)
        if _whose(text, after) != "other":
            continue
        stop = _SENTENCE_END.search(text, after)
        spans.append((_clause_start(text, m.start()), stop.end() if stop else len(text)))
    users = [(a, b, said) for q, a, b, said in mine if not any(x <= q < y for x, y in spans)]
    return sorted(spans), users


def _dreamt(text: str) -> int:
    """Where a dream or a story starts in ``text`` (its length when none): 我昨晚梦见自己搬到
    上海了 / "Had a dream I quit Google" / 电视剧里女主从华为辞职了 tell nothing of the user's
    life from there to the end."""
    plain = to_simplified(text)
    for m in re.finditer(r"(?:^|[。！？!?，,;；\n]|[.](?=\s))\s*", plain):
        if DREAM.match(strip_openers(plain[m.end() :])):
            return m.start()
    return len(text)


def own_words(text: str) -> str:
    """``text`` as the user's own news: without what it quotes of someone else
    (:func:`quotes_of_others`), with what the user quotes of themself said plainly, and
    without a dream or a story told from where it starts (:data:`markers.DREAM`)."""
    text = text[: _dreamt(text)]
    spans, users = _quotes(text)
    edits = [(a, b, "") for a, b in spans] + users
    if not edits:
        return text
    out, at = [], 0
    for a, b, said in sorted(edits):
        if a >= at:
            out.append(text[at:a] + said)
        at = max(at, b)
    out.append(text[at:])
    return "".join(out).strip(" ，,;；")


def own_messages(messages: Sequence[Message]) -> list[Message]:
    """``messages`` as the write steps read them: each user message without the words it
    quotes of someone else (same id, role and time; the stored episode keeps the whole text)."""
    out: list[Message] = []
    for m in messages:
        said = own_words(m.content) if m.role == "user" and m.content else m.content
        out.append(m if said == m.content else m.model_copy(update={"content": said}))
    return out
