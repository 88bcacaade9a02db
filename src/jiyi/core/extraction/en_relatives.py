"""English rules for what one clause says about a family member, once the subject is known.

``family.son`` + "is 7" → its age; "works at Google" → its employer; "lives in Austin" → its
home; "is allergic to nuts", "loves Lego", "is in 3rd grade", a state ("is in the hospital")
and so on. :mod:`jiyi.core.extraction.en_people` finds whom a clause is about and calls
:func:`attributes` with the rest of it. Where they work, study and live is read by
:mod:`.en_relatives_where`.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import (
    ADV,
    DOES_FOR_WORK,
    NUM_WORD,
    SEP,
    YEAR_GRADE,
    first_name,
    number,
    object_key,
    place,
)
from jiyi.core.extraction.en_relatives_where import _is_city, work_school_home
from jiyi.core.extraction.hit import STATE_TTL, Context, Hit
from jiyi.core.extraction.lexicon_health import CONDITION_RE, CONDITIONS
from jiyi.core.extraction.topics import clean_value, slug
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

__all__ = ["attributes"]

F, P = MemoryKind.FACT, MemoryKind.PREFERENCE
I_ = re.IGNORECASE


_ROLE_EN = re.compile(
    r"(?:er|or|ist|ian|ant|ent|nurse|doctor|chef|student|engineer|designer|manager|lawyer|teacher|"
    r"scientist|founder|ceo|intern|retiree|analyst|consultant|pilot|barista|artist|writer|medic|"
    r"mechanic|dentist|pharmacist|therapist|surgeon|vet|clerk|cashier|cop|officer|soldier|tutor|"
    r"coach|editor|journalist|photographer|realtor|agent|banker|programmer|dev|paramedic|"
    r"electrician|plumber|firefighter|professor|principal|retired|fireman|policeman|postman|"
    r"fisherman|lineman|handyman|sheriff|deputy|constable|sergeant|chief|captain|mate|nanny|"
    r"maid|cook|farmer|miner|welder|carpenter|janitor)$",
    I_,
)


def attributes(key: str, rel: str, rest: str, ctx: Context) -> list[Hit]:
    """What one clause says about a family member (``key`` = family.son)."""
    if re.match(
        r"^(?:is|'s|are) (?:currently |now |still )?(?:trying to (?:get pregnant|conceive|"
        r"have a baby)|"
        r"in the hospital|recovering from .+|on bed rest|on (?:a )?business trip|away for work|"
        r"job hunting|studying for .+|training for .+|undergoing .+|going through chemo)",
        rest.strip(),
        I_,
    ):  # "My wife is trying to get pregnant": how things are for them now, a state
        who = key.split(".")[1]
        return [Hit(MemoryKind.STATE, f"state.{who}_{slug(rest)}", "family.state", ttl=STATE_TTL)]
    if (
        re.match(r"^(?:passed away|died|passed)\b", rest.strip(), I_)
        and (when := find_time_window(rest, ctx.ref))
        and when.start is not None
    ):  # "my grandma passed away last month": a dated event
        return [Hit(MemoryKind.EVENT, f"event.{key.split('.')[1]}_passed", "family.passed",
                    when=when.start, value=when.start.date().isoformat())]  # fmt: skip
    if re.search(
        r"\b(?:this week|this month|these days|right now|lately)\b", rest, I_
    ) and re.search(
        r"\b(?:away|traveling|travelling|on a trip|in the hospital|sick|out of town|on leave)\b",
        rest,
        I_,
    ):
        # "my husband's away for work this week": how things are for now, a state
        return [
            Hit(MemoryKind.STATE, f"state.{key.split('.')[1]}_away", "family.state", ttl=STATE_TTL)
        ]
    if (
        n := re.match(
            r"^(?:is|'s|are|'re) (?:now |actually |still |both )?(?:in|out in|down in|up in) "
            r"(?P<x>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)(?: now| these days| nowadays)?"
            # "she's up in Savannah now near my aunt": whom she lives near is no part of where
            r"(?: (?:near|close to|with|by) (?:my|our|her|his|their) [a-z]+)?$",
            rest.strip(),
            I_,
        )
    ) and _is_city(w := place(n.group("x"))):
        return [Hit(F, f"{key}.home", "family.home", value=w)]  # "my brother's in Idaho now"
    rest = re.sub(
        r"\s+(?:now|these days|currently|this year|last (?:week|month|year|night|spring|summer|"
        r"fall|autumn|winter)|yesterday|today|"
        r"recently|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|this (?:week|month|fall|autumn|"
        r"spring|summer|winter|semester|term|school year)|in (?:september|the fall))$",
        "",
        rest.strip(),
        flags=I_,
    )
    rest = re.sub(
        r"^(?:who|that)\s+(?:(?:just|recently)\s+)?(?=started|is|has|'s|goes|loves|likes)",
        "",
        rest,
        flags=I_,
    )
    n = re.match(
        r"^(?:'s )?(?:name is|name's|is called|is named|goes by|,? named|,? called)"
        r"(?:\s+(?:actually|really|now))?\s+(?P<x>\S.*)$",
        rest,
        I_,
    )
    if n:
        return [Hit(F, f"{key}.name", "family.name", value=first_name(n.group("x")))]
    if n := re.match(r"^(?:is|'s) (?:actually )?(?P<x>[A-Z][a-z]+)$", rest):
        name = n.group("x")
        return [
            Hit(
                F, f"{key}.name", "family.name", content=f"User's {rel} is named {name}", value=name
            )
        ]
    n = re.match(
        rf"^(?:is|just turned|turned|has just turned|is now) (?:now |about |actually |really |"
        rf"only |already |almost |more like |closer to |probably )*(?P<x>{NUM_WORD})"
        r"(?: and a half)?(?: years? old| months? old| yrs?(?: old)?| yo)?(?: now)?"
        r"(?: and (?:still |very |so )?\w+|"
        r" and (?:reckons|thinks|says|acts|wants|is already) .+)?$",
        rest,
        I_,
    )
    if n:
        months = "months" in rest.lower()
        return [
            Hit(
                F,
                f"{key}.age",
                "family.age",
                value=number(n.group("x")) + (" months" if months else ""),
            )
        ]
    n = re.match(
        r"^(?:is|just started|started|is starting|is going into|moved up to|moved on to|is moving "
        r"up to|will be in|"
        r"goes into) (?:now )?(?:in )?(?:the )?"
        r"(?P<x>\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
        r"tenth|eleventh|twelfth) grade(?: now| this year)?$|^is (?:now )?a (?P<y>freshman|"
        r"sophomore|junior|senior)\b|"
        r"^is (?:now |officially )?an? (?P<w>\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|"
        r"fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) grader(?: now)?$|"
        r"^(?:is in|just started|started|goes to|is at) (?P<z>kindergarten|preschool|pre-k|daycare|"
        r"nursery|middle school|high school|college|elementary school|primary school|uni|"
        r"university)$",
        rest,
        I_,
    )
    if n:
        grade = number(n.group("x") or n.group("y") or n.group("z") or n.group("w"))
        return [Hit(F, f"{key}.grade", "family.grade", value=grade)]
    # "is in Year 8 at Smithton High", "'s in Yr 9 now", "is in Class 5", "is in JSS2": school
    # years named by number as the UK, Australia, India or Nigeria do
    if n := YEAR_GRADE.match(rest):
        grade = re.sub(r"\s+", " ", n["g"]).strip()
        grade = grade[:1].upper() + grade[1:]
        if not n["school"]:
            return [Hit(F, f"{key}.grade", "family.grade", value=grade)]
        school = clean_value(n["school"])  # each part says its own value (merge.PART_TEXTS)
        return [Hit(F, f"{key}.grade", "family.grade", value=grade,
                    content=f"User's {rel} is in {grade}"),
                Hit(F, f"{key}.school", "family.school", value=school,
                    content=f"User's {rel} goes to {school}")]  # fmt: skip
    if n := re.match(
        r"^(?:has|'s got|has got) (?:an? |a severe |a bad |a mild )?(?P<x>[\w -]+?) allerg(?:y|"
        r"ies)$",
        rest,
        I_,
    ):
        rest = f"is allergic to {n.group('x')}"  # "my youngest has a peanut allergy"
    if n := re.match(
        r"^(?:is|'s|has gone|went) (?:a |now |strictly |fully )*(?P<x>vegan|vegetarian|pescatarian|"
        r"keto|gluten-free|halal|kosher)$",
        rest,
        I_,
    ):
        return [Hit(F, f"{key}.diet", "family.diet", value=n.group("x").lower())]
    if n := re.search(r"\b(?P<neg>not |no longer |n't )?allergic to (?P<x>.+)$", rest, I_):
        neg = bool(n.group("neg"))
        return [
            Hit(F, f"{key}.health.allergy.{o}", "family.allergy", value="no" if neg else "yes")
            for part in SEP.split(n.group("x"))
            if (o := object_key(part))
        ]
    if cm := CONDITION_RE.search(rest):
        slot = CONDITIONS[cm.group(0).lower()][0]
        value = "no" if re.search(r"\b(?:not|no longer|n't)\b", rest, I_) else "yes"
        return [Hit(F, f"{key}.health.{slot}", "family.health", value=value)]
    if d := DOES_FOR_WORK.match(rest):  # "he drives a truck now" = he is a truck driver
        noun = {"drives": "driver", "teaches": "teacher"}[d.group("v").lower()]
        rest = f"is a {d.group('x').lower()} {noun} now"
    n = re.match(
        r"^(?:is|works as|is now|became|has become|retrained as|trained as|qualified as|"
        r"is working as)"
        r" (?:now )?(?:an? )?(?P<x>[a-z][a-z -]*?)(?: at (?P<y>.+?))?(?: now)?$",
        rest,
        I_,
    )
    if (
        n
        and _ROLE_EN.search(n.group("x"))
        and n.group("x").split()[-1].lower()
        not in (
            "fan",
            "lover",
            "eater",
            "sleeper",
            "talker",
            "reader",
            "learner",
            "walker",
            "crawler",
            "listener",
            "drinker",
            "smoker",
            "worrier",
            "supporter",
            "follower",
        )
        # "grandpa's in a wheelchair now after his fall in october": where he is, no job;
        # "he's much happier": how he is
        and not re.match(
            r"(?:in|at|on|with|from|into|out|off|back|not|still|over|up|down|away|home|much|so|way|"
            r"far|a lot|even|happier|healthier|busier|calmer|quieter)\b",
            n.group("x"),
            I_,
        )
        and len(n.group("x").split()) <= 4
    ):
        return [Hit(F, f"{key}.job", "family.job", value=n.group("x").lower())]
    if hits := work_school_home(key, rel, rest):
        return hits
    n = re.match(
        rf"^{ADV}(?P<v>loves|love|likes|like|adores|adore|enjoys|enjoy|hates|hate|doesn't like|"
        r"don't like|does not like|can't stand|can't eat|cannot eat|doesn't eat|don't eat|"
        r"won't eat|won't touch|refuses to eat|"
        r"can't have|"
        r"(?:is|are|'s|'re) (?:obsessed with|into|crazy about|a huge fan of|a big fan of|"
        r"allergic to|scared of|afraid of))\s+(?P<x>.+)$",
        rest,
        I_,
    )
    if (
        n
        and re.fullmatch(r"(?:it|them|that|those)(?: too| a lot)?", n.group("x"), I_)
        and (last := ctx.extra.get("last_obj"))
    ):  # "I don't like spicy food but my kids love it": it is the food just named
        pol = "dislike" if re.search(r"hat|n't|not", n.group("v"), I_) else "like"
        return [Hit(P, f"{key}.pref.{last}", "family.pref", polarity=pol, value=pol)]
    if n and (o := object_key(n.group("x"))):
        pol = (
            "like"
            if re.match(r"lov|lik|ador|enjoy|(?:is|are|'s|'re) (?!scared|afraid)", n.group("v"), I_)
            else "dislike"
        )
        if re.search(r"n't|not", n.group("v")):
            pol = "dislike"
        return [Hit(P, f"{key}.pref.{o}", "family.pref", polarity=pol, value=pol)]
    if fav := re.match(
        r"^'s (?:favou?rite|fave) (?P<w>[a-z]+(?: [a-z]+)?) (?:is|are|'s) (?P<x>.+)$", rest, I_
    ):  # "my husband's favorite food is lasagna": a taste of theirs, keyed by what it is
        what = slug(fav.group("w"))
        return [Hit(P, f"{key}.favorite.{what}", "family.favorite", value=fav.group("x").strip())]
    words = rest.split()
    if re.search(
        r"\b(?:this week|this month|these days|right now|lately)\b", rest, I_
    ) and re.search(
        r"\b(?:away|traveling|travelling|on a trip|in the hospital|sick|out of town|on leave)\b",
        rest,
        I_,
    ):
        return []  # "my husband's away for work this week": a state for now
    if re.match(r"^(?:is|are|'re|'s|got) (?:now |recently |just )?(?P<x>divorced|separated|married|"
                r"engaged|widowed)$", rest, I_):  # fmt: skip
        status = rest.split()[-1].lower()  # "my parents are divorced"
        return [Hit(F, f"{key}.marital", "family.marital", value=status)]
    dated = find_date(rest, ctx.ref)
    future = dated is not None and dated[0] >= ctx.ref.replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    if future and not re.search(r"\bevery\b|\bon \w+days\b", rest, I_):
        return []  # "my son's birthday party is this Saturday": a plan, not a fact about him
    if re.match(
        r"^(?:\w+ )?(?:thinks|believes|reckons|claims|swears|insists|feels like|"
        r"says (?:i|i'm|that i|he's|she's|he is|she is))\b",
        rest,
        I_,
    ):
        return []  # "my brother-in-law thinks he's a great cook": an opinion of theirs, no fact
    if re.match(
        r"^(?:(?:is|was|'s) the one (?:who|that) |\w+ )?(?:talked (?:me|us) into|"
        r"convinced (?:me|us)|showed (?:me|us)|"
        r"dragged (?:me|us)|pushed (?:me|us)|got (?:me|us) (?:into|to))\b",
        rest,
        I_,
    ):
        return []  # "my son talked me into it": how the user's change came about
    if len(words) >= 2 and not re.match(
        r"^(?:is|'s|are) (?:so |very |really |super )?\w+$", rest, I_
    ):
        return [Hit(F, f"{key}.about", "family.about")]
    return []
