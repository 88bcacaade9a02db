"""How the hits of one message become its memories: one memory per statement.

Later clauses that only add detail join the memory they describe (one's studies, a pet, a
relative, a state and what follows it), a move told as an event joins the home it led to,
and within the message the last word on a slot wins unless it only says what was wrong.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import BARE_VERB_EN, third_person_en
from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import PET_WORD, third_person_zh
from jiyi.core.models import Candidate
from jiyi.core.slots import PART_TEXTS, PARTS, same_value
from jiyi.core.text import to_simplified, to_traditional

__all__ = [
    "PARTS",
    "add_hit",
    "drop_bare_echoes",
    "fold_apposition",
    "fold_parts",
    "fold_relative_about",
    "in_script",
    "part_family",
    "script_of",
]

# A clause that names the user (or their family).
_SELF = re.compile(r"^(?:我|咱|i\b|i'm|i've|my\b|we\b|our\b)", re.IGNORECASE)
# A routine is a memory of its own, even about someone just described.
_ROUTINE = re.compile(
    r"\bevery\b|\bon (?:week(?:end)?s|\w+days)\b|每(?:天|周|个|月|晚|星期)|周末", re.I
)
_MOVE = re.compile(r"搬|\bmoved\b|\brelocated\b", re.IGNORECASE)
# A change told with what it led to is one memory of the result: a move and the new home, a
# job change and the new job (我上个月刚换了工作，现在在字节做数据分析).
_LED_TO = (
    ("location.home", _MOVE),
    (
        "work.",
        re.compile(
            r"换(?:了)?(?:个|份|一份|家)?(?:新)?(?:工作|公司|单位)|跳槽|"
            r"\b(?:changed|switched) (?:jobs|companies)\b|\bnew job\b",
            re.IGNORECASE,
        ),
    ),
)
# A clause that singles out one case of what was just said (…过敏，尤其是螃蟹).
_INSTANCE = re.compile(r"^(?:尤其|特别|主要|最)是|^(?:especially|particularly)\b", re.IGNORECASE)
# How a state or a relative's condition is lived with, said without a subject: 我在减肥，晚饭
# 基本不吃主食 / 我爸爸有糖尿病，不能吃甜的 — the detail of that memory, not a taste of its own.
_RESTRICTION = re.compile(
    r"^(?:晚饭|午饭|早饭|晚上|中午|早上|三餐|平时)?(?:基本|尽量|都|也|就)*(?:不|少|不能|别)(?:吃|喝|碰)"
)
_OFFICE = re.compile(r"公司|办公室|单位|坐班|\b(?:office|on-?site)\b", re.IGNORECASE)


def _merged_into(found: dict[str, Candidate], hit: Hit, clause: str, lang: str) -> Candidate | None:
    """The earlier memory of this message that ``hit`` only adds detail to, if any.

    One message says one thing about the user's education ("我研一，学金融的", "I'm a
    sophomore at Ohio State"); an English clause without a subject after a state describes
    that state ("recovering from a sprained ankle, on crutches for a few weeks"), as rest
    does the illness it follows ("我腰伤了，在家休养")."""
    area = hit.topic.split(".", 1)[0]
    if _INSTANCE.match(clause) and found:
        same_area = [c for t, c in found.items() if t.split(".", 1)[0] == area]
        return same_area[-1] if same_area else None
    if not _SELF.match(clause) and _RESTRICTION.match(clause):
        diet = [c for t, c in found.items() if t.startswith("state.") or t == "diet.style"]
        if area == "pref" and (held := diet):
            return held[-1]
        if area == "family" and ".pref." in hit.topic:
            who = hit.topic.split(".pref.", 1)[0] + ".health."
            return next((c for t, c in found.items() if t.startswith(who)), None)
    if area == "habit" and _OFFICE.search(clause) and not _SELF.match(clause):
        # 我现在在家远程办公，一周只去一次公司: how the remote work goes, one memory
        return next((c for t, c in found.items() if t.startswith("work.")), None)
    if area == "family" and hit.topic.endswith(".about") and not _ROUTINE.search(clause):
        # 我老婆是老师，在一所小学教语文: more about the relative just described
        who = hit.topic.rsplit(".", 1)[0] + "."
        return next((c for t, c in found.items() if t.startswith(who)), None)
    if area == "event" and re.search(r"\bmoved\b|\brelocated\b|搬", clause, re.I):
        return found.get("location.home")  # "We're in Seattle now, we moved in March"
    rest = area == "state" and bool(
        re.match(r"^(?:在家|在医院|卧床)?(?:休养|休息|养病|养伤|静养|住院|卧床)", clause)
    )
    if area == "education" or (
        area == "state" and (lang == "en" or rest) and not _SELF.match(clause)
    ):
        return next(
            (c for t, c in found.items() if t.split(".", 1)[0] == area and t != hit.topic), None
        )
    return None


def fold_apposition(found: dict[str, Candidate]) -> None:
    """ "My youngest, Mia, just turned 2": a name said in passing between commas is part of
    what the message says about that relative, not a memory of its own."""
    for topic in [t for t in found if t.startswith("family.") and t.endswith(".name")]:
        named = found[topic]
        if not re.fullmatch(r"[A-Z][a-z]+", (named.quote or "").strip()):
            continue
        who = topic.rsplit(".", 1)[0] + "."
        other = next((c for t, c in found.items() if t.startswith(who) and t != topic), None)
        if other is not None:
            other.content = re.sub(
                r"^(User's [\w-]+)", rf"\1 {named.value}", other.content, count=1
            )
            other.quote = f"{named.quote}, {other.quote}"
            del found[topic]


# Slots that one Chinese statement fills together and a user takes as one thing: 在长庚医院
# 当护理师 (employer and role), 燕麦拿铁不加糖 (a drink and how it is taken). Stored as one
# memory whose ``metadata[PARTS]`` keeps the other slots' values, so reconciliation still finds
# them (pipeline/decide.py).
_FAMILIES = (
    re.compile(r"^work\.(?:employer|role)$"),
    re.compile(r"^diet\.[^.]+\.[^.]+$"),
    re.compile(r"^identity\.(?:birth_year|zodiac)$"),  # 95年的，属猪: the year, said twice
    # "My cat Luna is 3 years old": a pet's name with its age or breed (either language)
    re.compile(r"^pet\.[^.]+\.(?:name|age|breed)$"),
    # 我老公是程序员，在腾讯上班: a relative's job and where they do it, as the user's own
    re.compile(r"^family\.[^.]+\.(?:job|employer|city)$"),
    # 我闺女今年上初一了，在实验中学: a child's grade and school, one thing
    re.compile(r"^family\.[^.]+\.(?:grade|school)$"),
)


def part_family(topic: str) -> str | None:
    """The slot family ``topic`` is stored in as one memory with (see :data:`_FAMILIES`)."""
    if _FAMILIES[0].match(topic):
        return "work"
    if _FAMILIES[2].match(topic):
        return "identity.born"
    if _FAMILIES[3].match(topic):
        return topic.rsplit(".", 1)[0]
    if _FAMILIES[4].match(topic):
        return topic.rsplit(".", 1)[0] + ".work"
    if _FAMILIES[5].match(topic):
        return topic.rsplit(".", 1)[0] + ".school"
    return topic.rsplit(".", 1)[0] if _FAMILIES[1].match(topic) else None


def fold_parts(found: dict[str, Candidate]) -> None:
    """One memory per slot family per message (see :data:`PARTS`); the first slot said is
    the memory's own, a drink's type first when one was said. English too: "I work as a data
    analyst at a logistics company" and "I take my coffee black, no sugar" are one thing each."""
    groups: dict[str, list[str]] = {}
    for topic, cand in found.items():
        if (
            (fam := part_family(topic))
            and cand.value
            and not cand.value.startswith("not ")  # 离开超商了，在做房仲: a change, two slots
        ):
            groups.setdefault(fam, []).append(topic)
    for fam, topics in list(groups.items()):
        # 我闺女在南京上大二: where a relative studies goes with the year (no job said)
        who = fam.removesuffix(".work")
        if fam.endswith(".work") and topics == [f"{who}.city"]:
            school = f"{who}.school"
            if school in groups:
                groups[school].insert(0, topics[0])
                del groups[fam]
    for topics in groups.values():
        if len(topics) < 2:
            continue
        # a pet's name and a relative's job head (a correction of either finds it by its slot)
        # (我老公辞职了，跟朋友合伙开了家火锅店: a job left says less than the job now)
        topics.sort(
            key=lambda t: (
                found[t].value in ("无", "none"),
                not t.endswith((".type", ".birth_year", ".name", ".job", ".school", ".city")),
            )
        )
        head = found[topics[0]]
        head.metadata[PART_TEXTS] = {t: found[t].content for t in topics}  # before merging
        for topic in topics[1:]:
            join_part(head, found.pop(topic))


