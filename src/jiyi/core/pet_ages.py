"""A pet's age, as its memory says it and as a vet, papers or the user set it right.

"我家的泰迪叫团团，今年五岁" and "My cat Smudge is twelve" are stored as the pet's name memory
with the age in its words. "带团团去打疫苗，兽医…说它至少八岁了", "不是哈 它才三岁", "the vet
figures she's actually closer to fifteen" and "Snowy already five years old leh" change only
the age: the same memory told with the new one (:mod:`jiyi.pipeline.pet_age`). This module only
reads the words. Chinese is read in simplified characters (callers convert).
"""

from __future__ import annotations

import re

__all__ = ["breed_swap", "held_age", "new_age"]

_ZH_N = r"[\d一二两三四五六七八九十半]{1,3}"
_EN_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
_EN_N = rf"(?:\d{{1,2}}|{'|'.join(sorted(_EN_WORDS, key=len, reverse=True))})"
_ZH_AGE = re.compile(rf"(?P<n>{_ZH_N})(?:周)?岁")
_EN_HELD = re.compile(
    rf"\b(?:is|turned|aged?|about|around)\s+(?P<n>{_EN_N})(?:\s+(?:years?|yrs?)(?:\s+old)?)?"
    rf"(?=\s*(?:$|[,.;!?)]|and\b|now\b))|\b(?P<m>{_EN_N})\s+(?:years?|yrs?)\s+old\b",
    re.IGNORECASE,
)
# What someone found or the user set right: "closer to fifteen", "more like 7", "already five
# years old", "she's 9"; 至少八岁 / 才三岁 / 起码三岁.
_EN_NEW = re.compile(
    r"\b(?:closer to|more like|nearer|at least|actually|really|already|probably|is|'s|turned)"
    rf"\s+(?:about |around |like )?(?P<n>{_EN_N})(?:\s+(?:years?|yrs?)(?:\s+old)?)?\b"
    r"(?!\s*(?:months?|weeks?|days?|minutes?|kg|kilos?|pounds?|lbs?|%))",
    re.IGNORECASE,
)


def _en_number(said: str) -> int:
    said = said.lower()
    return int(said) if said.isdigit() else _EN_WORDS.index(said) + 1


def held_age(content: str) -> str | None:
    """The age a pet's memory states (五岁, twelve), as said; None for none or several."""
    zh = _ZH_AGE.findall(content)
    if zh:
        return zh[0] + "岁" if len(set(zh)) == 1 else None
    en = [m.group("n") or m.group("m") for m in _EN_HELD.finditer(content)]
    return en[0] if len(set(en)) == 1 else None


def new_age(text: str, held: str) -> str | None:
    """The one age ``text`` gives other than ``held`` (as said); None for none or several."""
    if held.endswith("岁"):
        said = {m.group(0) for m in _ZH_AGE.finditer(text)} - {held}
        said = {s for s in said if s.removesuffix("岁").removesuffix("周") != held[:-1]}
        return said.pop() if len(said) == 1 else None
    ages = {m.group("n") for m in _EN_NEW.finditer(text)}
    ages = {a for a in ages if _en_number(a) != _en_number(held)}
    return ages.pop() if len(ages) == 1 else None


# A breed named wrong and the one found instead: 不是米克斯 / 当萨摩耶养了两年 / "not beagle at
# all" / "no huntaway at all", and 根本是纯种台湾犬 / 结果是银狐犬 / "mostly basset hound" /
# "he's a heading dog cross".
_WAS_ZH = re.compile(
    r"不是(?:纯种的?)?(?P<o>[\u4e00-\u9fff]{2,5}?)(?=[欸啊呀哦了，,。!！]|$)|"
    r"当(?P<p>[\u4e00-\u9fff]{2,5}?)养|"
    # 之前一直以为布甸系唐狗 (Cantonese 係): the breed the user took it for
    r"以为[\u4e00-\u9fff]{0,4}?(?:是|系)(?P<q>[\u4e00-\u9fff]{2,5}?)(?=[，,。!！]|$)"
)
_IS_ZH = re.compile(
    r"(?:结果是|根本是|其实是|原来是|原来系|检测出来是|测出来是|说它是|说牠是)(?:纯种的?|一只|一条)?"
    r"(?P<n>[\u4e00-\u9fff]{1,5}?(?:犬|狗|猫|梗|獒))"
)
_WAS_EN = re.compile(
    r"\b(?:not|no|isn'?t|wasn'?t) (?:a |an )?(?P<o>[a-z]+(?: [a-z]+)?) at all\b|"
    r"\bnot (?:a |an )?(?P<p>[a-z]+)(?=[,.;!]|$)",
    re.IGNORECASE,
)
_IS_EN = re.compile(
    r"\b(?:mostly|actually|really|(?:he|she|it)(?:'s|s| is) (?:an? |mostly |actually )?)"
    r"(?P<n>[a-z]+(?: [a-z]+)?)(?= cross\b| mix\b| x\b| with a bit\b|[,.;!]|$)",
    re.IGNORECASE,
)


def breed_swap(content: str, text: str) -> tuple[str, str] | None:
    """(old, new): the breed a pet's memory ``content`` holds that ``text`` names as wrong, and
    the one ``text`` names instead; None unless both are said and the old one is stored."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    was = [
        m.group("o") or m.group("p") or m.groupdict().get("q")
        for m in (_WAS_ZH if zh else _WAS_EN).finditer(text)
    ]
    old = next((w for w in was if w and w.lower() in content.lower()), None)
    if old is None:
        return None
    new = [m.group("n") for m in (_IS_ZH if zh else _IS_EN).finditer(text)]
    new = [n for n in new if n.lower() != old.lower() and n.lower() not in content.lower()]
    if len(set(new)) != 1:
        return None
    at = content.lower().find(old.lower())
    end = at + len(old)
    while not zh and end < len(content) and content[end].isalpha():
        end += 1  # "isn't a lab" of "a labrador": the stored word whole
    return content[at:end], new[0]
