"""English changes said without the slot's usual verb: the new value of a known slot.

Each rule reads one way people report that something of theirs changed, and names the slot
the new value belongs to, so the old memory of that slot is superseded:

- a move said by the new home alone: "as of last week home is Boulder", "moved in with my
  girlfriend in Round Rock" → ``location.home``;
- a relative's move said by a new job there: "my brother took a job in Denver" →
  ``family.brother.city`` (one attribute with ``family.brother.home``);
- a child's birthday: "my girl turned nine" → ``family.daughter.age``; the user's: "had my
  birthday last week so thirty-four now" → ``identity.age``;
- a wedding: "we got married" → ``family.marital`` = married;
- a new school year: "sophomore year now" → ``education.stage``;
- a pet renamed: "we renamed the dog to Mochi", or "renamed the dog" then "he's Mochi now"
  → ``pet.dog.name``;
- work on one's own: "doing freelance design now", "freelancing as a translator" →
  ``work.role``.

Only the user's own change: a clause about someone else ("my friend got married") or a plan
("we're getting married") matches none of them.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import NUM_WORD, number, place
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import PETS_EN, RELATIONS_EN
from jiyi.core.models import MemoryKind

__all__ = ["changed"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

_CITY = r"(?P<x>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2})"
_NOT_CITY = frozenset("It This That Here There Home Now Me Us".split())
_TAIL = re.compile(r"[\s!.?~]*(?:\b(?:haha|lol|lmao)\b)?[^\w]*$", I_)
# What may come before "home is": a connective and when it started ("(as) of last week",
# "since this month", "this month": the clause arrives with "so as" / "and since" cut off).
_LEAD = (
    r"^(?:so |and |but |well |anyway )?(?:(?:(?:as )?of |since |starting |from )?"
    r"(?:last|this|the past) \w+,? |(?:(?:as )?of|since) [\w ]{2,20}?,? )?"
)
_HOME_IS = re.compile(
    _LEAD
    + r"(?:(?:my |our )?(?:new )?home(?: base)? is (?:now )?|"
    # "new home: Dayton" / "new address: Tacoma"
    + r"(?i:new (?:home|place|address|digs))(?: is)?: ?)"
    + _CITY
    + r"$"
)

_MOVED_IN = re.compile(
    r"^(?:(?:i|we)(?:'ve| have)? )?(?:just |finally |recently |officially )?moved in with "
    r"(?:my|our) [\w' -]{1,25}? (?:in|to|over in|out in|down in|up in) " + _CITY + r"$",
    I_,
)
# "got my own apartment in Lincoln": a place of one's own is the home now
_OWN_PLACE = re.compile(
    r"^(?:(?:i|we) )?(?:just |finally |recently )?(?:got|bought|rented|found|moved into) "
    r"(?:my own|our own|a new|a|an) (?:little )?(?:apartment|place|house|condo|flat|home|"
    r"townhouse)(?: of (?:my|our) own)? (?:in|out in|over in|down in|up in) "
    + _CITY
    + r"(?: last \w+| this \w+)?$",
    I_,
)
# "…then I get back to the new flat in Shawlands and the boiler's dead": the user's new home,
# said in passing (not "the new flat in Leeds" of someone else: the user comes back to it)
_NEW_PLACE_IN = re.compile(
    r"\b(?:(?:my|our) new|(?:get|got|come|came|go|went) back (?:in)?to (?:the|my|our) "
    r"new) (?:flat|apartment|place|house|home|condo) (?:in|out in|over in|down in|up in) "
    + f"(?-i:{_CITY})"
    + r"(?=\s+and\b|\s*$|,)",
    I_,
)
_REL = "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
_KIDS = {"boy": "son", "girl": "daughter"}
_RELATIVE_JOB = re.compile(
    rf"^my (?P<r>{_REL}) (?:just |finally |recently )?(?:took|got|landed|accepted|started) "
    r"(?:a|an|her|his) (?:new )?(?:job|position|role|offer) (?:in|out in|over in|down in|up in) "
    + _CITY
    + r"$",
)
_TURNED = re.compile(
    rf"^(?:my )?(?:little |oldest |youngest |eldest |older |younger )?(?P<r>boy|girl|{_REL}) "
    # "nana rosa turned ninety": the relative's name may follow the word for them
    r"(?:(?!just\b|finally\b)(?-i:[a-z]+) )?(?:just |finally )?turned "
    r"(?P<n>\d{1,3}|[a-z]+(?:-[a-z]+)?)\b",
    I_,
)
# "had my birthday last week so thirty-four now": the user's age, said after the birthday
_OWN_AGE = re.compile(
    r"^(?:i )?(?:just )?(?:had|celebrated) my (?:\w+ )?(?:birthday|bday|b-day)(?: [\w ]{0,20}?)?,?"
    rf" (?:so |and )?(?:i'm |i am |now )?(?P<n>{NUM_WORD})(?: now| already| years old)?$",
    I_,
)
_MARRIED = re.compile(
    r"^(?:(?:we|i)(?:'ve| have)? )?(?:just |finally |officially )?got (?:married|hitched)\b", I_
)
_YEAR_NOW = re.compile(
    r"^(?:(?:i'm|i am) (?:a )?)?(?:in (?:my )?)?(?P<x>freshman|sophomore|junior|senior) "
    r"year (?:now|already|started|this (?:fall|year|semester))\b",
    I_,
)
_FREELANCE = re.compile(
    r"^(?:(?:i'm|i am|i've been|i have been) )?(?:now |currently )?(?:doing|working) "
    r"(?P<x>freelance [a-z][a-z -]{2,30}?)(?: work)?(?: from home| full[- ]time| on my own)?"
    r"(?: now| these days| instead)?$|"
    r"^(?:(?:i'm|i am) )?(?:now )?freelancing as an? (?P<y>[a-z][a-z -]{2,30}?)(?: now)?$",
    I_,
)
_PET = "|".join(sorted(map(re.escape, PETS_EN), key=len, reverse=True))
_RENAMED = re.compile(
    rf"\brenam(?:ed|ing) (?:the|my|our|her|his) (?P<p>{_PET})(?: (?:to )?(?P<n>[A-Z][a-z]+))?$", I_
)
# "…renamed the heeler," "he's Mochi now" / "Rowdy is officially Biscuit now" (the old name)
_NOW_CALLED = re.compile(
    r"^(?:she|he|it|(?-i:[A-Z][a-z]+))(?:'s| is) (?:now |officially |called |named )*"
    r"(?P<n>(?-i:[A-Z][a-z]+))"
)


def _relative(word: str) -> str | None:
    w = word.lower()
    return _KIDS.get(w) or RELATIONS_EN.get(w)


def changed(c: str, ctx: Context) -> list[Hit]:
    """The new value of a slot a clause reports as changed; [] if it reports none."""
    c = _TAIL.sub("", c)
    for rule in (_home, _relative_move, _age, _marital, _school_year, _pet_name, _freelance):
        if hits := rule(c, ctx):
            return hits
    return []


def _home(c: str, ctx: Context) -> list[Hit]:
    m = _HOME_IS.match(c) or _MOVED_IN.match(c) or _OWN_PLACE.match(c) or _NEW_PLACE_IN.search(c)
    if not m or m.group("x").split()[0] in _NOT_CITY:
        return []
    where = place(m.group("x"))
    return [
        Hit(F, "location.home", "home.changed", value=where, correction=True,
            content=f"User lives in {where}")
    ]  # fmt: skip


def _relative_move(c: str, ctx: Context) -> list[Hit]:
    m = _RELATIVE_JOB.match(c)
    rel = _relative(m.group("r")) if m else None
    if not m or not rel or m.group("x").split()[0] in _NOT_CITY:
        return []
    where, said = place(m.group("x")), m.group("r").lower()
    ctx.extra["family_en"] = f"my {said}"  # "she moved out there" is theirs
    return [
        Hit(F, f"family.{rel}.city", "family.city.changed", value=where, correction=True,
            content=f"User's {said} moved to {where} for a job")
    ]  # fmt: skip


def _age(c: str, ctx: Context) -> list[Hit]:
    if (own := _OWN_AGE.match(c)) and (age := number(own.group("n"))).isdigit() and int(age) >= 5:
        return [Hit(F, "identity.age", "age.birthday", value=age, correction=True,
                    content=f"User is {own.group('n').lower()}")]  # fmt: skip
    m = _TURNED.match(c)
    rel = _relative(m.group("r")) if m else None
    if not m or not rel:
        return []
    age = number(m.group("n"))
    if not age.isdigit():
        return []
    said = {"son": "son", "daughter": "daughter"}.get(rel, m.group("r").lower())
    ctx.extra["family_en"] = f"my {said}"
    return [
        Hit(F, f"family.{rel}.age", "family.age.changed", value=age, correction=True,
            content=f"User's {said} is {m.group('n').lower()}")
    ]  # fmt: skip


def _marital(c: str, ctx: Context) -> list[Hit]:
    if not _MARRIED.match(c):
        return []
    return [
        Hit(F, "family.marital", "marital.changed", value="married", correction=True,
            content="User is married")
    ]  # fmt: skip


def _school_year(c: str, ctx: Context) -> list[Hit]:
    m = _YEAR_NOW.match(c)
    if not m:
        return []
    stage = m.group("x").lower()
    return [
        Hit(F, "education.stage", "school.stage.changed", value=stage, correction=True,
            content=f"User is a {stage}")
    ]  # fmt: skip


def _pet_name(c: str, ctx: Context) -> list[Hit]:
    if (m := _RENAMED.search(c)) is not None:
        key = f"pet.{PETS_EN[m.group('p').lower()]}"
        if not m.group("n"):
            ctx.extra["renamed_en"] = key  # "…renamed the cat, she's Miso now"
            return []
        name, noun = m.group("n"), m.group("p").lower()
    elif (key := ctx.extra.get("renamed_en", "")) and (m := _NOW_CALLED.match(c)):
        name, noun = m.group("n"), key.split(".", 1)[1]
    else:
        return []
    ctx.extra.pop("renamed_en", None)
    return [
        Hit(F, f"{key}.name", "pet.renamed", value=name, correction=True,
            content=f"User's {noun} is called {name}")
    ]  # fmt: skip


def _freelance(c: str, ctx: Context) -> list[Hit]:
    m = _FREELANCE.match(c)
    if not m:
        return []
    if m.group("x"):
        work = m.group("x").lower().strip()
        content = f"User works freelance now, doing {work.removeprefix('freelance ')}"
    else:
        work = f"freelance {m.group('y').lower().strip()}"
        content = f"User works as a {work}"
    # "Left Deloitte - doing freelance bookkeeping now": the new work is the whole job, its
    # employer the user, so it replaces both parts of "accountant at Deloitte"
    hit = Hit(F, "work.role", "work.freelance", value=work, correction=True, content=content,
              drop="work.employer")  # fmt: skip
    hit.parts = {"work.employer": ("self-employed", "User is self-employed")}
    return [hit]
