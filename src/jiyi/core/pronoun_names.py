"""A name told of "it / she / he" as set right or changed (pure).

猫的名字我说错了，它叫阿黄 / 她现在改名叫朵儿了 / "I got the cat's name wrong, he's Oliver" /
"she's called Em now": the rules read no fact from such a clause (it names nobody), and the
write path's change steps leave names alone, so the old name stayed. Here a clause gives
``(who, name)`` when all of these hold:

- it gives a name to 它 / 她 / 他 or "it / she / he" ("his / her / its name is …", "… is
  called / named …", 叫 / 改名叫 / 名字是 …); a bare "he's Oliver" only when the message speaks
  of a name ("got the cat's name wrong"): "she's Korean" names nobody;
- the message says the name was wrong or changed (说错 / 记错 / 其实 / 改名 / 现在 / "wrong",
  "actually", "now", "goes by" …), so a name said again ("她叫朵朵，今年五岁") is no change;
- it is no nickname (小名 / 昵称 / "nickname"), no question, no one else's (我同事的猫 / "my
  friend's dog": :func:`jiyi.core.extraction.subject.read_subject`) and no newcomer
  (又领养了一只猫，它叫小黑 / "we adopted a second cat, she's called Luna").

``who`` is what the pronoun can stand for: ``it`` (a pet), ``she`` / ``he`` (a relative of
that sex, else a pet), or the pet or relative the message names (``pet.cat``,
``family.daughter``); for 名字改成 X with no pronoun (阿橘是母猫，名字后来改成橘子了),
``named``: whoever the message calls by a stored name. Which stored name it changes is the
write path's (exactly one fits, or nothing: :mod:`jiyi.pipeline.pronoun_names`).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import PETS_EN, PETS_ZH, RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.subject import Who, read_subject
from jiyi.core.extraction.topics import is_name
from jiyi.core.text import to_simplified

__all__ = ["FEMALE", "MALE", "NAMED", "named_by_pronoun", "s_is_has"]

# ``who`` for a rename whose bearer the message calls by the old name (阿橘…名字改成橘子了).
NAMED = "named"

FEMALE = frozenset(
    "daughter wife mother sister grandmother aunt niece girlfriend mother_in_law "
    "daughter_in_law".split()
)
MALE = frozenset(
    "son husband father brother grandfather uncle nephew boyfriend father_in_law son_in_law".split()
)

# What follows a "'s" that stands for "has": a participle ("he's moved up to Year 10", "she's
# already been told") or the Irish perfect ("Niamh's after moving").
_HAS_DONE = re.compile(
    r"\s*(?:just |finally |now |already )?(?:been|got|gone|after|\w+ed)\b", re.IGNORECASE
)


def s_is_has(rest: str) -> bool:
    """Whether a "'s" followed by ``rest`` reads "has" rather than "is"."""
    return _HAS_DONE.match(rest) is not None


_NAME_ZH = r"(?P<n>[\u4e00-\u9fffA-Za-z]{1,4}?)(?=了|啦|哈|呢|吧|$|[，,。！!~～])"
_PRONOUN_ZH = re.compile(
    r"(?:^|[，,。])\s*(?:其实|现在|后来|对了)*(?P<p>它|她|他)(?:的名字)?"
    r"(?:其实|现在|已经|后来|实际上|本来就|改名了?[，,]?|正式)*(?:是)?"
    rf"(?:叫做|改名叫|改叫|改成|叫|名字叫|名字是){_NAME_ZH}"
)
# 阿橘是母猫，名字后来改成橘子了: the name changed, its bearer named by the old name
_RENAMED_ZH = re.compile(
    r"(?:^|[，,。])\s*(?:它的|她的|他的)?名字(?:其实|现在|已经|后来|也)*"
    rf"(?:改成了?|改叫|改为|换成了?|变成了?){_NAME_ZH}"
)
_NAME_EN = r"(?P<n>[A-Z][\w'-]+)\b(?! (?:and|or) )"
_CALLED_EN = re.compile(
    r"\b(?P<p>he|she|it)(?:'s| is)(?: actually| really| now| officially| just)* "
    rf"(?:called|named|going by|goes by) {_NAME_EN}"
)
_QUOTED_ZH = re.compile(
    r"(?:改成|改叫|改为|换成)了?[“\"「『](?P<n>[\u4e00-\u9fffA-Za-z]{1,4})[”\"」』]"
)
_NAME_IS_EN = re.compile(
    r"\b(?P<p>his|her|its) (?:real |actual |new )?name(?:'s| is)(?: actually| really| now)* "
    rf"{_NAME_EN}"
)
# "I got the cat's name wrong, he's Oliver": a bare name after a pronoun, only when the
# message speaks of a name
_BARE_EN = re.compile(rf"\b(?P<p>he|she|it)(?:'s| is)(?: actually| really)? {_NAME_EN}")
_NAME_SAID = re.compile(r"\bname", re.IGNORECASE)
# "dana started calling her Biscuit and now that's the only thing she comes to": a name the
# pet or child took on by use
_CALLING_EN = re.compile(
    r"\b(?:started|been|keeps?|kept|all|everyone's|everybody's) calling "
    r"(?P<p>her|him|it|the (?:dog|cat|pup|puppy|kitten|bird|rabbit)) "
    r"(?P<n>[A-Z][\w'-]+)\b"
)
# 硬给改成了“年糕” / 改叫「豆豆」了: a new name in quotes after the change said
_CUE = re.compile(
    r"说错|记错|搞错|弄错|写错|打错|其实|实际上|改名|改叫|改成|现在|如今|后来|不叫|"
    r"\b(?:wrong|actually|mistake|meant|now|renamed|goes by|going by|these days|anymore|"
    r"any more|officially|real name|correction)\b",
    re.IGNORECASE,
)
_NOT_A_NAME_CHANGE = re.compile(
    r"小名|昵称|外号|绰号|乳名|英文名|网名|[?？]|吗|\b(?:nickname|pet name|middle name|last name|"
    r"surname)\b",
    re.IGNORECASE,
)
# One more pet or relative, named as it arrives: a second one, not the first renamed.
_NEWCOMER = re.compile(
    r"又|还有|另一|另外一|领养|收养|新养|新买|刚养|刚买|生了|出生|"
    r"\b(?:another|also|too|second|adopted|new(?! name)|got a|just got|welcomed|born)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[，,。.!！;；]")
_PRONOUN_KIND = {
    "它": "it",
    "她": "she",
    "他": "he",
    "its": "it",
    "her": "she",
    "his": "he",
    "him": "he",
}


def _named_subject(text: str, low: str, pets_only: bool = False) -> str | None:
    """The one pet or relative the message names (``pet.cat``, ``family.daughter``), if one;
    ``pets_only``: the one pet (the relative named is the one who calls it so)."""
    found = {f"pet.{k}" for w, k in PETS_ZH.items() if w in text}
    if not pets_only:
        found |= {f"family.{k}" for w, k in RELATIONS_ZH.items() if len(w) > 1 and w in text}
    vocabs = ((PETS_EN, "pet"),) if pets_only else ((PETS_EN, "pet"), (RELATIONS_EN, "family"))
    for vocab, area in vocabs:
        found |= {
            f"{area}.{k}" for w, k in vocab.items() if re.search(rf"\b{re.escape(w)}s?\b", low)
        }
    found.discard("pet.pet")
    return found.pop() if len(found) == 1 else None


def named_by_pronoun(message: str) -> tuple[str, str] | None:
    """``(who, name)`` when ``message`` sets right or changes the name of the pet or relative
    a pronoun stands for (see the module doc); None otherwise."""
    text = to_simplified(message)
    if not _CUE.search(text) or _NOT_A_NAME_CHANGE.search(text) or _NEWCOMER.search(text):
        return None
    quoted = _QUOTED_ZH.search(text)
    if quoted and is_name(quoted["n"]) and not _PRONOUN_ZH.search(text):
        # 我女朋友…硬给改成了“年糕”: she renamed it; the pet named, or the stored name said
        return _named_subject(text, text.lower(), pets_only=True) or NAMED, quoted["n"]
    if (calling := _CALLING_EN.search(text)) and is_name(calling["n"]):
        # "dana started calling her Biscuit": a pet named by use (the one who calls her so
        # may be a relative; "her" is never taken for one)
        return _named_subject(text, text.lower(), pets_only=True) or "it", calling["n"]
    if any(read_subject(c) == Who.OTHER for c in _CLAUSE.split(text) if c.strip()):
        return None  # "my friend's dog, he's called Max now": theirs
    renamed = _RENAMED_ZH.search(text)
    if renamed and is_name(renamed["n"]) and not _PRONOUN_ZH.search(text):
        return _named_subject(text, text.lower()) or NAMED, renamed["n"]
    m = _PRONOUN_ZH.search(text) or _CALLED_EN.search(text) or _NAME_IS_EN.search(text)
    if m is None and _NAME_SAID.search(text):
        m = _BARE_EN.search(text)
    if m is None:
        return None
    name = m.group("n").strip()
    pronoun = m.group("p").lower()
    if not name or not is_name(name) or not pronoun:
        return None
    kind = _PRONOUN_KIND.get(pronoun, pronoun)
    named = _named_subject(text, text.lower())
    return (named or kind), name
