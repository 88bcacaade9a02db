"""Before reconciliation: a name told of "it / she / he" placed in the one name it changes.

:func:`jiyi.core.pronoun_names.named_by_pronoun` reads ``(who, name)`` from a message such as
她现在改名叫朵儿了 or "I got the cat's name wrong, he's Oliver". The stored, active name facts
that ``who`` can stand for are the candidates: the pet or relative the message names; for
"it" every pet; for "she" / "he" the relatives of that sex, else every pet. Exactly one name
slot among them: a candidate of that slot, the old sentence with the new name, marked a
correction, which reconciliation supersedes with history (same slot, new value). Two or none:
nothing, as which one was meant is unknowable. Never by similarity.
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.pronoun_names import FEMALE, MALE, NAMED, named_by_pronoun
from jiyi.core.slots import same_value
from jiyi.core.text import has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.restate import restated

__all__ = ["pronoun_names"]


def _relative(topic: str) -> str | None:
    """``daughter`` of ``family.daughter.name``."""
    parts = topic.split(".")
    return parts[1] if len(parts) == 3 and parts[0] == "family" else None


def _named(stored: Sequence[MemoryItem], who: str, text: str) -> list[MemoryItem]:
    """The name facts ``who`` can stand for (``text``: the message, simplified)."""
    names = [
        m
        for m in stored
        if m.kind == MemoryKind.FACT and m.value and (m.topic or "").endswith(".name")
    ]
    if who == NAMED:  # 阿橘是母猫，名字后来改成橘子了: the one whose stored name is said
        return [m for m in names if to_simplified(m.value or "") in text]
    if who.startswith(("pet.", "family.")):
        return [m for m in names if (m.topic or "").startswith(who + ".")]
    pets = [m for m in names if (m.topic or "").startswith("pet.")]
    if who == "it":
        return pets
    sex = FEMALE if who == "she" else MALE
    kin = [m for m in names if _relative(m.topic or "") in sex]
    return kin or pets


def _renamed(old: MemoryItem, name: str) -> str:
    value = old.value or ""
    if value and value in old.content:
        return old.content.replace(value, name, 1)
    return f"{old.content}（{name}）" if has_cjk(old.content) else f"{old.content} ({name})"


def pronoun_names(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates for the one stored name each message gives anew by a pronoun (see the
    module doc); [] when none fits exactly one name slot."""
    out: list[Candidate] = []
    stored: list[MemoryItem] | None = None
    for msg in messages:
        if msg.role != "user" or not msg.id or not msg.content:
            continue
        found = named_by_pronoun(msg.content)
        if found is None:
            continue
        ours = [c for c in [*admitted, *out] if msg.id in c.source_message_ids]
        if any((c.topic or "").endswith(".name") for c in ours):
            continue  # the rules placed a name of this message already
        who, name = found
        stored = store.list(scope, ACTIVE_MEMORIES) if stored is None else stored
        fits = _named(stored, who, to_simplified(msg.content))
        if len({m.topic for m in fits}) != 1:
            continue
        old = max(fits, key=lambda m: (m.created_at, m.id))
        if same_value(old.value, name):
            continue
        out.append(
            restated(
                old,
                msg,
                value=name,
                content=_renamed(old, name),
                quote=msg.content,
                metadata={"rule": "pronoun.name", "lang": "zh" if has_cjk(msg.content) else "en"},
            )
        )
    return out
