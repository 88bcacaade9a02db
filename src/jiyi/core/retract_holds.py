"""Which stored memory holds what a retraction names (zh + en, pure): :func:`holds`.

:func:`jiyi.core.retract.find_retractions` reads the retracted phrases of a message; here a
phrase is matched against one memory (topic, value, content) in the slots its cue's kind and
subject may touch — keyed slots by their object (``pref.跑步`` by 跑步), others by their value
or its head (信阳 of 老家信阳, lab of labrador), a memory without a value by its content — and
a few values held in passing (a drink of a kind quit, a job said with its workplace, a breed
said in a pet's name).

Apart from :mod:`jiyi.core.retract` because that module reads the message and this one reads
a stored memory: the write path (:mod:`jiyi.pipeline.retract`) and
:mod:`jiyi.core.anaphora_kept` call both.

Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import DRINKS
from jiyi.core.extraction.topics import normalize_object
from jiyi.core.retract import Retraction, _latin
from jiyi.core.text import has_cjk, to_simplified

__all__ = ["holds"]


# Polarity values of slots keyed by their object (health.allergy.虾 = yes, pref.跑步 = like).
_KEYED = frozenset({"like", "dislike", "yes", "no"})


_WORKS_THERE = re.compile(r"打工|上班|工作|干活|做事")


def _allowed(r: Retraction, topic: str, value: str | None, content: str) -> bool:
    """May a cue of ``r``'s kind and subject retract a memory of ``topic`` (``content``: how
    it was said)?"""
    area = topic.split(".", 1)[0]
    if r.subject is not None:
        if not topic.startswith(f"family.{r.subject}."):
            return False
    elif area == "family":
        return False
    if r.kind == "died":
        return area == "pet" and topic.endswith(".name")
    if r.kind == "fine":
        return area == "health" or value in ("dislike", "no")
    if r.kind == "work":
        # 我哥不在深圳干了 also retires a city said as where they work (我哥在深圳打工)
        city = topic.endswith(".city") and _WORKS_THERE.search(to_simplified(content))
        return (
            area == "work"
            or topic == "location.work"
            or topic.endswith((".job", ".employer"))
            or bool(city)
        )
    if r.kind in ("stopped", "dropped"):
        return not topic.startswith("health.allergy.")
    return True


def _same_or_head(phrase: str, held: str) -> bool:
    """Is ``phrase`` the value ``held`` or its head (信阳 of 老家信阳, sugar of two_sugar,
    tea of green_tea), or an English abbreviation of it (lab of labrador)?"""
    if not phrase or not held:
        return False
    if phrase == held:
        return True
    if _latin(phrase):
        if held.endswith(("_" + phrase, " " + phrase)):  # milk tea of hong kong milk tea
            return True
        if len(phrase) >= 4 and held.startswith(phrase + "_"):  # dunkin of a dunkin iced coffee
            return True
        return "_" not in phrase + held and len(phrase) >= 3 and held.startswith(phrase)
    if len(phrase) == 2 and re.search(
        f"{re.escape(phrase[0])}.{{0,2}}{re.escape(phrase[1])}$", held
    ):
        return True  # 珍奶 of 全糖珍珠奶茶 (a short name of the last word)
    if len(phrase) >= 2 and re.fullmatch(rf"{re.escape(phrase)}类?(?:药物|药品|药)?", held):
        return True  # 磺胺 of 磺胺类药物: a drug named by its class
    return len(phrase) >= 2 and held.endswith(phrase)


def holds(r: Retraction, topic: str | None, value: str | None, content: str) -> bool:
    """Does a memory (``topic``, ``value``, ``content``) literally hold what ``r`` retracts,
    in a slot its cue may touch? Keyed slots are matched by their object (``pref.跑步`` by
    跑步), others by their value; a memory without a value by its content."""
    if not topic or not _allowed(r, topic, value, content):
        return False
    if r.kind == "stopped" and topic.startswith("diet.") and _quits_kind(r, topic):
        return True  # 咖啡戒了 / "gave up coffee": any coffee the user drank (美式, a latte)
    held = topic.rsplit(".", 1)[-1] if value in _KEYED else value
    # a habit is keyed by what is done whatever its value says (habit.奶茶 = 每天下午)
    alike = [held, topic.rsplit(".", 1)[-1]] if topic.startswith("habit.") else [held]
    for phrase in r.phrases:
        p = normalize_object(phrase)
        if any(
            h is not None and _same_or_head(p, normalize_object(h.replace("_", " "))) for h in alike
        ):
            return True
        if held is None and len(p) >= 2 and _in_text(phrase, to_simplified(content)):
            return True
        if _role_at(r, topic, phrase, content):
            return True
        if _breed_in_name(r, topic, phrase, content):
            return True
    return False


def _quits_kind(r: Retraction, topic: str) -> bool:
    """Does ``r`` stop a whole kind of drink (咖啡, coffee, 茶, tea) that ``topic``
    (``diet.<kind>.<attribute>``) is a fact of?"""
    kind = topic.split(".")[1]
    for phrase in r.phrases:
        said = DRINKS.get(phrase.lower())
        if said is not None and not said[1] and said[0] == kind:
            return True
    return False


def _role_at(r: Retraction, topic: str, phrase: str, content: str) -> bool:
    """ "在小区当保安" holds the job in its workplace memory: 保安不干了 retires it."""
    if r.kind not in ("stopped", "work") or topic not in ("location.work", "work.employer"):
        return False
    said = to_simplified(content)
    return len(phrase) >= 2 and re.search(rf"(?:当|做|干){re.escape(phrase)}$", said) is not None


def _breed_in_name(r: Retraction, topic: str, phrase: str, content: str) -> bool:
    """ "I have a husky named Luna" holds the breed in its name memory: "not a husky" (a
    value that was never right) retires it, and the new breed's memory names Luna again."""
    if r.kind != "wrong" or not topic.startswith("pet.") or not topic.endswith(".name"):
        return False
    if has_cjk(phrase):  # 我家有只柴犬叫小米
        return (
            re.search(rf"{re.escape(phrase)}[，,]?(?:叫|名叫|名字叫)", to_simplified(content))
            is not None
        )
    pattern = rf"\b(?:an?|my|our) {re.escape(phrase)} (?:named|called)\b"
    return re.search(pattern, content, re.I) is not None


def _in_text(phrase: str, text: str) -> bool:
    if has_cjk(phrase):
        return phrase in text
    if re.search(rf"\b{re.escape(phrase)}s?\b", text, re.IGNORECASE):
        return True
    # "quit teaching" names what "teaches math at a high school" said by the verb
    stem = phrase[:-3] if phrase.endswith("ing") and " " not in phrase else ""
    stem = stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else stem  # running → run
    return len(stem) >= 3 and bool(re.search(rf"\b{re.escape(stem)}(?:e|es|s|ed)?\b", text, re.I))
