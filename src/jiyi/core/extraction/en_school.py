"""English slot rules for education: stage, school and major of the user's own studies.

One message about one's studies is one memory ("I'm a sophomore at Ohio State", "I got my
PhD in chemistry from Berkeley"); a change of major lands in ``education.major``.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import IM, place
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.en_occupation import STAGE
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["education"]

F = MemoryKind.FACT
I_ = re.IGNORECASE
_STAGE = STAGE

# ------------------------------------------------------------------ education


# Fields one majors in, by the names students use for them ("switched over to Comp Sci").
_FIELDS = re.compile(
    r"^(?:comp ?sci|computer science|cs|computer engineering|data science|business analytics|"
    r"business|economics|econ|nursing|biology|bio|chemistry|chem|physics|math|maths|"
    r"mathematics|statistics|stats|engineering|mechanical engineering|electrical engineering|"
    r"civil engineering|law|pre-?med|medicine|psychology|psych|history|english|accounting|"
    r"finance|marketing|architecture|philosophy|sociology|political science|poli ?sci|"
    r"pharmacy|education|journalism|communications|film|music|fine arts?|graphic design|"
    # degrees said for the field ("I switched from B.Com to BBA")
    r"b\.? ?com|bba|b\.? ?tech|b\.? ?sc|b\.? ?a|b\.? ?ed|bsn|mbbs|b\.? ?pharm|bca|m\.? ?com|mba|"
    r"llb|b\.? ?arch)$",
    re.IGNORECASE,
)
# "I'm doing B.Com at St. Xavier's College": the degree course, and where
_DOING_AT = re.compile(
    rf"^(?:{IM}|i) (?:doing|studying|taking|pursuing|in) (?:my |a |an )?(?P<x>[\w.&' -]{{2,30}}?) "
    r"(?:at|in) (?P<s>(?-i:[A-Z])[\w.&' -]*?(?:College|University|Institute|Polytechnic|School|"
    r"Academy|Uni))(?: now| this (?:year|sem|semester))?$",
    re.IGNORECASE,
)
_TO_FIELD = re.compile(
    r"^i(?:'ve| have)? (?:just |already |finally |officially )?(?:switched|changed|transferred|"
    r"moved) (?:over )?(?:from [\w.&' -]{2,30}? )?(?:to|into) (?P<x>[\w. &'-]+?)"
    r"(?: already| now| this (?:sem|semester|term|year))?$",
    re.IGNORECASE,
)


def education(c: str, ctx: Context) -> list[Hit]:
    if (doing := _DOING_AT.match(c)) and _FIELDS.match(doing["x"]):
        major, school = clean_value(doing["x"]), clean_value(doing["s"])
        return [Hit(F, "education.major", "major.at", value=major,
                    content=f"User is doing {major}"),
                Hit(F, "education.school", "school.doing", value=school,
                    content=f"User studies at {school}")]  # fmt: skip
    if (to := _TO_FIELD.match(c)) and _FIELDS.match(to["x"]):
        # "I switched over to Comp Sci already": a field of study is a major, no employer
        major = clean_value(to["x"])
        return [Hit(F, "education.major", "major.switch", value=major, correction=True,
                    content=f"User's major is {major} now")]  # fmt: skip
    if re.search(r"(?:^|\band )(?:i(?:'ve| have)? )?(?:just |finally |officially )?(?:changed|"
                 r"switched) (?:my )?(?:majors?|courses?|programs?|degrees?)"
                 r"(?: over the (?:summer|break|holidays)| this (?:sem|semester|term|year))?$",
                 c, I_):  # fmt: skip
        ctx.extra["major_next"] = "1"  # "switched majors!!! comp sci now": the new one follows
        return []
    if re.search(
        r"^(?:so |and )?i(?:'ve| have)? (?:just |finally |officially )?"
        r"(?:switched|transferred|dropped|moved) out of (?:my )?(?P<x>[\w &'-]{2,30}?)"
        r"(?: major| program| course)?"
        r"(?: this (?:sem|semester|term|year)| last (?:sem|semester|term|year))?$",
        c,
        I_,
    ):
        ctx.extra["major_next"] = "1"  # "i switched out of bio": the new major follows
        return []
    if ctx.extra.get("major_next") and (
        n := re.match(  # (…, so) I'm doing kinesiology now: whatever was said in between
            r"^(?:so |and )?(?:it's |its |it is |i'm |i am )?(?:doing |studying |majoring in )?"
            r"(?P<z>[a-z][\w &'-]{1,30}?) now$",
            c,
            I_,
        )
    ):
        ctx.extra.pop("major_next", None)
        major = clean_value(n["z"]).lower()
        return [Hit(F, "education.major", "major.switch", value=major, correction=True,
                    content=f"User's major is {major} now")]  # fmt: skip
    m = re.match(
        r"^i(?:'ve| have)? (?:just )?(?:changed|switched) (?:my )?(?:major|majors|master'?s|"
        r"degree|program|phd|concentration|focus)(?: over)? (?:to|into) (?P<x>[\w &'-]+)$|"
        rf"^(?:{IM} (?:now )?majoring in|i major in|i(?:'m| am) now studying) (?P<y>[\w &'-]+?)"
        r"(?: now)?$",
        c,
        I_,
    )
    if m:  # "I switched my master's to data science": the new major
        major = clean_value(m.group("x") or m.group("y")).lower()
        major = re.sub(
            r"\s+(?:today|yesterday|this (?:week|semester|term|year)|"
            r"last (?:week|term|semester|year)|(?:after|in) (?:my |the )?"
            r"(?:first|second|third|1st|2nd|3rd) (?:year|semester|term|sem))$",
            "",
            major,
        )
        change = bool(m.group("x")) or c.lower().endswith(" now")
        return [Hit(F, "education.major", "major.switch", value=major, correction=change)]
    m = re.match(
        r"^i (?:got|earned|did|completed|finished|have) (?:my|a) (?P<d>phd|ph\.d\.?|master'?s|mba|"
        r"bachelor'?s|ba|bs|bsc|msc|ma|ms|degree|doctorate|jd|"
        r"md)(?: degree)?(?: in (?P<m>[\w &'-]+?))?"
        r" (?:from|at) (?P<s>[A-Z][\w .&'-]+?)(?: in \d{4})?$",
        c,
        I_,
    )
    if m:  # "I got my PhD in chemistry from Berkeley": one's studies, one memory
        hits = [Hit(F, "education.school", "school.degree", value=m.group("s"))]
        if m.group("m"):
            hits.append(Hit(F, "education.major", "major", value=m.group("m").lower()))
        return hits
    m = re.match(
        rf"^{IM} in (?:my )?(?P<x>(?:first|second|third|fourth|final|last) (?:semester|year|term))"
        r" (?:of|at|in) (?P<y>[\w .&'-]+)$",
        c,
        I_,
    )
    if m:  # "I'm in my last semester of nursing school"
        return [
            Hit(
                F,
                "education.stage",
                "school.stage",
                value=f"{m.group('x')} of {m.group('y')}".lower(),
            )
        ]
    m = re.match(r"^(?i:i(?:'ve| have)? (?:just )?transferred to) (?P<x>[A-Z][\w .&'-]+)$", c)
    if m and not is_place_en(m.group("x")):  # "I transferred to UCLA"
        said = place(m.group("x"))  # "… Millard North this year": the school, not when
        return [Hit(F, "education.school", "school.transfer", value=said, correction=True)]
    m = re.match(
        rf"^{IM} (?:now |officially )?(?:a |an )?(?P<x>{_STAGE})(?: (?:at|"
        rf"in) (?P<y>.+?))?(?: now)?$",
        c,
        I_,
    )
    if m:  # "I'm a sophomore at Ohio State"
        hits = [Hit(F, "education.stage", "school.stage", value=m.group("x").lower())]
        # "a junior at umich majoring in biology": the school is umich
        school = (m.group("y") or "").partition(" majoring in ")[0]
        if school:
            hits.append(Hit(F, "education.school", "school", value=place(school)))
        return hits
    m = re.match(
        rf"^(?:{IM} (?:now |officially )?(?:in|starting|going into|entering|starting in)|"
        r"i'm currently in|i (?:just )?started) (?:my |the )?"
        r"(?P<x>(?:first|second|third|fourth|final|last|senior|junior)"
        r" year|\d(?:st|nd|rd|th) year|\d{1,2}(?:st|nd|rd|th) grade|grad school|college|"
        r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)"
        r" grade|kindergarten|"
        r"high school|"
        r"med school|law school|university|uni|middle school)(?: (?:of|at|in) (?P<y>.+?))?"
        r"(?: now| these days| this year| already| this fall| this week| today)?$",
        c,
        I_,
    )
    if m:
        return [Hit(F, "education.stage", "school.stage", value=m.group("x").lower())]
    m = re.match(
        r"^(?:i'm|i am|im) (?:doing|getting|finishing|working on|pursuing|studying for) (?:my |a |"
        r"an )?(?P<x>phd|ph\.d\.?|master'?s|"
        r"masters|mba|bachelor'?s|degree|doctorate|ms|ma|bsc|"
        r"msc)(?: degree)?(?: in (?P<y>.+?))?(?: at (?P<z>.+))?$",
        c,
        I_,
    )
    if m:
        hits = [Hit(F, "education.stage", "school.stage", value=m.group("x").lower())]
        if m.group("y") and is_place_en(m.group("y")):  # "my masters in London": where
            return hits
        if m.group("y"):
            hits.append(Hit(F, "education.major", "major", value=clean_value(m.group("y")).lower()))
        return hits
    m = re.match(
        rf"^(?i:{IM} (?:a )?student at|i study at|i go to school at|i attend|i go to|i'm at|"
        r"i graduated from|i went to)\s+(?P<x>[A-Z]\S.*)$",
        c,
    ) or re.match(
        rf"^(?:{IM} (?:a )?student at|i study at|i attend|i graduated from)\s+(?P<x>\S.*)$", c, I_
    )
    generic = m and re.fullmatch(
        r"(?:the )?(?:college|university|uni|high school|school|grad school)(?: in \d{4}|"
        r" last \w+)?",
        m.group("x"),
        I_,
    )
    if (
        m
        and not generic  # "I graduated from college in 2019": an event, no school named
        and not is_place_en(m.group("x"))
        and (
            re.search(
                r"\b(?:university|college|school|high|institute|academy|u|state|tech)\b",
                m.group("x"),
                I_,
            )
            or re.match(
                r"^(?:i study at|i attend|i graduated from|(?:i'm|i am|im) (?:a )?student at)",
                c,
                I_,
            )
            or m.group("x").isupper()
        )
    ):
        return [Hit(F, "education.school", "school", value=place(m.group("x")))]
    m = re.match(
        rf"^(?:i (?:study|studied|majored in|major in|'m majoring in|am majoring in)|{IM} studying|"
        rf"my major is|"
        r"my degree is in|i have a degree in|"
        r"i got my degree in)\s+(?P<x>[a-z][a-z &-]+?)(?: at (?P<y>.+?))?"
        r"(?: in college| at uni| in school)?$|^(?:i'm|i am|im) an? (?P<z>[a-z &-]+?) major"
        r"(?: at (?P<w>(?-i:[A-Z])[\w .&'-]+?))?$",
        c,
        I_,
    )
    if m and not re.search(r"\b(?:for|hard|a lot|late|abroad|every)\b", m.group("x") or "", I_):
        major = clean_value(m.group("x") or m.group("z")).lower()
        hits = [Hit(F, "education.major", "major", value=major)]
        if m.group("y") or m.group("w"):
            hits.append(
                Hit(F, "education.school", "school", value=place(m.group("y") or m.group("w")))
            )
        return hits
    return []
