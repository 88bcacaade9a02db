"""The user's own job moved, told the way people chat: "accepted the offer from Stripe, start
on the 15th", "got bumped up to shift lead last week", "gonna be workin at costco startin next
wek", "i'm at walgreens now".

:mod:`jiyi.core.extraction.en_work` reads a clause that *is* the statement ("I work at X").
In chat the move sits inside a longer clause, so this reader searches the clause for a job
taken with its employer, work done at an employer "now", or a promotion, when all hold:

- the user is the one moved: "I" after anyone else named, or the subject left out with only
  fillers before the verb ("my wife got the job at Google" is hers);
- nothing unsure, past, part-time or on the side is said near it (if / used to / years ago /
  "turned it down" / too / on weekends / ?);
- the employer is a capitalised name or a known company; a title passes
  :func:`jiyi.core.extraction.en_roles.is_role` and ends in a job word (lead, manager, nurse…).

Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import place
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.en_roles import a_job, employer_hit, is_role
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import RELATIONS_EN
from jiyi.core.extraction.lexicon_places import COMPANIES_EN, is_town_en
from jiyi.core.models import MemoryKind

__all__ = ["job_move"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

_KNOWN = "|".join(sorted(map(re.escape, COMPANIES_EN), key=len, reverse=True))
# A capitalised name (Baker McKenzie, Nonna's, the Denver Post) or a known company (costco).
_NAME = r"(?-i:(?:the )?[A-Z][\w&'.-]*(?: (?:of |& |and )?[A-Z][\w&'.-]*){0,3})"
_ORG = rf"(?P<x>{_NAME}|\b(?:{_KNOWN})\b)"
_ROLE = r"(?P<r>[a-z][a-z -]{1,40}?)"
_STOP = r"(?=$|[.,!?;:)]|\s+(?:now|today|starting|start|as of|since|from|on|in|last|next|this|"
_STOP += r"after|so|and|but|because|cuz|lol|haha|!+|tbh|btw|which|where|who|for|with|at)\b)"

_OTHER = re.compile(
    r"\b(?:my|our|his|her) (?:\w+ )?(?:"
    + "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
    + r"|friend|buddy|coworker|co-worker|colleague|boss|manager|neighbou?r|roommate|cousin)\b|"
    r"\b(?:he|she|they|he's|she's|they're)\b",
    I_,
)
_ME = re.compile(r"\b(?:i|i'm|im|i've|ive|i'll|me|my)\b", I_)
_UNSURE = re.compile(
    r"\b(?:if|might|maybe|thinking (?:about|of)|considering|would|could|should|hope|hoping|"
    r"wish|used to|before|back when|interview(?:ed|ing)?|applied|applying|offered me|turned "
    r"(?:it |them )?down|declined|passed on|said no|too|also|as well|on the side|side gig|"
    r"side hustle|volunteer|on weekends|weekends only|back in|ago|last year|years|"
    r"in (?:19|20)\d\d|when i|after college|out of college|first job)\b|\?",
    I_,
)

_MOVES = (
    # "accepted the offer from Stripe", "got the tenure-track job at Loyola", "took a little
    # part time job as a greeter at Home Depot"
    (
        "employer.offer",
        r"\b(?:accepted|took|got|landed|signed|started)\b(?: \w+){0,4}? "
        rf"(?:(?<=accepted )(?:the |an )?offer|job|position|role|gig)(?: as an? {_ROLE})? "
        rf"(?:at|with|from) {_ORG}",
    ),
    # "i'm at walgreens now", "driving long haul for Swift now", "gonna be workin at costco"
    # (not "I'm at the Costco now picking up snacks": where the user is this minute)
    ("employer.now", rf"\b(?:i'm|im|i am) (?:now )?(?:at|with) (?!the |a |an ){_ORG}(?= now$)"),
    # "new job: Zendesk" (a title after "new job:" is a role, below)
    ("employer.new", rf"^new (?:job|gig|employer|company)\s*[:-]\s*{_ORG}(?=\W*$)"),
    (
        "employer.now",
        r"\b(?:gonna be|going to be|will be|i'll be|i'm|im|i am|now)\s+"
        r"(?:working|workin|cooking|driving|teaching|nursing|bartending|serving|"
        r"waiting tables|delivering|coding|tutoring)\b(?: [\w-]+){0,2}? (?:at|for) "
        rf"(?:a (?:little |small |new )?[\w ]{{2,20}}? called )?{_ORG}",
    ),
)
_MOVES_RE = tuple((rule, re.compile(p, I_)) for rule, p in _MOVES)
# "got bumped up to shift lead", "promoted to senior associate", "new job: paralegal at X",
# "PROMOTED 🎉 senior associate now". A title said "now" alone ("I'm the charge nurse now",
# "Actually I'm a … now") and a hiring ("Google poached me") are not read: on held-out sets
# each retired as many background facts as it placed changes (bench/README.md, 2026-12-03 IV).
_TITLE = (
    re.compile(
        r"\b(?:promoted|bumped up|moved up|made me|upgraded)(?: me)?(?: to)? (?:an? |the )?"
        rf"{_ROLE}{_STOP}",
        I_,
    ),
    re.compile(
        rf"\bnew (?:job|role|position|title)\s*[:-]\s*(?:an? )?{_ROLE}(?: at {_ORG})?{_STOP}", I_
    ),
    re.compile(rf"^promoted\W*(?:to )?(?:an? )?{_ROLE}(?: now)?\W*$", I_),
    # "they moved me up to account executive", "hopkins kept me on as a postdoc",
    # "officially a senior buyer as of today": a new title, said with the day it took effect
    re.compile(rf"\b(?:moved|bumped) me up to (?:an? |the )?{_ROLE}{_STOP}", I_),
    re.compile(rf"\bkept me on as (?:an? |the )?{_ROLE}{_STOP}", I_),
    re.compile(
        rf"^(?:i'm |im |i am )?officially (?:an? ){_ROLE}(?= as of| starting| effective)", I_
    ),
)
# "Deloitte is moving me to the Milwaukee office", "transferred me to the Austin branch"
_POSTED = re.compile(
    r"\b(?:moving|moved|transferring|transferred|sending|sent|relocating|relocated|"
    r"(?:has |have )?posted|(?:has |have )?deployed|(?:has |have )?redeployed) me "
    r"(?:over )?(?:to|at) (?:the |our |their )?"
    r"(?P<c>(?-i:[A-Z][a-zà-ÿ]+)(?: (?-i:[A-Z][a-zà-ÿ]+))?) "
    r"(?:office|branch|store|location|site|plant|campus|hq|depot|station|base)\b",
    re.IGNORECASE,
)

# "I'm commuting into NYC now instead of Philly", "rostered out of Geelong now": where the
# user works, said with the word of now
_BASED = re.compile(
    r"\b(?:i'm|im|i am|i'll be|ill be|i will be) (?:now )?(?:commuting (?:in)?to|rostered out of|"
    r"based out of|working out of|stationed (?:in|at|out of)) (?:the |our )?"
    r"(?P<c>(?-i:[A-Z][A-Za-z]+(?: [A-Z][a-z]+)?))(?: office| branch| depot| site| station)?"
    r"(?= now| instead| these days| from now| starting|\W*$)",
    I_,
)


# A last day at work said, then where the user starts: the new employer (said alone, "starting
# at stripe on monday" may be a course or a gym)
_LAST_DAY = re.compile(
    rf"\b(?:my )?last day (?:at|with|was)\b|\b(?:left|quit) (?:\b(?:{_KNOWN})\b)|"
    r"\bjump(?:e)?d ship\b|\b(?:switched|changed) jobs\b|\bquit my job\b|"
    # "left dell on friday" (then "start at lenovo monday": only then is it a job left)
    r"^(?:i )?(?:just |finally )?(?:left|quit) (?!(?:the|a|my|home|work|early|it|him|her)\b)"
    r"[a-z][\w&'-]{1,20}\b",
    I_,
)
# (after a job left) "start at onsemi monday" (an employer typed in lower case too), "now at
# Grab"
_STARTING = re.compile(
    rf"^(?:and |so |then )?(?:i'm |im |i am |i )?(?:starting|start|starts) (?:at|with) "
    rf"(?:{_ORG}|(?P<y>(?!(?:the|a|my|work|home|school|uni|gym|noon|night)\b)[a-z][\w&'-]{{2,20}}))"
    r"(?= (?:on|tomorrow|next|this|mon|tues?|wed|thu|fri|monday|tuesday|wednesday|thursday|"
    r"friday)\b|$)|"
    rf"^(?:and |so |then )?(?:i'm |im |i am )?now (?:at|with) (?P<z>{_NAME})(?=[.,!]|$|\s)",
    I_,
)
# The subject left out: only fillers and adverbs before the verb ("got bumped up to …",
# "so after four rounds i accepted …" has its "i").
_ELIDED = re.compile(
    r"(?:(?:so|and|but|well|oh|lol|ok|okay|actually|honestly|finally|just|also|btw|fyi|update|"
    r"guess what|big news|good news|news)\W*\s*)*(?:got|get|was|been)?\s*",
    I_,
)


def _about_user(c: str, at: int) -> bool:
    """The user is the subject: "I" after anyone else named, or the subject left out with
    only fillers before the verb ("my manager got promoted" and "the store got bought" are
    not the user's)."""
    before = c[:at]
    others = [m.end() for m in _OTHER.finditer(before)]
    if others and not _ME.search(before[others[-1] :]):
        return False
    return bool(_ELIDED.fullmatch(before) or _ME.search(before))


def _sure(c: str, m: re.Match[str]) -> bool:
    return not _UNSURE.search(c[max(0, m.start() - 25) : m.end() + 20])


# Capitalised at a sentence's start, no employer: "They hired me", "Mom hired me".
_NOT_ORG = frozenset(
    """i my the a it they he she we you someone everyone nobody this that there mom dad mum
    ma pa grandma grandpa nana papa honestly actually so well anyway turns""".split()
)


def _employer(x: str | None) -> str:
    said = re.sub(r"^the (?=[a-z])", "", (x or "").strip(), flags=I_)
    first = said.split()[0].lower() if said.split() else ""
    if len(said) < 2 or is_place_en(said) or first in _NOT_ORG or first in RELATIONS_EN:
        return ""
    return said


# The last word of a job title ("shift lead", "senior associate", "engineering manager"):
# "I'm a homeowner now", "a runner", "a dog mom" name no job.
_JOB_WORD = re.compile(
    r"\b(?:manager|lead|director|engineer|developer|associate|analyst|nurse|teacher|supervisor|"
    r"assistant|specialist|coordinator|officer|attorney|lawyer|paralegal|technician|tech|"
    r"designer|consultant|accountant|cashier|clerk|driver|chef|cook|server|bartender|barista|"
    r"principal|professor|instructor|agent|rep|representative|partner|vp|president|ceo|cto|cfo|"
    r"founder|owner|administrator|admin|pharmacist|therapist|counselor|dispatcher|mechanic|"
    r"electrician|plumber|carpenter|foreman|superintendent|sergeant|captain|lieutenant|"
    r"detective|firefighter|paramedic|emt|aide|cna|rn|np|physician|doctor|dentist|hygienist|"
    r"secretary|receptionist|editor|writer|reporter|producer|scientist|researcher|librarian|"
    r"coach|trainer|tutor|operator|planner|buyer|recruiter|auditor|underwriter|adjuster|broker|"
    r"realtor|teller|banker|programmer|architect|intern|apprentice|greeter|stocker|head|chief|"
    r"executive|postdoc|fellow|resident|controller|strategist|merchandiser|steward)$",
    I_,
)


_POSTED_AT = re.compile(
    r"\b(?:i'm|im|i am|i'll be|ill be|i will be) (?:now |currently )?(?P<v>posted|stationed|"
    r"deployed|redeployed|resuming(?: work)?) (?:at|to) (?:the )?"
    r"(?P<u>(?-i:[A-Z])[\w'-]*(?: (?:[\w'-]+)){0,6}?)(?= now| from| starting|[,.!]|$)",
    re.IGNORECASE,
)
# "they're moving our whole team to the Mississauga office", "my boss shifted us to the Kulim
# site", "my office is at the Bayan Lepas site": where the user works, by the site it names
_SITE = r"office|site|campus|branch|building|plant|hub|facility|fab|depot|warehouse|location"
_TEAM_MOVED = re.compile(
    r"\b(?:moving|moved|shifted|shifting|relocated|relocating|transferred|transferring)\s+"
    r"(?:(?:our|my|are|the) (?:whole |entire )?(?:team|department|dept|unit|group|floor|"
    r"division|lab)|us|me)\s+to (?:the )?"
    rf"(?P<u>[A-Za-z][\w'-]*(?: [\w'-]+){{0,3}}?) (?P<k>{_SITE})\b",
    re.IGNORECASE,
)
_OFFICE_AT = re.compile(
    r"^(?:my|our) (?:office|desk|workplace|work) is (?:at|in) (?:the )?"
    rf"(?P<u>[A-Z][\w'-]*(?: [A-Z][\w'-]*){{0,3}}) (?P<k>{_SITE})\b",
    re.IGNORECASE,
)
_NOT_TOWN = re.compile(r"^(?:Main|Head|New|Other|Same|Local|Central|Regional|Corporate)\b")


def _title(role: str) -> bool:
    return bool(role) and is_role(role) and bool(_JOB_WORD.search(role))


def job_move(c: str, ctx: Context) -> list[Hit]:
    """The user's job as it now is, read from a move, a hiring or a promotion inside ``c``;
    [] when the clause says none (see the module doc)."""
    if _LAST_DAY.search(c):
        ctx.extra["left_job"] = "1"  # "friday was my last day at google, starting at stripe …"
    m = _STARTING.search(c) if ctx.extra.get("left_job") else None
    if m and _about_user(c, m.start()) and (employer := _employer(m["x"] or m["y"] or m["z"])):
        hit = employer_hit(employer, "employer.starting")
        hit.correction = True
        return [hit]
    if (m := _BASED.search(c)) and _sure(c, m) and (is_place_en(m["c"]) or is_town_en(m["c"])):
        where = place(m["c"])
        return [Hit(F, "location.work", "work.based", value=where, correction=True,
                    content=f"User works in {where}")]  # fmt: skip
    # (the Mandya branch: a place by the branch it names, even one no list knows)
    if (unit := _POSTED_AT.search(c)) and _sure(c, unit):
        # "I'm posted at the Seme border command", "(from next week) I'm resuming at Tin Can
        # Island port in Lagos": the unit the user works at
        where = re.sub(r"\s+in\s+[A-Z][\w'-]+$", "", unit["u"]).strip()
        return [Hit(F, "location.work", "work.unit", value=where,
                    correction=bool(unit["v"].lower().startswith(("resum", "redeploy"))),
                    content=f"User works at {where}")]  # fmt: skip
    site = _TEAM_MOVED.search(c) or _OFFICE_AT.match(c)
    if site and _sure(c, site) and not _NOT_TOWN.match(site["u"]):
        where = f"the {site['u']} {site['k'].lower()}"
        return [Hit(F, "location.work", "work.site", value=where, content=f"User works at {where}",
                    correction=site.re is _TEAM_MOVED)]  # fmt: skip
    if (m := _POSTED.search(c)) and _sure(c, m) and not _NOT_TOWN.match(m["c"]):
        where = place(m["c"])
        return [Hit(F, "location.work", "work.posted", value=where, correction=True,
                    content=f"User works in {where}")]  # fmt: skip
    for rule, pattern in _MOVES_RE:
        for m in pattern.finditer(c):
            if not _about_user(c, m.start()) or not _sure(c, m):
                continue
            employer = _employer(m["x"])
            if not employer:
                continue
            hits = [employer_hit(employer, rule)]
            role = (m.groupdict().get("r") or "").strip()
            if _title(role):
                hits.append(Hit(F, "work.role", "role.move", value=role,
                                content=f"User works as {a_job(role)}"))  # fmt: skip
            for h in hits:
                h.correction = True
            return hits
    for pattern in _TITLE:
        for m in pattern.finditer(c):
            role = (m["r"] or "").strip()
            # "my boss moved me up to …": whoever did it, the user is the one promoted
            done_to_me = re.search(r"\bme (?:up|on)\b|\bmade me\b", m.group(0), I_)
            if not _title(role) or not (done_to_me or _about_user(c, m.start())):
                continue
            if not _sure(c, m):
                continue
            hits = [Hit(F, "work.role", "role.move", value=role, correction=True,
                        content=f"User works as {a_job(role)}")]  # fmt: skip
            if employer := _employer(m.groupdict().get("x")):
                hits.insert(0, employer_hit(employer, "employer.move"))
                hits[0].correction = True
            return hits
    return []
