"""English slot rules, part two, and the entry point :func:`match_en`.

Tastes, then time-bound memories, after the fact rules of :mod:`.en_facts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core.extraction.en_facts import (
    ADV,
    CHANGE_RE,
    FACT_RULES,
    IM,
    PAST_VERBS,
    object_key,
    third_person_en,
)
from jiyi.core.extraction.hit import EVENT_TTL, SHORT_STATE_TTL, STATE_TTL, Context, Hit
from jiyi.core.extraction.lexicon import (
    DRINK_RE,
    DRINKS,
)
from jiyi.core.extraction.topics import clean_value, normalize_object, slug
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_date, find_time_window

__all__ = ["match_en", "third_person_en"]

F, P, G, E, S = (
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.GOAL,
    MemoryKind.EVENT,
    MemoryKind.STATE,
)
_I = re.IGNORECASE
# ------------------------------------------------------------------ food, drink, preferences


def _drink(c: str, ctx: Context) -> list[Hit]:
    m = re.match(
        rf"^(?:{IM} (?:not|no longer) (?:a )?(?P<x>vegetarian|vegan|pescatarian)(?: any ?more)?|"
        r"i(?:'ve| have)? stopped being (?:a )?(?P<y>vegetarian|vegan|pescatarian)|"
        r"i(?:'ve| have)? (?:started )?eat(?:ing)? meat again)",
        c,
        _I,
    )
    if m:  # "I'm not vegetarian anymore"
        style = (m.group("x") or m.group("y") or "vegetarian").lower()
        content = None if re.search(r"\bmeat\b", c, _I) else f"User is no longer {style}"
        return [
            Hit(
                P,
                "diet.style",
                "diet.style",
                content=content,
                value=f"not {style}",
                correction=True,
            )
        ]
    m = re.match(
        rf"^(?:{IM} (?:a |strictly |fully )?(?:now )?|i eat |i follow a |i keep |"
        r"i(?:'m| am) on an? |i(?:'ve| have)? (?:switched|moved|changed) to (?:an? )?|"
        r"i(?:'m| am) doing )"
        r"(?P<x>vegetarian|vegan|pescatarian|plant-based|halal|kosher|keto|paleo|low-carb|"
        r"mediterranean|intermittent fasting|carnivore)\b",
        c,
        _I,
    )
    if m:
        return [Hit(P, "diet.style", "diet.style", polarity="like", value=m.group("x").lower())]
    m = re.search(
        r"\b(?P<p>no|without|with|extra|less|a little|light|don't (?:take|put|add|want)|"
        r"never (?:take|put|add)|take it with(?:out)?|just)\s+(?:any\s+)?"
        r"(?P<x>sugar|sweetener|oat milk|almond milk|soy milk|milk|cream|creamer|ice)\b",
        c,
        _I,
    )
    black = re.search(r"\b(?:black)\b", c, _I)
    if ctx.drink and (m or black):
        attr = (
            "milk"
            if black and not m
            else {"sugar": "sugar", "sweetener": "sugar", "ice": "ice"}.get(
                m.group("x").lower() if m else "", "milk"
            )
        )
        neg = bool(black) or bool(m and re.match(r"no|without|don't|never", m.group("p"), _I))
        content = (
            None
            if re.match(r"^i\b", c, _I)
            else (f"User takes {ctx.drink_word or ctx.drink} {clean_value(c)}")
        )
        value = f"{m.group('p')} {m.group('x')}".lower() if m else "black"
        return [
            Hit(
                P,
                f"diet.{ctx.drink}.{attr}",
                "drink.addin",
                content=content,
                polarity="dislike" if neg else "like",
                value=value,
            )
        ]
    m = re.match(
        r"^(?:i )?(?:only|usually|always|now|mostly)? ?(?:drink|order|get|have|take)"
        r"(?: an?)? (?P<x>.+)$|^i(?:'ve| have)? (?:switched|changed|moved) (?:over )?to "
        r"(?P<y>.+)$|^i(?:'ve| have)? started (?:drinking|ordering) (?P<z>.+)$",
        c,
        _I,
    )
    if m:
        word = clean_value(m.group("x") or m.group("y") or m.group("z")).lower()
        word = re.split(r"\s+(?:now|these days|instead|lately|every \w+)\b", word)[0]
        if (hit := drink_type(word, c)) is not None:
            return [hit]
    return []


def drink_type(word: str, clause: str) -> Hit | None:
    """A drink order: "oat milk lattes" → diet.coffee.type = oat milk latte; None when the
    phrase names no known drink type."""
    words = re.sub(r"s$", "", word).split()
    # "oat milk lattes": the drink is the head noun at the end.
    kind = next(
        (DRINKS[" ".join(words[i:])] for i in range(len(words)) if " ".join(words[i:]) in DRINKS),
        None,
    )
    if not kind or not kind[1]:
        return None
    only = re.search(r"\bonly\b", clause, _I)
    return Hit(
        P,
        f"diet.{kind[0]}.type",
        "drink.type",
        polarity="like",
        content=f"User {'only drinks' if only else 'drinks'} {word}",
        value=" ".join(words),
        correction=bool(re.search(r"switched|changed|moved|started|now", clause, _I)),
    )


def _avoid(c: str, ctx: Context) -> list[Hit]:
    m = re.search(
        r"\b(?:don't|do not|never|stop|please don't|no need to)\s+(?:ever\s+)?"
        r"(?:recommend|recommending|suggest|suggesting|show|showing|offer|offering|"
        r"give|send|book|order)\s+(?:me\s+)?(?P<x>.+?)(?:\s+to me)?(?:\s+(?:again|"
        r"anymore|any more|ever again))?$",
        c,
        _I,
    ) or re.search(r"\bno more (?P<x>.+?)(?: recommendations| suggestions)?$", c, _I)
    if m and (o := object_key(m.group("x"))):
        return [
            Hit(
                P,
                f"pref.{o}",
                "avoid",
                polarity="dislike",
                content=f"User does not want {clean_value(m.group('x'))} recommended",
            )
        ]
    return []


_NEG = (
    r"hate|dislike|detest|loathe|can't stand|cannot stand|can't eat|can't have|can't drink|"
    r"don't (?:really |much |particularly )?(?:like|love|enjoy|eat|drink|care for|do)|"
    r"do not (?:like|eat|drink|enjoy)|never (?:eat|drink|touch)|no longer (?:like|eat|drink|"
    r"enjoy)|avoid|(?:am|'m) not (?:a )?(?:big |huge )?fan of|(?:am|'m) not into|"
    r"(?:have |'ve )?given up|(?:am|'m) done with|(?:have |'ve )?stopped (?:playing|doing)|"
    r"no longer (?:play|do)|don't (?:play|do) .+ any ?more|"
    r"(?:am|'m) not interested in|(?:am|'m) not (?:really |that |very )?big on|gave up|quit|"
    r"stopped (?:eating|drinking)"
)
_POS = (
    r"love|like|adore|enjoy|prefer|(?:am|'m) into|(?:am|'m) (?:a )?(?:big |huge )?fan of|"
    r"(?:am|'m) obsessed with|(?:am|'m) crazy about|(?:am|'m) interested in|(?:am|'m) big on|"
    r"can't live without|always (?:eat|drink|order|get)|(?:am|'m) (?:all|really) about|"
    r"(?:have |'ve )?(?:gotten|got) (?:really )?into|(?:am|'m) hooked on"
)


def _preference(c: str, ctx: Context) -> list[Hit]:
    if re.match(r"^i (?:don't|do not|never) drink(?: alcohol)?$", c, _I):
        return [
            Hit(
                P,
                "pref.alcohol",
                "pref.alcohol",
                polarity="dislike",
                content="User does not drink alcohol",
            )
        ]
    m = re.match(r"^(?:nothing|no) too (?P<x>[a-z]+)$", c, _I)
    if m:  # "…, nothing too expensive"
        return [
            Hit(
                P,
                f"pref.too_{m.group('x').lower()}",
                "pref.limit",
                polarity="dislike",
                content=f"User wants nothing too {m.group('x')}",
            )
        ]
    m = re.match(rf"^i(?:'m)?\s*{ADV}(?P<v>{_NEG})\s+(?P<x>.+)$", c, _I)
    pol = "dislike"
    if not m:
        m = re.match(rf"^i(?:'m)?\s*{ADV}(?P<v>{_POS})\s+(?P<x>.+)$", c, _I)
        pol = "like"
        if m and re.match(r"^(?:to )?(?:know|ask|order|have a|get a|see)\b", m.group("x"), _I):
            return []  # "I'd like to know …" is a request, not a taste
    if not m:
        f = re.match(
            r"^my (?:absolute |all-time )?(?:favou?rite|fave) (?P<cat>[a-z ]+?) is "
            r"(?P<x>.+)$",
            c,
            _I,
        )
        if f:
            cat, fav = normalize_object(f.group("cat")), clean_value(f.group("x"))
            return [Hit(P, f"favorite.{cat}", "favorite", polarity="like", value=fav)]
        m = re.match(
            r"^(?P<x>.+?) (?:is|are) my (?:absolute |all-time )?(?:favou?rite|fave)"
            r"(?P<v>)\b",
            c,
            _I,
        )
        pol = "like"
    if (
        m
        and re.fullmatch(r"(?:it|them|those|that)(?: a lot| so much)?", m.group("x"), _I)
        and (ctx.extra.get("last_obj"))
    ):
        # "I'm allergic to cats but I love them": them = the object just named.
        return [
            Hit(
                P,
                f"pref.{ctx.extra['last_obj']}",
                "pref.pronoun",
                polarity=pol,
                content=third_person_en(c[: m.start("x")] + ctx.extra["last_word"]),
            )
        ]
    if not m or not (o := object_key(re.sub(r"^to\s+", "", m.group("x"), flags=_I))):
        return []
    change = bool(CHANGE_RE.search(c)) or bool(re.search(r"\bnow\b", c, _I))
    return [
        Hit(P, f"pref.{o}", "pref", polarity=pol, obj=clean_value(m.group("x")), correction=change)
    ]


# ------------------------------------------------------------------ goals, plans, states, events

_GOAL = re.compile(
    rf"^(?:{IM} (?:planning|going|hoping|trying|aiming|preparing) to|i plan to|i intend to|"
    rf"{IM} (?:thinking (?:about|of)|considering)|"
    r"i(?:'ve| have) decided to|i(?:'d| would) love to|i hope to|i wanna|i(?:'m| am) gonna|"
    r"my (?:main |big |new )?goal (?:this year |for this year )?is(?: to)?|my plan is to|"
    r"my dream is to|i want to (?=learn|lose|run|travel|visit|buy|move|quit|start|become|get|save|"
    r"study|finish|write|build|open|switch|change|improve|read|take|pass|apply|retire|go))\s*"
    r"(?P<x>.+)$",
    _I,
)
_COARSE = re.compile(r"next year|明年", _I)
_STATE = re.compile(
    rf"^(?:(?:lately|recently|these days|this week|currently|right now|at the moment|today|"
    rf"tonight),?\s+)?(?:{IM}|i've been|i have been|)\s*(?:currently |still |really |so |very |"
    r"a bit |kind of |feeling |pretty |super |quite )*(?P<x>sick|ill|unwell|tired|exhausted|"
    r"stressed(?: out)?|burned out|burnt out|depressed|anxious|busy|swamped|on a diet|dieting|"
    r"fasting|injured|jet ?lagged|unemployed|between jobs|job hunting|looking for (?:a )?(?:new )?"
    r"job|training for .+|studying for .+|preparing for .+|recovering from .+|learning .+|"
    r"cutting (?:out|back on) .+|working on .+|on vacation|on holiday|on leave|on maternity leave|"
    r"off work|down with .+|sick with .+|renovating .+|moving(?: house)?|in (?:the )?hospital|"
    r"doing keto|on keto|quitting .+|off sugar|off caffeine|losing weight|"
    r"fighting .+|dealing with .+|battling .+|cramming for .+|prepping for .+|"
    r"on (?:a )?(?:business trip|work trip|trip)\b.*|away on .+|traveling for work)",
    _I,
)
_AILMENT = re.compile(
    r"^i (?:have|'ve got|got|caught|have got) (?:a |the |an )?(?P<x>cold|flu|"
    r"fever|headache|migraine|cough|sore throat|covid|stomach ?ache|toothache|"
    r"hangover|back pain)\b",
    _I,
)


def _plan(c: str, ctx: Context) -> list[Hit]:
    if re.search(r"\byou\b", c, _I):
        return []  # "I'll ask you tomorrow": about this conversation, not the user's life
    if re.search(r"\bevery\b", c, _I):
        return []  # recurring: a habit, not a one-off plan
    date = find_date(c, ctx.ref)
    if date is not None and date[0] < ctx.ref.replace(hour=0, minute=0, second=0, microsecond=0):
        date = None
    goal = _GOAL.match(c)
    if goal is None:
        if date is None or not re.match(
            r"^(?:i|i'm|i am|i'll|i will|i have|i've got|my|we're)\b", c, _I
        ):
            return []
        if re.search(r"\b(?:was|went|had|did|ago|yesterday|last)\b", c, _I):
            return []
    key = slug(goal.group("x") if goal else c)
    if date is not None and not _COARSE.search(date[1]):
        return [Hit(E, f"plan.{key}", "plan.dated", when=date[0], ttl=EVENT_TTL)]
    return [Hit(G, f"goal.{key}", "goal", when=date[0] if date else None)]


def _state(c: str, ctx: Context) -> list[Hit]:
    date = find_date(c, ctx.ref)
    if date is not None and date[0] > ctx.ref:
        return []  # "I'm moving next week" is a plan, not how the user is now
    m = _STATE.match(c) or _AILMENT.match(c)
    if not m:
        return []
    short = bool(re.search(r"\b(?:today|tonight|this morning|right now)\b", c, _I))
    return [
        Hit(S, f"state.{slug(m.group('x'))}", "state", ttl=SHORT_STATE_TTL if short else STATE_TTL)
    ]


def _past_event(c: str, ctx: Context) -> list[Hit]:
    window = find_time_window(c, ctx.ref)
    if window is None or window.start is None or window.start >= ctx.ref:
        return []
    m = re.match(r"^(?:i|we)\s+(?:just\s+)?(?P<v>\w+)", c, _I)
    if not m or not (m.group("v").lower() in PAST_VERBS or m.group("v").lower().endswith("ed")):
        return []
    return [
        Hit(
            E,
            f"event.{slug(c.replace(window.expression, ''))}",
            "event.past",
            when=window.start,
            ttl=EVENT_TTL,
        )
    ]


def _habit(c: str, ctx: Context) -> list[Hit]:
    m = (
        re.match(
            r"^i (?:usually|always|normally|typically|often|generally|regularly) (?P<x>.+)$", c, _I
        )
        or re.match(
            r"^(?:every (?:day|morning|night|evening|week|weekend)|"
            r"on weekends),? i (?P<x>.+)$",
            c,
            _I,
        )
        or re.match(
            r"^i (?P<x>.+?) (?:every (?:other )?(?:day|morning|night|evening|week|weekend|month|"
            r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|on (?:weekends|(?:mon|tues|wednes|thurs|"
            r"fri|satur|sun)days))(?: (?:and|&) (?:mon|tues|wednes|thurs|fri|satur|sun)days?)?"
            r"(?: mornings?| evenings?| nights?)?$",
            c,
            _I,
        )
    )
    if not m or re.search(r"\b(?:that|it|this|those|them)\b(?: up| out)?$", m.group("x"), _I):
        return []  # "I always mix that up": about something said, not a routine
    return [Hit(F, f"habit.{slug(m.group('x'))}", "habit")]


_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    *FACT_RULES,
    _drink,
    _avoid,
    _preference,
    _state,
    _habit,
    _plan,
    _past_event,
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
    subject = ctx.extra.get("family_en")
    inherited = False
    if subject:
        # "My son is called Leo and he's 7": he is the son.
        replaced = re.sub(r"^(?:he's|she's)\b", subject + " is", clause, flags=_I)
        replaced = re.sub(r"^(?:his|her)\b", subject + "'s", replaced, flags=_I)
        replaced = re.sub(r"^(?:he|she)\b", subject, replaced, flags=_I)
        inherited, clause = replaced != clause, replaced
    if re.match(r"^i\b", clause, _I):
        ctx.extra.pop("family_en", None)
    for rule in _RULES:
        hits = rule(clause, ctx)
        if hits:
            change = bool(CHANGE_RE.search(clause))
            for h in hits:
                h.correction = h.correction or change
                if inherited and h.content is None:
                    h.content = third_person_en(clause)
            return hits
    return []
