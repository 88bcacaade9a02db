"""English retraction cues (:mod:`jiyi.core.retract` reads them clause by clause).

Each cue is ``(kind, pattern)`` over a lower-cased clause; ``x`` (or ``y``) is the retracted
phrase, ``to`` the replacement when the clause names one ("switched from X to Y", "swapped X
for Y"). A "wrong" cue without one takes the value a later clause names as the right one
("the latex thing was wrong, … positive for nickel instead"). Whether a cue is said of
someone who is neither the user nor a relative ("my boss moved from Denver to Boulder") is
read by :func:`jiyi.core.extraction.subject.someone_else_before`.

Pure functions, no I/O.
"""

from __future__ import annotations

import re

__all__ = ["EN_CUES", "EN_STOP", "next_value", "right_value"]

_EN_NP = r"(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3})"
EN_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "fine",
        re.compile(
            rf"^(?:and |but |so )?(?:the )?{_EN_NP} (?:is|are|'s|'re) "
            r"(?:totally |completely |actually )?(?:fine|ok|okay|safe|no problem|not a problem)\b"
        ),
    ),
    (
        "fine",
        re.compile(
            rf"\b(?:(?:i'm|i am) not (?:actually )?|(?:i'm |i am )?no longer )allergic to {_EN_NP}"
        ),
    ),
    ("fine", re.compile(rf"\bi can (?:now |actually )?eat {_EN_NP}")),
    # "peanuts came back totally fine" / "the dairy one came back negative": a test result
    (
        "fine",
        re.compile(
            r"^(?:and |but |so )?(?:the )?(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3}?)"
            r"(?: one| test| result)? (?:came|come|has come) back "
            r"(?:totally |completely |all |as )?(?:fine|negative|clear|normal|ok|okay)\b"
        ),
    ),
    # "turns out I'm fine with penicillin (, it's sulfa drugs I react to)"
    (
        "fine",
        re.compile(
            r"\b(?:i'm|im|i am) (?:actually |totally |perfectly |completely )?fine with "
            r"(?!(?:it|that|this|me|them|either|both)\b)"
            r"(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}?)(?= now| after all| actually|$)"
        ),
    ),
    ("stopped", re.compile(rf"\bno more {_EN_NP}")),
    ("stopped", re.compile(rf"\b(?:left|moved away from|moved out of) {_EN_NP}")),
    ("stopped", re.compile(rf"\bno longer (?P<ev>\w+ )?(?:in |at |to |a |an |my )?{_EN_NP}")),
    (
        "stopped",
        re.compile(
            r"\b(?:don't|do not|doesn't|does not|am not|'m not|isn't|is not|'s not|aren't|are not|"
            r"'re not) "
            r"(?P<ev>\w+ )?(?:in |at |a |an |my )?(?P<x>[a-z][a-z' -]{0,30}?) "
            r"(?:anymore|any more)\b"
        ),
    ),
    ("stopped", re.compile(rf"\b(?:quit|gave up|given up|give up|stopped|cut out) {_EN_NP}")),
    # "lattes are out (, I'm a matcha person now)": a thing the user had, ruled out
    (
        "stopped",
        re.compile(
            rf"^(?:and |so |but |ok |okay )?{_EN_NP} (?:is|are|'s|'re) out(?: for me| now)?$"
        ),
    ),
    # "tennis is done for me", "I'm done with golf": a pastime or habit over
    (
        "stopped",
        re.compile(
            rf"^(?:and |so |but |honestly )?(?:the )?{_EN_NP} (?:is|are|'s|'re) "
            r"(?:\w+ )?(?:done|over|finished) for me\b|"
            r"\b(?:i'm|i am|i'm all|we're) done with (?:the |my )?"
            r"(?P<y>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2})"
        ),
    ),
    # "hung up my tennis racket", "hung up the boxing gloves": the sport it is played with
    (
        "stopped",
        re.compile(
            r"\bhung up (?:my|the|our) (?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?) "
            r"(?:racket|racquet|boots|cleats|gloves|skates|clubs|shoes|bike|board|skis|gear)s?\b"
            r"(?: and (?:took up|started|picked up|switched to|got into) "
            r"(?P<to>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?))?"
        ),
    ),
    ("stopped", re.compile(rf"\bused to (?:\w+ )(?:in |at |a |an )?{_EN_NP}")),
    # "scrapped the half marathon plan": a plan or goal called off, named before "plan"
    (
        "stopped",
        re.compile(
            r"\b(?:scrapped|scrapping|ditched|ditching|dropped|dropping|abandoned|shelved|"
            r"cancell?ed|called off|bailed on|gave up on|giving up on) (?:the |my |our )"
            r"(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3}?) (?:plans?|idea|goal|dream)\b"
        ),
    ),
    (
        "stopped",
        re.compile(
            r"\b(?:switched|changed|moved|went|transferred|upgraded|downgraded|put|took|taken) "
            rf"(?:me |us |myself )?(?:over )?from {_EN_NP} (?:over )?(?:to|onto) "
            r"(?P<to>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3})"
        ),
    ),
    # "swapped the green tea for rooibos", "traded my sedan for a pickup": one thing for another
    (
        "stopped",
        re.compile(
            r"\b(?:swap+ed|traded|replaced|exchanged|substituted) (?:out )?(?:the |my |our )?"
            r"(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3}?) (?:out )?(?:for|with) "
            r"(?:an? |the |some )?"
            r"(?P<to>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3})"
        ),
    ),
    # "honestly Overwatch is dead to me now": a favourite or pastime dropped for good
    (
        "dropped",
        re.compile(
            r"^(?:honestly |tbh |ngl |so |and |yeah )?(?:the )?"
            rf"{_EN_NP} (?:is|are|'s|'re) (?:\w+ )?dead to me\b"
        ),
    ),
    # "we had to put Duke down", "I gave Sunny to the lady down the road", "rip blue",
    # "thumper passed last week": a pet gone (its name memory only)
    (
        "died",
        re.compile(
            r"^(?:so |and |sadly |unfortunately )?(?:we |i )?(?:had to )?"
            r"(?:put (?P<x>[a-z][a-z'-]*) (?:down|to sleep)|"
            r"(?:rehomed|gave) (?P<y>[a-z][a-z'-]*) (?:away|up|to))\b"
        ),
    ),
    ("died", re.compile(r"^rip (?P<x>[a-z][a-z'-]*)\b")),
    (
        "died",
        re.compile(r"^(?P<x>[a-z][a-z'-]*) (?:passed(?: away)?|died|crossed the rainbow bridge)\b"),
    ),
    ("wrong", re.compile(rf"\b(?:not|isn't|aren't|wasn't) (?:a|an) {_EN_NP}")),
    # "he's barely lab at all" / "(70% pit bull,) 0% lab": a breed a test found wrong
    (
        "wrong",
        re.compile(
            r"\b(?:barely|hardly) (?:an? )?(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?) at all\b|"
            r"^0 ?% (?P<y>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)$"
        ),
    ),
    # "it was never shellfish", "the latex thing was wrong": a value that was never right
    (
        "wrong",
        re.compile(
            r"^(?:(?:so |and |but |turns out |it turns out |apparently )?(?:it|that)"
            rf"(?:'s| is| was) (?:actually )?never {_EN_NP}$|"
            r"(?:so |and |but |turns out |apparently )?(?:the |my )?(?P<y>[a-z][a-z'-]*"
            r"(?: [a-z][a-z'-]*){0,2}?)(?: thing| part| one| bit)? (?:was|is) "
            r"(?:all |totally |completely |just )?(?:wrong|a mistake|a misdiagnosis|"
            r"a false alarm|a mix-?up|never right)$)"
        ),
    ),
)
# Words that end a retracted English phrase: "quit coffee because of my heart".
EN_STOP = re.compile(
    r"\s+\b(?:because|since|so|and|but|to|for|now|anymore|any more|either|these|this|"
    r"after|when|people|though|last|in|at|on|ago|with|yesterday|today|recently|lol|lmao|haha|"
    r"finally|habit|altogether|completely|entirely|officially)\b.*$"
)


