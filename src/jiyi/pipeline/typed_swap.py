"""A new value of a typed kind takes the place of the same kind in the one fact it changes.

游泳挪到周五了 / 跑步改到晚上八点了 / 现在一天就一杯了 name the new weekday, clock time or
count and leave the routine to the listener; the rules store such a clause as an event, a
stray habit or nothing, so the old time stayed first. With a change said
(:func:`jiyi.core.typed_values.change_clauses`), each typed value of the clause looks for
the stored, active user fact that holds a value of the same kind (the same measure word for
a count) and repeats one of its words in the message (:func:`jiyi.core.typed_values.anchors`;
for a count said alone, its measure word is enough). Exactly one such slot: a candidate of
that slot, the old sentence with the value swapped, decided like any other (same slot, new
value: SUPERSEDE). Never by similarity; a relative's or someone else's clause, a worry or a
condition, a fact of a relative or pet, or a slot the message fills itself changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.extraction.subject import SOMEONE_ELSE, read_subject, strip_openers
from jiyi.core.extraction.zh_common import as_mandarin
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.text import as_said, has_cjk, is_traditional, to_simplified, to_traditional
from jiyi.core.typed_values import (
    TypedValue,
    anchors,
    change_clauses,
    typed_values,
    verb_anchor,
)
from jiyi.core.typed_values_en import anchors as anchors_en
from jiyi.core.typed_values_en import change_clauses as change_clauses_en
from jiyi.core.typed_values_en import same_value
from jiyi.core.typed_values_en import typed_values as typed_values_en
from jiyi.pipeline.decide import ACTIVE_MEMORIES, KEYED_VALUES
from jiyi.pipeline.restate import restated

__all__ = ["typed_swaps"]

# A condition anywhere in the message (要是周三加班，游泳就挪到周五): nothing changed yet.
_CONDITION = re.compile(r"如果|要是|万一|假如|的话|除非|假设")


def _about_user(clause: str) -> bool:
    """Is ``clause`` about the user (no relative, pet or other person as its subject)?"""
    if read_subject(clause) in SOMEONE_ELSE or strip_openers(clause).startswith("它"):
        return False
    return not any(w in clause for w in RELATIONS_ZH if len(w) > 1 or w in "妈爸哥姐弟妹")


# Someone else's routine: a relative, a friend, "he / she / they" ("my wife moved her
# yoga to Tuesdays").
_OTHER_EN = re.compile(
    r"\b(?:my|our|his|her) (?:\w+ )?(?:"
    + "|".join(sorted(map(re.escape, RELATIONS_EN), key=len, reverse=True))
    + r"|friend|buddy|coworker|colleague|boss|neighbou?r|roommate|cousin)\b|"
    r"\b(?:he|she|they|he's|she's|they're|his|her|their)\b|"
    # "the bank across the street opens at nine now": a place's hours, not the user's
    r"^(?:the|that) [\w' -]{1,30}? (?:opens|closes)\b",
    re.IGNORECASE,
)


def _about_user_en(clause: str) -> bool:
    return not _OTHER_EN.search(clause)


def _held(m: MemoryItem, new: TypedValue, zh: bool = True) -> TypedValue | None:
    """The value of ``new``'s kind that ``m`` states, if it states exactly one."""
    said = typed_values(to_simplified(m.content)) if zh else typed_values_en(m.content)
    same = [
        v
        for v in said
        if v.kind == new.kind and (new.kind not in ("count", "amount") or v.unit == new.unit)
    ]
    return same[0] if len(same) == 1 else None


def _usable(m: MemoryItem) -> bool:
    """A user's own routine, order or fact with a value to swap (no relative's, pet's, liking's,
    event's or plan's)."""
    topic = m.topic or ""
    return (
        bool(topic)
        and not topic.startswith(("family.", "pet."))
        and m.value not in KEYED_VALUES
        and m.kind in (MemoryKind.FACT, MemoryKind.PREFERENCE)
    )


def _fits_en(m: MemoryItem, new: TypedValue, text: str) -> TypedValue | None:
    """The value ``new`` replaces in ``m`` (English): one of its kind, and a word shared."""
    if not _usable(m):
        return None
    held = _held(m, new, zh=False)
    if held is None or same_value(held, new):
        return None
    return held if anchors_en(m.content, held, text) else None


def _fits(m: MemoryItem, new: TypedValue, text: str, alone: bool, moved: bool) -> TypedValue | None:
    """The value ``new`` replaces in ``m``, when ``m`` is a user's fact the message is about
    (``moved``: the message says the value was moved with a change verb, 改到 / 挪到)."""
    if not _usable(m):
        return None  # a routine or an order; a dated event or a plan keeps its day
    held = _held(m, new)
    if held is None:
        return None
    # 星期二 said of 周二下午: the same day (a new part of the day would be a change)
    kept = held.surface.replace(held.part, "") if held.part and not new.part else held.surface
    if _said_alike(kept) == _said_alike(new.surface):
        return None
    content = to_simplified(m.content)
    if new.after and new.after not in content:
        return None  # 一天喝一杯奶茶 is not the coffee
    if any(a in text for a in anchors(content, held)):
        return held
    # 喝两杯 → 现在一天一杯 (喝 said before) / 七点起床 → 现在六点半就起了: the verb of the value
    # is enough while the part of the day stays (晚上十点就睡了 is no new time to get up)
    verb = verb_anchor(content, held)
    # (a new weekday may bring its own part of the day: 周三晚上 → 周日早上)
    same_part = not new.part or not held.part or new.part == held.part
    # (改成晚上7点跑步: a part of the day changed on purpose, said with a change verb)
    if verb and verb in text and (same_part or new.kind == "weekday" or moved):
        return held
    if alone and new.kind == "clock" and moved and (m.topic or "").startswith("habit."):
        return held  # 而家改咗每朝六点去跑: the one routine kept with a clock time
    return held if alone and new.kind == "count" else None