def join_part(head: Candidate, part: Candidate) -> None:
    """``part`` becomes a part of ``head``: its slot and value, and its words in the text."""
    topic = part.topic or ""
    head.metadata[PARTS] = {**head.metadata.get(PARTS, {}), topic: part.value}
    if head.metadata.get("lang") != "zh":
        _fold_en(head, part)
    elif head.quote and part.quote and head.quote == part.quote:
        # one clause said it all: 用户在长庚医院当护理师, not two templates
        head.content = _said(head.quote) or head.content
    elif part.content not in head.content:
        head.content = _join(head.content, _after_shared(head.content, part.content), "zh")
        head.quote = _join(head.quote or "", part.quote or "", "zh")
    head.importance = max(head.importance, part.importance)
    head.is_correction = head.is_correction or part.is_correction
    head.replaces = head.replaces or part.replaces


def _fold_en(head: Candidate, part: Candidate) -> None:
    """An English part joins its head: its own words when they name no subject ("…black, no
    sugar"), else its third-person text; one clause said once ("…analyst at a company")."""
    if head.quote and part.quote and head.quote == part.quote:
        said = third_person_en(head.quote)
        bare = said.startswith("User: ") or BARE_VERB_EN.match(clean_value(head.quote))
        if not (bare and head.content.startswith("User's ")):
            head.content = said  # ("he drives for Grab now": a relative's text says whose)
        return
    said = part.quote or ""
    more = said if said and not _SELF.match(said) else part.content
    if more not in head.content:
        head.content = _join(head.content, more, "en")
        head.quote = _join(head.quote or "", said, "en")


