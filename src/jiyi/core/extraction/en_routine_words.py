"""How an English routine is said, for en_habits.py: the verb's base form a routine is
keyed by, and wordings that put the day first, rewritten as "I <verb> … on <day>s":

- "my swim day is Thursday now" → "I swim on Thursdays now";
- "I now do my Monday volunteering at the food bank" → "I volunteer at the food bank on
  Mondays now";
- "my nights are Sunday and Monday now" (of shifts) → "I work shifts on Sundays and Mondays
  now".
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import SPORT_EN

__all__ = ["by_the_day", "lemma", "said_plainly"]

I_ = re.IGNORECASE

_E_VERBS = frozenset(
    "hike dance skate bike ride write meditate bake practice drive commute cycle vape smoke "
    "dine serve juggle paddle kayake skydive snowboarde rollerblade journale".split()
)


def lemma(word: str) -> str:
    """swimming → swim, hiking → hike, running → run: the verb a routine is keyed by."""
    w = word.lower()
    if not w.endswith("ing") or len(w) < 6 or w in ("spring", "morning", "evening", "string"):
        return w
    base = w[:-3]
    if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
        return base[:-1]  # swimm → swim
    return base + "e" if base + "e" in _E_VERBS else base


# "My swim day is Thursday now": the routine's day, said of the day
_DAY_IS = re.compile(
    r"^my (?P<a>[a-z]+) (?:day|night|morning|evening) (?:is|'s) (?:now |usually )?"
    r"(?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?(?P<now> now| these days)?$",
    I_,
)
_DAY_VERB = {"gym": "go to the gym", "yoga": "do yoga", "pilates": "do pilates"}
# "I now do my Monday volunteering at the food bank": the day's routine, said as "I volunteer
# at the food bank on Mondays now"
_DAY_DOING = re.compile(
    r"^i (?P<now>now )?do my (?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend) "
    r"(?P<a>[a-z]+ing)\b(?P<rest>.*)$",
    I_,
)
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
# "my nights are Sunday and Monday now", "my shifts are Tuesdays and Fridays these days"
_SHIFTS_ARE = re.compile(
    r"^my (?:work |night |day )?(?:nights|shifts|night shifts|work ?days|days on) (?:are|'re) "
    rf"(?:now )?(?P<d>{_DAYS}(?:(?:,|,? and|,? &) {_DAYS})*)(?P<now> now| these days)$",
    I_,
)


def by_the_day(c: str) -> str:
    """``c`` as "I <verb> … on <day>s" when it says the routine by its day; else ``c``."""
    if d := _DAY_IS.match(c):
        verb = _DAY_VERB.get(d.group("a").lower(), d.group("a").lower())
        return f"I {verb} on {d.group('d')}s{d.group('now') or ''}"
    if d := _DAY_DOING.match(c):
        return f"I {lemma(d.group('a'))}{d.group('rest')} on {d.group('d')}s" + (
            " now" if d.group("now") else ""
        )
    if d := _SHIFTS_ARE.match(c):
        days = re.sub(r"(day)\b(?!s)", r"\1s", d.group("d"), flags=I_)
        return f"I work shifts on {days}{d.group('now')}"
    return c


_EVERY = (
    r"every (?:day|morning|evening|night|weekday|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"(?: (?:morning|night|evening|afternoon))?"
)
_TAIL = re.compile(r" (?:before|after) .+$", I_)  # (what the time is kept around)
_TIME_FIRST = re.compile(
    rf"^(?P<when>{_EVERY}),? (?:at )?(?P<t>\d{{1,2}}(?::\d\d)?(?: ?[ap]m)?)(?: o'clock)?,? "
    r"(?P<rest>i .+)$",
    I_,
)
_VERBLESS = re.compile(
    rf"^(?P<when>{_EVERY}) (?P<x>(?:{SPORT_EN}))(?P<with> (?:with|after|before) [\w ]+)?$|"
    rf"^(?P<x2>(?:{SPORT_EN})) (?P<when2>{_EVERY})(?: (?:with|after|before) [\w ]+)?$",
    I_,
)


def said_plainly(c: str) -> str:
    """A routine said time first ("Every morning 6 o'clock I go swimming before open the
    shop"), without its verb ("every Monday night badminton with officemates", "netball every
    tuesday after school") or with a day and no "on" ("i play netball tuesdays"), said the
    way the routine rules read it ("I go swimming every morning at 6")."""
    c = _TIME_FIRST.sub(lambda m: f"{_TAIL.sub('', m['rest'])} {m['when']} at {m['t']}", c)
    c = _VERBLESS.sub(lambda m: f"I play {m['x'] or m['x2']} {m['when'] or m['when2']}", c)
    return re.sub(
        r"^(i \w+ [\w ]+?) ((?:mon|tues|wednes|thurs|fri|satur|sun)days)\b",
        r"\1 on \2",
        c,
        flags=I_,
    )
