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

__all__ = ["by_the_day", "lemma"]

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