_MOVED = re.compile(r"改成|改到|改为|改在|改了|改咗|挪到|挪了|换到|调到|调了")


def _said_alike(surface: str) -> str:
    """A value with its weekday word said one way (星期二 / 礼拜二 / 周二, 周天 / 周日)."""
    return re.sub(r"(?:星期|礼拜)", "周", surface).replace("周天", "周日")


_DAY_PART_EN = re.compile(
    r" (?:before|after) (?:work|school|breakfast|dinner|the office)|"
    r" in the (?:mornings?|evenings?)",
    re.IGNORECASE,
)


def _half(surface: str) -> str:
    """ "a" or "p" for a clock time said with am / pm, else ""."""
    m = re.search(r"\d\s*([ap])\.?m\b", surface.lower())
    return m.group(1) if m else ""


def _swapped(m: MemoryItem, held: TypedValue, new: TypedValue) -> tuple[str, str] | None:
    """(value, content) of ``m`` told with ``new`` in place of ``held``."""
    content = to_simplified(m.content).lower()
    at = content.find(held.surface.lower())
    if at < 0:
        return None
    said = new.surface
    if held.part and not new.part:  # 周四晚上 → 周六: still in the evening
        said = held.part + said if held.kind == "clock" else said + held.part
    told = m.content[:at] + said + m.content[at + len(held.surface) :]
    before, after = _half(held.surface), _half(said)
    if before and after and before != after:
        # 6am before work → 7pm: the part of the day the old time was kept in goes with it
        told = _DAY_PART_EN.sub("", told)
    value = m.value or ""
    i = value.lower().find(held.surface.lower())
    value = value[:i] + said + value[i + len(held.surface) :] if i >= 0 else said
    return value, told


def _chain(out: list[Candidate], prior: Candidate, old: MemoryItem, new: TypedValue) -> None:
    """Swap ``new`` into ``prior`` (a candidate this message already made of ``old``) too."""
    told = old.model_copy(update={"content": prior.content, "value": prior.value})
    held = _held(told, new, zh=False)
    if held is None or same_value(held, new):
        return
    swap = _swapped(told, held, new)
    if swap is not None:
        at = out.index(prior)
        out[at] = prior.model_copy(update={"value": swap[0], "content": swap[1]})


def typed_swaps(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the stored facts a message changes by naming a new value of their kind
    (see the module doc); [] when nothing fits exactly one slot."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        zh = has_cjk(msg.content)
        text = to_simplified(msg.content) if zh else msg.content
        if zh and _CONDITION.search(text):
            continue
        clauses = change_clauses(text) if zh else change_clauses_en(text)
        if zh and not clauses:  # 而家改咗每朝六点去跑: the change said in Cantonese
            text = as_mandarin(text)
            clauses = change_clauses(text)
        moved = _MOVED.search(text) is not None  # the time changed on purpose (改到晚上8点)
        for clause in clauses:
            if not (_about_user(clause) if zh else _about_user_en(clause)):
                continue
            said = typed_values(clause) if zh else typed_values_en(clause)
            for new in said:
                stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
                alone = len(said) == 1 and not new.after
                fits = [
                    (m, h)
                    for m in stored
                    if (h := _fits(m, new, text, alone, moved) if zh else _fits_en(m, new, text))
                ]
                if len({m.topic for m, _ in fits}) != 1:
                    continue
                old, held = max(fits, key=lambda f: (f[0].created_at, f[0].id))
                ours = [c for c in [*admitted, *out] if msg.id in c.source_message_ids]
                if zh:  # 週日早上 as the user wrote it, not 周日早上
                    surface = as_said(msg.content, new.surface)
                    if surface == new.surface and is_traditional(msg.content):
                        surface = to_traditional(surface)  # 每朝六點 read as 早上六点: 早上六點
                    new = replace(new, surface=surface)
                prior = [c for c in out if c.topic == old.topic and msg.id in c.source_message_ids]
                if prior and not zh:
                    # "moved my runs to after work. Around half five": the time goes into the
                    # fact already told with the new part of the day
                    _chain(out, prior[0], old, new)
                    continue
                swap = _swapped(old, held, new)
                if swap is None or any(c.topic == old.topic for c in ours):
                    continue
                out.append(
                    restated(
                        old,
                        msg,
                        value=swap[0],
                        content=swap[1],
                        quote=clause,
                        metadata={"rule": "typed.swap", "lang": "zh" if zh else "en"},
                    )
                )
    return out
