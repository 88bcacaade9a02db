"""Shared pieces of the English rules: the first-person and adverb patterns, numbers in words,
value cleaners and the third-person rewrite.

Clauses arrive with curly apostrophes straightened; matching is case-insensitive, but values
are taken from the original text so names keep their capitals.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import PRONOUN_OBJECTS, word_set
from jiyi.core.extraction.topics import clean_value, normalize_object

__all__ = [
    "ADV",
    "CHANGE_RE",
    "CHILD_MOVED",
    "DESC",
    "DOES_FOR_WORK",
    "IM",
    "NUM_WORD",
    "PAST_VERBS",
    "SCHOOL_WORD",
    "SCHOOL_YEAR",
    "SEP",
    "YEAR_GRADE",
    "YEAR_WORDS",
    "first_name",
    "number",
    "object_key",
    "place",
    "third_person_en",
    "year_from_words",
]

I_ = re.IGNORECASE
IM = r"(?:i'm|i am|im)"
ADV = (
    r"(?:(?:really|also|usually|always|never|often|just|actually|only|still|sometimes|"
    r"absolutely|totally|currently|now|mostly|rarely|seriously|honestly|definitely|kind of|"
    r"sort of|normally|typically|generally|no longer|recently|finally|even|truly|"
    r"do(?=\s+(?:love|like|hate|want|need|enjoy|miss|prefer|think|care|mind|eat|drink)\b)|"
    r"genuinely|pretty much|literally|kinda|super|so|very|quite|pretty|a bit|a little)\s+)*"
)
# Words between "my" and the relative or pet: "my little brother", "our rescue pup".
DESC = (
    r"(?:(?:little|baby|older|younger|elder|big|eldest|oldest|youngest|twin|teenage|step|new|old|rescue|"
    r"senior|sweet|tiny|adopted|\w+-year-old|\w+-month-old|black|white|orange|ginger|gr[ae]y|brown|"
    r"fluffy|lazy|two|three|four|wee|lil|small|young|precious|beautiful|beloved|crazy|silly)\s+)*"
)
SEP = re.compile(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*|/", I_)
# Words that say an earlier state no longer holds.
CHANGE_RE = re.compile(
    r"\b(?:no longer|anymore|any more|not \w+ now|gave up|quit|stopped)\b|"
    # "I'm actually 36", "my son's actually 9": said to set a value right
    r"(?:\bi'm|\bi am|\bi|'s|\bis|\bare|'re) actually (?=\d|[a-z]+ (?:in|at|for|from)\b|"
    r"(?:called|named|from|based|a|an)\b)",
    I_,
)

PAST_VERBS = word_set(
    """
    was were went had got took ate drank saw met bought left came did made began flew
    grew gave found lost broke fell felt forgot heard kept knew paid ran said sent sold
    sat slept spent told thought woke won wrote became brought caught chose drove fought
    held led put read rode rose set sang swam taught threw wore hurt built split quit
    """
)
_MODAL = word_set("can could will would should shall may might must can't won't cannot")
_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
_UNITS += "fifteen sixteen seventeen eighteen nineteen"
_NUMBERS = {w: i for i, w in enumerate(_UNITS.split())}
_TENS = {
    w: 10 * i
    for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
}
_ORDINALS = {
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
    "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10", "eleventh": "11",
    "twelfth": "12", "freshman": "9", "sophomore": "10", "junior": "11", "senior": "12",
    "kindergarten": "K", "pre-k": "pre-K",
}  # fmt: skip
NUM_WORD = (
    r"\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|"
    r"four|five|six|seven|eight|nine))?|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|one|two|three|four|five|six|seven|eight|nine|ten"
)


def number(word: str) -> str:
    """seven → 7, twenty-seven → 27, 4th → 4, sophomore → 10; digits as they are."""
    w = word.lower().strip()
    if w in _ORDINALS:
        return _ORDINALS[w]
    if w in _NUMBERS:
        return str(_NUMBERS[w])
    parts = re.split(r"[- ]", w)
    if parts[0] in _TENS:
        return str(_TENS[parts[0]] + (_NUMBERS.get(parts[1], 0) if len(parts) > 1 else 0))
    return re.sub(r"(?:st|nd|rd|th)$", "", w)


_UNIT_WORD = r"one|two|three|four|five|six|seven|eight|nine"
_TEEN_WORD = r"ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
# A year said in words: "nineteen ninety-two", "nineteen oh five", "two thousand and one",
# "twenty twenty-one".
YEAR_WORDS = (
    rf"(?:nineteen|twenty)[- ](?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    rf"(?:[- ](?:{_UNIT_WORD}))?|{_TEEN_WORD}|(?:oh|o)[- ](?:{_UNIT_WORD}))|"
    rf"two thousand(?: and)?(?: (?:{_TEEN_WORD}|{_UNIT_WORD}))?"
)


def year_from_words(said: str) -> str:
    """nineteen ninety-two → 1992, two thousand and one → 2001; digits as they are."""
    w = said.lower().strip()
    if m := re.fullmatch(r"two thousand(?: and)?(?: (?P<r>.+))?", w):
        return str(2000 + int(number(m.group("r")) if m.group("r") else 0))
    if m := re.fullmatch(r"(?P<c>nineteen|twenty)[- ](?:(?:oh|o)[- ])?(?P<r>.+)", w):
        return str((19 if m.group("c") == "nineteen" else 20) * 100 + int(number(m.group("r"))))
    return said


def _third(verb: str) -> str:
    v = verb.lower()
    special = {
        "am": "is", "'m": "is", "have": "has", "'ve": "has", "do": "does", "go": "goes",
        "don't": "doesn't", "haven't": "hasn't", "'d": "would", "'ll": "will",
    }  # fmt: skip
    if v in special:
        return special[v]
    if v in _MODAL or v in PAST_VERBS or v.endswith("ed") or not v.isalpha():
        return verb
    if v.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if v.endswith("y") and len(v) > 2 and v[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# A clause that goes on from "I" without saying it: "(I live in Denver and) work at Google"
BARE_VERB_EN = re.compile(
    r"^(?P<adv>(?:also|still|usually|now|just|really|mostly|often|sometimes|currently) )?"
    r"(?P<verb>work|live|drink|eat|play|study|teach|drive|love|like|hate|prefer|own|speak|"
    r"volunteer|coach|attend|stay|started|moved|joined|got|quit|left|switched|finished|"
    r"bought|adopted|married)\b",
    re.IGNORECASE,
)


def third_person_en(clause: str) -> str:
    """I'm allergic to peanuts → User is allergic to peanuts; my dog is called Max → User's dog
    is called Max; I never eat pork → User never eats pork."""
    text = clean_value(clause)
    m = re.match(rf"^(?:i'm|im)\b|^i(?:'ve|'d|'ll)?\s+(?P<adv>{ADV})(?P<verb>[\w']+)", text, I_)
    if re.match(r"^(?:i'm|im)\b", text, I_):
        text = "User is" + text[text.index("m") + 1 :]
    elif re.match(r"^i've\b", text, I_):
        text = "User has" + text[4:]
    elif m and m.group("verb"):
        adv, verb = m.group("adv"), _third(m.group("verb"))
        if re.search(r"\bdo\s+$", adv, I_):  # "I do love sushi": the do carries the person
            adv, verb = re.sub(r"\bdo\s+$", "does ", adv, flags=I_), m.group("verb")
        text = "User " + adv + verb + text[m.end() :]
    elif re.match(r"^(?:my|our)\b", text, I_):
        text = "User's" + text[text.index(" ") :]
    elif re.match(r"^we(?:'re| are)\b", text, I_):
        text = "User and family are" + re.sub(r"^we(?:'re| are)", "", text, flags=I_)
    elif re.match(r"^we(?:'ve| have)\b", text, I_):
        text = "User and family have" + re.sub(r"^we(?:'ve| have)", "", text, flags=I_)
    elif re.match(r"^we\b", text, I_):
        text = "User and family" + text[2:]
    elif bare := BARE_VERB_EN.match(text):  # "I live in Denver and work at Google": the I before
        verb = bare.group("verb").lower()  # ("Started a new job at Kaiser": said as is)
        told = verb if verb in PAST_VERBS or verb.endswith("ed") else _third(verb)
        text = "User " + (bare.group("adv") or "").lower() + told + text[bare.end() :]
    text = re.sub(r"\b(?:my|our)\b", "their", text, flags=I_)
    text = re.sub(r"\bi'm\b", "they're", text, flags=I_)
    text = re.sub(r"\b(?:me|myself)\b", "them", text, flags=I_)
    text = re.sub(r"\bi\b", "they", text, flags=I_)
    return text if text.startswith("User") else "User: " + text


def object_key(value: str) -> str | None:
    value = clean_value(value)
    value = re.split(
        r"\s+(?:over|rather than|instead of|more than|than|but|because|since|when|if|so|"
        r"especially|like|such as)\s+",
        value,
        maxsplit=1,
        flags=I_,
    )[0]
    value = re.sub(r"\s+(?:stuff|things|ones)$", "", value, flags=I_)
    # "not allergic to penicillin after all": how it is said, not what
    value = re.sub(
        r"(?:\s+(?:after all|any ?more|at all|either|too|as well|now|these days|again|"
        r"for real|actually))+$",
        "",
        value,
        flags=I_,
    )
    if (
        not value
        or value.lower() in PRONOUN_OBJECTS
        or re.match(r"^(?:what|which|who)\b", value, I_)
        # "I love this song": what is in front of the user now, not a lasting taste
        or re.match(r"^(?:this|that|these|those) (?!kind\b|sort\b|type\b)\w+$", value, I_)
    ):
        return None
    norm = normalize_object(value)
    return norm if norm and norm not in PRONOUN_OBJECTS else None


def first_name(value: str, words: int = 1) -> str:
    """The name at the start of a phrase: "Otis now, not Milo" → Otis."""
    value = re.split(
        r",|\bnot\b|\bbut\b|\band\b|\bsince\b|\bnow\b|\bthough\b", value, maxsplit=1, flags=I_
    )[0]
    return " ".join(clean_value(value).split()[:words])


def place(value: str) -> str:
    """A place or organisation as said, without trailing time words: "Denver last month" →
    Denver."""
    value = re.split(
        r"\s+(?:last|this|next|yesterday|today|tonight|tomorrow|in \d{4}|a few|two|three|since|"
        r"now|recently|anymore|any more|"
        r"these days|for (?:the )?(?:past|last)|for \w+ (?:years?|months?)|"
        r"in (?:the )?(?:spring|summer|fall|autumn|winter)|in (?:jan|feb|mar|apr|may|jun|jul|aug|"
        r"sep|oct|nov|dec)[a-z]*|with (?:my|our)|"
        r"for \w+|because|but|and|though|full[- ]time|part[- ]time|most days|after|before|when|"
        r"so|to be|once|until|over the \w+|a (?:while|bit|year|month) ago|"
        r"\w+ (?:years|months) ago|my (?:whole|entire) (?:adult )?life|all my life|forever|"
        r"ever since|since forever|on weekends|on weekdays|on the weekends?|"
        r"on (?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
        value,
        maxsplit=1,
        flags=I_,
    )[0]
    return clean_value(value)


# Of a relative (en_relatives). A job said by what one does for it: "drives a truck", "teaches
# math" (a role, not a hobby: only with a vehicle driven for hire or a subject taught).
DOES_FOR_WORK = re.compile(
    r"^(?:now )?(?P<v>drives|teaches) (?:an? )?(?P<x>school bus|city bus|garbage truck|"
    r"delivery truck|tow truck|truck|taxi|cab|bus|forklift|ambulance|"
    r"tractor|delivery van|math|maths|english|history|science|music|art|physics|chemistry|"
    r"biology|french|spanish|chinese|piano|yoga)"
    r"(?: (?:now|for a living|for work|part[- ]time|full[- ]time|for (?:the|a) (?:county|city|"
    r"school district|district|council|state|school|company|hospital)))*$",
    I_,
)

# "is in Year 8 at Smithton High", "'s in Yr 9 now", "is in Class 5", "is in JSS2": school years
# named by number as the UK, Australia, India or Nigeria do
YEAR_GRADE = re.compile(
    r"^(?:(?:is|'s) (?:now |already |actually )?(?:(?:in|into|going into|starting) )?|"
    r"(?:has |'s )?(?:just |now )?(?:moved up|gone up|went up|started|starts)(?: to| into)? )"
    r"(?P<g>(?:year|yr|grade|class|form|standard|std|primary|jss|sss|js|ss|pp|p|s) ?\d{1,2})"
    r"(?: (?:at|in) (?P<school>[A-Z][\w' .-]{2,40}?))?(?: now| this year| mate)?[!.]*$",
    re.IGNORECASE,
)

# A school year ("Year 10", "grade 4", "P5", "the fourth grade") where a place could stand.
SCHOOL_YEAR = re.compile(
    r"^(?:the )?(?:(?:year|yr|grade|class|form|standard|primary|jss|sss|pp|p|s|sec) ?\d{1,2}|"
    r"\w+ grade|kindergarten|middle school|high school)(?: now| this year)?$",
    re.IGNORECASE,
)

# A child moved to another school: "has been moved to Hillcrest (from this term)" (``p``: done
# to them, no home), "is switching to Dakota Collegiate after xmas break"
CHILD_MOVED = re.compile(
    r"^(?:(?P<p>(?:has been|'s been|was|got|is being|is getting) (?:moved|transferred|switched))"
    r"|(?:is |'s )?(?:switching|transferring|changing schools|moving schools)) (?:over )?to "
    r"(?P<x>(?-i:[A-Z])[\w'.-]*(?: (?-i:[A-Z])[\w'.-]*){0,3})"
    r"(?: (?:down|up) the road| nearby| across town)?"
    r"(?: (?:from|after|at|in|next|this|starting)(?: [\w' ]{2,30})?)?(?: now)?$",
    re.IGNORECASE,
)
SCHOOL_WORD = re.compile(
    r"\b(?:school|academy|primary|elementary|middle|high|prep|montessori|kindergarten|college|"
    r"collegiate|secondary|junior|grammar|preschool|daycare|nursery|scoil|gaelscoil|"
    r"col[aá]iste|kindy|creche)\b",
    re.IGNORECASE,
)


_ONE_OF = re.compile(r"\b(office|branch|site|store|shop|location|campus|depot|hospital)\b", I_)


# Everyday wordings said as the rules read them: Indian English "shifted to" (moved), Nigerian
# "clocked 7" (turned) and "I don leave GTBank" (left), "gone over to" (switched), "I'm at a
# startup called Fernleaf" (work at), "Started with Access Bank" (started at).
_SAID_AS = (
    (r"\bshifted (?:house )?to\b", "moved to"),
    (r"\bshifted house\b", "moved house"),
    (
        r"\bclocked (?=\d|one\b|two\b|three\b|four\b|five\b|six\b|seven\b|eight\b|nine\b|ten\b)",
        "turned ",
    ),
    (r"\b(?:gone|went) over to\b", "switched to"),
    (r"\bI think (?=my (?:new |all[- ]time )?favou?rite\b)", ""),  # a taste, not a guess
    (r"\bI don (?:leave|comot from)\b", "I left"),
    (
        r"\b(?:i'm|im|i am) (?:now )?(?:at|with) an? (?:\w+ )?"
        r"(?:startup|company|firm|agency|outfit) called\b",
        "I work at",
    ),
    (r"(?:^|(?<=[.!;] ))(?:so |and )?started (?:with|at) (?=(?-i:[A-Z]))", "I started at "),
    # "my girl is P5 now": a child, by the school year said of her
    (
        r"\bmy (?:(?P<g>girl)|boy)(?=(?:'s| is) (?:now )?(?:in )?(?:P\d|Primary \d|Year \d|"
        r"Grade \d|Class \d|Sec \d|JSS ?\d|SS ?\d|\d+(?:st|nd|rd|th) grade|kindergarten)\b)",
        lambda m: "my daughter" if m["g"] else "my son",
    ),
    # "Dis-Chem offered me a post in the same mall so I've been there since": taken up
    (
        r"\b(?P<e>(?-i:[A-Z])[\w&'-]*(?: (?-i:[A-Z])[\w&'-]*)*) offered me (?:a|the|their) "
        r"(?:post|job|position|role)\b(?=[^.!?]*\b(?:i've been there|i took it|i accepted|"
        r"i've started|i started|i joined)\b)",
        r"I started at \g<e>",
    ),
    # "Walgreens made me an offer I couldn't say no to. First shift there was today!"
    (
        r"\b(?P<e>(?-i:[A-Z])[\w&'-]*(?: (?-i:[A-Z])[\w&'-]*)*) made me an offer\b[^.!?]*"
        r"(?=[.!?]+\s*(?:my )?first (?:shift|day|week) (?:there )?(?:was|is))",
        r"I started at \g<e>",
    ),
)


_SINCE = re.compile(
    r",? since (?:the (?:start|end|beginning|middle) of |early |late |mid[- ]|last |this |"
    r"about |around )?(?:the )?(?:january|february|march|april|may|june|july|august|september|"
    r"october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|spring|summer|"
    r"autumn|fall|winter|christmas|easter|new year'?s?(?: day)?|week|month|year|term|semester|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|the holidays)"
    r"(?: (?:break|holidays|term|\d{4}))?\b(?=\s*(?:[,.!?;]|$|\s(?:btw|lol|haha|and|so)\b))",
    re.IGNORECASE,
)


def as_read_en(text: str) -> str:
    """An English message as the rules read it: "one" said for a noun named before it ("shut
    the London office so I've been moved to the Slough one": the Slough office), and "not
    allergic to …" with the user left unsaid after a comma (", not allergic to aspirin after
    all": I'm not)."""
    text = re.sub(r"(?<=[,;.!] )(?=not (?:actually )?allergic to\b)", "I'm ", text, flags=I_)
    for said, read in _SAID_AS:
        text = re.sub(said, read, text, flags=I_)
    # Filipino "na" / "lang" / "po" after a word (already, just); "I've been at Sainsbury's
    # since the start of March", "vegan since New Year's": when it began, not part of the
    # value, said as "now"
    text = re.sub(r"(?<=\w) (?:na|lang|po)\b(?=\s*(?:[,.!?]|since\b|$))", "", text, flags=I_)
    text = _SINCE.sub(lambda m: "" if text[: m.start()].lower().endswith(" now") else " now", text)
    # "During the week I'm based in Homa Bay for work", "My posting changed, I'm now based in
    # Migori": based there for work is where the user works, not lives
    # "They've moved me to the Gosford office": done to the user, as "I've been moved to"
    text = re.sub(
        r"\b(?:they|work|the company|my company|my boss|hr)(?:'ve| have| has)? (?:just )?"
        r"(?P<v>moved|transferred|posted|relocated) me to\b",
        lambda m: f"I've been {m['v']} to",
        text,
        flags=I_,
    )
    # "Boss has promoted me to senior accountant": done to the user, as "I got promoted to"
    text = re.sub(
        r"\b(?:(?:my|the|our) )?(?:boss|manager|company|supervisor|they|management|hr)"
        r"(?:'ve| have| has|'s)? (?:just |finally |officially )?promoted me to\b",
        "I got promoted to",
        text,
        flags=I_,
    )
    # "I accepted the offer and started at Shopify": the start is what is news
    text = re.sub(
        r"\bI (?:accepted|took) (?:the|an|their|a job|the job) offer(?: from [\w&.' -]+?)? and "
        r"(?=(?:started|joined)\b)",
        "I ",
        text,
        flags=I_,
    )
    work = re.search(
        r"\b(?:for work|posting|posted|deployment|deployed|transferred|office)\b", text, I_
    )
    if work:
        text = re.sub(
            r"(?:during the week,? )?\b(?:i'm|i am) (?:now |currently )?based in "
            r"(?P<x>(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)*)(?: for work)?",
            lambda m: f"I work in {m['x']}",
            text,
            flags=I_,
        )
    noun = _ONE_OF.search(text)
    if not noun:
        return text
    head, tail = text[: noun.end()], text[noun.end() :]
    return head + re.sub(
        r"\b(the|a|an) ((?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)*) one\b",
        lambda m: f"{m.group(1)} {m.group(2)} {noun.group(1).lower()}",
        tail,
    )
