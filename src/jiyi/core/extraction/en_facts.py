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
    DRINK_RE,
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


_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
} | {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6"}
_NUMBER_WORDS |= {"seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10", "eleventh": "11"}
_NUMBER_WORDS |= {"twelfth": "12", "freshman": "9", "sophomore": "10", "junior": "11"}
_NUMBER_WORDS |= {"senior": "12"}


def _number(word: str) -> str:
    """seven → 7, 4th → 4, sophomore → 10; digits as they are."""
    w = word.lower()
    return _NUMBER_WORDS.get(w) or re.sub(r"(?:st|nd|rd|th)$", "", w)


def _first_name(value: str, words: int = 1) -> str:
    """The name at the start of a phrase: "Otis now, not Milo" → Otis."""
    value = re.split(r",|\bnot\b|\bbut\b|\band\b|\bsince\b|\bnow\b", value, maxsplit=1, flags=_I)[0]
    return " ".join(clean_value(value).split()[:words])


def _place(value: str) -> str:
    """A place or organisation as said, without trailing time words: "Denver last month" →
    Denver."""
    value = re.split(
        r"\s+(?:last|this|next|in \d{4}|a few|two|three|since|now|recently|anymore|any more|"
        r"in (?:the )?(?:spring|summer|fall|autumn|winter)|in (?:jan|feb|mar|apr|may|jun|jul|aug|"
        r"sep|oct|nov|dec)[a-z]*|"
        r"for \w+|because|but|and)\b",
        value,
        maxsplit=1,
        flags=_I,
    )[0]
    return clean_value(value)


# ------------------------------------------------------------------ family and pets


def _family(c: str, ctx: Context) -> list[Hit]:
    m = re.match(rf"^i have (?:a|an|one|two|three|four|\d+) (?P<rel>{_REL})s?\b", c, _I)
    if m:
        return [Hit(F, f"family.{RELATIONS_EN[m.group('rel').lower()]}", "family.has", value="yes")]
    m = re.match(rf"^(?:my|our) (?P<rel>{_REL})(?:'s)?\b(?P<rest>.*)$", c, _I)
    if not m:
        return []
    ctx.extra["family_en"] = m.group(0)[: m.start("rest")].removesuffix("'s")
    key, rest = f"family.{RELATIONS_EN[m.group('rel').lower()]}", m.group("rest").strip()
    n = re.match(
        r"^(?:name is|is called|is named|goes by|,? named|,? called)\s+(?P<x>\S.*)$", rest, _I
    )
    if n:
        return [Hit(F, f"{key}.name", "family.name", value=_first_name(n.group("x")))]
    n = re.match(r"^(?:is|'s) (?:actually )?(?P<x>[A-Z][a-z]+)$", rest)
    if n:  # "my wife is Rebecca" — a capitalised single word after "is" is a name
        name = n.group("x")
        content = f"User's {m.group('rel').lower()} is named {name}"
        return [Hit(F, f"{key}.name", "family.name", content=content, value=name)]
    n = re.match(
        r"^(?:is|just turned|turned) (?:now )?(?P<x>\d{1,3}|one|two|three|four|five|six|seven|"
        r"eight|nine|ten|eleven|twelve)(?: years? old| months? old)?(?: now)?$",
        rest,
        _I,
    )
    if n:
        return [Hit(F, f"{key}.age", "family.age", value=_number(n.group("x")))]
    n = re.match(
        r"^is (?:now )?in (?:the )?(?P<x>\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|"
        r"sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) grade$|"
        r"^is (?:now )?a (?P<y>freshman|sophomore|junior|senior)\b",
        rest,
        _I,
    )
    if n:
        grade = _number(n.group("x") or n.group("y"))
        return [Hit(F, f"{key}.grade", "family.grade", value=grade)]
    if n := re.search(r"allergic to (?P<x>.+)$", rest, _I):
        return [
            Hit(F, f"{key}.health.allergy.{o}", "family.allergy", value="yes")
            for part in _SEP.split(n.group("x"))
            if (o := object_key(part))
        ]
    if cm := CONDITION_RE.search(rest):
        return [Hit(F, f"{key}.health.{CONDITIONS[cm.group(0).lower()][0]}", "family.health")]
    n = re.match(
        rf"^{ADV}(?P<v>loves|likes|adores|enjoys|hates|doesn't like|does not like|"
        r"can't stand|can't eat|cannot eat|doesn't eat|does not eat|can't have|"
        r"(?:is|'s) (?:obsessed with|into|crazy about|a huge fan of|a big fan of))"
        r"\s+(?P<x>.+)$",
        rest,
        _I,
    )
    if n and (o := object_key(n.group("x"))):
        pol = (
            "like"
            if n.group("v").lower() in {"loves", "likes", "adores", "enjoys"}
            or re.match(r"(?:is|'s) ", n.group("v"), _I)
            else ("dislike")
        )
        return [Hit(P, f"{key}.pref.{o}", "family.pref", polarity=pol, value=pol)]
    if len(rest.split()) >= 2:
        return [Hit(F, f"{key}.about", "family.about")]
    return []


def _pet(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:my|our) (?P<pet>{_PET})(?: (?P<name>[A-Z][a-z]+))? (?:is|just turned|turned) "
        r"(?P<x>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
        r"(?: years? old| months? old)?\b",
        c,
    )
    if m and m.group("pet").lower() in PETS_EN:  # "my cat Luna turned 12 this spring"
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_en"] = key
        return [Hit(F, f"{key}.age", "pet.age", value=_number(m.group("x")))]
    m = re.match(
        rf"^(?:my|our) (?P<pet>{_PET})(?:'s name is|'s name's| is called| is named|,? named|"
        r",? called|'s (?:new )?name is now| is now called| is now named|'s been renamed(?: to)?|"
        r" was renamed(?: to)?)\s+(?P<x>\S.*)$",
        c,
        _I,
    )
    if m:
        key = f"pet.{PETS_EN[m.group('pet').lower()]}.name"
        return [Hit(F, key, "pet.name", value=_first_name(m.group("x")))]
    m = re.match(
        rf"^i (?:have|own|got|adopted) (?:a|an|one|two|\d) (?P<pet>{_PET})s?"
        r"(?P<named>,? (?:named|called) (?P<x>\S+))?",
        c,
        _I,
    )
    if m:
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_en"] = key
        if m.group("named"):
            return [Hit(F, key + ".name", "pet.has", value=_first_name(m.group("x")))]
        return [Hit(F, key, "pet.has", value="yes")]
    m = re.match(
        rf"^(?:we|i)(?:'ve| have)? (?:just )?renamed (?:our|my|the) (?P<pet>{_PET})"
        r"(?: to (?P<x>\S+))?",
        c,
        _I,
    )
    if m:  # "We renamed our beagle, he goes by Waffles now"
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_en"] = key
        if m.group("x"):
            return [Hit(F, key + ".name", "pet.rename", value=_first_name(m.group("x")))]
        return []
    m = re.match(
        r"^(?:he|she|it|they)(?:'s| is| are)? (?:now )?(?:goes by|go by|called|named|"
        r"is called|is named|answers to)\s+(?P<x>\S+)",
        c,
        _I,
    )
    if m and ctx.extra.get("pet_en"):
        key = ctx.extra["pet_en"] + ".name"
        name = _first_name(m.group("x"))
        noun = key.split(".")[1]
        return [Hit(F, key, "pet.pronoun", content=f"User's {noun} is called {name}", value=name)]
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
            Hit(F, f"health.allergy.{o}", "allergy", correction=neg, value="no" if neg else "yes")
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
                    F,
                    f"health.{key}",
                    "condition",
                    content=f"User no longer {en}",
                    correction=True,
                    value="no",
                )
            ]
        return [Hit(F, f"health.{key}", "condition", content=f"User {en}", value="yes")]
    m = re.search(rf"^{IM} (?:on|taking) (?P<x>[\w-]+)(?: medication| pills| tablets)?$", c, _I)
    if m and (o := object_key(m.group("x"))):
        return [Hit(F, f"health.medication.{o}", "medication", value="yes")]
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
    r"mom|mum|dad|parent|grad|analyst|consultant|accountant|pilot|barista|artist|writer|"
    r"medic|mechanic|technician|electrician|plumber|dentist|pharmacist|therapist|surgeon|"
    r"vet|paralegal|clerk|cashier|firefighter|cop|officer|soldier|tutor|coach|editor|"
    r"journalist|photographer|realtor|agent|banker|trader|programmer|dev|sde|swe)$",
    _I,
)
_NOT_ROLE = frozenset(
    ["fan", "lover", "person", "vegetarian", "vegan", "big", "huge", "member", "user", "beginner"]
)


