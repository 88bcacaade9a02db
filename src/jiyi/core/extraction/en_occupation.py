"""English slot rules for the user's occupation, the second half of
:func:`jiyi.core.extraction.en_work.work`: what the user is or does for a living.

"I'm a nurse / I work as a nurse / I got a job as a nurse / I was promoted to charge nurse /
I retrained as a plumber" → ``work.role`` (with the employer and city said beside it);
freelancing, "for a living", teaching, a business of one's own, "I do IT support for a
hospital", a move into a new line of work, a field, retirement, "I'm not a X any more".
When none of these match, a job move told in chat (:mod:`.en_jobmove`).

Apart from :mod:`.en_work` because that module reads the employer (where the user works:
"I work at / joined / left X"); :func:`occupation` runs when none of its rules matched.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import IM, place
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.en_jobmove import job_move
from jiyi.core.extraction.en_roles import a_job, employer_hit, is_role
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import SPORT_EN
from jiyi.core.extraction.lexicon_places import FIELDS_EN
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["STAGE", "occupation"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

STAGE = (
    r"freshman|sophomore|junior|senior|grad student|graduate student|phd student|phd candidate|"
    r"doctoral student|undergrad|undergraduate|(?:first|second|third|fourth|final|last)[- ]year"
    r"(?: (?:law|med|medical|phd|grad|nursing|engineering|mba|college|university))?(?: student|"
    r" undergrad| resident)?|high school student|high schooler|college student|master'?s student|"
    r"masters student|med student|medical student|law student|mba student|postdoc|exchange student|"
    r"uni student|university student|grad student|nursing student|phd student|student"
)


# What is done as a job ("I'm doing family support at Heartland Alliance now")
_WORK_DONE = re.compile(
    r"\b(?:support|work|care|services?|sales|marketing|admin|administration|management|"
    r"operations|outreach|intake|advocacy|consulting|accounting|bookkeeping|billing|payroll|"
    r"dispatch|logistics|maintenance|security|research|nursing|teaching|tutoring|recruiting|"
    r"engineering|development|design|it|hr|qa|ops|finance|compliance|case management|"
    r"pharmacy|medicine|surgery|radiology|pediatrics|dentistry|physio|therapy|law)$",
    I_,
)


_SHIFT_TAIL = re.compile(
    r"(?:\s+on (?:nights|days|lates|earlies|night shift|nightshift|days and nights|"
    r"(?:an? |the )?[\w-]+ (?:ward|unit|shift|rotation))(?=$| at | for | with )|"
    r",?\s*(?:on )?(?:the )?(?:graveyard|night|day|evening|late|early|swing|morning) shift$)",
    re.IGNORECASE,
)


# A title said without "a" ("I'm crew leader at Jollibee", "im head chef now"), not what goes
# on or how one feels ("I'm working as …", "I'm in Denver now", "(my son) is much happier")
_BARE_OK = (
    r"(?!(?:\w+ing|\w+ed|been|had|got|gotten|in|at|on|with|from|off|out|back|home|here|there|"
    r"gonna|going|about|able|sure|like|only|basically|literally|technically|temporarily|"
    r"probably|definitely|officially|kind|sort|all|almost|nearly|"
    r"done|busy|not|much|so|very|really|pretty|quite|way|a lot|more|less|even|still|just|"
    r"always|never|also|too|kinda|\S+ier)\b)"
)


def occupation(c: str, ctx: Context) -> list[Hit]:
    """The user's role, trade or line of work in clause ``c`` (after :func:`.en_work.work`
    found no employer rule that matched); a job move told in chat when nothing else does."""
    # "a staff nurse on nights", "a CSR at a BPO, graveyard shift": when, not the job
    c = _SHIFT_TAIL.sub("", c)
    m = re.match(
        rf"^(?:{IM} (?:now |currently |actually |officially |finally )*(?:(?:an?|the) |{_BARE_OK})|"
        rf"i work (?:\w+ )?as (?:an? )?|"
        rf"i (?:just )?(?:got|landed|took|accepted|started) (?:a |my |the )?(?:new )?"
        rf"(?:job|role|position|gig) as (?:an? )?|i (?:just )?got hired as (?:an? )?|"
        rf"i (?:freelance|moonlight|volunteer|"
        rf"temp) as (?:an? )?|"
        r"i(?:'ve| have)? (?:just )?(?:got|been|was) promoted to (?:an? )?|"
        # "I was made charge nurse last week": a title given
        r"(?:i )?(?:just )?(?:was|got|'ve been|have been) made (?:an? |the )?|"
        r"i've (?:just |finally )?been made (?:an? |the )?|"
        r"i'm (?:now )?working as (?:an? )?|"
        r"(?:i )?(?:just |recently |finally )?(?:got |was |have been |"
        r"'ve been )?(?:promoted|bumped up|moved up) to (?:an? |the )?|"
        r"i(?:'ve| have)? (?:recently |just |finally )?(?:retrained|trained|qualified|"
        r"requalified) as (?:an? )?|"
        r"i(?:'ve| have)? (?:recently |just |finally )?(?:became|become) (?:an? )?|"
        r"i'm working as (?:an? )?|my job is (?:an? )?|"
        r"i'm employed as (?:an? )?)(?P<x>[a-z][a-z -]*?(?:'s [a-z]+)?)"
        r"(?: (?:at|for|with|of) (?P<y>.+?))?(?: on (?:a|an|the) [\w -]{2,30}?)?"
        r"(?: in (?P<city>[A-Z][\w .'-]+?))?"
        r"(?: from (?P<origin>(?-i:[A-Z])[\w .'-]+?))?(?:,? not (?:an? )?[a-z][a-z' -]*?"
        r"(?: already| anymore| any more)?)?"
        r"(?: now| these days| full[- ]time| part[- ]time| from (?:this|next) (?:month|week|year)|"
        r" by trade| since (?:[\w.]+ ){1,3}(?:retired|left|quit)|"
        r" this (?:spring|summer|fall|autumn|winter|year|month|week)| last (?:month|"
        r"week|year)|"
        r" recently)?"
        r"(?: with (?:my|our) own [\w ]{2,30})?$",  # "…a class teacher now with my own Year 2 lot"
        c,
        I_,
    )
    if m and is_role(m.group("x")):
        if re.search(rf"\b(?:{STAGE}|major|minor)$", m.group("x"), I_):
            return []  # a student: education below
        hits = [
            Hit(
                F,
                "work.role",
                "role",
                value=clean_value(m.group("x")).lower(),
                content=f"User works as {a_job(clean_value(m.group('x')))}",
            )
        ]
        if m.group("y"):
            hits.append(employer_hit(m.group("y"), "employer.role"))
        if m.group("city") and is_place_en(m.group("city")):
            hits.append(Hit(F, "location.work", "work.city", value=place(m.group("city"))))
        if m.group("origin"):  # "a data analyst from Berlin"
            hits.append(
                Hit(F, "location.hometown", "hometown.from", value=place(m.group("origin")))
            )
        return hits
    m = re.match(
        rf"^{IM} (?:now |currently |just )?(?P<x>freelancing|self-employed|freelance|"
        r"working freelance|contracting|consulting|retired|semi-retired)(?: now| full[- ]time)?$",
        c,
        I_,
    )
    if m:  # "now I'm freelancing": the work itself says the role
        said = m.group("x").lower().replace("working ", "")
        value = {"freelancing": "freelancer", "freelance": "freelancer", "contracting":
                 "contractor", "consulting": "consultant"}.get(said, said)  # fmt: skip
        return [Hit(F, "work.role", "role.mode", value=value)]
    if re.match(r"^i(?:'ve| have)? (?:just )?(?:quit|left) my job$", c, I_):
        ctx.extra["slot"] = "work.employer"  # whoever the employer was, they are not any more
        content = "User quit their job"
        return [
            Hit(F, "work.employer", "employer.quit", value="none", correction=True, content=content)
        ]
    m = re.match(
        r"^i (?:now |still |currently )?(?:drive|deliver|haul|courier)"
        r"(?: (?!(?:my|our|his|her|their|him|them|me|us)\b)[\w-]+){0,2}? for "
        r"(?P<x>(?-i:[A-Z])[\w&.' -]*?)(?: now| these days)?$",
        c,
        I_,
    )
    if m and not is_place_en(m.group("x")):  # "I drive long-haul for Werner": the carrier
        return [employer_hit(m.group("x"), "employer.drive")]
    m = re.match(r"^i (?P<x>(?!do\b)[a-z][\w' -]+?) for a living$", c, I_)
    if m:  # "I make YouTube videos for a living"
        return [Hit(F, "work.role", "role.living", value=clean_value(m.group("x")).lower())]
    m = re.match(
        r"^i (?:now )?(?:teach|lecture) at (?P<x>[A-Z][\w .&'-]+?)(?: now| these days)?$", c, I_
    )
    if m:  # "I teach at Roosevelt High now": where the teacher works
        return [employer_hit(m.group("x"), "employer.teach")]
    # "I'm teaching high school math now": what the user teaches, said as going on now
    now = re.match(
        r"^(?:and )?i'?m (?:now )?(?P<v>teach|tutor)ing (?P<x>.+?) (?:now|these days)$", c, I_
    )
    m = re.match(
        r"^i (?:teach|lecture|tutor) (?P<x>.+?)(?: at (?P<y>.+?))?(?: in (?P<z>[A-Z][\w .'-]+))?$",
        f"i {now['v']} {now['x']}"
        if now and not re.search(r"\b(?:my|our|his|her|their|how)\b", now["x"], I_)
        else c,
        I_,
    )
    if m and not re.search(r"\b(?:myself|me|you)\b", m.group("x"), I_):
        hits = [Hit(F, "work.role", "role.teach", value=f"teacher ({clean_value(m.group('x'))})")]
        if m.group("z") and is_place_en(m.group("z")):  # "I teach 3rd grade in Austin"
            hits.append(Hit(F, "location.work", "work.city", value=place(m.group("z"))))
        return hits
    m = re.match(
        r"^(?:i|we) (?:run|own|have|started|opened) (?:my own|a|an|our own|our) (?:small |little |"
        r"own |tiny )?"
        r"(?:[A-Z][\w'-]* )?"
        r"(?P<x>bakery|cafe|café|restaurant|shop|store|business|company|startup|firm|practice|"
        r"clinic|salon|studio|"
        r"agency|bar|farm|gym|bookstore)\b",
        c,
        I_,
    )
    if m:
        hits = [Hit(F, "work.role", "role.owner", value=f"{m.group('x').lower()} owner")]
        city = re.search(r"\b(?:in|out of) (?P<x>[A-Z][\w .'-]+?)$", c)
        if city and is_place_en(city.group("x")):  # "… a small landscaping business in Boise"
            hits.append(Hit(F, "location.work", "work.city", value=place(city.group("x"))))
        return hits
    if m := re.match(
        r"^my (?:job|profession|line of work|occupation) is (?:in )?(?P<x>[a-z][\w &-]+)$", c, I_
    ):
        return [Hit(F, "work.role", "role.is", value=clean_value(m.group("x")).lower())]
    # (an employer is named by its capital: "I do archery for fun" names none)
    m = re.match(
        r"^(?:i do|(?P<now>(?:i'm|i am) (?:now )?doing)) (?P<x>[\w &-]+?) (?:for|at) "
        r"(?P<y>(?:a|an|the) .+?|(?-i:[A-Z]).+?)(?(now) now| ?)$",
        c,
        I_,
    )
    if m and m.group("now") and not _WORK_DONE.search(m.group("x")):
        m = None  # "I'm doing pilates at CorePower now": a pastime; "family support": work
    if m and re.fullmatch(rf"(?:hot |aerial |power )?(?:{SPORT_EN})", m.group("x"), I_):
        m = None  # "I do yoga at CorePower twice a week": a pastime, whoever holds the class
    if m and re.search(
        r"\b(?:swimming|climbing|bouldering|dancing|running|cycling|surfing|skating|skiing|diving|"
        r"rowing|hiking|fishing|boxing|sailing|kayaking|paddling|singing|knitting|pottery)$",
        m.group("x"),
        I_,
    ):
        m = None  # "I do sea swimming at the Forty Foot": a pastime by its kind
    if m and re.search(
        r"\b(?:on (?:mon|tues|wednes|thurs|fri|satur|sun)days?|on weekends|every (?:week|"
        r"mon|tues|wednes|thurs|fri|satur|sun)|twice a|once a|a week|for fun|as a hobby|"
        r"community (?:center|centre|college)|rec center|the ymca)\b",
        c,
        I_,
    ):
        m = None  # "I do pottery at the community center on Tuesdays": a pastime, not a job
    if m and not re.match(
        r"^(?:it|that|this|stuff|things|my|the|a lot|all|most|some|homework|studying|reading|"
        r"laundry|shopping|groceries)\b",
        m.group("x"),
    ):
        # "I do IT support for a hospital": the job, and where it is done
        return [
            Hit(
                F,
                "work.role",
                "role.do",
                value=clean_value(m.group("x")).lower(),
                content=f"User does {clean_value(m.group('x'))}",
            ),
            employer_hit(m.group("y"), "employer.do"),
        ]
    m = re.match(
        r"^i(?:'ve| have)? (?:just )?(?:moved|switched|transitioned|pivoted|"
        r"went) (?:from .+? )?into "
        r"(?P<x>[a-z][\w &-]+)$",
        c,
        I_,
    )
    home = m and re.match(
        r"^(?:(?:an?|my|our|the) )?(?:new |own |first )?(?:[A-Za-z'-]+ ){0,2}?(?:assisted living|"
        r"nursing home|"
        r"retirement home|memory care|care home|senior living|apartment|condo|house|townhouse|"
        r"place|home|flat|dorm)[\w -]*?(?: (?:here|over|down|up|out))?"
        r"(?: in (?P<t>[A-Za-z][\w .'-]+))?$",
        m.group("x"),
        I_,
    )
    if home and home["t"]:  # "moved into assisted living here in Omaha": where the user lives
        where = place(home["t"])
        where = where[:1].upper() + where[1:]
        return [Hit(F, "location.home", "home.into", value=where, correction=True,
                    content=f"User lives in {where}")]  # fmt: skip
    if home:  # "moved into my new place yesterday": a home, no line of work
        return []
    if m:  # "I moved from IT support into cybersecurity": the new line of work
        return [Hit(F, "work.role", "role.into", value=clean_value(m.group("x")).lower())]
    m = re.match(
        r"^(?:i do|i work in|i'm in|i am in) (?P<x>[a-z][a-z &-]+?)(?: for (?:a|an|"
        r"the) (?P<y>.+?))?(?: for a living)?$",
        c,
        I_,
    )
    if m and m.group("x").lower() in FIELDS_EN:
        return [
            Hit(
                F,
                "work.role" if c.lower().startswith("i do") else "work.field",
                "field",
                value=m.group("x").lower(),
            )
        ]
    if re.match(
        rf"^(?:{IM} (?:now |officially |finally )?retired|"
        r"i(?:'ve| have)? (?:just |been |finally |officially )?retired|"
        r"i(?:'ve| have)? (?:just |finally )?(?:took|taken|accepted) (?:an? )?(?:early )?"
        r"(?:retirement|buyout))\b",
        c,
        I_,
    ):
        return [Hit(F, "work.role", "role.retired", value="retired")]
    m = re.match(rf"^{IM} (?:not|no longer) an? (?P<x>[a-z][a-z -]+?)(?: any ?more)?$", c, I_)
    if m and is_role(m.group("x")):
        ctx.extra["slot"] = "work.role"
        return [
            Hit(F, "work.role", "role.left", correction=True, value=f"not {m.group('x').lower()}")
        ]
    return job_move(c, ctx)
