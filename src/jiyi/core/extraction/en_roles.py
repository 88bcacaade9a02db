"""English roles: what counts as a job title, and a job said as the user's now without
"I work at" ("now I run a BBQ food truck", "I made detective", "I'm working at the credit
union now", "I sell houses now as a realtor").
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import place
from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.lexicon_places import COMPANIES_EN, is_town_en
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["WHEN_TAIL", "a_job", "employer_hit", "is_role", "job_now"]

F = MemoryKind.FACT
I_ = re.IGNORECASE
_ROLE = re.compile(
    r"(?:er|or|ist|ian|ant|ent|nurse|doctor|chef|student|engineer|developer|designer|manager|"
    r"lawyer|teacher|architect|scientist|founder|ceo|cto|cfo|pm|intern|freelancer|retiree|"
    r"mom|mum|dad|parent|grad|analyst|consultant|accountant|pilot|barista|artist|writer|"
    r"medic|mechanic|technician|electrician|plumber|dentist|pharmacist|therapist|surgeon|"
    r"vet|paralegal|clerk|cashier|firefighter|cop|officer|soldier|tutor|coach|editor|"
    r"journalist|photographer|realtor|agent|banker|trader|programmer|dev|sde|swe|paramedic|"
    r"professor|principal|housewife|homemaker|contractor|entrepreneur|owner|director|lead|"
    r"specialist|assistant|associate|executive|exec|rep|representative|attorney|chemist|"
    r"physician|psychologist|carpenter|hairdresser|stylist|model|actor|actress|musician|"
    r"streamer|youtuber|influencer|creator|dj|bartender|server|waiter|waitress|nanny|cook|"
    r"baker|butcher|farmer|driver|courier|postman|librarian|researcher|postdoc|resident|"
    r"radiologist|midwife|caregiver|secretary|receptionist|admin|hr|recruiter|tech|technologist|"
    r"aide|cna|lpn|rn|emt|janitor|custodian|guard|dispatcher|welder|machinist|foreman|"
    r"pc|pcso|csr|hca|psw|cnm|constable|corporal|skipper|deckhand|lineman|linesman|"
    r"seaman|fisherman|handyman|tradesman|sergeant|mate|sparky|sparkie|chippy|chippie|brickie|"
    r"tradie|copper|bobby|locum|gp|ta)$",
    I_,
)
_NOT_ROLE = frozenset(
    "fan lover person vegetarian vegan big huge member user beginner owner_of night early morning "
    "introvert extrovert only supporter follower believer drinker eater watcher listener "
    "enthusiast addict nerd geek buff junkie homeowner renter grandparent nester runner swimmer "
    "cyclist golfer hiker widow widower newlywed regular pescatarian eggetarian flexitarian "
    "teetotaler teetotaller "
    # "officially a New Yorker now": where the user lives, not a job
    "yorker londoner angeleno texan californian chicagoan bostonian parisian berliner "
    "southerner northerner midwesterner aussie kiwi local native".split()
)
# "a dog mom", "a soccer dad", "a plant mom": a way of life, not a job
_KIND_OF_PARENT = re.compile(
    r"\b(?:dog|cat|pet|plant|boy|girl|soccer|hockey|band|cool)\s+(?:mom|dad|mum)$", re.I
)


def is_role(phrase: str) -> bool:
    """data analyst / ER nurse / head of marketing: a job; fan of cold weather: not one."""
    head = re.split(r"\s+(?:of|for|at|in|from|with)\s+", phrase.strip(), maxsplit=1)[0]
    town = re.match(r"^(?P<x>.+?) (?:resident|native|local)$", head, I_)
    if town and is_town_en(town["x"]):
        return False  # "a Denver resident": where the user lives, not a job
    if _KIND_OF_PARENT.search(head):
        return False
    return bool(_ROLE.search(head)) and head.split()[-1].lower() not in _NOT_ROLE


def a_job(role: str) -> str:
    """nurse → a nurse; ER nurse → an ER nurse."""
    return f"{'an' if role[:1].lower() in 'aeiou' else 'a'} {role}"


# When the job began, after the employer: "at Kaiser on Monday", "at Kroger since March".
WHEN_TAIL = re.compile(
    r"\s+(?:on (?:mon|tues|wednes|thurs|fri|satur|sun)day|since \w+|(?:last|this) \w+|"
    r"yesterday|today|in (?:january|february|march|april|may|june|july|august|september|"
    r"october|november|december|\d{4}))$",
    I_,
)


def employer_hit(said: str, rule: str, neg: bool = False) -> Hit:
    """The employer said (its start date and "new job at" dropped), or "not X"."""
    said = WHEN_TAIL.sub("", said)
    employer = place(re.sub(r"^(?:a |an )?new job (?:at|with) ", "", said, flags=I_))
    value = f"not {employer}" if neg else employer
    content = None if neg else f"User works at {employer}"
    # "the Reading office", "the Kulim site": where the user works, not whom for
    site = _A_SITE.match(employer)
    topic = "location.work" if site and site["x"].lower() not in COMPANIES_EN else "work.employer"
    return Hit(F, topic, rule, value=value, content=content, correction=neg)


_A_SITE = re.compile(
    r"^the (?P<x>(?-i:[A-Z])[\w'-]*(?: [\w'-]+){0,2}) "
    r"(?:office|site|campus|branch|plant|depot|hub)$",
    I_,
)


_OWN_BUSINESS = re.compile(
    r"^(?:and )?(?:now |these days )?(?:i (?:now |just |finally )?(?:run|own|opened|started|"
    r"bought)|(?:i'm|im|i am) (?:now )?(?:running|opening|starting)) "
    r"(?:a |an |my own |our own )(?:little |small |tiny )?(?P<x>[\w' -]{0,30}?(?:truck|shop|store|"
    r"bakery|cafe|café|restaurant|diner|bar|salon|daycare|business|company|firm|studio|"
    r"practice|clinic|farm|garage|boutique|agency|gym|food cart|stall))"
    # ("… shop in Yaba now": where it is does not change whose it is)
    r"(?: (?:in|on|at|near|by) (?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)?"
    r"(?: now| these days| of my own)?$",
    I_,
)
_MADE = re.compile(
    r"^i (?:just |finally |officially )?made (?P<x>detective|partner|sergeant|captain|"
    r"lieutenant|manager|supervisor|director|principal|foreman|chief|tenure|"
    r"(?:senior|head|lead|staff|principal) [a-z]+)(?: (?:last|this) \w+)?[!.]*$",
    I_,
)
_RANK = re.compile(
    r"(?:captain|lieutenant|sergeant|corporal|major|colonel|commander|chief|detective|"
    r"inspector|superintendent|constable|private|ensign|admiral|general)",
    I_,
)
# "officially Sergeant from the 1st", "they promoted me na to team leader po": a rank made
_PROMOTED = re.compile(
    r"^(?:(?:i'm|im|i am) )?officially (?:an? |the )?(?P<x>[a-z][a-z ]{1,30}?)"
    r" (?:from|as of|starting|effective) \w+|"
    # "(pinning ceremony was thursday so) its officially Captain now": a rank by its title
    r"\b(?:it'?s|its|i'?m|im|i am) officially (?:an? |the )?"
    r"(?P<w>(?-i:[A-Z][a-z]+)(?: [A-Z][a-z]+)?) now\b|"
    r"\b(?:they|the company|my boss|management|hr) (?:just |finally |officially )?promoted me"
    r"(?: \w{2,4})? to (?:an? |the )?(?P<y>[a-z][a-z ]{1,30}?)(?= (?:po|na|effective|from|starting|"
    r"as of|last|this|today)\b|[,.!]|$)",
    I_,
)
# "so i'm doing Instacart now": a gig platform is where the user works
_GIGS = (
    r"doordash|door dash|uber eats|ubereats|uber|lyft|grubhub|instacart|postmates|deliveroo|"
    r"just eat|foodpanda|food panda|grab|grabfood|gojek|shipt|amazon flex|spark|taskrabbit|"
    r"rover|fiverr|upwork|skip the dishes|skipthedishes|menulog|keeta|swiggy|zomato|bolt"
)
_GIG_NOW = re.compile(
    rf"^(?:so |now |and )*(?:i'm|im|i am) (?:now |just )?(?:doing|(?P<d>driving) for|"
    rf"delivering for|riding for|working for) (?P<x>{_GIGS})(?: now| instead| full[- ]time)+$",
    I_,
)
_WORKING_AT = re.compile(
    r"^(?:i'm|im|i am) (?:now |currently )?working (?:at|for) (?P<x>(?:the |a )?[\w&.' -]{2,40}?)"
    r" (?:now|these days)$",
    I_,
)
_NOW_AS = re.compile(
    r"^i (?:now |just |currently )?[a-z]+(?: [a-z]+){0,3}? (?:now |these days )?as an? "
    r"(?P<r>[a-z][a-z -]{2,40}?)(?: now| these days)?$",
    I_,
)


# "I'm in the Army", "I serve in the Navy", "I joined the Marines": the service is the employer.
_FORCES = (
    r"army|navy|air force|marines|marine corps|coast guard|national guard|military|space force"
)
_SERVES = re.compile(
    rf"^(?:(?:i'm|i am|im) (?:now |still |currently )?(?:in|serving in|with) the (?P<x>{_FORCES})|"
    rf"i (?:now |currently )?serve in the (?P<y>{_FORCES})|"
    rf"i (?:just |finally |recently )?(?:joined|enlisted in|signed up for|went into) the "
    rf"(?P<z>{_FORCES}))(?: now| these days)?$",
    I_,
)


# "I quit teaching to become a realtor": the job the user left it for
_QUIT_TO_BE = re.compile(
    r"^i (?:just |finally |recently )?(?:quit|left|gave up) [\w' -]+? to (?:become|be|work as) "
    r"an? (?P<r>[a-z][a-z' -]{2,40}?)(?: now| full[- ]time)?$",
    I_,
)
# "I'm waiting tables at a steakhouse now": the job by what is done, and where
_DOING = {"waiting tables": "server", "waiting on tables": "server", "waitressing": "waitress",
          "bartending": "bartender", "serving": "server", "cashiering": "cashier",
          "nannying": "nanny", "bussing tables": "busser", "line cooking": "line cook"}  # fmt: skip
_DOING_AT = re.compile(
    r"^(?:so )?(?:now )?(?:i'm|i am|im) (?:now |currently )?(?P<v>"
    + "|".join(sorted(_DOING, key=len, reverse=True))
    + r") (?:at|for) (?P<x>.+?)(?: now| these days)?$",
    I_,
)


def job_now(c: str) -> list[Hit]:
    """A job said as the user's now by what they run, the rank they made, where they are
    working now, or "… now as a realtor"; [] when the clause says none of these."""
    if own := _OWN_BUSINESS.match(c):
        # "now I run a BBQ food truck": the user's own business is where they work
        said = clean_value(own["x"])
        return [Hit(F, "work.employer", "employer.own", value=said, correction=True,
                    content=f"User runs {a_job(said)}")]  # fmt: skip
    if (quit_to := _QUIT_TO_BE.match(c)) and is_role(role := clean_value(quit_to["r"])):
        return [Hit(F, "work.role", "role.quit_to", value=role.lower(), correction=True,
                    content=f"User works as {a_job(role)}")]  # fmt: skip
    if doing := _DOING_AT.search(c):
        role = _DOING[doing["v"].lower()]
        return [Hit(F, "work.role", "role.doing", value=role, correction=True,
                    content=f"User works as {a_job(role)}"),
                employer_hit(doing["x"], "employer.doing")]  # fmt: skip
    if forces := _SERVES.match(c):
        said = (forces["x"] or forces["y"] or forces["z"]).title()
        content = f"User serves in the {said}"
        return [Hit(F, "work.employer", "employer.forces", value=f"the {said}",
                    correction=bool(forces["z"]), content=content)]  # fmt: skip
    if made := _MADE.match(c):  # "I made detective": the rank is the job now
        role = made["x"].lower()
        return [Hit(F, "work.role", "role.made", value=role, correction=True,
                    content=f"User works as {a_job(role)}")]  # fmt: skip
    if gig := _GIG_NOW.match(c):
        said = gig["x"].title() if gig["x"].islower() else gig["x"]
        hits = [Hit(F, "work.employer", "employer.gig", value=said, correction=True,
                    content=f"User works for {said}")]  # fmt: skip
        if gig["d"]:  # "driving for Bolt now": a driver, whatever the work was before
            hits.append(Hit(F, "work.role", "role.gig", value="driver", correction=True,
                            content=f"User drives for {said}"))  # fmt: skip
        return hits
    rank = _PROMOTED.search(c)
    if rank and (
        is_role(role := (rank["x"] or rank["y"] or rank["w"]).strip()) or _RANK.fullmatch(role)
    ):
        return [Hit(F, "work.role", "role.promoted", value=role.lower(), correction=True,
                    content=f"User works as {a_job(role)}")]  # fmt: skip
    if (at := _WORKING_AT.match(c)) and not re.match(r"(?:home|the house)\b", at["x"], I_):
        # "I'm working at the credit union now": where the user works now
        return [employer_hit(at["x"], "employer.working")]
    now_as = _NOW_AS.match(c)
    if (
        now_as
        and re.search(r"\b(?:now|these days)\b", c, I_)
        and is_role(role := clean_value(now_as["r"]))
    ):
        # "I sell houses now as a realtor": the job now, whatever the verb before it
        return [Hit(F, "work.role", "role.now_as", value=role.lower(), correction=True,
                    content=f"User works as {a_job(role)}")]  # fmt: skip
    return []
