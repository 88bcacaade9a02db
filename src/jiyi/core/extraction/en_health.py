"""English rules for the user's health: allergies, conditions, medication, intolerances.

Same slots as the Chinese rules: "I'm allergic to peanuts" and "I have a peanut allergy" both
land in ``health.allergy.peanut``; "I have high blood pressure" and "I'm hypertensive" in
``health.condition.hypertension``.
"""

from __future__ import annotations

import re

from jiyi.core.doses import dose_free
from jiyi.core.extraction.en_common import IM, SEP, object_key, third_person_en
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_health import (
    CONDITION_RE,
    CONDITIONS,
    DRUG_RE_EN,
    drug_named_before,
    named_drug,
)
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["health"]

F = MemoryKind.FACT
I_ = re.IGNORECASE
_SEVERITY = (
    r"(?:severe|serious|mild|slight|bad|deadly|life-threatening|minor|major|bit of an?|an?|the)\s+"
)
_NEGATED = re.compile(
    r"\b(?:not|no longer|don't have|do not have|cured|anymore|any more|grew out of|outgrew|"
    r"used to(?: be)?)\b",  # "I used to be allergic to eggs as a kid": not any more
    I_,
)
# A subject other than the user before "(is) allergic": "Emma's best friend is", "she's"
_SOMEONE_IS = re.compile(
    r"(?:^|\s)(?!(?:i|we)\s)[\w'-]+ (?:is|are|was|were|has been|have been)\s*$|"
    r"(?:^|\s)(?!(?:it's|we're)\b)[\w-]+'(?:s|re)\s*$",
    I_,
)
# When an allergy was had ("as a kid"): no part of the allergen
_AS_A_CHILD = re.compile(
    r"\s+(?:as an? (?:kid|child|baby|toddler|teen|teenager)|when i was (?:little|young|small|"
    r"an? (?:kid|child|baby))|growing up)$",
    I_,
)


# "it's not eggs I'm allergic to": the allergen denied first; "it's soy" may follow
_NOT_CLEFT = re.compile(
    r"^(?:but |so |actually |oh )?it's not (?:actually |really )?(?P<x>[\w' -]{2,30}?) "
    r"(?:that )?(?:i'm|i am) allergic to$",
    re.IGNORECASE,
)
# After a denied allergen: "it's soy" / "it was soy all along" names the real one
_REAL_ONE = re.compile(
    r"^(?:but |so )?(?:it's|it is|it was|the real (?:problem|culprit|allergy|allergen|issue|"
    r"trigger|one) (?:is|was)) (?:actually |really )?(?P<x>[\w' -]{2,30}?)"
    r"(?: all along| instead| the whole time| all this time)?$",
    re.IGNORECASE,
)


# "(doc says) peanuts came back clean" / "the penicillin test was negative"
_TESTED_CLEAN = re.compile(
    r"^(?:.{0,40}?\b(?:says?|said|shows?|showed|confirmed) (?:that )?)?(?:the |my )?"
    r"(?P<x>[\w' -]{2,25}?)(?: (?:test|panel|result|results))? "
    r"(?:came back|tested|test(?:ed)? came back|(?:was|were|is|are) (?:all )?) ?"
    r"(?:totally |completely |all )?(?:clean|negative|clear)$",
    re.IGNORECASE,
)