def _said(quote: str) -> str | None:
    said = third_person_zh(quote)
    return said if said.startswith("用户") else None


def _after_shared(first: str, more: str) -> str:
    """用户喝咖啡只喝燕麦拿铁 + 用户喝咖啡不加糖 → 不加糖: the subject and verb said once."""
    n = 0
    while n < min(len(first), len(more)) and first[n] == more[n]:
        n += 1
    return more[n:] if n > 2 and len(more) - n >= 2 else more


def _join(first: str, more: str, lang: str) -> str:
    """Two descriptions of one memory as one sentence (the second without its subject)."""
    if not more or more in first:
        return first
    who = re.match(
        r"^(?:用户的[\u4e00-\u9fff]{1,3}?(?=在|是|有|一直|也|很|每|叫|今年|现在|对|平时|不)|"
        r"User's \w+)",
        more,
    )
    if who and first.startswith(who.group(0)):  # 用户的老婆是老师，(用户的老婆)在小学教语文
        more = more[who.end() :].strip()
    # 用户养了一只猫，叫咪咪 + 用户的猫三岁了 → …，三岁了: the pet just introduced
    more = re.sub(rf"^用户的(?:{PET_WORD})(?=[\d一二两三四五六七八九十几]|是|今年)", "", more)
    more = re.sub(r"^(?:用户一家|用户(?!的)|User and family|User(?::|'s| is| has)?)\s*", "", more)
    if more in first:  # 微糖去冰 holds the sugar and the ice: said once
        return first
    return f"{first}{'，' if lang == 'zh' else ', '}{more}"


def script_of(original: str) -> dict[str, str]:
    """Simplified character → the user's own traditional one (台 stays 台, not 臺)."""
    simplified = to_simplified(original)
    if len(simplified) != len(original):
        return {}
    return dict(zip(simplified, original, strict=True))


def in_script(text: str, script: dict[str, str]) -> str:
    """``text`` in traditional script, using the user's characters where they wrote them."""
    converted = to_traditional(text)
    if len(converted) != len(text):
        return converted
    return "".join(script.get(s, t) for s, t in zip(text, converted, strict=True))


