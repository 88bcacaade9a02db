"""English slot rules for the user's stable facts: home, and the place of work.

The verbs people use for one slot are normalised to it, so a change lands where the old value
is: "I live in / moved to / relocated to / I'm based in / I'm in X now" → ``location.home``.
Identity (name, age, birthday, hometown, marital status, traits) is in :mod:`.en_identity`;
work and education are in :mod:`.en_work`.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import IM, SCHOOL_YEAR, place
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_places import CITIES_EN, COMPANIES_EN, is_town_en
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["home", "is_place_en"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

# A school moved to is no home ("(Mia switched schools,) moved over to Birch Academy").
_SCHOOL = re.compile(
    r"\b(?:academy|school|elementary|primary|college|university|montessori|"
    r"kindergarten|preschool|pre-k|daycare|nursery|prep|institute)\b",
    I_,
)
# A home bought or rented somewhere, and moved into: where the user lives now.
_HOUSE = re.compile(
    r"^(?:we|i)(?:'ve| have)? (?:just |finally |recently |officially )?(?:closed on|bought|"
    r"purchased|"
    r"got|rented|found|signed (?:a|the) lease (?:on|for)|moved (?:in)?to|transferred to|"
    r"relocated to) (?:a|an|our|my|the) (?:new |first |smaller |bigger |cheaper |"
    r"little )?"
    r"(?:house|home|place|flat|apartment|condo|townhouse|townhome|bungalow) (?:in|over in|out in|"
    r"down in|up in) (?P<x>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)*)(?P<mv>,? and (?:we |i )?(?:just |"
    r"finally )?"
    r"moved in\b.*)?$",
    re.IGNORECASE,
)


def is_place_en(word: str) -> bool:
    w = clean_value(word).lower()
    return w in CITIES_EN or w.replace(" city", "") in CITIES_EN or w.split(",")[0] in CITIES_EN


# ------------------------------------------------------------------ home


def home(c: str, ctx: Context) -> list[Hit]:
    there = re.match(r"^(?:i|we) (?:still |now |also |actually )?live (?:there|here)$", c, I_)
    if there and (where := ctx.extra.get("place_en")):  # "Grew up in Ohio, still live there"
        return [
            Hit(F, "location.home", "home.there", value=where, content=f"User lives in {where}")
        ]
    m = re.match(
        r"^(?i:i'm|i am) an? (?P<x>[A-Z][\w .'-]+?) native(?P<still> and (?i:still) (?i:live|"
        r"am) (?i:there|here))?$",
        c,
    )
    if m:  # "I'm a Seattle native and still live there"
        where = place(m.group("x"))
        hits = [Hit(F, "location.hometown", "hometown.native", value=where)]
        if m.group("still"):
            hits.append(
                Hit(
                    F, "location.home", "home.native", value=where, content=f"User lives in {where}"
                )
            )
        return hits
    m = re.match(
        r"^(?P<x>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)*) (?:is|'s) (?:my |our )?(?:new )?home(?: base)?"
        r"(?: now| these days| for now)?$",
        c,
    )
    if m and not re.match(r"^(?:It|This|That|Here|There|Home)$", m.group("x")):
        where = place(m.group("x"))  # "Montreal is home now"
        return [Hit(F, "location.home", "home.is", value=where, content=f"User lives in {where}")]
    m = _HOUSE.match(c)
    if m:
        where = place(m.group("x"))  # "we closed on a house in San Antonio (and moved in)"
        if m.group("mv") or re.search(r"\b(?:moved|transferred|relocated)\b", c, I_):
            return [Hit(F, "location.home", "home.house", value=where, correction=True,
                        content=f"User lives in {where}")]  # fmt: skip
        ctx.extra["house_en"] = where
        return []
    if (where := ctx.extra.get("house_en")) and re.match(
        r"^(?:and )?(?:(?:we|i)(?:'ve| have)? )?(?:just |finally |already |now )?(?:moved|"
        r"moving) in\b",
        c,
        I_,
    ):  # "…, and moved in on Saturday": the house just named is home now
        ctx.extra.pop("house_en", None)
        return [Hit(F, "location.home", "home.house", value=where, correction=True,
                    content=f"User lives in {where}")]  # fmt: skip
    m = re.match(
        r"^(?i:i|we)(?:'ve| have)? (?:just )?(?i:left|moved (?:away )?from|"
        r"moved out of) (?P<x>[A-Z][\w .'-]+)$",
        c,
    )
    if m and is_place_en(m.group("x")):  # "We left Seattle (and now live in Spokane)"
        ctx.extra["slot"] = "location.home"
        return [
            Hit(
                F, "location.home", "home.left", correction=True, value=f"not {place(m.group('x'))}"
            )
        ]
    m = re.match(
        r"^(?:(?:i|we) (?P<neg>don't |do not |no longer )?(?:now |currently |still |actually |"
        r"also )?"
        # ("I stay in Tampines": live, as Singapore and Scotland say it)
        r"(?:live|stay) (?:out |over |down |up |together )?(?:in|near|outside(?: of)?)|"
        r"(?:i|we)(?:'ve|"
        r" have) (?:been )?(?:living |lived )?in|"
        r"(?:i|we)(?:'ve| have)? (?:just |recently |finally |actually |"
        r"since )?(?:packed up (?:everything |our stuff |the house |and left )?(?:and |& )?)?"
        r"(?P<mv>moved|(?<=and )(?:went|headed)|(?<=& )(?:went|headed))"
        r"(?: (?:back|over|out|down|up|away|home|here|there|all the way))*(?: from .+?)? to|"
        r"(?:i|we)(?:'ve| have)? (?:just |recently |finally )?(?P<mv2>relocated|settled down|"
        r"settled)(?: from .+?)? (?:to|in)|"
        rf"(?:{IM}|we're|we are) (?:now |currently )?(?:based|living|settled|located|renting"
        r"(?: an? (?:place|house|flat|apartment|condo))?) (?:in|(?<!based )out of)|"
        r"my home is in|home is|home for (?:me|us) is|(?:i|"
        r"we) call(?=\s.+(?<!\bat)\shome$))\s+(?P<x>.+?)(?: home)?$",
        c,
        I_,
    )
    if (
        m
        and not re.match(r"^(?:a |an |the )?(?:hotel|hostel|dorm|tent|airbnb)\b", m.group("x"), I_)
        and not _SCHOOL.search(place(m.group("x")) or m.group("x"))
        and not SCHOOL_YEAR.match(m.group("x"))  # "moved up to Year 10 (now)"
    ):
        said = re.sub(
            r"^(?:a small town|a suburb|the suburbs|a town|a village) (?:outside|near|"
            r"of)\s+(?:of )?",
            "",
            m.group("x"),
            flags=I_,
        )
        where = place(said) or place(m.group("x"))
        if m.group("mv") and not is_place_en(where) and not where[:1].isupper():
            return []  # "moved to a credit union": no town named, no home
        came = re.search(r"\bfrom (?P<a>.+?) to\b", c, I_) if m.group("mv") else None
        if (m.group("mv") and where.lower() in COMPANIES_EN and not is_place_en(where)) or (
            came
            and not is_place_en(where)
            and not is_place_en(came.group("a"))
            and {where.lower(), place(came.group("a")).lower()} & COMPANIES_EN
        ):  # "I moved from Deloitte to KPMG" / "I moved over to Stripe": a new employer
            return [Hit(F, "work.employer", "employer.moved", value=where, correction=True,
                        content=f"User works at {where}")]  # fmt: skip
        if m.group("neg"):
            return [Hit(F, "location.home", "home", correction=True, value=f"not {where}")]
        content = f"User lives in {where}"  # one wording per value: moved to / live in alike
        return [Hit(F, "location.home", "home", value=where, content=content)]
    m = re.match(
        rf"^{IM} (?:not|no longer) (?:in|living in|based in) (?P<x>.+?)(?: any ?more)?$", c, I_
    )
    if m:  # "I'm not in Manchester anymore"
        return [
            Hit(
                F, "location.home", "home.left", correction=True, value=f"not {place(m.group('x'))}"
            )
        ]
    m = re.match(
        rf"^(?i:{IM}|we're|we are) (?:now |currently |actually )?(?:in|"
        rf"(?P<out>out in)) (?P<x>[A-Za-z][\w .'-]+?)"
        r"(?P<now> now| these days| currently| nowadays)?(?: btw| lol| haha)?$",
        c,
    )
    if (
        m
        # ("we're out in Swords now": a suburb no list knows, said as where one lives now;
        # "we're in leeds now": a known town typed in lower case)
        and (m.group("x")[0].isupper() or m.group("now"))
        and (is_town_en(m.group("x")) or (m.group("out") and m.group("now")))
        and not re.search(r"\b(?:this week|today|for work|visiting|on business)\b", c, I_)
    ):
        where = place(m.group("x"))  # "I'm in Toronto these days"
        if ctx.extra.pop("born_en", None) and not m.group("now"):  # "I was born 1987, in Bremen"
            return [Hit(F, "location.hometown", "hometown", value=where,
                        content=f"User was born in {where}")]  # fmt: skip
        return [Hit(F, "location.home", "home.in", value=where, content=f"User lives in {where}")]
    m = re.match(
        r"^i (?:commute|drive|take the train|bike|"
        r"cycle) (?:in)?to (?P<x>[A-Z][\w .'-]+?)(?: for work| every day| daily)?$|"
        # "As of this month I'm working in Burlington instead"
        r"^(?:as of [\w ]{3,20}?,? |from [\w ]{3,20}?,? )?(?:i'm|i am) (?:now )?working in "
        r"(?P<w>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)?)(?: now| instead| these days)+$|"
        r"^my (?:office|job|work) is (?:in|downtown in) (?P<y>.+)$|"
        # "I work out of the Chicago office", "they moved me to the Milwaukee branch"
        # ("…, moved our whole claims team up to the Markham office": the subject said before)
        r"^(?:i (?:work|am based|'m based) (?:out of|from|at|in)|(?:(?:they|the company|my company|"
        r"work|my job|my employer|my boss|hr|i)(?:'ve| have| has)? )?(?:just )?"
        r"(?:moved|transferred|"
        r"relocated|sent|posted) (?:me|us|our (?:whole )?(?:\w+ )?(?:team|department|unit))"
        r"(?: up| down| over| across)?|"
        r"i(?:'ve| have| was|'ve been| got)? (?:been )?"
        r"(?:moved|transferred|relocated|sent|posted)) "
        r"(?:over |back )?(?:to )?(?:the|our|my) (?P<d>downtown |uptown |midtown )?"
        r"(?P<z>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)?) "
        r"(?:office|branch|site|location|campus|plant|hq|headquarters|team)\b.*$",
        c,
        I_,
    )
    if m and (m.group("z") or m.group("w")) and not is_town_en(m.group("z") or m.group("w")):
        m = None  # "the Tonalá office": no town known, a branch (en_jobmove reads it)
    if m and (m.group("z") or m.group("w")):
        where = (m.group("d") or "") + place(m.group("z") or m.group("w"))
        unit = re.search(r"\b(office|branch|site|campus|plant)\b", c[m.start("z") :], I_)
        said = f"at the {where} {unit[1].lower()}" if m.group("z") and unit else f"in {where}"
        return [Hit(F, "location.work", "work.city", value=where, content=f"User works {said}")]
    if m and not re.match(
        r"^(?:work|school|the office|campus|class)\b", m.group("x") or m.group("y"), I_
    ):
        return [Hit(F, "location.work", "work.city", value=place(m.group("x") or m.group("y")))]
    m = _WORKPLACE_MOVED.match(c)  # "My office was moved out to Schaumburg in January"
    if m and is_town_en(m.group("x")):
        where = place(m.group("x"))
        return [Hit(F, "location.work", "work.moved", value=where, correction=True,
                    content=f"User works in {where}")]  # fmt: skip
    return []


_WORKPLACE_MOVED = re.compile(
    r"^(?:my|our) (?:office|workplace|company|team|department|job) (?:has |had |was |got |just |"
    r"recently |finally )*(?:moved|relocated)(?: out| over| back| up| down)? to "
    r"(?P<x>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)?)\b(?: in \w+| last \w+| this \w+)?$",
    I_,
)