# What a later clause names as the right value after "X was wrong": "it's sesame I react to",
# "the test came back positive for nickel instead" (or the new one after "X is dead to me").
_RIGHT_EN = re.compile(
    r"\b(?:it's|it is|it was|its) (?:actually |really )?(?P<to>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)"
    r"(?= (?:i|i'm|that|which)\b|$)|"
    r"\b(?:for|to|with|is|are|'s|got|have|has) (?:an? |the |some )?"
    r"(?P<y>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?) instead$|"
    # "…, Marvel Rivals is my fave": the new favourite after one dropped
    r"^(?P<f>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3}) (?:is|are|'s) (?:now )?my (?:new )?"
    r"(?:fave|fav|favorite|favourite|go-to)(?: now)?$|"
    # "(he's barely lab at all,) mostly Staffy with a bit of huntaway": most of what it is
    r"^(?:mostly|mainly|largely|\d{1,3} ?%) (?:an? )?(?P<m>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)"
    r"(?= with\b| and\b|$)|"
    # "(he's not a lab mix at all,) he's 70% pit bull": what the pet or person is instead
    r"^(?:he's|she's|he is|she is) (?:actually |really |mostly |just )?(?:\d{1,3} ?% |an? )?"
    r"(?!(?:fine|ok|okay|good|great|better|worse|happy|healthy|sick|tired|so|very|too|not)\b)"
    r"(?P<p>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)$"
)


def right_value(clauses: list[str]) -> str | None:
    """The value named as the right one in the clauses after a "wrong" cue, case kept."""
    for clause in clauses:
        if m := _RIGHT_EN.search(clause.lower()):
            key = next(k for k in ("to", "y", "f", "p", "m") if m.group(k))
            return clause[m.start(key) : m.end(key)]
    return None


# What a clause after a pastime or habit given up names in its place: "(tennis is done for
# me,) pickleball now", "it's rowing these days". A bare noun phrase and a word of now only:
# "it's tough now" or "so busy now" names nothing.
_NEXT_EN = re.compile(
    r"^(?:it's |its |it is |now it's |now )?(?!(?:so|too|very|really|pretty|much|way|all|"
    r"just|busy|tired|fine|better|worse|good|bad|ok|okay|done|over|hard|tough|easier|harder|"
    r"different|great|nice|weird|boring|fun|free|it|i|i'm|we|we're|that|that's|this|what|"
    r"the same|more|less)\b)"
    r"(?P<to>[a-z][a-z-]*(?: [a-z][a-z-]*)?) (?:now|these days|nowadays|instead)$"
)


def next_value(clause: str) -> str | None:
    """The value ``clause`` names in place of one given up, case kept."""
    if m := _NEXT_EN.match(clause.lower()):
        return clause[m.start("to") : m.end("to")]
    return None
