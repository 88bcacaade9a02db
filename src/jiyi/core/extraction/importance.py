"""How much a memory matters, from its text and kind alone (no model)."""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import STRONG_RE
from jiyi.core.extraction.lexicon_health import HEALTH_RE
from jiyi.core.models import MemoryKind

__all__ = ["is_momentary", "score_importance"]

# Stable facts about a person outweigh their tastes, which outweigh one-off happenings.
_BASE: dict[MemoryKind, float] = {
    MemoryKind.FACT: 0.6,
    MemoryKind.PREFERENCE: 0.5,
    MemoryKind.GOAL: 0.55,
    MemoryKind.STATE: 0.4,
    MemoryKind.EVENT: 0.3,
    MemoryKind.SUMMARY: 0.5,
    MemoryKind.EPISODE: 0.2,
}
_NUMBER_RE = re.compile(r"\d|[一二两三四五六七八九十百千万]+(?:岁|个|次|斤|公斤|年|月|号|点)")
_DATE_RE = re.compile(
    r"\d{1,2}月|\d{1,2}[日号]|生日|周[一二三四五六日天]|星期|明天|后天|下周|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\bbirthday\b|\btomorrow\b|"
    r"\bnext (?:week|month)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)
_NAME_RE = re.compile(r"叫|名字|\bnamed?\b|\bcalled\b|(?<=\s)[A-Z][a-z]+")
# A remark bound to this moment: a time word for now/today together with a passing feeling,
# whim or sensation. "今天好热想喝冰咖啡" and "I'm starving right now" matter for an hour,
# not in a later conversation; "今天下午去看牙医" (no whim) and "我感冒了" (no moment) stay.
_MOMENT_RE = re.compile(
    r"今天|今晚|今早|现在|此刻|这会儿|刚才|刚刚|眼下|\b(?:right now|today|tonight|at the moment|"
    r"this morning|this afternoon|atm)\b",
    re.IGNORECASE,
)
_WHIM_RE = re.compile(
    r"好想|想喝|想吃|想睡|想要|有点|好热|好冷|好饿|好困|好累|好无聊|无聊|太热|太冷|饿了|困了|累了|烦|"
    r"[累热冷饿困烦忙挤堵]死了?|累坏了|累瘫|崩溃|好挤|太挤|好堵|太堵|堵车|"
    r"\b(?:traffic|crowded|packed)\b|"
    r"\b(?:want|wanna|could go for|craving|crave|in the mood for|starving|hungry|thirsty|"
    r"sleepy|tired|bored|so hot|so cold|freezing)\b",
    re.IGNORECASE,
)
# Hypotheticals and wishes without commitment: "要是中了彩票我就辞职", "if I won the lottery".
_HYPOTHETICAL_RE = re.compile(
    r"如果|要是|假如|假设|万一|\b(?:if i|i wish|i'd love to someday|someday maybe)\b", re.IGNORECASE
)


def is_momentary(text: str) -> bool:
    """A remark bound to this moment ("今天好热想喝冰咖啡", "I'm starving right now")."""
    return bool(_MOMENT_RE.search(text) and _WHIM_RE.search(text) and not HEALTH_RE.search(text))


def score_importance(text: str, kind: MemoryKind) -> float:
    """Score 0..1: a base per kind, raised by health words (most), strong words
    (必须/一定/千万/过敏/always/never/must …), numbers, dates and names; lowered for a remark
    bound to this moment and for hypotheticals (they fall below the admission floors of
    jiyi.pipeline.write and stay episodes only).

    Health information scores highest because forgetting an allergy can hurt someone;
    one-off events score lowest because they stop mattering soon.
    """
    score = _BASE.get(kind, 0.5)
    if HEALTH_RE.search(text):
        score += 0.3
    if STRONG_RE.search(text):
        score += 0.15
    if _NUMBER_RE.search(text):
        score += 0.05
    if _DATE_RE.search(text):
        score += 0.05
    if _NAME_RE.search(text):
        score += 0.05
    if is_momentary(text):
        score -= 0.25
    if _HYPOTHETICAL_RE.search(text):
        score -= 0.3
    return round(min(1.0, max(0.0, score)), 2)
