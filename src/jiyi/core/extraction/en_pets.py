"""English rules for the user's pets: having one, its name, age, breed and health, renames.

One message about one pet is one memory (the first clause introduces it, the next ones add
detail); a later rename lands in the pet's name slot, or in the generic ``pet.pet.name`` when
only "it" or the old name is said, for reconciliation to match.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import DESC, NUM_WORD, first_name, number, third_person_en
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import PET_SPECIES, PETS_EN, RELATIONS_EN
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["pet", "renamed_next"]

F = MemoryKind.FACT
I_ = re.IGNORECASE
_PET = "|".join(sorted(map(re.escape, PETS_EN), key=len, reverse=True))
_COUNT = r"(?:a|an|one|two|three|four|five|\d+|twin|a couple of|another)"
_DESC = DESC


# ------------------------------------------------------------------ pets


def _pet_attributes(key: str, rest: str) -> list[Hit]:
    rest = re.sub(r"\s+(?:now|these days)$", "", rest.strip(), flags=I_)
    noun = key.split(".")[1].replace("_", " ")
    m = re.match(
        r"^(?:'s (?:actually |really |now )?(?:name is|name's|called|named)|is (?:actually |"
        r"really )?"
        r"called|is (?:actually |really )?named|,? named|,? called|"
        r"'s (?:new )?name is now|"
        r"is now called|is now named|'s been renamed(?: to)?|was renamed(?: to)?|goes by|"
        r"answers to|"
        r"has been renamed(?: to)?)\s+(?P<x>\S.*)$",
        rest,
        I_,
    )
    if m:
        name = first_name(m.group("x"))
        return [
            Hit(F, f"{key}.name", "pet.name", value=name, content=f"User's {noun} is called {name}")
        ]
    m = re.match(
        rf"^(?:is|just turned|turned|'s) (?:now |about |almost |actually |really |more like |"
        rf"closer to |probably )?(?P<x>{NUM_WORD})(?: and a half)?"
        r"(?: years? old| months? old| yrs?(?: old)?)?"
        # "turned three on sunday": when the birthday was
        r"(?: (?:on (?:mon|tues|wednes|thurs|fri|satur|sun)day|on (?:the )?\d{1,2}(?:st|nd|rd|th)?|"
        r"last (?:week|month|weekend)|this (?:week|month|weekend)|yesterday|today|"
        r"over the weekend))?$",
        rest,
        I_,
    )
    if m:
        age = number(m.group("x")) + (" months" if "month" in rest.lower() else "")
        return [Hit(F, f"{key}.age", "pet.age", value=age, content=f"User's {noun} is {age}")]
    m = re.match(rf"^is an? (?P<b>{_PET}) (?:named|called) (?P<n>[A-Z][a-z]+)$", rest)
    if m and m.group("b").lower() not in PET_SPECIES:  # "My dog is a labrador named Bear"
        name, breed = m.group("n"), m.group("b").lower()
        return [
            Hit(
                F, f"{key}.name", "pet.name", value=name, content=f"User's {noun} is called {name}"
            ),
            Hit(F, f"{key}.breed", "pet.breed", value=breed, content=f"User's {noun} is a {breed}"),
        ]
    m = re.match(
        r"^(?:has|'s got|has got|was diagnosed with)(?: an?)? ?(?P<x>[\w' -]*?(?:itis|osis|"
        r"dysplasia|"
        r"cancer|diabetes|allerg\w*|seizures|epilepsy|infection|worms|fleas|kidney disease|"
        r"heart disease|anxiety))$|^is (?P<y>diabetic|blind|deaf|sick|ill)$",
        rest,
        I_,
    )
    if m:
        return [
            Hit(F, f"{key}.health", "pet.health", value=clean_value(m.group("x") or m.group("y")))
        ]
    # "is actually a pit mix, not a lab": the breed, a mix of it, and the one it is not
    m = re.match(
        rf"^(?:is|'s) (?:(?:actually|really|in fact|more of|mostly|mainly) )*(?:an? )?(?P<x>{_PET})"
        rf"(?P<mix> mix| cross)?(?:,? not an? (?:{_PET})(?: mix)?)?"
        # "is a border collie, ten years old": the age said after the breed
        rf"(?:,? (?:and )?(?:she's |he's |she is |he is )?(?P<age>{NUM_WORD})"
        r"(?: years? old| yrs?(?: old)?| now)?)?$",
        rest,
        I_,
    )
    if m:
        breed = m.group("x").lower() + (m.group("mix") or "").lower()
        said = [
            Hit(F, f"{key}.breed", "pet.breed", value=breed, content=f"User's {noun} is a {breed}")
        ]
        if m.group("age"):
            age = number(m.group("age"))
            said.append(
                Hit(F, f"{key}.age", "pet.age", value=age, content=f"User's {noun} is {age}")
            )
        return said
    # "the guinea pig is Pickles now", "my tortoise is Gary": a capitalised word after "is"
    # names the pet (a breed or a species is lower case or in the pet lexicon)
    m = re.match(r"^(?:is|'s) (?:(?i:actually|really|now) )?(?P<x>[A-Z][a-z]+)$", rest)
    if m and m.group("x").lower() not in PETS_EN:
        name = m.group("x")
        return [
            Hit(F, f"{key}.name", "pet.name", value=name, content=f"User's {noun} is called {name}")
        ]
    return []


def _intro(ctx: Context, hit: Hit) -> list[Hit]:
    """One message about one pet is one memory: later clauses enrich the first one."""
    intro = ctx.extra.get("pet_intro_en")
    if intro is None:
        ctx.extra["pet_intro_en"], ctx.extra["pet_intro_en_value"] = hit.topic, hit.value or "yes"
        ctx.extra["pet_intro_en_text"] = hit.content or ""
        return [hit]
    more = re.sub(r"^User(?:'s [\w ]+?(?= is| has| was)| has a \w+)?\s*", "", hit.content or "")
    text = f"{ctx.extra['pet_intro_en_text']}, {more}".strip(", ")
    if hit.topic.endswith(".name"):
        merged = Hit(F, hit.topic, "pet.intro", value=hit.value, content=text)
        merged.drop = intro if intro != hit.topic else None
        if intro != hit.topic and ctx.extra["pet_intro_en_value"] != "yes":
            # "a rescue dog named Tucker, he's a pit bull mix": the breed a part of the name's
            merged.parts = {
                intro: (ctx.extra["pet_intro_en_value"], ctx.extra["pet_intro_en_text"])
            }
    else:
        merged = Hit(F, intro, "pet.intro", value=ctx.extra["pet_intro_en_value"], content=text)
        if hit.topic != intro and hit.value and not hit.topic.endswith(".about"):
            merged.parts = {hit.topic: (hit.value, hit.content or "")}
    ctx.extra["pet_intro_en"], ctx.extra["pet_intro_en_text"] = merged.topic, text
    ctx.extra["pet_intro_en_value"] = merged.value or "yes"
    return [merged]


# A relative's pet is the family's ("my son's goldfish"); "the <pet>" said by its owner is
# theirs ("the goldfish isn't Bubbles anymore").
_RELS = "|".join(sorted(RELATIONS_EN, key=len, reverse=True))
_OWNER = (
    rf"(?:(?:(?i:back home),? )?(?i:my|our) (?:(?i:{_RELS}|family|folks|parents)'s )?|(?i:the) )"
)
# Someone renamed it: "Owen renamed him Captain", "the kids started calling her Pickles".
_RENAME_EN = re.compile(
    r"^(?:(?:(?:we|i|they|the kids|the children|[a-z]+|my \w+|our \w+)(?:'ve| have| had)?|"
    r"we're|we are|they're|they are|everyone's|everyone is) "
    rf"(?:just |finally |officially |now |all )?)?(?:renamed|re-named|started calling|now calls?|"
    rf"calls?|changed|ended up calling|(?:'ve|have|are|'re) (?:been )?calling|calling|go with|"
    rf"(?:ended up |decided to |went and )(?:changing|change|changed|renaming|rename|renamed))"
    rf" (?:him|her|it|them|the (?:{_PET})|our (?:{_PET})|my (?:{_PET}))(?:'s name)?"
    r"(?: to)? (?P<x>[A-Z][a-z]+)(?: now| instead| these days| lately| from now on)?$",
    I_,
)
# "the kitten is officially Waffles now": the pet named by its kind, its name now
_IS_NOW_NAMED = re.compile(
    rf"^(?:ok |so |update:? )*(?:the|our|my) (?P<pet>{_PET}) (?:is|'s) "
    r"(?:(?:officially|now)(?: just)? (?:called |named )?(?P<x>[A-Z][a-z]+)(?: now)?|"
    r"(?:just )?(?:called |named )?(?P<y>[A-Z][a-z]+) now)$",
    I_,
)
# "the puppy is fine now": a state, no name
_NOT_A_NAME = frozenset(
    "fine ok okay good great better sick home back here there asleep sleeping huge big small "
    "tiny fat old young healthy happy sad gone missing lost spayed neutered fixed trained".split()
)
# "my cat pickle is a british shorthair": a name typed in lower case, before what it is
_LOWER_NAME = r"(?-i:[a-z]{3,12})(?=(?:'s| is| was)\b)"
_NOT_A_NAME |= frozenset(
    "also really just still always never usually now then who which that and but so she he "
    "it they literally actually honestly basically totally".split()
)
# "<pet> isn't Bubbles anymore": the old name is over, the new one follows.
_NOT_NAMED_EN = re.compile(
    rf"^{_OWNER}(?:{_DESC})(?P<pet>{_PET})(?:'s name)? (?:isn't|is not|'s not|is no longer) "
    r"(?:called |named )?(?P<old>[A-Z][a-z]+) ?(?:any ?more|now)?$",
    I_,
)


def _renamed(c: str, ctx: Context) -> list[Hit]:
    now = _IS_NOW_NAMED.match(c)
    name = (now["x"] or now["y"]) if now else ""
    if now and now["pet"].lower() in PETS_EN and name.lower() not in _NOT_A_NAME:
        key, noun = f"pet.{PETS_EN[now['pet'].lower()]}", now["pet"].lower()
        # a new name is a change in the world (value_changed), not a slip of the tongue
        return [Hit(F, f"{key}.name", "pet.renamed", value=name, correction=key == "pet.pet",
                    content=f"User's {noun} is now called {name}")]  # fmt: skip
    if m := _NOT_NAMED_EN.match(c):
        ctx.extra["pet_en"] = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_word_en"] = m.group("pet").lower()
        ctx.extra["renamed"] = m.group("old")
        return []
    m = _RENAME_EN.match(c)
    if not m or m.group("x").lower() in RELATIONS_EN:
        return []
    pet_word = re.search(rf"\b(?:{_PET})\b", c, I_)
    if pet_word and pet_word.group(0).lower() in PETS_EN:
        ctx.extra["pet_en"] = f"pet.{PETS_EN[pet_word.group(0).lower()]}"
        ctx.extra["pet_word_en"] = pet_word.group(0).lower()
    key = ctx.extra.get("pet_en") or "pet.pet"
    noun = ctx.extra.get("pet_word_en") or key.split(".")[1].replace("_", " ")
    name = m.group("x")
    return [Hit(F, f"{key}.name", "pet.renamed", value=name, correction=key == "pet.pet",
                content=f"User's {noun} is now called {name}")]  # fmt: skip


# "Bear is actually a golden retriever": a breed said of a name alone. Whose pet Bear is the
# write path decides from the user's stored pets (pipeline/subjects.py).
# "we did a DNA test and Luna's actually a malamute mix": what the user did first, and a mix
# of the breed is still the breed.
_NAMED_BREED = re.compile(
    r"^(?:(?:(?i:we|i) )?[^,]+? (?i:and) )?(?P<own>(?i:our|my) )?"
    rf"(?P<n>[A-Z][a-z]+)(?:'s| is) (?:(?i:actually|really|in fact|mostly|mainly) )*(?:(?i:an?) )?"
    rf"(?P<b>(?i:{_PET}))"
    r"(?P<mix> (?i:mix|cross))?$"
)


# "My dog Molly is a border collie, ten years old.": an age alone, after a clause about a pet
_BARE_AGE = re.compile(
    rf"^(?:and )?(?:about |around |maybe |probably )?(?P<n>{NUM_WORD})(?: and a half)? "
    r"(?:years?|yrs?) old(?: (?:as per|according to|per|says|going by) [\w ]+)?$",
    I_,
)


def pet(c: str, ctx: Context) -> list[Hit]:
    if hits := _renamed(c, ctx):
        return hits
    if (bare := _BARE_AGE.match(c)) and (key := ctx.extra.get("pet_en")):
        age, noun = number(bare.group("n")), key.split(".")[1].replace("_", " ")
        said = Hit(F, f"{key}.age", "pet.age", value=age, content=f"User's {noun} is {age}")
        return _intro(ctx, said) if ctx.extra.get("pet_intro_en") else [said]
    b = _NAMED_BREED.match(c)
    if b and b.group("n").lower() not in RELATIONS_EN and b.group("b").lower() not in PET_SPECIES:
        name, breed, mix = b.group("n"), b.group("b").lower(), b.group("mix") or ""
        ctx.extra["pet_en"] = "pet.pet"  # ("…, 3 years old": its age next)
        if b.group("own"):  # "Our Tommy is labrador mix": the user's pet, introduced
            return [Hit(F, "pet.pet.name", "pet.name", value=name,
                        content=f"User's pet {name} is a {breed}{mix.lower()}"),
                    Hit(F, "pet.pet.breed", "pet.breed", value=breed)]  # fmt: skip
        return [Hit(F, "pet.pet.breed", "pet.named_breed", value=breed, subject=name,
                    correction=True, content=f"{name} is a {breed}{mix.lower()}")]  # fmt: skip
    m = re.match(
        rf"^{_OWNER}(?i:{_DESC})(?P<pet>(?i:{_PET}))(?:,? (?P<name>[A-Z][a-z]+|{_LOWER_NAME}),?)?"
        r"(?P<rest>(?:'s)?\b.*)$",
        c,
    )
    if m and m.group("name") and m.group("name").lower() in _NOT_A_NAME:
        m = None
    if m and m.group("pet").lower() in PETS_EN:
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_en"] = key
        ctx.extra.pop("family_en", None)
        hits = _pet_attributes(key, m.group("rest"))
        if m.group("name") and any(h.topic.endswith((".age", ".breed")) for h in hits):
            # "My cat Luna is 3 years old": the name and the age, one memory holding both
            # slots (merge.fold_parts), so "Luna turned four" replaces the age, not the name
            noun, name = m.group("pet").lower(), m.group("name")
            said = Hit(
                F, f"{key}.name", "pet.name", value=name, content=f"User's {noun} is called {name}"
            )
            return [said, *(h for h in hits if not h.topic.endswith(".name"))]
        if m.group("name"):  # "our cat Mochi is 12"
            hits = [
                Hit(F, f"{key}.name", "pet.name", value=m.group("name"), content=third_person_en(c))
            ]
        if len(hits) > 1 and hits[0].topic.endswith(".name"):
            return hits  # "My dog is a labrador named Bear": name and breed, folded later
        for h in hits:
            h.content = third_person_en(c) if h.rule != "pet.breed" or len(hits) > 1 else h.content
        return [x for h in hits for x in _intro(ctx, h)][-1:] if hits else []
    m = re.match(
        rf"^(?:(?:last week|last month|yesterday|this week|this weekend|recently|then),? )?"
        rf"(?:(?:i|we)(?:'ve| have)? )?(?:just |recently |finally |also |now )?(?:have|has|own|got|"
        rf"adopted|rescued|"
        rf"brought home|'ve got|have got|picked up|got myself|"
        # (a breed no list knows, capitalised, before the kind: "a Boerboel puppy")
        rf"got ourselves) {_COUNT} {_DESC}"
        r"(?:(?-i:[A-Z][a-z]{3,}) (?=(?i:puppy|pup|kitten|dog|cat)\b))?"
        rf"(?P<pet>{_PET})(?:s)?\b(?: (?:puppy|pup|kitten|doggo))?"
        r"(?:,? (?:and )?(?:(?:we |i )?(?:named|called) (?:him |her |it )?)(?P<x>\S+))?"
        r"(?P<rest>.*)$",
        c,
        I_,
    )
    if m and not re.match(
        r"^\s*(?:meeting|class|report|test|at work|today|anniversary|"
        r"birthday|ticket|opportunity|rule|hour|partner|session|"
        r"results?|coat|jacket|tan)\b",
        m.group("rest"),
        I_,
    ):
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_en"] = key
        ctx.extra.pop("family_en", None)
        ctx.extra.pop("pet_intro_en", None)
        word = m.group("pet").lower()
        if m.group("x"):
            hit = Hit(F, f"{key}.name", "pet.intro", value=first_name(m.group("x")))
            if word not in PET_SPECIES:  # "a beagle named Biscuit": the breed, a part of it
                hit.parts = {f"{key}.breed": (word, f"User's {key.split('.')[1]} is a {word}")}
        elif word not in PET_SPECIES:
            hit = Hit(F, f"{key}.breed", "pet.intro", value=word)
        else:
            hit = Hit(F, key, "pet.intro", value="yes")
        hit.content = third_person_en(re.sub(r"\bgot (?:myself|ourselves)\b", "got", c, flags=I_))
        hits = _intro(ctx, hit)
        more = re.search(rf"\band (?:{_COUNT}) (?:{_DESC})(?P<pet>{_PET})\b", m.group("rest"), I_)
        if more and (other := f"pet.{PETS_EN[more.group('pet').lower()]}") != key:
            # "a golden named Cooper and two cats": a second animal, a memory of its own
            hits.append(
                Hit(F, other, "pet.also", value="yes", content=f"User has {more.group(0)[4:]}")
            )
        return hits
    m = re.match(
        r"^(?:(?i:we|i)(?:'ve|"
        r" have)? (?:just )?renamed (?P<a>[A-Z][a-z]+)(?: to)? (?P<x>[A-Z][a-z]+)|"
        r"(?P<b>[A-Z][a-z]+)(?:'s name is(?: actually| now| really)?| is actually called|"
        r" is actually named|"
        r"'s actually called| is now| 's now|"
        r" goes by| is called| is named| answers to) (?P<y>[A-Z][a-z]+)(?: now)?)$",
        c,
    )
    if m and m.group("b") and not re.search(r"\bnow\b|actually", c) and not ctx.extra.get("pet_en"):
        m = None  # "Max is called Max": only a change ("now", "actually") is a rename
    if m and (m.group("a") or m.group("b") or "").lower() not in RELATIONS_EN:
        # "We renamed Luna to Stella" / "Max goes by Maxwell now": people are rarely renamed
        key = f"{ctx.extra['pet_en']}.name" if ctx.extra.get("pet_en") else "pet.pet.name"
        name = m.group("x") or m.group("y")
        content = f"User's pet {m.group('a') or m.group('b')} is now called {name}"
        return [Hit(F, key, "pet.renamed", value=name, correction=True, content=content)]
    m = re.match(
        rf"^(?:we|i)(?:'ve| have)? (?:just )?renamed (?:our|my|"
        rf"the) (?:{_DESC})(?P<pet>{_PET})(?: to)?(?: (?P<x>\S+))?",
        c,
        I_,
    )
    if m:  # "We renamed our beagle, he goes by Waffles now"
        key = f"pet.{PETS_EN[m.group('pet').lower()]}"
        ctx.extra["pet_en"] = key
        if m.group("x"):
            return [Hit(F, key + ".name", "pet.rename", value=first_name(m.group("x")))]
        return []
    if m := re.match(r"^(?i:we|i)(?:'ve| have)? (?:just )?renamed (?P<a>[A-Z][a-z]+)$", c):
        ctx.extra["pet_en"] = (
            ctx.extra.get("pet_en") or "pet.pet"
        )  # "We renamed Kiwi, she's Mango now"
        ctx.extra["renamed"] = m.group("a")
        return []
    if ctx.extra.get("renamed") and (
        m := re.match(
            r"^(?:he|she|it|they)(?:'s| is|'re| are) (?:now )?(?P<x>[A-Z][a-z]+)(?: now)?$", c, I_
        )
    ):
        name = m.group("x")
        return [Hit(F, f"{ctx.extra['pet_en']}.name", "pet.renamed", value=name, correction=True,
                    content=f"User's pet is now called {name}")]  # fmt: skip
    named = re.match(
        r"^(?:and |so )?(?:i |we )?(?:named|called) (?:him|her|it) (?P<x>[A-Za-z]\S*)", c, I_
    )
    if ctx.extra.get("pet_en") and named:  # (got a new betta tho,) named him neptune
        hit = Hit(F, f"{ctx.extra['pet_en']}.name", "pet.name", value=first_name(named["x"]))
        hit.content = f"User's {ctx.extra['pet_en'].split('.')[1]} is called {hit.value}"
        return _intro(ctx, hit)[-1:]
    if ctx.extra.get("pet_en") and re.match(r"^(?:he|she|it|they|his|her|its|their)\b", c, I_):
        rest = re.sub(r"^(?:his|her|its|their) name(?:'s| is)", "'s name is", c, flags=I_)
        rest = re.sub(r"^(?:he|she|it|they)(?:'s| is|'re| are)", "is", rest, flags=I_)
        rest = re.sub(r"^(?:he|she|it|they) ", "", rest, flags=I_)
        hits = _pet_attributes(ctx.extra["pet_en"], rest)
        return [x for h in hits for x in _intro(ctx, h)][-1:] if hits else []
    return []


# "my kid renamed the cat, she's Miso now": a pet renamed by someone, its new name next
_RENAMED_THE = re.compile(rf"\brenamed (?:the|our|my) (?P<pet>{_PET})\b(?!.*\bto\b)", I_)
_NOW_CALLED = re.compile(
    r"^(?:lol |haha )?(?:she|he|it)(?:'s| is) (?:now )?(?:called |named )?(?P<x>[A-Z][a-z]+) now\b"
)


def renamed_next(c: str, ctx: Context) -> list[Hit]:
    """The new name of a pet renamed in the clause before ("my kid renamed the cat, she's
    Miso now"); marks a clause that renames without the name. [] otherwise."""
    if said := _RENAMED_THE.search(c):
        ctx.extra["renamed_pet_en"] = said["pet"].lower()
        return []
    word = ctx.extra.pop("renamed_pet_en", None)
    if word is None or not (now := _NOW_CALLED.match(c)) or word not in PETS_EN:
        return []
    key, name = f"pet.{PETS_EN[word]}", now["x"]
    return [Hit(F, f"{key}.name", "pet.renamed", value=name, correction=True,
                content=f"User's {word} is called {name}")]  # fmt: skip
