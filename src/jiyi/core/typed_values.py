"""Values of a typed kind in Chinese text: a weekday, a clock time, a count with its measure.

A change often names only the new value and leaves the slot to the listener: 游泳挪到周五了,
跑步改到晚上八点, 现在一天就一杯了, 改成一天三顿了. The kind of the value (a weekday, a time of
day, a number of cups) says which stored fact it changes: the one fact that holds a value of
the same kind (the same measure word for a count) and shares a word with the message. This
module only reads the words; :mod:`jiyi.pipeline.typed_swap` finds the fact and swaps the value.

Pure functions, no I/O. Text is read in simplified characters (callers convert).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["TypedValue", "anchors", "change_clauses", "typed_values", "verb_anchor"]

_NUM = r"[\d一二两三四五六七八九十]"
# 每周三次 is how often, not a Wednesday: a weekday is not followed by a count word.
# (下昼 / 上昼 / 晏昼: Cantonese for the afternoon, the morning and midday)
_PART = r"(?:早上|上午|中午|下午|晚上|凌晨|傍晚|夜里|下昼|上昼|晏昼)"
# A run of weekdays (周二周四 / 周二和周四 / 周一到周五) is one value: a routine's days.
_DAY = r"(?:周|星期|礼拜)[一二三四五六日天1-7]"
_WEEKDAY = (
    rf"{_DAY}(?:(?:[和、跟]|到)?(?:{_DAY}|(?<=[一二三四五六日天1-7])[一二三四五六日天1-7]))*"
    rf"(?![次回趟天个]){_PART}?"
)
# 五点四十 / 六点一刻 / 7点15: the minutes said without 分 too
# 差一刻七点 / 差五分八点: a quarter or some minutes before the hour (6:45, 7:55)
_CLOCK = (
    rf"{_PART}?(?:差(?:一刻|{_NUM}{{1,2}}分?))?{_NUM}{{1,3}}点(?:半|一刻|三刻|{_NUM}{{1,3}}分?)?"
)
_UNITS = r"杯|顿|次|包|勺|片|粒|颗|瓶|罐|支|根|公里|个小时|小时|趟|节课|碗"
_COUNT = rf"(?<![\d一二两三四五六七八九十每周第])(?:{_NUM}{{1,3}}|半)(?P<unit>{_UNITS})"
_TYPED = re.compile(rf"(?P<weekday>{_WEEKDAY})|(?P<clock>{_CLOCK})|(?P<count>{_COUNT})")
# A change of what holds now, said with its verb or a "now" word: 改到 / 挪到 / 换成 / 现在.
_CUE = re.compile(
    r"(?:改|换|挪|调|推|延|提前|变|移|减|降|加|排)(?:到|成|为|在)|现在|如今|以后|从此|今后|"
    # 之后改周日早上打了: a new day or part of day said right after the verb
    r"(?:改|挪|调)(?:了)?(?=(?:每)?(?:周|星期|礼拜|早上|晚上|上午|下午|中午))|"
    r"最近|这阵子|这段时间|近来|"
    r"从(?:这|下|本)(?:周|星期|礼拜|个?月)(?:起|开始)"
)
# A worry, a wish, a condition or a question states nothing that changed.
_UNREAL = re.compile(
    r"怕|担心|如果|要是|万一|可能|会不会|恐怕|假如|想|打算|准备|考虑|吗|[?？]|(.)不\1|"
    # 游泳馆现在周一闭馆: the place's hours, not the user's routine
    r"闭馆|关门|不开门|停业|歇业|放假|停课|维修"
)
# A clause with the mark that ends it (a question mark makes it a question).
_CLAUSES = re.compile(r"(?P<c>(?:(?!但是|不过)[^，,。.;；!！?？])+)(?P<end>[，,。.;；!！?？]*)")
# Time words and fillers that every routine shares: no anchor between two facts.
_FILLER = re.compile(
    r"用户|用戶|每天|每周|每晚|每早|天天|早上|上午|中午|下午|晚上|凌晨|傍晚|夜里|下昼|上昼|一天|一周|现在|"
    r"只|都|就|去|的|了|在|要|会|我|喜欢"
)


@dataclass(frozen=True)
class TypedValue:
    """One value of a kind (``weekday``, ``clock``, ``count``) as said (``surface``); a
    count's measure word (``unit``) and the word right after it (``after``: 咖啡 of 一杯咖啡);
    the part of the day a weekday or clock time names (``part``: 晚上 of 周四晚上)."""

    kind: str
    surface: str
    unit: str = ""
    after: str = ""
    part: str = ""


def typed_values(text: str) -> list[TypedValue]:
    """The weekday, clock and count values said in ``text``, in order."""
    out: list[TypedValue] = []
    for m in _TYPED.finditer(text):
        kind = next(k for k in ("weekday", "clock", "count") if m.group(k))
        unit = m.group("unit") or ""
        after = re.match(r"[\u4e00-\u9fffA-Za-z]{0,4}", text[m.end() :])
        said = (after.group(0) if after else "").removeprefix("了")
        said = "" if re.match(r"[就都也了的吧啊呢哦还才够]", said) else said  # 一杯就够了: no noun
        part = re.search(_PART, m.group(0)) if kind != "count" else None
        out.append(
            TypedValue(
                kind,
                m.group(0),
                unit,
                said if kind == "count" else "",
                part.group(0) if part else "",
            )
        )
    return out


def change_clauses(text: str) -> list[str]:
    """The clauses of ``text`` that say a value changed (a change verb or a "now" word, and no
    worry, wish, condition or question)."""
    out = []
    text = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "，", text)  # chat: 空格断句
    for m in _CLAUSES.finditer(text):
        clause, said = m.group("c").strip(), m.group("c") + m.group("end")
        if clause and _CUE.search(clause) and not _UNREAL.search(said):
            out.append(clause)
    return out


def anchors(content: str, held: TypedValue) -> set[str]:
    """Words of a stored fact that a message must repeat to be about it: its two-character
    runs once its typed value, time words and fillers are gone."""
    rest = _FILLER.sub(" ", content.replace(held.surface, " "))
    runs = re.findall(r"[\u4e00-\u9fff]{2,}", rest)
    return {run[i : i + 2] for run in runs for i in range(len(run) - 1)}


def verb_anchor(content: str, held: TypedValue) -> str:
    """The one character a fact says its typed value with: the verb after a clock time (起 of
    七点起床) or before a count (喝 of 喝两杯); "" when there is none."""
    at = content.find(held.surface)
    if at < 0:
        return ""
    near = content[at + len(held.surface) : at + len(held.surface) + 1]
    if held.kind == "count":
        near = content[at - 1 : at] if at > 0 else ""
    elif held.kind == "weekday":  # 周三晚上去跳广场舞: 跳, the verb after 去
        went = re.match(
            r"(?:都|就)?(?:去|来)(?P<v>[\u4e00-\u9fff])", content[at + len(held.surface) :]
        )
        near = went["v"] if went else ""
    elif held.kind == "clock":  # 早上6点去晨跑: 跑, past 去 and the part of the day
        went = re.match(
            r"(?:都|就)?(?:去|来)?[晨早晚夜午]?(?P<v>[\u4e00-\u9fff])",
            content[at + len(held.surface) :],
        )
        near = went["v"] if went else ""
    else:
        return ""
    return near if re.fullmatch(r"[\u4e00-\u9fff]", near) and not _FILLER.fullmatch(near) else ""
