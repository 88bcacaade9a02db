"""Whose clause is it? The English subject tracker.

A clause names its subject ("I …", "my son …", "our cat …") or leaves it out. Left out, it is
the relative or pet just named when it describes them ("My son Jake is 10 and plays soccer",
"Our kitten, Pickles, is 4 months old"), and otherwise the user, as chat writes it: "Been vegan
for years", "Moved to Chicago last fall", "Hate mornings", "…, living in Dallas".
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import NUM_WORD, PAST_VERBS
from jiyi.core.extraction.hit import Context
from jiyi.core.extraction.lexicon import PETS_EN

__all__ = ["GERUND_SUBJECT", "carry_name", "opening", "resolve_subject"]

I_ = re.IGNORECASE
_HAS_SUBJECT = re.compile(
    r"^(?:i|i'm|i've|i'd|i'll|im|we|we're|we've|we'll|my|our|me|the|a|an|this|that|these|those|"
    r"it|it's|there|here|he|she|they|his|her|their|you|your|what|how|why|when|where|who|which|"
    r"is|are|was|can|could|would|should|will|do|does|did|please|let's)\b",
    I_,
)
_THIRD_PERSON = re.compile(
    r"^(?:also |and )?(?:plays|loves|likes|hates|goes|works|lives|has|attends|studies|takes|is|"
    r"just turned|turned|turns|is turning|just started|started|got)\b",
    I_,
)
_BASE_VERB = (
    r"love|hate|like|prefer|live|work|have|need|want|eat|drink|take|do|play|run|teach|study|own|"
    r"go|use|adore|enjoy|can't|cannot|don't|never|always|usually|often|rarely|try|walk|bike|"
    r"cycle|swim|commute|drive|cook|bake|read|write|practice|train|volunteer|teach"
)
_STATE_WORD = (
    r"allergic|vegan|vegetarian|pescatarian|pregnant|married|single|divorced|engaged|retired|"
    r"no longer|not|between|currently|originally|from|based|a huge|a big|super|really|pretty|"
    r"kinda|kind of|sort of|obsessed|into|on|off|in|at|still|also|now|lactose|gluten|type|"
    r"(?:big|huge|massive|long-time|lifelong) fan|fan of"
)


# "-ed" words that open a noun phrase, not a clause: "Iced latte with oat milk".
_ADJECTIVES_ED = frozenset(
    "iced decaffeinated frosted mixed baked fried grilled steamed smoked".split()
)


_AFTER_DONE = {"mov": "moved", "start": "started", "leav": "left", "finish": "finished",
               "gett": "got", "tak": "taken"}  # fmt: skip
# A thing of the user's named without "my": "Birthday is March 3rd", "fav colour is teal".
_OWN_THING = re.compile(
    r"^(?:birthday|bday|b-day|hometown|home town|job title|major|usual order|go-to order)"
    r"(?:'s| is| =|:)\s|^(?:fav|fave|favou?rite) [a-z]+(?: [a-z]+)? (?:is|are|=|:)\s",
    I_,
)


# A bare count of children or pets in a list about the user: "one kid", "a dog named Ziggy",
# "two cats, Salt and Pepper" (the noun phrase alone, nothing done).
_HAD = re.compile(
    r"(?:a|an|one|two|three|four|five|[1-5]) (?:[a-z]+ )?(?:kids?|child|children|boys?|girls?|"
    r"sons?|daughters?|dogs?|cats?|puppy|puppies|kittens?|rabbits?|bunny|bunnies|hamsters?|"
    r"parrots?|budgies?|tortoises?|turtles?|lizards?|snakes?|fish|goldfish|guinea pigs?)"
    r"(?: (?:named|called) [A-Z][a-z]+(?: and [A-Z][a-z]+)?)?",
    I_,
)


# "learning Spanish wasn't as hard as I thought": the -ing phrase is the subject of its verb
GERUND_SUBJECT = re.compile(
    r"^\w+ing\b(?: [\w'-]+){0,3} (?:is|was|are|were|has been|had been)(?:n't| not)?\b", I_
)


def _lower(clause: str) -> str:
    return clause[:1].lower() + clause[1:]


def _user_clause(clause: str) -> str | None:
    """The clause with the user put back as its subject, or None when it is not the user's."""
    if _OWN_THING.match(clause):
        return "my " + _lower(clause)  # "Birthday is March 3rd", "fav colour is teal"
    if re.match(
        r"^[\w'-]+ (?:(?:is|are|was|were|has|have|had)(?:n't)?|'s|will|won't|can|can't|gets|got|"
        r"makes|seems)(?!\w)",
        clause,
        I_,
    ):
        return None  # "Work has been crazy busy lately": it has a subject of its own
    if re.match(r"^(?:just |please |you can )*call me\b", clause, I_):
        return None  # "just call me Liz": the name rule reads it as it is
    if re.match(
        r"^like (?:\d|a |an |one|two|three|four|five|six|seven|eight|nine|ten|half)", clause, I_
    ):
        return None  # "…, like three a day": a filler before an amount, no liking
    word = clause.split()[0].lower().strip(",:;") if clause.split() else ""
    if re.fullmatch(
        r"(?:happily |recently |newly )?(?:married|divorced|separated|widowed|"
        r"engaged|single)(?: with (?:\w+ )?kids?)?",
        clause,
        I_,
    ):
        return "I'm " + _lower(clause)  # "…, married, one kid": a status, not "I married"
    if word == "been":
        return "I've " + _lower(clause)  # "Been vegan for about 5 years now"
    if re.match(r"^(?:just|finally|recently|already|literally)\s+\w+", clause, I_):
        return "I " + _lower(clause)  # "Just got back from Japan"
    if word in PAST_VERBS or (word.endswith("ed") and len(word) > 3 and word not in _ADJECTIVES_ED):
        return "I " + _lower(clause)  # "Moved to Chicago last fall", "Had knee surgery"
    if re.match(
        rf"^(?:(?:now|still|also|currently|actually|mostly) )?(?:{_BASE_VERB})\b", clause, I_
    ):
        return "I " + _lower(clause)  # "Hate mornings honestly"
    if word.endswith("ing") and len(word) > 4 and not GERUND_SUBJECT.match(clause):
        return "I'm " + _lower(clause)  # "Planning to propose in June", "living in Dallas"
    if re.match(rf"^(?:{_STATE_WORD})\b", clause, I_):
        return "I'm " + _lower(clause)  # "No longer vegetarian btw", "Currently between apartments"
    return None