def _identity(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^(?:my name is|my name's|i'm called|i am called|(?:you can )?(?:just )?call me|"
        r"the name's|people call me)\s+(?P<x>\S.*)$",
        c,
        _I,
    )
    if m:
        return [Hit(F, "identity.name", "name", value=_first_name(m.group("x"), words=3))]
    m = re.match(r"^(?:[Ii]'m|[Ii] am) (?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)$", c)
    if m:
        if m.group("x").lower() in _NATIONALITIES:
            return [Hit(F, "identity.nationality", "nationality", value=m.group("x"))]
        return [Hit(F, "identity.name", "name.im", value=m.group("x"))]
    m = re.match(
        rf"^(?:{IM}|i just turned|i turned) (?P<x>\d{{1,3}})(?: years old| yrs old| yo)?$", c, _I
    )
    if m:
        return [Hit(F, "identity.age", "age", value=m.group("x"))]
    m = re.match(r"^(?:my birthday is|my bday is|i was born on)\s+(?P<x>\S.*)$", c, _I)
    if m:
        return [Hit(F, "birthday", "birthday", value=clean_value(m.group("x")).lower())]
    m = re.match(
        r"^i was (?:actually )?born in (?P<x>\d{4})$|"
        r"^my birth ?year is (?:actually )?(?P<y>\d{4})$",
        c,
        _I,
    )
    if m:
        year = m.group("x") or m.group("y")
        return [Hit(F, "identity.birth_year", "birth_year", value=year)]
    if m := re.match(r"^i was (?:actually )?born in (?P<x>\d{4})$", c, _I):
        return [Hit(F, "identity.birth_year", "birth_year", value=m.group("x"))]
    m = re.match(
        rf"^(?:(?:{IM} )?originally from|{IM} from|i grew up in|my hometown is|i was born in)"
        r"\s+(?P<x>\S.*)$",
        c,
        _I,
    )
    if m:
        return [Hit(F, "location.hometown", "hometown", value=_place(m.group("x")))]
    m = re.match(rf"^{IM} (?:now )?(?P<x>married|single|divorced|engaged|widowed)\b", c, _I)
    if m:
        return [Hit(F, "family.marital", "marital", value=m.group("x").lower())]
    m = re.match(
        rf"^{IM} (?:a |an )?(?P<x>left-handed|right-handed|colou?r-?blind|deaf|"
        r"hard of hearing|short-sighted|near-?sighted|introvert(?:ed)?|extrovert(?:ed)?|"
        r"morning person|night owl|only child|twin)\b",
        c,
        _I,
    )
    if m:
        return [Hit(F, f"identity.trait.{slug(m.group('x'))}", "trait", value="yes")]
    return []


def _home(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:(?:i|we) (?P<neg>don't |do not |no longer )?(?:now |currently |still )?"
        rf"live (?:out )?in|(?:i|we)(?:'ve| have) been living in|"
        rf"(?:i|we)(?:'ve| have)? (?:just |recently |finally )?(?P<mv>moved)"
        rf"(?: from .+?)? to|(?:i|we)(?:'ve| have)? (?:just |recently |finally )?"
        rf"(?P<mv2>relocated|moved (?:back|over|out)|settled down)(?: from .+?)? (?:to|in)|"
        rf"{IM} (?:now )?(?:based|living|settled) in|my home is in|home is)\s+(?P<x>.+)$",
        c,
        _I,
    )
    if m:
        change = bool(m.group("neg") or m.group("mv") or m.group("mv2") or CHANGE_RE.search(c))
        place = _place(m.group("x"))
        if m.group("neg"):
            return [Hit(F, "location.home", "home", correction=change, value=f"not {place}")]
        content = f"User lives in {place}"  # one wording per value: moved to / live in alike
        return [Hit(F, "location.home", "home", correction=change, value=place, content=content)]
    m = re.match(
        rf"^{IM} (?:not|no longer) (?:in|living in|based in) (?P<x>.+?)(?: any ?more)?$", c, _I
    )
    if m:  # "I'm not in Manchester anymore"
        place = _place(m.group("x"))
        return [Hit(F, "location.home", "home.left", correction=True, value=f"not {place}")]
    return []


def _work(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        r"^i (?P<neg>don't |do not |no longer )?(?:now |currently |still )?work "
        r"(?P<prep>at|for|in) (?P<x>.+?)(?: as (?:an? )?(?P<role>.+?))?(?: any ?more)?$",
        c,
        _I,
    )
    if m and m.group("role") and not m.group("neg"):
        employer, role = clean_value(m.group("x")), clean_value(m.group("role"))
        return [
            Hit(
                F, "work.employer", "employer", content=f"User works at {employer}", value=employer
            ),
            Hit(F, "work.role", "role", content=f"User is a {role}", value=role),
        ]
    if m:
        change = bool(m.group("neg") or CHANGE_RE.search(c))
        place = _place(m.group("x"))
        value = f"not {place}" if m.group("neg") else place
        if m.group("prep").lower() == "in":
            topic = (
                "location.work"
                if clean_value(m.group("x")).lower() in CITIES_EN
                else ("work.field")
            )
            return [Hit(F, topic, "work.in", correction=change, value=value)]
        return [Hit(F, "work.employer", "employer", correction=change, value=value)]
    m = re.match(
        r"^i(?:'ve| have)? (?:just |recently )?(?:joined|started (?:working )?at|"
        r"started a new job at|got a job at|switched to|moved to work at)\s+(?P<x>\S.*)$|"
        r"^i(?:'ve| have)? (?:just |recently )?(?:left|quit) .+? (?:and|to) "
        r"(?:joined|join|started at|start at|went to|moved to)\s+(?P<y>\S.*)$",
        c,
        _I,
    )
    said = (m.group("x") or m.group("y")) if m else ""
    singular = " ".join(re.sub(r"s$", "", w) for w in said.split())
    if m and not DRINK_RE.search(said) and not DRINK_RE.search(singular):  # "switched to lattes"
        employer = _place(said)
        return [Hit(F, "work.employer", "employer.change", correction=True, value=employer)]
    m = re.match(
        rf"^{IM} (?:a |an )?(?P<x>freshman|sophomore|junior|senior|grad student|phd student|"
        r"undergrad|(?:first|second|third|fourth|final)[- ]year(?: student)?|high school student|"
        r"college student|master's student|med student|law student)(?: at (?P<y>.+))?$",
        c,
        _I,
    )
    if m:  # "I'm a sophomore at Ohio State"
        return [Hit(F, "education.stage", "school.stage", value=m.group("x").lower())]
    m = re.match(rf"^(?:{IM} (?:a )?student at|i study at|i go to school at)\s+(?P<x>\S.*)$", c, _I)
    if m:
        return [Hit(F, "education.school", "school", value=_place(m.group("x")))]
    m = re.match(
        rf"^(?:{IM} (?:now )?(?:an?|the) |i work as (?:an? )?)(?P<x>[a-z][a-z -]*?)"
        r"(?: at (?P<y>.+?))?(?: now| these days| full[- ]time| part[- ]time)?$",
        c,
        _I,
    )
    if m and _ROLE.search(m.group("x")) and m.group("x").split()[-1].lower() not in _NOT_ROLE:
        hits = [Hit(F, "work.role", "role", value=clean_value(m.group("x")).lower())]
        if m.group("y"):
            hits.append(
                Hit(
                    F,
                    "work.employer",
                    "employer.role",
                    content=f"User works at {clean_value(m.group('y'))}",
                    value=clean_value(m.group("y")),
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
