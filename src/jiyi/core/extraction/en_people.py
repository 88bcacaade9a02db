"""English rules for the user's family and pets, with the subject carried across clauses.

"My son is called Leo and he's 7": 7 is the son's age; "We got a puppy, his name is Max":
Max is the dog. The last subject named is kept in :class:`Context` (``family_en``, ``pet_en``)
and a pronoun clause inherits it. What a clause says about the relative once found (age, job,
home, tastes…) is read by :mod:`jiyi.core.extraction.en_relatives`.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import DESC, NUM_WORD, number, third_person_en
from jiyi.core.extraction.en_relatives import attributes as _attributes
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import PETS_EN, RELATIONS_EN
from jiyi.core.extraction.lexicon_people import ADJ_EN, OTHERS_EN, PARTNERS_EN, words_re
from jiyi.core.models import MemoryKind

__all__ = ["family"]

F, P = MemoryKind.FACT, MemoryKind.PREFERENCE
I_ = re.IGNORECASE
_REL = "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
_PET = "|".join(sorted(map(re.escape, PETS_EN), key=len, reverse=True))
_DESC = DESC
_COUNT = r"(?:a|an|one|two|three|four|five|\d+|twin|a couple of|another)"
# "my son's in 3rd grade" is "my son is …"; "my son's name is …" a possessive.
# After "my son's", these nouns are his (a possessive); anything else means "my son is".
_OWNED = re.compile(
    r"^ (?:(?:new|best|old|favou?rite|first|last|little|school|class|birthday) )?(?:name|birthday|"
    r"bday|"
    r"school|teacher|class|job|work|office|wife|husband|partner|boyfriend|girlfriend|fiance|"
    r"friends?|"
    r"favou?rite|room|age|car|team|company|allergy|allergies|doctor|party|wedding|graduation|"
    r"recital|"
    r"game|kids?|son|daughter|mom|dad|family|house|place|phone|email|number|address|health|"
    r"condition|coach|boss|dog|cat|pet|toys?|bike|grades?|homework|nanny|daycare|diagnosis|"
    r"surgery)\b",
    re.IGNORECASE,
)
# Someone of theirs is not family: "my sister's boyfriend works at Apple".
_OTHER_PERSON = re.compile(
    rf"^'s (?:(?:{words_re(ADJ_EN)}) )?(?:{words_re(OTHERS_EN | PARTNERS_EN, plural=True)})",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(
    "I He She It They We You This That There Mom Dad Grandma Grandpa January February March "
    "April May June July August September October November December Today Tomorrow Family "
    "Everyone Everybody Both Home Work Life Things Everything Nothing".split()
)
_KIDS = {"boy": "son", "boys": "son", "girl": "daughter", "girls": "daughter"}


# "Mum called", "my dad rang", "(she's called Em now,) she insists": what they did or say,
# typed where a name could stand
_SAID_VERBS = frozenset(
    "called rang phoned texted messaged said says told came went left visited wrote emailed "
    "facetimed video-called replied answered asked insists agrees disagrees refuses knows "
    "thinks approves complains laughs cried cries objects".split()
)


def mentioned_en(c: str, ctx: Context) -> list[Hit]:
    """A request or question that names a relative ("Can you help me plan my son's 10th
    birthday party?"): who "he"/"she" is next, and an age its birthday gives away."""
    if m := re.search(rf"\bmy (?P<r>{_REL})\b", c, I_):
        ctx.extra["family_en"] = f"my {m.group('r').lower()}"
    b = re.search(rf"\bmy (?P<r>{_REL})'s (?P<n>\d{{1,2}})(?:st|nd|rd|th) birthday\b", c, I_)
    if not b or b.group("r").lower() not in RELATIONS_EN:
        return []
    rel = RELATIONS_EN[b.group("r").lower()]
    return [Hit(F, f"family.{rel}.age", "family.birthday_age", value=b.group("n"),
                content=f"User's {b.group('r').lower()} is turning {b.group('n')}")]  # fmt: skip


_FOUND_BY_EN = re.compile(
    r"^(?:the |our |my )?(?:vet|doctor|doc|dentist|groomer|shelter|breeder|dna test|test)"
    r"(?: \w+)? (?:said|says|figures|thinks|reckons|reckoned|thought|told (?:me|us)|guessed|"
    r"estimates|estimated)(?: that)? ",
    re.IGNORECASE,
)
_NAMED = re.compile(
    r"^(?P<n>[A-Z][a-z]+)(?P<rest>(?:'s|\s+is|\s+just turned|\s+turned|\s+is turning|"
    r"\s+(?:just |has |just )?started|\s+(?:just )?moved up (?:in)?to)\s.+?)!*$"
)
# A first name with a verb of where one lives or what one does for work.
_NAMED_DOES = re.compile(
    # ("Karen and the boys have moved over to Brisbane": whom she took along says nothing more)
    r"^(?P<n>[A-Z][a-z]+)(?: and (?:the (?:boys|girls|kids|children|family)|her (?:husband|kids|"
    r"family|boys|girls)|his (?:wife|kids|family|boys|girls)))?"
    r"(?P<rest>\s+(?:has |have |'s )?(?:just |finally |recently |now )?(?:moved(?! up)|relocated|"
    r"lives|works|is working|drives|teaches|got a job|started working|works as|is now working|"
    r"got herself a job|got himself a job)\s.+?)!*$"
)
_HEDGE = re.compile(r"\b(?:more like|closer to|nearer to|at least|probably) (?=\w)", I_)
_SCHOOL_NAME = re.compile(
    r"\b(?:school|elementary|primary|academy|high|middle|college|kindergarten|preschool|"
    r"montessori|daycare|nursery|prep)\b",
    I_,
)
_RESOLVED = (".job", ".home", ".employer", ".city")
_PRONOUN = re.compile(r"^(?:he|she)(?:'s|\s+is)\s(?P<rest>.+)$", I_)
_CHANGED = re.compile(
    r"\b(?:now|actually|really|turned|turning|started|moved up|more like|closer to)\b", I_
)
# An age said of a name as a plain fact ("Kiwi is twelve years old"): kept only for the pet
# or relative stored under that name (rule ``named.*``, pipeline/subjects.py), never guessed.
_AGED = re.compile(r"\bis (?:\d{1,2}|[a-z]+(?:-[a-z]+)?) (?:years?|yrs?|months?) old$", I_)


def _unnamed_relative(c: str, ctx: Context) -> list[Hit]:
    """A relative's age or school year said as a change, with a first name or a pronoun for
    the subject: "Theo's actually eight now", "Oops, Priya's in 11th grade, not 10th",
    "Correction, she's a junior now". The slot names nobody in particular
    (``family.unknown.age``, ``family.child.grade``) so reconciliation can match it to the
    one relative whose slot it fits."""
    # "nah Chloe's in Year 9 now mate": the words around the statement say nothing of it
    c = re.sub(
        r"^(?:nah|nope|no|yeah|yep|oh|so|well|ok|okay|lol|haha|update)[,:!.]*\s+", "", c, flags=I_
    )
    c = re.sub(r"\s+(?:mate|bro|man|dude|lol|haha|lmao|tbh|hun|babe)[!.]*$", "", c, flags=I_)
    # "kai's teacher moved him up to year 3!!": the child moved up, the teacher only did it
    c = re.sub(
        r"^(?P<n>[a-z]{2,12})'s (?:class )?(?:teacher|school|head ?teacher|head)s? (?:has |have )?"
        r"(?:moved|bumped|put) (?:him|her|them) up (?:a year |a grade )?(?:in)?to ",
        lambda m: m["n"][:1].upper() + m["n"][1:] + " moved up to ",
        c,
        flags=I_,
    )
    # "ellie's got a job as a nursery assistant now": a name typed in lower case, a new job
    c = re.sub(
        r"^(?P<n>(?!(?:she|he|it|that|there|what|who|everyone|someone)\b)[a-z]{3,12})(?:'s| has)? "
        r"got (?=a (?:new )?job\b)",
        lambda m: m["n"][:1].upper() + m["n"][1:] + " got ",
        c,
    )
    # "vet said mingming is more like 7 years old": what a vet or a test found, of a name the
    # user may type in lower case; "more like" / "closer to" hedge the number, not the change
    found = _FOUND_BY_EN.match(c)
    if found:
        c = c[found.end() :]
        c = c[:1].upper() + c[1:]
    hedged = _HEDGE.search(c)
    c = _HEDGE.sub("", c)
    c = re.sub(r"\s+(?:based on|judging by|going by|according to)\b.*$", "", c, flags=I_)
    if (d := _NAMED_DOES.match(c)) and d.group("n").lower() not in RELATIONS_EN:
        if d.group("n") in _NOT_NAMES:
            return []
        # "Emma moved to Boston", "Theo drives a cab now": kept only for the relative the
        # user stored under that name (pipeline/subjects.py), never guessed
        who, rest = d.group("n"), d.group("rest").strip()
        hits = [
            h
            for h in _attributes("family.unknown", "family", rest, ctx)
            if h.topic.endswith(_RESOLVED)
        ]
        for h in hits:
            h.correction, h.subject = True, who
            h.rule = "named." + h.topic.rsplit(".", 1)[1]
            h.content = f"{who} (user's family) {rest}"
        return hits
    changed = bool(_CHANGED.search(c) or ctx.extra.get("marked") or found or hedged)
    if not changed and not _AGED.search(c):
        return []
    if (m := _NAMED.match(c)) and m.group("n").lower() not in RELATIONS_EN:
        if m.group("n") in _NOT_NAMES:
            return []
        # (a school, employer or home of a name: kept only for the relative stored under it;
        # no job: "Bear is actually a golden retriever" is a breed)
        attrs: tuple[str, ...] = (".age", ".grade", ".school", ".employer", ".home", ".city")
        who, key = m.group("n"), "family.unknown"
        rest = re.sub(r"^'s", " is", m.group("rest")).strip()
        rest = re.sub(r"^(?:just )?moved up (?:in)?to ", "is in ", rest)  # a grade up
        # "Ranger is three now and still acts like a puppy": the age, not what goes on after
        rest = re.split(r",\s|\s+(?:and|but|so)\s", rest, maxsplit=1)[0]
    elif (
        changed
        and (p := _PRONOUN.match(c))
        and not ctx.extra.get("family_en")
        and not ctx.extra.get("pet_en")
    ):
        # only a school year: an age said of "she" could as well be a pet's
        who, key, attrs, rest = "", "family.child", (".grade",), "is " + p.group("rest")
    else:
        return []
    hits = [h for h in _attributes(key, "family", rest, ctx) if h.topic.endswith(attrs)]
    for h in hits:  # "Mason's at Venable Village Elementary now": a school, not an employer
        if h.topic.endswith(".employer") and _SCHOOL_NAME.search(h.value or ""):
            h.topic = h.topic.removesuffix(".employer") + ".school"
    said = re.sub(r"\b(?:actually|really) ", "", rest, flags=I_)
    for h in hits:
        h.subject = who or None
        h.rule = ("family.named_" if changed else "named.") + h.topic.rsplit(".", 1)[1]
        h.correction = changed
        h.content = f"{who} (user's family) {said}" if who else f"User's child {said}"
    return hits


# What follows a relative's name: a verb, an adverb, a pronoun said again ("my son Erik lives
# in Duluth", "my daughter kaylee she moved").
_AFTER_NAME = (
    r"is|just|turned|has|loves|likes|hates|was|goes|and|'s|lives|works|started|starts|studies|"
    r"got|gets|moved|switched|transferred|attends|plays|teaches|finally|retired|quit|left|"
    r"joined|landed|made|runs|owns|drives|does|doesn't|isn't|went|decided|wants|now|still|also|"
    r"recently|will|took|ended|became|graduated|she|he|is now|graduates|starts|enrolled|"
    r"switches|transfers|moves|works|teaches|studies|stays|lives"
)
_NOT_NAME = frozenset(re.sub(r"\\b|'s|is now", " ", _AFTER_NAME).replace("|", " ").split()) | {
    "really", "actually", "always", "never", "already", "officially", "basically", "literally",
    "who", "that", "the", "and", "had", "would", "can", "could", "did", "didn't", "wasn't",
    "won't", "can't", "was", "all", "too", "then", "said", "says", "told", "thinks", "also",
    "has", "got", "here", "there", "well", "kind", "sort", "lol", "though", "tho",
}  # fmt: skip


def family(c: str, ctx: Context) -> list[Hit]:
    if hits := _unnamed_relative(c, ctx):
        # "Ethan turned 7 yesterday!": someone the user has told about, a family member
        return hits
    if re.match(r"^i (?:now )?(?:have|'ve got|got) an? (?:new )?(?:boyfriend|girlfriend|partner)"
                r"\b.*\b(?:now|new)\b", c, I_):  # fmt: skip
        return []  # "I have a girlfriend now": no longer single (identity below)
    kids = re.match(
        r"^(?:i|we)(?: have|'ve got| have got) (?:a|an|one) (?P<n>\d{1,2}) ?(?:yo|y/o|year[- ]old|"
        rf"-year-old)\b(?! (?:{_PET})\b)",
        c,
        I_,
    )
    if kids:  # "we have a 2 yo and a newborn"
        ctx.extra["kids"] = "1"
        return [Hit(F, "family.child", "family.has", value="yes")]
    mom = re.match(
        r"^(?:i'm|i am) (?:a |an )?(?P<r>stay[- ]at[- ]home (?:mom|mum|dad|parent)|single (?:mom|"
        r"mum|dad|parent)|working (?:mom|mum|dad)|(?:mom|mum|dad)) of (?P<n>\w+)(?: kids|"
        r" children)?$",
        c,
        I_,
    )
    if mom:  # "I'm a stay at home mom of 3"
        hits = [
            Hit(
                F,
                "family.child",
                "family.has",
                value=number(mom.group("n")),
                content=f"User has {mom.group('n')} children",
            )
        ]
        if re.search(r"stay|working|single", mom.group("r"), I_):
            hits.insert(0, Hit(F, "work.role", "role.parent", value=mom.group("r").lower()))
        return hits
    m = re.match(
        rf"^(?:i|we)(?: have|'ve got| have got| got|'ve) (?P<n>{_COUNT}) {_DESC}"
        rf"(?P<rel>{_REL}|boys?|girls?)\b(?P<rest>.*)$",
        c,
        I_,
    ) or re.match(
        rf"^(?:i'm|i am) (?:a )?(?:proud )?(?:mom|mum|dad|mother|father|parent|mama) (?:of|to) "
        rf"(?P<n>{_COUNT}|{NUM_WORD})(?: (?P<rel>kids?|boys?|girls?|children|daughters?|"
        rf"sons?))?(?P<rest>)$",
        c,
        I_,
    )
    if m:
        word = (m.group("rel") or "kids").lower()
        rel = _KIDS.get(word) or RELATIONS_EN.get(word, "child")
        rest = m.group("rest").strip(" ,")
        ctx.extra["kids"] = "1"
        if n := re.match(r"^(?:named|called) (?P<x>[A-Z][a-z]+)", rest):
            return [Hit(F, f"family.{rel}.name", "family.has.name", value=n.group("x"))]
        count = number(m.group("n")) if m.group("n").lower() not in ("a", "an") else "1"
        return [Hit(F, f"family.{rel}", "family.has", value=count)]
    if ctx.extra.get("kids") and (
        k := re.match(
            rf"^(?P<name>[A-Z][a-z]+) (?:is|'s|just turned|turned) (?P<n>{NUM_WORD})\b", c
        )
    ):
        name = k.group("name")  # "I have two kids, Mia is 7 and Leo is 4"
        return [
            Hit(F, f"family.child_{name.lower()}.age", "family.kid", value=number(k.group("n")),
                content=f"User's child {name} is {number(k.group('n'))}", drop="family.child")
        ]  # fmt: skip
    m = re.match(rf"^(?i:my|our) (?i:{_DESC})(?P<rel>(?i:{_REL}))(?P<poss>'s)?\b(?P<rest>.*)$", c)
    if not m:
        return []
    rel_word = m.group("rel").lower()
    key, rest = f"family.{RELATIONS_EN[rel_word]}", m.group("rest")
    if m.group("poss") and not _OWNED.match(rest):
        # "my son's in 3rd grade" = my son is …; "mum's finally moved" = mum has moved
        has = re.match(
            r"^\s+(?:just |finally |recently |already |now )*(?:moved|gone|left|got|"
            r"been|started|retired|become|taken|quit|relocated|settled)\b",
            rest,
        )
        rest = (" has" if has else " is") + rest
    elif m.group("poss"):
        rest = "'s" + rest
        if _OTHER_PERSON.match(rest):
            return []
    ctx.extra["family_en"] = c[: m.end("rel")]
    ctx.extra.pop("pet_en", None)
    named = None
    if (
        a := re.match(
            rf"^,? (?P<name>[A-Z][a-z]+|(?i:[a-z]{{3,}}))(?=,? (?:{_AFTER_NAME})\b|,?$)", rest
        )
    ) and a["name"].lower() not in _NOT_NAME | _SAID_VERBS:
        # "my daughter Emma just turned 5", "my son Erik lives in Duluth", "my daughter
        # kaylee she moved to tulsa": the name apart, the statement read as of the relative
        named, rest = a.group("name"), rest[a.end() :]
        rest = re.sub(r"^,? (?:she|he|they)(?= )", "", rest, flags=I_)
    hits = _attributes(key, rel_word, rest.strip(" ,"), ctx)
    if named and not hits:  # a name said in passing is part of the statement it comes with
        hits = [Hit(F, f"{key}.name", "family.name", value=named)]
    for h in hits:
        h.content = h.content or third_person_en(c)
        if named and not h.topic.endswith(".name"):  # and a slot of it: whose Tom is this
            h.parts = {f"{key}.name": (named, f"User's {rel_word} is named {named}")}
    return hits
