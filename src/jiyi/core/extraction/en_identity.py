"""English slot rules for who the user is: name, age, birthday, birth year, hometown,
marital status (and a spouse or children said with it), traits, generation and gender.

Apart from :mod:`.en_facts` (home and where the user works) because these are the user's
identity, read by one function (:func:`identity`) with its own patterns; where the user
lives is a separate family of rules.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import (
    IM,
    NUM_WORD,
    YEAR_WORDS,
    first_name,
    number,
    place,
    year_from_words,
)
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import word_set
from jiyi.core.extraction.lexicon_places import CITIES_EN
from jiyi.core.extraction.topics import clean_value, slug
from jiyi.core.models import MemoryKind

__all__ = ["identity"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

_NATIONALITIES = word_set(
    """
    american british english chinese canadian australian indian japanese korean german french
    italian spanish mexican brazilian russian irish scottish dutch swedish singaporean welsh
    nigerian kenyan filipino vietnamese thai polish portuguese greek turkish
    """
)


# "(I meant) 1986 for my birth year": the value first, then the attribute it is for.
_VALUE_FOR = re.compile(
    r"^(?P<v>[\w' -]+?) (?:for|as|is) my (?P<a>birth ?year|birthday|name|first name)$", I_
)
# "from now on", "instead": when a name is to be used, not part of it
_NAME_TAIL = re.compile(r",?\s+(?:from now on|going forward|instead|now|please|lately)$", I_)


def identity(c: str, ctx: Context) -> list[Hit]:
    if f := _VALUE_FOR.match(c):
        c = f"my {f.group('a')} is {f.group('v')}"
    m = re.match(
        r"^(?:my name is|my name's|name's|i'm called|i am called|(?:you can )?(?:just )?call me|"
        r"(?:i'd|i would) (?:rather |prefer (?:it if )?|like (?:it if )?)(?:you|people) "
        r"(?:call|called) me|(?:please )?call me|"
        r"the name's|people call me|i go by|(?:i've been|i'm|i am) going by|my full name is|"
        r"my first name is)\s+(?P<x>\S.*)$",
        _NAME_TAIL.sub("", c),
        I_,
    )
    if m:
        ctx.extra["named"] = "1"
        name = first_name(m.group("x"), words=3)
        said = f"User goes by {name}" if re.search(r"call me|go(?:ing)? by", c, I_) else None
        return [Hit(F, "identity.name", "name", value=name, content=said)]
    m = re.match(r"^(?:[Ii]'m|[Ii] am|[Ii]m|[Tt]his is) (?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)$", c)
    if m:
        if m.group("x").lower() in _NATIONALITIES:
            return [Hit(F, "identity.nationality", "nationality", value=m.group("x"))]
        if m.group("x").lower() not in CITIES_EN:
            ctx.extra["named"] = "1"
            return [Hit(F, "identity.name", "name.im", value=m.group("x"))]
    m = re.match(
        rf"^(?:{IM} (?:actually |now |almost |nearly |about |only |just )?|"
        rf"(?:i )?(?:just|finally|officially) turned |i turned |i've just turned |"
        rf"i have just turned |i'll be |i'm turning |i am turning )(?P<x>{NUM_WORD})"
        rf"(?: years old| yrs old| yo| y/o| years young)?"
        r"(?: now| this year| next month| soon| last week| last month| yesterday| today| this week|"
        r" in (?:january|february|march|april|may|june|july|august|september|october|november|"
        r"december)|"
        r" (?:on|last|this past|this) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
        r" (?:a few|two|three|\w+) (?:days|weeks) ago|"
        r" as of (?:last |this )?\w+)?$",  # "I'm twenty-eight as of last Tuesday"
        c,
        I_,
    )
    if m and int(number(m.group("x")) or 0) >= 5:
        return [Hit(F, "identity.age", "age", value=number(m.group("x")))]
    m = re.match(rf"^i(?:'ll)? turn (?P<n>{NUM_WORD}) (?:on |this |next )?(?P<d>.+)$", c, I_)
    if m and re.search(r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", m.group("d"), I_):
        age = str(int(number(m.group("n"))) - 1)  # "I turn 40 on July 8th": 39 now, birthday July 8
        return [
            Hit(F, "birthday", "birthday.turn", value=clean_value(m.group("d")).lower()),
            Hit(
                F,
                "identity.age",
                "age.turn",
                value=age,
                content=f"User is {age} (turns {number(m.group('n'))})",
            ),
        ]
    m = re.match(
        r"^(?:my (?:birthday|bday|b-day)(?: is|'s)|i was born on)\s+(?:on |in )?(?P<x>\S.*)$", c, I_
    )
    if m and not re.match(r"^(?:coming up|soon|next|tomorrow|today)$", m.group("x"), I_):
        return [Hit(F, "birthday", "birthday", value=clean_value(m.group("x")).lower())]
    m = re.match(
        # ("I was born 1987, in Bremen": the year without "in")
        rf"^(?:i was |i am |i'm |im )?(?:actually |really )?born (?:in )?"
        rf"(?P<x>\d{{4}}|'\d{{2}}|{YEAR_WORDS})\b|"
        r"^my birth ?year is (?:actually )?(?P<y>\d{4})$|"
        r"^(?:it's |it is )?(?P<w>(?:19|20)\d{2}) is (?:actually |really )?(?:my birth ?year|"
        r"(?:the year )?when i was born|the year i was born)$|"
        r"^(?:i'm|i am) (?:actually |really )?(?:an? )?(?P<z>(?:19|20)\d{2}|'\d{2}) baby$",
        c,
        I_,
    )
    if m:
        said = m.group("x") or m.group("y") or m.group("z") or m.group("w")
        year = year_from_words(said).lstrip("'")
        ctx.extra["born_en"] = "1"  # (", in Bremen": where, next)
        return [Hit(F, "identity.birth_year", "birth_year", value=year,
                    content=f"User was born in {year}")]  # fmt: skip
    m = re.match(
        rf"^(?:(?:{IM} )?originally from|{IM} (?:actually )?from|i come from|i grew up in|"
        rf"my hometown is|"
        r"i was born in|born and raised in|i was raised in|raised in|i'm a native of|home ?town:?)"
        r"\s+(?P<x>\S.*?)(?:,? originally)?$|^(?P<y>\S.*?) is where i grew up$",
        c,
        I_,
    )
    said = (m.group("x") or m.group("y")) if m else ""
    if m and not re.match(
        r"(?:next|this|last|tomorrow|today|tonight|monday|tuesday|wednesday|thursday|friday|"
        r"saturday|sunday|the \d|\d|now on|then on)\b",
        said,
        I_,
    ):  # "From next week I'm resuming at …": when, not where the user is from
        return [Hit(F, "location.hometown", "hometown", value=place(said))]
    m = re.match(
        r"^i(?:'ve| have)? (?:just |recently |finally |officially )?(?:got|gotten) (?P<x>married|"
        r"engaged|divorced|separated)(?P<rest>)(?:[!.]*)$",
        c,
        I_,
    ) or re.match(
        rf"^{IM} (?:now |officially |actually |still )?(?P<x>married|single|divorced|engaged|"
        rf"widowed|"
        rf"separated)\b(?P<rest>.*)$",
        c,
        I_,
    )
    taken = re.match(
        rf"^(?:i (?:now )?(?:have|'ve got|got) an? (?:new )?(?:boyfriend|girlfriend|partner)|{IM} "
        r"(?:now )?(?:in a relationship|seeing someone|dating someone|"
        r"taken))(?: now)?(?: actually)?$",
        c,
        I_,
    )
    if taken and (re.search(r"\bnow\b|\bnew\b", c, I_) or not taken.group(0).startswith("i ")):
        return [Hit(F, "family.marital", "marital.taken", value="in a relationship")]
    if m:
        hits = [Hit(F, "family.marital", "marital", value=m.group("x").lower())]
        spouse = re.match(
            r"^ to (?:(?:a|an|the most) (?:[\w-]+ ){0,3}(?P<who>guy|man|woman|girl|lady|husband|"
            r"wife)"
            r"(?: named| called)? )?(?P<name>[A-Z][a-z]+)$",
            m.group("rest"),
        )
        if spouse:  # "I'm married to a wonderful guy named Sam"
            who = (spouse.group("who") or "").lower()
            rel = "husband" if who in ("guy", "man", "husband") else "wife" if who else "spouse"
            rel = "fiance" if m.group("x").lower() == "engaged" else rel
            name = spouse.group("name")
            hits.append(
                Hit(
                    F,
                    f"family.{rel}.name",
                    "family.name",
                    value=name,
                    content=f"User's {rel} is {name}",
                )
            )
        if k := re.search(
            rf"\bwith (?P<n>{NUM_WORD}|a|an) (?:kids?|children|child|boys?|girls?)\b",
            m.group("rest"),
            I_,
        ):
            count = "1" if k.group("n").lower() in ("a", "an") else number(k.group("n"))
            hits.append(
                Hit(
                    F,
                    "family.child",
                    "family.has",
                    value=count,
                    content=f"User has {count} children",
                )
            )
        return hits
    m = re.match(
        rf"^{IM} (?:really |honestly |just |definitely |totally |so |very |such )?(?P<neg>not )?"
        r"(?:really |much of )?(?:a |an |the )?(?:bit of an? |total |huge |big |real )?"
        r"(?P<x>left-handed|lefty|leftie|right-handed|colou?r-?blind|deaf|hard of hearing|"
        r"short-sighted|near-?sighted|introvert(?:ed)?|extrovert(?:ed)?|morning person|night owl|"
        r"early bird|only child|twin|millennial|gen z|gen x|boomer|zoomer|gen alpha)\b",
        c,
        I_,
    )
    if m:
        word = m.group("x").lower()
        if word in ("millennial", "gen z", "gen x", "boomer", "zoomer", "gen alpha"):
            return [Hit(F, "identity.generation", "generation", value=word)]
        word = {"lefty": "left-handed", "leftie": "left-handed"}.get(word, word)
        return [
            Hit(F, f"identity.trait.{slug(word)}", "trait", value="no" if m.group("neg") else "yes")
        ]
    m = re.match(
        rf"^{IM} (?:a )?(?P<x>woman|man|guy|girl|female|male|non-?binary|trans (?:woman|man))$",
        c,
        I_,
    )
    if m:
        word = m.group("x").lower()
        gender = "female" if word in ("woman", "girl", "female", "trans woman") else word
        gender = "male" if word in ("man", "guy", "male", "trans man") else gender
        return [Hit(F, "identity.gender", "gender", value=gender)]
    return []
