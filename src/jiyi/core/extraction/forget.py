"""Recognising "别记这个 / forget what I said about my job" and what it points at.

Only imperatives count: "我忘了带钥匙", "I always forget my keys" and "别忘了提醒我" /
"don't forget to …" are not requests to forget.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.topics import clean_value

__all__ = ["match_forget"]

_POLITE_ZH = r"^(?:请|麻烦你?|你|那|那就|还是)?(?:帮我|给我)?"
_FORGET_ZH = (
    re.compile(
        _POLITE_ZH + r"(?:别|不要|不用|无需|甭|不必)(?:再)?(?:帮我|给我)?"
        r"(?:记住|记下来|记下|记录|记|保存|存)(?P<t>.*)$"
    ),
    re.compile(_POLITE_ZH + r"把(?P<t>.+?)(?:给)?(?:忘掉|忘了|忘记|删掉|删了|删除|去掉|清除|抹掉)"),
    re.compile(_POLITE_ZH + r"(?:忘掉|忘记|删掉|删除|清除|抹掉)(?P<t>.*)$"),
    re.compile(r"^(?P<t>.+?)(?:就)?(?:别|不要|不用)(?:再)?(?:记|记住|存|保存)(?:了|啦|下来|住)?$"),
    # "刚才说的过敏那条删掉吧": the thing first, then the verb.
    re.compile(
        r"^(?P<t>.+?)(?:就|也)?(?:给)?(?:删掉|删除|删了|去掉|忘掉|清除|抹掉)(?:吧|了|啊|哈)?$"
    ),
)
_NOT_FORGET_ZH = re.compile(r"别忘|不要忘|忘不了|不会忘|^我忘")
_FORGET_EN = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+|just\s+|and\s+)*(?:"
    r"(?:don't|do not|dont|no need to|you don't need to|you do not need to|never)\s+"
    r"(?:remember|save|store|keep|record|note down|note|memorize)"
    r"|forget|delete|erase|wipe|unlearn)\b(?P<t>.*)$",
    re.IGNORECASE,
)
_NOT_FORGET_EN = re.compile(r"^(?:please\s+)?(?:don't|do not|never)\s+forget\b", re.IGNORECASE)

_DEICTIC_ZH = re.compile(
    r"^(?:刚才|刚刚|之前|上面|上一?条|这|那|它|这个|那个|这些|那些|这条|那条|这句|那句|这件事|那件事|"
    r"说的|我说的|的|话|内容|信息|记忆|记录|一条|吧|了|啊|哦|呀|啦|掉|住|下来|都|全部|所有)*$"
)
_DEICTIC_EN = re.compile(
    r"^(?:it|that|this|those|these|what i (?:just )?said|what i (?:just )?told you|the last "
    r"(?:one|thing|message)|my last message|that last (?:part|bit|one)|that one|please|"
    r"everything i just said|about it|about that|\s)*$",
    re.IGNORECASE,
)


def _target_zh(raw: str) -> str | None:
    t = clean_value(raw)
    t = re.sub(r"^(?:关于|有关)", "", t)
    t = re.sub(r"^(?:我)?(?:刚才|刚刚|之前)?(?:说的|提到的|告诉你的)(?=.)", "", t)
    t = re.sub(r"(?:的)?(?:事情?|记忆|信息|内容|记录|那条|这条|部分|这件事|那件事)$", "", t)
    t = clean_value(re.sub(r"^(?:关于|有关)", "", t))
    return None if not t or _DEICTIC_ZH.match(t) else t


def _target_en(raw: str) -> str | None:
    t = clean_value(raw).strip()
    t = re.sub(
        r"^(?:everything|anything|all|what i (?:just )?(?:said|told you|mentioned)|"
        r"the (?:part|thing|bit) i said|the stuff)?\s*(?:about|regarding|on)\s+",
        "",
        t,
        flags=re.IGNORECASE,
    )
    t = re.sub(r"\s+(?:please|for me|from (?:your )?memory|too)$", "", t, flags=re.IGNORECASE)
    t = clean_value(t)
    return None if not t or _DEICTIC_EN.match(t) else t


def match_forget(clause: str) -> tuple[bool, str | None]:
    """(is a forget request, its target). The target is what the user named ("我的生日",
    "my job") or None for "this / that / the last one"."""
    if re.search(r"[\u4e00-\u9fff]", clause) and not _NOT_FORGET_ZH.search(clause):
        for pattern in _FORGET_ZH:
            m = pattern.search(clause)
            if m:
                return True, _target_zh(m.group("t"))
    if _NOT_FORGET_EN.match(clause):
        return False, None
    m = _FORGET_EN.match(clause.strip())
    if m:
        return True, _target_en(m.group("t"))
    return False, None
