"""A message about one relative, read with the user's own rules.

The rules for what the user says of themselves cover far more ways of saying a move, a new job,
a grade or an illness than the rules for relatives ("我姐一家年初就搬到北京去了", "my brother
flies for United now"). When a message is about one relative from its first words and no
clause turns back to the user, :func:`swap_subject` says it with the user as the subject
("我年初就搬到北京去了", "I fly for United now"); :func:`as_relative` then moves what the
user's rules found there onto the relative's slots (``location.home`` → ``family.sister.home``)
and drops everything that has no slot of a relative, a value said to no longer hold, and a
work base ("transferred to the Olympia depot" says where he works, not where he lives).
Not swapped: a buddy (我哥们), their words (我妈说…), both of them (我妈和我, "my brother and
I"), what they did with the user (把我接到广州), someone of theirs ("my sister's husband").

Pure functions over text and candidates; :mod:`.rules` runs the extraction in between.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.core.extraction.first_person import ADVERBS, as_i_en, first_person
from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.lexicon_places import is_place_zh, is_town_en
from jiyi.core.extraction.merge import join_part, part_family
from jiyi.core.models import Candidate
from jiyi.core.slots import PART_TEXTS, PARTS

__all__ = ["Swap", "add_parts", "as_relative", "is_user_slot", "merge_swapped", "swap_subject"]

# The user's slot → the relative's attribute of the same meaning.
_ATTRIBUTE = {
    "location.home": "home",
    "location.work": "city",
    "location.hometown": "hometown",
    "work.employer": "employer",
    "work.role": "job",
    "education.stage": "grade",
    "education.grade": "grade",
    "education.school": "school",
    "education.major": "major",
    "identity.age": "age",
}

# Relatives who go to a school to work there, not to study (a transfer is a new employer).
_GROWN_UPS = frozenset(
    "wife husband partner spouse mother father grandmother grandfather mother_in_law "
    "father_in_law".split()
)
# Relatives who go to a school to study there (a switch to an academy is a new school).
_CHILDREN = frozenset("son daughter child grandchild nephew niece".split())
_SCHOOL = re.compile(
    r"\b(?:academy|school|primary|elementary|middle|high|prep|montessori|kindergarten|scoil|"
    r"preschool|college|university)\b|学校|小学|中学|附中|幼儿园|学院|大学|师大|理工|工大|"
    r"交大|财大|医大|农大|职校|技校",
    re.IGNORECASE,
)
_REL_ZH = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
_LEAD_ZH = (
    r"(?:(?:其实|对了|跟你说(?:个(?:好|坏)?消息)?|话说|告诉你(?:个(?:好|坏)?消息)?|更新一下|好消息|"
    r"哈哈+|诶|欸|嗯|唉|哎)[，,！!～~ ]*)*"
)
_KIN_ZH = re.compile(
    rf"^(?P<lead>{_LEAD_ZH})(?P<who>(?:我们家|我家|我的|我)的?(?P<rel>{_REL_ZH})|(?P<bare>{_REL_ZH}))"
    r"(?:她|他)?们?(?:一家(?:人|子|三口|四口)?|全家|两口子)?(?:人)?(?P<rest>.+)$",
    re.S,
)
# What cannot follow a relative who is the subject: 我哥们 (a buddy), 我妈的同事 (someone
# else), 我妈和我 (both), 我妈说 (her words, not a fact about her).
_NOT_SUBJECT_ZH = re.compile(
    r"^(?:们|儿|的|和|跟|与|说|讲|问|让|叫我|要我|给我|帮我|觉得|以为|副|爷)"
)

_KIN_WORDS_EN = sorted((w.replace("_", " ") for w in RELATIONS_EN), key=len, reverse=True)
_REL_EN = "|".join(re.escape(w) for w in _KIN_WORDS_EN)
_LEAD_EN = (
    r"(?:(?:so|oh|ok|okay|well|actually|update|btw|fyi|lol|haha|guess what|good news|"
    r"quick update|funny thing|anyway|anyways|also|and|but|hey|hmm|um|ugh)[,:!.]*\s+)*"
)
_KIN_AT = re.compile(
    rf"\b(?P<who>(?:my|our) (?P<rel>{_REL_EN})|(?P<bare>mom|mum|dad|papa|mama|grandma|grandpa|"
    r"granny|nana|hubby|wifey))(?: (?-i:[A-Z][a-z]+)(?= (?-i:[a-z])))?(?P<be>'s|\s+is)?\b",
    re.I,
)
# What may come before the relative as the subject: talk that only leads in, or a clause
# ended ("big news, mom sold…", "after 30 years at the post office my dad retired").
_LED_IN = re.compile(
    rf"^{_LEAD_EN}$|[,.!:;]\s*$|^\s*(?:(?:so |and )?after|following|can'?t believe|cannot "
    r"believe|guess what|turns out|looks like|apparently|finally)\b",
    re.I,
)
# "update on my sister, she…": the relative named, then "she" as the subject
_ABOUT = re.compile(r"\b(?:on|about|re|with)\s*:?\s*$", re.I)
# After "my sister's": a word that says what she is or does, not a thing of hers ("my
# sister's husband").
_IS_NEXT = re.compile(
    r"^\s+(?:a|an|the|now|actually|in|at|on|been|got|getting|going|gone|still|not|no|"
    r"finally|officially|also|just|back|retired|married|engaged|pregnant|divorced|\d+|"
    r"\w+ing|\w+ed)\b",
    re.I,
)
_NOT_SUBJECT_EN = re.compile(r"^\s*(?:and|&|or|says|said|thinks|told|wants me|asked)\b", re.I)
_PUPIL = re.compile(
    r"grader|student|freshman|sophomore|junior|senior|kindergart|pupil|学生", re.IGNORECASE
)


@dataclass(frozen=True)
class Swap:
    """The relative a message is about and the message with the user as its subject."""

    key: str  # family.sister
    word: str  # 姐 / sister: how the user named them
    text: str  # 我年初就搬到北京去了


def swap_subject(text: str, lang: str) -> Swap | None:
    """The message said with the user in place of the one relative it is about, or None
    when it is not about one relative from its first words or turns back to the user."""
    if lang == "zh":
        m = _KIN_ZH.match(text)
        if not m or _NOT_SUBJECT_ZH.match(text[m.end("who") :]) or _NOT_SUBJECT_ZH.match(m["rest"]):
            return None
        rel = m["rel"] or m["bare"]
        if m["bare"] and len(rel) < 2:
            return None  # 妈的 / 哥们儿: a bare one-character word is no relative
        rest = m["rest"]
        # a later clause that opens with the user (…，我…) is about the user again, and
        # 把我接到广州 / 带我 is what they did with the user, 说我姐… their news of another
        if re.search(
            r"[，,。！!？?；;～~\s]\s*(?:我|俺)|(?:把|让|带|接|叫|帮|给|送|拉)(?:我|俺)", rest
        ) or re.search(rf"说(?:我们?|咱)(?:的|家)?(?:{_REL_ZH})", rest):
            return None
        rest = re.sub(r"(?<=[，,。！!；;～~\s])\s*(?:她|他)(?!们)", "我", rest)
        return Swap(f"family.{RELATIONS_ZH[rel]}", rel, f"{m['lead']}我{rest}")
    return _swap_en(text)


def _swap_en(text: str) -> Swap | None:
    """The English swap: the relative as the subject where the message names them, after
    talk that only leads in ("after 30 years at the post office my dad finally retired"),
    with "she" after them ("update on my sister she got hired…"), or as the object of a
    clause before one they are the subject of ("Intel laid off my brother but he landed at
    Nvidia": me … I)."""
    m = _KIN_AT.search(text)
    if not m:
        return None
    lead, rest, be = text[: m.start()], text[m.end() :], m["be"]
    if re.search(r"\b(?:i|i'm|im|me|we|us|our|my)\b", lead, re.I):
        return None  # "my friend's mom", "my boss told my brother": not the one relative
    if be and be.strip() == "'s" and not _IS_NEXT.match(rest):
        return None  # my sister's husband: someone else's subject
    if (
        _NOT_SUBJECT_EN.match(rest)
        or re.search(r"\b(?:i|i'm|i've|i'd|i'll)\b", rest, re.I)
        # ("Hubby's posting came through so we packed up and shifted to Nagpur": the family)
        or re.search(
            r"\b(?:so|and|then) we(?:'ve| have)? (?:\w+ ){0,5}?(?:moved|shifted|relocated)\b",
            rest,
            re.I,
        )
        or re.search(
            r"\b(?:moved|took|brought|dragged|got|talked|convinced) (?:me|us)\b", rest, re.I
        )
    ):
        return None  # both of them, her words, or the user again
    rel = (m["rel"] or m["bare"]).lower()
    key = RELATIONS_EN.get(rel.replace(" ", "_")) or RELATIONS_EN.get(rel)
    if not key or (rel.endswith("s") and key in ("child", "parents")):
        return None  # my kids / my parents: more than one
    pronoun = None if be else re.match(r"^,?\s+(?:he|she)\b", rest, re.I)
    if pronoun and not (not lead.strip() or _ABOUT.search(lead)):
        pronoun = None
    led_in = not lead.strip() or bool(_LED_IN.search(lead))
    if not led_in and not pronoun:
        # the object of what came before: in a later clause "he" / "she" is the subject
        if be or not re.search(r"\b(?:he|she)\b", rest, re.I):
            return None
        return Swap(f"family.{key}", rel, lead + "me" + as_i_en(rest))
    if pronoun:
        lead, rest = "", rest[pronoun.end() :]  # "update on my sister she …": she …
        be = None
        head = re.match(r"^(?:'s|\s+is)\b", rest, re.I)
        if head:
            be, rest = head.group(0), rest[head.end() :]
    if be:
        said = f"I am{rest}" if be.strip() == "is" else f"I'm{rest}"
    else:
        verb = re.match(rf"^\s+(?P<adv>{ADVERBS})(?P<v>[A-Za-z']+)", rest)
        if not verb:
            return None
        said = f"I {verb['adv']}{first_person(verb['v'])}{rest[verb.end() :]}"
    return Swap(f"family.{key}", rel, lead + as_i_en(said))


def _attribute(topic: str) -> str | None:
    if topic in _ATTRIBUTE:
        return _ATTRIBUTE[topic]
    if topic.startswith(("health.allergy.", "health.condition.")):
        return topic
    return None


def is_place(value: str, lang: str) -> bool:
    """Is ``value`` a place (a city, a country, a known town)?"""
    return is_place_zh(value) if lang == "zh" else is_town_en(value)


def is_user_slot(topic: str) -> bool:
    """Whether ``topic`` is one of the user's slots that a relative also has."""
    return _attribute(topic) is not None


# One wording per attribute and value, so that a memory says only its slot's value: a grade
# told as 在上海读研究生 does not also keep saying 上海 once she has moved.
_SAID_ZH = {
    "home": "住在{v}",
    "city": "在{v}工作",
    "hometown": "老家是{v}",
    "employer": "在{v}工作",
    "job": "的工作是{v}",
    "grade": "读{v}",
    "school": "在{v}上学",
    "age": "{v}岁",
}
_SAID_EN = {
    "home": "lives in {v}",
    "city": "works in {v}",
    "hometown": "is from {v}",
    "employer": "works at {v}",
    "job": "works as {v}",
    "grade": "is in {v}",
    "school": "goes to {v}",
    "age": "is {v}",
}


def _their(content: str, word: str, lang: str, attr: str = "", value: str = "") -> str:
    """The relative's memory text: the slot's own wording when it has one, else what the
    user's rule said with the relative in the user's place."""
    said = (_SAID_ZH if lang == "zh" else _SAID_EN).get(attr)
    if said and value:
        if lang == "zh":
            return f"用户的{word}" + said.format(v=value.removesuffix("岁"))
        return f"User's {word} " + said.format(v=value)
    if lang == "zh":  # each clause's 用户 (已辞职，用户的工作是民宿): the relative's
        return re.sub(
            rf"(^|[，,；;])用户(的(?!{re.escape(word)}))?",
            lambda m: f"{m[1]}用户的{word}{'的' if m[2] else ''}",
            content,
        )
    return re.sub(r"^User(?!'s)\b", f"User's {word}", content, count=1)


def as_relative(
    found: list[Candidate], swap: Swap, lang: str, *, beside: bool = False
) -> list[Candidate]:
    """What the user's rules found in the swapped message, as the relative's: each candidate
    of a slot a relative has, moved onto it; the rest dropped. ``beside``: added beside slots
    the relatives' rules placed, so each says only its own value (the words of the message
    name the others too); so too when the message fills several."""
    out: list[Candidate] = []
    # several slots from one message: each memory says its own value only
    beside = beside or sum(_attribute(c.topic or "") is not None for c in found) > 1
    for cand in found:
        attr = _attribute(cand.topic or "")
        if attr is None or cand.value is None or cand.value.startswith("not "):
            continue  # a value said to no longer hold is the relatives' rules' to read
        if cand.metadata.get("rule") == "work.base":
            continue  # "transferred to the Olympia depot": where he works, his home unsaid
        if attr == "job" and _PUPIL.search(cand.value):
            continue  # "a first grader": a grade, which the relatives' rules read
        if (
            attr in ("school", "employer")
            and is_place(cand.value, lang)
            and not _SCHOOL.search(cand.value)
        ):
            continue  # 在德国读博: where they study, not a school named 德国
        if attr == "school" and swap.key.split(".")[1] in _GROWN_UPS:
            attr = "employer"  # "my wife transferred to Millard North": where she works
        reworded = ""
        if (
            attr in ("employer", "home")
            and swap.key.split(".")[1] in _CHILDREN
            and _SCHOOL.search(cand.value)
        ):  # ("my son has been in Scoil Mhuire since September": a school, not a home)
            attr = reworded = "school"  # "my daughter Mia switched over to Birch Academy"
        meta = dict(cand.metadata)
        meta["rule"] = f"kin.{meta.get('rule', '')}"
        if parts := meta.get(PARTS):
            texts = meta.get(PART_TEXTS) or {}
            moved = {
                f"{swap.key}.{a}": (slot, v) for slot, v in parts.items() if (a := _attribute(slot))
            }
            meta[PARTS] = {k: v for k, (_, v) in moved.items()}
            meta[PART_TEXTS] = {
                k: _their(texts.get(slot, ""), swap.word, lang) for k, (slot, _) in moved.items()
            }
            if (head := texts.get(cand.topic or "")) and meta[PARTS]:  # the year, said alone
                meta[PART_TEXTS][f"{swap.key}.{attr}"] = _their(head, swap.word, lang)
            if not meta[PARTS]:
                meta.pop(PARTS), meta.pop(PART_TEXTS)
        out.append(
            cand.model_copy(
                update={
                    "topic": f"{swap.key}.{attr}",
                    # a memory of several slots keeps the words that say them all
                    "content": _their(
                        cand.content,
                        swap.word,
                        lang,
                        attr if (beside and PARTS not in meta) or reworded else "",
                        cand.value,
                    ),
                    "metadata": meta,
                }
            )
        )
    return out


def add_parts(held: Candidate, more: Candidate) -> None:
    """The slots ``more`` holds as parts that ``held`` (of the same slot) does not, added to
    it with their texts."""
    parts = dict(held.metadata.get(PARTS) or {})
    texts = dict(held.metadata.get(PART_TEXTS) or {})
    for slot, value in (more.metadata.get(PARTS) or {}).items():
        if slot not in parts and slot != held.topic:
            parts[slot] = value
            texts[slot] = (more.metadata.get(PART_TEXTS) or {}).get(slot, "")
            if value and texts[slot] and str(value).lower() not in held.content.lower():
                # 我老婆考上公务员了，九月去税务局报到: the employer in the words too
                told = more.model_copy(update={"topic": slot, "value": value,
                                               "content": texts[slot], "quote": None})  # fmt: skip
                join_part(held, told)
    if parts:
        held.metadata[PARTS], held.metadata[PART_TEXTS] = parts, texts


def merge_swapped(
    found: dict[str, Candidate], said: list[Candidate], swap: Swap, lang: str, text: str
) -> None:
    """Merge into ``found`` (slot → candidate of the message as said) what the user's rules
    found in it said again (``said``): slots the relatives' rules did not place, or only
    carried over, are added as the relative's, with ``text`` as their quote; the vague
    "about" memory and any slot misread as the user's are dropped."""
    # What the relatives' rules placed stands, but for a value only carried over from the
    # clause before (我哥辞职了，去深圳做房产中介了: not the employer "深圳做房产中介");
    # the user's rules add the slots they missed.
    carried = {
        t
        for t, c in found.items()
        if t.startswith(swap.key + ".") and c.metadata.get("rule") == "continuation"
    }
    placed = any(t.startswith(swap.key + ".") and not t.endswith(".about") for t in found)
    mapped = as_relative(said, swap, lang, beside=placed)
    for cand in mapped:  # "my sister is a barista at Starbucks": the employer a part too
        if (held := found.get(cand.topic or "")) is not None and cand.topic not in carried:
            add_parts(held, cand)
    # a slot held as a part of a memory already placed (在南京上大二: the year with the city)
    held_parts = {t for c in found.values() for t in (c.metadata.get(PARTS) or {})}
    theirs = [
        c
        for c in mapped
        if (c.topic not in found or c.topic in carried) and c.topic not in held_parts
    ]
    if not theirs:
        return
    for topic in [t for t in found if t == swap.key + ".about" or t in carried or is_user_slot(t)]:
        del found[topic]  # the relative's, misread as the user's or left vague
    for cand in theirs:
        cand.quote = text
        fam = part_family(cand.topic or "")
        head = next((c for t, c in found.items() if fam and part_family(t) == fam), None)
        if head is not None and cand.value:  # 我哥在广州…: the job with the city, one memory
            texts = head.metadata.get(PART_TEXTS) or {head.topic: head.content}
            head.metadata[PART_TEXTS] = {**texts, cand.topic: cand.content}
            join_part(head, cand.model_copy(update={"quote": None}))  # its words, joined
            continue
        found[cand.topic or ""] = cand
