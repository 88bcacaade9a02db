"""English slot rules for stable facts (same slots and order as :mod:`.zh_facts`).

Clauses arrive with curly apostrophes straightened; matching is case-insensitive, but values
are taken from the original text so names keep their capitals.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import (
    CITIES_EN,
    CONDITION_RE,
    CONDITIONS,
    PETS_EN,
    PRONOUN_OBJECTS,
    RELATIONS_EN,
    word_set,
)
from jiyi.core.extraction.topics import clean_value, normalize_object, slug
from jiyi.core.models import MemoryKind

__all__ = [
    "ADV",
    "CHANGE_RE",
    "FACT_RULES",
    "IM",
    "PAST_VERBS",
    "family_rule",
    "object_key",
    "third_person_en",
]

F, P, G, E, S = (
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.GOAL,
    MemoryKind.EVENT,
    MemoryKind.STATE,
)
_I = re.IGNORECASE
_REL = "|".join(sorted(RELATIONS_EN, key=len, reverse=True))
_PET = "|".join(sorted(PETS_EN, key=len, reverse=True))
IM = r"(?:i'm|i am|im)"
ADV = (
    r"(?:(?:really|also|usually|always|never|often|just|actually|only|still|sometimes|"
    r"absolutely|totally|currently|now|mostly|rarely|seriously|honestly|definitely|kind of|"
    r"sort of|normally|typically|generally|no longer|recently|finally|even|do|truly|"
    r"genuinely|pretty much)\s+)*"
)
_SEP = re.compile(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*|/", _I)
CHANGE_RE = re.compile(
    r"\b(?:no longer|anymore|any more|not \w+ now|moved to|switched to|"
    r"gave up|quit|stopped)\b",
    _I,
)

PAST_VERBS = word_set(
    """
    was were went had got took ate drank saw met bought left came did made began flew
    grew gave found lost broke fell felt forgot heard kept knew paid ran said sent sold
    sat slept spent told thought woke won wrote became brought caught chose drove fought
    held led put read rode rose set sang swam taught threw wore
    """
)
_MODAL = word_set(
    """
    can could will would should shall may might must can't won't cannot
    """
)


def _third(verb: str) -> str:
    v = verb.lower()
    special = {
        "am": "is",
        "'m": "is",
        "have": "has",
        "'ve": "has",
        "do": "does",
        "go": "goes",
        "don't": "doesn't",
        "haven't": "hasn't",
        "'d": "would",
        "'ll": "will",
    }
    if v in special:
        return special[v]
    if v in _MODAL or v in PAST_VERBS or v.endswith("ed") or not v.isalpha():
        return verb
    if v.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if v.endswith("y") and len(v) > 2 and v[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def third_person_en(clause: str) -> str:
    """I'm allergic to peanuts → User is allergic to peanuts; my dog is called Max → User's dog
    is called Max; I never eat pork → User never eats pork."""
    text = clean_value(clause)
    m = re.match(rf"^(?:i'm|im)\b|^i(?:'ve|'d|'ll)?\s+(?P<adv>{ADV})(?P<verb>[\w']+)", text, _I)
    if re.match(r"^(?:i'm|im)\b", text, _I):
        text = "User is" + text[text.index("m") + 1 :]
    elif re.match(r"^i've\b", text, _I):
        text = "User has" + text[4:]
    elif m and m.group("verb"):
        text = "User " + m.group("adv") + _third(m.group("verb")) + text[m.end() :]
    elif re.match(r"^my\b", text, _I):
        text = "User's" + text[2:]
    text = re.sub(r"\bmy\b", "their", text, flags=_I)
    text = re.sub(r"\bi'm\b", "they're", text, flags=_I)
    text = re.sub(r"\b(?:me|myself)\b", "them", text, flags=_I)
    text = re.sub(r"\bi\b", "they", text, flags=_I)
    return text if text.startswith("User") else "User: " + text


def object_key(value: str) -> str | None:
    value = clean_value(value)
    value = re.split(
        r"\s+(?:over|rather than|instead of|more than|than|but|because|since|"
        r"when|if|so)\s+",
        value,
        maxsplit=1,
        flags=_I,
    )[0]
    if (
        not value
        or value.lower() in PRONOUN_OBJECTS
        or re.match(r"^(?:what|which|who)\b", value, _I)
    ):
        return None
    norm = normalize_object(value)
    return norm if norm and norm not in PRONOUN_OBJECTS else None


# ------------------------------------------------------------------ family and pets


def _family(c: str, ctx: Context) -> list[Hit]:
    m = re.match(rf"^i have (?:a|an|one|two|three|four|\d+) (?P<rel>{_REL})s?\b", c, _I)
    if m:
        return [Hit(F, f"family.{RELATIONS_EN[m.group('rel').lower()]}", "family.has")]
    m = re.match(rf"^(?:my|our) (?P<rel>{_REL})(?:'s)?\b(?P<rest>.*)$", c, _I)
    if not m:
        return []
    ctx.extra["family_en"] = m.group(0)[: m.start("rest")].removesuffix("'s")
    key, rest = f"family.{RELATIONS_EN[m.group('rel').lower()]}", m.group("rest").strip()
    if re.match(r"^(?:name is|is called|is named|goes by|,? named|,? called)\s+\S", rest, _I):
        return [Hit(F, f"{key}.name", "family.name")]
    if re.match(
        r"^is (?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)"
        r"(?: years? old| months? old)?$",
        rest,
        _I,
    ):
        return [Hit(F, f"{key}.age", "family.age")]
    if n := re.search(r"allergic to (?P<x>.+)$", rest, _I):
        return [
            Hit(F, f"{key}.health.allergy.{o}", "family.allergy")
            for part in _SEP.split(n.group("x"))
            if (o := object_key(part))
        ]
    if cm := CONDITION_RE.search(rest):
        return [Hit(F, f"{key}.health.{CONDITIONS[cm.group(0).lower()][0]}", "family.health")]
    n = re.match(
        rf"^{ADV}(?P<v>loves|likes|adores|enjoys|hates|doesn't like|does not like|"
        r"can't stand|can't eat|cannot eat|doesn't eat|does not eat|can't have)"
        r"\s+(?P<x>.+)$",
        rest,
        _I,
    )
    if n and (o := object_key(n.group("x"))):
        pol = (
            "like"
            if n.group("v").lower() in {"loves", "likes", "adores", "enjoys"}
            else ("dislike")
        )
        return [Hit(P, f"{key}.pref.{o}", "family.pref", polarity=pol)]
    if len(rest.split()) >= 2:
        return [Hit(F, f"{key}.about", "family.about")]
    return []


def _pet(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:my|our) (?P<pet>{_PET})(?:'s name is|'s name's| is called| is named|,? named|"
        r",? called)\s+\S",
        c,
        _I,
    )
    if m:
        return [Hit(F, f"pet.{PETS_EN[m.group('pet').lower()]}.name", "pet.name")]
    m = re.match(
        rf"^i (?:have|own|got|adopted) (?:a|an|one|two|\d) (?P<pet>{_PET})s?"
        r"(?P<named>,? (?:named|called) \S+)?",
        c,
        _I,
    )
    if m:
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        return [Hit(F, key + (".name" if m.group("named") else ""), "pet.has")]
    return []


# ------------------------------------------------------------------ health


def _health(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"\b(?P<neg>not |no longer |n't )?(?:severely |very |mildly |extremely |deathly |"
        r"a bit |slightly |a little )?allergic to (?P<x>.+)$",
        c,
        _I,
    ) or re.search(r"\bi have (?:an? |a severe |a mild )?(?P<x>[\w -]+?) allergy\b(?P<neg>)", c, _I)
    if m:
        neg = bool(m.group("neg")) or bool(CHANGE_RE.search(c))
        parts = _SEP.split(re.sub(r"\s+(?:anymore|any more)$", "", m.group("x"), flags=_I))
        hits = [
            Hit(F, f"health.allergy.{o}", "allergy", correction=neg)
            for part in parts
            if (o := object_key(part))
        ]
        if hits:
            ctx.extra["last_obj"] = hits[-1].topic.rsplit(".", 1)[1]
            ctx.extra["last_word"] = clean_value(parts[-1])
        return hits
    m = CONDITION_RE.search(c)
    if m and re.search(r"\b(?:i|i'm|im|my)\b", c, _I):
        key, _, en = CONDITIONS[m.group(0).lower()]
        if re.search(r"\b(?:not|no longer|don't have|do not have|cured|anymore)\b", c, _I):
            return [
                Hit(
                    F, f"health.{key}", "condition", content=f"User no longer {en}", correction=True
                )
            ]
        return [Hit(F, f"health.{key}", "condition", content=f"User {en}")]
    m = re.search(rf"^{IM} (?:on|taking) (?P<x>[\w-]+)(?: medication| pills| tablets)?$", c, _I)
    if m and (o := object_key(m.group("x"))):
        return [Hit(F, f"health.medication.{o}", "medication")]
    return []


# ------------------------------------------------------------------ identity, home, work

_NATIONALITIES = word_set(
    """
    american british english chinese canadian australian indian japanese korean german
    french italian spanish mexican brazilian russian irish scottish dutch swedish
    singaporean
    """
)
_ROLE = re.compile(
    r"(?:er|or|ist|ian|ant|ent|nurse|doctor|chef|student|engineer|developer|designer|manager|"
    r"lawyer|teacher|architect|scientist|founder|ceo|cto|pm|intern|freelancer|retiree|"
    r"mom|mum|dad|parent|grad|analyst|consultant|accountant|pilot|barista|artist|writer)$",
    _I,
)
_NOT_ROLE = frozenset(
    ["fan", "lover", "person", "vegetarian", "vegan", "big", "huge", "member", "user", "beginner"]
)


def _identity(c: str, ctx: Context) -> list[Hit]:
    if re.match(
        r"^(?:my name is|my name's|i'm called|i am called|(?:you can )?call me|"
        r"the name's|people call me)\s+\S",
        c,
        _I,
    ):
        return [Hit(F, "identity.name", "name")]
    m = re.match(r"^(?:[Ii]'m|[Ii] am) (?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)$", c)
    if m:
        if m.group("x").lower() in _NATIONALITIES:
            return [Hit(F, "identity.nationality", "nationality")]
        return [Hit(F, "identity.name", "name.im")]
    if re.match(rf"^(?:{IM}|i just turned|i turned) \d{{1,3}}(?: years old| yrs old| yo)?$", c, _I):
        return [Hit(F, "identity.age", "age")]
    if re.match(r"^(?:my birthday is|my bday is|i was born on)\s+\S", c, _I):
        return [Hit(F, "birthday", "birthday")]
    if re.match(r"^i was born in \d{4}$", c, _I):
        return [Hit(F, "identity.birth_year", "birth_year")]
    if re.match(
        rf"^(?:{IM} (?:originally )?from|i grew up in|my hometown is|i was born in)\s+\S", c, _I
    ):
        return [Hit(F, "location.hometown", "hometown")]
    if re.match(rf"^{IM} (?:married|single|divorced|engaged|widowed)\b", c, _I):
        return [Hit(F, "family.marital", "marital")]
    m = re.match(
        rf"^{IM} (?:a |an )?(?P<x>left-handed|right-handed|colou?r-?blind|deaf|"
        r"hard of hearing|short-sighted|near-?sighted|introvert(?:ed)?|extrovert(?:ed)?|"
        r"morning person|night owl|only child|twin)\b",
        c,
        _I,
    )
    if m:
        return [Hit(F, f"identity.trait.{slug(m.group('x'))}", "trait")]
    return []


def _home(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:(?:i|we) (?P<neg>don't |do not |no longer )?(?:now |currently |still )?"
        rf"live in|(?:i|we)(?:'ve| have)? (?:just |recently |finally )?(?P<mv>moved)"
        rf"(?: from .+?)? to|{IM} (?:now )?based in|"
        r"my home is in|home is)\s+(?P<x>.+)$",
        c,
        _I,
    )
    if m:
        change = bool(m.group("neg") or m.group("mv") or CHANGE_RE.search(c))
        return [Hit(F, "location.home", "home", correction=change)]
    return []


def _work(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^i (?P<neg>don't |do not |no longer )?(?:now |currently |still )?work "
        r"(?P<prep>at|for|in) (?P<x>.+?)(?: as (?:an? )?(?P<role>.+?))?(?: any ?more)?$",
        c,
        _I,
    )
    if m and m.group("role") and not m.group("neg"):
        return [
            Hit(
                F, "work.employer", "employer", content=f"User works at {clean_value(m.group('x'))}"
            ),
            Hit(F, "work.role", "role", content=f"User is a {clean_value(m.group('role'))}"),
        ]
    if m:
        change = bool(m.group("neg") or CHANGE_RE.search(c))
        if m.group("prep").lower() == "in":
            topic = (
                "location.work"
                if clean_value(m.group("x")).lower() in CITIES_EN
                else ("work.field")
            )
            return [Hit(F, topic, "work.in", correction=change)]
        return [Hit(F, "work.employer", "employer", correction=change)]
    if re.match(
        r"^i(?:'ve| have)? (?:just |recently )?(?:joined|started (?:working )?at|"
        r"started a new job at|got a job at|switched to|moved to work at)\s+\S",
        c,
        _I,
    ):
        return [Hit(F, "work.employer", "employer.change", correction=True)]
    if re.match(rf"^(?:{IM} (?:a )?student at|i study at|i go to school at)\s+\S", c, _I):
        return [Hit(F, "education.school", "school")]
    m = re.match(
        rf"^(?:{IM} (?:an?|the) |i work as (?:an? )?)(?P<x>[a-z][a-z -]*?)"
        r"(?: at (?P<y>.+))?$",
        c,
        _I,
    )
    if m and _ROLE.search(m.group("x")) and m.group("x").split()[-1].lower() not in _NOT_ROLE:
        hits = [Hit(F, "work.role", "role")]
        if m.group("y"):
            hits.append(
                Hit(
                    F,
                    "work.employer",
                    "employer.role",
                    content=f"User works at {clean_value(m.group('y'))}",
                )
            )
        return hits
    return []


def family_rule(c: str, ctx: Context) -> list[Hit]:
    """The family rule alone, for clauses that inherit a family subject."""
    return _family(c, ctx)


# Stable facts, most specific first; the first rule that fires wins.
FACT_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    _family,
    _pet,
    _health,
    _identity,
    _work,
    _home,
)