def _allergy(c: str, ctx: Context) -> list[Hit]:
    clean = _TESTED_CLEAN.match(c)
    # "doc says peanuts came back clean": the test found no allergy to them
    if clean and _allergen_named(clean["x"]) and (o := object_key(x := clean_value(clean["x"]))):
        ctx.extra["allergy_not"] = o  # ("the real problem is crab": the one found instead)
        return [Hit(F, f"health.allergy.{o}", "allergy.tested", correction=True, value="no",
                        content=f"User is not allergic to {x}")]  # fmt: skip
    if (fixed := ctx.extra.pop("allergy_not", None)) and (real := _REAL_ONE.match(c)):
        x = re.sub(r"\s+that\s+(?:i|we)\b.*$", "", real.group("x"), flags=I_)  # "… that I react to"
        named = _allergen_named(x) or bool(re.search(r"all along$", c, I_))
        if named and len(x.split()) <= 3 and (o := object_key(x)) and o != fixed:
            content = f"User is allergic to {clean_value(x)}"
            return [Hit(F, f"health.allergy.{o}", "allergy", correction=True, value="yes",
                        content=content)]  # fmt: skip
    cleft = re.match(
        r"^(?:(?:i'm |i am )?not (?P<no>[a-z][a-z -]{1,20}?),? "
        r"(?:pala |lang |tho |though |actually )?)?"
        r"(?:it's|its|it is|it was) (?:actually |really )?(?P<x>.+?) (?:that )?(?:(?:i'm|im|i am) "
        r"allergic to|i react to|i'm reacting to|i was reacting to|i reacted to)$",
        c,
        I_,
    )
    if cleft and re.search(r"react", cleft.group(0), I_) and not _allergen_named(cleft.group("x")):
        cleft = None  # "it's my job that I'm reacting to": no allergen
    denied: list[Hit] = []
    if cleft:  # "it's crab I'm allergic to": the same statement, said the plain way
        c = f"I'm allergic to {cleft.group('x')}"
        ctx.extra["cleft"] = "1"
        if cleft["no"] and (o := object_key(cleft["no"])):  # "not shrimp pala its crab …"
            said = f"User is not allergic to {clean_value(cleft['no'])}"
            denied = [Hit(F, f"health.allergy.{o}", "allergy", correction=True, value="no",
                          content=said)]  # fmt: skip
    # "I have allergy to dust" / "allergy against walnuts": an allergy said as a noun
    c = re.sub(
        r"^i (?:have|got|'ve got|have got) (?:an? |bad |severe |serious )?allerg(?:y|ies) "
        r"(?:to|against|for|from|with) ",
        "I'm allergic to ",
        c,
        flags=I_,
    )
    m = (
        re.search(
            r"\b(?P<neg>not |no longer |n't |never been |never )?(?:severely |very |mildly |"
            r"extremely |deathly |"
            r"a bit |slightly |a little |super |highly )?allergic to (?P<x>.+)$",
            c,
            I_,
        )
        or re.search(
            rf"\b(?:i have|i've got|i've|i got|"
            rf"i suffer from) (?:{_SEVERITY})*(?P<x>[\w -]+?) allerg(?:y|ies)\b"
            # ("got my results back from the allergy clinic": a visit, no allergy)
            r"(?! (?:clinic|test|testing|tests|results?|panel|specialist|doctor|appointment))"
            r"(?P<neg>)",
            c,
            I_,
        )
        or re.search(
            r"(?:^|\bmy )allerg(?:y|ies) (?:is|are) (?:actually |really )?(?:to )?"
            r"(?!why\b|what\b|how\b|the reason\b|because\b)(?P<x>.+)(?P<neg>)$",
            c,
            I_,
        )
    )
    if m and _SOMEONE_IS.search(c[: m.start()]):
        return []  # "Emma's best friend is allergic to dairy": someone else's allergy
    if not m:
        m = re.match(
            r"^(?P<x>[\w -]{2,25}?) (?:makes|make|gives|give) me (?:break out in hives|hives|"
            r"a rash|"
            r"break out|swell up|itchy|an allergic reaction)\b(?P<neg>)",
            c,
            I_,
        )
        if m:
            ctx.extra["cleft"] = "1"  # said by its reaction: the content says it plainly
    if not m:
        return []
    neg = bool(m.group("neg")) or bool(_NEGATED.search(c))
    said = re.sub(r"\s+(?:anymore|any more|now|too|as well|though)$", "", m.group("x"), flags=I_)
    if _AS_A_CHILD.search(said):  # "I was allergic to milk as a baby": then, not now
        said, neg = _AS_A_CHILD.sub("", said), True
    parts = [re.sub(rf"^(?:{_SEVERITY})+", "", p, flags=I_) for p in SEP.split(said)]
    was_cleft = bool(ctx.extra.pop("cleft", None))
    several = len(parts) > 1 or was_cleft
    word = "not allergic" if neg else "allergic"
    if m.re.pattern.startswith(r"\b(?P<neg>") and not neg and not was_cleft:
        # "I'm allergic to peanuts, shellfish and kiwi": the clauses after a comma go on the list
        ctx.extra["list_en"] = c[: m.start("x")]
    if neg and len(parts) == 1 and (o := object_key(parts[0])):
        ctx.extra["allergy_not"] = o  # "…, it was soy all along" may name the real one
    hits = [
        Hit(F, f"health.allergy.{o}", "allergy", correction=neg, value="no" if neg else "yes",
            content=f"User is {word} to {clean_value(part)}" if several else None)
        for part in parts
        if (o := object_key(part))
    ]  # fmt: skip
    if hits:
        ctx.extra["last_obj"] = hits[-1].topic.rsplit(".", 1)[1]
        ctx.extra["last_word"] = clean_value(parts[-1])
    return denied + hits if hits else hits


