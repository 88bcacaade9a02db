"""An English message said again with the user as its subject: a relative's verbs in the
first person ("she moves" → "I move") and their pronouns as the user's ("he's at pwc now" →
"I'm at pwc now"). Pure string functions for :mod:`.kin_swap`."""

from __future__ import annotations

import re

__all__ = ["ADVERBS", "as_i_en", "first_person"]

# The words of a verb in the third person that differ in the first: is → am, has → have.
_FIRST = {
    "is": "am",
    "has": "have",
    "does": "do",
    "was": "was",
    "isn't": "am not",
    "hasn't": "haven't",
    "doesn't": "don't",
    "goes": "go",
}
ADVERBS = (
    r"(?:(?:finally|just|now|actually|also|still|already|recently|officially|basically|"
    r"apparently|even|totally|really|only|never|no longer|kind of|sort of)\s+)*"
)
_PLAIN_S = re.compile(r"^(?P<w>[a-z]+?)(?P<e>ies|ches|shes|sses|xes|zes|oes|s)$")


def first_person(verb: str) -> str:
    low = verb.lower()
    if low in _FIRST:
        return _FIRST[low]
    m = _PLAIN_S.match(low)
    if not m or low.endswith(("ss", "us", "is")):
        return verb  # moved / went / fly: the same for everyone
    ending = m.group("e")
    if ending == "ies":
        return m.group("w") + "y"
    if ending in ("ches", "shes", "sses", "xes", "zes", "oes"):
        return m.group("w") + ending[:-2]
    return m.group("w")


def as_i_en(rest: str) -> str:
    """'finally quit accounting and he's teaching' → 'finally quit accounting and I'm teaching'
    with the subject gone: its verbs and pronouns in the first person."""
    rest = re.sub(r"\b(?:his|her) own\b", "my own", rest, flags=re.I)
    rest = re.sub(  # "doing her masters in London", "got his own apartment": the relative's
        r"\b(?:his|her)(?= (?:masters|master's|phd|doctorate|degree|residency|bachelor's|major|"
        r"job|salon|shop|store|bakery|restaurant|business|apartment|house|condo|place|car|truck)\b)",
        "my",
        rest,
        flags=re.I,
    )
    rest = re.sub(r"\b(?:he|she)'?s\b", "I'm", rest, flags=re.I)  # he's, hes
    rest = re.sub(r"\b(?:he|she) is\b", "I am", rest, flags=re.I)
    rest = re.sub(r"\b(?:he|she) has\b", "I have", rest, flags=re.I)

    def pronoun(m: re.Match[str]) -> str:
        return f"I {m.group('adv')}{first_person(m.group('v'))}"

    rest = re.sub(rf"\b(?:he|she) (?P<adv>{ADVERBS})(?P<v>[a-z']+)", pronoun, rest, flags=re.I)
    # "…at pwc now and says the hours are better": the second verb of the same subject
    return re.sub(
        r"\b(?P<and>and|but) (?P<v>says|thinks|hates|loves|likes|wants|gets|works|has|does|goes|"
        r"seems|feels|starts|misses)\b",
        lambda m: f"{m['and']} {first_person(m['v'])}",
        rest,
        flags=re.I,
    )
