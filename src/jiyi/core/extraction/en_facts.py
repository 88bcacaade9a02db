"""English slot rules for the user's stable facts: identity, home, work, education, traits.

The verbs people use for one slot are normalised to it, so a change lands where the old value
is: "I live in / moved to / relocated to / I'm based in / I'm in X now" → ``location.home``.
Work and education are in :mod:`.en_work`.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import (
    IM,
    NUM_WORD,
    SCHOOL_YEAR,
    YEAR_WORDS,
    first_name,
    number,
    place,
    year_from_words,
)
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import word_set
from jiyi.core.extraction.lexicon_places import CITIES_EN, COMPANIES_EN, is_town_en
from jiyi.core.extraction.topics import clean_value, slug
from jiyi.core.models import MemoryKind

__all__ = ["home", "identity", "is_place_en"]

F = MemoryKind.FACT
I_ = re.IGNORECASE
_NATIONALITIES = word_set(
    """
    american british english chinese canadian australian indian japanese korean german french
    italian spanish mexican brazilian russian irish scottish dutch swedish singaporean welsh
    nigerian kenyan filipino vietnamese thai polish portuguese greek turkish
    """
)


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


# ------------------------------------------------------------------ identity


# "(I meant) 1986 for my birth year": the value first, then the attribute it is for.
_VALUE_FOR = re.compile(
    r"^(?P<v>[\w' -]+?) (?:for|as|is) my (?P<a>birth ?year|birthday|name|first name)$", I_
)
# "from now on", "instead": when a name is to be used, not part of it
_NAME_TAIL = re.compile(r",?\s+(?:from now on|going forward|instead|now|please|lately)$", I_)


def identity(c: str, ctx: Context) -> list[Hit]:
    if f := _VALUE_FOR.match(c):
        c = f"my {f.group('a')} is {f.group('v')}"
    m = re.match(
        r"^(?:my name is|my name's|name's|i'm called|i am called|(?:you can )?(?:just )?call me|"
        r"(?:i'd|i would) (?:rather |prefer (?:it if )?|like (?:it if )?)(?:you|people) "
        r"(?:call|called) me|(?:please )?call me|"
        r"the name's|people call me|i go by|(?:i've been|i'm|i am) going by|my full name is|"
        r"my first name is)\s+(?P<x>\S.*)$",
        _NAME_TAIL.sub("", c),
        I_,
    )
    if m:
        ctx.extra["named"] = "1"
        name = first_name(m.group("x"), words=3)
        said = f"User goes by {name}" if re.search(r"call me|go(?:ing)? by", c, I_) else None
        return [Hit(F, "identity.name", "name", value=name, content=said)]
    m = re.match(r"^(?:[Ii]'m|[Ii] am|[Ii]m|[Tt]his is) (?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)$", c)
    if m:
        if m.group("x").lower() in _NATIONALITIES:
            return [Hit(F, "identity.nationality", "nationality", value=m.group("x"))]
        if m.group("x").lower() not in CITIES_EN:
            ctx.extra["named"] = "1"
            return [Hit(F, "identity.name", "name.im", value=m.group("x"))]
    m = re.match(
        rf"^(?:{IM} (?:actually |now |almost |nearly |about |only |just )?|"
        rf"(?:i )?(?:just|finally|officially) turned |i turned |i've just turned |"
        rf"i have just turned |i'll be |i'm turning |i am turning )(?P<x>{NUM_WORD})"
        rf"(?: years old| yrs old| yo| y/o| years young)?"
        r"(?: now| this year| next month| soon| last week| last month| yesterday| today| this week|"
        r" in (?:january|february|march|april|may|june|july|august|september|october|november|"
        r"december)|"
        r" (?:on|last|this past|this) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
        r" (?:a few|two|three|\w+) (?:days|weeks) ago|"
        r" as of (?:last |this )?\w+)?$",  # "I'm twenty-eight as of last Tuesday"
        c,
        I_,
    )
    if m and int(number(m.group("x")) or 0) >= 5:
        return [Hit(F, "identity.age", "age", value=number(m.group("x")))]
    m = re.match(rf"^i(?:'ll)? turn (?P<n>{NUM_WORD}) (?:on |this |next )?(?P<d>.+)$", c, I_)
    if m and re.search(r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", m.group("d"), I_):
        age = str(int(number(m.group("n"))) - 1)  # "I turn 40 on July 8th": 39 now, birthday July 8
        return [
            Hit(F, "birthday", "birthday.turn", value=clean_value(m.group("d")).lower()),
            Hit(
                F,
                "identity.age",
                "age.turn",
                value=age,
                content=f"User is {age} (turns {number(m.group('n'))})",
            ),
        ]
    m = re.match(
        r"^(?:my (?:birthday|bday|b-day)(?: is|'s)|i was born on)\s+(?:on |in )?(?P<x>\S.*)$", c, I_
    )
    if m and not re.match(r"^(?:coming up|soon|next|tomorrow|today)$", m.group("x"), I_):
        return [Hit(F, "birthday", "birthday", value=clean_value(m.group("x")).lower())]
    m = re.match(
        # ("I was born 1987, in Bremen": the year without "in")
        rf"^(?:i was |i am |i'm |im )?(?:actually |really )?born (?:in )?"
        rf"(?P<x>\d{{4}}|'\d{{2}}|{YEAR_WORDS})\b|"
        r"^my birth ?year is (?:actually )?(?P<y>\d{4})$|"
        r"^(?:it's |it is )?(?P<w>(?:19|20)\d{2}) is (?:actually |really )?(?:my birth ?year|"
        r"(?:the year )?when i was born|the year i was born)$|"
        r"^(?:i'm|i am) (?:actually |really )?(?:an? )?(?P<z>(?:19|20)\d{2}|'\d{2}) baby$",
        c,
        I_,
    )
    if m:
        said = m.group("x") or m.group("y") or m.group("z") or m.group("w")
        year = year_from_words(said).lstrip("'")
        ctx.extra["born_en"] = "1"  # (", in Bremen": where, next)
        return [Hit(F, "identity.birth_year", "birth_year", value=year,
                    content=f"User was born in {year}")]  # fmt: skip
    m = re.match(
        rf"^(?:(?:{IM} )?originally from|{IM} (?:actually )?from|i come from|i grew up in|"
        rf"my hometown is|"
        r"i was born in|born and raised in|i was raised in|raised in|i'm a native of|home ?town:?)"
        r"\s+(?P<x>\S.*?)(?:,? originally)?$|^(?P<y>\S.*?) is where i grew up$",
        c,
        I_,
    )
    said = (m.group("x") or m.group("y")) if m else ""
    if m and not re.match(
        r"(?:next|this|last|tomorrow|today|tonight|monday|tuesday|wednesday|thursday|friday|"
        r"saturday|sunday|the \d|\d|now on|then on)\b",
        said,
        I_,
    ):  # "From next week I'm resuming at …": when, not where the user is from
        return [Hit(F, "location.hometown", "hometown", value=place(said))]
    m = re.match(
        r"^i(?:'ve| have)? (?:just |recently |finally |officially )?(?:got|gotten) (?P<x>married|"
        r"engaged|divorced|separated)(?P<rest>)(?:[!.]*)$",
        c,
        I_,
    ) or re.match(
        rf"^{IM} (?:now |officially |actually |still )?(?P<x>married|single|divorced|engaged|"
        rf"widowed|"
        rf"separated)\b(?P<rest>.*)$",
        c,
        I_,
    )
    taken = re.match(
        rf"^(?:i (?:now )?(?:have|'ve got|got) an? (?:new )?(?:boyfriend|girlfriend|partner)|{IM} "
        r"(?:now )?(?:in a relationship|seeing someone|dating someone|"
        r"taken))(?: now)?(?: actually)?$",
        c,
        I_,
    )
    if taken and (re.search(r"\bnow\b|\bnew\b", c, I_) or not taken.group(0).startswith("i ")):
        return [Hit(F, "family.marital", "marital.taken", value="in a relationship")]
    if m:
        hits = [Hit(F, "family.marital", "marital", value=m.group("x").lower())]
        spouse = re.match(
            r"^ to (?:(?:a|an|the most) (?:[\w-]+ ){0,3}(?P<who>guy|man|woman|girl|lady|husband|"
            r"wife)"
            r"(?: named| called)? )?(?P<name>[A-Z][a-z]+)$",
            m.group("rest"),
        )
        if spouse:  # "I'm married to a wonderful guy named Sam"
            who = (spouse.group("who") or "").lower()
            rel = "husband" if who in ("guy", "man", "husband") else "wife" if who else "spouse"
            rel = "fiance" if m.group("x").lower() == "engaged" else rel
            name = spouse.group("name")
            hits.append(
                Hit(
                    F,
                    f"family.{rel}.name",
                    "family.name",
                    value=name,
                    content=f"User's {rel} is {name}",
                )
            )
        if k := re.search(
            rf"\bwith (?P<n>{NUM_WORD}|a|an) (?:kids?|children|child|boys?|girls?)\b",
            m.group("rest"),
            I_,
        ):
            count = "1" if k.group("n").lower() in ("a", "an") else number(k.group("n"))
            hits.append(
                Hit(
                    F,
                    "family.child",
                    "family.has",
                    value=count,
                    content=f"User has {count} children",
                )
            )
        return hits
    m = re.match(
        rf"^{IM} (?:really |honestly |just |definitely |totally |so |very |such )?(?P<neg>not )?"
        r"(?:really |much of )?(?:a |an |the )?(?:bit of an? |total |huge |big |real )?"
        r"(?P<x>left-handed|lefty|leftie|right-handed|colou?r-?blind|deaf|hard of hearing|"
        r"short-sighted|near-?sighted|introvert(?:ed)?|extrovert(?:ed)?|morning person|night owl|"
        r"early bird|only child|twin|millennial|gen z|gen x|boomer|zoomer|gen alpha)\b",
        c,
        I_,
    )
    if m:
        word = m.group("x").lower()
        if word in ("millennial", "gen z", "gen x", "boomer", "zoomer", "gen alpha"):
            return [Hit(F, "identity.generation", "generation", value=word)]
        word = {"lefty": "left-handed", "leftie": "left-handed"}.get(word, word)
        return [
            Hit(F, f"identity.trait.{slug(word)}", "trait", value="no" if m.group("neg") else "yes")
        ]
    m = re.match(
        rf"^{IM} (?:a )?(?P<x>woman|man|guy|girl|female|male|non-?binary|trans (?:woman|man))$",
        c,
        I_,
    )
    if m:
        word = m.group("x").lower()
        gender = "female" if word in ("woman", "girl", "female", "trans woman") else word
        gender = "male" if word in ("man", "guy", "male", "trans man") else gender
        return [Hit(F, "identity.gender", "gender", value=gender)]
    return []


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
