"""What someone else said, in their own words, is not the user's news.

"Jake told me 'I quit Google last week, I'm at Meta now'", "Sarah texted: switched from oat
lattes to cold brew lol", 老王发消息说“我现在改喝拿铁了”: the quoted I / 我 / we are the
speaker's. The write steps read a clause's 我 or "I" as the user, so :func:`own_words` takes
such a quote out of the text they read; the episode keeps the message whole. A quote of the
user's own words stays (我跟房东说“我下个月搬走”, "I told my boss 'I'm leaving'"), and so does
a quote with no speech before it (the user may paste their own words in quotes).

What counts as someone else's quote: quoted words (“…”, 「…」, "…", '…') or words after a
colon, following a verb of saying (说, 发消息说, 在群里说, said, texted, "was like", goes) whose
speaker is not the user: a person other than 我 / I opens the words before it (我妈, 小王,
"my sister", "Jake", he, they), or the user is named as the one told (跟我说, "told me").

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.extraction.subject import Who, name_first, named_first, read_subject, strip_openers
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
    r"(?:说|讲|道|问|回|回复|喊|吼|嚷嚷?|吐槽|抱怨|嘀咕|感叹|留言|写道?|写着|评论|原话是|"
    r"发(?:了)?(?:条|个)?(?:消息|微信|短信|朋友圈|语音|帖子?|动态|状态)(?:说)?|来了(?:一)?句)"
    r"(?:我)?(?:了|着|过)?(?:一句|句|一声)?(?:话)?\s*[:：,，]?\s*$"
)
_SAID_EN = re.compile(
    r"\b(?:said|says|say|(?:told|tell|tells|texted|messaged|asked|warned|reminded|emailed|"
    r"rang|called|wrote to)(?: [\w']+){1,3}|texted|wrote|writes|posted|"
    r"messaged(?: me| us)?|asked(?: me| us)?|goes|went|was like|is like|were like|"
    r"replied|mentioned|announced|yelled|shouted|dm'?d me|commented|tweeted|put it)"
    r"(?: (?:in|on) (?:the )?(?:group(?: chat)?|chat|whatsapp|insta(?:gram)?|facebook|"
    r"slack|discord|fb))?(?: (?:today|yesterday|earlier|last night|this morning))?"
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
    r"^(?:我)?(?:也|就|还|都|又|已经|刚|终于)?(?:(?:跟|和|同(?!事|学)|对|给)[^我，,。]{1,8}(?:说|讲)|"
    r"告诉|通知|提醒)|"
    r"^(?:(?:just|finally|also|then|so) )?(?:told|tell|texted|said|asked|messaged|wrote|warned|"
    r"reminded|emailed)\b",
    re.IGNORECASE,
)
_NAME_EN = re.compile(r"^(?!I\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+[a-z]")
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
    """Are the words introduced by ``lead`` (which ends in a verb of saying) someone else's?"""
    if _TO_ME.search(lead):
        return True  # 阿凯跟我说… / "Jake told me …": the user is the one told
    plain = to_simplified(lead) if has_cjk(lead) else lead
    if _I_TOLD.match(plain):
        return False  # 跟房东说“我下个月搬走”: the user's words to them
    who = read_subject(plain)
    if who is Who.USER:
        return False
    if who is not Who.UNSAID:
        return True  # 我妈 / 同事 / 他 / they / my sister
    return named_first(plain) or bool(_NAME_EN.match(lead))


def _says(lead: str) -> bool:
    plain = to_simplified(lead) if has_cjk(lead) else lead
    return bool(_SAID_ZH.search(plain) or _SAID_EN.search(plain))


def _speaker(lead: str, quoted: bool) -> bool:
    """Is ``lead`` only a person, as a pasted chat names who wrote (阿强：, 我妈：, "Mom:",
    'Jake: "…"')? A capitalised word alone counts only before quote marks: "Update: moved to
    Austin" is a heading, not a speaker."""
    plain = to_simplified(lead) if has_cjk(lead) else lead
    if len(plain) > (6 if has_cjk(plain) else 24) or plain.count(" ") > 2:
        return False
    if read_subject(plain) in (Who.OTHER, Who.FAMILY, Who.HE_SHE, Who.THEY):
        return True
    if has_cjk(plain):
        return bool(name_first(plain + "说"))
    return quoted and bool(_LABEL_NAME.fullmatch(plain)) and plain.lower() not in _HEADINGS


def _theirs(text: str, at: int) -> bool:
    """Are the words of ``text`` from ``at`` on (a quote or what follows a colon) said by
    someone else, by the words before them?"""
    lead = _lead(text, at)
    if not lead:
        return False
    if _says(lead):
        return _by_other(lead)
    quoted = text[at : at + 1] in "“「『‘\"'"
    return bool(re.search(r"[:：]\s*$", text[:at])) and _speaker(lead, quoted)


def quotes_of_others(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that are someone else's words with the clause that says whose:
    quoted, or after a colon to the end of the sentence, following a verb of saying whose
    speaker is not the user ("Jake told me", 我妈昨天说：…)."""
    spans: list[tuple[int, int]] = []
    for m in _QUOTE.finditer(text):
        if _theirs(text, m.start()):
            spans.append((_clause_start(text, m.start()), m.end()))
    for m in re.finditer(r"[:：]\s*", text):
        after = m.end()
        if after >= len(text) or any(a <= m.start() < b for a, b in spans):
            continue  # (a colon before a quote already taken is inside its span)
        if not _theirs(text, after):
            continue
        end = _SENTENCE_END.search(text, after)
        spans.append((_clause_start(text, m.start()), end.end() if end else len(text)))
    return sorted(spans)


def _users_quotes(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """The user's own words quoted after a verb of saying (我跟房东说“我下个月搬走”, "I told
    my boss 'I'm leaving'"): (clause start, quote end, the words), to be read as said."""
    out: list[tuple[int, int, str]] = []
    for m in _QUOTE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        lead = _lead(text, m.start())
        if lead and _says(lead) and not _by_other(lead):
            out.append((_clause_start(text, m.start()), m.end(), m.group()[1:-1]))
    return out


def own_words(text: str) -> str:
    """``text`` as the user's own words: without what it quotes of someone else
    (:func:`quotes_of_others`), and with what the user quotes of themself said plainly."""
    spans = quotes_of_others(text)
    edits = [(a, b, "") for a, b in spans] + _users_quotes(text, spans)
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