def _switched(c: str, before: str | None) -> list[Hit]:
    """ "My doctor switched me from metformin to Januvia" / "I stopped taking Zoloft": the old
    medicine is no longer taken (its own slot set to "no") and the new one is."""
    m = re.search(
        r"\b(?:switched|moved|changed|put) (?:me |over )?from (?P<a>[\w -]+?) (?:to|"
        r"onto) (?P<b>[\w -]+)$|"
        rf"^{IM} (?:now )?(?:on|taking) (?P<b2>[\w -]+?) (?:instead of|"
        rf"rather than) (?P<a2>[\w -]+)$|"
        r"^i(?:'ve| have)? (?:stopped|quit) taking (?P<a3>[\w -]+?)(?: now)?$|"
        rf"^{IM} (?:off|no longer on|not on|no longer taking) (?P<a4>[\w -]+?)(?: now|"
        rf" any ?more)?$|"
        # "doc took me off the metformin last week"
        r"\b(?:took|taken|taking|takes) me off (?:of )?(?:the |my )?(?P<a5>[\w-]+(?: [\w-]+)?)\b|"
        # "Doctor changed my maintenance to losartan (because the amlodipine …)"
        r"\b(?:changed|switched|moved) (?:my )?(?:maintenance|meds|medication|medicine|"
        r"prescription|pills|tablets)(?: for [\w ]+?)? (?:to|over to|onto) (?P<b3>[\w-]+)",
        c,
        I_,
    )
    if not m:
        return []
    old = m.group("a") or m.group("a2") or m.group("a3") or m.group("a4") or m.group("a5")
    new = m.group("b") or m.group("b2") or m.group("b3")
    if m.group("a5"):
        old = named_drug(old) or ""
    if m.group("b3"):  # the old medicine named after, or in a clause before
        rest = c[m.end() :]
        old = named_drug(rest) or before or ""
        n = object_key(new) if new and DRUG_RE_EN.search(new) else None
        if not old and n:
            text = f"User takes {new} now"
            return [Hit(F, f"health.medication.{n}", "medication.switched", value="yes",
                        correction=True, content=text)]  # fmt: skip
    if not old or not DRUG_RE_EN.search(old) or (new and not DRUG_RE_EN.search(new)):
        return []
    hits = []
    if o := object_key(re.sub(r"^(?:my|the)\s+", "", old, flags=I_)):
        hits.append(Hit(F, f"health.medication.{o}", "medication.stopped", value="no",
                        correction=True, content=f"User no longer takes {old}"))  # fmt: skip
    if new and (n := object_key(new)):
        text = f"User takes {new} (instead of {old})"
        hits.append(Hit(F, f"health.medication.{n}", "medication.switched", value="yes",
                        correction=True, content=text))  # fmt: skip
    return hits


def _reaction(c: str, ctx: Context) -> list[Hit]:
    """ "I can't have dairy, it wrecks my stomach": the reason makes the avoided food a
    condition (an allergy when the reaction is one), replacing the plain dislike."""
    obj, word = ctx.extra.get("last_obj"), ctx.extra.get("last_word", "")
    if not obj or not re.match(
        r"^(?:it|they|that|those|this)(?:'s| is| are)? (?:\w+ )?(?:wrecks?|upsets?|kills?|"
        r"destroys?|"
        r"messes? (?:up|with)|hurts?|makes? me (?:sick|bloated|ill|throw up|nauseous|break out|"
        r"itch)|"
        r"gives? me (?:a )?(?:stomach ?ache|cramps|migraines?|headaches?|hives|a rash|heartburn|"
        r"reflux|diarrh(?:o)?ea)|bad for my (?:stomach|gut|skin))",
        c,
        I_,
    ):
        return []
    if re.search(r"hives|rash|break out|itch|swell", c, I_):
        return [Hit(F, f"health.allergy.{obj}", "allergy.after", value="yes",
                    content=f"User is allergic to {word}", drop=f"pref.{obj}")]  # fmt: skip
    return [Hit(F, f"health.condition.intolerance_{obj}", "intolerance.after", value="yes",
                content=f"User can't tolerate {word}", drop=f"pref.{obj}")]  # fmt: skip


