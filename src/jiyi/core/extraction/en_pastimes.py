"""What the user does for its own sake, said plainly in English: "I do yoga", "I go fishing on
my days off", "I collect vinyl records", "I run half marathons", "I surf at dawn".

Two readings. :func:`pastime` is the strict one the preference rules ask first: a pastime said
with no time, so that "I play tennis on Sundays now" is left to the routine rules. When no rule
at all recognised a clause, :func:`open_pastime` reads it again with an open object and a
trailing time or place ("I do Pilates on my days off", "I hunt deer in the fall"): a lasting
like of the pastime, kept in the pastime's own slot (``pref.<pastime>``), so one pastime never
replaces another. A job, a chore, a shift or a business ("I run a beauty parlour", "I do
nights", "I do the dishes") is no pastime.

Pure functions over one clause.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import object_key
from jiyi.core.extraction.hit import Hit
from jiyi.core.models import MemoryKind

__all__ = ["open_pastime", "pastime"]

I_ = re.IGNORECASE
P = MemoryKind.PREFERENCE

# An instrument, game or sport played, a craft or sport by its verb, an activity done.
_PLAY = re.compile(
    r"^i (?:also |still |mostly |mainly )?play (?:the )?(?P<x>[a-z][a-z -]{1,30}?)"
    r"(?: online| competitively| casually| for fun| a lot| too| as well| in an? (?:[\w -]{1,30} )?"
    r"(?:league|band|club|team|orchestra|group)| with (?:my |some )?[\w -]{2,30})?$",
    I_,
)
_CRAFT = {
    "knit": "knitting", "crochet": "crocheting", "paint": "painting", "draw": "drawing",
    "surf": "surfing", "sew": "sewing", "quilt": "quilting", "garden": "gardening",
    "ski": "skiing", "snowboard": "snowboarding", "skate": "skating", "sing": "singing",
    "dance": "dancing", "fish": "fishing", "bowl": "bowling", "box": "boxing",
    "fence": "fencing", "sail": "sailing", "golf": "golfing", "skateboard": "skateboarding",
    "kayak": "kayaking", "woodwork": "woodworking", "birdwatch": "birdwatching",
}  # fmt: skip
_CRAFT_RE = re.compile(
    r"^i (?:also |still )?(?P<v>" + "|".join(_CRAFT) + r")(?: competitively| for fun| a lot| too|"
    r" as well| in an? (?:[\w -]{1,30} )?(?:choir|band|league|club|team|group|class))?$",
    I_,
)
_DO = re.compile(
    r"^i (?:also |still )?do (?P<x>pottery|pilates|crossfit|karate|judo|taekwondo|jiu[- ]jitsu|"
    r"ballet|archery|photography|woodworking|embroidery|calligraphy|improv|stand-?up|"
    r"triathlons?|crosswords|jigsaw puzzles|puzzles|ceramics|martial arts|kickboxing|parkour)"
    r"(?: for fun| competitively| a lot| too| as well)?$",
    I_,
)
_WHEN = re.compile(
    r"\b(?:every|each|daily|weekly|now|these days|anymore|any more|weekends?|mornings?|"
    r"evenings?|nights?|afternoons?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|at \d|twice|"
    r"once|times|since|instead|again|used to)\b",
    I_,
)
_NOT_PASTIME = re.compile(
    r"^(?:it|that|this|them|a lot|along|dumb|nice|fair|safe|in|on|at|for|with|around|outside)\b"
)


def pastime(c: str) -> str | None:
    """The pastime a plain "I play / I knit / I do X" names, or None (said with a time or a
    change, it is a routine or a switch other rules read: "I play tennis on Sundays now")."""
    if _WHEN.search(c):
        return None
    if m := _PLAY.match(c):
        return None if _NOT_PASTIME.match(m.group("x").lower()) else m.group("x")
    if m := _CRAFT_RE.match(c):
        return _CRAFT[m.group("v").lower()]
    if m := _DO.match(c):
        return m.group("x")
    return None


# Verbs of a pastime with their gerund; those that take an object name it after them.
_VERBS = {
    **_CRAFT, "hike": "hiking", "swim": "swimming", "cycle": "cycling", "bike": "biking",
    "climb": "climbing", "row": "rowing", "hunt": "hunting", "scrapbook": "scrapbooking",
    "skydive": "skydiving", "dive": "diving", "cross-country ski": "cross-country skiing",
    "bake": "baking", "sketch": "sketching", "collect": "collecting", "run": "running",
    "volunteer": "volunteering", "do": "", "go": "", "practise": "", "practice": "",
}  # fmt: skip
_OPEN = re.compile(
    r"^i (?:also |still |usually |often |mostly |mainly |regularly |really |love to |like to )?"
    r"(?P<v>" + "|".join(sorted(map(re.escape, _VERBS), key=len, reverse=True)) + r")\b"
    r"(?: (?P<x>.+?))?"
    # a time, place, company or amount after the pastime: kept in the text, not in the slot
    r"(?P<tail>,? (?:on|at|in|every|each|twice|once|most|after|before|during|with|near|by|"
    r"around|whenever|when|for|down|up|along|off|from|since|as (?:often|much)|"
    r"a lot|a bit|all|three|two|four|five|\d+|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
    r"weekends?|mornings?|evenings?|nights?)\b.*)?$",
    I_,
)
# What "do" or "practise" may not take: a pronoun, a chore, work, a shift, anything vague.
_NOT_DONE = re.compile(
    r"^(?:it|that|this|them|so|not|too|my|the|a|an|what|all|everything|nothing|something|"
    r"anything|some|any|lots|whatever|well|fine|ok|okay|nights?|days|shifts?|overtime|"
    r"homework|laundry|dishes|chores|house|admin|paperwork|errands|most|more|less|much|"
    r"stuff|things|both|either|no|none|alright|good|great|badly|better|worse|"
    # "I do think so", "I do love it": a verb said with emphasis, no pastime done
    r"think|like|love|want|know|need|have|remember|agree|feel|hope|miss|believe|care|"
    r"understand|mind|get|see|mean|wish|enjoy|appreciate|worry|try|eat|drink|go|make|take|"
    r"say|plan|intend|hate|prefer|use|live|own|play|read|watch|listen|speak|struggle|wonder|"
    r"find|guess|suppose|recall|admit|reali[sz]e|apologi[sz]e|wanna|tend|still|really|"
    r"actually)\b"
    r"|\b(?:work|job|jobs|shifts?|hours|business|accounts|consulting|contracts?|deliveries|"
    r"rounds|cleaning|cooking|shopping|school run)\b",
    I_,
)
# What "run" takes as a pastime: a race, not a business ("I run a beauty parlour").
_RACES = re.compile(
    r"^(?:half[- ]marathons?|marathons?|ultras?|ultramarathons?|\d+ ?ks?|trails?|parkruns?|"
    r"triathlons?|races?|cross[- ]country)$",
    I_,
)


def _gerund(verb: str) -> str:
    return _VERBS.get(verb.lower()) or verb.lower()


def open_pastime(c: str) -> list[Hit]:
    """A pastime said with an open object or a time or place after it, read when no rule
    recognised ``c`` (see the module doc); [] otherwise."""
    m = _OPEN.match(c.strip())
    if not m:
        return []
    verb, said = m.group("v").lower(), (m.group("x") or "").strip(" ,")
    if re.search(r"\b(?:if|would|could|should|might|maybe|want|wanna|gonna|going to)\b", c, I_):
        return []  # a wish or a condition, not what the user does
    if verb in ("do", "practise", "practice"):
        if not said or _NOT_DONE.search(said) or len(said.split()) > 4:
            return []
        what = said
    elif verb == "go":
        if not re.fullmatch(r"[a-z-]+ing(?: [a-z-]+ing)?", said, I_) or said.lower() in (
            "nothing", "something", "everything", "shopping", "working", "going",
        ):  # fmt: skip
            return []
        what = said
    elif verb == "run":
        if said and not _RACES.match(said):
            return []
        what = said or "running"
    else:
        if said and (len(said.split()) > 4 or re.match(r"^(?:it|that|this|them|you)\b", said, I_)):
            return []
        if re.match(r"^(?:up|out|off|down|away|over|back|around)\b", said, I_):
            return []  # "I box up the orders": a phrasal verb, no pastime
        if verb == "fish" and said.lower().startswith("for "):
            return []  # "I fish for compliments"
        if verb == "paint" and re.match(r"^(?:my|the|our|his|her|their)\b", said, I_):
            return []  # "I paint my nails": a chore or a look, no pastime
        if verb in ("collect", "hunt"):
            what = f"{_gerund(verb)} {said}".strip()  # collecting vinyl records
        else:  # "I paint watercolors": the watercolors; "I surf at dawn": surfing
            what = said if verb == "paint" and said else _gerund(verb)
    key = object_key(what)
    if not key:
        return []
    said_as = None  # "I cross-country ski in winter": the verb of two words said whole
    if " " in verb or "-" in verb:
        said_as = f"User {verb}s{c.strip()[len('i ') + len(verb) :]}"
    return [Hit(P, f"pref.{key}", "pref.pastime", polarity="like", value="like", content=said_as)]
