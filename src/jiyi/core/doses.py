"""A medicine's dose: read where it is said, and the new dose a change names.

"我每天吃二甲双胍，一次五百毫克，一天两次" and "i take metformin 500 mg twice a day" state a
dose; "二甲双胍给我加到一次八百五了", "the dr bumped my metformin up to a thousand mg",
"薄血丸即刻減到三毫克" change it and name nothing else. The medicine is the slot
(``health.medication.<drug>``); the dose is part of what the memory says, so a change of dose
is the same memory told with the new amount (:mod:`jiyi.pipeline.dose_swap`).

Pure functions, no I/O. Chinese is read in simplified characters (callers convert).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from jiyi.core._timebase import cn_number
from jiyi.core.extraction.en_common import number
from jiyi.core.models import Candidate

__all__ = ["dose_free", "dose_in", "names_a_dose", "new_dose", "with_doses"]

_ZH_N = r"[\d一二两三四五六七八九十百千零点.]{1,6}"
_EN_N = (
    r"(?:\d{1,4}(?:\.\d{1,2})?|(?:a |one )?(?:thousand|hundred)|"
    r"(?:one|two|three|four|five|six|seven|eight|nine) hundred(?: and fifty| fifty)?|half a|"
    r"(?:twenty|seventy)[- ]five|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|thirty|forty|fifty|sixty|eighty)"
)
_UNITS = {
    "毫克": "mg", "mg": "mg", "milligrams": "mg", "微克": "mcg", "mcg": "mcg", "µg": "mcg",
    "ug": "mcg", "克": "g", "毫升": "ml", "ml": "ml", "单位": "iu", "units": "iu", "iu": "iu",
    # a count of pills (一片 → 两片, "one tablet" → "two"): a dose in pills
    "片": "pill", "粒": "pill", "颗": "pill", "tablet": "pill", "tablets": "pill", "pill": "pill",
    "pills": "pill", "capsule": "pill", "capsules": "pill",
}  # fmt: skip
_UNIT = (
    r"(?:毫克|微克|克|毫升|单位|片|粒|颗|mg|mcg|µg|ug|ml|milligrams|units|iu|tablets?|pills?|"
    r"capsules?)"
)
_DOSE = re.compile(
    rf"(?P<zh>{_ZH_N})\s?(?P<u1>{_UNIT})|\b(?P<en>{_EN_N})\s?(?P<u2>{_UNIT})\b", re.IGNORECASE
)
# A verb that sets the amount, and the number right after it (the unit may be left out:
# 加到一次八百五 / "now the metformin become 850").
_SET = re.compile(
    r"(?:加到|减到|调到|改成|改为|加量到|减量到|降到|增加到|升到|变成|换成)(?:了)?"
    rf"(?:一次|每次|每天|一天)?(?P<zh>{_ZH_N})(?:(?P<u1>{_UNIT})|(?=了|啦|$|[，,。.!！\s]))|"
    r"\b(?:up to|down to|increased (?:it )?to|reduced (?:it )?to|raised (?:it )?to|"
    r"lowered (?:it )?to|become|becomes|is now|now)\s+"
    rf"(?P<en>{_EN_N})(?:\s?(?P<u2>{_UNIT})\b|(?=\s*(?:[,.;!?]|$)))",
    re.IGNORECASE,
)
# A clause that only gives the dose or how often: 一次五百毫克 / 五毫克 / 一天两次.
_DOSE_CLAUSE = re.compile(
    rf"^(?:每次|一次|每天|一天|每日|早晚)?(?:各)?(?:{_ZH_N}(?:{_UNIT}|次|片|粒|颗))"
    rf"(?:[，,]?(?:一天|每天|每日){_ZH_N}次)?\s?(?:的)?$",
    re.IGNORECASE,
)


def _unit(said: str | None) -> str:
    return _UNITS.get((said or "").lower(), "")


def dose_in(text: str) -> tuple[str, str] | None:
    """The dose ``text`` states, as said, and its unit (``mg``, ``mcg`` …); None for none or
    for two doses of different units."""
    found = [(m.group(0), _unit(m.group("u1") or m.group("u2"))) for m in _DOSE.finditer(text)]
    if len({u for _, u in found}) > 1:  # 一片…25微克: the pill's strength is the dose
        found = [f for f in found if f[1] != "pill"]
    return found[0] if len({u for _, u in found}) == 1 else None


def _bare(dose: str) -> str:
    """The dose to compare: "forty milligrams" and "40mg" are one (40 mg)."""
    m = _DOSE.fullmatch(dose.strip())
    if m and m.group("en"):
        said = number(m.group("en").strip())
        if said.isdigit():
            return f"{said}{_unit(m.group('u2'))}"
    if m and m.group("zh") and (n := cn_number(m.group("zh"))) is not None:
        return f"{n}{_unit(m.group('u1'))}"  # 五毫克 = 5mg
    return dose.lower().replace(" ", "")


def names_a_dose(text: str) -> bool:
    """Does ``text`` name an amount or set one (all :func:`new_dose` reads)? A cheap test
    before the stored medicines are read."""
    return bool(_DOSE.search(text) or _SET.search(text))


def new_dose(text: str, held: tuple[str, str]) -> str | None:
    """The dose a change in ``text`` sets for a medicine now at ``held``: a number with the
    held unit (or none) after a verb that sets it, or the one dose of that unit the text
    names; None when it names none or the held dose itself."""
    for m in _SET.finditer(text):
        unit = _unit(m.group("u1") or m.group("u2"))
        if unit and unit != held[1]:
            continue
        said = m.group(0)[m.start("zh" if m.group("zh") else "en") - m.start() :].strip()
        if _bare(said) != _bare(held[0]):
            return said
    doses = [m.group(0) for m in _DOSE.finditer(text) if _unit(m.group("u1") or m.group("u2"))]
    other = [d for d in doses if _bare(d) != _bare(held[0])]
    same_unit = [d for d in other if (f := dose_in(d)) and f[1] == held[1]]
    return same_unit[-1] if len(set(same_unit)) == 1 else None


def dose_free(drug: str) -> str:
    """ "metformin 500 mg twice a day" / "50mcg of levothyroxine" → the medicine, not its
    dose."""
    drug = re.sub(rf"^{_EN_N}\s?{_UNIT}\s+(?:of\s+)?", "", drug, flags=re.IGNORECASE)
    return re.sub(rf"\s*\b{_EN_N}\s?{_UNIT}\b.*$", "", drug, flags=re.IGNORECASE).strip()


def with_doses(found: Mapping[str, Candidate], clauses: list[str]) -> None:
    """我每天吃二甲双胍，一次五百毫克，一天两次: the clauses right after a medicine's clause
    that only say its dose belong to its memory (the dose is what a later change swaps)."""
    for cand in found.values():
        if not (cand.topic or "").startswith("health.medication.") or cand.value == "no":
            continue
        at = next((i for i, c in enumerate(clauses) if c.strip() == (cand.quote or "")), -1)
        dose: list[str] = []
        for c in clauses[at + 1 :] if at >= 0 else []:
            if not _DOSE_CLAUSE.match(c.strip()):
                break
            dose.append(c.strip())
        held = dose_in(cand.content)
        if dose and (not held or held[1] == "pill"):  # 吃一片…，25微克: the strength too
            cand.content = cand.content.rstrip("。.") + "，" + "，".join(dose)
