"""English time-bound rules (states, habits, dated plans, goals, past events) and the entry
point :func:`match_en`, which tracks the clause's subject.

A clause that drops its subject ("I work in Manhattan but live out in Jersey City", "My son
Jake is 10 and plays soccer") takes the subject of the clause before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.en_avoid import avoid
from jiyi.core.extraction.en_changes import changed
from jiyi.core.extraction.en_common import CHANGE_RE, DESC, IM, third_person_en
from jiyi.core.extraction.en_diet import diet, restriction
from jiyi.core.extraction.en_drinks import drink
from jiyi.core.extraction.en_events import is_past, past_event
from jiyi.core.extraction.en_facts import home
from jiyi.core.extraction.en_habits import habit
from jiyi.core.extraction.en_health import health
from jiyi.core.extraction.en_identity import identity
from jiyi.core.extraction.en_leads import read_again
from jiyi.core.extraction.en_pastimes import open_pastime
from jiyi.core.extraction.en_people import family
from jiyi.core.extraction.en_pets import pet, renamed_next
from jiyi.core.extraction.en_replies import reply_style
from jiyi.core.extraction.en_school import education
from jiyi.core.extraction.en_subject import GERUND_SUBJECT, carry_name, opening, resolve_subject
from jiyi.core.extraction.en_tastes import preference
from jiyi.core.extraction.en_times import new_time
from jiyi.core.extraction.en_work import work
from jiyi.core.extraction.en_years import said_again
from jiyi.core.extraction.hit import EVENT_TTL, SHORT_STATE_TTL, STATE_TTL, Context, Hit
from jiyi.core.extraction.learning import language
from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS, PETS_EN
from jiyi.core.extraction.plans import plan_change, plan_key
from jiyi.core.extraction.profile import profile_en
from jiyi.core.extraction.services import service
from jiyi.core.extraction.things import app, car, team
from jiyi.core.extraction.topics import slug
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date

__all__ = ["match_en", "third_person_en"]

F, G, E, S = MemoryKind.FACT, MemoryKind.GOAL, MemoryKind.EVENT, MemoryKind.STATE
I_ = re.IGNORECASE

_GOAL_VERB = (
    r"learn|lose|run|travel|visit|buy|move|quit|start|become|get|save|study|finish|write|build|"
    r"open|switch|change|improve|read|take|pass|apply|retire|go|launch|climb|hike|complete|"
    r"master|speak|own|pay off|adopt|have|make|earn|graduate|publish|see|try|do|work|cut|drink|eat|"
    r"be|reach|hit|achieve|pay|grow|spend|stop|give up|find"
)
_GOAL = re.compile(
    rf"^(?:{IM} (?:planning|going|hoping|trying|aiming|preparing|saving(?: up)?|working) (?:to|"
    rf"for)|i plan to|(?:we're|we are|i'm|i am) planning (?=a |an |our |my )|"
    rf"i intend to|i aim to|{IM} (?:thinking (?:about|of)|considering)|i(?:'ve| have) decided to|"
    r"i(?:'d| would) (?:love|like) to (?=" + _GOAL_VERB + r")|i hope to|i wanna|i(?:'m| am) gonna|"
    r"my (?:main |big |new |long-term |ultimate )?goal (?:this year |for this year |"
    r"for \d{4} )?is(?: to)?|"
    r"my plan is to|my dream is to|one day i want to|someday i want to|"
    r"my new year's resolution is to|"
    rf"i want to (?={_GOAL_VERB})|i really want to (?={_GOAL_VERB}))\s*(?P<x>.+)$",
    I_,
)
_COARSE = re.compile(r"next year|this year|明年|someday|one day|eventually|in the next", I_)
_ILL = (
    r"sick|ill|unwell|injured|jet ?lagged|hungover|down with .+|sick with .+|recovering from .+|"
    r"in (?:the )?hospital|on crutches|pregnant|nursing .+|fighting (?:a|the|off) .+|battling .+|"
    r"getting over .+|home sick|coming down with .+"
)
_LASTING = (
    r"tired|exhausted|stressed(?: out)?|burned out|burnt out|depressed|anxious|busy|swamped|"
    r"overwhelmed|unemployed|between (?:jobs|apartments|homes|houses|places|gigs)|"
    r"watching what i eat|watching my (?:weight|diet|sugar|salt|carbs|calories)|"
    r"eating (?:clean|healthy|healthier|better|less)|homeschooling .+|caring for .+|"
    r"looking after (?:my|our) .+|taking care of (?:my|our) .+|"
    r"trying to (?:cut (?:back|down) on|cut out|eat (?:less|more|healthier|better)|drink less|"
    r"sleep more|get more sleep|stay off) .+|"
    r"staying (?:with|at) .+|living out of .+|couch ?surfing|"
    r"in (?-i:[A-Z])[\w.' -]+? (?:this week|this weekend|this month|for (?:a|an|the|work|"
    r"business|a few days)\b.*|on business|until .+)|job hunting|house hunting|apartment hunting|"
    r"looking for (?:a )?(?:new )?(?:job|place|apartment|house)|training for .+|studying for .+|"
    r"preparing for .+|prepping for .+|cramming for .+|learning .+|cutting (?:out|back on|"
    r"down on) .+|"
    r"working on .+|on vacation|on holiday|on leave|on maternity leave|on paternity leave|"
    r"on sabbatical|on (?:\w+ )?leave|off work|renovating .+|remodeling .+|moving(?: house)?|"
    r"on an? (?:[\w-]+ ){0,2}diet|dieting|in the middle of .+|in the process of .+|"
    r"off (?:dairy|gluten|meat|sugar|"
    r"carbs|caffeine|alcohol|booze|coffee|social media)\b.*|"
    r"fasting|"
    r"on keto|doing keto|quitting .+|off sugar|off caffeine|off alcohol|losing weight|"
    r"dealing with .+|"
    r"on (?:a )?(?:business trip|work trip|trip)\b.*|away on .+|traveling for work|"
    r"potty training .+|"
    r"sleep training .+|planning (?:a|my|our) (?:wedding|move|trip)\b.*|writing (?:a|my) .+|"
    r"taking (?:a|an) .+ (?:course|class)|taking classes .*|in therapy|going through .+|"
    r"doing (?:whole30|keto|a cleanse|a detox|dry january|a juice cleanse|physio|pt|rehab)\b.*|"
    r"on (?:antibiotics|medication|meds)\b.*|on bed rest|working (?:from home|overtime|nights)\b.*|"
    r"sleeping (?:badly|poorly|terribly)|not sleeping well|having trouble sleeping|"
    r"on an? (?:juice )?(?:cleanse|detox)\b.*|trying to (?:get pregnant|conceive|have a baby)|"
    r"doing an? (?:coding )?(?:bootcamp|course|program|internship|residency|apprenticeship)\b.*|"
    r"under the weather|(?:just |recently )?started (?:doing|learning|taking|"
    r"practicing|going to|playing|training) .+"
)
_DURATION = re.compile(
    r"\b(?:lately|recently|these days|this week|this month|currently|right now|at the moment|"
    r"all week|for (?:days|weeks|a while|months)|since|been|still|nowadays|this semester|"
    r"this year)\b",
    I_,
)
_STATE = re.compile(
    rf"^(?:(?:lately|recently|these days|this week|this month|currently|right now|at the moment|"
    rf"today|"
    rf"tonight),?\s+)?(?:{IM}|i've been|i have been|we're|we are|i've|i|feeling|)\s*(?:currently |"
    rf"still |"
    rf"really |"
    rf"so |very |recently |"
    r"a bit |kind of |feeling |pretty |super |quite |totally |just |also )*(?P<x>"
    + _ILL
    + "|"
    + _LASTING
    + ")",
    I_,
)
_AILMENT = re.compile(
    r"^i(?:'ve| have)? (?:have|'ve got|got|caught|have got|had|'ve had|have had|came down with|"
    r"picked up|woke up with|am fighting|'m fighting) (?:a |the |an |some |this )?(?:bad |nasty |"
    r"terrible |"
    r"awful |slight |mild |little )?(?P<x>cold|flu|fever|headache|migraine|cough|sore throat|covid|"
    r"stomach ?(?:ache|bug)|toothache|hangover|back pain|ear infection|sinus infection|rash|"
    r"sprained \w+|broken \w+|infection|allergies)\b",
    I_,
)


_ARRANGED = re.compile(
    r"^(?:i|we)(?:'ve| have)? (?:just |finally |already )?(?:booked|scheduled|signed up|"
    r"registered|enrolled|set up|made an appointment|got (?:an appointment|a slot|tickets))\b"
    r".*\b(?:for|on)\b",
    I_,
)


# What is worth remembering even when it happens today: appointments and travel.
_FIXED = re.compile(
    r"\b(?:dentist|doctor|doctor's|vet|interview|flight|fly|flying|appointment|surgery|exam|"
    r"test|checkup|check-up|scan|therapy|wedding|funeral|court|hearing|train to|drive to|"
    r"driving to|leave for|leaving for|heading to|move|moving|trip)\b",
    I_,
)


_NOW_THING = r"\b(?:coffee|tea|lunch|dinner|breakfast|snack|nap|shower|drink|beer|bite|walk)\b"
_FEELING = r"(?:excited|nervous|stressed|worried|anxious|pumped|hyped|scared)"


def _plan(c: str, ctx: Context) -> list[Hit]:
    if re.search(
        r"\b(?:someday|some day|one day|at some point|eventually|maybe)\b", c, I_
    ) and re.search(r"\b(?:i'd love|i would love|i'd like|i would like|i'll)\b", c, I_):
        return []  # "I'd love to visit Japan someday": a wish without commitment
    if re.search(r"\byou\b", c, I_) or re.search(r"\bevery\b", c, I_):
        return []  # "I'll ask you tomorrow": about this conversation; "every": a habit
    date = find_date(c, ctx.ref)
    if date is not None and date[0] < ctx.ref.replace(hour=0, minute=0, second=0, microsecond=0):
        date = None
    carried = None
    if (
        date is None
        and (said := ctx.extra.get("last_date"))
        and re.match(
            r"^(?:i'm|i am|i'll|i will|we're|we'll) (?:going to|gonna) (?:be|go|fly|drive|attend|"
            r"help)\b",
            c,
            I_,
        )
    ):  # "My friend is getting married next Saturday and I'm going to be a bridesmaid"
        date = find_date(said, ctx.ref)
        carried = f"{third_person_en(c)} ({said})" if date else None
        if date:
            return [Hit(E, f"plan.{slug(c)}", "plan.carried", when=date[0], ttl=EVENT_TTL,
                        value=date[0].date().isoformat(), content=carried)]  # fmt: skip
    goal = _GOAL.match(c)
    if goal and re.match(r"(?:maybe|perhaps|possibly|whether|if)\b", goal.group("x"), I_):
        return []  # "thinking about maybe getting a tattoo": a hedged wish, no commitment
    if goal and date is None and re.search(_NOW_THING, goal.group("x"), I_):
        return []  # "I'm gonna grab a coffee": this moment, not an aim
    if re.match(rf"^{IM} (?:so |really |super |pretty )*{_FEELING} (?:for|about)\b", c, I_):
        return []  # "I'm so excited for the weekend": a feeling, not a plan
    if goal is None and date is not None and _ARRANGED.match(c):
        # "Booked my driving test for June 3rd": arranged in the past, happening on the date
        key = plan_key(c) or slug(c.replace(date[1], ""))
        return [Hit(E, f"plan.{key}", "plan.arranged", when=date[0], ttl=EVENT_TTL,
                    value=date[0].date().isoformat())]  # fmt: skip
    if goal is None:
        if date is None or is_past(c) or re.search(r"\b(?:ago|yesterday|last)\b", c, I_):
            return []
        lead = re.match(
            r"^(?:next (?:week|month|year|\w+day)|tomorrow|this (?:weekend|\w+day)),?\s+", c, I_
        )
        c = c[lead.end() :] if lead else c  # "Next month I'm starting a new job"
        if not re.match(
            r"^(?:dentist|doctor|doctor's|vet|meeting|interview|flight|appointment|haircut|class|"
            r"exam|"
            r"surgery|checkup|check-up|party|wedding|trip|concert)\b|"
            r"^(?:i'm|i am|i'll|i will|i have|i've got|i've|i got|i'm going|we're|we are|we'll|"
            r"we have|"
            r"we've got|my|our|(?:i|we) (?:fly|leave|start|move|travel|go|head|see|meet|visit|"
            r"get|finish|begin|drive|sail|take off|set off|check in|close on|"
            r"graduate|retire|turn))\b",
            c,
            I_,
        ):
            return []
        if re.match(
            r"^i (?:have|'ve got|got) (?!an? |my |to |the |surgery|class|school|work|practice|"
            r"jury)",
            c,
            I_,
        ):
            return []
    key = slug(goal.group("x") if goal else c.replace(date[1] if date else "", ""))
    if date is not None and date[0].date() == ctx.ref.date() and not _FIXED.search(c):
        # "I'm watching the game tonight": bound to today, a remark admission lets pass as a
        # short-lived episode (rule plan.moment weighs nothing), not a plan to keep
        return [Hit(E, f"plan.{key}", "plan.moment", when=date[0], ttl=EVENT_TTL,
                    value=date[0].date().isoformat())]  # fmt: skip
    if date is not None and not _COARSE.search(date[1]):
        key = plan_key(c) or key  # "my interview" whatever else is said
        return [
            Hit(
                E,
                f"plan.{key}",
                "plan.dated",
                when=date[0],
                ttl=EVENT_TTL,
                value=date[0].date().isoformat(),
            )
        ]
    return [Hit(G, f"goal.{key}", "goal", when=date[0] if date else None)]


_LIFE = re.compile(
    r"^(?:work|life|things|school|my job|uni|college)(?: has been| is|'s been|'s| have been| are)"
    r" (?:so |really |crazy |super |pretty |very |insanely |extremely )*(?P<x>busy|hectic|"
    r"stressful|"
    r"crazy|rough|tough|overwhelming|intense|chaotic|slow|quiet)\b",
    I_,
)


def _state(c: str, ctx: Context) -> list[Hit]:
    if GERUND_SUBJECT.match(c):
        return []  # "nursing wasn't my first career": a gerund the subject, not how one is
    if re.match(
        r"^i (?:haven't|have not|havent|haven't really) (?:slept|been sleeping) (?:well|much|"
        r"properly|"
        r"right)|^i (?:can't|cannot) sleep (?:lately|these days|at night)",
        c,
        I_,
    ):  # "I haven't slept well in three days"
        return [Hit(S, "state.sleep", "state.sleep", ttl=STATE_TTL)]
    date = find_date(c, ctx.ref)
    preparing = re.search(
        r"\b(?:training|studying|preparing|prepping|cramming|practicing|practising) for\b", c, I_
    )
    # "I'm moving next week" is a plan, not how the user is now; "training for a half marathon
    # in October" is how they are (the date is what it is for)
    if (
        date is not None
        and date[0] > ctx.ref
        and not re.search(r"\bsince\b", c, I_)
        and not preparing
    ):
        return []
    m = _STATE.match(c) or _AILMENT.match(c)
    if (
        not m and (life := _LIFE.match(c)) and _DURATION.search(c)
    ):  # "work has been crazy busy lately"
        return [Hit(S, f"state.{life.group('x').lower()}", "state.life", ttl=STATE_TTL)]
    if not m:
        return []
    if re.fullmatch(
        r"tired|exhausted|busy|stressed(?: out)?|anxious|bored|overwhelmed", m.group("x"), I_
    ) and not _DURATION.search(c):
        return []  # "I'm tired": a passing feeling
    short = bool(re.search(r"\b(?:today|tonight|this morning|right now)\b", c, I_))
    if short and re.match(r"staying|in ", m.group("x"), I_):
        return []  # "I'm staying at a hotel tonight": where they are this moment
    return [
        Hit(S, f"state.{slug(m.group('x'))}", "state", ttl=SHORT_STATE_TTL if short else STATE_TTL)
    ]


_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    said_again,
    plan_change,
    changed,
    profile_en,
    family,
    pet,
    health,
    car,
    app,
    team,
    diet,
    restriction,
    identity,
    education,
    service,
    language,
    work,
    home,
    drink,
    avoid,
    reply_style,
    preference,
    _state,
    habit,
    new_time,  # after habit: "I'm getting up at 6 now" is the routine itself, said whole
    _plan,
    past_event,
)


# "I love true crime, cooking shows, and anything with Gordon Ramsay": after a like, a clause
# that is only a short noun phrase is the next thing liked.
_LIST_ITEM = re.compile(r"(?:(?:and|or|plus|also|&) )?[\w'&-]+(?: [\w'&.-]+){0,4}", I_)
_NOT_ITEM = re.compile(
    # "the hotter the better": a correlative comparison, not a thing liked
    r"^the \w+er the\b|"
    r"^(?:i|i'm|i've|we|my|our|it|it's|this|that|they|he|she|you|not|no|but|though|so|only|"
    # "…, very bad in khamaseen season": how bad it is, not one more thing
    r"very|really|super|quite|pretty|mostly|mainly|worst|worse|bad|"
    r"especially|except|even|lol|haha|thanks|please|be|keep|make|remember|watch|avoid|note|"
    r"check|just)\b|\b(?:is|are|was|were|am|'s|'re|have|has|"
    r"had|do|does|did|will|can|would|could|should|get|got|go|went|too|though|"
    # "…, tastes like soap to me": a clause that says why, not the next thing named
    r"tastes?|looks?|sounds?|smells?|feels?|makes?|made|reminds?|must|need|needs|"
    # "…, the allergist said": who said it, not one more thing
    r"said|says|reckons|told|thinks)\b|"
    # "…, sadly": how the user feels about it, not one more thing
    r"^(?:and |but )?(?:sadly|unfortunately|luckily|thankfully|apparently|obviously|seriously|"
    r"literally|actually|really|honestly|definitely|probably|hopefully|basically|weirdly|"
    r"oddly|annoyingly|surprisingly)$",
    I_,
)


_PETS = "|".join(sorted(map(re.escape, PETS_EN), key=len, reverse=True))
_FAMILY_PET = re.compile(
    rf"^(?:my|our) \w+'s (?:{DESC})(?:{_PETS})\b",
    re.IGNORECASE,
)


def match_en(clause: str, ctx: Context) -> list[Hit]:
    """The hits of the first rule that recognises ``clause``; [] if none does."""
    for m in DRINK_RE.finditer(clause):
        category, is_type = DRINKS[m.group(0).lower()]
        if not is_type:
            ctx.drink_word = m.group(0)
        elif ctx.drink != category:
            ctx.drink_word = None
        ctx.drink = category
    lead = ctx.extra.pop("list_en", None)
    clause = opening(clause)
    item = re.sub(r"^(?:and|or|plus|also|&)\s+", "", clause, flags=I_)
    if renamed := renamed_next(clause, ctx):  # (my kid renamed the cat,) she's Miso now
        return renamed
    named = carry_name(clause, ctx)  # "Mike retired, so he drives a bus now": Mike's, or none
    clause, inherited = resolve_subject(named or clause, ctx)
    hits: list[Hit] = family(clause, ctx) if named else []
    if not named and _FAMILY_PET.match(clause):  # "my son's goldfish is named Bubbles"
        hits = pet(clause, ctx)
    for rule in () if hits or named else _RULES:
        if hits := rule(clause, ctx):
            break
    hits = hits or ([] if named or ctx.kin_swap else open_pastime(clause))  # no rule read it
    if ctx.kin_swap and not named:
        # a relative's message said again: past a lead, or a head before "and …" (en_leads)
        hits, clause = read_again(clause, ctx, hits, _RULES)
    if not hits:  # "I love you, bot": a like of nothing kept starts no list
        ctx.extra.pop("list_en", None)
    if not hits and lead and _LIST_ITEM.fullmatch(item) and not _NOT_ITEM.search(item):
        clause = lead + item
        hits = (health if re.search(r"\ballergic to $", lead, I_) else preference)(clause, ctx)
    change = bool(CHANGE_RE.search(clause))
    for h in hits:
        if h.topic.startswith("location.") and h.value and not h.value.startswith("not "):
            ctx.extra["place_en"] = h.value  # what "there" means next
        h.correction = h.correction or change
        if (inherited and h.content is None) or h.content is None:
            h.content = third_person_en(clause)
        if h.kind is S:
            ctx.extra["temporary"] = "1"
    return hits
