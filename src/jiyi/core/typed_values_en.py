"""Values of a typed kind in English text: a weekday, a clock time, a part of the day, a
frequency, an amount with its unit.

A routine changes by naming only its new value: "i've started running at 5:30", "up to five
days a week at the gym now", "pottery is tuesdays starting with the next session", "bumped my
morning meditation up to 20 min". The kind of the value says which stored routine it changes:
the one user fact that holds a value of the same kind (the same unit for an amount) and shares
a word with the message (:func:`anchors`). This module only reads the words;
:mod:`jiyi.pipeline.typed_swap` finds the fact and swaps the value, as for Chinese
(:mod:`jiyi.core.typed_values`).

Pure functions, no I/O.
"""

from __future__ import annotations

import re

from jiyi.core.changes import content_words
from jiyi.core.typed_values import TypedValue

__all__ = ["anchors", "change_clauses", "same_value", "typed_values"]

I_ = re.IGNORECASE
_N = (
    r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|forty-five|sixty|ninety)"
)
_HOUR = r"(?:1[0-2]|[1-9]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_DAYNAME = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?"
_WEEKDAY = (
    rf"\b(?:every (?:other )?)?{_DAYNAME}(?:(?:,? and |/| & ){_DAYNAME})*"
    r"(?: (?:morning|night|evening|afternoon)s?)?\b"
)
_CLOCK = (
    r"\b(?:\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|noon|midnight)(?![\w:])|"
    # "we open at six-thirty now": an hour in words, after "at"
    r"(?<=\bat )(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?:[- ](?:thirty|fifteen|forty[- ]five|o'clock))?\b"
    r"(?![- ](?:years?|months?|weeks?|days?|hours?|minutes?|mins?|times|kids|people|of)\b)|"
    # "quarter to 7", "half past eight", and the Irish and British "half six" (6:30)
    rf"\b(?:quarter (?:to|past)|half past) {_HOUR}\b|"
    rf"\bhalf {_HOUR}(?=\s*(?:[.,;!?)]|$|(?:now|then|instead|every|each|on|in|at|and|so|sharp)\b))"
    r"(?![- ](?:years?|months?|weeks?|days?|hours?|minutes?|mins?|times|kids|people|of)\b)"
)
_FREQ = (
    rf"\b(?:once|twice|{_N} (?:times|days|nights|mornings|evenings|x))\s?(?:a|per|each|/)\s?"
    r"(?P<per>week|wk|day|month)\b|\bevery (?:other )?(?:day|week|weekend)\b|\bdaily\b|\bweekly\b"
)
_UNIT_WORDS = {
    "min": "min", "mins": "min", "minute": "min", "minutes": "min",
    "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
    "mile": "mile", "miles": "mile", "mi": "mile", "km": "km", "k": "km",
    "laps": "lap", "lap": "lap", "pages": "page", "page": "page",
    "cups": "cup", "cup": "cup", "shots": "shot", "shot": "shot",
}  # fmt: skip
_AMOUNT = rf"\b{_N}(?:\.\d)?\s?(?P<unit>{'|'.join(sorted(_UNIT_WORDS, key=len, reverse=True))})\b"
_DAYPART = (
    r"\b(?:(?:every|in the|at|each) )?(?:mornings?|evenings?|nights?|afternoons?)\b|"
    r"\b(?:before|after) (?:bed|work|dinner|lunch|breakfast|school)\b|\bat lunch\b"
)
_TYPED = re.compile(
    rf"(?P<weekday>{_WEEKDAY})|(?P<clock>{_CLOCK})|(?P<count>{_FREQ})|(?P<amount>{_AMOUNT})|"
    rf"(?P<part>{_DAYPART})",
    I_,
)
# A change of what holds now: a verb of change, or "now" / "from now on" / "these days".
_CUE = re.compile(
    r"\b(?:now|anymore|any more|instead|these days|from now on|starting|switch(?:ed|ing)?|"
    r"mov(?:ed|ing)|chang(?:ed|ing)|bump(?:ed)?|cut|up to|down to|push(?:ed)?|shift(?:ed)?|"
    r"reschedul(?:ed|ing)|started|start|moved|dropped|only|just)\b",
    I_,
)
_UNREAL = re.compile(
    r"\b(?:if|might|maybe|thinking|would|could|should|hope|wish|worried|unless|used to|"
    r"this (?:week|weekend|once)|tomorrow|tonight|today|skipp(?:ed|ing)|missed|cancell?ed "
    r"(?:this|today))\b|\?",
    I_,
)
_CLAUSES = re.compile(r"(?:[^.,;!?\n]|(?<=\d)\.(?=\d))+[.,;!?\n]*")  # (7.30pm is one time)
# A value named as what stopped ("dropped the tuesday spin class", "no more mornings").
_STOPPED = re.compile(
    r"\b(?:dropped|quit|stopped|no more|not|skip(?:ped)?|cancell?ed|from)\s+(?:the |my |our )?$", I_
)
# Words of time and wording every routine shares: no anchor between two facts.
_FILLER = frozenset(
    """user every week day morn morning night evening afternoon month time minut min hour mile
    daily weekly weekend tak take go goe do doe have get make use start now just only also
    monday tuesday wednesday thursday friday saturday sunday""".split()
)