# "it's sulfa drugs I react to" / "turns out it's shellfish that I'm allergic to": the
# allergen put first.
_CLEFT = re.compile(
    r"\b(?:it's|it is|it was) (?:actually |really )?(?P<x>[\w' -]{2,30}?) (?:that )?"
    r"(?:(?:i|i'm|i am) (?:really )?(?P<v>allergic|react|reacting|reacted) to|"
    # "it's sulfa drugs that set me off": what sets the reaction off
    r"(?P<w>sets?|set) me off|(?P<u>gives?|gave) me (?:the )?(?:hives|a rash|a reaction))$",
    re.IGNORECASE,
)
# What an allergy test found: "the one that showed up is mustard", "what came back positive
# was latex", "mustard is my real allergy".
_FOUND_EN = re.compile(
    r"^(?:the (?:one|thing|only one) (?:that|which) (?:showed up|came (?:back|up)(?: positive)?|"
    r"flagged)|what (?:showed up|came (?:back|up) positive)) (?:is|was) (?:actually )?"
    r"(?P<x>[a-z][a-z -]{1,30}?)(?: lol| haha)?$|"
    r"^(?P<y>[a-z][a-z -]{1,30}?) is (?:my|the) (?:real|actual|true) allergy$",
    re.IGNORECASE,
)
# What one reacts to as an allergy (a drug, or one of these), not "it's my job I react to".
_ALLERGENS = re.compile(
    r"\b(?:nuts?|peanuts?|shellfish|latex|nickel|pollen|dust|mold|gluten|dairy|eggs?|soy|"
    r"sesame|bee stings?|wasps?|sulfa|iodine|fish|strawberr(?:y|ies)|kiwis?|mangoe?s?|"
    r"pineapples?|bananas?|shrimps?|prawns?|crabs?|lobsters?|clams?|oysters?|mussels?|"
    r"almonds?|cashews?|walnuts?|pecans?|pistachios?|hazelnuts?|tree nuts|milk|wheat|"
    r"cat dander|cats|dogs|ragweed|grass|mustard|celery|sulfites|sulphites|penicillin)\b",
    re.IGNORECASE,
)


def _allergen_named(text: str) -> bool:
    """Does ``text`` name something one is allergic to: a drug or a known allergen?"""
    return bool(_ALLERGENS.search(text) or DRUG_RE_EN.search(text))


# "peanut allergy, had it since i was a kid": the allergy named as the message's first words
_NAMED_FIRST = re.compile(
    r"^(?:(?:a|my|severe|bad|mild) )*(?P<x>(?:(?!(?:i|we|have|has|had|got|is|am|are|was|"
    r"with|the|this|that|your|his|her)\b)[a-z][a-z-]* ?){1,3}?) allerg(?:y|ies)"
    r"(?: here| btw| fyi| since \w+(?: \w+){0,5}| for (?:life|years|\d+ years))?$",
    re.IGNORECASE,
)


