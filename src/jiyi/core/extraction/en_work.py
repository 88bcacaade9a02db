"""English slot rules for work (education is in en_school.py).

"I work at / joined / started at / I'm at X now / I left X for Y" all land in
``work.employer``; "I'm a nurse / I work as a nurse / I got a job as a nurse" in ``work.role``
(:mod:`.en_occupation`, read when no employer rule here matched);
a change of job replaces the old value instead of sitting beside it.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import place
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.en_jobs import job_at, new_employer, work_base, work_mode
from jiyi.core.extraction.en_occupation import occupation
from jiyi.core.extraction.en_roles import WHEN_TAIL, a_job, employer_hit, job_now
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import DRINK_RE
from jiyi.core.extraction.lexicon_places import COMPANIES_EN, FIELDS_EN
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["work"]

F = MemoryKind.FACT
I_ = re.IGNORECASE


# ------------------------------------------------------------------ work


_WHEN_HEAD = re.compile(
    r"^(?:last|this|earlier this) (?:week|month|year|spring|summer|fall|autumn|winter|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day),?\s+(?=i\b|i'(?:m|ve)\b)",
    I_,
)


# A known company said in lower case ("quit target") is still the employer left.
_KNOWN_EMPLOYER = "|".join(sorted(COMPANIES_EN))


_SHIFTS_AT = re.compile(
    r"^i (?:still |also |now )?(?:do|work|pick up|take) (?:(?:casual|part[- ]time|night|weekend|"
    r"evening|extra|some|a few|the odd|my) )*shifts? (?:at|for) (?P<y>[\w&'. -]{2,30}?)"
    r"(?:,? (?:mostly|usually|on|after|before|at) [\w ]+)?$",
    I_,
)


def work(c: str, ctx: Context) -> list[Hit]:
    if mode := work_mode(c):
        # "(I've been) working remote for Atlassian since 2021": where, too
        at = re.search(r"\b(?:for|at|with) (?P<x>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)", c)
        return [*mode, employer_hit(at.group("x"), "employer")] if at else mode
    if hits := job_at(c) or work_base(c) or new_employer(c) or job_now(c):
        return hits
    if shifts := _SHIFTS_AT.match(c):  # "i do casual shifts at woolies, mostly nights"
        return [employer_hit(shifts["y"], "employer.shifts")]
    m = re.match(
        r"^i (?P<neg>don't |do not |no longer )?(?:now |currently |still |actually |also )?work "
        r"(?:nights |days |weekends |evenings |part[- ]time |full[- ]time |remotely |shifts |"
        r"casual |(?:mon|tues|wednes|thurs|fri|satur|sun)days )?"
        r"(?P<prep>at|for|in|with) (?P<x>.+?)(?: as (?:an? )?(?P<role>.+?))?(?: any ?more)?$",
        c,
        I_,
    )
    if m and m.group("role") and not m.group("neg"):
        hits = [
            Hit(
                F,
                "work.role",
                "role",
                content=f"User works as {a_job(clean_value(m.group('role')))}",
                value=clean_value(m.group("role")).lower(),
            )
        ]
        hits.insert(0, employer_hit(m.group("x"), "employer"))  # also "a bank": where they work
        return hits
    if m:
        neg = bool(m.group("neg"))
        where = place(m.group("x"))
        value = f"not {where}" if neg else where
        if m.group("prep").lower() == "in":
            # "downtown Seattle": the part of town before the place
            town = re.sub(r"^(?:downtown|uptown|midtown|central|greater)\s+", "", where, flags=I_)
            if is_place_en(town) or (
                town[:1].isupper() and town.lower() not in FIELDS_EN and not town.isupper()
            ):
                return [Hit(F, "location.work", "work.in", correction=neg, value=value)]
            return [Hit(F, "work.field", "work.field", correction=neg, value=value.lower())]
        kind_in = re.match(
            r"^(?P<e>(?:a|an) [\w' -]+?) (?:in|out in|over in|down in|up in) "
            r"(?P<t>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2})$",
            m.group("x"),
        )
        if kind_in and not neg and is_place_en(kind_in["t"]):
            # "a bank in Chicago": the kind of employer, and the city of the work
            return [
                Hit(F, "work.employer", "employer.kind", value=kind_in["e"]),
                Hit(F, "location.work", "work.in", value=place(kind_in["t"])),
            ]
        if re.match(r"^(?:a|an|some|myself) ", m.group("x") + " ", I_):
            return [Hit(F, "work.employer", "employer.kind", value=value)] if not neg else []
        return [employer_hit(m.group("x"), "employer", neg)]
    m = re.match(
        r"^i(?:'ve| have)? (?:just |recently |finally |officially )?(?:joined|"
        # "started on Monday in the finance office at Boston Scientific"
        r"started (?:on \w+ |last \w+ |this \w+ )?"
        r"(?:in the [\w ]{2,20}? (?:office|department|team) )?"
        r"(?:working |on the (?:line|floor|desk|register|night shift|day shift) )?at|"
        r"started a new job at|started a job at|got (?:a|the) (?:new )?job (?:at|with)|switched to|"
        r"moved to work at|"
        r"took a job at|accepted (?:an offer|a job|a position) (?:at|from|with))\s+(?P<x>\S.*)$|"
        r"^i(?:'ve| have)? (?:just |recently )?(?:left|quit|resigned from) (?!my job\b)"
        r"(?-i:[A-Z]).*? "
        r"(?:and|to|for) "
        r"(?:i )?(?:joined|join|started at|start at|went to|moved to|now work at)?\s*(?P<y>\S.*)$|"
        # "I'm at Stripe now" (not "I'm at the airport right now": a place this moment)
        r"^(?:i'm|i am|(?:i've |i have )?been) (?:now |currently )?"
        r"(?:on the (?:line|floor|desk|register|night shift|"
        r"day shift) )?(?:at|with) (?!the |a |an |home\b|work\b)"
        r"(?P<z>[A-Z][\w&.' -]*?)(?<!\bright)(?: now| these days| currently)$|"
        r"^i (?:now )?work (?:at|for) (?P<w>.+?) now$|"
        # "I'm doing the same cashier work at Zenith Bank since January"
        r"^(?:i'm|i am) (?:now )?doing (?:the same|my) (?:[a-z]+ )?(?:work|job) (?:at|for|with) "
        r"(?P<u>(?-i:[A-Z])[\w&.' -]*?)(?: now| since [\w ]+)?$|"
        # "i quit werner after 9 years got on with Schneider": hired on by the new carrier
        r"^i(?:'ve| have)? (?:just |finally |recently )?(?:(?:left|quit) .+? (?:and )?)?"
        r"got (?:hired )?on (?:with|at) (?P<v>(?-i:[A-Z])[\w&.' -]*?)(?: now)?$",
        _WHEN_HEAD.sub("", c),  # "Last week I started at …": when, before the new job
        I_,
    )
    said = next((v for v in m.group("x", "y", "z", "w", "v", "u") if v), "") if m else ""
    singular = " ".join(re.sub(r"s$", "", w) for w in said.split())
    if (
        m
        and said
        and not DRINK_RE.search(said)
        and not DRINK_RE.search(singular)
        and not is_place_en(said)
        # "I quit the gym and started doing yoga": an activity took its place, not a job
        and not re.match(
            r"(?:started|start|began|begin|doing|taking|took|picked|going)\b", said, I_
        )
        # "joined a bowling league on thursdays": a pastime's group, not an employer
        and not re.match(
            r"(?:an?|the|my) (?:[\w-]+ ){0,2}?(?:league|club|team|choir|band|gym|"
            r"class|group|church|meetup|orchestra|crew|squad)\b",
            said,
            I_,
        )
        and not (  # "I switched to the drums": an employer is named, not a thing
            re.search(r"\bswitched to\b", c, I_)
            and not re.match(r"[A-Z0-9]", said)
            and said.lower() not in COMPANIES_EN
        )
    ):
        # "Started a new job at Kaiser on Monday as a pharmacy tech": the role too
        job = re.match(r"^(?P<e>.+?) as an? (?P<r>[a-z][a-z -]{2,40})$", WHEN_TAIL.sub("", said))
        if job is None:
            return [employer_hit(said, "employer.change")]
        role = job.group("r").strip()
        said_role = f"User works as {'an' if role[0] in 'aeiou' else 'a'} {role}"
        return [employer_hit(job.group("e"), "employer.change"),
                Hit(F, "work.role", "role.change", value=role, content=said_role)]  # fmt: skip
    m = re.match(
        r"^(?i:(?:i(?:'ve| have)? )?(?:(?:just |finally |recently |officially )?(?:left|quit) "
        r"(?:my job at |my job with )?|(?:am |"
        r"'m )?no longer (?:at|with|working at|working for) |(?:i'm|i am) not (?:at|with|"
        r"working at|"
        rf"working for) ))(?P<x>[A-Z][\w&.' -]*?|(?i:{_KNOWN_EMPLOYER}))"
        r"(?i: any ?more)?$",
        c,
    )
    if m:
        ctx.extra["slot"] = "work.employer"
        return [employer_hit(m.group("x"), "employer.left", neg=True)]
    if re.match(
        r"^i(?:'ve| have)? (?:just )?(?:switched jobs|changed jobs|got a new job|"
        r"started a new job)$",
        c,
        I_,
    ):
        ctx.extra["slot"] = "work.employer"
        return []
    return occupation(c, ctx)
