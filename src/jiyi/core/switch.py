"""The memory switch in the pure core: the phrases a user turns it with, and which messages
of a batch may be stored.

A phrase counts only as a whole message of the user (politeness and punctuation aside):
"以后别记我的任何东西" turns memory off, "you can remember again" turns it back on, while a
sentence that merely contains such words ("他说以后别记我的任何东西") is an ordinary
message. A targeted request ("别记我的生日") is a forget request
(``core/extraction/forget.py``), not a switch: only words for *everything* (任何 / 所有 /
一切 / 全部 / anything / everything) or *me* as a whole turn the switch.

Messages of one batch are read in order (:func:`gate`): a message is stored only if the
switch is ``on`` when it is said, and a switch phrase itself is never stored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from jiyi.core.models import Message
from jiyi.core.users import MemorySwitch

__all__ = ["Gated", "gate", "switch_phrase"]

_ZH_ALL = (
    r"(?:我的)?(?:任何|所有|一切|全部)(?:的)?"
    r"(?:东西|事情?|信息|内容|事|记忆|对话|聊天记录)?"
)
_ZH_ME = r"(?:住)?(?:我|关于我的?(?:任何|所有|一切)?(?:东西|事情?|信息|内容)?)"
_ZH_STOP = (
    r"(?:别|不要|不用|不许|甭|不准|停止)(?:再)?(?:帮我|给我)?"
    r"(?:记住|记录|记下|记|存|保存)"
)
_ZH_OFF = (
    rf"(?:以后|今后|从现在起|从今以后|从此)?(?:都|就)?(?:{_ZH_STOP})"
    rf"(?:{_ZH_ALL}|{_ZH_ME}|任何东西)"
    r"|(?:关闭|关掉|关了|停用|禁用|停止)(?:你的)?(?:记忆|记忆功能)(?:功能)?"
    r"|(?:以后|今后)?(?:什么都|啥都)(?:别|不要)(?:再)?记(?:了|住)?"
)
_ZH_PAUSE = (
    r"(?:暂停|先暂停)(?:一下)?(?:你的)?(?:记忆|记录)(?:功能)?(?:一下)?"
    r"|(?:先|暂时|这段时间|接下来)(?:都)?(?:别|不要)(?:再)?(?:记|记录|记住)"
    r"(?:了|东西|任何东西)?"
)
_ZH_ON = (
    r"(?:你)?(?:现在)?(?:又)?可以(?:继续|重新|再)?(?:记|记住|记录)(?:了|我的东西|东西)?"
    r"|(?:继续|重新|恢复)(?:记|记住|记录|记忆)(?:吧|了)?(?:功能)?"
    r"|(?:打开|开启|恢复|重新开启)(?:你的)?(?:记忆|记忆功能)(?:功能)?"
)
_EN_ALL = (
    r"(?:anything|everything|any of (?:this|it|my stuff)|me|anything about me"
    r"|stuff about me)"
)
_EN_OFF = (
    rf"(?:from now on |going forward )?(?:stop|quit) remembering {_EN_ALL}(?: from now on)?"
    r"|(?:from now on |going forward )?(?:don't|do not|never) "
    rf"(?:remember|store|save|record|keep) {_EN_ALL}"
    r"(?: (?:ever )?again| from now on| anymore| any more)?"
    r"|(?:turn|switch) off (?:your )?memory|(?:turn|switch) (?:your )?memory off"
    r"|disable (?:your )?memory"
)
_EN_PAUSE = (
    r"pause (?:your )?(?:memory|remembering)(?: for (?:now|a while))?"
    r"|(?:stop remembering|don't remember anything|do not remember anything)"
    r" for (?:now|a while)"
)
_EN_ON = (
    r"you can remember (?:again|me again|things again|stuff again)"
    r"|(?:start|resume) remembering(?: me| things)?(?: again)?"
    r"|(?:turn|switch) (?:your )?memory (?:back )?on"
    r"|(?:turn|switch) (?:back )?on (?:your )?memory"
    r"|(?:resume|enable|unpause) (?:your )?memory"
)
_PHRASES: tuple[tuple[re.Pattern[str], MemorySwitch], ...] = tuple(
    (re.compile(rf"(?:{p})", re.IGNORECASE), state)
    for p, state in (
        (_ZH_PAUSE, MemorySwitch.PAUSED),  # before "off": "先别记了" is a pause
        (_EN_PAUSE, MemorySwitch.PAUSED),
        (_ZH_ON, MemorySwitch.ON),
        (_EN_ON, MemorySwitch.ON),
        (_ZH_OFF, MemorySwitch.OFF),
        (_EN_OFF, MemorySwitch.OFF),
    )
)
_PREFIX = re.compile(
    r"^(?:(?:请|麻烦|麻烦你|你|那|那就|好吧|好|嗯|行|ok|okay|hey|hi|please|just|and|so|now|"
    r"jiyi|assistant)[\s,，、:：]*)+",
    re.IGNORECASE,
)
_SUFFIX = re.compile(
    r"(?:[\s,，、]*(?:吧|了|啦|哦|呀|啊|哈|好吗|好不好|可以吗|谢谢|谢啦|please|thanks"
    r"|thank you|ok|okay))+$",
    re.IGNORECASE,
)
_PUNCT = re.compile(r"[\s.!?。！？~～…]+$|^[\s.!?。！？~～…]+")


def switch_phrase(text: str) -> MemorySwitch | None:
    """The switch position ``text`` asks for when the whole message is a switch phrase
    ("以后别记我的任何东西" → off, "先暂停记忆" → paused, "可以继续记了" → on), else None."""
    t = _PUNCT.sub("", text.strip())
    if len(t) > 60:
        return None
    t = _PUNCT.sub("", _SUFFIX.sub("", _PREFIX.sub("", t)))
    t = re.sub(r"\s+", " ", t.replace("’", "'"))
    for pattern, state in _PHRASES:
        if pattern.fullmatch(t):
            return state
    return None


@dataclass(frozen=True)
class Gated:
    """A batch read against the switch: what may be stored and what the switch becomes."""

    kept: list[Message]  # said while the switch was on, and not a switch phrase
    dropped: list[tuple[Message, str]]  # with the reason: memory_off / memory_paused / …
    changes: list[MemorySwitch]  # positions asked for, in order (repeats removed)
    final: MemorySwitch


def gate(messages: Sequence[Message], current: MemorySwitch) -> Gated:
    """Read ``messages`` in order from switch position ``current``: a user's switch phrase
    moves the switch (and is dropped, reason ``memory_switch``); any other message is kept
    only while the switch is on (else dropped: ``memory_off`` / ``memory_paused``).
    Assistant and system messages never turn the switch."""
    state = current
    kept: list[Message] = []
    dropped: list[tuple[Message, str]] = []
    changes: list[MemorySwitch] = []
    for m in messages:
        asked = switch_phrase(m.content) if m.role == "user" else None
        if asked is not None:
            if asked != state:
                changes.append(asked)
                state = asked
            dropped.append((m, "memory_switch"))
        elif state == MemorySwitch.ON:
            kept.append(m)
        else:
            dropped.append((m, f"memory_{state.value}"))
    return Gated(kept, dropped, changes, state)
