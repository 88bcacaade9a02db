"""How an English routine is keyed and scheduled, for :mod:`.en_habits`: the slot key
(the activity in its base form: "go swimming", "I swim", "swim classes" → ``swim``) and the
value (the schedule: "every monday night", "in the evenings", "at 7"; "yes" if unsaid).

Apart from the rules of :mod:`.en_habits` because every one of them keys and values its hit
the same way: how often (``_FREQ``) and when in the day (``_AT_CLOCK``) are never part of a
routine's slot, only of its value, so "I get up at 6 now" replaces "I get up at 7 every day".
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_routine_words import lemma
from jiyi.core.extraction.topics import slug

I_ = re.IGNORECASE


_FREQ = (
    r"every (?:other )?(?:single )?(?:day|morning|night|evening|week|weekend|weekday|month|year|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?|each (?:day|morning|night|evening|week|"
    r"weekend)|"
    r"(?:once|twice|three times|four times|five times|\d+ times|a few times|"
    r"a couple (?:of )?times) "
    r"(?:a|per|every) (?:day|week|month|year)|(?:a|per) (?:day|week|month|night)|daily|weekly|"
    r"nightly|on (?:weekends|weekdays|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)|most (?:days|mornings|nights|evenings|weekends)|"
    # "on Saturday mornings": a plural part of the day after a weekday recurs (the singular
    # "on Saturday morning" is one date, a plan)
    r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day (?:mornings|afternoons|evenings|nights)|"
    # "pickup basketball Tuesday nights": the weekday without "on" recurs the same way
    # (not "i'm going thursday mornings now": the day alone, for a routine said before)
    r"(?<!on )(?<!going )(?<!go )(?:mon|tues|wednes|thurs|fri|satur|sun)day "
    r"(?:mornings|afternoons|evenings|nights)"
)


_ALIASES = {"jog": "run", "go to the gym": "gym", "the gym": "gym", "hit the gym": "gym",
            "work out": "workout", "lift": "lift weights", "do yoga": "yoga",
            "spin class": "spin", "spin": "spin"}  # fmt: skip


# "at 7", "at 6:30am": when in the day, part of the routine's value, never of its slot (so
# "I get up at 6 now" replaces "I get up at 7 every day").
_AT_CLOCK = r"\bat \d{1,2}(?::\d\d|\.\d\d(?=\s?[ap]))?(?:\s?(?:am|pm|a\.m\.|p\.m\.))?(?![\w:])"


def _activity_key(phrase: str) -> str:
    core = re.sub(
        rf"{_AT_CLOCK}|\b(?:{_FREQ})\b|\b(?:usually|always|normally|typically|often|generally|regularly|"
        r"now|still|also|these days|anymore|any more)\b",
        "",
        phrase,
        flags=I_,
    )
    core = re.sub(r"\b(?:before|after) (?:work|bed|school|breakfast|dinner|lunch|lectures|class|"
                  r"classes|my shift|church|open(?:ing)? the shop)\b|\bat night\b|"
                  r"\bin the (?:mornings?|evenings?|afternoons?)\b|\bfor \d+ (?:minutes|hours|"
                  r"mins)\b|"
                  r"\b(?:mornings?|evenings?|nights?)\b|,? not \w+$",
                  "", core, flags=I_)  # fmt: skip
    words = core.lower().split()
    while words and words[0] in ("go", "going", "do", "doing", "play", "playing", "i", "to"):
        words = words[1:]  # "go swimming", "doing yoga", "playing tennis"
    words = [lemma(words[0]), *words[1:]] if words else words
    if len(words) > 1 and words[-1] in (
        "classes",
        "class",
        "sessions",
        "session",
        "lessons",
        "lesson",
    ):
        words = words[:-1]  # "I do spin classes" is spinning
    core = " ".join(words)
    return slug(_ALIASES.get(core, core))


_SCHEDULE = re.compile(
    rf"\b(?:{_FREQ})(?: (?:mornings?|evenings?|nights?|afternoons?))?\b|"
    r"\bin the (?:mornings?|evenings?|afternoons?)\b|\bat night\b|"
    r"\b(?:before|after) (?:work|bed|school|breakfast|dinner|lunch)\b|"
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day (?:mornings?|evenings?|nights?)\b|"
    r"\b(?:mornings|evenings|nights)\b|"
    # "on Fridays and Saturdays": the second day too (Fridays and Sundays is another schedule)
    r"(?<=and )(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|" + _AT_CLOCK,
    I_,
)


def _schedule(c: str) -> str:
    """When the routine happens ("every monday night", "in the evenings"); "yes" if unsaid."""
    found = _SCHEDULE.finditer(re.sub(r",? not \w+$", "", c))
    # "on Sundays" and "Sundays" are one schedule: the preposition is not part of the value
    said = " ".join(re.sub(r"^on ", "", m.group(0).lower()) for m in found)
    return said or "yes"
