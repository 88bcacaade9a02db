"""What a clause means when it leaves its slot out: a subject called by name alone, a routine
given only its new time.

"Luna turned four last week", "Bear is actually a golden retriever": extraction is pure and
does not know whose Luna is, so such a candidate carries the name (``metadata["subject"]``)
and a generic slot (``family.unknown.age``, ``pet.pet.breed``). Before reconciliation the
write path gives it the slot of the one pet or relative of the user stored under that name
(``pet.cat.name`` = Luna → ``pet.cat.age``): found by the stored name, never by similarity.
"现在改成六点起了" (rule ``bare.time``) likewise takes the slot of the user's one routine
said with a clock time (and the verb, 起, when given); several such routines: nothing is
stored, as which one changed is unknowable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from jiyi.core.extraction.lexicon import PETS_ZH, RELATIONS_EN, RELATIONS_ZH
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.pronoun_names import FEMALE, MALE, s_is_has
from jiyi.core.slots import PARTS
from jiyi.core.text import STOPWORDS_EN, has_cjk

__all__ = [
    "SUBJECT",
    "name_led",
    "resolve_kin_side",
    "resolve_routine",
    "resolve_subject",
    "resolve_time",
]

SUBJECT = "subject"
_ACTIVE = SearchFilter(kinds=tuple(k for k in MemoryKind if k != MemoryKind.EPISODE))


def _names(stored: Iterable[MemoryItem]) -> dict[str, set[str]]:
    """Each subject (``pet.cat``, ``family.son``) with a stored name → its names, case-folded.

    A name said in passing ("My daughter Emma just turned 5" holds ``family.daughter.name``
    as a part) counts unless the subject's name is a memory of its own: that one is the
    current name ("My daughter's name is actually Emily" does not rewrite the age's part)."""
    own: dict[str, set[str]] = {}
    passing: dict[str, set[str]] = {}
    for m in stored:
        if not m.topic:
            continue
        for slot, value in {m.topic: m.value, **(m.metadata.get(PARTS) or {})}.items():
            area, _, attr = slot.partition(".")
            if area in ("pet", "family") and attr.endswith(".name") and attr.count(".") == 1:
                said = own if slot == m.topic else passing
                said.setdefault(slot.rsplit(".", 1)[0], set()).add(str(value).casefold())
    return {who: own.get(who) or passing.get(who) or set() for who in own.keys() | passing.keys()}


def _named(name: str, scope: Scope, store: MemoryStore) -> set[str]:
    """Subjects whose stored name slot holds ``name`` (see :func:`_names`)."""
    return {
        who for who, names in _names(store.list(scope, _ACTIVE)).items() if name.casefold() in names
    }


# Talk that only leads in before a name ("ok so", "big news,", "update:").
_LEAD = re.compile(
    r"^(?:(?:so|oh|ok|okay|well|actually|update|btw|fyi|lol|haha|omg|guess what|big news|"
    r"good news|news|anyway|hey|ugh|welp|yay|apparently|turns out|and|but|now)[,:!.]*\s+)*",
    re.IGNORECASE,
)
# What cannot follow a name that is the subject: a question to the assistant ("will you…"),
# another subject, both of them ("Emma and I").
_NOT_AFTER = re.compile(
    # ("Maisie's at big school now", "Niamh's after moving": is / has, not Niamh's thing)
    r"^(?:'s\b(?!\s+(?:after|at|now|an?|in|been|got|gone|just|finally|working|living|moved|started|"
    r"off|back|doing|going|turning|not|still|also|actually|mostly|\d))|"
    r"\s+(?:you|i|we|and|&|or|says|said|told|thinks|asked|wants me|is my|was my)\b|"
    r"\s+(?:is|was) (?:what|how|who|short for|just a nickname)\b)",
    re.IGNORECASE,
)


def name_led(messages: Sequence[Message], scope: Scope, store: MemoryStore) -> list[Message]:
    """The messages as the rules should read them: an English message or a later clause of it
    that opens with the name of exactly one stored relative ("kevin quit deloitte, hes at pwc
    now"; "Mum called, apparently otieno is now based in Eldoret") opens with who they are
    ("my brother Kevin quit deloitte, …"), so the rules for a relative read it; one
    that opens with a pet's name typed in lower case ("lola turned 6") has it capitalised, as
    the rules for a named pet expect. Extraction is pure and does not know whose Kevin or
    Lola is. The name stays; everything else is as said."""
    messages = [_done_to(m) for m in messages]
    firsts = {
        _opening(m.content[at:])[1]
        for m in messages
        if m.role == "user" and not has_cjk(m.content)
        for at in _starts(m.content)
    }
    if not firsts - STOPWORDS_EN - {""} and not firsts & {"he", "she"}:
        return list(messages)  # "I …", "my …", "so we …": no name first, nothing to look up
    holders: dict[str, set[str]] = {}
    for who, names in _names(store.list(scope, _ACTIVE)).items():
        for name in names:
            if who.startswith(("family.", "pet.")) and re.fullmatch(r"[a-z][a-z'-]+", name):
                holders.setdefault(name, set()).add(who)
    family = {name: next(iter(who)) for name, who in holders.items() if len(who) == 1}
    out = []
    for m in messages:
        said = m.content
        if m.role == "user" and not has_cjk(m.content):
            said = _pronoun_led(said, family)
            for at in reversed(_starts(m.content)):  # from the end: the places stay put
                said = said[:at] + (_led(said[at:], family) or said[at:])
        out.append(m.model_copy(update={"content": said}) if said != m.content else m)
    return out


# "We moved Cian to the Educate Together": done to the one named, as "Cian has been moved to".
_DONE_TO = re.compile(
    r"\b(?:we|I)(?:'ve| have)? (?:just |finally )?(?:moved|switched|transferred) "
    r"(?P<n>(?-i:[A-Z])[a-z]+) (?:over )?to (?:the )?(?=(?-i:[A-Z]))",
    re.IGNORECASE,
)


def _done_to(m: Message) -> Message:
    if m.role != "user" or has_cjk(m.content) or not _DONE_TO.search(m.content):
        return m
    said = _DONE_TO.sub(lambda n: f"{n['n']} has been moved to ", m.content)
    return m.model_copy(update={"content": said})


# Where a later clause starts ("Mum called this morning, apparently Otieno is now based in
# Eldoret"): after the mark that ends the clause before.
_LATER = re.compile(r"(?:[,.!?;:]+|\s[—–-]+)\s+|\s+and\s+(?=(?:he|she)(?:'s|\s+is)\s)", re.I)


def _starts(text: str) -> list[int]:
    """Where the message and each of its later clauses start."""
    return [0, *(m.end() for m in _LATER.finditer(text))]


# A later clause with "he" / "she" as its subject ("…, new school year, he's P5 now").
_PRONOUN = re.compile(r"(?P<p>he|she)(?P<be>'s| is)?\b(?!')", re.IGNORECASE)


def _pronoun_led(text: str, family: dict[str, str]) -> str:
    """``text`` with a later clause's "he" / "she" said as the one relative of that sex whom
    the message names before it ("you keep saying Ethan is P4 — he's P5 now": my son Ethan
    is P5 now); as it was when it names none or several, or another person first."""
    for start in _starts(text)[1:]:
        lead = _LEAD.match(text[start:])  # ("Turns out he's mostly boxer")
        at = start + (lead.end() if lead else 0)
        pronoun = _PRONOUN.match(text, at)
        if not pronoun:
            continue
        # ("Maisie's at big school now! She started at …": Maisie named, with her 's)
        before = {re.sub(r"'s$", "", w) for w in re.findall(r"[a-z][a-z'-]+", text[:at].casefold())}
        sex = MALE if pronoun["p"].lower() == "he" else FEMALE
        named = {
            name: who
            for name, who in family.items()
            if name in before
            and (who.startswith("pet.") or (who.startswith("family.") and who.split(".")[1] in sex))
        }
        if len(named) != 1 or before & _OTHERS:
            return text
        ((name, who),) = named.items()
        be = " is" if pronoun["be"] else ""
        if pronoun["be"] == "'s" and s_is_has(text[pronoun.end() :]):
            be = " has"  # "he's moved up to Year 10": has moved
        if who.startswith("pet."):  # "a DNA test for Tucker. Turns out he's mostly boxer"
            return text[:at] + name.capitalize() + be + text[pronoun.end() :]
        rel = next((w.replace("_", " ") for w, k in RELATIONS_EN.items() if k == who[7:]), None)
        if rel is None:
            return text
        said = f"my {rel} {name.capitalize()}{be}"
        return text[:at] + said + text[pronoun.end() :]
    return text


# Someone else named before the pronoun: "he" may be theirs.
_OTHERS = frozenset(
    "friend friends boss coworker colleague neighbor neighbour teacher doctor coach manager "
    "buddy roommate".split()
)


def _opening(text: str) -> tuple[int, str]:
    """Where the first word after talk that only leads in starts, and that word case-folded
    ("" when none)."""
    lead = _LEAD.match(text)
    start = lead.end() if lead else 0
    word = re.match(r"[A-Za-z][A-Za-z-]*(?:'(?!s\b)[A-Za-z-]+)*", text[start:])  # Niamh('s)
    return start, word.group(0).casefold() if word else ""


def _led(text: str, family: dict[str, str]) -> str | None:
    """``text`` opening with who the relative or pet named first is, or None when it opens
    with no name of ``family`` (name → ``family.brother`` / ``pet.dog``) as a subject."""
    start, name = _opening(text)
    after = text[start + len(name) :]
    if name not in family or _NOT_AFTER.match(after):
        return None
    area, key = family[name].split(".", 1)
    if area == "pet":  # the rules read a capitalised name as the pet's (pipeline below)
        return f"{text[:start]}{name.capitalize()}{after}"
    who = next((w.replace("_", " ") for w, k in RELATIONS_EN.items() if k == key), None)
    if who is None:  # family.unknown: no word to call them by
        return None
    if after.startswith("'s "):  # "Aisha's in Year 6 now" is / "Niamh's after moving" has
        after = (" has " if s_is_has(after[3:]) else " is ") + after[3:]
    return f"{text[:start]}my {who} {name.capitalize()}{after}"


# A relative called by a word that names no side → the sides it can stand for.
_SIDES = {
    "spouse": ("wife", "husband", "partner"),  # 我家那位, 那口子, 爱人
    "child": ("son", "daughter"),  # 孩子转学了: the one child told about
    "kid": ("son", "daughter"),
}


def resolve_kin_side(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate:
    """A spouse or child called by a word that names no side (我家那位, 那口子, 爱人:
    ``family.spouse``; 孩子: ``family.child``) in the slots of the one wife, husband or
    partner, or the one son or daughter, the user has told about (我老婆在银行上班 →
    ``family.wife.employer``); as it was when there is none or more than one."""
    topic = c.topic or ""
    area, _, rest = topic.partition(".")
    generic = rest.split(".", 1)[0]
    if area != "family" or generic not in _SIDES or "." not in rest:
        return c
    sides = tuple(f"family.{side}." for side in _SIDES[generic])
    held = {
        m.topic.split(".")[1]
        for m in store.list(scope, _ACTIVE)
        if m.topic and m.topic.startswith(sides)
    }
    if len(held) != 1:
        return c
    side = held.pop()
    content = c.content
    if generic != "spouse":  # 用户的孩子转学了 → 用户的儿子…; "User's child" → "User's daughter"
        word = {"son": "儿子", "daughter": "女儿"}[side]
        content = re.sub(r"(?<=[用戶户]的)孩子(?!们)", word, content, count=1)
        content = re.sub(rf"\b(user's) {generic}\b", rf"\1 {side}", content, count=1, flags=re.I)
    return c.model_copy(update={"topic": topic.replace(generic, side, 1), "content": content})


def resolve_subject(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """``c`` in the slot of the user's pet or relative it names, or as it was.

    Returns ``c`` unchanged when it names no subject; with that subject's slot and content
    ("User's cat Luna turned four last week") when exactly one stored pet or relative has
    that name; otherwise ``c`` itself (reconciliation may still match its generic slot to the
    one compatible slot), except None for a pet's age or breed and for a rule that only
    holds for a known subject (``named.*``: "Emma moved to Boston"): that of someone the
    user never named is not stored as a fact about their pet or family.
    """
    name = c.metadata.get(SUBJECT)
    if not name or not c.topic:
        return c
    holders = _named(name, scope, store)
    must = str(c.metadata.get("rule", "")).startswith("named.")
    pet_attr = c.topic.startswith("pet.") and not c.topic.endswith(".name")
    if not holders and must and c.topic.endswith((".grade", ".school")):
        # 浩浩都三年级了 with "我儿子在读小学二年级" stored unnamed: the one child with a school
        # year or school is the only one it can be
        holders = _schooled(scope, store)
    if len(holders) != 1 and (must or pet_attr):
        return None  # "Bear is a golden retriever" with no pet named Bear: nobody's known pet
    if len(holders) != 1:
        return c  # generic as extracted; reconciliation matches the one compatible slot, if any
    who = holders.pop()
    topic = f"{who}.{c.topic.rsplit('.', 1)[1]}"
    key = who.split(".")[1]
    if c.metadata.get("lang") == "zh":
        words = RELATIONS_ZH if who.startswith("family.") else PETS_ZH
        said = f"用户的{next((w for w, k in words.items() if k == key), '')}{name}"
    else:
        said = f"User's {key.replace('_', ' ')} {name}"
    content = re.sub(
        rf"^{re.escape(name)}(?: \(user's family\)|（用[户戶]的家人）)?",
        lambda _: said,
        c.content,
        count=1,
    )
    return c.model_copy(update={"topic": topic, "content": content})


def _schooled(scope: Scope, store: MemoryStore) -> set[str]:
    """The relatives (``family.son``) with a stored school year or school; empty when more
    than one has."""
    held = {
        m.topic.rsplit(".", 1)[0]
        for m in store.list(scope, _ACTIVE)
        if m.topic and m.topic.startswith("family.") and m.topic.endswith((".grade", ".school"))
    }
    return held if len(held) == 1 else set()


# A clock time as said: 七点, 早上六点半, 6点30分; "(at) 7", "6:30am", "four in the morning"
# after "at".
_CLOCK = re.compile(
    r"(?P<part>早上|晚上|上午|下午|中午|凌晨)?[\d一二两三四五六七八九十]+点(?:半|[\d一二三四五六七八九十]+分)?|"
    r"(?<=\bat )\d{1,2}(?::\d\d)?(?:\s?(?:am|pm|a\.m\.|p\.m\.))?(?![\w:])|"
    # "at four in the morning": a clock time in words, with the part of the day that says so
    r"(?<=\bat )(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?: thirty| fifteen| forty-five)? (?:am|pm|o'clock|in the (?:morning|afternoon|evening)|"
    r"at night)\b",
    re.IGNORECASE,
)


def resolve_time(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate | None:
    """A new time said alone (``bare.time``) in the slot of the one timed routine it fits.

    Returns ``c`` unchanged for any other candidate; the routine's slot with its text told at
    the new time ("用户每天早上六点起床跑步") when exactly one active routine was said with a
    clock time (and with the verb ``c`` names, if any); None otherwise (not stored)."""
    if c.topic or c.metadata.get("rule") != "bare.time" or not c.value:
        return c
    verb = str(c.metadata.get("object") or "").casefold()
    timed = [
        m
        for m in store.list(scope, _ACTIVE)
        if (m.topic or "").startswith("habit.")
        and _CLOCK.search(m.content)
        and verb in (m.quote or m.content).casefold()
    ]
    if len({m.topic for m in timed}) != 1:
        return None
    old = max(timed, key=lambda m: (m.created_at, m.id))
    said = _CLOCK.search(old.content)
    assert said is not None  # the filter above kept only memories with a clock time
    # 早上七点 → 六点 keeps 早上: only the clock changes unless a part of the day is said
    told = _CLOCK.fullmatch(c.value)
    keep = said.group("part") and not (told and told.group("part"))
    start = said.end("part") if keep else said.start()
    content = old.content[:start] + c.value + old.content[said.end() :]
    value = c.value
    if old.value and old.value != "yes":  # when the routine happens, at the new time
        was = said.group(0)[start - said.start() :]
        value = old.value.replace(was, c.value) if was in old.value else old.value + c.value
    return c.model_copy(
        update={"topic": old.topic, "kind": old.kind, "content": content, "value": value}
    )


def resolve_routine(c: Candidate, scope: Scope, store: MemoryStore) -> Candidate:
    """A routine's change said by a shorter name ("basketball's on Saturdays now" beside
    ``habit.pickup_basketball``): the slot of the one active routine whose slot holds every
    word of ``c``'s, when ``c``'s own slot holds nothing. Found by the slot's words, never by
    similarity; ``c`` unchanged otherwise (its own slot, or two routines it could be)."""
    topic = c.topic or ""
    if not topic.startswith("habit.") or not c.is_correction:
        return c  # a routine said plainly is its own, beside any other
    words = set(topic.split(".", 1)[1].split("_"))
    held = {m.topic for m in store.list(scope, _ACTIVE) if (m.topic or "").startswith("habit.")}
    if topic in held:
        return c
    fits = {t for t in held if t and words < set(t.split(".", 1)[1].split("_"))}
    if len(fits) != 1:
        return c
    return c.model_copy(update={"topic": fits.pop()})