# A clause that opens with a name and its verb: "Mike retired from the post office in June".
_NAME_DID = re.compile(
    r"^(?P<n>(?-i:[A-Z][a-z]{2,})) (?:just |finally |recently |already )?(?:[a-z]+ed|got|went|"
    r"took|quit|left|is|was|has|had|'s)\b",
    I_,
)
# A parent (or grandparent) called by the kin word alone: "Mom moved", "daddy retired"
_PARENTS = "mom dad mum grandma grandpa nana granny daddy mummy mommy mama papa pops".split()
_NOT_NAMES = frozenset(
    "work life school things today tonight everything nothing something".split() + _PARENTS
)


def carry_name(clause: str, ctx: Context) -> str | None:
    """``clause`` said of the name the clause before opened with, when it opens with "he /
    she" and no relative was named ("Mike retired in June, so he drives a school bus now":
    he is Mike, whose Mike the write path finds by the stored name); else None. Remembers
    the name ``clause`` opens with for the next clause."""
    said = None
    he = re.match(r"^(?:he|she)(?='s\b|\s)", clause, I_)
    if he and ctx.name_en and not ctx.extra.get("family_en"):
        said = ctx.name_en + clause[he.end() :]
    m = _NAME_DID.match(clause)
    named = m and m.group("n").lower() not in _NOT_NAMES and m.group("n").lower() not in PETS_EN
    if m and named:
        ctx.name_en = m.group("n")
    elif not he and _HAS_SUBJECT.match(clause):
        ctx.name_en = None  # "…, I'm a nurse now": someone else is the subject now
    return said


