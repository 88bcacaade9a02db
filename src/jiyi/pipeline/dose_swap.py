"""A new dose of a stored medicine: the same memory, told with the new amount.

"二甲双胍给我加到一次八百五了" and "the dr bumped my metformin up to a thousand mg" name the
medicine and the new amount and nothing else the rules store. For each stored, active
``health.medication.*`` memory of the user that states a dose
(:func:`jiyi.core.doses.dose_in`), whose medicine the message names and whose new dose it sets
(:func:`jiyi.core.doses.new_dose`), a candidate of the same slot: the old sentence with the
dose swapped, decided like any other (same slot, new value: SUPERSEDE, history kept). Exactly
one medicine must fit; never by similarity, and a relative's medicine is never touched (only
the user's ``health.`` slots are read).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.doses import dose_in, names_a_dose, new_dose
from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.models import Candidate, MemoryItem, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.text import has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.restate import restated, swapped_in

__all__ = ["dose_swaps"]

_RELATIVE = re.compile(
    "我的?(?:"
    + "|".join(sorted(map(re.escape, RELATIONS_ZH), key=len, reverse=True))
    + ")|"
    + "|".join(sorted((re.escape(w) for w in RELATIONS_ZH if len(w) > 1), key=len, reverse=True))
    + r"|\b(?:my|our|his|her) (?:"
    + "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


_Fit = tuple[MemoryItem, tuple[str, str], str]  # the memory, its dose and unit, the new dose


def _drug(m: MemoryItem) -> str:
    return (m.topic or "").removeprefix("health.medication.").replace("_", " ").lower()


def dose_swaps(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the stored medicines whose dose a message changes (see the module doc)."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        text = to_simplified(msg.content) if has_cjk(msg.content) else msg.content
        if not names_a_dose(text):
            continue  # no amount said: nothing to read the stored medicines for
        stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
        named: list[_Fit] = []
        unnamed: list[_Fit] = []
        for m in stored:
            if not (m.topic or "").startswith("health.medication.") or m.value == "no":
                continue
            held = dose_in(to_simplified(m.content))
            new = new_dose(text, held) if held else None
            if held and new:
                drug = _drug(m)
                (named if len(drug) >= 2 and drug in text.lower() else unnamed).append(
                    (m, held, new)
                )
        # 内分泌科让我加到一片半，也就是75微克: with no medicine named, a dose in the unit
        # of the one medicine stored with a dose of that unit (and no relative's words: 我妈的药
        # 减到五毫克 is hers)
        if _RELATIVE.search(text):
            continue  # 我妈的药也调了 / "my dad's metformin went up": theirs
        fits = named or [f for f in unnamed if (d := dose_in(f[2])) and d[1] == f[1][1]]
        if len({m.topic for m, _, _ in fits}) != 1:
            continue
        old, held, new = fits[0]
        if any(
            c.topic == old.topic
            and msg.id in c.source_message_ids
            and (dose_in(to_simplified(c.content)) or ("", ""))[0] != new
            for c in admitted
        ):
            continue  # the message restates that medicine itself (with no other dose)
        said, told = swapped_in(old, held[0], new, msg)
        out.append(
            restated(
                old,
                msg,
                value=said,
                content=told,
                quote=msg.content,
                metadata={"rule": "dose.swap", "lang": "zh" if has_cjk(text) else "en"},
            )
        )
    return out


def switched_alone(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """大夫…给我换成缬沙坦了: a switch to a medicine with the old one left unsaid (rule
    ``medication.switched_alone``) stops the user's one other stored medicine; none when they
    take none or several (which one was replaced is unknowable), or the batch stops one
    itself."""
    news = [c for c in admitted if c.metadata.get("rule") == "medication.switched_alone"]
    stopping = any(
        (c.topic or "").startswith("health.medication.") and c.value == "no" for c in admitted
    )
    if not news or stopping:
        return []
    out: list[Candidate] = []
    stored = store.list(scope, ACTIVE_MEMORIES)
    for cand in news:
        taken = [
            m
            for m in stored
            if (m.topic or "").startswith("health.medication.")
            and m.value != "no"
            and m.topic != cand.topic
        ]
        msg = next((m for m in messages if m.id in cand.source_message_ids), None)
        if len(taken) != 1 or msg is None:
            continue
        (old,) = taken
        drug = _drug(old)
        zh = has_cjk(cand.content)
        out.append(
            restated(
                old,
                msg,
                value="no",
                content=f"用户不再服用{drug}" if zh else f"User no longer takes {drug}",
                quote=msg.content,
                metadata={"rule": "medication.stopped", "lang": "zh" if zh else "en"},
            )
        )
    return out