def typed_values(text: str) -> list[TypedValue]:
    """The weekday, clock, part-of-day, frequency and amount values said in ``text``."""
    out = []
    for m in _TYPED.finditer(text):
        kind = next(k for k in ("weekday", "clock", "count", "amount", "part") if m.group(k))
        unit = ""
        if kind == "count":
            unit = (m.group("per") or "").lower().replace("wk", "week")
        elif kind == "amount":
            unit = _UNIT_WORDS[m.group("unit").lower()]
        if _STOPPED.search(text[max(0, m.start() - 20) : m.start()]):
            continue
        out.append(TypedValue(kind, m.group(0).strip(), unit))
    return out


def same_value(a: TypedValue, b: TypedValue) -> bool:
    """The same value said two ways ("every morning" / "mornings", "Tuesday" / "tuesdays")."""

    def bare(v: TypedValue) -> str:
        said = re.sub(r"^(?:every|in the|at|each|on) ", "", v.surface.lower())
        return re.sub(r"s\b", "", said)

    if a.kind == b.kind == "weekday":  # "Thursday" of "every Thursday night": the same day
        return _days(a.surface) == _days(b.surface)
    return bare(a) == bare(b)


def _days(said: str) -> set[str]:
    return {m[:3] for m in re.findall(_DAYNAME, said.lower()) if m[:3] not in ("", "s")}


def change_clauses(text: str) -> list[str]:
    """The clauses of ``text`` that say a value changed and state no wish, doubt, one-off or
    question."""
    out: list[str] = []
    carried = False  # "I've switched to evening workouts, usually around 7pm": the change goes on
    for m in _CLAUSES.finditer(text):
        said = m.group(0)
        clause = said.strip(" .;!?\n")
        # "… moved my runs to after work. Around half five most days": the time follows
        cue = bool(_CUE.search(clause)) or carried or bool(out and _THEN_AT.match(clause))
        carried = False
        if clause and cue and not _UNREAL.search(said) and not _CONDITIONS.match(clause):
            out.append(clause)
            carried = said.rstrip().endswith(",")
    return out


# A sentence that only gives the time of the change just said.
_THEN_AT = re.compile(r"(?:usually |mostly |normally )?(?:around|about|at|roughly) ", I_)
# "it's getting too dark in the mornings now": the reason for a change, not the change
_CONDITIONS = re.compile(
    r"(?:(?:and|but|so) )?it(?:'s| is| gets| got)(?: getting)? (?:way |so |too |really |very )*"
    r"(?:dark|light|cold|hot|warm|busy|crowded|wet|rainy|icy|packed|noisy)\b",
    I_,
)


_CLOCK_ANCHOR = re.compile(rf"\bstart(?:s|ing)?\b|\bshift\b|{_DAYNAME}", I_)


def _day(word: str) -> str:
    """One spelling for a start word or a weekday ("starts" / "start", "Saturdays" / "sat")."""
    return "start" if word.startswith("start") else word[:3]


def _words(text: str) -> set[str]:
    return {w for w in content_words(text) if w not in _FILLER and not re.search(r"\d", w)}


def anchors(content: str, held: TypedValue, text: str) -> bool:
    """Does ``text`` share a word with the stored fact ``content`` (its typed value, time
    words and fillers aside)? Stems compare by prefix ("run" / "running", "meditat" /
    "meditation")."""
    mine = _words(content.replace(held.surface, " "))
    said = _words(text)
    if (
        held.kind == "clock"
        and _CLOCK_ANCHOR.findall(content.lower())
        and {_day(w) for w in _CLOCK_ANCHOR.findall(content.lower())}
        & {_day(w) for w in _CLOCK_ANCHOR.findall(text.lower())}
    ):
        # "my shift starts at 6am" → "pushed ma start back tae half seven"; "every Saturday …
        # at 7am" → "moved the Saturday group to quarter to nine": for a clock time, the
        # start or the weekday the fact holds is word enough
        return True
    if held.kind == "clock" and held.surface.replace(" ", "").lower() in re.sub(
        r"\s+(?=[ap]\.?m\b)", "", text.lower()
    ):
        return True  # "…around 7pm. the 6am thing wasn't working": the old time named
    return any(
        a.startswith(b) or b.startswith(a) for a in mine for b in said if min(len(a), len(b)) >= 3
    )
