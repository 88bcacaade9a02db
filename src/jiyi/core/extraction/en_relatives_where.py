"""English rules for where a family member works, studies and lives, once the subject is
known: "(my husband) is at Oracle now", "works at Google", "goes to Oak Park", "got
transferred to Dallas", "jumped ship to a credit union", "moved down to Florida"; and a job
said by the work's own verb ("he's driving for Amazon now", "driving long-haul trucks").

Apart from :mod:`.en_relatives` (who the relative is: name, age, grade, health, job title,
tastes) because these rules share their own tests of a place — a town, a school, an
employer — and the child/adult split; :func:`jiyi.core.extraction.en_relatives.attributes`
calls :func:`work_school_home` in the middle of its rules.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import CHILD_MOVED, SCHOOL_WORD, SCHOOL_YEAR, place
from jiyi.core.extraction.hit import Hit
from jiyi.core.models import MemoryKind

__all__ = ["work_school_home"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

_CHILDREN = frozenset(
    {"son", "daughter", "child", "kid", "grandchild", "grandson", "granddaughter"}
)


# Words that make a thing moved to an employer, not a place to live.
_ORG_WORDS = (
    r"union|bank|company|firm|agency|startup|start-up|corporation|corp|inc|llc|hospital|"
    r"clinic|practice|department|team|studio|consultancy|nonprofit|non-profit|charity"
)


def _is_city(word: str) -> bool:
    from jiyi.core.extraction.lexicon_places import is_town_en

    return is_town_en(word)


def work_school_home(key: str, rel: str, rest: str) -> list[Hit]:
    """Where a family member (``key`` = family.son) works, studies or lives, said in
    ``rest``; [] when the clause says none of these."""
    n = re.match(
        r"^(?:is|'s) (?:now |over |now over )?(?:at|with) (?P<x>[A-Z][\w&.' -]+?)"
        r"(?: now| these days)?$",
        rest,
    )
    if n and key.split(".")[1] not in _CHILDREN:  # "(my husband left IBM,) he's at Oracle now"
        return [Hit(F, f"{key}.employer", "family.employer", value=place(n.group("x")))]
    if key.split(".")[1] in _CHILDREN and (n := CHILD_MOVED.match(rest)):
        # "Wanjiku has been moved to Hillcrest from this term", "switching to Dakota Collegiate"
        where = place(n["x"])
        if SCHOOL_WORD.search(where) or (n["p"] and not _is_city(where)):
            return [Hit(F, f"{key}.school", "family.school", value=where, correction=True,
                        content=f"User's {rel} goes to {where}")]  # fmt: skip
    if n := re.match(
        r"^(?:goes to|attends|is at|started at|is now at|'s at|is boarding at|boards at) "
        r"(?P<x>[A-Z][\w .'-]+?)(?: now)?$",
        rest,
    ):
        return [
            Hit(F, f"{key}.school", "family.school", value=place(n.group("x")))
        ]  # "goes to Oak Park"
    if (
        n := re.match(
            r"^(?:works|is working|is based) in (?P<x>.+?)(?: now)?$|^(?:got |was |has been |"
            r"just got )?"
            r"(?:transferred|posted|relocated|sent) (?:to|out to) (?P<y>.+?)(?: for work| now)?$|"
            # "packed up and went to Tucson", "sold the house and retired up to Asheville"
            # (a trip is no move: "went to Paris" alone says nothing about where they live)
            r"^(?:(?:packed up|sold (?:the|their|her|his) (?:house|place|home)|upped sticks) "
            r"and (?:went|headed|moved|took off|retired|settled)|retired|settled)"
            r"(?: down| up| over| back| out)? "
            r"(?:to|(?<=settled )in|(?<=down )in) "
            r"(?P<z>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)$",
            rest,
            I_,
        )
    ) and _is_city(w := place(n.group("x") or n.group("y") or n.group("z"))):
        return [Hit(F, f"{key}.home", "family.home", value=w)]  # "my dad got transferred to Dallas"
    if n := re.match(
        r"^(?:just |recently )?(?:jumped ship|moved over|switched over|went over|moved) to "
        rf"(?:an? |the )?(?P<x>[\w&.' -]*?\b(?:{_ORG_WORDS}))(?: now)?$",
        rest,
        I_,
    ):  # "my husband jumped ship to a credit union": a new employer, not a new home
        return [
            Hit(F, f"{key}.employer", "family.employer", value=place(n.group("x")), correction=True)
        ]
    if (
        n := re.match(
            r"^(?:just |recently )?jumped ship to "
            r"(?P<x>(?-i:[A-Z])[\w&.'-]*(?: (?-i:[A-Z])[\w&.'-]*)*)",
            rest,
            I_,
        )
    ) and not _is_city(n.group("x")):  # "my brother jumped ship to Google"
        return [Hit(F, f"{key}.employer", "family.employer", value=n.group("x"), correction=True)]
    if n := re.match(r"^works (?:at|for) (?P<x>.+)$", rest, I_) or re.match(
        # "he's driving for Amazon now": the company named, the verb of the work it is
        r"^(?:is |'s )?(?:now |still )?(?:working|(?P<d>drives|driving)|delivers|delivering|"
        r"hauls|hauling) (?:at|for) (?P<x>(?-i:[A-Z])[\w&.' -]*?|"
        r"an? [\w' -]{2,30}? (?:company|firm|service|business))"
        r"(?: now| these days| full[- ]time)?$",
        rest,
        I_,
    ):
        # "a bank in Chicago": the kind of employer; the city the user's rules read too
        where = re.sub(r"^((?:a|an) [\w' -]+?) in [A-Z][\w.' -]*$", r"\1", n.group("x"))
        hits = [Hit(F, f"{key}.employer", "family.employer", value=place(where))]
        if n.groupdict().get("d"):  # "he drives for Grab now": a driver, whatever he was before
            said = f"User's {rel} drives for {place(where)}"
            hits.insert(0, Hit(F, f"{key}.job", "family.job", value="driver", content=said))
        return hits
    if n := re.match(
        r"^(?:is |'s )?(?:now )?(?:driving|drives) (?:long-haul |long haul |big )?(?P<x>trucks?|"
        r"lorries|a lorry|a truck|a taxi|a cab|buses|a bus|forklifts?)(?: now| full[- ]time)*$",
        rest,
        I_,
    ):  # "he's driving long-haul trucks now": a driver of what he drives
        what = re.sub(r"^an? |s$|ies$", "", n["x"].lower()).replace("lorr", "lorry")
        return [Hit(F, f"{key}.job", "family.job", value=f"{what} driver")]
    if n := re.match(
        r"^(?:(?:now |still |actually |both )?(?:lives|live|is living|are living|is based|are "
        r"based)|(?:just |recently |finally )?"
        r"(?:has |'s )?(?:just |recently |finally )?(?:moved|relocated|ended up|settled)"
        r"(?: down| up| over| back| out| away| home)?)"
        r" (?:in|to|out in|out to) (?P<x>.+?)(?: now| for good)?$",
        rest,
        I_,
    ):  # "my mom moved down to Florida to be near my aunt": where she lives now
        # "moved in with our Siobhan over in Letterkenny": where, not with whom
        said = re.sub(
            r"^with (?:my|our|their|his|her) [\w']+(?: [\w']+)? (?:over |down |up |out )?in ",
            "",
            n.group("x"),
        )
        where = place(re.split(r"\s+(?:to|so|because|since|for|with|after)\s+", said)[0])
        if SCHOOL_YEAR.match(where):
            pass  # "moved up to Year 10": a school year, not a place
        elif key.split(".")[1] in _CHILDREN and SCHOOL_WORD.search(where):
            # "He's been in Scoil Mhuire since September": a child's school, not a home
            return [Hit(F, f"{key}.school", "family.school", value=where, correction=True,
                        content=f"User's {rel} goes to {where}")]  # fmt: skip
        elif not re.search(r"ended up|settled", n.group(0), I_) or _is_city(where):
            return [Hit(F, f"{key}.home", "family.home", value=where)]  # not "ended up in jail"
    return []
