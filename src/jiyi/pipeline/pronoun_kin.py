"""A message that opens with 他 / 她 / "he" / "she" and names nobody, read as said of the one
relative of that sex the user has told about.

"他腰伤了跑不动，…现在是地铁司机" comes after the user has said 我老公是外卖骑手: with nobody
named, the rules read no relative's job, and the husband's old job stayed. When the user's
stored facts hold exactly one relative of the pronoun's sex (a husband, a brother, a son …
for 他 / "he"), the pronoun is said as that relative (我老公腰伤了… / "my husband …"), with
the word the user called them by ("he's moved up" as "my son has moved up"; talk that only
leads in before an English pronoun is left out, as the rules for a relative read "my son …"
from the start). Nothing is done when the message names anyone (a relative, a friend, a
colleague), when the user has told of none or several relatives of that sex, or for 他们 /
"they". Found by the stored slots, never by similarity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.extraction.lexicon import RELATIONS_EN, RELATIONS_ZH
from jiyi.core.models import MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.pronoun_names import FEMALE, MALE, s_is_has
from jiyi.core.text import has_cjk, to_simplified

__all__ = ["pronoun_opened"]

_ACTIVE = SearchFilter(kinds=(MemoryKind.FACT, MemoryKind.PREFERENCE))
# Talk that only leads in before the pronoun.
_LEAD_ZH = r"(?:(?:唉|哎|诶|欸|嗯|对了|跟你说|话说|好消息|哈哈+)[，,！!～~ ]*)*"
_OPEN_ZH = re.compile(rf"^(?P<lead>{_LEAD_ZH})(?P<p>他|她)(?![们們])")
_OPEN_EN = re.compile(
    r"^(?:(?:so|oh|ok|okay|well|update|guess what|good news|big news|anyway|hey|ugh)"
    r"[,:!.]*\s+)*(?P<p>he|she)(?P<be>'s|s| is)?\b(?!')",
    re.IGNORECASE,
)
# Someone else in the message: "he" may be theirs.
_OTHERS_ZH = re.compile(r"同事|朋友|老板|领导|邻居|同学|室友|老师|医生|师傅|哥们|闺蜜|客户")
_OTHERS_EN = re.compile(
    r"\b(?:friend|boss|coworker|co-worker|colleague|neighbou?r|roommate|teacher|doctor|coach|"
    r"manager|buddy|client|guy|girl|man|woman)\b",
    re.IGNORECASE,
)
_KIN_EN = re.compile(
    r"\b(?:"
    + "|".join(
        sorted((re.escape(w.replace("_", " ")) for w in RELATIONS_EN), key=len, reverse=True)
    )
    + r")\b",
    re.IGNORECASE,
)


def _relatives(stored: Sequence[MemoryItem]) -> dict[str, list[MemoryItem]]:
    """``son`` / ``husband`` … → the stored facts of that relative."""
    out: dict[str, list[MemoryItem]] = {}
    for m in stored:
        parts = (m.topic or "").split(".")
        if parts[0] == "family" and len(parts) >= 3:
            out.setdefault(parts[1], []).append(m)
    return out


def _word_zh(key: str, facts: list[MemoryItem]) -> str | None:
    """The word the user's facts call the relative by (弟弟, not 哥哥, for a younger one)."""
    said = " ".join(to_simplified(m.content) for m in facts)
    words = sorted((w for w, k in RELATIONS_ZH.items() if k == key), key=len, reverse=True)
    return next((w for w in words if w in said), words[0] if words else None)


def _said(text: str, kin: dict[str, list[MemoryItem]]) -> str | None:
    """``text`` with its opening pronoun said as the one relative of that sex, or None."""
    zh = has_cjk(text)
    m = (_OPEN_ZH if zh else _OPEN_EN).match(text)
    if not m:
        return None
    rest = text[m.end() :]
    if zh:
        plain = to_simplified(rest)
        if _OTHERS_ZH.search(plain) or any(len(w) > 1 and w in plain for w in RELATIONS_ZH):
            return None
    elif _OTHERS_EN.search(rest) or _KIN_EN.search(rest):
        return None
    sex = MALE if m["p"].lower() in ("他", "he") else FEMALE
    keys = [k for k in kin if k in sex]
    if len(keys) != 1:
        return None
    (key,) = keys
    if zh:
        word = _word_zh(key, kin[key])
        return f"{m['lead']}我{word}{rest}" if word else None
    rel = next((w.replace("_", " ") for w, k in RELATIONS_EN.items() if k == key), None)
    if rel is None:
        return None
    be = (" has" if s_is_has(rest) and m["be"] != " is" else " is") if m["be"] else ""
    return f"my {rel}{be}{rest}"


def pronoun_opened(messages: Sequence[Message], scope: Scope, store: MemoryStore) -> list[Message]:
    """The messages with an opening 他 / 她 / "he" / "she" said as the one relative it can
    be (see the module doc); the others as they were."""
    opened = [
        m
        for m in messages
        if m.role == "user" and (_OPEN_ZH if has_cjk(m.content) else _OPEN_EN).match(m.content)
    ]
    if not opened:
        return list(messages)
    kin = _relatives(store.list(scope, _ACTIVE))
    out = []
    for m in messages:
        said = _said(m.content, kin) if m in opened else None
        out.append(m.model_copy(update={"content": said}) if said else m)
    return out
