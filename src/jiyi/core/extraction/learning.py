"""The language the user is learning (zh + en): one slot, ``learning.language``.

"im learning spanish on duolingo" → "i switched to italian a while ago"; 最近在学日语 →
现在开始学韩语了; "I'm learning Japanese on Duolingo" → "I dropped the Japanese already … so
now doing Korean". A second language said with "also / 也 / 还" is no change of the first, so
it is not stored here. Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.services import OTHER_LEAD
from jiyi.core.models import MemoryKind

__all__ = ["language"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

_LANGS_EN = """spanish french german italian japanese korean mandarin chinese portuguese arabic
    russian hindi dutch swedish norwegian danish finnish cantonese tagalog vietnamese thai greek
    turkish hebrew polish irish welsh swahili indonesian malay latin asl"""
_LANG_EN = "|".join(sorted(_LANGS_EN.split(), key=len, reverse=True))
_LANGS_ZH = """日语 日文 韩语 韩文 英语 英文 法语 德语 西班牙语 意大利语 俄语 粤语 泰语 葡萄牙语
    阿拉伯语 越南语 马来语 印尼语 荷兰语 希腊语 土耳其语 手语"""
_LANG_ZH = "|".join(sorted(_LANGS_ZH.split(), key=len, reverse=True))

_SAID_EN = re.compile(
    rf"^(?:i'?m|im|i am|i've been|ive been) (?:currently |still )?(?:learning|studying|taking)"
    rf" (?P<l>{_LANG_EN})\b",
    I_,
)
_NEW_EN = re.compile(
    rf"\b(?:switched (?:over )?to|moved (?:on )?to|now (?:doing|learning|studying)|"
    r"(?:started|starting|picked up) (?:learning |studying )?)"
    rf"(?: (?:the|some))? ?(?P<l>{_LANG_EN})\b",
    I_,
)
_SAID_ZH = re.compile(
    rf"^(?:我)?(?:最近|平时|现在|目前)?(?:在|正在|一直在)?(?:自)?学(?P<l>{_LANG_ZH})"
)
_NEW_ZH = re.compile(
    rf"(?:现在|开始|改|转)(?:开始|改)?(?:学|攻)(?P<l>{_LANG_ZH})|改学(?P<m>{_LANG_ZH})"
)
_ALSO = re.compile(r"\balso\b|\btoo\b|\bas well\b|也|还|同时")


def _lang(said: str) -> str:
    return said if re.search(r"[\u4e00-\u9fff]", said) else said.capitalize()


def language(clause: str, ctx: Context) -> list[Hit]:
    """The language the user learns, said or newly taken up instead."""
    if _ALSO.search(clause) or OTHER_LEAD.match(clause):
        return []
    zh = bool(re.search(r"[\u4e00-\u9fff]", clause))
    if m := (_NEW_ZH.search(clause) if zh else _NEW_EN.search(clause)):
        lang = _lang(m.group("l") or m.groupdict().get("m") or "")
        said = f"用户在学{lang}" if zh else f"User is learning {lang}"
        return [Hit(F, "learning.language", "language.new", value=lang, content=said,
                    correction=True)]  # fmt: skip
    if m := (_SAID_ZH.match(clause) if zh else _SAID_EN.match(clause)):
        lang = _lang(m.group("l"))
        said = f"用户在学{lang}" if zh else f"User is learning {lang}"
        return [Hit(F, "learning.language", "language", value=lang, content=said)]
    return []