def health(c: str, ctx: Context) -> list[Hit]:
    if not ctx.follows and (first := _NAMED_FIRST.match(c)) and _allergen_named(first["x"]):
        said = f"I'm allergic to {first['x']}"
        hits = _allergy(said, ctx)
        for h in hits:
            h.content = h.content or third_person_en(said)
        return hits
    if not_cleft := _NOT_CLEFT.match(c):
        return _allergy(f"I'm not allergic to {not_cleft.group('x')}", ctx)
    if (cleft := _CLEFT.search(c)) and (
        (cleft.group("v") or "").lower() == "allergic" or _allergen_named(cleft.group("x"))
    ):
        said = f"I'm allergic to {cleft.group('x')}"
        hits = _allergy(said, ctx)
        for h in hits:
            h.content = h.content or third_person_en(said)
        return hits
    if (found := _FOUND_EN.match(c)) and _allergen_named(x := found["x"] or found["y"]):
        # "The one that showed up is mustard(, so that's my real allergy)": what the test found
        said = f"I'm allergic to {x}"
        hits = _allergy(said, ctx)
        for h in hits:
            h.content, h.correction = h.content or third_person_en(said), True
        return hits
    if hits := _allergy(c, ctx):
        return hits
    if hits := _reaction(c, ctx):
        return hits
    if hits := _switched(c, drug_named_before(c, ctx.extra, "drug_en")):
        return hits
    m = re.search(
        rf"^(?:i|{IM}) (?:(?:have|take|am on|'m on|use|need|carry|always carry|started|"
        rf"started taking|just started|"
        rf"take daily)\s+)"
        r"(?:to take |taking )?(?P<x>.+?)(?: every (?:day|morning|night)| daily| twice a day|"
        r" for (?:my )?\w+.*)?$|"
        rf"^{IM} (?:on|taking) (?P<y>.+?)(?: (?:for|because) .+)?$|"
        # "My maintenance for blood pressure is amlodipine"
        r"^my (?:[\w ]{2,20} )?(?:maintenance|meds|medication|medicine|prescription|daily pill)"
        r"(?: for [\w ]+?)? "
        r"(?:is|are) (?P<z>.+)$",
        c,
        I_,
    )
    said = (m.group("x") or m.group("y") or m.group("z")) if m else ""
    if m and DRUG_RE_EN.search(said) and not CONDITION_RE.match(said):
        drug = dose_free(re.sub(r"^(?:some|my|a|an|the)\s+", "", said, flags=I_))
        if o := object_key(drug):
            hits = [Hit(F, f"health.medication.{o}", "medication", value="yes")]
            if (why := re.search(r"\bfor (?:my )?(?P<x>[a-z' ]+)$", c, I_)) and (
                cm := CONDITION_RE.fullmatch(why.group("x"))
            ):
                key, _, en = CONDITIONS[cm.group(0).lower()]  # "I take Zoloft for anxiety"
                hits.append(
                    Hit(F, f"health.{key}", "condition.for", value="yes", content=f"User {en}")
                )
            return hits
    if not CONDITION_RE.search(c) and (
        m := re.match(
            rf"^(?:{IM}|i have|i've got) (?:an? )?(?:mild |severe |"
            rf"slight )?(?P<x>[a-z]+) intoleran(?:t|ce)$",
            c,
            I_,
        )
    ):  # "i'm gluten intolerant": one slot per food the body does not take
        key = f"health.condition.intolerance_{m.group('x').lower()}"
        return [Hit(F, key, "intolerance", value="yes")]
    m = CONDITION_RE.search(c)
    if m and re.search(
        r"\b(?:been|currently) (?:dealing with|struggling with|fighting|battling)\b", c, I_
    ):
        m = None  # "Been dealing with insomnia for months": how things are lately, a state
    if m and re.search(r"\b(?:trying|want|hoping|plan) to (?:get|be|become)\b", c, I_):
        m = None  # "I'm trying to get pregnant": a wish and a state, not the condition
    if m and re.search(
        r"\b(?:all day|today|this morning|tonight|since (?:yesterday|this morning|last night))\b",
        c,
        I_,
    ):
        m = None  # "I've had a migraine all day": how the user is today, a state
    if m and re.search(r"\b(?:i|i'm|im|my|i've)\b|^we(?:'re| are) (?=expecting|pregnant)", c, I_):
        key, _, en = CONDITIONS[m.group(0).lower()]
        if _NEGATED.search(c) or re.search(
            r"\b(?:in remission|under control|went away|is gone)\b", c, I_
        ):
            return [
                Hit(
                    F,
                    f"health.{key}",
                    "condition",
                    content=f"User no longer {en}",
                    correction=True,
                    value="no",
                )
            ]
        return [Hit(F, f"health.{key}", "condition", content=f"User {en}", value="yes")]
    m = re.match(
        r"^(?:(?P<x>[\w -]{2,20}?) (?:gives|give) me (?:a )?(?P<s>stomach ?aches?|headaches?|"
        r"migraines?|hives|"
        r"a rash|heartburn|bloating|diarrh?ea|cramps)|i can't (?:digest|tolerate) (?P<y>.+))$",
        c,
        I_,
    )
    if m and (o := object_key(m.group("x") or m.group("y"))):
        return [Hit(F, f"health.condition.intolerance_{o}", "intolerance", value="yes")]
    return []
