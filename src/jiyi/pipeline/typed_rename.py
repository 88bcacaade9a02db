"""A pet's new name said of "it" takes the place of the one pet name stored.

"其实它叫花花" / "Actually its name is Max" name no animal; the rules store nothing and the old
name stays. Said alone (one clause, "it" its subject) with a change cue (其实 / 现在 / 改名 /
actually / now / renamed), the name replaces the name of the one pet the user has named;
with two named pets, or no cue, nothing changes. Never by similarity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.text import to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES

__all__ = ["pet_renames"]

_ZH = re.compile(
    r"^(?:其实|哦|噢|不对|说错了|抱歉)?[，,]?它(?:其实|现在)?(?:改名)?(?:叫|名叫|名字叫|的名字是)"
    r"(?P<n>[\u4e00-\u9fff]{1,3}?)(?:啦|了|哈|呢)?[。.!！]?$"
)
_ZH_CUE = re.compile(r"其实|现在|改名|说错|不对")
_EN = re.compile(
    r"^(?:actually|sorry|oops|no)?,?\s*(?:its name is|it's (?:actually )?(?:called|named)|"
    r"we (?:now )?call it|we renamed it)\s+(?P<n>[A-Z][a-z]+)(?:\s+(?:now|actually))?[.!]?$",
    re.IGNORECASE,
)
_EN_CUE = re.compile(r"\b(?:actually|now|renamed|sorry|oops)\b", re.IGNORECASE)


def _new_name(text: str) -> str:
    """The name ``text`` gives "it" with a change cue; "" if none."""
    text = text.strip()
    zh = _ZH.match(to_simplified(text))
    if zh and _ZH_CUE.search(text):
        return zh.group("n")
    en = _EN.match(text)
    return en.group("n") if en and _EN_CUE.search(text) and en.group("n")[0].isupper() else ""


def _pet_names(stored: list[MemoryItem]) -> list[MemoryItem]:
    return [
        m
        for m in stored
        if m.kind == MemoryKind.FACT
        and re.fullmatch(r"pet\.\w+\.name", m.topic or "")
        and m.value
        and m.value in m.content
    ]


def pet_renames(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """Candidates renaming the user's one named pet (see the module doc); [] otherwise."""
    out: list[Candidate] = []
    for msg in messages:
        name = _new_name(msg.content or "") if msg.role == "user" and msg.id else ""
        if not name or any(msg.id in c.source_message_ids for c in [*admitted, *out]):
            continue
        named = _pet_names(store.list(scope, ACTIVE_MEMORIES))
        if len(named) != 1 or named[0].value == name:
            continue
        old = named[0]
        out.append(
            Candidate(
                kind=old.kind,
                topic=old.topic,
                value=name,
                content=old.content.replace(old.value or "", name, 1),
                importance=old.importance,
                quote=msg.content,
                source_message_ids=[msg.id or ""],
                is_correction=True,
                observed_at=msg.timestamp,
                metadata={"rule": "typed.rename"},
            )
        )
    return out