def add_hit(
    found: dict[str, Candidate], hit: Hit, cand: Candidate, clause: str, raw: str, lang: str
) -> None:
    """Add ``cand`` (made from ``hit`` of ``clause``) to the message's memories ``found``."""
    if (same := _merged_into(found, hit, clause, lang)) is not None:
        same.content = _join(same.content, cand.content, lang)
        same.quote = _join(same.quote or "", raw, lang)
        if hit.topic.startswith("education.") and hit.topic != same.topic and hit.value:
            # 在隆回二中读初二: the school is a part of the year's memory, not lost with it
            same.metadata[PARTS] = {**same.metadata.get(PARTS, {}), hit.topic: hit.value}
            alone = re.sub(rf"\s*(?:\bat|\bin|在)?\s*{re.escape(hit.value)}", "", same.content)
            texts = same.metadata.get(PART_TEXTS) or {same.topic or "": alone}
            same.metadata[PART_TEXTS] = {**texts, hit.topic: cand.content}
        return
    if hit.drop:
        found.pop(hit.drop, None)
    led = [pattern for head, pattern in _LED_TO if hit.topic.startswith(head)]
    for t in [t for t in found if t.startswith("event.") and led]:
        if led[0].search(found[t].quote or ""):  # 我们上个月搬家了，现在住在滨江: one move
            moved = found.pop(t)
            cand.content = _join(moved.content, cand.content, lang)
            cand.quote = _join(moved.quote or "", raw, lang)
    previous = found.get(hit.topic)
    if (
        previous is not None
        and (cand.value or "").startswith("not ")
        and previous.value
        and not previous.value.startswith("not ")
    ):  # 我搬到板桥了，不住信义区了: the new value stands, the old one it replaces
        previous.replaces = previous.replaces or (cand.value or "")[4:]
        previous.is_correction = True
        previous.quote = _join(previous.quote or "", raw, lang)
        return
    refines = (  # "I'm pregnant, due in October": the detail is the value
        previous is not None
        and previous.value == "yes"
        and cand.value not in (None, "no")
        and not cand.is_correction
    )
    if previous is not None and (
        refines or (previous.value is not None and same_value(previous.value, cand.value))
    ):  # "We went hybrid, I'm in the office three days a week now": one memory
        grown = previous.content in cand.content  # already told as one (pet intro)
        previous.content = cand.content if grown else _join(previous.content, cand.content, lang)
        previous.quote = _join(previous.quote or "", raw, lang)
        previous.value = cand.value if refines else previous.value
        for key in (PARTS, PART_TEXTS):  # ("…named Tucker, he's a pit bull mix": the breed)
            if cand.metadata.get(key):
                previous.metadata[key] = {**previous.metadata.get(key, {}), **cand.metadata[key]}
        return
    previous = found.pop(hit.topic, None)
    # Within one message the last word on a slot wins ("不住北京了，搬到上海了"),
    # and inherits the correction flag of what it overrides.
    if previous is not None and previous.is_correction:
        cand.is_correction = True
    found[hit.topic] = cand


def drop_bare_echoes(found: dict[str, Candidate]) -> None:
    """A bare value ("I meant Columbus") said again in the same message with the words of
    its slot ("I grew up in Columbus") belongs to that slot: the slot guessed from the kind
    of value alone (a city → where the user lives) is dropped, or it would retire a fact
    the user never corrected (the home city, in held-out set i)."""
    named = {
        (c.value or "").casefold()
        for c in found.values()
        if c.value and not str(c.metadata.get("rule", "")).startswith("bare.")
    }
    for topic in [
        t
        for t, c in found.items()
        if str(c.metadata.get("rule", "")).startswith("bare.")
        and (c.value or "").casefold() in named
    ]:
        del found[topic]


def fold_relative_about(found: dict[str, Candidate], lang: str) -> None:
    """One memory per relative per message: "My husband left IBM, he's at Oracle now" is the
    employer, told with what led to it, not also a vague "about" memory of the husband."""
    for topic in [t for t in found if t.startswith("family.") and t.endswith(".about")]:
        who = topic[: -len("about")]
        said = [c for t, c in found.items() if t.startswith(who) and t != topic]
        if len(said) == 1 and not said[0].topic.startswith(who + "pref"):  # type: ignore[union-attr]
            about = found.pop(topic)
            sep = "，" if lang == "zh" else "; "
            if about.content not in said[0].content:
                said[0].content = f"{about.content}{sep}{said[0].content}"
            said[0].quote = f"{about.quote}{sep}{said[0].quote}" if about.quote else said[0].quote
