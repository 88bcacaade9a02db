"""English rules for tastes: likes and dislikes, favourites, hobbies (do-not-recommend is in
en_avoid.py, drink orders in en_drinks.py, diet styles and restrictions in en_diet.py).

Every way of liking ("I love / I'm really into / I'm a big X fan / X is my thing") and of
disliking ("I hate / I can't stand / I'm not much of an X drinker / no more X") keys the same
``pref.<object>`` slot, so a change of taste replaces the old one.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import ADV, CHANGE_RE, IM, object_key, third_person_en
from jiyi.core.extraction.en_pastimes import pastime
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.topics import clean_value, normalize_object
from jiyi.core.models import MemoryKind

__all__ = ["preference"]

P = MemoryKind.PREFERENCE
I_ = re.IGNORECASE


_NEG = (
    r"hate|dislike|detest|loathe|can't stand|cannot stand|can't eat|can't have|can't drink|"
    r"can't (?:really )?(?:do|handle|tolerate)|don't do|won't eat|won't touch|"
    r"(?:rarely|hardly ever|hardly|barely) (?:touch|drink|eat|have)|"
    r"don't (?:really |much |particularly )?(?:like|love|enjoy|eat|drink|care for|do)|"
    r"do not (?:like|eat|drink|enjoy)|never (?:eat|drink|touch)|no longer (?:like|eat|drink|enjoy)|"
    r"avoid|(?:am|'m)? ?not (?:a )?(?:big |huge )?fan of|(?:am|'m)? ?not (?:really )?into|"
    r"(?:have |'ve )?given up(?: on)?|(?:am|'m)? ?done with|"
    r"(?:have |'ve )?stopped (?:eating|drinking)|"
    r"(?:am|'m)? ?not interested in|(?:am|'m)? ?not (?:really |that |very )?big on|"
    r"gave up(?: on)?|quit|"
    r"stopped (?:eating|drinking)|(?:have |'ve )?cut out|(?:am|'m)? ?sick of|(?:am|'m)? ?tired of|"
    r"(?:am|'m)? ?over|"
    r"(?:am|'m)? ?(?:scared|afraid|terrified) of|steer clear of|stay away from"
)
_POS = (
    r"love|like|adore|enjoy|prefer|(?:am|'m)? ?(?:really |more |mostly |totally |super )?into|"
    r"(?:am|'m)? ?(?:a )?(?:big |"
    r"huge )?fan of|"
    r"(?:am|'m)? ?obsessed with|(?:am|'m)? ?crazy about|(?:am|'m)? ?interested in|(?:am|"
    r"'m)? ?big on|"
    r"can't live without|always (?:eat|drink|order|get)|(?:am|'m)? ?(?:all|really) about|"
    r"(?:have |'ve )?(?:gotten|got) (?:really )?into|(?:am|'m)? ?hooked on|(?:am|'m)? ?addicted to|"
    r"(?:am|'m)? ?passionate about|(?:am|'m)? ?a sucker for|(?:have |'ve )?(?:fallen|"
    r"fell) in love with|"
    r"(?:have |'ve )?(?:started|begun) (?:getting )?into|could eat|don't mind|(?:am|"
    r"'m)? ?nuts about"
)
_ACTIVITY_EN = re.compile(
    r"^(?:\w+ing)\b|^(?:the gym|yoga|pilates|tennis|golf|soccer|football|basketball)$", I_
)


# "I'm so done with this week", "sick of today": a passing mood about a stretch of time
_FED_UP = re.compile(
    r"\b(?:done with|over|sick of|tired of|fed up with|sick and tired of) (?:this (?:week|month|"
    r"day|year|weather|heat|rain)|today|tonight|everything|it all|life|the week|this)\b",
    I_,
)


# "I quit the gym and started doing yoga": one activity for another, a routine (en_habits)
_ONE_FOR_ANOTHER = re.compile(
    r"^i(?:'ve| have)? (?:just )?(?:quit|stopped|gave up|dropped) .+ and (?:started|took up|"
    r"picked up|began|got into)\b",
    I_,
)


_TENURE = re.compile(
    r"(?:^|\b)after (?:about |almost |nearly |over )?(?:\d+|a|an|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|a few|a couple of|several|many) (?:days?|weeks?|months?|years?)\b",
    I_,
)


_HOOKED = re.compile(
    r"\b(?:hooked on|obsessed with|addicted to|into|watching|bingeing|binging|listening to) "
    r"(?P<x>[\w' -]+?)(?: (?:this|last) (?:summer|year|week|month|spring|fall|autumn|winter)|"
    r" lately| recently)?(?:,| and| so)\s+(?:honestly |tbh |now |so )*(?:it's|its|it is|that's) "
    r"(?:now |officially )?my (?:new )?(?:favou?rite|fave|fav) (?P<cat>show|band|song|movie|"
    r"book|game|podcast|artist|singer|series)\b",
    re.IGNORECASE,
)
# What one is let into, not comes to like ("got into the nursing program", "got into UBC").
_ADMITTED = re.compile(
    r"\b(?:universit\w*|college|school|academy|program\w*|uni|course|residency|squad|team|"
    r"club|cohort|class)\b",
    re.IGNORECASE,
)


def preference(c: str, ctx: Context) -> list[Hit]:
    if _FED_UP.search(c) or _ONE_FOR_ANOTHER.match(c):
        return []
    if _TENURE.search(c) and re.search(r"\b(?:quit|left|gave up|stopped|dropped)\b", c, I_):
        return []  # "i quit werner after 9 years": a job (or a habit) held a while ended
    if re.match(r"^i (?:don't|do not|never) drink(?: alcohol| at all| anymore)?$", c, I_):
        return [
            Hit(
                P,
                "pref.alcohol",
                "pref.alcohol",
                polarity="dislike",
                content="User does not drink alcohol",
            )
        ]
    if m := re.match(r"^(?:nothing|no) too (?P<x>[a-z]+)$", c, I_):  # "…, nothing too expensive"
        return [Hit(P, f"pref.too_{m.group('x').lower()}", "pref.limit", polarity="dislike",
                    content=f"User wants nothing too {m.group('x')}")]  # fmt: skip
    if re.search(
        r"\b(?:after|before) (?:\d|noon|lunch|dinner|bed)|\bat night\b|\bin the (?:evening|"
        r"afternoon)\b",
        c,
        I_,
    ) and re.search(r"\bnever|don't\b", c, I_):
        return []  # "I never drink coffee after 3pm": a habit of timing, not a dislike
    m = re.match(
        r"^i (?:do|practice|play|make) (?P<a>[\w' -]+?) (?:as a hobby|for fun|in my (?:free|spare) "
        r"time|on the side|on weekends)$|"
        r"^i(?:'ve| have)? (?:recently |just |finally |since )?(?:taken|took|take) up "
        r"(?P<b>[\w' -]+?)(?: instead| now| lately| recently| this year)?$|"
        r"^i(?:'ve| have)? (?:recently |just |finally )?(?:stopped|quit|given up|gave up|dropped) "
        r"(?:doing |playing |practicing |going to |going |on )?(?P<c>[\w' -]+?)(?: now| any ?more|"
        r" for good| lately)?$|"
        r"^i (?:don't|do not|no longer) (?:really )?(?:do|play|practice) (?P<d>[\w' -]+?)"
        r" any ?more$",
        c,
        I_,
    )
    if m and m.group("c") and re.fullmatch(r"[a-z]+ing", m.group("c"), I_):
        m = None  # "I stopped swimming": a routine that stopped (habit), not a taste
    if m and m.group("c") and re.search(r" for (?-i:[A-Z])", m.group("c")):
        m = None  # "dropped Premiere for DaVinci Resolve": a swap (extraction/infer.py)
    if m and (o := object_key(m.group("a") or m.group("b") or m.group("c") or m.group("d") or "")):
        pol = "dislike" if m.group("c") or m.group("d") else "like"
        return [Hit(P, f"pref.{o}", "pref.hobby", polarity=pol, value=pol,
                    correction=not m.group("a"))]  # fmt: skip
    if (said := pastime(c)) and (o := object_key(said)):  # "I play guitar", "I knit": liked
        return [Hit(P, f"pref.{o}", "pref.pastime", polarity="like", value="like")]
    hobby = re.match(
        r"^my (?:main |big |new )?(?:hobby is|hobbies are|hobbies include|passion is) (?P<x>.+)$",
        c,
        I_,
    )
    if hobby:  # "my hobby is photography": each hobby is a like
        parts = [p for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", hobby.group("x")) if p]
        return [
            Hit(
                P,
                f"pref.{k}",
                "pref.hobby",
                polarity="like",
                value="like",
                content=f"User likes {clean_value(p)}",
            )
            for p in parts
            if (k := object_key(p))
        ]
    f = re.match(
        r"^(?:my |ok |okay |so )?(?:(?<=my )(?:absolute |all-time |personal )|new )?"
        r"(?:favou?rite|fave|fav) (?P<cat>[a-z ]+?)"
        r"(?: of all time| these days| right now| at the moment| lately| now)? (?:is|are) "
        r"(?:now |still )?(?P<x>.+)$",
        c,
        I_,
    ) or re.match(
        r"^(?P<x>.+?) (?:is|are) my (?:absolute |all-time |personal )?(?:(?:favou?rite|"
        r"fave) (?P<cat>(?!now$)[a-z ]+)|(?P<cat2>team|band|club|show|song|album|book|movie|artist|"
        r"singer|drink|food|colou?r|game|podcast|sport))(?:,? always (?:has|have) been)?$",
        c,
        I_,
    )
    # "my NRL team is the Broncos", "our footy team is Carlton": the team the user follows
    f = f or re.match(
        r"^(?:[Mm]y|[Oo]ur) (?P<cat>(?:[A-Za-z]{2,12} )?team) (?:is|are) (?:still )?"
        r"(?P<x>(?:the )?[A-Z].*)$",
        c,
    )
    # "tasha got me hooked on the bear and honestly its my fave show now": what it is
    f = f or _HOOKED.search(c)
    if f:
        cat = normalize_object((f.group("cat") or f.groupdict().get("cat2") or "").lower())
        # ("… and honestly the bear is my fave show now": the favourite, not the story)
        fav = clean_value(re.split(r",\s*|\s+and\s+(?:honestly\s+|tbh\s+)?", f.group("x"))[-1])
        trimmed = (
            fav != clean_value(f.group("x")) or f.re is _HOOKED or not c.lower().startswith("my")
        )
        told = f"User's favorite {cat} is {fav}" if trimmed else None
        return [Hit(P, f"favorite.{cat}", "favorite", polarity="like", value=fav, content=told)]
    m = re.match(
        rf"^{IM} (?:a |an )?(?:really |super |huge |big |massive |die-hard |long-time |"
        rf"total )*(?P<x>[\w' -]+?) (?:fan|lover|person|enthusiast|nerd|addict|junkie|buff|geek|"
        rf"fiend|supporter|follower)$",
        c,
        I_,
    )
    m2: re.Match[str] | None = None
    if m and not re.match(r"^(?:not|no|morning|night|early|people|night owl)\b", m.group("x"), I_):
        pol, m2 = "like", m  # "I'm a huge Taylor Swift fan"
    else:
        m2 = re.match(
            rf"^{IM} not (?:much of |really |a (?:big |huge )?)?an? (?P<x>[\w -]+?) (?:drinker|"
            rf"eater|person|fan|lover|guy|gal)$",
            c,
            I_,
        )
        pol = "dislike"
    if m2 and (o := object_key(m2.group("x"))):
        return [
            Hit(P, f"pref.{o}", "pref.fan", polarity=pol, obj=clean_value(m2.group("x")), value=pol)
        ]
    m = re.match(
        r"^i(?:'ve| have)? (?:actually |finally |kind of )?(?:come around on|come around to|"
        r"warmed up to|"
        r"grown to (?:like|love)|started liking|started to like|gotten into|"
        r"got into) (?P<x>[\w -]+?)"
        r"(?: lately| now| recently)?$",
        c,
        I_,
    )
    if m and _ADMITTED.search(m.group("x")):
        m = None  # "I got into that big university in Stellenbosch": admitted, no liking
    if m and (o := object_key(m.group("x"))):  # "I've come around on cilantro": a like, now
        ctx.extra["last_obj"], ctx.extra["last_word"] = o, clean_value(m.group("x"))
        return [Hit(P, f"pref.{o}", "pref.came_round", polarity="like", value="like",
                    correction=True)]  # fmt: skip
    m = re.match(
        r"^i(?:'ve| have) been (?:watching|reading|following|listening to|playing|rewatching) "
        r"(?P<x>.+?) (?:for (?:years|ages|a long time|decades|\d+ years|\w+ years)|since \w+)$",
        c,
        I_,
    )
    if m and (o := object_key(m.group("x"))):  # "I've been watching Friends for years"
        return [Hit(P, f"pref.{o}", "pref.years", polarity="like", value="like")]
    m = re.match(
        r"^i (?:now |actually |do )?(?:eat|drink|can eat|can have|like|enjoy) (?!breakfast|lunch|"
        r"dinner|brunch|meat|out\b)(?P<x>[a-z][a-z ]+?) (?:now|again|these days) ?(?:actually)?$",
        c,
        I_,
    )
    if m and (o := object_key(m.group("x"))):  # "I eat beef now": a dislike reversed
        return [Hit(P, f"pref.{o}", "pref.now", polarity="like", value="like", correction=True)]
    # "I've been really into pottery lately": a like that has lasted a while
    c = re.sub(
        r"^i(?:'ve| have) been (?=(?:\w+ )?(?:into|obsessed with|hooked on|loving)\b)",
        "I'm ",
        c,
        flags=I_,
    )
    c = re.sub(r"\s+(?:lately|recently|these days)$", "", c, flags=I_)
    m = re.match(rf"^i(?:'m| am)?\s*{ADV}(?P<v>{_NEG})\s+(?P<x>.+)$", c, I_)
    pol = "dislike"
    if not m:
        m = re.match(rf"^i(?:'m| am)?\s*{ADV}(?P<v>{_POS})\s+(?P<x>.+)$", c, I_)
        pol = "like"
        if m and re.match(
            r"^(?:to )?(?:know|ask|order|have a|get a|see|book|talk|go)\b", m.group("x"), I_
        ):
            return []  # "I'd like to know …" is a request, not a taste
        if m and re.match(r"got(?:ten)? into$", m.group("v"), I_) and _ADMITTED.search(m["x"]):
            return []  # "I got into the nursing program": admitted, no liking
    if m and re.match(
        r"(?:how|when|whenever|the way|it when|it how|that (?=(?:i|you|he|she|it|we|they|my|"
        r"our|his|her|their|people|everyone)\b))\b",
        m.group("x"),
        I_,
    ):
        return []  # "I hate how much DoorDash takes": a complaint about how things go
    if not m:
        m = re.match(
            r"^(?P<x>.+?) (?:is|are) (?:my jam|my thing|my weakness|the best)(?P<v>)$", c, I_
        )
        pol = "like"
    if not m:  # "Mushrooms are a hard no for me"
        m = re.match(
            r"^(?P<x>.+?) (?:is|are) (?:a )?(?:hard |big |total )?(?:no|nope|no-go|not for me|"
            r"not my thing|a dealbreaker)(?: for me)?(?P<v>)$",
            c,
            I_,
        )
        pol = "dislike"
    if (
        m
        and re.fullmatch(
            r"(?:it|them|those|that)(?: a lot| so much)?(?: now| too| again)?", m.group("x"), I_
        )
        and ctx.extra.get("last_obj")
    ):
        # "I'm allergic to cats but I love them": them = the object just named.
        content = third_person_en(c[: m.start("x")] + ctx.extra.get("last_word", ""))
        return [
            Hit(P, f"pref.{ctx.extra['last_obj']}", "pref.pronoun", polarity=pol, content=content)
        ]
    if not m or re.match(r"being (?:called|referred to|addressed)\b", m.group("x"), I_):
        return []  # "I hate being called by my full name": about a name (what follows)
    change = bool(CHANGE_RE.search(c)) or bool(re.search(r"\bnow\b", c, I_))
    ctx.extra["list_en"] = c[: m.start("x")]  # "I love true crime, cooking shows, and …"
    hits = []
    for item in _items(m.group("x")):
        thing = re.sub(
            r"^(?:to\s+|anything with\s+|everything with\s+|any\s+|all\s+)", "", item, flags=I_
        )
        if not (o := object_key(thing)):
            continue
        ctx.extra["last_obj"], ctx.extra["last_word"] = o, clean_value(thing)
        text = third_person_en(c[: m.start("x")] + item) if item != m.group("x") else None
        hits.append(Hit(P, f"pref.{o}", "pref", polarity=pol, obj=clean_value(item),
                        correction=change, value=pol, content=text))  # fmt: skip
    return hits


# Pairs that name one thing ("mac and cheese"), never a list.
_ONE_THING = re.compile(
    r"\b(?:salt and pepper|mac and cheese|macaroni and cheese|fish and chips|rock and roll|"
    r"rock 'n' roll|peanut butter and jelly|pb and j|sweet and sour|black and white|"
    r"bread and butter|rhythm and blues|r&b|law and order|pride and prejudice|"
    r"dungeons and dragons|hot and sour|cookies and cream|surf and turf|bangers and mash|"
    r"fruit and nut|pen and paper|arts and crafts|drum and bass|hide and seek|"
    r"milk and sugar|cream and sugar|eggs and bacon|bacon and eggs)\b",
    I_,
)


def _items(said: str) -> list[str]:
    """The things a like or dislike names: "sushi and ramen" is two, "mac and cheese" one,
    "hiking with my dad and brother" one (the list is not of short nouns)."""
    if _ONE_THING.search(said):
        return [said]
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", said)]
    parts = [p for p in parts if p]
    if len(parts) < 2 or any(
        len(p.split()) > 4
        or re.match(r"(?:my|his|her|their|our|the way|how|when|that|it|them)\b", p, I_)
        for p in parts[1:]
    ):
        return [said]
    if (
        re.search(r"\b(?:with|for|to|at|in|on|about|from|my|his|her|their|our)\b", parts[0], I_)
        or len(parts[0].split()) > 4
    ):
        return [said]
    return parts
