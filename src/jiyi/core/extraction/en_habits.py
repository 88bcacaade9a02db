"""English rules for routines: what the user does regularly, when, and what they stopped.

A routine's slot is the activity in its base form ("I go swimming every Monday" and "I swim
on Tuesdays now" are both ``habit.swim``) and its value is the schedule, so a new day or time
supersedes the old one and "I stopped swimming" sets it to "no" (the key and the schedule
are read in :mod:`.en_habit_keys`).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_habit_keys import _AT_CLOCK, _FREQ, _activity_key, _schedule
from jiyi.core.extraction.en_routine_words import by_the_day, lemma, said_plainly
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import SPORT_EN
from jiyi.core.extraction.topics import slug
from jiyi.core.models import MemoryKind

__all__ = ["habit"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

_TIME_OF_DAY = (
    r"(?: (?:and|&) (?:mon|tues|wednes|thurs|fri|satur|sun)days?)?(?: (?:mornings?|evenings?|"
    r"nights?|"
    r"before (?:work|bed|school|breakfast)|after (?:work|dinner|school|lunch)|at night|"
    r"in the (?:morning|evening|afternoon)|at \d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)?|"
    r"at (?:noon|night|dawn|lunch)))*(?: to (?:unwind|relax|stay fit|keep fit|de-?stress|"
    r"clear my head))?(?: for (?:\w+ )?(?:years|months|weeks|a while|ages))?(?: now)?"
)
_STOPPED = re.compile(
    r"^i(?:'ve| have)? (?:quit|stopped|gave up|given up|no longer|don't|do not) (?P<x>(?:smoking|"
    r"drinking|"
    r"running|jogging|going to the gym|working out|vaping|biking|cycling|swimming|playing \w+|"
    r"doing yoga|climbing|gaming|the gym|\w+ing))(?: any ?more)?$|^i (?:don't|no longer) (?P<y>run|"
    r"smoke|"
    r"vape|swim|bike|cycle|climb|game|work out|do yoga|go to the gym|play \w+)(?: any ?more)?$|"
    # "I don't really birdwatch anymore": any verb, when "anymore" says it stopped
    r"^i (?:don't|do not|no longer) (?:really |actually )?(?!(?:care|know|mind|understand|"
    r"remember|think|believe|want|need|feel|like|love|hate|get|see|trust|mean|have|do|use|talk|"
    r"speak|live|work|bother|worry|agree|drink|eat|buy|own|go|"
    # a verb that names a job ("I don't teach anymore") says the job ended, not a routine
    r"teach|tutor|nurse|preach|lecture|farm|practice|practise)\b)(?P<z>[a-z]+) any ?more$",
    I_,
)
_ALL_NOW = re.compile(
    r"^(?:it's|it is) (?:all|mostly|just) (?P<x>[a-z]+(?: [a-z]+)?ing)(?: now| these days)$", I_
)


# "I usually take the train to work": how the user gets to work, one slot whatever the mode.
_COMMUTE = re.compile(
    r"^(?:walk|bike|cycle|drive|ride|commute|run|take the (?:bus|train|subway|tube|metro|ferry)|"
    r"take a (?:bus|train|ferry)|carpool|ride my bike|ride the (?:bus|train|subway)) to (?:work|"
    r"the "
    r"office|school|campus)$",
    I_,
)


# "at six o'clock", "at half six": a time in words
_AT_WORDS = (
    r"\bat (?:half |quarter (?:past|to) )?(?:one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)(?: o'clock| thirty| fifteen| forty[- ]five)?\b"
)


# "gym's at like 9pm now": a routine named alone, its new time after
_NAMED_AT = re.compile(
    r"^(?:the |my )?(?P<x>gym|swim|swimming|lap swim|yoga|pilates|badminton|tennis|football|"
    r"soccer|bowls|choir|training|practice|spin class|walk|run)(?:'s| is) (?:now )?"
    r"(?:(?:like|around|about) )?(?:at )?(?:(?:like|around|about) )?"
    r"(?P<t>\d{1,2}(?::\d\d)?\s?(?:am|pm)?|(?:one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)(?: thirty| o'clock)?)(?P<now> now| these days| instead)?$",
    I_,
)


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|weeknights?"
_PART = (
    r"(?: and (?:mon|tues|wednes|thurs|fri|satur|sun)days?)?"
    r"(?: (?:mornings?|afternoons?|evenings?|nights?))?"
)
_FIXTURE = (
    r"[\w' -]*?(?:lessons?|class(?:es)?|practice|training|rehearsals?|sessions?|therapy|"
    r"tutoring|choir|league|club|shifts?|appointments?)"
)
_SPORT = SPORT_EN
# "I have piano lessons on Wednesday evenings": a weekly fixture, keyed by what it is.
_FIXTURE_RE = re.compile(
    rf"^(?:i|we) (?:usually |always |still |now )?(?:have|take|attend|go to|do|teach|run) "
    rf"(?:my |our )?(?P<x>{_FIXTURE}) (?:on|every) (?P<d>(?:{_DAY}){_PART})(?: now)?$",
    I_,
)
# "My piano lessons got moved to Friday evenings" / "Swim practice is on Sundays now".
_MOVED_RE = re.compile(
    rf"^(?:my |our |the )?(?P<x>{_FIXTURE}|[a-z]+ing|{_SPORT}) (?:(?:got|have been|has been|was|"
    rf"were|are|is|"
    rf"'s|'re) )?(?:moved|changed|switched|rescheduled|pushed|shifted|bumped)(?: back| over)? "
    rf"(?:to|till|until) (?P<d>(?:{_DAY}){_PART})(?: now| instead)?$|"
    rf"^(?:my |our |the )?(?P<y>{_FIXTURE}|[a-z]+ing|{_SPORT})(?: is| are|'s|'re) (?:now )?(?:on|"
    rf"every) "
    rf"(?P<e>(?:{_DAY}){_PART}) (?:now|instead|these days)$",
    I_,
)


# "My shift at the pool bar starts at 11am", "my shift starts at 7:15 every school morning":
# when the user's working day starts, a routine (not one dated moment)
_SHIFT = re.compile(
    r"^my (?:(?:day|night|morning|evening|early|late|work) )?shift(?: at (?:the )?[\w' -]{2,30}?)? "
    r"(?:starts|begins|ends|is) at (?P<t>\d{1,2}(?::\d{2})?\s?(?:am|pm)?)"
    r"(?P<d> in the (?:morning|afternoon|evening)| at night)?"
    r"(?P<f> (?:every|each|on) [\w ]{2,30})?$",
    I_,
)


def _fixture(c: str) -> list[Hit]:
    if m := _SHIFT.match(c):
        t = m["t"]
        if m["d"] and not re.search(r"[ap]m$", t, I_):  # "at 4 in the morning": 4am
            t += "am" if "morning" in m["d"] else "pm"
        when = f"at {t}{m['f'] or ''}".lower()
        return [Hit(F, "habit.shift", "habit.shift", value=when)]
    if m := _FIXTURE_RE.match(c):
        return [Hit(F, f"habit.{_activity_key(m.group('x'))}", "habit.fixture",
                    value=_schedule(c))]  # fmt: skip
    if m := _MOVED_RE.match(c):
        what = m.group("x") or m.group("y")
        return [Hit(F, f"habit.{_activity_key(what)}", "habit.moved", correction=True,
                    value=_schedule("on " + (m.group("d") or m.group("e"))))]  # fmt: skip
    return []


# "I'm running five times a week now that the weather's better": a routine said in the
# progressive, with the reason for the change after it.
_PROGRESSIVE = re.compile(
    rf"^(?:i'm|i am) (?:now |currently )?(?P<v>[a-z]+ing)\b"
    # "running at 5:30 now": the routine at its new time, as "I run at 5:30 now"
    rf"(?=.*\b(?:{_FREQ})\b|.*{_AT_CLOCK} now\b)",
    I_,
)
# "I moved my run to 6am", "make that 6:30": a new time, the routine left out or named by
# its verb (pipeline/subjects.resolve_time binds it to the one timed routine, or to none).
_NEW_TIME = re.compile(
    r"^(?:(?:i(?:'ve| have)? )?(?:moved|changed|switched|pushed|shifted|bumped) (?:it|that|"
    r"my (?P<v>[a-z]+)) (?:back |up )?to|make (?:it|that)) "
    r"(?P<t>\d{1,2}(?::\d\d)?(?:\s?(?:am|pm))?)(?: now| instead)?$",
    I_,
)
# "I've switched to swimming", "I switched from running to swimming": an activity said as
# the one that replaced another.
_SWITCHED = re.compile(
    r"^i(?:'ve| have)? (?:now |just )?(?:switched|changed|moved) (?:over )?"
    r"(?:from (?P<a>[a-z]+ing) )?to (?P<b>[a-z]+ing)(?: now| instead)?$|"
    r"^i(?:'ve| have)? (?:just )?(?:quit|stopped|gave up|dropped) (?:the |my )?(?P<a2>[a-z]+) "
    r"and (?:started|took up|picked up|began|got into)(?: doing| going to)? (?P<b2>[a-z]+)"
    r"(?: instead)?$",
    I_,
)
_REASON_TAIL = re.compile(r",?\s+(?:now that|since|because|cause|cuz|as|so that) .+$", I_)
# "We open at seven now": the business's hours, the one routine said with a clock time
_WE_AT = re.compile(
    r"^we (?:now )?(?P<v>open|close|start|finish) at (?P<t>\d{1,2}(?::\d\d)?(?:\s?(?:am|pm))?|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon)(?: now| instead)$",
    I_,
)


def _switched(now: str, before: str | None) -> list[Hit]:
    doing = now.lower()
    hits = [Hit(F, f"habit.{_activity_key(doing)}", "habit.switched", value="yes",
                correction=True, content=f"User does {doing} now")]  # fmt: skip
    if before:  # the activity left: its like goes with it (pipeline/families.py)
        hits.insert(0, Hit(F, f"habit.{_activity_key(before)}", "habit.stopped", value="no",
                           correction=True, content=f"User stopped {before.lower()}"))  # fmt: skip
    return hits


# How long something took or lasted ("got bored in about a week", "for a month"): a span, not
# how often (as "a week" in "twice a week" is)
_SPAN = re.compile(
    r"\s+(?:in|within|after|for|over) (?:about |around |roughly |like |just |only |under |"
    r"less than |more than |over |almost |nearly )?(?:a|an|one|half a|\d+|two|three|four|five|"
    r"six|seven|eight|nine|ten|a few|a couple of|several) "
    r"(?:days?|weeks?|months?|nights?|years?)\b",
    I_,
)


def habit(c: str, ctx: Context) -> list[Hit]:
    c = said_plainly(c)  # "Every morning 6 o'clock I go swimming", "netball every tuesday"
    c = _SPAN.sub("", c)
    # "I hit the gym at 7:30 now instead": instead says what changed, as "now" does
    c = re.sub(r"(?:\s+now)?\s+instead$", " now", c, flags=I_)
    c = by_the_day(c)  # "my swim day is Thursday now": "I swim on Thursdays now"
    if hits := _fixture(c):
        return hits
    if named := _NAMED_AT.match(c):
        what, when = named["x"].lower(), named["t"]
        said = f"User's {what} is at {when}"
        return [Hit(F, f"habit.{_activity_key(what)}", "habit.named_at", value=_schedule(c),
                    correction=bool(named["now"]), content=said)]  # fmt: skip
    if p := _PROGRESSIVE.match(c):
        c = _REASON_TAIL.sub(" now", f"I {lemma(p.group('v'))}{c[p.end() :]}")
        c = re.sub(r"(?: now)+$", " now", c)  # "…at 5:30 now cause traffic": one "now"
    if t := _NEW_TIME.match(c) or _WE_AT.match(c):  # "I moved my run to 6am": slot found on write
        return [Hit(F, "", "bare.time", value=t.group("t"), obj=t.group("v"), correction=True)]
    if s := _SWITCHED.match(c):  # "I switched from running to swimming": one stopped, one now
        return _switched(s.group("b") or s.group("b2"), s.group("a") or s.group("a2"))
    m = re.match(
        r"^(?:i|my) (?:daily )?commute(?: is)? (?:about |around |roughly |like |almost |over )?"
        r"(?P<x>(?:an?|one|two|\d+|half an|forty|thirty|twenty|fifteen|ten|\d+ ?-? ?\d*) "
        r"(?:hours?|minutes?|mins?)(?: and a half)?)(?: each way| a day| every day| one way)?$",
        c,
        I_,
    )
    if m:  # "I commute an hour each way"
        return [Hit(F, "habit.commute", "habit.commute", value=m.group("x").lower())]
    m = re.match(
        r"^i (?:never|always|usually|don't|try not to|rarely) (?P<x>eat|drink|snack|have coffee|"
        r"drink coffee|"
        r"have caffeine|work|check email|use my phone) (?:anything )?(?:after|before|past) \S+",
        c,
        I_,
    )
    if m:  # "I never eat after 8pm": a rule the user keeps
        return [Hit(F, f"habit.{_activity_key(c)}", "habit.timed", value=_schedule(c))]
    m = re.match(
        r"^my (?:daily )?commute is (?:about |around |roughly )?(?P<x>.+?)(?: (?:by|"
        r"on) (?P<how>bike|foot|train|bus|car|subway))?$",
        c,
        I_,
    )
    if m:  # "My commute is about 30 minutes by bike"
        return [Hit(F, "habit.commute", "habit.commute", value=m.group("how") or m.group("x"))]
    m = re.match(
        r"^(?P<d>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend|weeknight)s?"
        r"(?: (?:mornings?|evenings?|nights?))?|(?:mornings|evenings)) (?:are|is) "
        r"(?:for|my|when i do|reserved for|all about) (?P<x>[a-z][\w' -]+)$",
        c,
        I_,
    )
    if m and not re.match(
        r"(?:the |a |an )?(?:worst|best|busiest|hardest|longest|busy|hard|rough|tough|slow)\b",
        m.group("x"),
        I_,
    ):  # "Sundays are for meal prep": what that day always holds
        day, what = m.group("d").lower(), re.sub(r"^the ", "", m.group("x"), flags=I_)
        return [Hit(F, f"habit.{_activity_key(what)}", "habit.day", value=day,
                    content=f"User keeps {day} for {what}")]  # fmt: skip
    if m := _ALL_NOW.match(c):  # "(I don't birdwatch anymore,) it's all sea kayaking now"
        what = m.group("x").lower()
        said = f"User's hobby is {what} now"
        return [Hit(MemoryKind.PREFERENCE, f"pref.{slug(what)}", "habit.now", value="like",
                    polarity="like", correction=True, content=said)]  # fmt: skip
    if m := _STOPPED.match(c):
        return [
            Hit(
                F,
                f"habit.{_activity_key(m.group('x') or m.group('y') or m.group('z'))}",
                "habit.stopped",
                value="no",
                correction=True,
            )
        ]
    m = (
        re.match(
            # ("I still haven't explored half of Porto": what is not done yet, no routine)
            r"^i (?:usually|always|normally|typically|often|generally|regularly|still) "
            r"(?!(?:haven't|hasn't|have not|can't|cannot|couldn't|didn't|don't|won't)\b)(?P<x>.+)$",
            c,
            I_,
        )
        or re.match(rf"^(?:{_FREQ}){_TIME_OF_DAY},? i (?P<x>.+)$", c, I_)
        # "I run 5k every Saturday morning with my running club": who with is not when
        or re.match(
            rf"^i(?:'ve| have)? (?P<x>.+?) (?:{_FREQ}){_TIME_OF_DAY}"
            # (or where: "every Thursday night at Sunset Lanes")
            r"(?: (?:with|at|in) (?:(?:my|our|the|a) [\w' -]+|"
            r"(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)*))?$",
            c,
            I_,
        )
        or re.match(
            r"^i (?P<x>(?!work\b|sleep\b|eat\b)[a-z]+(?: [a-z]+)?) in the (?:mornings|evenings|"
            r"afternoons)(?: now| these days| instead)?$",
            c,
            I_,
        )
        or re.match(
            r"^i (?:now )?(?:go to|do|go|play|practice) (?!to\b)(?P<x>(?-i:[a-z])[\w -]+?) "
            r"(?:now|instead|"
            r"these days)$",
            c,
            I_,
        )
        or re.match(  # "I get up at 6 now": a routine said by its time of day
            rf"^i (?:now )?(?P<x>(?:get up|wake up|go to bed|go to sleep|go to the gym|hit the gym|"
            rf"work out|"
            rf"run|swim(?: laps)?|walk the dog|eat dinner|have dinner|eat lunch|have lunch|"
            rf"leave for work|start work|do (?:yoga|pilates|my workout|my run)|go (?:running|"
            rf"swimming|jogging|cycling|for (?:a|my) (?:morning |evening |daily )?(?:run|swim|walk|"
            rf"jog)))) (?:at the (?:Y|gym|pool|track|park) )?(?:{_AT_CLOCK}|{_AT_WORDS})"
            # "I do yoga at 6 am before work": what the time is kept around is no other routine
            rf"(?: (?:before|after) (?:work|school|breakfast|dinner|the kids wake up|lectures|"
            rf"class|classes|uni|college|my shift|shift|church|open(?:ing)? the shop))?"
            rf"(?: now| instead| these days| every (?:day|morning|evening|weekday))?$",
            c,
            I_,
        )
        or re.match(
            r"^i (?P<x>(?:walk|bike|cycle|drive|commute|run|take the (?:bus|train|subway|"
            r"tube)) to (?:work|school|the office))(?: now| these days| instead)?$",
            c,
            I_,
        )
    )
    if not m or re.search(r"\b(?:that|it|this|those|them)\b(?: up| out)?$", m.group("x"), I_):
        return []  # "I always mix that up": about something said, not a routine
    if re.fullmatch(
        r"(?:forget|mix (?:it|them|that|those) up|get (?:it|that|them) wrong|lose track|"
        r"get confused|say that|do that|wonder|ask)(?: \w+)?",
        m.group("x"),
        I_,
    ):
        return []  # "I'm actually 36, I always forget": a remark, not a routine
    if re.match(r"(?:have|has|need|needs|got) to\b|gotta\b", m.group("x"), I_):
        return []  # "I always have to ask when we eat out": a consequence, not a routine
    change = bool(re.search(r"\bnow\b|\bthese days\b|,? not \w+$", c, I_))
    how = re.sub(rf"\b(?:{_FREQ})\b|\b(?:usually|always|normally|typically|often|generally|"
                 r"mostly|now)\b", "", m.group("x"), flags=I_).strip()  # fmt: skip
    if _COMMUTE.match(how):
        return [Hit(F, "habit.commute", "habit.commute", value=how.lower(), correction=change)]
    return [Hit(F, f"habit.{_activity_key(m.group('x'))}", "habit", value=_schedule(c),
                correction=change)]  # fmt: skip