def resolve_subject(clause: str, ctx: Context) -> tuple[str, bool]:
    """The clause as if its subject were said, and whether it was inherited from a relative."""
    clause = re.sub(
        r"^(?:now|then|so|and now),?\s+(?=i\b|i'm\b|we\b|my\b|he\b|she\b|he's\b|she's\b)",
        "",
        clause,
        flags=I_,
    )
    # "Mom moved to Sacramento", "Dad's a retired cop": a parent named by the kin word is the
    # user's, as "my mom" (never the user moving)
    clause = re.sub(
        rf"^(?=(?:{'|'.join(_PARENTS)})"
        r"(?:'s\b|\s+(?:is|was|has|had|moved|"
        r"lives|works|just|got|turned|loves|likes|hates|retired|started|still|finally|sold|"
        r"bought|quit|left|went|hung|called)\b))",
        "my ",
        clause,
        flags=I_,
    )
    # "my dad just confessed he's 62": what a relative owned up to about themselves
    clause = re.sub(
        r"^((?:my|our) [a-z]+) (?:just |finally )?(?:confessed|admitted|told (?:me|us)|revealed|"
        r"let slip)(?: that)? (?:he|she)(?:'s| is) ",
        r"\1 is ",
        clause,
        flags=I_,
    )
    # "lil bro quit Waffle House": the user's little brother
    clause = re.sub(
        r"^(?:lil|little|baby|big) (bro|sis)\b",
        lambda m: "my little brother" if m.group(1).lower() == "bro" else "my little sister",
        clause,
        flags=I_,
    )
    # "leo's eight now": a name typed lower-case before an age is still a name
    clause = re.sub(
        r"^(?!(?:it|that|there|here|what|who|he|she|everything|everyone|nobody|one|this|"
        r"mine|today|tomorrow|life|work|school)'s)([a-z]{2,})(?='s (?:just |already |now )?"
        rf"(?:turned |turning )?(?:{NUM_WORD})\b)",
        lambda m: m.group(1).capitalize(),
        clause,
    )
    # "Mom and Dad sold the house": both parents, as "my parents"
    clause = re.sub(
        r"^(?:my )?(?:mom|mum|mother) and (?:dad|father)\b|^(?:my )?(?:dad|father) and "
        r"(?:mom|mum|mother)\b",
        "my parents",
        clause,
        flags=I_,
    )
    # "Wife's name is Priya": a bare kin word with a possessive is the user's relative
    clause = re.sub(
        r"^(?:wife|husband|son|daughter|hubby|kids?|sister|brother|partner)(?='s (?:name|"
        r"birthday|job)\b)",
        lambda m: f"my {m.group(0).lower()}",
        clause,
        flags=I_,
    )
    clause = re.sub(r"^(he|she)s\b(?= \w)", r"\1's", clause, flags=I_)  # "hes driving for…"
    # Irish English "Niamh's after moving to Boston" / "I'm after starting a new job": has just
    clause = re.sub(
        r"(?P<be>'s|'m| is| am| has) after (?P<v>mov|start|leav|finish|gett|tak)(?:ing)\b",
        lambda m: (
            (" have just " if m["be"] in ("'m", " am") else " has just ")
            + _AFTER_DONE[m["v"].lower()]
        ),
        clause,
        flags=I_,
    )
    # "hubby's given up plumbing", "the missus works at Coles", "mum just moved to Perth": a
    # relative named the way one texts, without "my"
    clause = re.sub(
        r"^(?:the )?(hubby|hubs|wifey|missus)\b|^the (wife|husband|kids)(?= (?:is|has|got|just|"
        r"works|moved|started|quit|left)\b|'s\b)|^(mum|mom|dad)(?='s\b| (?:is|has|just|got|moved|"
        r"works|started|retired|quit|left)\b)",
        lambda m: f"my {(m.group(1) or m.group(2) or m.group(3)).lower()}",
        clause,
        flags=I_,
    )
    # "I think I might be coming down with something": hedged, but said of the user
    clause = re.sub(
        r"^(?:i think |i guess |i feel like |maybe )?i(?:'m| am)? (?:might|may|could) be "
        r"(?=coming down with|getting (?:sick|a cold|the flu)|sick|ill|pregnant|allergic|"
        r"lactose|gluten|coeliac|celiac)",
        "I'm ",
        clause,
        flags=I_,
    )
    clause = re.sub(r"^(?:i think|i guess|i feel like) (?=i'm\b|i am\b)", "", clause, flags=I_)
    clause = re.sub(r"^(?:i|we) both ", "I ", clause, flags=I_)  # "(my husband and) I both work"
    # "My husband and I both work in tech": what holds for both holds for the user
    clause = re.sub(
        r"^(?:my \w+(?: [A-Z][a-z]+)?|[A-Z][a-z]+) and (?:i|me) both ", "I ", clause, flags=I_
    )
    # "My wife and I are expecting our first baby": she is the one expecting
    clause = re.sub(
        r"^my (wife|girlfriend|fianc[ée]e) and (?:i|me) (?:are|'re) (?=expecting\b)",
        r"my \1 is ",
        clause,
        flags=I_,
    )
    # "Me and my partner split up": the two of them, as "my partner and I" would say
    clause = re.sub(r"^(?:me|i) and my (\w+) ", r"my \1 and I ", clause, flags=I_)
    # "My boyfriend and I live together in Brooklyn": the two of them are "we"
    clause = re.sub(
        r"^(?:my \w+(?: [A-Z][a-z]+)?|[A-Z][a-z]+) and (?:i|me) (?=live|moved|are|'re|have|got|"
        r"just|"
        r"run|own|started|opened|work|split|broke|separated)",
        "we ",
        clause,
        flags=I_,
    )
    # "…, living in Dallas with my wife and our two boys": a bare count of children is had
    clause = re.sub(
        r"^(?:my|our) (?=(?:two|three|four|five|\d) (?:boys|girls|kids|sons|daughters|children)$)",
        "I have ",
        clause,
        flags=I_,
    )
    breed = re.match(
        r"^(?:he|she|it)(?:'s| is) (?:actually |really )?(?:an? )?(?P<b>[a-z][a-z ]+?)"
        r"(?: mix| cross| mutt)?$",  # "an Australian shepherd mix": of that breed, mostly
        clause,
        I_,
    )
    if breed and not ctx.extra.get("family_en") and breed.group("b").lower() in PETS_EN:
        # "Sorry, he's a malamute, not a husky": said of the user's dog
        species = ctx.extra.get("pet_en", f"pet.{PETS_EN[breed.group('b').lower()]}").split(".")[1]
        article = "an" if breed.group("b")[:1].lower() in "aeiou" else "a"
        clause = f"my {species.replace('_', ' ')} is {article} {breed.group('b')}"
    if _HAD.fullmatch(clause) and not ctx.extra.get("pet_en"):
        clause = "I have " + _lower(clause)  # "…, one kid, a dog named Ziggy": had, as listed
    subject = ctx.extra.get("family_en")
    inherited = False
    if (animal := ctx.extra.get("pet_en")) and not re.match(r"^(?:i|we|my|our)\b", clause, I_):
        noun = animal.split(".")[1].replace("_", " ")  # "Our kitten, Pickles, is 4 months old"
        if re.fullmatch(r"[A-Z][a-z]+", clause):
            clause = f"my {noun} is called {clause}"
        elif re.match(r"^(?:is|'s|was|turned|just turned|goes by|has)\b", clause, I_):
            clause = f"my {noun} {clause}"
    elif subject and re.fullmatch(r"[A-Z][a-z]+", clause):
        clause = f"{subject} is called {clause}"  # "my daughter, Emma, is 5"
    if subject and _THIRD_PERSON.match(clause):
        clause, inherited = f"{subject} {re.sub(r'^(?:also |and )', '', clause, flags=I_)}", True
    elif subject:
        # "My son is called Leo and he's 7": he is the son.
        replaced = re.sub(r"^(?:he's|she's)\b", subject + " is", clause, flags=I_)
        replaced = re.sub(r"^(?:his|her)\b", subject + "'s", replaced, flags=I_)
        replaced = re.sub(r"^(?:he|she)\b", subject, replaced, flags=I_)
        inherited, clause = replaced != clause, replaced
    elif (
        ctx.extra.get("subject_en") == "i"
        and re.fullmatch(r"\d{1,2}", clause)
        and ctx.extra.get("named")
    ):
        clause = f"I'm {clause}"  # "I'm Jake, 34, …"
    elif (
        ctx.extra.get("subject_en") == "i"
        and re.match(r"^an? [a-z]", clause)
        and not re.search(r"\b(?:is|are|was)\b", clause)
    ):
        clause = "I'm " + clause  # "I'm Lena, a data analyst from Berlin"
    elif not _HAS_SUBJECT.match(clause) and ctx.extra.get("subject_en", "i") == "i":
        clause = _user_clause(re.sub(r"^(?:also|then|and)\s+", "", clause, flags=I_)) or clause
    if re.match(r"^(?:i|i'm|i've|i'd|im|we|we're|we've)\b", clause, I_):
        ctx.extra.pop("family_en", None)
        ctx.extra["subject_en"] = "i"
    return clause, inherited


_HEADING = re.compile(
    r"^(?:(?:quick|small|big|life|little|an?|some)\s+)?(?:update|news|psa|fyi)"
    r"(?:\s+(?:for you|on me|time))?\s*[:!-]+\s*",
    re.IGNORECASE,
)


def opening(clause: str) -> str:
    """The clause with what only opens it said plainly: a heading ("update for you: i've gone
    vegan"), "they've made me" (a title given: "they made me"), Irish and British "I've a"."""
    clause = _HEADING.sub("", clause, count=1) or clause
    clause = re.sub(
        r"^(they|the boss|my boss|management)(?:'ve| have) (?:just |finally )?(?=made me )",
        r"\1 ",
        clause,
        flags=re.IGNORECASE,
    )
    return re.sub(r"^(i|we)'ve (an?|two|three) ", r"\1 have \2 ", clause, count=1, flags=re.I)
